"""What the headless-browser tests share: Debian's chromium driven by Playwright (never
Playwright's own browser download), skipped with the reason when either is missing."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
#: the mark of a module of browser tests (``pytestmark = needs_chromium``)
needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                    reason="Debian's chromium is not installed (apt-get install "
                                           "chromium)")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
