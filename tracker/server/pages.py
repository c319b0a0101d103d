"""The live pages (HTML, CSS and a little JavaScript, no build step, no external files).

Every page opens ``/api/stream`` (Server-Sent Events) and redraws from the state it sends
(:class:`tracker.server.app.LiveState`): ``run``, ``board``
(:class:`tracker.outputs.board.Board`), ``calls`` (newest first) and ``console``.

Every address in a page is RELATIVE (``api/stream``, ``overlay``, ``review/3``,
``../media/...``): the same page serves the newest run at ``/`` and one table of a hall at
``/table/NAME/`` (:mod:`tracker.server.hall`), reaching that table's stream and console.
"""

from __future__ import annotations

from html import escape
from typing import Any

from tracker.server.tv import STRIP
from tracker.words import VIEWPOINT, capital, say

_BASE_CSS = """
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,
sans-serif;background:#0f1a14;color:#eee}a{color:#9fd}
.bar{display:flex;align-items:stretch;gap:0;background:#111;border-radius:10px;overflow:hidden;
font-size:2.2rem;font-weight:700}.bar .p{flex:1;padding:.5rem 1rem;display:flex;
justify-content:space-between}.bar .p.on{background:#23402e;box-shadow:inset 0 -5px 0 #ffd84a}
.bar .p .s{font-variant-numeric:tabular-nums}.bar .mid{padding:.5rem 1rem;background:#222;
font-size:1.2rem;display:flex;flex-direction:column;justify-content:center;text-align:center}
.info{display:flex;gap:1.5rem;font-size:1.2rem;margin:.6rem 0;flex-wrap:wrap}
.info b{color:#ffd84a}.call{padding:.6rem .8rem;margin:.4rem 0;border-radius:8px;
background:#1c2b22;border-left:8px solid #556}.call .h{font-weight:700;font-size:1.15rem}
.call.foul,.call.miss{border-color:#d23}.call.pot{border-color:#3b3}.call.input{border-color:#38c}
.call.frame{border-color:#fb3}.call.error{border-color:#f80}.call .t{opacity:.8;font-size:.9rem}
.rev{background:#f80;color:#000;border-radius:6px;padding:.1rem .4rem;font-size:.85rem;
margin-left:.4rem}.banner{margin:.8rem 0;padding:1rem;border-radius:10px;text-align:center;
background:#333}.banner .h{font-size:2.4rem;font-weight:800}.banner .sub{font-size:1.3rem}
.banner.foul,.banner.miss{background:#a01826}.banner.pot{background:#1e6b2a}
.banner.input{background:#1d4f7a}.banner.frame{background:#a86b00}.muted{opacity:.6}
main{max-width:1100px;margin:0 auto;padding:1rem}
"""

_COMMON_JS = """
const $=s=>document.querySelector(s);
function esc(t){return String(t??'').replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]))}
function bar(st){const b=st.board;if(b.players.length!==2)return '<div class="muted">waiting for the frame to start…</div>';
 const [a,c]=b.players;const on=p=>(b.striker===p&&!b.frame_over)?' on':'';
 return `<div class="bar"><div class="p${on(a)}" data-player="${esc(a)}"><span>${esc(a)}</span><span class="s">${b.score[a]??0}</span></div>`+
 `<div class="mid"><span>${b.frames_won[a]??0} – ${b.frames_won[c]??0}</span><span class="muted" style="font-size:.8rem">frames (best of ${b.best_of})</span></div>`+
 `<div class="p${on(c)}" data-player="${esc(c)}"><span class="s">${b.score[c]??0}</span><span>${esc(c)}</span></div></div>`}
function info(st){const b=st.board;if(b.frame_over)return `<div class="info">Frame ${b.frame} to <b>${esc(b.winner)}</b></div>`;
 return `<div class="info"><span>Frame <b>${b.frame}</b></span><span>${esc(b.striker||'')} to play</span><span>Break <b id="brk">${b.break_points}</b></span>`+
 `<span>Ball on: <b id="ballon">${b.free_ball?'free ball, then '+esc(b.ball_on):esc(b.ball_on)}</b></span>${b.options.length?`<span>${esc(b.players.find(p=>p===b.striker)||'')} may: <b>${b.options.map(o=>esc(OPTION_WORDS[o]||o)).join(' · ')}</b></span>`:''}</div>`}
const OPTION_WORDS={play:'play on',play_again:'ask the offender to play again',replace:'have the balls replaced',ball_anywhere:'place the cue ball anywhere',ball_in_hand:'play from hand'};
function calls(st,n){return st.calls.slice(0,n).map(c=>`<div class="call ${c.kind}" data-seq="${c.seq}"><div class="h">${esc(c.head)} <span class="muted">${esc(c.sub)}</span>`+
 `${c.review.length?`<a class="rev" href="review/${c.shot}">review</a>`:''}</div><div class="t">${esc(c.text)}</div></div>`).join('')}
window.__arrivals=[];const __seen=new Set();
function live(onState){let es;const go=()=>{es=new EventSource('api/stream');es.onmessage=e=>{const st=JSON.parse(e.data);
 window.__state=st;onState(st);const now=Date.now()/1000;
 for(const c of st.calls){const k=c.seq+':'+c.head;if(!__seen.has(k)){__seen.add(k);window.__arrivals.push({seq:c.seq,head:c.head,emitted:c.emitted,shown:now})}}};
 es.onerror=()=>{es.close();setTimeout(go,1000)}};go()}
"""

SCOREBOARD = f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Scoreboard</title>
<style>{_BASE_CSS}</style></head><body><main>
<h1 style="margin:.2rem 0 .8rem;font-size:1.3rem" class="muted">snooker-tracker · live scoreboard
<span id="runinfo" style="font-weight:400"></span></h1>
<div id="bar"></div><div id="info"></div><div id="banner"></div>
<h2 style="font-size:1.1rem">Calls</h2><div id="calls"></div>
<p class="muted" style="font-size:.85rem">Pockets and cushions are named {VIEWPOINT}.
<a href="overlay">Broadcast overlay</a> · <a href="console">Referee console</a></p>
</main><script>{_COMMON_JS}
live(st=>{{$('#bar').innerHTML=bar(st);$('#info').innerHTML=info(st);
 const c=st.calls[0];$('#banner').innerHTML=c?`<div class="banner ${{c.kind}}" id="last-call" data-seq="${{c.seq}}"><div class="h">${{esc(c.head)}}</div><div class="sub">${{esc(c.sub)}}</div></div>`:'';
 $('#calls').innerHTML=calls(st,12);
 const r=st.run;$('#runinfo').textContent=r?` · ${{r.status==='running'?(r.stale?'stopped':'live'):r.status}} · video ${{(r.video_t||0).toFixed(1)}} s${{r.warning?' · '+r.warning:''}}`:'';}});
</script></body></html>"""

#: ``/overlay``: the compact score strip for a broadcast browser source (:mod:`tracker.server.tv`).
OVERLAY = STRIP

CONSOLE = f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Referee console</title>
<style>{_BASE_CSS}
fieldset{{border:1px solid #355;border-radius:8px;margin:.6rem 0;padding:.6rem}}
legend{{font-weight:700;color:#9fd}}button{{font-size:1rem;padding:.5rem .8rem;margin:.2rem;
border-radius:6px;border:0;background:#2d6a8a;color:#fff;cursor:pointer}}button:disabled{{opacity:.35;cursor:default}}
button.warn{{background:#a01826}}select,input{{font-size:1rem;padding:.4rem;border-radius:6px}}
#log div{{font-size:.9rem;padding:.2rem 0;border-bottom:1px solid #234}}.ok{{color:#8e8}}.no{{color:#f88}}
</style></head><body><main>
<h1 style="font-size:1.3rem">Referee console</h1>
<p><label>Token <input id="token" type="password" size="28" autocomplete="off"></label>
<span class="muted" style="font-size:.85rem">(printed when the server started; kept in this tab only)</span></p>
<div id="bar"></div><div id="info"></div><div id="banner"></div>
<fieldset><legend>After a foul: the non-offender's choice</legend>
<button id="opt-play" data-opt="play">Play from here</button>
<button id="opt-play_again" data-opt="play_again">Ask the offender to play again</button>
<button id="opt-replace" data-opt="replace">Replace the balls (after a miss)</button></fieldset>
<fieldset><legend>The coming stroke</legend>
<label>Nominate <select id="nom"><option>yellow</option><option>green</option><option>brown</option>
<option>blue</option><option>pink</option><option>black</option></select></label>
<button id="do-nominate">Nominate</button>
<label>Free ball <select id="fb"><option>red</option><option>yellow</option><option>green</option><option>brown</option>
<option>blue</option><option>pink</option><option>black</option></select></label>
<button id="do-freeball">Free ball</button>
<button id="miss-next-yes">Call a miss</button><button id="miss-next-no">No miss</button></fieldset>
<fieldset><legend>Correct the last call</legend>
<button id="miss-last-yes" class="warn">It was a miss</button>
<button id="miss-last-no" class="warn">Cancel the miss</button>
<label>Foul the camera cannot see <select id="foulcode"><!--FOULS--></select></label>
<button id="foul-last" class="warn">Add to the last stroke</button>
<button id="foul-next">Add to the coming stroke</button>
<button id="undo" class="warn">Take back the last correction</button></fieldset>
<fieldset><legend>Frame</legend>
<label>Player <select id="player"></select></label>
<button id="do-striker">Is to strike</button><button id="do-concede" class="warn">Concedes</button>
<button id="do-award" class="warn">Award the frame</button></fieldset>
<fieldset id="match-setup"><legend>Match set-up</legend>
<label>Players <input id="m-a" size="12" placeholder="first player"></label>
<label>v <input id="m-b" size="12" placeholder="second player"></label><br>
<label><select id="m-kind"><option value="best_of">Best of</option><option value="race_to">Race to</option></select>
<input id="m-n" size="3" value="1"> frames</label>
<label>Game <select id="m-rules"><option value="snooker">snooker, 15 reds</option>
<option value="snooker-10-reds">snooker, 10 reds</option><option value="snooker-6-reds">snooker, 6 reds</option></select></label><br>
<label>Start points each frame: first <input id="m-ha" size="3" placeholder="0"></label>
<label>second <input id="m-hb" size="3" placeholder="0"></label>
<label>Breaks first <select id="m-breaker"><option value="a">first player</option><option value="b">second player</option></select></label><br>
<label>Taken up: frames won <input id="m-fa" size="2" placeholder="0"> - <input id="m-fb" size="2" placeholder="0"></label>
<label>this frame's score <input id="m-sa" size="3"> - <input id="m-sb" size="3"></label><br>
<label><input id="m-queue" type="checkbox"> Queue as the next match (after the one under way)</label>
<button id="do-match">Set the match</button> <span id="m-msg"></span></fieldset>
<h2 style="font-size:1.1rem">Requests</h2><div id="log"></div><div id="requests"></div>
<h2 style="font-size:1.1rem">Calls</h2><div id="calls"></div>
</main><script>{_COMMON_JS}
const tok=$('#token');
function takeToken(){{const h=new URLSearchParams(location.hash.slice(1));
 if(h.get('token')){{sessionStorage.setItem('token',h.get('token'));history.replaceState(null,'',location.pathname)}}
 tok.value=sessionStorage.getItem('token')||''}}
takeToken();window.addEventListener('hashchange',takeToken);
tok.onchange=()=>sessionStorage.setItem('token',tok.value);
async function send(body){{const r=await fetch('api/console',{{method:'POST',headers:{{'Content-Type':'application/json',
 'Authorization':'Bearer '+tok.value}},body:JSON.stringify(body)}});const j=await r.json().catch(()=>({{}}));
 const d=document.createElement('div');d.className=r.ok?'ok':'no';d.textContent=r.ok?`${{body.action}}: sent`:`${{body.action}}: ${{j.error||r.status}}`;
 $('#log').prepend(d);return r.status}}
document.querySelectorAll('[data-opt]').forEach(b=>b.onclick=()=>send({{action:'option',choice:b.dataset.opt}}));
$('#do-nominate').onclick=()=>send({{action:'nominate',ball:$('#nom').value}});
$('#do-freeball').onclick=()=>send({{action:'free_ball',ball:$('#fb').value}});
$('#miss-next-yes').onclick=()=>send({{action:'miss',miss:true,when:'next'}});
$('#miss-next-no').onclick=()=>send({{action:'miss',miss:false,when:'next'}});
$('#miss-last-yes').onclick=()=>send({{action:'miss',miss:true,when:'last'}});
$('#miss-last-no').onclick=()=>send({{action:'miss',miss:false,when:'last'}});
$('#foul-last').onclick=()=>send({{action:'foul',code:$('#foulcode').value,when:'last'}});
$('#foul-next').onclick=()=>send({{action:'foul',code:$('#foulcode').value,when:'next'}});
$('#undo').onclick=()=>send({{action:'undo'}});
$('#do-striker').onclick=()=>send({{action:'striker',player:$('#player').value}});
$('#do-concede').onclick=()=>send({{action:'concede',player:$('#player').value}});
$('#do-award').onclick=()=>send({{action:'award',player:$('#player').value}});
function num(id){{const v=$(id).value.trim();return v===''?null:(/^[0-9]+$/.test(v)?Number(v):v)}}
function pair(a,b){{const x=num(a),y=num(b);return x===null&&y===null?null:[x??0,y??0]}}
$('#do-match').onclick=async()=>{{const a=$('#m-a').value.trim(),b=$('#m-b').value.trim();
 const body={{action:'match',players:[a,b],ruleset:$('#m-rules').value,queue:$('#m-queue').checked,
  handicap:{{[a]:num('#m-ha')??0,[b]:num('#m-hb')??0}},breaker:$('#m-breaker').value==='a'?a:b,
  frames_won:pair('#m-fa','#m-fb'),score:pair('#m-sa','#m-sb')}};
 body[$('#m-kind').value]=num('#m-n');
 const r=await fetch('api/console',{{method:'POST',headers:{{'Content-Type':'application/json',
  'Authorization':'Bearer '+tok.value}},body:JSON.stringify(body)}});const j=await r.json().catch(()=>({{}}));
 const m=$('#m-msg');m.className=r.ok?'ok':'no';m.textContent=r.ok?'sent: see the requests below':(j.error||String(r.status))}};
window.send=send;
live(st=>{{$('#bar').innerHTML=bar(st);$('#info').innerHTML=info(st);
 const c=st.calls[0];$('#banner').innerHTML=c?`<div class="banner ${{c.kind}}" id="last-call" data-seq="${{c.seq}}"><div class="h">${{esc(c.head)}}</div><div class="sub">${{esc(c.sub)}}</div></div>`:'';
 $('#calls').innerHTML=calls(st,6);const sel=$('#player');
 if(sel.options.length!==st.board.players.length)sel.innerHTML=st.board.players.map(p=>`<option>${{esc(p)}}</option>`).join('');
 document.querySelectorAll('[data-opt]').forEach(b=>b.disabled=!st.board.options.includes(b.dataset.opt));
 const done=st.console.map(r=>`<div class="${{r.status==='refused'?'no':'ok'}}">#${{r.id}} ${{esc(r.action)}}: ${{esc(r.status)}} ${{esc(r.message)}}</div>`).join('');
 $('#requests').innerHTML=done;}});
</script></body></html>"""


def review_missing(n: int) -> str:
    """The review page of a stroke not (yet) in the store."""
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Stroke {n}</title>"
            f"<style>{_BASE_CSS}</style></head><body><main><h1>Stroke {n}</h1><p>No such stroke "
            "has been called yet. <a href='../'>Scoreboard</a></p></main></body></html>")


def history_list(history: list[dict[str, Any]]) -> str:
    """The calls corrections replaced (``MatchStore.shot_history`` rows, oldest first) as an
    HTML section, or "" when the call was never corrected."""
    if not history:
        return ""
    items = "".join(
        f'<li class="superseded"><s>{escape(h["text"] or "")}</s><br><span class="muted">'
        f'replaced {escape(str(h["superseded_at"]).replace("T", " ").replace("+00:00", " UTC"))}'
        f': {escape(capital(h["change"] or "corrected"))}</span></li>' for h in history)
    return (f'<h2>Earlier calls of this stroke</h2><ol id="history">{items}</ol>'
            '<p class="muted">The call above is the current one; these were replaced by a '
            "correction on the referee console.</p>")


def review_page(n: int, shot: dict[str, Any], svg: str, pictures: list[str],
                history: list[dict[str, Any]] | None = None) -> str:
    """The review page of stroke ``n`` (see :mod:`tracker.server.app`), with the calls
    corrections replaced (``history``) under the current one."""
    notes = "".join(f"<li>{escape(capital(say(x)))}</li>" for x in shot["needs_review"])
    contact = sorted((p for p in pictures if p.startswith("contact_") and "zoom" not in p),
                     key=lambda p: int(p[8:-4]))
    strip = "".join(f'<figure><img src="../media/review/{n}/{p}" alt="{p}" loading="lazy">'
                    f"<figcaption>{'contact' if p == 'contact_+0.jpg' else p[8:-4] + ' frame'}"
                    "</figcaption></figure>" for p in contact)
    zooms = "".join(f'<figure><img src="../media/review/{n}/{p}" alt="{p}"><figcaption>'
                    f"{'first contact, zoomed' if p.startswith('contact') else 'balls touching the cue ball?'}"
                    "</figcaption></figure>" for p in pictures if p.endswith("zoom.jpg"))
    strike = (f'<figure><img src="../media/review/{n}/strike.jpg" alt="strike"><figcaption>at the '
              "strike</figcaption></figure>" if "strike.jpg" in pictures else "")
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Stroke {n} · review</title>
<style>{_BASE_CSS} figure{{display:inline-block;margin:.3rem}} figure img{{max-width:320px;
border-radius:6px;display:block}} .zoom img{{max-width:360px}} figcaption{{font-size:.85rem;opacity:.8}}
svg{{max-width:100%;height:auto}}</style></head><body><main>
<p><a href="../">← Scoreboard</a></p><h1 style="font-size:1.5rem">Stroke {n} ({escape(str(shot['striker']))})</h1>
<div class="call {'foul' if shot['foul'] else 'pot'}"><div class="t" style="font-size:1.05rem">{escape(shot['text'] or '')}</div></div>
{'<h2>For review</h2><ul id="notes">' + notes + '</ul>' if notes else '<p class="muted">Nothing marked for review.</p>'}
{history_list(history or [])}
<h2>{'Where to put the balls back (foul and a miss)' if (shot['decision'] or {}).get('replace_positions') else 'The table before the stroke'}</h2>
<p class="muted">Solid: the balls before the stroke (the layout a replacement after a miss restores); dashed: where they came to rest.
Baulk end on the left; pockets named {VIEWPOINT}; hover a ball for its position in mm.</p>{svg}
<h2>Around the first contact</h2>{strip or '<p class="muted">No pictures saved for this stroke (the run saves them with <code>--review-frames</code> or <code>--serve</code>).</p>'}
<div class="zoom">{strike}{zooms}</div>
</main></body></html>"""
