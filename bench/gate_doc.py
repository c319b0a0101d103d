"""The "Regression gate" section of docs/ACCURACY.md, written from the gate's references.

    python bench/gate_doc.py

`snooker-tracker eval --fast` (what CI runs) measures these figures and fails when one is worse
than its reference by more than its tolerance (`tracker/evaluate.py`). The references and
tolerances live in bench/reference-metrics.json, each tolerance with its reason; this script
only lays them out as a table, with the commit that last wrote the file. It measures nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tracker.evaluate import REFERENCE, replace_section  # noqa: E402

SECTION = "Regression gate (`eval --fast`)"


def section() -> str:
    """The section's markdown."""
    ref = json.loads(REFERENCE.read_text())
    last = subprocess.run(["git", "log", "-1", "--format=%h %cs", "--", str(REFERENCE)], cwd=ROOT,
                          capture_output=True, text=True).stdout.strip() or "uncommitted"
    lines = [f"## {SECTION}", "",
             f"The references of `bench/reference-metrics.json` (last written at `{last}`), laid "
             "out by `python bench/gate_doc.py`. CI runs `snooker-tracker eval --fast` and fails "
             "when a figure is worse than its reference by more than its tolerance; "
             "`tests/test_gate.py` breaks one thing per stage and checks that the gate catches it. "
             "Real figures per split: `.dev` and `.test` (docs/SPLIT.md); `_n`: the size of the "
             "set judged (a change makes the figures beside it not comparable).", "",
             "| figure | reference | better | tolerance | why this tolerance |",
             "|---|---|---|---|---|"]
    for name, r in ref.items():
        lines.append(f"| `{name}` | {r['value']:g} | {r['better']} | {r['tolerance']:g} | "
                     f"{r.get('reason', '')} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    text = section()
    replace_section(ROOT / "docs" / "ACCURACY.md", SECTION, text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
