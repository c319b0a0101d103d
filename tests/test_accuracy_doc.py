"""docs/ACCURACY.md as the benches write it (tracker.evaluate.replace_section)."""

from __future__ import annotations

import re
from pathlib import Path

from tracker.evaluate import replace_section

ROOT = Path(__file__).resolve().parents[1]


def test_a_section_is_found_by_its_whole_heading(tmp_path):
    """"Calibration" must not replace "Calibration on real footage ..." (it did: the synthetic
    calibration bench wrote over the per-split section, leaving the stale one it meant to
    replace)."""
    doc = tmp_path / "A.md"
    doc.write_text("# A\n\n## Calibration on real footage\n\nsplit\n\n## Calibration\n\nold\n\n"
                   "## Other\n\nkept\n")
    replace_section(doc, "Calibration", "## Calibration\n\nnew\n")
    text = doc.read_text()
    assert "split" in text and "new" in text and "old" not in text and "kept" in text
    replace_section(doc, "Fresh", "## Fresh\n\nadded\n")
    assert doc.read_text().rstrip().endswith("added")


def test_every_heading_of_accuracy_is_one_sections():
    heads = re.findall(r"(?m)^## (.+)$", (ROOT / "docs" / "ACCURACY.md").read_text())
    assert len(heads) == len(set(heads)), heads
