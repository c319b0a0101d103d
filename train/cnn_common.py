"""What our own CNN trainers share (``train_ball_classifier.py`` for snooker,
``train_pool_classifier.py`` for pool): the conv block, crops to tensors, class-balanced
sampling and the training loop (AdamW with a one-cycle learning rate), and the metrics file both
pool trainers write. Needs the ``train`` extra (torch).

Each trainer keeps its own network shape, augmentation and evaluation; the random streams are
handed in by the caller, so a trainer draws them in the order it always did.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from torch import nn


def conv_block(a: int, b: int) -> list[nn.Module]:
    """A 3 x 3 convolution from ``a`` to ``b`` channels, batch norm, ReLU (size kept)."""
    return [nn.Conv2d(a, b, 3, padding=1, bias=False), nn.BatchNorm2d(b), nn.ReLU(inplace=True)]


def to_tensor(x: np.ndarray) -> torch.Tensor:
    """Crops (N, S, S, 3) uint8 -> (N, 3, S, S) float 0..1, channels in the crops' order."""
    return torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2))).float().div_(255.0)


def balanced_weights(y: np.ndarray, labels: tuple[str, ...], none_share: float = 2.0) -> np.ndarray:
    """Sampling probability per crop: 1 / its class's count, "none" ``none_share`` times that;
    sums to 1. ``y`` (N,) label indices into ``labels``."""
    counts = np.bincount(y, minlength=len(labels)).astype(float)
    share = np.ones(len(labels))
    share[labels.index("none")] = none_share
    w = share[y] / np.maximum(counts[y], 1)
    return w / w.sum()


def fit(net: nn.Module, xt: np.ndarray, yt: np.ndarray, labels: tuple[str, ...], *, epochs: int,
        batch: int, rng: np.random.Generator, g: torch.Generator,
        augment: Callable[[torch.Tensor, torch.Generator], torch.Tensor],
        epoch_note: Callable[[], dict] | None = None, progress: bool = False,
        device: str = "cpu") -> None:
    """Train ``net`` in place on crops ``xt`` (N, S, S, 3) uint8 with labels ``yt`` (N,):
    ``epochs`` passes of class-balanced draws (``rng``) in batches of ``batch``, augmented with
    ``augment(x, g)``, AdamW (lr 3e-3, weight decay 1e-4) on a one-cycle schedule, cross-entropy
    with 0.05 label smoothing. After each epoch one JSON line: epoch, mean loss, seconds, and
    whatever ``epoch_note()`` adds. ``progress``: a bar per epoch. ``device``: where the network
    runs (``net`` is moved there; the draws and the augmentation stay on the CPU, so a GPU run
    sees the same batches as a CPU one)."""
    w = balanced_weights(yt, labels)
    net.to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = epochs * (len(yt) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=max(1, steps))
    lossf = nn.CrossEntropyLoss(label_smoothing=0.05)
    t0 = time.perf_counter()
    for ep in range(epochs):
        net.train()
        idx = rng.choice(len(yt), size=(len(yt) // batch) * batch, p=w)
        starts = range(0, len(idx), batch)
        if progress:
            from tqdm import tqdm

            starts = tqdm(starts, desc=f"epoch {ep + 1}/{epochs}", unit="batch", leave=False)
        total = 0.0
        for i in starts:
            b = idx[i:i + batch]
            xb, yb = augment(to_tensor(xt[b]), g).to(device), torch.from_numpy(yt[b]).to(device)
            loss = lossf(net(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(b)
        line = {"epoch": ep + 1, "loss": round(total / max(1, len(idx)), 4)}
        line.update(epoch_note() if epoch_note else {})
        line["s"] = round(time.perf_counter() - t0)
        print(json.dumps(line), flush=True)


def write_pool_metrics(metrics: dict, path: Path) -> None:
    """Write a pool trainer's ``metrics`` (with a ``heldout`` part from
    ``pool_model_io.evaluate``) to ``path`` as JSON and print its summary lines."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(metrics, indent=1))
    held = metrics["heldout"]
    print(json.dumps({k: v for k, v in metrics.items() if k != "heldout"}))
    print(f"held-out accuracy {held['accuracy']:.4f}; groups {held['group_recall']}; "
          f"pairs {held['hard_pairs']}")
