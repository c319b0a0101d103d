"""Live page delay: from a call (the referee's decision written to the match store) to the
scoreboard showing it in a real browser.

Runs ``process --serve --realtime SPEED`` on a sample video and opens the scoreboard in
Debian's headless chromium (Playwright). The page notes, for every call it receives, the
wall-clock time it drew it (``Date.now()``, after the DOM update); the store holds the time
the decision was emitted (``decisions.emitted``, ``time.time()`` just before the commit). Both
clocks are this machine's. Prints the median and the worst delay and writes the "Live page
delay" section of docs/BENCHMARKS.md.

Usage: python bench/live_latency.py [VIDEO] [--speed 2]
(default: sample_videos/overhead_frame.mp4 with its log's inputs, at twice its speed).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("video", nargs="?", default=str(ROOT / "sample_videos" / "overhead_frame.mp4"))
    ap.add_argument("--speed", type=float, default=2.0)
    ap.add_argument("--out", default="/tmp/live-latency")
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = Path(a.video).with_suffix(".log.jsonl")
    cmd = [sys.executable, "-m", "tracker.cli", "process", a.video, "--out", a.out, "--quiet", "--force",
           "--serve", f"127.0.0.1:{port}", "--token", "bench", "--realtime", str(a.speed)]
    if log.exists():
        cmd += ["--inputs", str(log)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/state", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page()
            page.goto(base + "/")
            page.wait_for_function("() => window.__arrivals !== undefined")
            t0 = time.time()
            while True:
                line = proc.stdout.readline()
                if not line or line.startswith("processing done"):
                    break
            time.sleep(1.0)
            arrivals = page.evaluate("() => window.__arrivals")
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    live = [x for x in arrivals if x["emitted"] >= t0 - 0.5]  # calls made while the page was open
    delays = sorted(x["shown"] - x["emitted"] for x in live)
    if not delays:
        print("no call arrived while the page was open")
        return 1
    res = {"calls": len(delays), "median_s": round(statistics.median(delays), 3),
           "worst_s": round(max(delays), 3), "speed": a.speed, "video": Path(a.video).name}
    print(json.dumps(res))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    section = "\n".join([
        "## Live page delay", "",
        f"Measured {time.strftime('%Y-%m-%d')} on x86_64 with 2 cores (shared with other work), "
        f"commit `{commit}`, by `python bench/live_latency.py --speed {a.speed:g}`: "
        f"`process --serve --realtime {a.speed:g}` on `{res['video']}` with Debian's headless "
        "chromium on the scoreboard page; delay from the decision written to the match store "
        "(`decisions.emitted`) to the page having drawn it (`Date.now()` after the update), "
        "same machine clock. The server looks at the store every 0.1 s and pushes over "
        "Server-Sent Events.", "",
        "| run | calls | median | worst |", "|---|---|---|---|",
        f"| {res['video']} at {a.speed:g}x | {res['calls']} | {res['median_s']:.3f} s | "
        f"{res['worst_s']:.3f} s |", ""])
    from tracker.evaluate import replace_section

    replace_section(ROOT / "docs" / "BENCHMARKS.md", "Live page delay", section)
    print(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
