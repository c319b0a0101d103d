"""Train the learned ball classifier on crops from train/make_ball_crops.py and export it to
ONNX (needs the ``train`` extra: torch, onnx).

    OMP_NUM_THREADS=1 python train/train_ball_classifier.py --data data/ball_crops.npz \
        --out models/ball_classifier.onnx

A small CNN (three conv stages, 24 x 24 x 3 in, nine logits out: the eight colours and "not a
ball"), trained from scratch (no pretrained weights) with Adam on one CPU thread, classes
balanced by sampling, light augmentation (mirror left-right, per-channel gain, brightness,
noise). A tenth of the cameras is held out as synthetic validation (cameras never trained on);
its per-class accuracy and confusion go into ``--metrics`` (JSON) with the training time. This
is agreement with our own renderer, not an accuracy on real pictures: bench/learned.py and
bench/real_footage.py measure that.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("OMP_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))

import torch  # noqa: E402
from cnn_common import conv_block, fit, to_tensor  # noqa: E402
from torch import nn  # noqa: E402

from tracker.perception.learned import CLASSIFIER  # noqa: E402

#: The contract the model is trained to (written into it; :class:`ClassifierParams`).
CROP_SIZE, CROP_SPAN_RADII, LABELS = CLASSIFIER.crop_size, CLASSIFIER.crop_span_radii, CLASSIFIER.labels


def model(width: int = 12) -> nn.Module:
    """The network: (N, 3, 24, 24) in 0..1 -> (N, 9) logits."""
    block, w = conv_block, width
    return nn.Sequential(
        *block(3, w), *block(w, w), nn.MaxPool2d(2),            # 12 x 12
        *block(w, 2 * w), *block(2 * w, 2 * w), nn.MaxPool2d(2),  # 6 x 6
        *block(2 * w, 4 * w), nn.MaxPool2d(2),                   # 3 x 3 (where in the crop counts)
        nn.Flatten(), nn.Dropout(0.2), nn.Linear(4 * w * 9, len(LABELS)))


def augment(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Mirror left-right, per-channel gain (light colour), brightness, noise; x (N, 3, s, s)."""
    n = len(x)
    flip = torch.rand(n, generator=g) < 0.5
    x = torch.where(flip[:, None, None, None], x.flip(3), x)
    gain = 1 + 0.12 * (2 * torch.rand(n, 3, 1, 1, generator=g) - 1)
    bright = torch.exp(0.2 * torch.randn(n, 1, 1, 1, generator=g))
    x = x * gain * bright + 0.015 * torch.randn(x.shape, generator=g)
    return x.clamp(0, 1)


def evaluate(net: nn.Module, x: np.ndarray, y: np.ndarray) -> dict:
    """Accuracy, per-class recall and the confusion matrix (rows truth, columns predicted)."""
    net.eval()
    preds = []
    with torch.no_grad():
        for i in range(0, len(x), 2048):
            preds.append(net(to_tensor(x[i:i + 2048])).argmax(1).numpy())
    p = np.concatenate(preds) if preds else np.zeros(0, int)
    k = len(LABELS)
    conf = np.zeros((k, k), int)
    np.add.at(conf, (y.astype(int), p), 1)
    recall = {LABELS[i]: float(conf[i, i] / max(1, conf[i].sum())) for i in range(k)}
    return {"n": int(len(y)), "accuracy": float((p == y).mean()) if len(y) else None,
            "recall": recall, "confusion": conf.tolist()}


def export(net: nn.Module, path: Path) -> None:
    """ONNX with the crop geometry and labels in its metadata."""
    import onnx

    net.eval()
    dummy = torch.zeros(1, 3, CROP_SIZE, CROP_SIZE)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, dummy, str(path), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17,
                      dynamo=False)
    m = onnx.load(str(path))
    for k, v in {"crop_size": str(CROP_SIZE), "crop_span_radii": str(CROP_SPAN_RADII),
                 "labels": json.dumps(list(LABELS)),
                 "made_by": "train/train_ball_classifier.py"}.items():
        e = m.metadata_props.add()
        e.key, e.value = k, v
    onnx.save(m, str(path))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=Path("data/ball_crops.npz"))
    ap.add_argument("--out", type=Path, default=Path("models/ball_classifier.onnx"))
    ap.add_argument("--metrics", type=Path, default=Path("models/ball_classifier.metrics.json"))
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--width", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(a.seed)
    g = torch.Generator().manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    d = np.load(a.data)
    x, y, cam = d["x"], d["y"].astype(np.int64), d["camera"]
    held = np.isin(cam, rng.permutation(np.unique(cam))[: max(1, len(np.unique(cam)) // 10)])
    xt, yt, xv, yv = x[~held], y[~held], x[held], y[held]
    net = model(a.width)
    t0 = time.perf_counter()
    fit(net, xt, yt, LABELS, epochs=a.epochs, batch=a.batch, rng=rng, g=g, augment=augment,
        epoch_note=lambda: {"val_accuracy": round(evaluate(net, xv, yv)["accuracy"] or 0, 4)},
        progress=True)
    took = time.perf_counter() - t0
    export(net, a.out)
    val = evaluate(net, xv, yv)
    metrics = {"train_crops": int(len(yt)), "val_crops": int(len(yv)),
               "val_cameras": int(len(np.unique(cam[held]))), "epochs": a.epochs,
               "params": int(sum(p.numel() for p in net.parameters())),
               "train_s": round(took), "machine": f"{platform.machine()}, torch threads 1",
               "onnx_bytes": a.out.stat().st_size, "validation_synthetic": val,
               "validation_synthetic_oblique": evaluate(net, xv[d["oblique"][held]], yv[d["oblique"][held]])}
    a.metrics.write_text(json.dumps(metrics, indent=1))
    print(json.dumps({k: v for k, v in metrics.items() if not k.startswith("validation")}))
    print(f"synthetic validation accuracy {val['accuracy']:.4f}; per class "
          + ", ".join(f"{k} {v:.3f}" for k, v in val["recall"].items()))


if __name__ == "__main__":
    main()
