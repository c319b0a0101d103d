"""The same as ``python bench/synth_video.py scenarios [overhead|broadcast]``, kept so that the commands quoted in
docs/ACCURACY.md still run: that runner holds this measure beside the two others that render,
referee and compare synthetic clips."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.synth_video import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["scenarios", *sys.argv[1:]]))
