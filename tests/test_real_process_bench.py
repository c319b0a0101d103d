"""bench/real_process.py's judging and clip list (the bench itself runs `process` on the real
footage; here only what decides its figures, and its labels file)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOOTAGE = ROOT.parent / "shared" / "footage"


def _bench():
    spec = importlib.util.spec_from_file_location("real_process", ROOT / "bench" / "real_process.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_clip_is_right_only_with_exactly_the_labelled_pots():
    judge = _bench().judge
    one_red = {"pots": [("red", "top_left", 3.2, 1)]}
    assert judge(["red"], one_red) is True
    assert judge(["black"], one_red) is False  # wrong ball
    assert judge([], one_red) is False  # an invented pot on the clip without one
    assert judge(["red"], {"pots": [("red", "top_left", 3.2, 1), ("pink", "middle_left", 4.0, 1)]}) is False
    assert judge([], {"pots": []}) is True
    assert judge(["red"], {"error": "no table found"}) is False
    assert judge(None, one_red) is None  # not labelled: not judged
    # pool: balls are not told apart, pots are counted
    assert judge(["ball", "ball"], {"pots": [("brown", "x", 1.0, 1), ("red", "y", 2.0, 2)]}) is True
    assert judge(["ball"], {"pots": []}) is False


def test_the_eye_labels_say_how_they_were_made():
    data = json.loads((ROOT / "bench" / "labels" / "real_clips.json").read_text())
    assert data["_how"]
    for name, lab in data["clips"].items():
        assert name.split("/")[0] in ("more", "pool"), name
        assert isinstance(lab["pots"], list) and lab["how"], name


@pytest.mark.skipif(not FOOTAGE.exists(), reason="shared footage absent")
def test_every_real_clip_is_listed_with_its_labels():
    bench = _bench()
    clips = bench.clip_list(FOOTAGE)
    groups = {g for g, _, _ in clips}
    assert groups == {"broadcast", "more", "pool"}
    assert [n for g, n, _ in clips if g == "broadcast"] == [str(i) for i in range(1, 13)]
    assert len(clips) == len(list(FOOTAGE.glob("broadcast-snooker/clips/*.mp4"))) + len(
        list(FOOTAGE.glob("broadcast-snooker-more/*.mp4"))) + len(list(FOOTAGE.glob("pool/**/*.mp4")))
    eye = json.loads(bench.LABELS.read_text())["clips"]
    for key in eye:  # every eye label names a clip that is there
        assert any(f"{g}/{n}" == key for g, n, _ in clips), key
    truth = {f"{g}/{n}": bench.labelled_pots(FOOTAGE, g, n, eye)["pots"] for g, n, _ in clips}
    assert truth["broadcast/2"] == [] and truth["broadcast/1"] == ["red"]
    assert truth["pool/9_ball_clearance"] == ["ball"] * 9
