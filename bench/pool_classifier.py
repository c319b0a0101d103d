"""The pool ball classifier on real pictures: the labelled boxes of the albertomors eight-ball
frames (``../shared/footage/pool/albertomors-8ball/*/frame_{first,last}.png``; classes 1 cue
ball, 2 eight ball, 3 solid, 4 stripe). Nothing is trained on these pictures; the development
clips' boxes decide whether a new model replaces the committed one, the test clips' are only
reported (docs/SPLIT.md).

    python bench/pool_classifier.py [--model models/pool_classifier.onnx] [--also OTHER.onnx ...]
                                    [--heldout NPZ ...] [--write-doc]

A crop is cut at each box's centre, spanning the model's ``crop_span_radii`` ball radii, the
radius from the box (a quarter of its width plus height), as the pipeline cuts them
(:func:`tracker.perception.learned.crops`), and judged by the model through onnxruntime. Its 17
answers map to the four labelled classes (cue; 8; 1..7 solid; 9..15 stripe). Two readings:

- strict: the model's first answer, "not a ball" counting as a miss;
- given a ball: the best of the 16 ball answers (the box says a ball is there, as a detector's
  candidate would).

Recall and precision per class, over all 12 frames and per split of docs/SPLIT.md (3 clips
development, 3 test). ``--heldout``: synthetic held-out crop sets (``train/make_pool_crops.py``,
cameras never trained on) every model is also scored on, so models trained on different worlds
compare on the same crops (needs nothing but onnxruntime). ``--write-doc`` writes the section "Pool classifier (issue 33)" of
docs/ACCURACY.md with the synthetic held-out figures of the models' metrics files beside them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.runinfo import run_info  # noqa: E402
from tracker.evaluate import replace_section  # noqa: E402
from tracker.footage_split import split_of  # noqa: E402
from tracker.perception.learned import crops, to_input  # noqa: E402

FOOTAGE = ROOT.parent / "shared" / "footage"
CLIPS = FOOTAGE / "pool" / "albertomors-8ball"
GROUPS = ("cue", "eight", "solid", "stripe")
#: the source's box classes -> our groups
BOX_CLASS = {1: "cue", 2: "eight", 3: "solid", 4: "stripe"}


def group_of(label: str) -> str:
    """cue / eight / solid / stripe / none of one of the model's labels."""
    if label in ("cue", "none"):
        return label
    n = int(label)
    return "eight" if n == 8 else "solid" if n < 8 else "stripe"


def labelled_boxes() -> list[dict]:
    """Every labelled box: ``{"image", "split", "px" (x, y), "radius", "truth"}``."""
    import cv2

    rows = []
    for clip in sorted(p for p in CLIPS.iterdir() if p.is_dir()):
        split = split_of(f"pool/albertomors-8ball/{clip.name}")
        for which in ("first", "last"):
            img = cv2.imread(str(clip / f"frame_{which}.png"))
            for line in (clip / f"frame_{which}_bbox.txt").read_text().split("\n"):
                if not line.strip():
                    continue
                x, y, w, h, c = (float(v) for v in line.split()[:5])
                rows.append({"image": img, "name": f"{clip.name}/{which}", "split": split,
                             "px": (x + w / 2 - 0.5, y + h / 2 - 0.5), "radius": (w + h) / 4,
                             "truth": BOX_CLASS[int(c)]})
    return rows


def judge(model: Path, rows: list[dict]) -> tuple[list[str], list[str]]:
    """The model's group per box: (strict, given a ball)."""
    import onnxruntime as ort

    s = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    meta = s.get_modelmeta().custom_metadata_map
    size, span, labels = int(meta["crop_size"]), float(meta["crop_span_radii"]), json.loads(meta["labels"])
    strict, given = [], []
    for r in rows:
        x = to_input(crops(r["image"], np.array([r["px"]]), np.array([r["radius"]]), size, span))
        logits = s.run(["logits"], {"crops": x})[0][0]
        strict.append(group_of(labels[int(np.argmax(logits))]))
        ball = [i for i, lab in enumerate(labels) if lab != "none"]
        given.append(group_of(labels[ball[int(np.argmax(logits[ball]))]]))
    return strict, given


def recall_precision(truth: list[str], pred: list[str]) -> dict:
    """Per group: n, recall, precision (None where nothing was answered so)."""
    t, p = np.array(truth), np.array(pred)
    out = {}
    for g in GROUPS:
        n, said = int((t == g).sum()), int((p == g).sum())
        hit = int(((t == g) & (p == g)).sum())
        out[g] = {"n": n, "recall": round(hit / n, 3) if n else None,
                  "precision": round(hit / said, 3) if said else None, "hits": hit, "said": said}
    out["accuracy"] = round(float((t == p).mean()), 3)
    return out


def measure(model: Path, rows: list[dict]) -> dict:
    """Strict and given-a-ball figures of ``model`` over all boxes and per split."""
    strict, given = judge(model, rows)
    truth = [r["truth"] for r in rows]
    out = {}
    for name, pred in (("strict", strict), ("given_ball", given)):
        out[name] = {"all": recall_precision(truth, pred)}
        for split in ("dev", "test"):
            k = [i for i, r in enumerate(rows) if r["split"] == split]
            out[name][split] = recall_precision([truth[i] for i in k], [pred[i] for i in k])
    return out


def heldout_scores(model: Path, data: Path) -> dict:
    """The model's scores on a synthetic held-out crop set (``train/pool_model_io.scores``)."""
    sys.path.insert(0, str(ROOT / "train"))
    from pool_model_io import evaluate

    return evaluate(model, data)


def heldout_line(name: str, h: dict) -> str:
    """One line of a model's figures on held-out set ``name``."""
    return (f"`{name}` ({h['n']} crops): {100 * h['accuracy']:.1f} % right, balls alone "
            f"{100 * h['balls_only_accuracy']:.1f} %; cue / eight / solid / stripe / none "
            + " / ".join(f"{100 * v:.1f} %" for v in h["group_recall"].values()))


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.0f} %"


def doc_section(results: dict[str, dict], info: dict) -> str:
    """The ACCURACY.md section: the real boxes per model, then each model's synthetic held-out
    figures from its metrics file."""
    lines = ["## Pool classifier (issue 33)", "",
             f"Measured {info['date']}, commit {info['commit']}, {info['machine']}: "
             f"`{info['command']}` ({info.get('seconds', 0)} s). Real pictures: the 12 labelled "
             "frames of `../shared/footage/pool/albertomors-8ball` (6 clips, 3 development and 3 "
             "test), 139 boxes; nothing trained on them; the development clips' boxes decide whether a "
             "new model replaces the committed one, the test clips' are only reported. A crop at each box "
             "(radius from the box); \"strict\" takes the model's first answer (\"not a ball\" is "
             "a miss), \"given a ball\" the best of its 16 ball answers.", ""]
    for model, res in results.items():
        lines += [f"`{model}`:", "", "| reading | split | cue R / P | eight R / P | solid R / P | "
                  "stripe R / P | right |", "|---|---|---|---|---|---|---|"]
        for reading in ("strict", "given_ball"):
            for split in ("all", "dev", "test"):
                f = res[reading][split]
                cells = [f"{_fmt(f[g]['recall'])} / {_fmt(f[g]['precision'])} (n {f[g]['n']})" for g in GROUPS]
                lines.append(f"| {reading.replace('_', ' a ')} | {split} | " + " | ".join(cells)
                             + f" | {_fmt(f['accuracy'])} |")
        for name, h in res.get("heldout", {}).items():
            lines += ["", "Synthetic held-out " + heldout_line(name, h) + "."]
        beside = (ROOT / model).with_suffix(".metrics.json")
        metrics = beside if beside.is_file() else ROOT / "models" / (Path(model).stem + ".metrics.json")
        if metrics.is_file():
            m = json.loads(metrics.read_text())
            h = m["heldout"]
            pairs = ", ".join(f"{k} {v['swapped']} of {v['n']}" for k, v in h["hard_pairs"].items())
            lines += ["", f"Synthetic held-out cameras ({h['n']} crops, other cameras than "
                      f"training's): {100 * h['accuracy']:.1f} % right, balls alone "
                      f"{100 * h['balls_only_accuracy']:.1f} %; cue / eight / solid / stripe / none "
                      + " / ".join(f"{100 * v:.1f} %" for v in h["group_recall"].values())
                      + "; by camera " + ", ".join(f"{k} {100 * v:.1f} %" for k, v in
                                                    h.get("accuracy_by_camera", {}).items())
                      + f"; hard pairs swapped: {pairs}. Trainer {m['trainer']}, "
                      f"{m['train_crops']} crops, {m['epochs']} epochs, {m['train_s']} s."]
        lines.append("")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", type=Path, default=ROOT / "models" / "pool_classifier.onnx")
    ap.add_argument("--also", type=Path, nargs="*", default=[], help="other models to compare")
    ap.add_argument("--heldout", type=Path, nargs="*", default=[],
                    help="synthetic held-out crop sets (npz of train/make_pool_crops.py) to score on")
    ap.add_argument("--write-doc", action="store_true")
    a = ap.parse_args()
    if not CLIPS.is_dir():
        print(f"no pool footage at {CLIPS}: nothing to measure", file=sys.stderr)
        return 1
    for m in [a.model, *a.also]:
        if not m.is_file():
            print(f"no model at {m}: train it (train/train_pool_classifier.py) or name another",
                  file=sys.stderr)
            return 1
    for h in a.heldout:
        if not h.is_file():
            print(f"no held-out crops at {h}: make them (train/make_pool_crops.py) or name others",
                  file=sys.stderr)
            return 1
    t0 = time.perf_counter()
    rows = labelled_boxes()
    results = {}
    for m in [a.model, *a.also]:
        name = str(m.resolve().relative_to(ROOT)) if m.resolve().is_relative_to(ROOT) else str(m)
        results[name] = measure(m, rows)
        for reading in ("strict", "given_ball"):
            f = results[name][reading]["all"]
            print(f"{name} {reading}: " + ", ".join(
                f"{g} R {_fmt(f[g]['recall'])} P {_fmt(f[g]['precision'])}" for g in GROUPS)
                + f"; right {_fmt(f['accuracy'])}")
        results[name]["heldout"] = {str(h): heldout_scores(m, h) for h in a.heldout}
        for h, sc in results[name]["heldout"].items():
            print(f"{name} held-out " + heldout_line(h, sc))
    cmd = ("python bench/pool_classifier.py" + (" --also " + " ".join(str(p) for p in a.also) if a.also else "")
           + (" --heldout " + " ".join(str(p) for p in a.heldout) if a.heldout else "") + " --write-doc")
    if a.write_doc:
        info = run_info(cmd, time.perf_counter() - t0)
        replace_section(ROOT / "docs" / "ACCURACY.md", "Pool classifier (issue 33)",
                        doc_section(results, info))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
