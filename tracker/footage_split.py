"""The development and test split of the real footage (``../shared/footage``).

Every real image and clip belongs to one *unit* (a still, a clip, or an albertomors clip's
folder with its two labelled frames) and each unit to one split:

- ``dev``: tunables are chosen on these, and causes are looked for in them;
- ``test``: run only to report; no tunable is ever chosen on them.

The split is frozen in ``bench/labels/split.json`` (written once by :func:`make_split`, with a
reason per unit; docs/SPLIT.md says why it is made this way). The rule:

1. A unit that a tunable's reason or a fix names (the images and clips the code was tuned on
   before the split existed: :data:`NAMED`, each with where it is named) is ``dev``.
2. The rest of each set is split in two by a hash of the unit's name (SHA-256 of
   :data:`SALT` and the name): the half with the lower hashes is ``test`` (the larger half
   when the count is odd), so no one chose which.

A file added to the footage later is in no unit of the frozen file: :func:`split_of` says
``None`` and the benches list it apart until the file is regenerated on purpose.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SPLIT_FILE = ROOT / "bench" / "labels" / "split.json"
SALT = "snooker-tracker footage split v1"

#: set name -> glob patterns (relative to the footage folder) of its units
SETS: dict[str, tuple[str, ...]] = {
    "lab_with_halo_2": ("overhead-lab-snooker/with_halo_2/*.png",),
    "lab_without_halo": ("overhead-lab-snooker/without_halo/*.png",),
    "lab_unlabelled": ("overhead-lab-snooker/with_projector_off/*.png",
                       "overhead-lab-snooker/*.mp4"),
    "broadcast_stills": ("broadcast-snooker/stills/*.jpg",),
    "broadcast_clips": ("broadcast-snooker/clips/*.mp4",),
    "broadcast_more": ("broadcast-snooker-more/*.mp4",),
    "pool_8ball": ("pool/albertomors-8ball/*/",),
    "pool_other": ("pool/*.mp4",),
    "stills_snooker": ("stills-snooker/*.png", "stills-snooker/*.jpg"),
}

#: units named by a tunable's reason or a fix before the split: development, with where
NAMED: dict[str, str] = {
    "overhead-lab-snooker/with_halo_2/10.png":
        "its green set LOW_CONTRAST_SHARE and the disc fit (60ae182)",
    "overhead-lab-snooker/with_halo_2/15.png": "its black set HOLE_* (detect.py's comment)",
    "overhead-lab-snooker/with_halo_2/20.png": "its green is a test of the disc fit",
    "overhead-lab-snooker/with_halo_2/32.png":
        "its brown set UNCOVERED_MIN_RADII; its green is a test of the disc fit",
    "overhead-lab-snooker/without_halo/1.png": "its jaws set HOLE_* (detect.py's comment)",
    "overhead-lab-snooker/without_halo/2.png": "its jaws set HOLE_* (detect.py's comment)",
    "pool/9_ball_clearance.mp4": "its near corner pocket set HOLE_* (d08378f)",
    "broadcast-snooker/clips/1.mp4": "the mid-frame start and the pocket numbering were fixed on it",
    "broadcast-snooker/clips/2.mp4": "empty colour features fixed on it (issue-12 merge)",
    "broadcast-snooker/clips/3.mp4": "cushion-corner pots and unseen-ball following fixed on it",
    "broadcast-snooker/clips/4.mp4": "the learned detector's blob rules checked on it",
    "broadcast-snooker/clips/5.mp4": "the recalibration-after-a-cut rule fixed on it",
    "broadcast-snooker/clips/6.mp4": "the cue ball's streak rule fixed on it",
    "broadcast-snooker/clips/7.mp4": "set HAND_START_SPEED_MM_S (events.py's comment)",
    "broadcast-snooker/clips/11.mp4":
        "set HAND_START_SPEED_MM_S and the cloth learned from the first picture",
    "broadcast-snooker/clips/12.mp4": "a pot timed before its first contact fixed on it",
    "broadcast-snooker/stills/1.jpg": "the calibration picture of docs/CALIBRATION.md",
    "broadcast-snooker/stills/4.jpg": "a head over the table read as the brown, fixed on it",
    "broadcast-snooker/stills/26.jpg": "set HIGHLIGHT_MIN_SEP_RADII",
    "broadcast-snooker/stills/47.jpg": "one highlight counted as two reds, fixed on it",
    "broadcast-snooker/stills/25.jpg": "markings labelled by eye chose the markings calibration",
    "broadcast-snooker/stills/30.jpg": "markings labelled by eye chose the markings calibration",
    "broadcast-snooker/stills/31.jpg": "markings labelled by eye chose the markings calibration",
    "broadcast-snooker/stills/42.jpg": "markings labelled by eye chose the markings calibration",
    "broadcast-snooker/stills/43.jpg": "markings labelled by eye chose the markings calibration",
    "broadcast-snooker/stills/49.jpg": "markings labelled by eye chose the markings calibration",
    "stills-snooker/dapeef_snooker3.png": "the overhead calibration was developed on it",
    "stills-snooker/lengyhell_input_screen.png": "the overhead calibration was developed on it",
    "stills-snooker/lengyhell_input_table_rectified.png": "the pair of lengyhell_input_screen",
}


def units(footage: Path) -> dict[str, list[str]]:
    """Set name -> its units (paths relative to ``footage``, sorted) found on disk."""
    out: dict[str, list[str]] = {}
    for name, patterns in SETS.items():
        found: set[str] = set()
        for pat in patterns:
            for p in footage.glob(pat):
                found.add(str(p.relative_to(footage)).rstrip("/"))
        out[name] = sorted(found)
    return out


def _hash(unit: str) -> str:
    return hashlib.sha256(f"{SALT}:{unit}".encode()).hexdigest()


def make_split(footage: Path) -> dict[str, Any]:
    """The split by the rule in the module docstring: ``{"sets": {set: {unit: {"split",
    "reason"}}}}``."""
    sets: dict[str, dict[str, dict[str, str]]] = {}
    for name, found in units(footage).items():
        rows: dict[str, dict[str, str]] = {}
        rest = [u for u in found if u not in NAMED]
        for u in found:
            if u in NAMED:
                rows[u] = {"split": "dev", "reason": "named: " + NAMED[u]}
        ranked = sorted(rest, key=_hash)
        n_test = (len(ranked) + 1) // 2
        for k, u in enumerate(ranked):
            rows[u] = {"split": "test" if k < n_test else "dev",
                       "reason": f"hash rank {k + 1} of {len(ranked)} unnamed in the set"}
        sets[name] = dict(sorted(rows.items()))
    return {"rule": __doc__.split("\n\n")[1].strip(), "salt": SALT, "sets": sets}


def load_split(path: Path = SPLIT_FILE) -> dict[str, dict[str, str]]:
    """Unit -> ``{"set", "split", "reason"}`` from the frozen file."""
    data = json.loads(path.read_text())
    return {u: {"set": s, **row} for s, rows in data["sets"].items() for u, row in rows.items()}


def unit_of(rel: str) -> str:
    """The unit a footage file belongs to (an albertomors file: its clip's folder)."""
    rel = rel.replace("\\", "/").rstrip("/")
    parts = rel.split("/")
    if len(parts) >= 3 and parts[0] == "pool" and parts[1] == "albertomors-8ball":
        return "/".join(parts[:3])
    return rel


def split_of(rel: str, table: dict[str, dict[str, str]] | None = None) -> str | None:
    """``dev``, ``test`` or None (not in the frozen split) for a footage file given relative to
    the footage folder (e.g. ``broadcast-snooker/clips/8.mp4``)."""
    table = load_split() if table is None else table
    row = table.get(unit_of(rel))
    return row["split"] if row else None


def main() -> int:
    """Write ``bench/labels/split.json`` from the footage beside the checkout (once; the file is
    then frozen)."""
    import sys

    root = ROOT.parent / "shared" / "footage"
    if not root.exists():
        print("../shared/footage is not there: nothing to split", file=sys.stderr)
        return 2
    data = make_split(root)
    SPLIT_FILE.write_text(json.dumps(data, indent=1) + "\n")
    for name, rows in data["sets"].items():
        test = sum(r["split"] == "test" for r in rows.values())
        print(f"{name}: {len(rows)} units, {len(rows) - test} dev, {test} test")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
