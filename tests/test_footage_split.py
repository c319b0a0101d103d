"""The development / test split of the real footage (tracker/footage_split.py,
bench/labels/split.json): every real image and clip is in it, the units the code was tuned on
are development, and the rest was split by the hash rule, not by hand."""

from __future__ import annotations

import json

import pytest

from tracker import footage_split as FS
from tracker.footage_eval import footage


def test_every_named_unit_is_development():
    table = FS.load_split()
    for unit in FS.NAMED:
        assert table[unit]["split"] == "dev", unit


def test_the_frozen_split_follows_the_hash_rule():
    """Recomputed from the frozen file's own units (not the disk), the rule gives the same split:
    a hand-moved unit fails this (shown: moving broadcast-snooker/clips/9.mp4 to dev by hand
    in split.json made it fail)."""
    data = json.loads(FS.SPLIT_FILE.read_text())
    for name, rows in data["sets"].items():
        rest = sorted((u for u in rows if u not in FS.NAMED), key=FS._hash)
        n_test = (len(rest) + 1) // 2
        for k, u in enumerate(rest):
            assert rows[u]["split"] == ("test" if k < n_test else "dev"), (name, u)
        if len(rest) >= 2:
            assert any(r["split"] == "test" for r in rows.values()), name


def test_every_real_file_has_a_split():
    root = footage()
    if root is None:
        pytest.skip("../shared/footage is not beside the checkout")
    table = FS.load_split()
    missing = [str(p.relative_to(root)) for p in root.rglob("*")
               if p.suffix in (".png", ".jpg", ".mp4") and "ground-truth" not in p.parts
               and FS.split_of(str(p.relative_to(root)), table) is None]
    assert not missing, f"footage not in bench/labels/split.json: {missing[:5]}"


def test_an_albertomors_file_takes_its_clip_folders_split():
    table = FS.load_split()
    unit = "pool/albertomors-8ball/game1_clip1"
    assert FS.split_of(unit + "/frame_first.png", table) == table[unit]["split"]
    assert FS.split_of("no/such/file.png", table) is None
