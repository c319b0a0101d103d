"""The live server: scoreboard, broadcast overlay, referee console and review pages.

An ASGI application (Starlette, served by uvicorn) over a match store
(:mod:`tracker.outputs.store`): it follows the store's newest run, so it works beside a
``process`` in the same program (``process --serve``) or in another one (``serve --store``).

Pages (GET only, public, read-only):

- ``/`` the scoreboard: players, frame score, break, ball on, frames won, the last calls,
  the strokes marked for review; live through Server-Sent Events (``/api/stream``).
- ``/overlay`` a compact score strip for a broadcast or streaming browser source (transparent
  background; placement, colours and a logo by query parameters), ``/board`` a full-screen
  table display readable from both ends, ``/interval`` the frame's and match's statistics
  between frames (:mod:`tracker.server.tv`).
- ``/review/N`` stroke N: its call and review notes, the table before the stroke as a
  diagram (the layout a replacement after a miss restores), the frames around the first
  contact and the zooms saved by :class:`tracker.server.live.ReviewFrames`.
- ``/console`` the referee console page (the page is public; what it sends needs the token).
- ``/api/state``, ``/api/stream``, ``/api/shots``: the board as JSON, live, and the strokes
  (the live state's fields: docs/LIVE.md, schema ``tracker/records/live-state.schema.json``).

Every table of a hall (:mod:`tracker.outputs.tables`: the runs of one store, each on a named
table) has the same pages and API under ``/table/NAME/`` (``/table/NAME/``,
``/table/NAME/overlay``, ``/table/NAME/console``, ``/table/NAME/review/N``,
``/table/NAME/api/state``, ``/table/NAME/api/stream``, also as ``/api/table/NAME/state`` and
``/api/table/NAME/stream``), following that table's newest run; its console's requests go to
that run. ``/hall`` shows every table at once (:mod:`tracker.server.hall`). ``/`` stays the
store's newest run (whatever its table), so a single table's addresses and a streaming
program's browser source keep working.

Writes: only ``POST /api/console`` and ``POST /table/NAME/api/console`` (a console request
into the store's queue, taken by the processing run). It needs the token (``Authorization: Bearer TOKEN`` or ``X-Token``), compared
in constant time; without it 401, with a wrong one 403. Every public route answers GET only
(405 otherwise).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import secrets
import time
from html import escape
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from tracker.outputs.board import Board
from tracker.outputs.store import MatchStore, open_for_reading
from tracker.outputs.tables import latest_run_of, table_of, tables
from tracker.server import hall, pages
from tracker.server.diagram import table_svg
from tracker.server.live import ACTIONS, CONSOLE_FOULS, ConsoleError, parse_action
from tracker.server.tv import INTERVAL, TABLE_DISPLAY, live_extras
from tracker.words import VIEWPOINT, capital, say

#: How often the stream looks at the store for new calls, s.
POLL_S = 0.1
#: A comment line on the stream this often keeps proxies from closing it, s.
KEEPALIVE_S = 15.0
#: Calls listed on the pages.
RECENT_CALLS = 12


def new_token() -> str:
    """A console token (URL-safe, 128 bits)."""
    return secrets.token_urlsafe(16)


class LiveState:
    """The newest run of a store (or of one of its tables) as the pages show it, refreshed
    when the store changes.

    Args:
        store_path: the match store.
        table: follow this table's newest run (None: the store's newest run, any table).
    """

    def __init__(self, store_path: str | Path, table: str | None = None):
        self.store_path = Path(store_path)
        self.table = table
        self._store: MatchStore | None = None
        self.key: tuple | None = None
        self.state: dict[str, Any] = {"run": None, "board": Board().to_dict(), "calls": []}

    @property
    def store(self) -> MatchStore | None:
        if self._store is None:
            self._store = open_for_reading(self.store_path)
        return self._store

    def run(self) -> dict[str, Any] | None:
        """The run the pages follow (None: none yet)."""
        store = self.store
        if store is None:
            return None
        return store.latest_run() if self.table is None else latest_run_of(store, self.table)

    def refresh(self) -> bool:
        """Re-read the store if it changed; returns whether the state changed."""
        store = self.store
        if store is None:
            return False
        run = self.run()
        if run is None:
            return False
        rid = run["id"]
        row = store.db.execute(
            "SELECT (SELECT COUNT(*) FROM decisions WHERE run_id=?), (SELECT COUNT(*) || '/' || "
            "COALESCE(SUM(status IN ('applied', 'refused')), 0) FROM console WHERE run_id=? OR "
            "run_id IS NULL)", (rid, rid)).fetchone()
        key = (rid, row[0], row[1], run["status"], round(run["video_t"] or 0, 0))
        if key == self.key:
            return False
        self.key = key
        self.state = self._build(store, run)
        return True

    def _build(self, store: MatchStore, run: dict[str, Any]) -> dict[str, Any]:
        board = Board()
        calls = []
        for d in store.decisions(run["id"]):
            banner = board.update(d["decision"])
            if banner is not None:
                calls.append({"seq": d["seq"], "kind": banner.kind, "head": banner.head,
                              "sub": banner.sub, "text": d["text"], "shot": banner.shot,
                              "review": banner.review, "amended": banner.amended,
                              "emitted": d["emitted"]})
        extras = live_extras(store, run, board, [d["decision"] for d in store.decisions(run["id"])])
        console = store.console_requests(run["id"], 8)
        return {**extras, "run": {**{k: run[k] for k in ("id", "video", "status", "started", "video_t",
                                               "video_frames", "stale")},
                        "table": table_of(store, run),
                        "warning": (run["summary"] or {}).get("warning")},
                "board": board.to_dict(), "calls": calls[-RECENT_CALLS:][::-1],
                "console": [{"id": c["id"], "action": c["action"], "status": c["status"],
                             "message": (c["result"] or {}).get("message", "")} for c in console],
                "viewpoint": VIEWPOINT}


class _Handlers:
    """The server's request handlers over one store (see :func:`create_app`)."""

    def __init__(self, store_path: Path, token: str, review_root: Path):
        self.store_path, self.token, self.review_root = store_path, token, review_root
        self.live = LiveState(store_path)
        self.tables: dict[str, LiveState] = {}

    def live_of(self, request: Request) -> LiveState | None:
        """The state a request is about: its table's (``/table/NAME/...``; None when the
        store has no such table) or the newest run's."""
        name = request.path_params.get("name")
        if name is None:
            return self.live
        if name not in self.tables:
            store = self.live.store
            if store is None or name not in tables(store):
                return None
            self.tables[name] = LiveState(self.store_path, name)
        return self.tables[name]

    def review_root_of(self, live: LiveState) -> Path:
        """Where the review pictures of the followed run are (a hall table's own folder)."""
        if live.table is not None and (self.store_path.parent / live.table).is_dir():
            return self.store_path.parent / live.table / "review"
        return self.review_root

    @staticmethod
    def page(html: str) -> HTMLResponse:
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    @staticmethod
    def no_table(request: Request) -> Response:
        name = escape(request.path_params.get("name", ""))
        if "/api/" in request.url.path:
            return JSONResponse({"error": f"no table called {request.path_params.get('name')!r} "
                                          "in this hall; see /api/hall"}, 404)
        return HTMLResponse(f"<!doctype html><html lang='en'><meta charset='utf-8'><title>No "
                            f"such table</title><p>No table called {name} has played here yet."
                            " <a href='/hall'>All tables</a></p></html>", 404)

    async def scoreboard(self, request: Request) -> Response:
        if self.live_of(request) is None:
            return self.no_table(request)
        return self.page(pages.SCOREBOARD)

    async def overlay(self, request: Request) -> Response:
        if self.live_of(request) is None:
            return self.no_table(request)
        return self.page(pages.OVERLAY)

    async def console(self, request: Request) -> Response:
        if self.live_of(request) is None:
            return self.no_table(request)
        fouls = "".join(f'<option value="{escape(c)}">{escape(capital(m.format(ball="a ball")))}'
                        "</option>" for c, m in CONSOLE_FOULS.items())
        return self.page(pages.CONSOLE.replace("<!--FOULS-->", fouls))

    async def state(self, request: Request) -> Response:
        live = self.live_of(request)
        if live is None:
            return self.no_table(request)
        await asyncio.to_thread(live.refresh)
        return JSONResponse(live.state)

    async def stream(self, request: Request) -> Response:
        live = self.live_of(request)
        if live is None:
            return self.no_table(request)

        async def events():
            await asyncio.to_thread(live.refresh)
            yield f"data: {json.dumps(live.state)}\n\n"
            last_key, last_sent = live.key, time.monotonic()
            while not await request.is_disconnected():
                await asyncio.sleep(POLL_S)
                live.refresh()
                if live.key != last_key:
                    last_key, last_sent = live.key, time.monotonic()
                    yield f"data: {json.dumps(live.state)}\n\n"
                elif time.monotonic() - last_sent > KEEPALIVE_S:
                    last_sent = time.monotonic()
                    yield ": keep-alive\n\n"

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def shots(self, request: Request) -> Response:
        live = self.live_of(request)
        if live is None:
            return self.no_table(request)
        store, run = live.store, live.run()
        if run is None:
            return JSONResponse([])
        return JSONResponse([{"shot": s["shot"], "frame": s["frame"], "striker": s["striker"],
                              "foul": bool(s["foul"]), "text": s["text"],
                              "needs_review": [capital(say(n)) for n in s["needs_review"]]}
                             for s in store.shots(run["id"])])

    async def review(self, request: Request) -> Response:
        n = request.path_params["shot"]
        live = self.live_of(request)
        if live is None:
            return self.no_table(request)
        store, run = live.store, live.run()
        shot = next((s for s in (store.shots(run["id"]) if run else []) if s["shot"] == n), None)
        if shot is None:
            return self.page(pages.review_missing(n))
        table = None
        if run.get("calibration"):
            from calibration.table import TableGeometry

            try:
                t = run["calibration"]["table"]
                table = TableGeometry.of_size(t["length"], t["width"], t.get("ball_diameter", 52.5))
            except (KeyError, TypeError, ValueError):
                table = None
        rec = shot["record"]
        replace_at = (shot["decision"] or {}).get("replace_positions")
        svg = table_svg(replace_at or rec.get("positions_before"), table,
                        ghost=rec.get("positions_after"), title=f"stroke {n}: the table before it")
        folder = self.review_root_of(live) / str(n)
        pics = sorted(p.name for p in folder.glob("*.jpg")) if folder.is_dir() else []
        history = store.shot_history(run["id"], n)
        return self.page(pages.review_page(n, shot, svg, pics, history))

    async def media(self, request: Request) -> Response:
        n, name = request.path_params["shot"], request.path_params["picture"]
        live = self.live_of(request)
        if live is None or "/" in name or not name.endswith(".jpg"):
            return Response("not found", 404)
        path = self.review_root_of(live) / str(n) / name
        if not path.is_file():
            return Response("not found", 404)
        return FileResponse(path, media_type="image/jpeg")

    async def console_post(self, request: Request) -> Response:
        given = request.headers.get("x-token") or ""
        auth = request.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            given = auth[7:].strip()
        if not given:
            return JSONResponse({"error": "the console needs its token (shown when the server "
                                          "started)"}, 401)
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return JSONResponse({"error": "wrong token"}, 403)
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return JSONResponse({"error": "the request must be JSON"}, 400)
        if not isinstance(body, dict) or body.get("action") not in ACTIONS:
            return JSONResponse({"error": f"action must be one of {', '.join(ACTIONS)}"}, 400)
        action = body.pop("action")
        try:
            parse_action(action, body)
        except ConsoleError as exc:
            return JSONResponse({"error": str(exc)}, 400)
        live = self.live_of(request)
        if live is None:
            return self.no_table(request)
        run = live.run()
        if run is None or run["status"] != "running":
            return JSONResponse({"error": "no match is being processed: the console steers a "
                                          "running `process`"}, 409)
        writer = MatchStore(self.store_path)
        try:
            rid = await asyncio.to_thread(writer.console_request, run["id"], action, body)
        finally:
            writer.close()
        return JSONResponse({"id": rid, "status": "pending"}, 202)

    async def table_display(self, _: Request) -> Response:
        """``/board``: the full-screen table display (:mod:`tracker.server.tv`)."""
        return self.page(TABLE_DISPLAY)

    async def interval(self, _: Request) -> Response:
        """``/interval``: the frame's and match's statistics between frames."""
        return self.page(INTERVAL)


def create_app(store_path: str | Path, token: str, review_dir: str | Path | None = None,
               tables: list[str] | None = None) -> Starlette:
    """The server's application over the store at ``store_path``; ``token`` guards writes;
    review pictures are read from ``review_dir`` (default: ``review/`` beside the store);
    ``tables``: the hall's tables, shown on the hall page before their runs start."""
    store_path = Path(store_path)
    review_root = Path(review_dir) if review_dir else store_path.parent / "review"
    h = _Handlers(store_path, token, review_root)
    return Starlette(routes=[*_run_routes("", h), *_run_routes("/table/{name}", h),
                             Route("/table/{name}", _add_slash, methods=["GET"]),
                             Route("/api/table/{name}/state", h.state, methods=["GET"]),
                             Route("/api/table/{name}/stream", h.stream, methods=["GET"]),
                             *hall.routes(store_path, expected=tables)])


def _run_routes(prefix: str, h: _Handlers) -> list[Route]:
    """The pages and API of one followed run, under ``prefix`` (module docstring)."""
    get = [("/", h.scoreboard), ("/overlay", h.overlay), ("/console", h.console),
           ("/board", h.table_display), ("/interval", h.interval),
           ("/review/{shot:int}", h.review), ("/media/review/{shot:int}/{picture}", h.media),
           ("/api/state", h.state), ("/api/stream", h.stream), ("/api/shots", h.shots)]
    return [*(Route(prefix + path, fn, methods=["GET"]) for path, fn in get),
            Route(prefix + "/api/console", h.console_post, methods=["POST"])]


async def _add_slash(request: Request) -> Response:
    """``/table/NAME`` -> ``/table/NAME/`` (the pages' addresses are relative to it)."""
    return RedirectResponse(request.url.path + "/", 307)


def serve_forever(store_path: str | Path, host: str, port: int, token: str,
                  review_dir: str | Path | None = None) -> None:
    """Serve the pages until interrupted (Ctrl-C)."""
    import uvicorn

    uvicorn.run(create_app(store_path, token, review_dir), host=host, port=port,
                log_level="warning")


class BackgroundServer:
    """The server on a thread of this program (``process --serve``); :meth:`stop` ends it."""

    def __init__(self, store_path: str | Path, host: str, port: int, token: str,
                 review_dir: str | Path | None = None, tables: list[str] | None = None):
        import threading

        import uvicorn

        config = uvicorn.Config(create_app(store_path, token, review_dir, tables), host=host,
                                port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="live-server", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and self.thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        if not self.server.started:
            raise OSError(f"the live server could not listen on {host}:{port} (in use?); "
                          "give another with --serve HOST:PORT")

    def stop(self) -> None:
        """Stop serving and wait for the thread."""
        self.server.should_exit = True
        self.thread.join(timeout=5)


def parse_host_port(text: str | None, default_port: int = 8765) -> tuple[str, int]:
    """``HOST:PORT``, ``:PORT``, ``PORT`` or None -> (host, port); ValueError if malformed."""
    if not text:
        return "127.0.0.1", default_port
    host, _, port = text.rpartition(":") if ":" in text else ("", "", text)
    try:
        p = int(port)
    except ValueError:
        raise ValueError(f"--serve takes HOST:PORT (e.g. 127.0.0.1:8765), got {text!r}") from None
    if not 0 < p < 65536:
        raise ValueError(f"--serve: port {p} is out of range")
    return host or "127.0.0.1", p
