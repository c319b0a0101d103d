"""Test set-up: pooltool reads ~/.config/pooltool, so give it a folder of its own; each picture
calibrated once per session (tests/calibration_once.py; ``CALIBRATE_EVERY_TIME=1`` turns it
off)."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("POOLTOOL_HOME", os.path.join(tempfile.gettempdir(), "snooker-tracker-pooltool"))

import calibration_once  # noqa: E402  (tests/ is on the path: pytest puts it there)

CALIBRATION_ONCE = calibration_once.install()


def pytest_terminal_summary(terminalreporter):
    """One line: how many pictures were calibrated and how many answered again."""
    if CALIBRATION_ONCE:
        s = calibration_once.STATS
        terminalreporter.write_line(
            f"calibration: {s['misses']} pictures calibrated, {s['hits']} answered again from "
            f"this session, {s['passed_by']} calibrated afresh under a test's patch")
