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

Writes: only ``POST /api/console`` (a console request into the store's queue, taken by the
processing run). It needs the token (``Authorization: Bearer TOKEN`` or ``X-Token``), compared
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
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from tracker.outputs.board import Board
from tracker.outputs.store import MatchStore, StoreError
from tracker.server import pages
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
    """The newest run of a store as the pages show it, refreshed when the store changes."""

    def __init__(self, store_path: str | Path):
        self.store_path = Path(store_path)
        self._store: MatchStore | None = None
        self.key: tuple | None = None
        self.state: dict[str, Any] = {"run": None, "board": Board().to_dict(), "calls": []}

    @property
    def store(self) -> MatchStore | None:
        if self._store is None and self.store_path.exists():
            try:
                self._store = MatchStore(self.store_path, readonly=True)
            except StoreError:
                return None
        return self._store

    def refresh(self) -> bool:
        """Re-read the store if it changed; returns whether the state changed."""
        store = self.store
        if store is None:
            return False
        run = store.latest_run()
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

    @staticmethod
    def page(html: str) -> HTMLResponse:
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    async def scoreboard(self, _: Request) -> Response:
        return self.page(pages.SCOREBOARD)

    async def overlay(self, _: Request) -> Response:
        return self.page(pages.OVERLAY)

    async def console(self, _: Request) -> Response:
        fouls = "".join(f'<option value="{escape(c)}">{escape(capital(m.format(ball="a ball")))}'
                        "</option>" for c, m in CONSOLE_FOULS.items())
        return self.page(pages.CONSOLE.replace("<!--FOULS-->", fouls))

    async def state(self, _: Request) -> Response:
        await asyncio.to_thread(self.live.refresh)
        return JSONResponse(self.live.state)

    async def stream(self, request: Request) -> Response:
        async def events():
            await asyncio.to_thread(self.live.refresh)
            yield f"data: {json.dumps(self.live.state)}\n\n"
            last_key, last_sent = self.live.key, time.monotonic()
            while not await request.is_disconnected():
                await asyncio.sleep(POLL_S)
                self.live.refresh()
                if self.live.key != last_key:
                    last_key, last_sent = self.live.key, time.monotonic()
                    yield f"data: {json.dumps(self.live.state)}\n\n"
                elif time.monotonic() - last_sent > KEEPALIVE_S:
                    last_sent = time.monotonic()
                    yield ": keep-alive\n\n"

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def shots(self, _: Request) -> Response:
        store = self.live.store
        run = store.latest_run() if store else None
        if run is None:
            return JSONResponse([])
        return JSONResponse([{"shot": s["shot"], "frame": s["frame"], "striker": s["striker"],
                              "foul": bool(s["foul"]), "text": s["text"],
                              "needs_review": [capital(say(n)) for n in s["needs_review"]]}
                             for s in store.shots(run["id"])])

    async def review(self, request: Request) -> Response:
        n = request.path_params["shot"]
        store = self.live.store
        run = store.latest_run() if store else None
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
        folder = self.review_root / str(n)
        pics = sorted(p.name for p in folder.glob("*.jpg")) if folder.is_dir() else []
        history = store.shot_history(run["id"], n)
        return self.page(pages.review_page(n, shot, svg, pics, history))

    async def media(self, request: Request) -> Response:
        n, name = request.path_params["shot"], request.path_params["name"]
        if "/" in name or not name.endswith(".jpg"):
            return Response("not found", 404)
        path = self.review_root / str(n) / name
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
        store = self.live.store
        run = store.latest_run() if store else None
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


def create_app(store_path: str | Path, token: str, review_dir: str | Path | None = None
               ) -> Starlette:
    """The server's application over the store at ``store_path``; ``token`` guards writes;
    review pictures are read from ``review_dir`` (default: ``review/`` beside the store)."""
    store_path = Path(store_path)
    review_root = Path(review_dir) if review_dir else store_path.parent / "review"
    h = _Handlers(store_path, token, review_root)
    routes = [
        Route("/", h.scoreboard, methods=["GET"]),
        Route("/overlay", h.overlay, methods=["GET"]),
        Route("/console", h.console, methods=["GET"]),
        Route("/board", h.table_display, methods=["GET"]),
        Route("/interval", h.interval, methods=["GET"]),
        Route("/review/{shot:int}", h.review, methods=["GET"]),
        Route("/media/review/{shot:int}/{name}", h.media, methods=["GET"]),
        Route("/api/state", h.state, methods=["GET"]),
        Route("/api/stream", h.stream, methods=["GET"]),
        Route("/api/shots", h.shots, methods=["GET"]),
        Route("/api/console", h.console_post, methods=["POST"]),
    ]
    return Starlette(routes=routes)


def serve_forever(store_path: str | Path, host: str, port: int, token: str,
                  review_dir: str | Path | None = None) -> None:
    """Serve the pages until interrupted (Ctrl-C)."""
    import uvicorn

    uvicorn.run(create_app(store_path, token, review_dir), host=host, port=port,
                log_level="warning")


class BackgroundServer:
    """The server on a thread of this program (``process --serve``); :meth:`stop` ends it."""

    def __init__(self, store_path: str | Path, host: str, port: int, token: str,
                 review_dir: str | Path | None = None):
        import threading

        import uvicorn

        config = uvicorn.Config(create_app(store_path, token, review_dir), host=host, port=port,
                                log_level="warning")
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
