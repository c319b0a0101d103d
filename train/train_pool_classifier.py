"""Train the pool ball classifier, our own small CNN, on crops from train/make_pool_crops.py and
export it to ONNX with the contract's metadata (``train/pool_model_io.py``; needs the ``train``
extra).

    OMP_NUM_THREADS=1 python train/train_pool_classifier.py --data data/pool_crops.npz \\
        --heldout data/pool_crops_heldout.npz --out models/pool_classifier.onnx

The snooker classifier's recipe (``train/train_ball_classifier.py``) widened to 32 x 32 crops
and 17 answers (cue, 1 .. 15, none): six 3 x 3 convs in four stages (32 -> 16 -> 8 -> 4 -> 2), from random
initialisation, AdamW with a one-cycle learning rate on one CPU thread, classes balanced by
sampling ("none" twice), augmentation by quarter turns and transposes (a ball has no up; a
mirror would mirror its number), per-channel gain, brightness and noise. Held out: the crops
of other cameras (``--heldout``, another seed of the crop maker), scored through onnxruntime
as the YOLO model is (``train/train_pool_yolo.py``).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import torch  # noqa: E402
from cnn_common import conv_block, fit, write_pool_metrics  # noqa: E402
from make_pool_crops import CROP_SIZE, LABELS  # noqa: E402
from pool_model_io import evaluate, write_metadata  # noqa: E402
from torch import nn  # noqa: E402


def model(width: int = 12) -> nn.Module:
    """The network: (N, 3, 32, 32) BGR 0..1 -> (N, 17) logits."""
    block, w = conv_block, width
    return nn.Sequential(
        *block(3, w), nn.MaxPool2d(2),                               # 16 x 16
        *block(w, 2 * w), *block(2 * w, 2 * w), nn.MaxPool2d(2),    # 8 x 8
        *block(2 * w, 4 * w), *block(4 * w, 4 * w), nn.MaxPool2d(2),  # 4 x 4
        *block(4 * w, 4 * w), nn.AdaptiveAvgPool2d(2),              # 2 x 2 (where still counts)
        nn.Flatten(), nn.Dropout(0.2), nn.Linear(4 * w * 4, len(LABELS)))


def augment(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Quarter turns and transposes with the number kept readable (rotations only), per-channel
    gain (light colour), brightness, noise; x (N, 3, s, s)."""
    k = int(torch.randint(0, 4, (1,), generator=g))
    x = torch.rot90(x, k, (2, 3))
    n = len(x)
    gain = 1 + 0.12 * (2 * torch.rand(n, 3, 1, 1, generator=g) - 1)
    bright = torch.exp(0.2 * torch.randn(n, 1, 1, 1, generator=g))
    x = x * gain * bright + 0.015 * torch.randn(x.shape, generator=g)
    return x.clamp(0, 1)


def export(net: nn.Module, path: Path) -> None:
    """ONNX (opset 17, batch dimension free) with the contract's metadata."""
    net.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, 3, CROP_SIZE, CROP_SIZE), str(path), input_names=["crops"],
                      output_names=["logits"], dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
                      opset_version=17, dynamo=False)
    write_metadata(path, "train/train_pool_classifier.py")


def train(net: nn.Module, xt: np.ndarray, yt: np.ndarray, epochs: int, batch: int, seed: int,
          device: str = "cpu") -> None:
    """Train ``net`` in place on crops ``xt`` (N, S, S, 3) uint8 and labels ``yt``, on
    ``device`` (left on the CPU afterwards)."""
    g = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    fit(net, xt, yt, LABELS, epochs=epochs, batch=batch, rng=rng, g=g, augment=augment, device=device)
    net.cpu()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=Path("data/pool_crops.npz"))
    ap.add_argument("--heldout", type=Path, default=Path("data/pool_crops_heldout.npz"))
    ap.add_argument("--out", type=Path, default=Path("models/pool_classifier.onnx"))
    ap.add_argument("--metrics", type=Path, default=Path("models/pool_classifier.metrics.json"))
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--width", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="cpu", help="cpu, or cuda where a GPU is")
    a = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(a.seed)
    d = np.load(a.data)
    xt, yt = d["x"], d["y"].astype(np.int64)
    net = model(a.width)
    t0 = time.perf_counter()
    train(net, xt, yt, a.epochs, a.batch, a.seed, a.device)
    took = time.perf_counter() - t0
    export(net, a.out)
    held = evaluate(a.out, a.heldout)
    metrics = {"trainer": "own CNN (train/train_pool_classifier.py)", "train_crops": int(len(yt)),
               "epochs": a.epochs, "params": int(sum(p.numel() for p in net.parameters())),
               "train_s": round(took), "machine": (f"{platform.machine()}, torch threads 1" if a.device == "cpu"
                                                   else f"{platform.machine()}, {torch.cuda.get_device_name()}"),
               "onnx_bytes": a.out.stat().st_size, "heldout": held}
    write_pool_metrics(metrics, a.metrics)


if __name__ == "__main__":
    main()
