"""The tables of a match store: which runs refereed which table, and each table's state now.

A run belongs to a named table (``runs.table_name``, set by ``process --table NAME``, by the
hall's per-table ``name``, or by default the name of the folder the store is in). A store
written before runs had a table name names them here (:func:`table_of`): a hall's run (its
``video`` is ``"NAME: SOURCE"``) by that NAME, any other run by the store's folder.

A table's state (:func:`table_state`) is what a hall page shows of it, from its newest run:

- ``status`` (:data:`STATUSES`):

  * ``playing``: the run is refereeing and a frame is on, with a call in the last
    :attr:`TableParams.idle_after_s`;
  * ``waiting``: the run is refereeing, no frame is on (none started yet, or the last one is
    over), and something was called or the run started within that time;
  * ``idle``: the run is refereeing but nothing has been called for that long;
  * ``not refereed``: the run stopped before its end (Ctrl-C, an error, or cut off: its
    heartbeat is older than :data:`tracker.outputs.store.STALE_AFTER_S`): the table is not
    being watched;
  * ``ended``: the run finished (the video or stream ended).

- ``players``, ``best_of``, ``frames_won``, ``frame`` (its number), ``score`` (the frame's),
  ``break`` (the striker's running break, points), ``striker``, ``last_call`` (the last call in
  people's words), ``last_activity`` (the time of the last call, or of the run's start: s
  since the epoch, and ``last_activity_iso``), ``run`` (its id), ``video``.

Read-only: every function here takes a :class:`tracker.outputs.store.MatchStore` opened for
reading or writing and never writes.
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass
from typing import Any

from tracker.outputs.board import Board
from tracker.outputs.store import CUT_OFF, MatchStore

PLAYING, WAITING, IDLE, NOT_REFEREED, ENDED = (
    "playing", "waiting", "idle", "not refereed", "ended")
#: Every table status, in the order a hall page sorts them.
STATUSES = (PLAYING, WAITING, IDLE, NOT_REFEREED, ENDED)


@dataclass(frozen=True)
class TableParams:
    """How a table's state is read.

    Attributes:
        idle_after_s: a refereeing table with no call for this long (s, wall clock) is idle
            (a long safety exchange rarely goes 5 minutes without a stroke).
    """

    idle_after_s: float = 300.0


#: The parameters used unless others are given.
DEFAULT_TABLE_PARAMS = TableParams()


def _has_table_column(store: MatchStore) -> bool:
    return any(r[1] == "table_name" for r in store.db.execute("PRAGMA table_info(runs)"))


def table_of(store: MatchStore, run: dict[str, Any]) -> str:
    """The table a run refereed (see the module docstring for stores without names)."""
    name = run.get("table_name")
    if name:
        return str(name)
    video = str(run.get("video") or "")
    if ": " in video:  # the hall names its runs "NAME: SOURCE"
        return video.split(": ", 1)[0]
    return store.path.resolve().parent.name


def tables(store: MatchStore) -> list[str]:
    """The store's tables, in the order of their first run."""
    names: dict[str, None] = {}
    for run in store.runs():
        names.setdefault(table_of(store, run), None)
    return list(names)


def latest_run_of(store: MatchStore, table: str) -> dict[str, Any] | None:
    """The newest run of ``table`` (as :meth:`MatchStore.run`), or None: no run on it."""
    if _has_table_column(store):
        row = store.db.execute("SELECT id FROM runs WHERE table_name=? ORDER BY id DESC LIMIT 1",
                               (table,)).fetchone()
        if row is not None:
            return store.run(int(row[0]))
    for run in reversed(store.runs()):  # runs without a name (an old store)
        if not run.get("table_name") and table_of(store, run) == table:
            return run
    return None


def _frame_board(store: MatchStore, run_id: int) -> tuple[Board, float | None, str]:
    """The board after the run's current frame's calls, the time of its last call (s since
    the epoch, None: no call yet) and that call in words."""
    row = store.db.execute("SELECT MAX(seq) FROM decisions WHERE run_id=? AND kind='frame_start'",
                           (run_id,)).fetchone()
    board = Board()
    last_t, last_text = None, ""
    for d in store.decisions(run_id, after_seq=(row[0] or 1) - 1):
        board.update(d["decision"])
        last_t = d["emitted"]
        if d["kind"] != "frame_start" and d["text"]:
            last_text = d["text"]
    return board, last_t, last_text


def _status(run: dict[str, Any], frame_on: bool, last_activity: float, now: float,
            params: TableParams) -> str:
    if run["status"] in CUT_OFF or run["stale"]:
        return NOT_REFEREED
    if run["status"] != "running":
        return ENDED
    if now - last_activity > params.idle_after_s:
        return IDLE
    return PLAYING if frame_on else WAITING


def table_state(store: MatchStore, table: str, params: TableParams = DEFAULT_TABLE_PARAMS,
                now: float | None = None) -> dict[str, Any] | None:
    """What a hall page shows of ``table`` now (the module docstring), or None: the store
    has no run on it. ``now``: the wall-clock time to judge idleness by (s since the epoch)."""
    run = latest_run_of(store, table)
    if run is None:
        return None
    now = time.time() if now is None else now
    board, last_call_t, last_text = _frame_board(store, run["id"])
    match = store.current_match(run["id"])  # a table's day: the latest of the run's matches
    players = board.players or (match["players"] if match else list(run.get("players") or []))
    frames_won = match["frames_won"] if match else {}
    started = dt.datetime.fromisoformat(run["started"]).timestamp()
    last_activity = max(last_call_t or started, started)
    frame_on = bool(board.frame) and not board.frame_over
    return {
        "table": table, "run": run["id"], "video": run["video"],
        "status": _status(run, frame_on, last_activity, now, params),
        "players": players, "best_of": int(match["best_of"] or 1) if match else board.best_of,
        "frames_won": {p: int(frames_won.get(p, 0)) for p in players},
        "match_winner": match["winner"] if match else None,
        "frame": board.frame, "frame_over": board.frame_over,
        "score": {p: int(board.score.get(p, 0)) for p in players},
        "break": board.break_points, "striker": board.striker, "last_call": last_text,
        "last_activity": last_activity,
        "last_activity_iso": dt.datetime.fromtimestamp(last_activity, dt.UTC).isoformat(
            timespec="seconds"),
    }


def hall_state(store: MatchStore, params: TableParams = DEFAULT_TABLE_PARAMS,
               now: float | None = None) -> list[dict[str, Any]]:
    """Every table's state (:func:`table_state`), in the order of :func:`tables`."""
    now = time.time() if now is None else now
    states = (table_state(store, t, params, now) for t in tables(store))
    return [s for s in states if s is not None]
