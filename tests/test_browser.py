"""End to end in a real headless browser (Debian's chromium, driven by Playwright): the
scoreboard follows a video being processed, a console input changes the calls, and the
console refuses a request without its token.

The run: ``sample_videos/overhead_miss.mp4`` (a foul and a miss, then the stroke replayed)
processed with ``--serve --realtime``, given only the frame's start (not the operator's
"replace" of its log): the referee's choice comes from the console page, as it would live.
Set ``SNOOKER_SCREENSHOTS=DIR`` to keep screenshots of the pages.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.chromium import CHROMIUM, CHROMIUM_ARGS, needs_chromium, playwright_api
from tests.chromium import free_port as _free_port

ROOT = Path(__file__).resolve().parents[1]

TOKEN = "e2e-token-1234"
#: video seconds per wall second (the sample's calls come at 10.5 s and 21 s of video)
SPEED = "1.5"
pytestmark = needs_chromium


def _wait_http(url: str, proc: subprocess.Popen, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"process exited early ({proc.returncode})")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"{url} did not answer in {timeout} s")


@pytest.fixture
def live_run(tmp_path):
    start = tmp_path / "start.jsonl"
    log = (ROOT / "sample_videos" / "overhead_miss.log.jsonl").read_text().splitlines()
    start.write_text(next(x for x in log if '"frame_start"' in x) + "\n")
    port = _free_port()
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "tracker.cli", "process",
           str(ROOT / "sample_videos" / "overhead_miss.mp4"), "--players", "Ann", "Bob",
           "--inputs", str(start), "--out", str(out), "--quiet", "--serve", f"127.0.0.1:{port}",
           "--token", TOKEN, "--realtime", SPEED]
    proc = subprocess.Popen(cmd, stdout=open(tmp_path / "stdout.txt", "w"),  # noqa: SIM115
                            stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_http(base + "/api/state", proc)
        yield base, out, tmp_path / "stdout.txt"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_scoreboard_follows_the_video_and_the_console_changes_the_call(live_run):
    base, out, stdout = live_run
    shots = os.environ.get("SNOOKER_SCREENSHOTS")
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        board = browser.new_page(viewport={"width": 1100, "height": 800})
        board.goto(base + "/")
        overlay = browser.new_page(viewport={"width": 1280, "height": 720}) if shots else None
        if overlay:
            overlay.goto(base + "/overlay")
        # the score changes when the foul and a miss is called
        board.wait_for_selector('[data-player="Bob"] .s:text-is("4")', timeout=90_000)
        assert board.inner_text("#last-call").startswith("FOUL AND A MISS")
        if overlay:
            overlay.wait_for_selector('#foul:text("FOUL AND A MISS")', timeout=5_000)
            overlay.screenshot(path=str(Path(shots) / "strip-live.png"), omit_background=True)
        assert board.is_visible('[data-player="Bob"].on')  # Bob to play
        console = browser.new_page(viewport={"width": 1100, "height": 1300})
        console.goto(base + "/console#token=" + TOKEN)
        # a request without the token is refused, from the browser too
        status = console.evaluate("""() => fetch('/api/console', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({action: 'option', choice: 'replace'})}).then(r => r.status)""")
        assert status == 401
        console.wait_for_selector("#opt-replace:enabled", timeout=30_000)
        if shots:
            console.screenshot(path=str(Path(shots) / "console.png"), full_page=True)
        console.click("#opt-replace")  # the referee's choice, as a person makes it
        console.wait_for_selector('#log .ok:text("option: sent")', timeout=10_000)
        console.wait_for_selector('#requests .ok:text("applied")', timeout=30_000)
        # the referee's choice reaches the engine: the balls are replaced, Ann plays again
        board.wait_for_selector('.call.input :text("balls replaced")', timeout=30_000)
        assert board.is_visible('[data-player="Ann"].on')
        # ... and the replayed stroke is called as Ann's (without the choice: Bob's)
        board.wait_for_selector('.call :text("Shot 2 (Ann)")', timeout=90_000)
        if shots:
            board.screenshot(path=str(Path(shots) / "scoreboard.png"), full_page=True)
            review = browser.new_page(viewport={"width": 1100, "height": 1200})
            review.goto(base + "/review/1")
            review.screenshot(path=str(Path(shots) / "review.png"), full_page=True)
        browser.close()
    with urllib.request.urlopen(base + "/api/state") as r:
        state = json.load(r)
    assert state["board"]["score"] == {"Ann": 0, "Bob": 4}
    decisions = [json.loads(x) for x in (out / "decisions.jsonl").read_text().splitlines()]
    shot2 = next(d for d in decisions if d.get("shot") == 2 and "foul" in d)
    assert shot2["striker"] == "Ann"
    assert (out / "review" / "1" / "contact_+0.jpg").exists()

