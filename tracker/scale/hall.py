"""``snooker-tracker hall CONFIG``: several live tables at once, each a Ray actor with its own
camera and calibration, all feeding one match store (one run per table) and one live server.

CONFIG (JSON)::

    {"out": "hall-out",                 # folder: match.sqlite, one folder per table
     "serve": "127.0.0.1:8765",         # the live server (optional)
     "address": null,                   # a Ray cluster (default: a local Ray)
     "tables": [
       {"name": "table-1", "source": "rtsp://cam1/stream", "calibration": "t1.json",
        "players": ["Ann", "Bob"]},
       {"name": "table-2", "source": "-", ...}]}

Each table: ``source`` (a camera, stream URL or video file, as ``process`` takes it),
``calibration`` (a profile from ``snooker-tracker calibrate``; default: found from the first
frame), optional ``players``, ``size`` and ``fps`` (raw frames), ``max_frames``. The store
writes of the actors meet in one SQLite file (WAL: one writer at a time, each write a small
transaction); the live server follows the newest run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tracker.scale.batch import BatchError, require_ray


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
        if t["name"] in names:
            raise BatchError(f"{p}: two tables are called {t['name']!r}; give each its own name")
        names.add(t["name"])
        cal = t.get("calibration")
        if cal and not (p.parent / cal).is_file() and not Path(cal).is_file():
            raise BatchError(f"{p}: table {t['name']!r}: no calibration file {cal}")
    cfg.setdefault("out", "hall-out")
    cfg["_dir"] = str(p.parent)
    return cfg


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
    try:
        cal = Calibration.load(cal_path) if cal_path else None
        res = process_video(table["source"], o / name, calibration=cal,
                            players=tuple(table.get("players", ("A", "B"))), progress=False,
                            max_frames=table.get("max_frames"),
                            listeners=[StoreWriter(o / STORE_NAME, f"{name}: {table['source']}")],
                            size=size, fps=table.get("fps"))
    except (VideoError, ValueError, OSError) as exc:
        return {"table": name, "status": "failed", "error": str(exc)}
    return {"table": name, "status": "done", "score": res.score, "shots": len(res.shots),
            "frames": res.frames, "skipped_frames": res.skipped_frames,
            "video_end": res.end.reason if res.end else None}


class TableActor:
    """A Ray actor running one table (:func:`run_table`)."""

    def __init__(self, table: dict[str, Any], out: str, base_dir: str):
        self.table, self.out, self.base_dir = table, out, base_dir

    def run(self) -> dict[str, Any]:
        return run_table(self.table, self.out, self.base_dir)


def run_hall(cfg: dict[str, Any], on_done=None) -> list[dict[str, Any]]:
    """Start one actor per table and wait for them all (a live table runs until its stream
    ends or Ctrl-C). Returns the tables' summaries."""
    ray = require_ray()
    out = Path(cfg["out"])
    out.mkdir(parents=True, exist_ok=True)
    if not ray.is_initialized():
        ray.init(address=cfg.get("address"), include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    actor = ray.remote(num_cpus=1)(TableActor)
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
