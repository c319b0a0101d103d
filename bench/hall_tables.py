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

Writes the "Tables per machine (hall)" section of docs/BENCHMARKS.md; with ``--watch``
(the hall page open in a headless browser during each run, its scores read off the page:
the browser's CPU is then part of the load) the "hall page during a hall run" section
instead.
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
PAGE_SECTION = "## The hall page during a hall run (headless browser)"


def truth_stops(video: Path) -> dict[int, float]:
    """Per stroke, the video time (s) of the last frame where a ball moves (the truth)."""
    with gzip.open(video.with_suffix(".gt.json.gz")) as fh:
        gt = json.loads(fh.read())
    stops: dict[int, float] = {}
    for f in gt["frames"]:
        if any(b["moving"] for b in f["balls"].values()):
            stops[f["shot"]] = f["t"]
    return stops


class PageWatcher:
    """The hall page open in headless chromium (Playwright) on a thread while a hall runs:
    every 0.5 s it reads each table card's scores off the page (the page itself follows the
    server's Server-Sent Events); :meth:`stop` returns the distinct scores seen per table."""

    def __init__(self, url: str):
        import threading

        self.url, self.seen = url, {}
        self.done = threading.Event()
        self.error: str | None = None
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                             args=["--headless", "--no-sandbox", "--disable-gpu"])
                page = browser.new_page()
                page.goto(self.url)
                while not self.done.wait(0.5):
                    cards = page.evaluate("""() => [...document.querySelectorAll('section[data-table]')]
                        .map(c => [c.dataset.table, [...c.querySelectorAll('.s')].map(s => s.textContent).join('-')])""")
                    for table, score in cards:
                        self.seen.setdefault(table, [])
                        if score not in self.seen[table]:
                            self.seen[table].append(score)
                browser.close()
        except Exception as exc:  # a bench: say it, do not hide the figures
            self.error = f"{type(exc).__name__}: {exc}"

    def stop(self) -> dict[str, list[str]]:
        self.done.set()
        self.thread.join(30)
        return self.seen


def one_hall(n: int, video: Path, work: Path, stops: dict[int, float], watch: bool = False
             ) -> dict:
    """Run a hall of ``n`` tables on ``video`` at real time; its delays and outcome (with
    ``watch``: the hall page open in a headless browser, and the scores it showed)."""
    import socket

    from tracker.outputs.store import MatchStore
    from tracker.outputs.tables import latest_run_of
    from tracker.scale.hall import load_config, run_hall

    out = work / f"hall-{n}"
    cpus = min(1.0, (os.cpu_count() or 1) / n)
    cfg_path = work / f"hall-{n}.json"
    cfg_path.write_text(json.dumps({"out": str(out), "cpus_per_table": cpus, "tables": [
        {"name": f"t{i + 1}", "source": str(video), "players": ["Ann", "Bob"],
         "realtime": 1.0, "keep_breaks": 0} for i in range(n)]}))
    server = watcher = None
    if watch:
        from tracker.server.app import BackgroundServer

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        out.mkdir(parents=True, exist_ok=True)
        server = BackgroundServer(out / "match.sqlite", "127.0.0.1", port, "bench")
        watcher = PageWatcher(f"http://127.0.0.1:{port}/hall")
    t0 = time.monotonic()
    results = run_hall(load_config(cfg_path))
    wall = time.monotonic() - t0
    page = None
    if watcher is not None:
        time.sleep(2)
        seen = watcher.stop()
        server.stop()
        page = {"tables_on_page": len(seen), "scores_seen": seen, "error": watcher.error,
                "every_score_changed": len(seen) == n and all(
                    len(v) >= 2 and any(x not in ("", "0-0") for x in v) for v in seen.values())}
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
            "within": sum(x <= LIMIT_S for x in delays), "keeps_up": ok,
            **({"page": page} if page else {})}


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
    _put_section(SECTION, lines)


def write_page_docs(rows: list[dict], command: str) -> None:
    """The "hall page during a hall run" section (``--watch``): what the browser saw."""
    from bench.runinfo import run_info

    info = run_info(command)
    lines = [PAGE_SECTION, "",
             f"Measured {info['date']} on {info['machine']} (shared with other work), commit "
             f"`{info['commit']}`, by `{info['command']}`: a hall as above with its live server, "
             "the hall page `/hall` open in headless chromium (Playwright) for the whole run; "
             "each table card's scores read off the page every 0.5 s (the page follows the "
             "server's Server-Sent Events; it polls nothing).", "",
             "| N tables | tables on the page | every score changed on the page | delay worst "
             "(s), browser open | scores seen per table |", "|---|---|---|---|---|"]
    for r in rows:
        p = r["page"]
        seen = "; ".join(f"{t}: {' → '.join(v)}" for t, v in p["scores_seen"].items())
        lines.append(f"| {r['n']} | {p['tables_on_page']} | "
                     f"{'yes' if p['every_score_changed'] else 'no'} | {r['worst_s']} | "
                     f"{seen}{' (' + p['error'] + ')' if p['error'] else ''} |")
    _put_section(PAGE_SECTION, [*lines, ""])


def _put_section(title: str, lines: list[str]) -> None:
    doc = ROOT / "docs" / "BENCHMARKS.md"
    text = doc.read_text()
    if title in text:
        head, rest = text.split(title, 1)
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
    ap.add_argument("--watch", action="store_true", help="open the hall page in a headless "
                    "browser during each run (Playwright and Debian's chromium) and report the "
                    "scores it showed")
    a = ap.parse_args()
    video = Path(a.video)
    stops = truth_stops(video)
    work = Path(tempfile.mkdtemp(prefix="hall-tables-"))
    rows, best = [], 0
    for n in (int(x) for x in a.ns.split(",")):
        row = one_hall(n, video, work, stops, a.watch)
        print(json.dumps(row), flush=True)
        rows.append(row)
        if not row["keeps_up"]:
            break
        best = n
    command = "python bench/hall_tables.py " + " ".join(sys.argv[1:])
    if not a.no_docs:
        if a.watch:
            write_page_docs(rows, command)
        else:
            write_docs(rows, best, video, command)
    print(f"tables per machine: {best}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
