"""The broadcast and hall pages: the score strip (``/overlay``), the table display
(``/board``) and the interval statistics (``/interval``), and what they add to the live state.

All three read the live state (``api/stream``, Server-Sent Events; the same JSON as
``api/state``, documented in docs/LIVE.md, schema ``tracker/records/live-state.schema.json``)
and draw it in the conventions of snooker television and hall scoreboards: names, frames won
and best of N, points, the current break with the balls potted in it, points remaining, the
difference, snookers required, reds remaining, the player at the table marked by an arrow and
bold type (not by colour alone), the last foul named, the frame's time.

- ``/overlay``: a compact lower-third strip (at most :data:`STRIP_MAX_PX` wide) on a
  transparent background, for a browser source in OBS or vMix. Query parameters (all
  optional): ``pos`` (``bottom``, ``top``, ``bottom-left``, ``bottom-right``, ``top-left``,
  ``top-right``), ``bg``, ``fg`` and ``accent`` (CSS colours: a name, or hex without ``#``),
  ``logo`` (an image address shown at the strip's left), ``scale`` (type size, 0.5-3).
- ``/board``: a full-screen table display in large type, readable from both ends of the
  table: the upper half is the same display turned half a turn, for the far end (``ends=1``:
  one way up only). Same colour parameters.
- ``/interval``: between frames, the frame's and the match's statistics per player
  (:mod:`tracker.stats`); ``overlay=1`` puts it on a transparent background.

Addresses in the pages are relative (``api/stream``), so they also work under a hall's
``/table/NAME/``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tracker.stats import match_stats, split_by_match

if TYPE_CHECKING:
    from tracker.outputs.board import Board
    from tracker.outputs.store import MatchStore
    from tracker.stats import PlayerStats

#: The score strip's widest, CSS px at scale 1.
STRIP_MAX_PX = 760


def _player_figures(p: PlayerStats) -> dict[str, Any]:
    """One player's interval figures as plain JSON (times s, ratios 0-1 or None)."""
    return {"pot_success": p.pot_success, "pots": p.pots, "missed_pots": p.missed_pots,
            "long_pot_success": p.long_pot_success, "long_pots": p.long_pots,
            "long_missed_pots": p.long_missed_pots, "safeties": p.safeties, "fouls": p.fouls,
            "average_shot_time_s": p.average_shot_time_s,
            "points_per_visit": p.points_per_visit, "visits": p.visits,
            "breaks_20": int(p.breaks_at_least.get(20, 0)),
            "breaks_50": int(p.breaks_at_least.get(50, 0)),
            "breaks_100": int(p.breaks_at_least.get(100, 0)),
            "highest_break": p.highest_break}


def interval_stats(log: list[dict[str, Any]], decisions: list[dict[str, Any]],
                   frame: int) -> dict[str, Any]:
    """The statistics the interval page shows: ``{"frame": N, "frame_stats": {player:
    figures}, "match_stats": {player: figures}}`` for frame ``frame`` (the latest) and the
    whole match, from the match log and the current calls."""
    if not log:
        return {"frame": frame, "frame_stats": {}, "match_stats": {}}
    ms = match_stats(log, decisions)
    per_frame = ms.per_frame.get(frame, {})
    return {"frame": frame,
            "frame_stats": {p: _player_figures(s) for p, s in per_frame.items()},
            "match_stats": {p: _player_figures(s) for p, s in ms.match.items()}}


def live_extras(store: MatchStore, run: dict[str, Any], board: Board,
                decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """What the live state adds to the folded board: the frame's time and best of N on the
    board (set in place), and the interval statistics (returned as ``{"stats": ...}``)."""
    rid = int(run["id"])
    # a table's day: the match under way (the last of the run's matches)
    log, decisions = (list(x) for x in split_by_match(store.log(rid), decisions)[-1])
    start = next((r for r in log if r.get("type") == "frame_start"), None)
    if start is not None:
        board.best_of = int(start.get("best_of") or board.best_of)
    first, last = store.frame_span(rid, board.frame)
    if first is not None:
        end = last if board.frame_over else max(float(run.get("video_t") or 0), last or first)
        board.frame_time_s = round(max(0.0, end - first), 1)
    return {"stats": interval_stats(log, decisions, board.frame)}


_TV_JS = r"""
const $=s=>document.querySelector(s);
function esc(t){return String(t??'').replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]))}
const Q=new URLSearchParams(location.search);
function colour(k,d){const v=Q.get(k);if(!v||!/^[#a-zA-Z0-9(),.% ]{1,40}$/.test(v))return d;return /^[0-9a-fA-F]{3,8}$/.test(v)?'#'+v:v}
function logo(){const v=Q.get('logo');if(!v||!/^(https?:\/\/[^"'<>\s]+|[\w.\/-]+)$/.test(v))return '';return `<img class="logo" src="${esc(v)}" alt="">`}
function setTheme(){const r=document.documentElement.style;r.setProperty('--bg',colour('bg','rgba(12,20,16,.92)'));
 r.setProperty('--fg',colour('fg','#f4f4f4'));r.setProperty('--accent',colour('accent','#ffd84a'));
 const s=Math.min(3,Math.max(.5,parseFloat(Q.get('scale')||'1')||1));r.setProperty('--scale',s)}
const BALL_CSS={red:'#c8102e',yellow:'#f2d600',green:'#0a8f3c',brown:'#7b4a1e',blue:'#1656c8',pink:'#f28fb1',black:'#111','cue ball':'#fff'};
function balls(list){return list.map(b=>`<span class="ball" title="${esc(b)}" style="background:${BALL_CSS[b]||'#888'}"></span>`).join('')}
function clock(s){if(s==null)return '';s=Math.round(s);const h=Math.floor(s/3600),m=Math.floor(s/60)%60,x=s%60;
 return (h?h+':'+String(m).padStart(2,'0'):m)+':'+String(x).padStart(2,'0')}
function facts(b){const f=[];if(b.points_remaining!=null)f.push(['remaining','Remaining',b.points_remaining]);
 if(b.reds_remaining!=null)f.push(['reds','Reds',b.reds_remaining]);
 if(b.leader)f.push(['difference','Difference',b.difference]);
 for(const [p,n] of Object.entries(b.snookers_required||{}))f.push(['snookers',esc(p)+' needs',n+' snooker'+(n>1?'s':'')]);
 if(b.frame_time_s!=null)f.push(['frametime','Frame time',clock(b.frame_time_s)]);return f}
function live(onState){let es;const go=()=>{es=new EventSource('api/stream');es.onmessage=e=>{const st=JSON.parse(e.data);
 window.__state=st;onState(st)};es.onerror=()=>{es.close();setTimeout(go,1000)}};go()}
setTheme();
"""

_TV_CSS = """
*{box-sizing:border-box}:root{--scale:1}
body{margin:0;font-family:'Segoe UI',Roboto,system-ui,sans-serif;color:var(--fg)}
.ball{display:inline-block;width:.8em;height:.8em;border-radius:50%;margin:0 .08em;
vertical-align:-.08em;border:1px solid rgba(255,255,255,.5)}
.on .name{font-weight:800}.name .mark{color:var(--accent);visibility:hidden}
.on .name .mark{visibility:visible}.off .name{font-weight:400;opacity:.85}
.foul{background:#a01826;color:#fff;font-weight:700}
"""

STRIP = ("""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Score strip</title>
<style>""" + _TV_CSS + """
html,body{background:transparent!important}
#strip{position:fixed;width:min(96vw,calc(STRIPpx*var(--scale)));font-size:calc(22px*var(--scale));
margin:0 2vw}
#strip.bottom{bottom:4vh;left:0;right:0;margin:auto}#strip.top{top:4vh;left:0;right:0;margin:auto}
#strip.bottom-left{bottom:4vh;left:0}#strip.bottom-right{bottom:4vh;right:0}
#strip.top-left{top:4vh;left:0}#strip.top-right{top:4vh;right:0}
.row{display:flex;align-items:stretch;background:var(--bg);border-radius:.3em;overflow:hidden}
.logo{height:2em;margin:.2em .4em;align-self:center}
.side{flex:1;display:flex;align-items:center;justify-content:space-between;padding:.25em .5em;gap:.4em;
border-bottom:.18em solid transparent}.side.on{border-bottom-color:var(--accent)}
.side.b{flex-direction:row-reverse}.pts{font-size:1.3em;font-weight:800;font-variant-numeric:tabular-nums;
min-width:2.2em;text-align:center;background:rgba(255,255,255,.1);border-radius:.2em}
.mid{padding:.2em .6em;text-align:center;line-height:1.05;background:rgba(0,0,0,.35)}
.mid .fw{font-weight:800;font-size:1.05em}.mid .bo{font-size:.6em;opacity:.85}
.sub{display:flex;flex-wrap:wrap;gap:.2em .9em;font-size:.68em;padding:.2em .6em;background:var(--bg);
margin-top:.15em;border-radius:.3em}.sub b{color:var(--accent)}
#foul{font-size:.72em;padding:.25em .6em;margin-top:.15em;border-radius:.3em}#foul:empty{display:none}
#call{font-size:.72em;padding:.25em .6em;margin-top:.15em;border-radius:.3em;background:var(--bg);
transition:opacity .4s}#call.hide{opacity:0}
</style></head><body><div id="strip" class="bottom"></div>
<script>""" + _TV_JS + """
const pos=['bottom','top','bottom-left','bottom-right','top-left','top-right'].includes(Q.get('pos'))?Q.get('pos'):'bottom';
$('#strip').className=pos;let seen=null,timer=null;
function side(b,p,cls){const on=b.striker===p&&!b.frame_over;
 return `<div class="side ${cls} ${on?'on':'off'}" data-player="${esc(p)}" data-at-table="${on}"><span class="name"><span class="mark">&#9654;</span> ${esc(p)}</span>`+
 `<span class="pts">${b.score[p]??0}</span></div>`}
function strip(st){const b=st.board;if(b.players.length!==2)return '';const [a,c]=b.players;
 const brk=b.break_points?`<span id="break">Break <b>${b.break_points}</b> ${balls(b.break_balls||[])}</span>`:'';
 const f=facts(b).map(([id,k,v])=>`<span id="${id}">${k} <b>${esc(v)}</b></span>`).join('');
 const tail=b.frame_over?`<span id="framewin">Frame to <b>${esc(b.winner)}</b></span>`:brk+f;
 return `<div class="row">${logo()}${side(b,a,'a')}<div class="mid"><div class="fw">${b.frames_won[a]??0} (${b.best_of}) ${b.frames_won[c]??0}</div>`+
 `<div class="bo">frames · best of ${b.best_of}</div></div>${side(b,c,'b')}</div>`+
 `<div class="sub">${tail}</div><div id="foul" class="foul">${b.frame_over?'':esc(b.foul||'')}</div><div id="call" class="hide"></div>`}
live(st=>{$('#strip').innerHTML=strip(st);const c=st.calls[0];
 if(c&&c.kind!=='foul'&&c.kind!=='miss'){const k=c.seq+':'+c.head;if(seen!==null&&k!==seen){$('#call').textContent=c.head+(c.sub?' · '+c.sub:'');
  $('#call').classList.remove('hide');clearTimeout(timer);timer=setTimeout(()=>$('#call')&&$('#call').classList.add('hide'),4000)}}
 seen=c?c.seq+':'+c.head:'';});
</script></body></html>""").replace("STRIPpx", f"{STRIP_MAX_PX}px")

TABLE_DISPLAY = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Table scoreboard</title>
<style>""" + _TV_CSS + """
html,body{height:100%;background:#050a07}body{display:flex;flex-direction:column}
.half{flex:1;display:flex;flex-direction:column;justify-content:center;padding:1vh 3vw;background:var(--bg)}
.half.far{transform:rotate(180deg);border-bottom:.4vh solid #333}
.players{display:grid;grid-template-columns:1fr auto 1fr;align-items:center;gap:2vw}
.p{display:flex;flex-direction:column;align-items:center;border-radius:1vh;padding:.5vh 1vw;
border:.5vh solid transparent}.p.on{border-color:var(--accent)}
.p .name{font-size:5vh}.p .pts{font-size:14vh;font-weight:800;line-height:1;font-variant-numeric:tabular-nums}
.frames{text-align:center;font-size:4vh}.frames b{font-size:7vh;display:block}
.line{display:flex;justify-content:center;flex-wrap:wrap;gap:1vh 3vw;font-size:3.6vh;margin-top:1vh}
.line b{color:var(--accent)}.foul{font-size:3.4vh;text-align:center;border-radius:1vh;margin-top:1vh;padding:.4vh}
.foul:empty{display:none}
</style></head><body><div id="far" class="half far"></div><div id="near" class="half"></div>
<script>""" + _TV_JS + """
function display(st){const b=st.board;if(b.players.length!==2)return '<div class="line">Waiting for the frame to start</div>';
 const [a,c]=b.players;const on=p=>b.striker===p&&!b.frame_over;
 const pl=p=>`<div class="p ${on(p)?'on':'off'}" data-player="${esc(p)}"><span class="name"><span class="mark">&#9654;</span> ${esc(p)}</span><span class="pts">${b.score[p]??0}</span></div>`;
 const brk=b.frame_over?`<span>Frame to <b>${esc(b.winner)}</b></span>`:`<span class="brk">Break <b>${b.break_points}</b> ${balls(b.break_balls||[])}</span>`;
 const f=b.frame_over?'':facts(b).map(([id,k,v])=>`<span class="${id}">${k} <b>${esc(v)}</b></span>`).join('');
 return `${logo()}<div class="players">${pl(a)}<div class="frames"><b>${b.frames_won[a]??0} – ${b.frames_won[c]??0}</b>frames · best of ${b.best_of}<br>frame ${b.frame}</div>${pl(c)}</div>`+
 `<div class="line">${brk}${f}</div><div class="foul">${b.frame_over?'':esc(b.foul||'')}</div>`}
if(Q.get('ends')==='1')$('#far').remove();
live(st=>{const h=display(st);$('#near').innerHTML=h;if($('#far'))$('#far').innerHTML=h;});
</script></body></html>"""

INTERVAL = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Interval</title>
<style>""" + _TV_CSS + """
html,body{background:#0b130e}body.overlay,html.overlay{background:transparent!important}
#card{max-width:calc(900px*var(--scale));margin:4vh auto;background:var(--bg);border-radius:10px;
padding:1rem 1.4rem;font-size:calc(20px*var(--scale))}h1{font-size:1.3em;margin:.2em 0 .6em}
table{width:100%;border-collapse:collapse}th,td{padding:.25em .5em;text-align:center;
border-bottom:1px solid rgba(255,255,255,.12)}td:first-child,th:first-child{text-align:left}
th{color:var(--accent)}.muted{opacity:.7;font-size:.8em}
</style></head><body><div id="card"></div>
<script>""" + _TV_JS + """
if(Q.get('overlay')==='1'){document.body.classList.add('overlay');document.documentElement.classList.add('overlay')}
const pct=v=>v==null?'–':Math.round(100*v)+'%';const num=(v,d=1)=>v==null?'–':Number(v).toFixed(d);
const ROWS=[['Pot success',s=>`${pct(s.pot_success)} <span class="muted">(${s.pots}/${s.pots+s.missed_pots})</span>`,'pot'],
 ['Long pots',s=>`${pct(s.long_pot_success)} <span class="muted">(${s.long_pots}/${s.long_pots+s.long_missed_pots})</span>`,'long'],
 ['Safeties',s=>s.safeties,'safeties'],['Fouls',s=>s.fouls,'fouls'],
 ['Average shot time',s=>s.average_shot_time_s==null?'–':num(s.average_shot_time_s)+' s','shottime'],
 ['Points per visit',s=>num(s.points_per_visit),'ppv'],['Breaks 20+',s=>s.breaks_20,'b20'],
 ['Breaks 50+',s=>s.breaks_50,'b50'],['Breaks 100+',s=>s.breaks_100,'b100'],['Highest break',s=>s.highest_break,'high']];
function table(title,id,per,players){if(!players.every(p=>per[p]))return '';
 return `<table id="${id}"><tr><th>${title}</th>${players.map(p=>`<th>${esc(p)}</th>`).join('')}</tr>`+
 ROWS.map(([k,f,key])=>`<tr data-row="${key}"><td>${k}</td>${players.map(p=>`<td data-player="${esc(p)}">${f(per[p])}</td>`).join('')}</tr>`).join('')+'</table>'}
live(st=>{const b=st.board,s=st.stats||{};const pl=b.players;if(pl.length!==2){$('#card').innerHTML='<h1>Waiting for the match to start</h1>';return}
 const head=b.frame_over?`Frame ${b.frame} to ${esc(b.winner)} · ${esc(pl[0])} ${b.score[pl[0]]} – ${b.score[pl[1]]} ${esc(pl[1])}`:`Frame ${b.frame} in play`;
 $('#card').innerHTML=`${logo()}<h1 id="head">${head}</h1><p>Frames ${esc(pl[0])} ${b.frames_won[pl[0]]??0} – ${b.frames_won[pl[1]]??0} ${esc(pl[1])} (best of ${b.best_of})</p>`+
 table('This frame','frame-stats',s.frame_stats||{},pl)+'<br>'+table('The match','match-stats',s.match_stats||{},pl)+
 '<p class="muted">Safeties and missed pots are inferred from where the balls went (nobody tells the camera what a player meant).</p>'});
</script></body></html>"""
