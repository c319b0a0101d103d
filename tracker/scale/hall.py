"""``snooker-tracker hall CONFIG``: several live tables at once, each a Ray actor with its own
camera and calibration, all feeding one match store (one run per table) and one live server.

CONFIG (JSON)::

    {"out": "hall-out",                 # folder: match.sqlite, one folder per table
     "cpus_per_table": 1,               # CPUs Ray reserves per table (0.5: two tables a core)
     "serve": "127.0.0.1:8765",         # the live server (optional)
     "address": null,                   # a Ray cluster (default: a local Ray)
     "tables": [
       {"name": "table-1", "source": "rtsp://cam1/stream", "calibration": "t1.json",
        "players": ["Ann", "Bob"]},
       {"name": "table-2", "source": "-", ...}]}

Each table: ``source`` (a camera, stream URL or video file, as ``process`` takes it),
``calibration`` (a profile from ``snooker-tracker calibrate``; default: found from the first
frame), optional ``players``, ``size`` and ``fps`` (raw frames), ``max_frames``,
``realtime`` (a video file played no faster than its own clock times this speed, as a camera
would give it: for tests and benches; the table's summary then gives ``clock_origin``, the
wall-clock time its video's time 0 was due), ``keep_breaks`` (a clip of every break of at
least this many points, into ``out/NAME/breaks``: cut from a video file,
:mod:`tracker.outputs.highbreaks`, or from a camera's or stream's rolling recording,
:mod:`tracker.outputs.streamclips`; default 50, 0: none), ``match`` (the table's match set-up,
the fields of a ``process --match`` file: players, best_of or race_to, ruleset, handicap,
breaker, frames_won, score, then, again; :mod:`tracker.session_setup`) and ``wait`` (true:
the table starts no frame until the balls are seen racked, and keeps watching after its last
match, as ``process --wait``). The store writes
of the actors meet in one SQLite file (WAL: one writer at a time, each write a small
transaction), each run under its table's ``name`` (:mod:`tracker.outputs.tables`). The live
server shows every table: the hall page ``/hall`` and each table's pages under
``/table/NAME/`` (:mod:`tracker.server.app`, :mod:`tracker.server.hall`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tracker.scale.batch import BatchError, start_ray


def load_config(path: str | Path) -> dict[str, Any]:
    """The hall's configuration, checked (BatchError with what is wrong)."""
    p = Path(path)
    try:
        cfg = json.loads(p.read_text())
    except OSError as exc:
        raise BatchError(f"{p}: cannot read the hall configuration ({exc.strerror})") from None
    except ValueError as exc:
        raise BatchError(f"{p}: not JSON ({exc}); see `snooker-tracker hall --help`") from None
    tables = cfg.get("tables") if isinstance(cfg, dict) else None
    if not tables or not isinstance(tables, list):
        raise BatchError(f"{p}: no \"tables\" list; each table needs a name and a source")
    names = set()
    for i, t in enumerate(tables):
        if not isinstance(t, dict) or not t.get("source") or not t.get("name"):
            raise BatchError(f"{p}: table {i + 1} needs a \"name\" and a \"source\"")
        if not isinstance(t["source"], str):
            raise BatchError(f"{p}: table {i + 1}: the source must be a string (a camera's "
                             "number in quotes, \"0\", a URL, or a video file)")
        if not isinstance(t["name"], str) or t["name"] in (".", "..") or any(
                c in t["name"] for c in "/\\\0"):
            raise BatchError(f"{p}: table {i + 1}: the name {t['name']!r} must be a plain name "
                             "(it names the table's folder: no / or \\)")
        kb = t.get("keep_breaks", 50)
        if isinstance(kb, bool) or not isinstance(kb, int) or kb < 0:
            raise BatchError(f"{p}: table {t['name']!r}: \"keep_breaks\" must be a number of "
                             "points (0: keep no clips)")
        rt = t.get("realtime")
        if rt is not None and (isinstance(rt, bool) or not isinstance(rt, int | float)
                               or not 0 < rt <= 100):
            raise BatchError(f"{p}: table {t['name']!r}: \"realtime\" must be a speed above 0 "
                             "(1: the video's own pace)")
        players = t.get("players")
        if players is not None and not (isinstance(players, list) and len(players) == 2
                                        and all(isinstance(x, str) and x.strip() for x in players)
                                        and players[0] != players[1]):
            raise BatchError(f"{p}: table {t['name']!r}: \"players\" must be two different "
                             "names, e.g. [\"Ann\", \"Bob\"]")
        _check_match(p, t)
        if t["name"] in names:
            raise BatchError(f"{p}: two tables are called {t['name']!r}; give each its own name")
        names.add(t["name"])
        cal = t.get("calibration")
        if cal and not (p.parent / cal).is_file() and not Path(cal).is_file():
            raise BatchError(f"{p}: table {t['name']!r}: no calibration file {cal}")
    cfg.setdefault("out", "hall-out")
    cpus = cfg.get("cpus_per_table", 1)
    if isinstance(cpus, bool) or not isinstance(cpus, int | float) or not 0 < cpus <= 64:
        raise BatchError(f"{p}: \"cpus_per_table\" must be a number of CPUs above 0 (e.g. 0.5)")
    for key in ("out", "serve", "address"):
        if cfg.get(key) is not None and not (isinstance(cfg[key], str) and cfg[key].strip()):
            raise BatchError(f"{p}: \"{key}\" must be a non-empty string")
    cfg["_dir"] = str(p.parent)
    return cfg


def _check_match(p: Path, t: dict[str, Any]) -> None:
    """A table's ``match`` set-up and ``wait`` checked (one-line :class:`BatchError`)."""
    from tracker.session_setup import SetupError, setup_from_dict

    if "match" in t:
        try:
            setup_from_dict(t["match"], f"table {t['name']!r}: \"match\"")
        except SetupError as exc:
            raise BatchError(f"{p}: {exc}") from None
        if t.get("players") is not None:
            raise BatchError(f"{p}: table {t['name']!r}: give the players in \"match\" or in "
                             "\"players\", not both")
    if not isinstance(t.get("wait", False), bool):
        raise BatchError(f"{p}: table {t['name']!r}: \"wait\" must be true or false")


def run_table(table: dict[str, Any], out: str, base_dir: str = ".") -> dict[str, Any]:
    """Referee one table's source into the hall's store (``out/match.sqlite``) and its own
    folder ``out/<name>``. Returns its summary."""
    from calibration.profile import Calibration
    from tracker.outputs.store import STORE_NAME, StoreWriter
    from tracker.pipeline import VideoError, process_video

    o = Path(out)
    cal_path = table.get("calibration")
    if cal_path and not Path(cal_path).is_file():
        cal_path = str(Path(base_dir) / cal_path)
    size = tuple(int(v) for v in table["size"].split("x")) if table.get("size") else None
    name = table["name"]
    writer = StoreWriter(o / STORE_NAME, f"{name}: {table['source']}", table=name)
    listeners = [writer]
    pacer = None
    if table.get("realtime"):
        from tracker.server.live import RealTimePacer

        pacer = RealTimePacer(float(table["realtime"]))
        listeners.append(pacer)
    keep = int(table.get("keep_breaks", 50))
    if keep > 0:
        from tracker.outputs.highbreaks import HighBreakParams
        from tracker.outputs.streamclips import high_break_listener

        listeners.append(high_break_listener(o / STORE_NAME, writer, table["source"], o / name,
                                             HighBreakParams(threshold=keep)))
    setup = None
    if table.get("match") is not None:
        from tracker.session_setup import setup_from_dict

        setup = setup_from_dict(table["match"], f"table {name!r}")
    players = tuple(setup.players) if setup else tuple(table.get("players", ("A", "B")))
    try:
        cal = Calibration.load(cal_path) if cal_path else None
        res = process_video(table["source"], o / name, calibration=cal, setup=setup,
                            wait=bool(table.get("wait", False)), players=players, progress=False,
                            max_frames=table.get("max_frames"), listeners=listeners,
                            size=size, fps=table.get("fps"))
    except (VideoError, ValueError, OSError) as exc:
        return {"table": name, "status": "failed", "error": str(exc)}
    return {"table": name, "status": "done", "score": res.score, "shots": len(res.shots),
            "frames": res.frames, "skipped_frames": res.skipped_frames,
            "video_end": res.end.reason if res.end else None,
            "clock_origin": pacer.origin if pacer else None}


class TableActor:
    """A Ray actor running one table (:func:`run_table`)."""

    def __init__(self, table: dict[str, Any], out: str, base_dir: str):
        self.table, self.out, self.base_dir = table, out, base_dir

    def run(self) -> dict[str, Any]:
        return run_table(self.table, self.out, self.base_dir)


def run_hall(cfg: dict[str, Any], on_done=None) -> list[dict[str, Any]]:
    """Start one actor per table and wait for them all (a live table runs until its stream
    ends or Ctrl-C). Returns the tables' summaries."""
    out = Path(cfg["out"])
    out.mkdir(parents=True, exist_ok=True)
    ray = start_ray(cfg.get("address"))
    actor = ray.remote(num_cpus=cfg.get("cpus_per_table", 1))(TableActor)
    actors = [actor.remote(t, str(out.resolve()), str(Path(cfg["_dir"]).resolve()))
              for t in cfg["tables"]]
    pending = {a.run.remote(): t["name"] for a, t in zip(actors, cfg["tables"], strict=True)}
    results = []
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                name = pending.pop(ref)
                try:
                    r = ray.get(ref)
                except Exception as exc:  # the actor died
                    r = {"table": name, "status": "failed", "error": str(exc).splitlines()[0]}
                results.append(r)
                if on_done:
                    on_done(r)
    finally:
        for a in actors:
            ray.kill(a)
    return results
