"""Test set-up: pooltool reads ~/.config/pooltool, so give it a folder of its own."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("POOLTOOL_HOME", os.path.join(tempfile.gettempdir(), "snooker-tracker-pooltool"))
