"""The score strip and the scoreboard in a real headless browser (Debian's chromium, driven by
Playwright), over a store whose last stroke was corrected into a foul: the strip names the foul
and shows the points remaining; the scoreboard lists the corrected stroke once; the interval
page counts the foul.

Set ``SNOOKER_SCREENSHOTS=DIR`` to keep screenshots of the strip, the table display and the
interval page (docs/OUTPUTS.md's pictures)."""

from __future__ import annotations

import os
from pathlib import Path

from test_live_feed import fill_with_a_correction

from tests.chromium import CHROMIUM, CHROMIUM_ARGS, needs_chromium, playwright_api
from tests.chromium import free_port as _free_port

pytestmark = needs_chromium


def test_the_strip_names_the_foul_and_a_corrected_stroke_is_listed_once(tmp_path):
    from tracker.server.app import BackgroundServer

    store, _ = fill_with_a_correction(tmp_path / "match.sqlite")
    port = _free_port()
    server = BackgroundServer(store.path, "127.0.0.1", port, "token")
    base = f"http://127.0.0.1:{port}"
    shots = os.environ.get("SNOOKER_SCREENSHOTS")
    try:
        with playwright_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            strip = browser.new_page(viewport={"width": 1280, "height": 720})
            strip.goto(base + "/overlay")
            strip.wait_for_selector("#foul:text('FOUL')", timeout=15_000)
            assert strip.inner_text("#foul") == "FOUL: push stroke, 4 to Bob"
            assert strip.inner_text("#remaining") == "Remaining 123"
            assert strip.inner_text("#reds") == "Reds 12"
            assert strip.get_attribute('.side[data-player="Bob"]', "data-at-table") == "true"
            assert strip.evaluate("document.querySelector('#strip').offsetWidth") <= 760
            board = browser.new_page(viewport={"width": 1100, "height": 800})
            board.goto(base + "/")
            board.wait_for_selector(".call", timeout=15_000)
            texts = board.locator(".call .t").all_inner_texts()
            assert sum(t.startswith("Shot 6 ") for t in texts) == 1, texts
            assert board.inner_text("#last-call").startswith("CORRECTED: FOUL")
            interval = browser.new_page(viewport={"width": 1000, "height": 900})
            interval.goto(base + "/interval")
            interval.wait_for_selector("#frame-stats", timeout=15_000)
            cell = '#frame-stats tr[data-row="{}"] td[data-player="{}"]'
            assert interval.inner_text(cell.format("fouls", "Ann")) == "1"  # the push stroke
            assert interval.inner_text(cell.format("high", "Bob")) == "6"
            if shots:
                _screenshots(browser, base, Path(shots), strip)
            browser.close()
    finally:
        server.stop()
        store.close()


def _screenshots(browser, base: str, folder: Path, strip) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    strip.screenshot(path=str(folder / "strip.png"), omit_background=True)
    pages = (("/overlay?pos=top-left&accent=e33", "strip-top-left.png", (1280, 720)),
             ("/board", "board.png", (1280, 800)), ("/interval", "interval.png", (1000, 900)))
    for path, name, (w, h) in pages:
        page = browser.new_page(viewport={"width": w, "height": h})
        page.goto(base + path)
        page.wait_for_function("window.__state !== undefined", timeout=15_000)
        page.wait_for_timeout(300)
        page.screenshot(path=str(folder / name), omit_background=True, full_page=True)
