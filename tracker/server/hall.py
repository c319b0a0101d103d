"""The hall page: every table of a match store at once, live.

``/hall`` shows one card per table (:func:`tracker.outputs.tables.hall_state`): its status
(playing, waiting, idle, not refereed, ended), players, frames won and best-of, the frame's
score, the striker's break, the last call and when it came, its high breaks kept on video
(:mod:`tracker.outputs.highbreaks`, each a link to its clip) and links to its scoreboard,
overlay and console (``/table/NAME/...``, :mod:`tracker.server.app`). The page redraws from
Server-Sent Events (``/api/hall/stream``), as the other live pages do: no polling from the page.

Under ``hall`` the server is given the configured tables: one whose run has not started yet
(its camera still opening, or failed to open) is shown as ``not refereed``.

Routes (GET only): ``/hall``, ``/api/hall`` (the state as JSON), ``/api/hall/stream``,
``/table/NAME/breaks/CLIP`` (a kept clip, video/mp4) and ``/api/table/NAME/breaks``.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from tracker.outputs.highbreaks import kept_breaks
from tracker.outputs.store import STALE_AFTER_S, MatchStore, open_for_reading
from tracker.outputs.tables import (
    DEFAULT_TABLE_PARAMS,
    NOT_REFEREED,
    TableParams,
    hall_state,
    table_of,
    tables,
)

#: How often a stream looks at the store for changes, s.
POLL_S = 0.2
#: The state is rebuilt at least this often even with no new call (a table turning idle), s.
REBUILD_EVERY_S = 5.0
#: A comment line this often keeps proxies from closing the stream, s.
KEEPALIVE_S = 15.0


class HallState:
    """Every table's state (:func:`hall_state`) plus its kept high breaks, re-read when the
    store changes (a new call, a run starting or stopping) or every :data:`REBUILD_EVERY_S`."""

    def __init__(self, store_path: str | Path, params: TableParams = DEFAULT_TABLE_PARAMS,
                 expected: list[str] | None = None):
        self.store_path = Path(store_path)
        self.params = params
        self.expected = list(expected or [])
        self._store: MatchStore | None = None
        self.key: tuple | None = None
        self.built_at = 0.0
        self.state: dict[str, Any] = {"tables": []}

    @property
    def store(self) -> MatchStore | None:
        if self._store is None:
            self._store = open_for_reading(self.store_path)
        return self._store

    def _key(self, store: MatchStore) -> tuple:
        rows = store.db.execute(
            "SELECT id, status, heartbeat < ?, (SELECT COUNT(*) FROM decisions d WHERE "
            "d.run_id=runs.id) FROM runs ORDER BY id", (time.time() - STALE_AFTER_S,)).fetchall()
        return tuple(tuple(r) for r in rows), len(kept_breaks(store))

    def refresh(self) -> bool:
        """Re-read the store if needed; returns whether the state changed."""
        store = self.store
        if store is None:
            state = {"tables": [_not_started(t) for t in self.expected]}
            changed, self.state = state != self.state, state
            return changed
        key = self._key(store)
        if key == self.key and time.monotonic() - self.built_at < REBUILD_EVERY_S:
            return False
        self.key, self.built_at = key, time.monotonic()
        state = {"tables": self._build(store)}
        if state == self.state:
            return False
        self.state = state
        return True

    def _build(self, store: MatchStore) -> list[dict[str, Any]]:
        breaks: dict[int, list[dict[str, Any]]] = {}
        for b in kept_breaks(store):
            breaks.setdefault(b["run_id"], []).append(b)
        runs = {r["id"]: r for r in store.runs()}
        out = []
        for st in hall_state(store, self.params):
            mine = [b for rid, bs in breaks.items() for b in bs
                    if rid in runs and table_of(store, runs[rid]) == st["table"]]
            st["high_breaks"] = [{"player": b["player"], "points": b["points"],
                                  "frame": b["frame"], "clip": Path(b["clip"]).name}
                                 for b in sorted(mine, key=lambda b: -b["points"])]
            out.append(st)
        return out + [_not_started(t) for t in self.expected
                      if t not in {s["table"] for s in out}]


def _not_started(table: str) -> dict[str, Any]:
    """A hall's table whose run has not started (its camera not open yet, or it failed to)."""
    return {"table": table, "run": None, "status": NOT_REFEREED, "players": [], "best_of": 1,
            "frames_won": {}, "match_winner": None, "frame": 0, "frame_over": False,
            "score": {}, "break": 0, "striker": None,
            "last_call": "Not started: the table's camera is not being refereed yet.",
            "last_activity": None, "last_activity_iso": None, "high_breaks": []}


_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>The hall</title>
<style>
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,
sans-serif;background:#0f1a14;color:#eee}a{color:#9fd}main{max-width:1400px;margin:0 auto;
padding:1rem}h1{font-size:1.3rem;opacity:.8}#tables{display:grid;gap:1rem;
grid-template-columns:repeat(auto-fill,minmax(320px,1fr))}.card{background:#16241c;
border-radius:10px;padding:.8rem 1rem;border-top:6px solid #556}.card.playing{border-color:#3b3}
.card.waiting{border-color:#38c}.card.idle{border-color:#777}.card.not-refereed{border-color:#d23}
.card.ended{border-color:#fb3}.head{display:flex;justify-content:space-between;align-items:center}
.name{font-size:1.3rem;font-weight:700}.status{font-size:.9rem;padding:.1rem .5rem;
border-radius:6px;background:#333}.p{display:flex;justify-content:space-between;font-size:1.5rem;
font-weight:700;padding:.2rem .4rem;border-radius:6px}.p.on{background:#23402e;
box-shadow:inset 0 -4px 0 #ffd84a}.s{font-variant-numeric:tabular-nums}.fw{opacity:.75;
font-size:1rem;font-weight:400;margin-left:.4rem}.muted{opacity:.6}.line{font-size:.95rem;
margin:.3rem 0}.line b{color:#ffd84a}.links a{margin-right:.8rem}.said{display:-webkit-box;-webkit-line-clamp:2;
-webkit-box-orient:vertical;overflow:hidden}.hb{font-size:.9rem}
</style></head><body><main><h1>snooker-tracker · the hall <span id="upd" class="muted"></span></h1>
<div id="tables"><p class="muted">No table has played here yet.</p></div></main><script>
const $=s=>document.querySelector(s);
function esc(t){return String(t??'').replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]))}
function ago(t){const s=Math.max(0,Date.now()/1000-t);return s<60?`${Math.round(s)} s ago`:s<3600?`${Math.round(s/60)} min ago`:`${(s/3600).toFixed(1)} h ago`}
function card(t){const u='/table/'+encodeURIComponent(t.table)+'/';
 const ps=t.players.map(p=>`<div class="p${t.striker===p&&t.status==='playing'&&!t.frame_over?' on':''}" data-player="${esc(p)}"><span>${esc(p)}<span class="fw">${t.frames_won[p]??0} frames</span></span><span class="s">${t.score[p]??0}</span></div>`).join('');
 const brk=t.frame?`<div class="line">Frame <b>${t.frame}</b> · best of ${t.best_of}${t.frame_over?' · over':` · break <b class="brk">${t.break}</b>`}${t.match_winner?` · ${esc(t.match_winner)} wins the match`:''}</div>`:'<div class="line muted">No frame started yet</div>';
 const hb=t.high_breaks.length?`<div class="hb">High breaks: ${t.high_breaks.map(b=>`<a href="${u}breaks/${encodeURIComponent(b.clip)}">${b.points} by ${esc(b.player)} (frame ${b.frame})</a>`).join(' · ')}</div>`:'';
 return `<section class="card ${t.status.replace(' ','-')}" data-table="${esc(t.table)}"><div class="head"><span class="name">${esc(t.table)}</span><span class="status">${esc(t.status)}</span></div>`+
 ps+brk+`<div class="line muted said" title="${esc(t.last_call)}">${esc(t.last_call)}</div><div class="line muted">${t.last_activity==null?'Nothing yet':'Last activity '+ago(t.last_activity)}</div>`+hb+
 `<div class="links"><a href="${u}">Scoreboard</a><a href="${u}overlay">Overlay</a><a href="${u}console">Console</a></div></section>`}
function draw(st){window.__hall=st;$('#tables').innerHTML=st.tables.length?st.tables.map(card).join(''):'<p class="muted">No table has played here yet.</p>';
 $('#upd').textContent='· '+st.tables.length+' table'+(st.tables.length===1?'':'s')}
let es;function go(){es=new EventSource('/api/hall/stream');es.onmessage=e=>draw(JSON.parse(e.data));
 es.onerror=()=>{es.close();setTimeout(go,1000)}}go();
setInterval(()=>{if(window.__hall)draw(window.__hall)},15000);
</script></body></html>"""


def routes(store_path: str | Path, params: TableParams = DEFAULT_TABLE_PARAMS,
           expected: list[str] | None = None) -> list[Route]:
    """The hall's routes over the store at ``store_path`` (module docstring); ``expected``:
    the hall's configured tables, shown (``not refereed``) before their runs start."""
    hall = HallState(store_path, params, expected)
    root = Path(store_path).parent

    async def page(_: Request) -> Response:
        return HTMLResponse(_PAGE, headers={"Cache-Control": "no-store"})

    async def state(_: Request) -> Response:
        await asyncio.to_thread(hall.refresh)
        return JSONResponse(hall.state)

    async def stream(request: Request) -> Response:
        async def events():
            await asyncio.to_thread(hall.refresh)
            last = json.dumps(hall.state)
            yield f"data: {last}\n\n"
            last_sent = time.monotonic()
            while not await request.is_disconnected():
                await asyncio.sleep(POLL_S)
                hall.refresh()
                now = json.dumps(hall.state)
                if now != last:
                    last, last_sent = now, time.monotonic()
                    yield f"data: {now}\n\n"
                elif time.monotonic() - last_sent > KEEPALIVE_S:
                    last_sent = time.monotonic()
                    yield ": keep-alive\n\n"

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    def breaks_of(name: str) -> list[dict[str, Any]] | None:
        store = hall.store
        if store is None or name not in tables(store):
            return None
        runs = {r["id"]: r for r in store.runs()}
        return [b for b in kept_breaks(store) if table_of(store, runs[b["run_id"]]) == name]

    async def breaks(request: Request) -> Response:
        found = await asyncio.to_thread(breaks_of, request.path_params["name"])
        if found is None:
            return JSONResponse({"error": "no such table in this hall; see /api/hall"}, 404)
        return JSONResponse(found)

    async def clip(request: Request) -> Response:
        found = await asyncio.to_thread(breaks_of, request.path_params["name"]) or []
        want = request.path_params["clip"]
        row = next((b for b in found if Path(b["clip"]).name == want), None)
        path = (root / row["clip"]) if row else None
        if path is None or not path.is_file():
            return Response("no such clip", 404)
        return FileResponse(path, media_type="video/mp4")

    return [Route("/hall", page, methods=["GET"]), Route("/api/hall", state, methods=["GET"]),
            Route("/api/hall/stream", stream, methods=["GET"]),
            Route("/api/table/{name}/breaks", breaks, methods=["GET"]),
            Route("/table/{name}/breaks/{clip}", clip, methods=["GET"])]
