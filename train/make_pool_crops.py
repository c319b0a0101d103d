"""Training data for the pool ball classifier: crops from the synthetic pool world
(:mod:`tracker.synth.pool_render`), labelled from its exact truth.

    python train/make_pool_crops.py --cameras 160 --frames 8 --seed 0 --out data/pool_crops.npz

Per random camera (overhead either way round, oblique from behind either end, or from a long
side; 1080p or 720p; lens distortion) on a random pool table (7, 8 or 9 ft) with a blue, green
or red cloth and random appearance (lamps, light colour, exposure, noise, blur, JPEG, a score
bar: the snooker crops' draw, ``make_ball_crops.training_style``), a few random layouts (the
eight-ball or nine-ball rack, opened a little or not; scatters, touching clusters, balls on the
cushions) are rendered with every ball at a random 3-D orientation, so a number shows or not and
a stripe shows its band, its white caps or both. Crops (:func:`tracker.perception.learned.crops`,
spanning 4 local ball radii) are cut as the snooker crops are (``make_ball_crops.frame_samples``):
at every visible ball's centre (jittered), at every candidate the colour detector proposes, and
"none" crops on the cloth, the cushions and rails, in the pockets, on players and half a ball off
a ball's centre.

Labels (:data:`LABELS`): ``cue``, ``1`` .. ``15``, ``none``. Nothing real is used: the real pool
pictures only validate (``bench/pool_classifier.py``). Same arguments, same data.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_ball_crops import (  # noqa: E402  (a sibling script, not a package)
    _separate,
    frame_samples,
    random_occluders,
    random_velocities,
    scatter,
    training_camera,
    training_style,
)
from pool_world import GlossyPoolRenderer, random_gloss, random_video_look, video_look  # noqa: E402

from calibration.camera import CameraModel  # noqa: E402
from calibration.profile import Calibration  # noqa: E402
from calibration.table import TableGeometry  # noqa: E402
from tracker.perception.detect import BallDetector  # noqa: E402
from tracker.synth.pool_render import (  # noqa: E402
    POOL_CLOTHS,
    POOL_RGB,
    PoolLook,
    PoolRenderer,
    random_orientation,
)

#: The pool classifier's answers, in the order of its outputs (the contract with
#: ``models/pool_classifier.onnx``).
LABELS = ("cue", *[str(i) for i in range(1, 16)], "none")
NONE = LABELS.index("none")
#: Crop side, px, and span, local ball radii.
CROP_SIZE, CROP_SPAN = 32, 4.0
POOL_IDS = ("white", *[str(i) for i in range(1, 16)])


def pool_label(ball: str) -> int:
    """Label index of a pool ball id (``white`` is ``cue``)."""
    return LABELS.index("cue" if ball == "white" else ball)


def pool_camera(rng: np.random.Generator, t: TableGeometry) -> tuple[CameraModel, str]:
    """A camera that sees the whole table: the snooker crops' overhead and end-on draw
    (:func:`make_ball_crops.training_camera`), or, one time in four, from behind a long side."""
    if rng.random() >= 0.25:
        return training_camera(rng, t)
    size = (1920, 1080) if rng.random() < 0.5 else (1280, 720)
    side = -1.0 if rng.random() < 0.5 else 1.0
    back, height = rng.uniform(1200, 3500), rng.uniform(1200, 3500)
    eye = (t.width / 2 + side * (t.width / 2 + back), t.length / 2 + rng.normal(0, 300), height)
    target = (t.width / 2 - side * rng.uniform(0, 0.15) * t.width, t.length / 2 + rng.normal(0, 80), 0.0)
    unit = CameraModel.look_at(eye, target, (0.0, 0.0, 1.0), size, 60.0)
    r = 150.0
    corners = np.array([[x, y, 0.0] for x in (-r, t.width + r) for y in (-r, t.length + r)])
    cam = corners @ unit.R.T + unit.t
    xn, yn = cam[:, 0] / cam[:, 2], cam[:, 1] / cam[:, 2]
    half = rng.uniform(1.02, 1.2) * max(np.abs(xn).max(), np.abs(yn).max() * size[0] / size[1])
    hfov = 2 * math.degrees(math.atan(half))
    return CameraModel.look_at(eye, target, (0.0, 0.0, 1.0), size, hfov,
                               (rng.uniform(-0.06, 0.0), 0, 0, 0, 0)), "side"


def pool_look(rng: np.random.Generator) -> PoolLook:
    """Random paint: colours a little off the stock ones (another maker's set, the light),
    band and circle sizes, and a plain or spotted cue ball."""
    colours = {k: tuple(float(c) for c in np.clip(np.array(v) * np.exp(rng.normal(0, 0.08, 3)), 0, 1))
               for k, v in POOL_RGB.items()}
    return PoolLook(stripe_half_width=float(rng.uniform(0.42, 0.56)),
                    circle_radius=float(rng.uniform(0.3, 0.42)),
                    digit_height=float(rng.uniform(0.5, 0.7)),
                    cue_dots=int(rng.choice([0, 0, 0, 4, 6])), colours=colours)


def pool_cloth(rng: np.random.Generator) -> tuple[float, float, float]:
    """A blue (light or dark), green or red cloth (RGB 0..1), its shade a little varied."""
    name = ("tournament_blue", "tournament_blue", "blue", "green", "red")[int(rng.integers(5))]
    rgb = np.array(POOL_CLOTHS[name]) * np.exp(rng.normal(0, 0.12, 3))
    return tuple(float(c) for c in np.clip(rgb, 0, 1))


def random_pool_layout(rng: np.random.Generator, t: TableGeometry) -> dict[str, tuple[float, float]]:
    """Ball id -> (x, y) mm: an eight-ball or nine-ball rack (opened a little or not) with the
    cue ball behind the head string, or a random subset of the 16 balls scattered, in touching
    clusters and along the cushions."""
    from tracker.rules.registry import get_ruleset

    if rng.random() < 0.25:
        game = "eight-ball" if rng.random() < 0.6 else "nine-ball"
        pos = dict(get_ruleset(game, table=t).setup_positions())
        if rng.random() < 0.6:
            pos = {b: (x + rng.normal(0, 8), y + rng.normal(0, 8)) for b, (x, y) in pos.items()
                   if rng.random() > 0.15}
            pos = _separate(pos, t)
        pos["white"] = (t.centre_x + rng.uniform(-300, 300), t.head_string - rng.uniform(0, 300))
        return pos
    ids = [b for b in POOL_IDS if rng.random() < 0.7]
    rng.shuffle(ids)
    return scatter(rng, ids, t, on_spot=0.0, touching=0.4, cushion=0.55)


def _camera_crops(rng: np.random.Generator, c: int, frames: int, seed: int, harder: bool
                  ) -> tuple[list[np.ndarray], list[int], list[int], list[int]]:
    """One random camera's crops: (crop batches, labels, sources, camera kinds), all drawn from
    ``rng``; ``harder``: glossy balls and the video's look (:mod:`pool_world`)."""
    table = TableGeometry.pool(int(rng.choice([7, 8, 9])))
    cam, kind = pool_camera(rng, table)
    style = dataclasses.replace(training_style(rng, seed * 100003 + c), cloth_rgb=pool_cloth(rng))
    look = pool_look(rng)
    if harder:
        renderer = GlossyPoolRenderer(cam, table, style, look, gloss=random_gloss(rng))
        video = random_video_look(rng)
    else:
        renderer, video = PoolRenderer(cam, table, style, look), None
    cal = Calibration(cam.image_size, table, cam, {"median": 0.0, "max": 0.0, "n": 0}, "synthetic")
    det = BallDetector(cal)
    batches, labels, srcs = [], [], []
    for f in range(frames):
        balls = random_pool_layout(rng, table)
        occ, heights, _ = random_occluders(rng, balls, table)
        vel = random_velocities(rng, balls)
        orient = {b: random_orientation(rng) for b in balls}
        img = renderer.render(balls, vel, occ, noise_index=f, heights=heights, orientations=orient)
        if video is not None:
            img = video_look(img, video)
        if f == 0:
            det.learn_cloth(img)
        b, lab, src = frame_samples(rng, img, det, cam, renderer, balls, heights, occ, vel,
                                    labeller=pool_label, none=NONE, size=CROP_SIZE)
        batches += b
        labels += lab
        srcs += src
    return batches, labels, srcs, [("overhead", "oblique", "side").index(kind)] * len(labels)


def _harder_camera(args: tuple[int, int, int, float]
                   ) -> tuple[list[np.ndarray], list[int], list[int], list[int]]:
    """:func:`_camera_crops` of the harder world's camera ``c`` (args: c, frames, seed, share),
    from its own stream (``seed``, ``c``): the same crops in any process, in any order. The
    camera is drawn harder with probability ``share`` (1: every camera; the draw is made only
    when ``share`` < 1, so a share of 1 keeps the streams of the all-harder world)."""
    c, frames, seed, share = args
    rng = np.random.default_rng([seed, c])
    harder = share >= 1 or rng.random() < share
    return _camera_crops(rng, c, frames, seed, harder)


def generate(cameras: int, frames: int, seed: int, world: str = "harder", jobs: int = 1,
             harder_share: float = 1.0) -> dict[str, np.ndarray]:
    """Crops (N, 32, 32, 3) uint8 BGR, labels, sources (0 true centre, 1 candidate, 2 random
    none), camera kinds (0 overhead, 1 oblique end-on, 2 side) and camera numbers for
    ``cameras`` random cameras x ``frames`` layouts each.

    ``world``: ``harder`` (glossy balls mirroring the cloth, the video's look:
    ``train/pool_world.py``; each camera from a stream of its own, so ``jobs`` processes make the
    same crops as one; ``harder_share``: the share of its cameras made harder, the others
    plain renders) or ``plain`` (the renders as they come, one stream through all cameras:
    the crops made before the harder world, byte for byte; one process)."""
    from tqdm import tqdm

    if world == "harder":
        todo = [(c, frames, seed, harder_share) for c in range(cameras)]
        if jobs > 1:
            from multiprocessing import get_context

            with get_context("fork").Pool(jobs) as pool:
                per_cam = list(tqdm(pool.imap(_harder_camera, todo), total=cameras, desc="cameras"))
        else:
            per_cam = [_harder_camera(t) for t in tqdm(todo, desc="cameras", unit="camera")]
    else:
        rng = np.random.default_rng(seed)
        per_cam = [_camera_crops(rng, c, frames, seed, False)
                   for c in tqdm(range(cameras), desc="cameras", unit="camera")]
    batches = [b for cam in per_cam for b in cam[0]]
    x = np.concatenate(batches) if batches else np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8)
    return {"x": x, "y": np.array([v for cam in per_cam for v in cam[1]], np.int8),
            "source": np.array([v for cam in per_cam for v in cam[2]], np.int8),
            "kind": np.array([v for cam in per_cam for v in cam[3]], np.int8),
            "camera": np.array([c for c, cam in enumerate(per_cam) for _ in cam[1]], np.int32)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cameras", type=int, default=160)
    ap.add_argument("--frames", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("data/pool_crops.npz"))
    ap.add_argument("--world", choices=("harder", "plain"), default="harder",
                    help="harder: glossy balls and the video's look (train/pool_world.py); "
                         "plain: the renders as they come")
    ap.add_argument("--jobs", type=int, default=1,
                    help="processes for the harder world (the same crops for any number)")
    ap.add_argument("--harder-share", type=float, default=1.0,
                    help="share of the harder world's cameras made harder (the rest plain)")
    a = ap.parse_args()
    t0 = time.perf_counter()
    data = generate(a.cameras, a.frames, a.seed, a.world, a.jobs, a.harder_share)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(a.out, **data)
    counts = np.bincount(data["y"], minlength=len(LABELS))
    print(f"{len(data['y'])} crops in {time.perf_counter() - t0:.0f} s -> {a.out}; per label: "
          + ", ".join(f"{n} {k}" for n, k in zip(LABELS, counts, strict=True)))


if __name__ == "__main__":
    main()
