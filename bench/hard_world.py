"""The same as ``python bench/synth_video.py hard-world [overhead|tv|both] [CLIPS] [SECONDS]
[true|auto|both] [FIRST_SEED] [--no-faults]``, kept so that the commands quoted in
docs/ACCURACY.md still run: that runner holds this measure beside the two others that render,
referee and compare synthetic clips."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.synth_video import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["hard-world", *sys.argv[1:]]))
