"""What every bench writes beside its figures: when, on which commit and machine, by which
command. A working tree with uncommitted changes to tracked files shows as ``COMMIT+changes``."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def run_info(command: str, seconds: float | None = None) -> dict[str, Any]:
    """``{"date", "commit", "machine", "command"[, "seconds"]}`` of a bench run now."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip()

    dirty = git("status", "--porcelain", "--untracked-files=no")
    out: dict[str, Any] = {"date": str(datetime.date.today()),
                           "commit": git("rev-parse", "--short", "HEAD") + ("+changes" if dirty else ""),
                           "machine": f"{platform.machine()} with {os.cpu_count()} cores",
                           "command": command}
    if seconds is not None:
        out["seconds"] = round(seconds)
    return out
