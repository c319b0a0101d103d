"""The hall page in a real headless browser (Debian's chromium, driven by Playwright): it shows
both tables of a store, and one table's score changes on the page when a stroke is written to
the store, with no reload (the page follows Server-Sent Events). Set
``SNOOKER_SCREENSHOTS=DIR`` to keep a screenshot of the page."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.chromium import CHROMIUM, CHROMIUM_ARGS, needs_chromium, playwright_api
from tests.chromium import free_port as _free_port
from tests.hall_fixtures import HallStore

pytest.importorskip("uvicorn", reason="the live extra is not installed")
pytestmark = needs_chromium


@pytest.fixture
def served_hall(tmp_path):
    from tracker.server.app import BackgroundServer

    hall = HallStore(tmp_path / "hall")
    port = _free_port()
    server = BackgroundServer(hall.path, "127.0.0.1", port, "tok")
    try:
        yield hall, f"http://127.0.0.1:{port}"
    finally:
        server.stop()


def test_the_hall_page_shows_both_tables_and_follows_a_stroke(served_hall):
    hall, base = served_hall
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 700})
        page.goto(base + "/hall")
        page.wait_for_selector('[data-table="t2"] [data-player="Cy"] .s:text-is("4")',
                               timeout=15_000)
        assert page.locator("section[data-table]").count() == 2
        t1 = page.locator('[data-table="t1"]')
        assert t1.locator('[data-player="Bob"] .s').inner_text() == "4"
        assert t1.locator(".status").inner_text() == "playing"
        assert t1.locator("a", has_text="Console").get_attribute("href") == "/table/t1/console"
        loaded = page.evaluate("performance.getEntriesByType('navigation').length")
        hall.write_next()  # the play-again option
        hall.write_next()  # Di pots a red
        page.wait_for_selector('[data-table="t2"] [data-player="Di"] .s:text-is("1")',
                               timeout=15_000)
        assert page.locator('[data-table="t2"] .brk').inner_text() == "1"
        assert t1.locator('[data-player="Bob"] .s').inner_text() == "4"  # the other table
        assert page.evaluate("performance.getEntriesByType('navigation').length") == loaded
        if os.environ.get("SNOOKER_SCREENSHOTS"):
            page.screenshot(path=str(Path(os.environ["SNOOKER_SCREENSHOTS"]) / "hall.png"),
                            full_page=True)
        page.click('[data-table="t1"] a:text("Scoreboard")')  # a table's own page, live too
        page.wait_for_selector('[data-player="Bob"] .s:text-is("4")', timeout=15_000)
        assert page.url == base + "/table/t1/"
        browser.close()
