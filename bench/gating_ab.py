"""The same as ``python bench/gate.py same-calls [SCENARIO ...]``, kept so that the commands
quoted in docs/BENCHMARKS.md still run: that runner holds both measures of the change gate."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.gate import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["same-calls", *sys.argv[1:]]))
