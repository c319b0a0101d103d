"""The score strip (``/overlay``), the table display (``/board``), the interval page
(``/interval``) and the scoreboard (``/``) in a real headless browser (Debian's chromium,
driven by Playwright) during a two-frame match (tests/tv_match.py: frame 1 to Bob, frame 2
under way), then after a console correction made through the console's route.

Every figure the pages show is read and compared with the figure worked out by hand from the
frame sample's log (its strokes: Ann breaks; Bob fouls, 4 to Ann, and is asked to play again;
Bob pots a red, then the blue, then misses; Ann pots a red: 5-6; frame 2 the same with the
players the other way round, Ann from 130):

- before: Ann 136 - Bob 5, frames 0-1, best of 3, Bob at the table on a break of 1 (a red),
  12 reds left with a colour on (12 x 8 + 27 + 7 = 130 remaining), difference 131, Bob
  needing a snooker (131 > 130), frame time 0:48 (frame 2's first stroke starts 3.12 s and
  its last ends 51.28 s into the log), no foul on the last stroke;
- stroke 12 corrected into a push stroke: 4 to Ann (Ann 140 - Bob 4), Ann at the table, no
  break, the red stays down so 12 reds with a red on (123 remaining), difference 136, Bob
  needing 4 snookers (136 - 123 = 13 points more than the table holds: 4 fouls of 4), the
  foul named, stroke 12 listed once.

The interval page's statistics are read against /api/state's (their figures are checked from
the log in tests/test_stats.py), and the hand-countable ones (pots, fouls, highest break,
points per visit) against the log too.

Set ``SNOOKER_SCREENSHOTS=DIR`` to keep screenshots of the strip, the table display and the
interval page (docs/OUTPUTS.md's pictures)."""

from __future__ import annotations

import os
from pathlib import Path

from tv_match import take_console, two_frame_run

from tests.chromium import CHROMIUM, CHROMIUM_ARGS, needs_chromium, playwright_api
from tests.chromium import free_port as _free_port

pytestmark = needs_chromium

CELL = '#{} tr[data-row="{}"] td[data-player="{}"]'


def _strip_fields(page) -> dict:
    """What the strip shows, field by field."""
    def side(p: str) -> dict:
        sel = f'.side[data-player="{p}"]'
        return {"name": page.inner_text(sel + " .name").replace("\u25b6", "").strip(),
                "points": page.inner_text(sel + " .pts"),
                "at_table": page.get_attribute(sel, "data-at-table"),
                "arrow": page.eval_on_selector(sel + " .mark", "e=>getComputedStyle(e).visibility"),
                "weight": page.eval_on_selector(sel + " .name", "e=>getComputedStyle(e).fontWeight"),
                "underline": page.eval_on_selector(sel, "e=>getComputedStyle(e).borderBottomColor")}

    def text(sel: str) -> str | None:
        return page.inner_text(sel) if page.query_selector(sel) else None

    return {"Ann": side("Ann"), "Bob": side("Bob"), "frames": page.inner_text(".mid .fw"),
            "best_of": page.inner_text(".mid .bo"), "break": text("#break"),
            "break_balls": [b.get_attribute("title") for b in page.query_selector_all("#break .ball")],
            "remaining": text("#remaining"), "reds": text("#reds"),
            "difference": text("#difference"), "snookers": text("#snookers"),
            "frame_time": text("#frametime"), "foul": page.inner_text("#foul")}


def _board_fields(page, half: str) -> dict:
    """What one half of the table display shows."""
    def text(sel: str) -> str | None:
        sel = f"#{half} {sel}"
        return page.inner_text(sel) if page.query_selector(sel) else None

    at_table = [p.get_attribute("data-player") for p in page.query_selector_all(f"#{half} .p.on")]
    return {"Ann": text('.p[data-player="Ann"] .pts'), "Bob": text('.p[data-player="Bob"] .pts'),
            "names": [t.replace("\u25b6", "").strip()
                      for t in page.locator(f"#{half} .p .name").all_inner_texts()],
            "frames": text(".frames"), "break": text(".brk"), "remaining": text(".remaining"),
            "reds": text(".reds"), "difference": text(".difference"),
            "snookers": text(".snookers"), "frame_time": text(".frametime"),
            "foul": text(".foul"), "at_table": at_table}


def _interval_cells(page, table: str, row: str) -> tuple[str, str]:
    return (page.inner_text(CELL.format(table, row, "Ann")),
            page.inner_text(CELL.format(table, row, "Bob")))


def _check_interval_matches_the_feed(page, stats: dict) -> None:
    """Each statistic of the interval page as the feed gives it (both tables, both players)."""
    def shown(s: dict, row: str) -> str:
        def pct(v: float | None) -> str:
            return "–" if v is None else f"{int(100 * v + 0.5)}%"  # as the page's Math.round

        return {"pot": f"{pct(s['pot_success'])} ({s['pots']}/{s['pots'] + s['missed_pots']})",
                "long": f"{pct(s['long_pot_success'])} ({s['long_pots']}/"
                        f"{s['long_pots'] + s['long_missed_pots']})",
                "safeties": str(s["safeties"]), "fouls": str(s["fouls"]),
                "shottime": f"{s['average_shot_time_s']:.1f} s", "ppv": f"{s['points_per_visit']:.1f}",
                "b20": str(s["breaks_20"]), "b50": str(s["breaks_50"]), "b100": str(s["breaks_100"]),
                "high": str(s["highest_break"])}[row]

    for table, key in (("frame-stats", "frame_stats"), ("match-stats", "match_stats")):
        for row in ("pot", "long", "safeties", "fouls", "shottime", "ppv", "b20", "b50", "b100",
                    "high"):
            assert _interval_cells(page, table, row) == tuple(
                shown(stats[key][p], row) for p in ("Ann", "Bob")), (table, row)


def test_every_field_of_the_tv_pages_during_a_match_and_after_a_correction(tmp_path):
    from tracker.server.app import BackgroundServer

    run, writer, bridge = two_frame_run(tmp_path)
    port = _free_port()
    server = BackgroundServer(writer.store.path, "127.0.0.1", port, "token")
    base = f"http://127.0.0.1:{port}"
    shots = os.environ.get("SNOOKER_SCREENSHOTS")
    try:
        with playwright_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            strip = browser.new_page(viewport={"width": 1280, "height": 720})
            strip.goto(base + "/overlay")
            board = browser.new_page(viewport={"width": 1100, "height": 800})
            board.goto(base + "/board")
            interval = browser.new_page(viewport={"width": 1000, "height": 900})
            interval.goto(base + "/interval")
            calls = browser.new_page(viewport={"width": 1100, "height": 800})
            calls.goto(base + "/")
            strip.wait_for_selector("#break", timeout=15_000)
            board.wait_for_selector("#near .brk", timeout=15_000)
            interval.wait_for_selector("#frame-stats", timeout=15_000)
            calls.wait_for_selector(".call", timeout=15_000)
            _check_during_the_match(strip, board, interval, calls)

            answer = strip.request.post(base + "/api/console", headers={"X-Token": "token"},
                                        data={"action": "foul", "code": "push", "when": "last"})
            assert answer.status == 202, answer.text()
            take_console(run, bridge)
            for page, sel in ((strip, "#foul:text('FOUL')"), (board, "#near .foul:text('FOUL')")):
                page.wait_for_selector(sel, timeout=15_000)
            calls.wait_for_selector("#last-call .h:text('CORRECTED')", timeout=15_000)
            interval.wait_for_function("window.__state.board.score.Ann === 140", timeout=15_000)
            _check_after_the_correction(strip, board, interval, calls)
            if shots:
                _screenshots(browser, base, Path(shots), strip)
            browser.close()
    finally:
        server.stop()
        writer.store.close()


def _check_during_the_match(strip, board, interval, calls) -> None:
    s = _strip_fields(strip)
    assert (s["Ann"]["name"], s["Ann"]["points"], s["Bob"]["name"], s["Bob"]["points"]) == (
        "Ann", "136", "Bob", "5")
    assert (s["frames"], s["best_of"]) == ("0 (3) 1", "frames · best of 3")
    assert (s["break"].strip(), s["break_balls"]) == ("Break 1", ["red"])
    assert (s["remaining"], s["reds"], s["difference"], s["snookers"], s["frame_time"]) == (
        "Remaining 130", "Reds 12", "Difference 131", "Bob needs 1 snooker", "Frame time 0:48")
    assert s["foul"] == ""
    # Bob at the table: the arrow, bold type and the underline, not colour alone
    assert (s["Bob"]["at_table"], s["Bob"]["arrow"], s["Bob"]["weight"]) == ("true", "visible", "800")
    assert (s["Ann"]["at_table"], s["Ann"]["arrow"], s["Ann"]["weight"]) == ("false", "hidden", "400")
    assert s["Bob"]["underline"] != s["Ann"]["underline"]
    assert strip.evaluate("document.querySelector('#strip').offsetWidth") <= 760
    for half in ("near", "far"):  # the far end reads the same, turned half a turn
        b = _board_fields(board, half)
        assert (b["names"], b["Ann"], b["Bob"], b["at_table"]) == (["Ann", "Bob"], "136", "5", ["Bob"])
        assert b["frames"].split() == ["0", "–", "1", "frames", "·", "best", "of", "3", "frame", "2"]
        assert (b["break"].strip(), b["remaining"], b["reds"], b["difference"], b["snookers"],
                b["frame_time"], b["foul"]) == ("Break 1", "Remaining 130", "Reds 12",
                                                "Difference 131", "Bob needs 1 snooker",
                                                "Frame time 0:48", "")
    turned = board.eval_on_selector("#far", "e=>getComputedStyle(e).transform")
    assert turned.startswith("matrix(-1, ") and turned.endswith(", -1, 0, 0)"), turned
    assert interval.inner_text("#head") == "Frame 2 in play"
    assert "Frames Ann 0 – 1 Bob (best of 3)" in interval.inner_text("#card")
    # counted from the log: frame 2, Ann potted a red and the blue (a break of 6) in two
    # visits, with one foul; Bob a red in two visits (the break-off, then the red)
    assert _interval_cells(interval, "frame-stats", "pot") == ("100% (2/2)", "100% (1/1)")
    assert _interval_cells(interval, "frame-stats", "fouls") == ("1", "0")
    assert _interval_cells(interval, "frame-stats", "high") == ("6", "1")
    assert _interval_cells(interval, "frame-stats", "ppv") == ("3.0", "0.5")
    assert _interval_cells(interval, "match-stats", "fouls") == ("1", "1")
    assert _interval_cells(interval, "match-stats", "high") == ("6", "6")
    _check_interval_matches_the_feed(interval, interval.evaluate("window.__state.stats"))
    listed = [int(t.split()[1]) for t in calls.locator(".call .t").all_inner_texts()
              if t.startswith("Shot ")]  # the latest calls, newest first, each stroke once
    assert listed == list(range(12, 12 - len(listed), -1)) and len(listed) >= 6, listed


def _check_after_the_correction(strip, board, interval, calls) -> None:
    s = _strip_fields(strip)
    assert (s["Ann"]["points"], s["Bob"]["points"], s["frames"]) == ("140", "4", "0 (3) 1")
    assert (s["break"], s["break_balls"]) == (None, [])
    assert (s["remaining"], s["reds"], s["difference"], s["snookers"], s["frame_time"]) == (
        "Remaining 123", "Reds 12", "Difference 136", "Bob needs 4 snookers", "Frame time 0:48")
    assert s["foul"] == "FOUL: push stroke, 4 to Ann"
    assert (s["Ann"]["at_table"], s["Ann"]["arrow"], s["Bob"]["at_table"], s["Bob"]["arrow"]) == (
        "true", "visible", "false", "hidden")
    for half in ("near", "far"):
        b = _board_fields(board, half)
        assert (b["Ann"], b["Bob"], b["at_table"], b["break"].strip()) == ("140", "4", ["Ann"], "Break 0")
        assert (b["remaining"], b["difference"], b["snookers"], b["foul"]) == (
            "Remaining 123", "Difference 136", "Bob needs 4 snookers", "FOUL: push stroke, 4 to Ann")
    # Bob's red is no longer a pot but a foul: no break for him in frame 2
    assert _interval_cells(interval, "frame-stats", "fouls") == ("1", "1")
    assert _interval_cells(interval, "frame-stats", "high") == ("6", "0")
    assert _interval_cells(interval, "match-stats", "fouls") == ("1", "2")
    _check_interval_matches_the_feed(interval, interval.evaluate("window.__state.stats"))
    texts = calls.locator(".call .t").all_inner_texts()
    assert sum(t.startswith("Shot 12 ") for t in texts) == 1, texts
    assert calls.inner_text("#last-call").startswith("CORRECTED: FOUL")


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
