"""A fingerprint of what the pipeline does, frame by frame: for a redesign that must not change
behaviour (issue 29), run it before and after and compare.

    flock /tmp/heavy.lock python bench/behaviour_hash.py --out /tmp/before.json [--quick]
    flock /tmp/heavy.lock python bench/behaviour_hash.py --out /tmp/after.json --against /tmp/before.json

Each clip goes through :func:`tracker.pipeline.process_video` as ``snooker-tracker process``
runs it (automatic calibration, detector ``auto``; the pool clips with their table's size), with
a listener that digests, per clip:

- ``detections``: every refereed frame's :class:`BallDetections` (every array, byte for byte);
- ``states``: every refereed frame's :class:`TableState` after tracking;
- ``decisions``: every record of the match log and the referee's calls on it;
- ``views``: the frame numbers and times and the view monitor's verdicts.

Clips: the sample videos under ``sample_videos/`` and every real clip under ``../shared/footage``
(broadcast clips, the "more" clips, the pool clips; the lab's still-table clip). ``--quick``
takes the samples and three real clips. ``--against`` prints the clips and parts that differ and
exits 1 when any does. Nothing is copied from the footage.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import process_real_clip  # noqa: E402
from tracker.footage_eval import footage  # noqa: E402
from tracker.pipeline import RunListener, VideoError  # noqa: E402

QUICK_REAL = ("broadcast-snooker/clips/1.mp4", "broadcast-snooker-more/overhead_morge_exp.mp4",
              "pool/albertomors-8ball/game1_clip1/game1_clip1.mp4")


def feed(h: Any, obj: Any) -> None:
    """Feed a canonical byte form of ``obj`` into the hash ``h`` (arrays byte for byte,
    dataclasses field by field, dicts in key order, sets sorted, callables by name only)."""
    if isinstance(obj, np.ndarray):
        h.update(f"nd{obj.dtype}{obj.shape}".encode())
        h.update(np.ascontiguousarray(obj).tobytes())
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        h.update(type(obj).__name__.encode())
        for f in dataclasses.fields(obj):
            h.update(f.name.encode())
            feed(h, getattr(obj, f.name))
    elif isinstance(obj, dict):
        h.update(b"{")
        for k in sorted(obj, key=repr):
            feed(h, k)
            feed(h, obj[k])
        h.update(b"}")
    elif isinstance(obj, (set, frozenset)):
        h.update(b"s")
        for v in sorted(obj, key=repr):
            feed(h, v)
    elif isinstance(obj, (list, tuple)):
        h.update(b"[")
        for v in obj:
            feed(h, v)
        h.update(b"]")
    elif callable(obj):
        h.update(b"callable")  # occupancy closures: their results show in the states
    elif isinstance(obj, (np.floating, np.integer, np.bool_)):
        h.update(repr(obj.item()).encode())
    else:
        h.update(repr(obj).encode())


class Digest(RunListener):
    """Digests the run's detections, states, records and calls as they come."""

    def __init__(self) -> None:
        self.h = {k: hashlib.sha256() for k in ("detections", "states", "decisions", "views")}
        self.counts = {"frames": 0, "refereed": 0, "records": 0}

    def on_frame(self, run: Any, view: Any) -> None:
        self.counts["frames"] += 1
        feed(self.h["views"], (view.frame.index, view.frame.t, view.status.state,
                                view.status.alignment))
        if view.detections is not None:
            self.counts["refereed"] += 1
            feed(self.h["detections"], view.detections)
        if view.state is not None:
            feed(self.h["states"], view.state)

    def on_record(self, run: Any, record: Any, decisions: list[dict[str, Any]]) -> None:
        self.counts["records"] += 1
        feed(self.h["decisions"], (record, decisions))

    def result(self) -> dict[str, Any]:
        return {**{k: v.hexdigest()[:16] for k, v in self.h.items()}, **self.counts}


def clips(quick: bool) -> list[tuple[str, Path, bool]]:
    """(name, path, pool table?) of every clip to run."""
    out = [(f"sample/{p.name}", p, False) for p in sorted((ROOT / "sample_videos").glob("*.mp4"))]
    root = footage()
    if root is None:
        print("../shared/footage not present: the sample videos only", file=sys.stderr)
        return out
    real = sorted(p for p in root.rglob("*.mp4"))
    for p in real:
        rel = str(p.relative_to(root))
        if quick and rel not in QUICK_REAL:
            continue
        out.append((rel, p, rel.startswith("pool/")))
    return out


def run_one(path: Path, pool: bool, tmp: Path) -> dict[str, Any]:
    """The digest of one clip through ``process`` (:func:`bench.common.process_real_clip`)."""
    d = Digest()
    try:
        process_real_clip(path, tmp, pool=pool, listeners=[d])
    except VideoError as exc:
        return {"error": str(exc)}
    return d.result()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="where to write the digests (JSON)")
    ap.add_argument("--against", help="digests of an earlier run to compare with")
    ap.add_argument("--quick", action="store_true", help="the samples and three real clips")
    ap.add_argument("--only", help="only the clips whose name holds this text")
    args = ap.parse_args(argv)
    got: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        todo = [c for c in clips(args.quick) if not args.only or args.only in c[0]]
        for k, (name, path, pool) in enumerate(todo):
            t0 = time.perf_counter()
            got[name] = run_one(path, pool, Path(tmp) / f"run{k}")
            print(f"{name}: {got[name]} ({time.perf_counter() - t0:.0f} s)", flush=True)
    Path(args.out).write_text(json.dumps(got, indent=1))
    if not args.against:
        return 0
    before = json.loads(Path(args.against).read_text())
    differ = [(n, k) for n, v in got.items() if n in before
              for k in v if before[n].get(k) != v[k]]
    for n, k in differ:
        print(f"DIFFERS {n} {k}: {before[n].get(k)} -> {got[n][k]}")
    print(f"{len(got)} clips, {len(differ)} parts differ" if differ else
          f"{len(got)} clips: every digest equal")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
