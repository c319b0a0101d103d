"""Where the overlay video's score bar goes with ``--overlay-bar auto`` on the broadcast clips
of the development split (docs/SPLIT.md; the test split is not looked at), and a picture per
clip to judge by eye whether the bar covers the broadcaster's graphic.

    .venv/bin/python bench/overlay_bar.py [--stills DIR]

For each clip: the pictures of its first ``BarParams.window_s`` seconds (what
``OverlayWriter`` holds before it decides), the lower and upper bands' share of still upright
edges (:func:`tracker.outputs.bar_place.still_edge_share`) and the place chosen. With
``--stills DIR``: DIR/bar_N.png, the clip's first picture with the score bar drawn where auto
put it, and DIR/sheet.png, all of them side by side (footage-derived pictures: keep them out
of the repository). The bundled samples (no graphic) are measured too. About 10 s.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.real_footage import clips_of  # noqa: E402
from tracker.outputs.bar_place import BarParams, free_band, still_edge_share  # noqa: E402
from tracker.outputs.overlay import OverlayPainter  # noqa: E402
from tracker.records.parse import read_log  # noqa: E402
from tracker.rules.match import Match  # noqa: E402

CLIPS = ROOT.parent / "shared" / "footage" / "broadcast-snooker" / "clips"
SAMPLES = ("overhead_frame", "overhead_miss", "overhead_free_ball", "broadcast_pots")


def first_window(path: Path, params: BarParams) -> list[np.ndarray]:
    """The pictures of the video's first ``params.window_s`` seconds (BGR)."""
    cap = cv2.VideoCapture(str(path))
    fps = cap.get(cv2.CAP_PROP_FPS) or 25.0
    out: list[np.ndarray] = []
    while len(out) <= int(params.window_s * fps):
        ok, img = cap.read()
        if not ok:
            break
        out.append(img)
    cap.release()
    return out


def with_bar(img: np.ndarray, place: str) -> np.ndarray:
    """The picture with a score bar (and a foul line) drawn at ``place``, as the overlay video
    draws them (no camera needed for the bar)."""
    painter = OverlayPainter(SimpleNamespace(table=SimpleNamespace(ball_radius=26.25)), 30.0,
                             place)
    match = Match()  # the frame sample's first two strokes: a foul is named beside the bar
    for _, rec in list(read_log(ROOT / "sample_videos" / "overhead_frame.log.jsonl"))[:3]:
        for d in match.feed(rec):
            painter.board.update(d)
    out = img.copy()
    painter._draw_score_bar(out)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stills", type=Path, help="write a picture per clip into this folder")
    args = ap.parse_args()
    params = BarParams()
    if not CLIPS.exists():
        print(f"{CLIPS} is not there: nothing to measure", file=sys.stderr)
        return 2
    rows, tiles = [], []
    named = [(f"clip {n}", CLIPS / f"{n}.mp4") for n in clips_of("dev")]
    named += [(f"sample {s}", ROOT / "sample_videos" / f"{s}.mp4") for s in SAMPLES]
    for name, path in named:
        imgs = first_window(path, params)
        pick = np.linspace(0, len(imgs) - 1, params.samples).round().astype(int)
        chosen = [imgs[i] for i in pick]
        low, high = (still_edge_share(chosen, w, params) for w in ("bottom", "top"))
        place = free_band(imgs, params)
        rows.append((name, low, high, place))
        print(f"{name:28s} lower band {low:.4f}  upper band {high:.4f}  -> {place}", flush=True)
        if args.stills and name.startswith("clip"):
            args.stills.mkdir(parents=True, exist_ok=True)
            pic = with_bar(imgs[0], place)
            cv2.imwrite(str(args.stills / f"bar_{path.stem}.png"), pic)
            tile = cv2.resize(pic, (640, 360))
            cv2.putText(tile, name, (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 1, (0, 255, 255), 2)
            tiles.append(tile)
    if tiles:
        while len(tiles) % 2:
            tiles.append(np.zeros_like(tiles[0]))
        sheet = np.vstack([np.hstack(tiles[i:i + 2]) for i in range(0, len(tiles), 2)])
        cv2.imwrite(str(args.stills / "sheet.png"), sheet)
    top = sum(1 for r in rows if r[0].startswith("clip") and r[3] == "top")
    print(f"development clips with the bar moved to the top: {top} of "
          f"{sum(1 for r in rows if r[0].startswith('clip'))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
