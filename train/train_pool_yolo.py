"""Train the pool ball classifier with ultralytics (a YOLO classification model from its yaml,
no pretrained weights) on the same crops as the own CNN (train/train_pool_classifier.py), and
export it to ONNX wrapped to the contract (``train/pool_model_io.py``; needs the ``train``
extra, with ultralytics).

    OMP_NUM_THREADS=1 python train/train_pool_yolo.py --data data/pool_crops.npz \\
        --heldout data/pool_crops_heldout.npz --out data/pool_classifier_yolo.onnx

Ultralytics reads an image folder per class and feeds its network RGB 0..1 (it converts the
BGR files it reads; no mean or scale). The crops are written as PNG files in folders named
``00_cue`` .. ``16_none`` so that its class order (sorted names) is the contract's. Its
augmentation is set for balls: no mirror (a mirrored number), no random erasing, a mild
random crop (``scale`` 0.1) and colour jitter. For validation during training it gets a
tenth of the training cameras; the held-out cameras are seen only by the final scoring.

The exported graph is a wrapper: the contract's BGR 0..1 crops are flipped to RGB (and
resized when ``--imgsz`` is not the crop size) inside it, and its output is the network's
logits before its softmax.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import cv2  # noqa: E402
import torch  # noqa: E402
from cnn_common import write_pool_metrics  # noqa: E402
from make_pool_crops import CROP_SIZE, LABELS  # noqa: E402
from pool_model_io import evaluate, write_metadata  # noqa: E402
from torch import nn  # noqa: E402


def write_folders(d: dict, root: Path, seed: int) -> None:
    """The crops of ``d`` as ``root/{train,val}/NN_label/i.png`` (val: a tenth of the cameras)."""
    if root.exists():
        shutil.rmtree(root)
    rng = np.random.default_rng(seed)
    cams = np.unique(d["camera"])
    val = np.isin(d["camera"], rng.permutation(cams)[: max(1, len(cams) // 10)])
    for split, sel in (("train", ~val), ("val", val)):
        for k, lab in enumerate(LABELS):
            (root / split / f"{k:02d}_{lab}").mkdir(parents=True)
        for i in np.nonzero(sel)[0]:
            y = int(d["y"][i])
            cv2.imwrite(str(root / split / f"{y:02d}_{LABELS[y]}" / f"{i}.png"), d["x"][i])


class ContractWrapper(nn.Module):
    """The contract's input (N, 3, S, S) BGR 0..1 -> the YOLO classifier's logits (N, 17)."""

    def __init__(self, net: nn.Module, imgsz: int):
        super().__init__()
        self.net, self.imgsz = net, imgsz

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        x = crops.flip(1)  # BGR -> RGB
        if self.imgsz != CROP_SIZE:
            x = nn.functional.interpolate(x, size=(self.imgsz, self.imgsz), mode="bilinear",
                                          align_corners=False)
        out = self.net(x)
        if isinstance(out, (tuple, list)):  # ultralytics' eval head: (softmax, logits)
            return out[1]
        return torch.log(out.clamp_min(1e-9))  # an export-mode head gives the softmax


def _results_without_polars() -> None:
    """Ultralytics reads its results file with polars when it saves a checkpoint; where polars
    is not installed, read it with the csv module instead (the same dictionary of columns)."""
    try:
        import polars  # noqa: F401
    except ImportError:
        import csv

        from ultralytics.engine.trainer import BaseTrainer

        def read_results_csv(self) -> dict:
            try:
                rows = list(csv.DictReader(self.csv.read_text().splitlines()))
            except OSError:
                return {}
            return {k.strip(): [float(r[k]) for r in rows] for k in (rows[0] if rows else {})}

        BaseTrainer.read_results_csv = read_results_csv


def export(net: nn.Module, imgsz: int, path: Path) -> None:
    """The wrapped network as ONNX (opset 17, batch dimension free) with the metadata."""
    w = ContractWrapper(net.float().eval(), imgsz).eval()
    for m in w.modules():
        if hasattr(m, "export"):
            m.export = False
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(w, torch.zeros(1, 3, CROP_SIZE, CROP_SIZE), str(path), input_names=["crops"],
                      output_names=["logits"], dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
                      opset_version=17, dynamo=False)
    write_metadata(path, "train/train_pool_yolo.py (ultralytics)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=Path("data/pool_crops.npz"))
    ap.add_argument("--heldout", type=Path, default=Path("data/pool_crops_heldout.npz"))
    ap.add_argument("--out", type=Path, default=Path("data/pool_classifier_yolo.onnx"))
    ap.add_argument("--metrics", type=Path, default=Path("models/pool_classifier_yolo.metrics.json"))
    ap.add_argument("--yaml", default="yolov8n-cls.yaml")
    ap.add_argument("--imgsz", type=int, default=CROP_SIZE)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--work", type=Path, default=Path("data/pool_yolo"))
    ap.add_argument("--device", default="cpu", help="cpu, or 0 for the first GPU")
    ap.add_argument("--workers", type=int, default=0, help="data loading processes")
    a = ap.parse_args()
    torch.set_num_threads(1)
    from ultralytics import YOLO

    _results_without_polars()

    d = dict(np.load(a.data))
    write_folders(d, a.work / "crops", 0)
    model = YOLO(a.yaml)
    t0 = time.perf_counter()
    model.train(data=str((a.work / "crops").resolve()), imgsz=a.imgsz, epochs=a.epochs, batch=a.batch,
                device=a.device, workers=a.workers, pretrained=False, seed=0, deterministic=True, amp=False,
                fliplr=0.0, flipud=0.0, erasing=0.0, scale=0.1, hsv_h=0.01, hsv_s=0.4, hsv_v=0.3,
                plots=False, project=str(a.work.resolve()), name="run", exist_ok=True, verbose=False)
    took = time.perf_counter() - t0
    names = [model.names[i] for i in range(len(model.names))]
    assert names == [f"{k:02d}_{lab}" for k, lab in enumerate(LABELS)], names
    export(model.model.cpu(), a.imgsz, a.out)
    held = evaluate(a.out, a.heldout)
    metrics = {"trainer": f"ultralytics {a.yaml} (train/train_pool_yolo.py)",
               "train_crops": int(len(d["y"])), "epochs": a.epochs, "imgsz": a.imgsz,
               "params": int(sum(p.numel() for p in model.model.parameters())), "train_s": round(took),
               "machine": (f"{platform.machine()}, torch threads 1" if a.device == "cpu"
                           else f"{platform.machine()}, {torch.cuda.get_device_name()}"), "onnx_bytes": a.out.stat().st_size,
               "heldout": held}
    write_pool_metrics(metrics, a.metrics)


if __name__ == "__main__":
    main()
