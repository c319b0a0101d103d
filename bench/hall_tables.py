"""Tables per machine: ``hall`` on N copies of a 1080p25 sample played at its own pace.

    python bench/hall_tables.py [--ns 1,2,3,4] [--video sample_videos/overhead_frame.mp4]
                                [--no-docs]

For each N, one hall (``tracker.scale.hall.run_hall``, what ``snooker-tracker hall`` runs: a
local Ray, one actor per table, one match store) referees N tables, each the same video file
held to its own clock (the table's ``realtime``: 1.0, as a camera would give it; a file is
never skipped to keep up, so a table that falls behind shows it as delay). Ray reserves
``min(1, cores / N)`` CPUs per table so that all N run at once.

Measured per stroke of every table: from the moment its balls stopped (the clip's truth: the
last video frame where any ball moves, taken on the wall clock as the table's
``clock_origin`` + that time) to its call in the match store (``decisions.emitted``: what the
hall page shows). A hall of N tables keeps up when every table finished, called every stroke
of the truth, and no call came later than ``LIMIT_S`` after its balls stopped. The figure is
the largest N that keeps up (the N are tried in order; a later N that fails stops the
search). Heavy: run it under the shared lock, once.

Writes the "Tables per machine (hall)" section of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
#: A call later than this after its balls stopped fails the hall (s).
LIMIT_S = 1.0
SECTION = "## Tables per machine (hall)"


def truth_stops(video: Path) -> dict[int, float]:
    """Per stroke, the video time (s) of the last frame where a ball moves (the truth)."""
    with gzip.open(video.with_suffix(".gt.json.gz")) as fh:
        gt = json.loads(fh.read())
    stops: dict[int, float] = {}
    for f in gt["frames"]:
        if any(b["moving"] for b in f["balls"].values()):
            stops[f["shot"]] = f["t"]
    return stops


def one_hall(n: int, video: Path, work: Path, stops: dict[int, float]) -> dict:
    """Run a hall of ``n`` tables on ``video`` at real time; its delays and outcome."""
    from tracker.outputs.store import MatchStore
    from tracker.outputs.tables import latest_run_of
    from tracker.scale.hall import load_config, run_hall

    out = work / f"hall-{n}"
    cpus = min(1.0, (os.cpu_count() or 1) / n)
    cfg_path = work / f"hall-{n}.json"
    cfg_path.write_text(json.dumps({"out": str(out), "cpus_per_table": cpus, "tables": [
        {"name": f"t{i + 1}", "source": str(video), "players": ["Ann", "Bob"],
         "realtime": 1.0, "keep_breaks": 0} for i in range(n)]}))
    t0 = time.monotonic()
    results = run_hall(load_config(cfg_path))
    wall = time.monotonic() - t0
    store = MatchStore(out / "match.sqlite", readonly=True)
    delays: list[float] = []
    called = 0
    for r in results:
        run = latest_run_of(store, r["table"])
        if r.get("status") != "done" or run is None or r.get("clock_origin") is None:
            continue
        for d in store.decisions(run["id"]):
            shot = d["decision"].get("shot")
            if d["kind"] == "shot" and shot in stops:
                called += 1
                delays.append(d["emitted"] - (r["clock_origin"] + stops[shot]))
    store.close()
    done = sum(r.get("status") == "done" for r in results)
    ok = done == n and called >= n * len(stops) and bool(delays) and max(delays) <= LIMIT_S
    return {"n": n, "cpus_per_table": round(cpus, 2), "wall_s": round(wall, 1), "done": done,
            "called": called, "expected": n * len(stops),
            "median_s": round(statistics.median(delays), 2) if delays else None,
            "worst_s": round(max(delays), 2) if delays else None,
            "within": sum(x <= LIMIT_S for x in delays), "keeps_up": ok}


def write_docs(rows: list[dict], best: int, video: Path, command: str) -> None:
    from bench.runinfo import run_info

    info = run_info(command)
    lines = [SECTION, "",
             f"Measured {info['date']} on {info['machine']} (shared with other work), commit "
             f"`{info['commit']}`, by `{info['command']}`: `hall` (a local Ray, one actor per "
             f"table, one store) on N copies of `{video.name}` (1080p, 25 fps, "
             f"{len(truth_stops(video))} strokes) each played at its own pace (`realtime` 1.0). "
             "Delay: from the balls stopping (the clip's truth, on the wall clock from the "
             "table's clock origin) to the call in the store (what the hall page shows). A hall "
             f"keeps up when every table finished, every stroke was called and no call came "
             f"over {LIMIT_S:g} s after its balls stopped.", "",
             "| N tables | CPUs per table (Ray) | wall (s) | tables done | strokes called | "
             "delay median (s) | delay worst (s) | calls within 1 s | keeps up |",
             "|---|---|---|---|---|---|---|---|---|"]
    lines += [f"| {r['n']} | {r['cpus_per_table']} | {r['wall_s']} | {r['done']} | "
              f"{r['called']} / {r['expected']} | {r['median_s']} | {r['worst_s']} | "
              f"{r['within']} | {'yes' if r['keeps_up'] else 'no'} |" for r in rows]
    lines += ["", f"**Tables per machine: {best}** (the largest N that kept up here).", ""]
    doc = ROOT / "docs" / "BENCHMARKS.md"
    text = doc.read_text()
    if SECTION in text:
        head, rest = text.split(SECTION, 1)
        nxt = rest.find("\n## ")
        text = head + "\n".join(lines) + (rest[nxt + 1:] if nxt >= 0 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + "\n".join(lines)
    doc.write_text(text)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ns", default="1,2,3,4", help="the numbers of tables to try, in order")
    ap.add_argument("--video", default=str(ROOT / "sample_videos" / "overhead_frame.mp4"))
    ap.add_argument("--no-docs", action="store_true", help="print only")
    a = ap.parse_args()
    video = Path(a.video)
    stops = truth_stops(video)
    work = Path(tempfile.mkdtemp(prefix="hall-tables-"))
    rows, best = [], 0
    for n in (int(x) for x in a.ns.split(",")):
        row = one_hall(n, video, work, stops)
        print(json.dumps(row), flush=True)
        rows.append(row)
        if not row["keeps_up"]:
            break
        best = n
    if not a.no_docs:
        write_docs(rows, best, video, "python bench/hall_tables.py " + " ".join(sys.argv[1:]))
    print(f"tables per machine: {best}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
