"""The committed pool classifier keeps its contract with the pipeline (input ``crops``
(N, 3, S, S) BGR 0..1, output ``logits`` (N, 17), metadata ``crop_size``, ``crop_span_radii``,
``labels``) and tells a freshly rendered cue ball, 8, solid and stripe apart."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.table import TableGeometry
from tracker.perception.learned import crops, to_input
from tracker.synth.pool_render import PoolRenderer, random_orientation
from tracker.synth.render import RenderStyle

ort = pytest.importorskip("onnxruntime")
MODEL = Path(__file__).resolve().parents[1] / "models" / "pool_classifier.onnx"
LABELS = ["cue", *[str(i) for i in range(1, 16)], "none"]


@pytest.fixture(scope="module")
def session():
    return ort.InferenceSession(str(MODEL), providers=["CPUExecutionProvider"])


def test_contract(session):
    meta = session.get_modelmeta().custom_metadata_map
    assert json.loads(meta["labels"]) == LABELS
    assert float(meta["crop_span_radii"]) == 4.0
    size = int(meta["crop_size"])
    (inp,), (out,) = session.get_inputs(), session.get_outputs()
    assert (inp.name, out.name) == ("crops", "logits")
    assert inp.shape[1:] == [3, size, size] and out.shape[1] == len(LABELS)
    logits = session.run(["logits"], {"crops": np.zeros((3, 3, size, size), np.float32)})[0]
    assert logits.shape == (3, len(LABELS))


def test_tells_cue_eight_solid_stripe_apart(session):
    """A 720p overhead view of a 7 ft table on a blue cloth, balls at random orientations
    (a seed of its own, not the training data's cameras): the cue ball, the 8, the 3 (solid)
    and the 11 (stripe) each read as their group (the band of the stripe turned to show)."""
    t = TableGeometry.pool(7)
    cam = CameraModel.look_at((t.width / 2, t.length / 2, 2300.0), (t.width / 2, t.length / 2, 0.0),
                              (1.0, 0.0, 0.0), (1280, 720), 55.0)
    r = PoolRenderer(cam, t, RenderStyle(cloth_rgb=(0.08, 0.45, 0.8), seed=7))
    balls = {"white": (300.0, 500.0), "8": (700.0, 900.0), "3": (300.0, 1300.0), "11": (650.0, 1500.0)}
    rng = np.random.default_rng(11)
    orient = {b: random_orientation(rng) for b in balls}
    orient["11"] = np.array([[1.0, 0, 0], [0, 0, -1.0], [0, 1.0, 0]])  # band across the top
    img = r.render(balls, orientations=orient)
    centres = np.array([[*xy, t.ball_radius] for xy in balls.values()])
    px = cam.project(centres)
    radii = np.linalg.norm(cam.project(centres + [t.ball_radius, 0, 0]) - px, axis=1)
    meta = session.get_modelmeta().custom_metadata_map
    x = to_input(crops(img, px, radii, int(meta["crop_size"]), float(meta["crop_span_radii"])))
    said = [LABELS[i] for i in session.run(["logits"], {"crops": x})[0].argmax(1)]
    assert said[0] == "cue" and said[1] == "8", said
    assert said[2] in [str(i) for i in range(1, 8)], said
    assert said[3] in [str(i) for i in range(9, 16)], said
