"""What the two pool classifier trainers share: the contract written into the ONNX file, and
the held-out evaluation both models go through (onnxruntime on the same crops), so their
figures compare.

The contract (read by the pipeline's pool identity, ``models/pool_classifier.md``): input
``crops`` (N, 3, S, S) float32 BGR 0..1, each crop spanning ``crop_span_radii`` local ball radii
centred on the candidate (:func:`tracker.perception.learned.crops`); output ``logits`` (N, 17)
over ``labels`` = cue, 1 .. 15, none; custom metadata ``crop_size``, ``crop_span_radii``,
``labels`` (JSON).

    python train/pool_model_io.py models/pool_classifier.onnx data/pool_crops_heldout.npz
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_pool_crops import CROP_SIZE, CROP_SPAN, LABELS  # noqa: E402

#: Pairs told apart by the stripe alone (same colour), and the others worth watching.
HARD_PAIRS = (("1", "9"), ("2", "10"), ("3", "11"), ("4", "12"), ("5", "13"), ("6", "14"),
              ("7", "15"), ("8", "cue"))
SOLIDS = tuple(str(i) for i in range(1, 8))
STRIPES = tuple(str(i) for i in range(9, 16))


def write_metadata(path: Path, made_by: str) -> None:
    """Write the contract's custom metadata into the ONNX file at ``path``."""
    import onnx

    m = onnx.load(str(path))
    del m.metadata_props[:]
    for k, v in {"crop_size": str(CROP_SIZE), "crop_span_radii": str(CROP_SPAN),
                 "labels": json.dumps(list(LABELS)), "made_by": made_by}.items():
        e = m.metadata_props.add()
        e.key, e.value = k, v
    onnx.save(m, str(path))


def predict(path: Path, x: np.ndarray, batch: int = 1024) -> np.ndarray:
    """Logits (N, 17) of the ONNX model at ``path`` on crops ``x`` (N, S, S, 3) uint8 BGR,
    fed as the contract says (N, 3, S, S) float32 BGR 0..1."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    s = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    meta = s.get_modelmeta().custom_metadata_map
    assert json.loads(meta["labels"]) == list(LABELS), "the model's labels are not the contract's"
    assert int(meta["crop_size"]) == x.shape[1], "crop size differs from the data's"
    out = []
    for i in range(0, len(x), batch):
        xb = np.ascontiguousarray(x[i:i + batch].transpose(0, 3, 1, 2), np.float32) / 255.0
        out.append(s.run(["logits"], {"crops": xb})[0])
    return np.concatenate(out) if out else np.zeros((0, len(LABELS)), np.float32)


def _group(label: str) -> str:
    if label in SOLIDS:
        return "solid"
    if label in STRIPES:
        return "stripe"
    return {"cue": "cue", "8": "eight", "none": "none"}[label]


def scores(y: np.ndarray, p: np.ndarray, kind: np.ndarray | None = None) -> dict:
    """Accuracy, per-class recall, hard-pair confusions, cue/eight/solid/stripe/none
    accuracy and the confusion matrix (rows truth, columns predicted); ``kind`` (camera
    kinds 0 overhead, 1 oblique, 2 side) adds the accuracy per kind."""
    k = len(LABELS)
    conf = np.zeros((k, k), int)
    np.add.at(conf, (y.astype(int), p.astype(int)), 1)
    recall = {LABELS[i]: round(float(conf[i, i] / max(1, conf[i].sum())), 4) for i in range(k)}
    pairs = {}
    for a, b in HARD_PAIRS:
        ia, ib = LABELS.index(a), LABELS.index(b)
        n = conf[ia].sum() + conf[ib].sum()
        pairs[f"{a}/{b}"] = {"n": int(n), "swapped": int(conf[ia, ib] + conf[ib, ia])}
    groups = np.array([_group(lab) for lab in LABELS])
    g_true, g_pred = groups[y.astype(int)], groups[p.astype(int)]
    group_recall = {g: round(float((g_pred[g_true == g] == g).mean()), 4) for g in
                    ("cue", "eight", "solid", "stripe", "none") if (g_true == g).any()}
    out = {"n": int(len(y)), "accuracy": round(float((p == y).mean()), 4), "recall": recall,
           "hard_pairs": pairs, "group_recall": group_recall,
           "balls_only_accuracy": round(float((p == y)[y != LABELS.index("none")].mean()), 4),
           "confusion": conf.tolist()}
    if kind is not None:
        out["accuracy_by_camera"] = {name: round(float((p == y)[kind == i].mean()), 4)
                                     for i, name in enumerate(("overhead", "oblique", "side"))
                                     if (kind == i).any()}
    return out


def evaluate(path: Path, data: Path) -> dict:
    """:func:`scores` of the ONNX model at ``path`` on the crops in ``data`` (an npz of
    ``train/make_pool_crops.py``)."""
    d = np.load(data)
    p = predict(path, d["x"]).argmax(1)
    return scores(d["y"], p, d["kind"])


if __name__ == "__main__":
    r = evaluate(Path(sys.argv[1]), Path(sys.argv[2]))
    print(json.dumps({k: v for k, v in r.items() if k != "confusion"}, indent=1))
