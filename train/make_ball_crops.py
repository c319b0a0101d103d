"""Training data for the learned ball classifier: crops from the synthetic world, rendered with
wide randomisation, labelled from its exact truth.

    python train/make_ball_crops.py --cameras 200 --frames 12 --seed 0 --out data/ball_crops.npz

Per random camera (overhead to TV main camera, either end, heights, focal lengths, lens
distortion, 1080p or 720p) and random appearance (:class:`tracker.synth.render.RenderStyle`:
lamp layouts, colour temperature, exposure, cloth shades, noise, blur, JPEG compression, a score
bar), a dozen random layouts (racks, scatters, clusters of touching balls, balls against the
cushions and in the jaws, balls moving with motion blur, a ball lifted by a hand, players with
cues and sleeves of any colour) are rendered, and crops are cut (:func:`tracker.perception.
learned.crops`, scaled by the local ball radius) at:

- every visible ball's true centre, jittered (label: its colour);
- every candidate the colour detector proposes (label: the colour of the true ball within
  0.45 radii, "none" when no ball is within a radius; in between: left out);
- random places on the table, on the players, hands and cues, in the pockets, and half a ball
  off a ball's centre ("none").

Nothing real is used: real footage only validates (bench/real_footage.py, bench/learned.py).
Same arguments, same data.
"""

from __future__ import annotations

import argparse
import logging
import math
import time
from pathlib import Path

import cv2
import numpy as np

from calibration.camera import CameraModel
from calibration.profile import Calibration
from calibration.table import STANDARD_TABLE, TableGeometry
from tracker.perception.detect import CLASSES, BallDetector
from tracker.perception.learned import CLASSIFIER, crops
from tracker.synth.render import Occluder, Renderer, RenderStyle
from tracker.synth.video import visible_fraction
from tracker.synth.world import hand_occluder, player_occluders

log = logging.getLogger("make_ball_crops")
LABELS = CLASSIFIER.labels
NONE = LABELS.index("none")
BALL_IDS = ["white", *[f"red_{i:02d}" for i in range(1, 16)], "yellow", "green", "brown", "blue",
            "pink", "black"]
#: A candidate within this many radii of a true centre is that ball; beyond NEG_RADII of every
#: ball, none (so the classifier answers "ball" only near a centre: a point half a ball off a
#: ball is none, which lets the blob search put candidates densely in a pack).
POS_RADII, NEG_RADII = 0.45, 0.6
#: Visible share above which a ball counts as seen, below which as hidden (between: left out).
SEEN, HIDDEN = 0.55, 0.2


def label_of(ball: str) -> int:
    """Class index of a ball id."""
    return CLASSES.index("red" if ball.startswith("red") else ball)


# ---------------------------------------------------------------------------- cameras
def training_camera(rng: np.random.Generator, t: TableGeometry) -> tuple[CameraModel, str]:
    """A camera that sees the whole table: overhead (a hall camera, either way round) or
    oblique from behind either end (a TV main camera and lower or higher ones). The committed
    model's training draw: not the harder world's ``tracker.synth.randomise.random_camera``
    (another distribution, for evaluation); kept so the model can be re-made."""
    size = (1920, 1080) if rng.random() < 0.5 else (1280, 720)
    if rng.random() < 0.3:
        h = rng.uniform(2500, 3800)
        eye = (t.width / 2 + rng.normal(0, 60), t.length / 2 + rng.normal(0, 80), h)
        target = (t.width / 2 + rng.normal(0, 30), t.length / 2 + rng.normal(0, 40), 0.0)
        up = (-1.0, rng.normal(0, 0.03), 0.0) if rng.random() < 0.5 else (1.0, rng.normal(0, 0.03), 0.0)
        kind, margin = "overhead", rng.uniform(1.03, 1.25)
        dist = (rng.uniform(-0.12, 0.0), 0.02, 0, 0, 0)
    else:
        far = rng.random() < 0.7  # behind the black-spot end (the usual TV side) or baulk
        back, height = rng.uniform(1800, 4800), rng.uniform(1400, 4200)
        y_eye = t.length + back if far else -back
        y_tgt = t.length * rng.uniform(0.4, 0.65)
        y_tgt = y_tgt if far else t.length - y_tgt
        eye = (t.width / 2 + rng.normal(0, 250), y_eye, height)
        target = (t.width / 2 + rng.normal(0, 60), y_tgt, 0.0)
        up, kind, margin = (0.0, 0.0, 1.0), "oblique", rng.uniform(1.02, 1.2)
        dist = (rng.uniform(-0.06, 0.0), 0, 0, 0, 0)
    # the focal length that frames the table and its rails with the margin
    unit = CameraModel.look_at(eye, target, up, size, 60.0)
    r = 150.0
    corners = np.array([[x, y, 0.0] for x in (-r, t.width + r) for y in (-r, t.length + r)])
    cam = corners @ unit.R.T + unit.t
    xn, yn = cam[:, 0] / cam[:, 2], cam[:, 1] / cam[:, 2]
    half = margin * max(np.abs(xn).max(), np.abs(yn).max() * size[0] / size[1])
    hfov = 2 * math.degrees(math.atan(half))
    return CameraModel.look_at(eye, target, up, size, hfov, dist), kind


def training_style(rng: np.random.Generator, seed: int) -> RenderStyle:
    """Random appearance: lamps, light colour, exposure, cloth, noise, blur, compression. The
    committed model's training draw, as :func:`training_camera` is (not
    ``tracker.synth.randomise.random_style``)."""
    layout = rng.integers(4)
    if layout == 0:  # the stock pair of lamps along the table
        lamps = ((0.5, 0.3, 1100.0), (0.5, 0.7, 1100.0))
    elif layout == 1:  # a broadcast canopy: a grid of lamps
        z = rng.uniform(900, 1600)
        lamps = tuple((fx, fy, z) for fx in (0.25, 0.75) for fy in (0.15, 0.38, 0.62, 0.85))
    elif layout == 2:  # three lamps along
        z = rng.uniform(800, 1400)
        lamps = tuple((0.5, fy, z) for fy in (0.2, 0.5, 0.8))
    else:  # one lamp, off centre (a home table)
        lamps = ((rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7), rng.uniform(900, 2000)),)
    n = len(lamps)
    hue = rng.random()
    cloth = ((rng.uniform(0.03, 0.16), rng.uniform(0.38, 0.66), rng.uniform(0.04, 0.22)) if hue < 0.8
             else (rng.uniform(0.03, 0.1), rng.uniform(0.3, 0.5), rng.uniform(0.3, 0.6)))
    return RenderStyle(
        noise_sigma=float(rng.uniform(1.0, 5.0)), light_unevenness=float(rng.uniform(0.05, 0.45)),
        vignetting=float(rng.uniform(0.0, 0.4)), exposure_s=float(rng.uniform(0.004, 0.02)),
        seed=seed, chalk_marks=int(rng.integers(0, 6)),
        projected_rings=int(rng.integers(1, 6)) if rng.random() < 0.1 else 0,
        lamps=lamps, ambient=float(rng.uniform(0.18, 0.5)),
        lamp_strength=float(rng.uniform(0.7, 1.3) * 1.1 / n ** 0.5),
        lamp_spread_mm=float(rng.uniform(900, 2600)), cloth_rgb=cloth,
        colour_temperature_k=float(rng.uniform(3200, 9000)) if rng.random() < 0.7 else 0.0,
        exposure=float(rng.uniform(0.75, 1.3)),
        blur_sigma=float(rng.uniform(0.3, 1.3)) if rng.random() < 0.4 else 0.0,
        jpeg_quality=int(rng.integers(30, 92)) if rng.random() < 0.6 else 0,
        score_bar=bool(rng.random() < 0.3))


# ---------------------------------------------------------------------------- layouts
def _free(p: np.ndarray, placed: list[np.ndarray], t: TableGeometry, gap: float = 0.5) -> bool:
    r = t.ball_radius
    if not (r <= p[0] <= t.width - r and r <= p[1] <= t.length - r):
        return False
    return all(np.hypot(*(p - q)) >= 2 * r + gap for q in placed)


def _separate(pos: dict[str, tuple[float, float]], t: TableGeometry) -> dict[str, tuple[float, float]]:
    """Push apart balls that overlap (after a nudge), a few rounds."""
    ids = list(pos)
    p = np.array([pos[b] for b in ids], float)
    for _ in range(20):
        d = p[:, None, :] - p[None, :, :]
        dist = np.linalg.norm(d, axis=2) + np.eye(len(p)) * 1e9
        over = np.maximum(0, 2 * t.ball_radius + 0.2 - dist)
        if not over.any():
            break
        p += (d / np.maximum(dist, 1e-6)[..., None] * over[..., None] / 2).sum(1)
    return {b: (float(x), float(y)) for b, (x, y) in zip(ids, p, strict=True)}


def random_layout(rng: np.random.Generator, t: TableGeometry) -> dict[str, tuple[float, float]]:
    """Ball id -> (x, y) mm: a random subset of the balls, scattered, in touching clusters, along
    the cushions, on their spots, or the standard rack."""
    from tracker.rules.registry import get_ruleset

    if rng.random() < 0.25:
        pos = dict(get_ruleset("snooker", table=t).setup_positions())
        if rng.random() < 0.6:  # a pack opened a little: reds nudged, some gone
            for b in [b for b in pos if b.startswith("red")]:
                if rng.random() < 0.2:
                    del pos[b]
                else:
                    x, y = pos[b]
                    pos[b] = (x + rng.normal(0, 6), y + rng.normal(0, 6))
            pos = _separate(pos, t)
        if rng.random() < 0.5:
            pos["white"] = (t.centre_x + rng.uniform(-250, 250), t.baulk_line - rng.uniform(0, 250))
        return pos
    n_red = int(rng.integers(0, 16))
    ids = [b for b in BALL_IDS if not b.startswith("red") and rng.random() < 0.8]
    ids += [f"red_{i:02d}" for i in range(1, n_red + 1)]
    rng.shuffle(ids)
    return scatter(rng, ids, t, on_spot=0.3, touching=0.65, cushion=0.8)


def scatter(rng: np.random.Generator, ids: list[str], t: TableGeometry, on_spot: float,
            touching: float, cushion: float) -> dict[str, tuple[float, float]]:
    """Ball id -> (x, y) mm for ``ids`` in turn: one random draw u per ball puts it on its spot
    (u < ``on_spot``, a ball with a spot), touching a ball already placed (u < ``touching``),
    against a cushion or in the jaws (u < ``cushion``), else anywhere free; a ball with no free
    place after 30 tries is left out. The thresholds are cumulative shares."""
    r = t.ball_radius
    placed: list[np.ndarray] = []
    out = {}
    for b in ids:
        p = None
        mode = rng.random()
        if b in t.spots and mode < on_spot:
            p = np.array(t.spots[b], float) + rng.normal(0, 3, 2)
        elif placed and mode < touching:  # touching another ball (clusters, rows)
            q = placed[int(rng.integers(len(placed)))]
            a = rng.uniform(0, 2 * np.pi)
            p = q + (2 * r + rng.uniform(0.2, 3.0)) * np.array([np.cos(a), np.sin(a)])
        elif mode < cushion:  # against a cushion or in the jaws
            side = rng.integers(4)
            along = rng.uniform(r, (t.length if side < 2 else t.width) - r)
            gap = r + rng.uniform(0.1, 8.0)
            p = np.array([[gap, along], [t.width - gap, along], [along, gap], [along, t.length - gap]][side])
        if p is None or not _free(p, placed, t):
            for _ in range(30):
                p = np.array([rng.uniform(r, t.width - r), rng.uniform(r, t.length - r)])
                if _free(p, placed, t):
                    break
            else:
                continue
        placed.append(p)
        out[b] = (float(p[0]), float(p[1]))
    return out


def random_occluders(rng: np.random.Generator, balls: dict, t: TableGeometry) -> tuple[list[Occluder], dict, str | None]:
    """Players (body, sleeve, hand, cue of random colours) and a hand lifting a ball:
    (occluders, heights, the lifted ball)."""
    occ: list[Occluder] = []
    heights: dict[str, float] = {}
    lifted = None
    if balls and rng.random() < 0.45:
        aim = balls.get("white") or list(balls.values())[int(rng.integers(len(balls)))]
        parts = player_occluders(aim, float(rng.uniform(0, 360)), t)
        sleeve = tuple(int(v) for v in (rng.integers(0, 60, 3) if rng.random() < 0.6 else rng.integers(0, 256, 3)))
        skin = tuple(int(v) for v in rng.integers(60, 210) * np.array([0.75, 0.9, 1.0]) + rng.integers(-15, 15, 3))
        colours = [sleeve, sleeve, skin, tuple(int(v) for v in rng.integers(20, 200, 3))]
        occ += [Occluder(p.points, c) for p, c in zip(parts, colours, strict=True)]
    if balls and rng.random() < 0.15:
        lifted = list(balls)[int(rng.integers(len(balls)))]
        z = float(rng.uniform(t.ball_radius, 110))
        heights[lifted] = z
        h = hand_occluder(balls[lifted], z, t)
        occ.append(Occluder(h.points, tuple(int(v) for v in rng.integers(80, 220, 3))))
    return occ, heights, lifted


def random_velocities(rng: np.random.Generator, balls: dict) -> dict:
    """A few balls moving (motion blur), mm/s."""
    vel = {}
    if balls and rng.random() < 0.35:
        for b in rng.choice(list(balls), size=min(len(balls), int(rng.integers(1, 4))), replace=False):
            a, s = rng.uniform(0, 2 * np.pi), rng.uniform(150, 4000)
            vel[str(b)] = (s * math.cos(a), s * math.sin(a))
    return vel


# ---------------------------------------------------------------------------- crops
def frame_samples(rng: np.random.Generator, img: np.ndarray, det: BallDetector, cam: CameraModel,
                  renderer: Renderer, balls: dict, heights: dict, occ: list[Occluder],
                  vel: dict, labeller=label_of, none: int = NONE, size: int | None = None,
                  ) -> tuple[list[np.ndarray], list[int], list[int]]:
    """Crops of one rendered frame: (crop batches, labels, sources: 0 true centre, 1 candidate,
    2 random none). ``labeller`` (ball id -> label index), ``none`` (the "not a ball" index)
    and ``size`` (crop side, px) are the snooker classifier's unless given (the pool crops,
    ``train/make_pool_crops.py``, give theirs)."""
    t = det.cal.table
    r = t.ball_radius
    mask = renderer.occluder_mask(occ) if occ else None
    ids = list(balls)
    centres = np.array([[*balls[b], heights.get(b, r)] for b in ids]) if ids else np.zeros((0, 3))
    true_px = cam.project(centres) if ids else np.zeros((0, 2))
    vis = np.array([visible_fraction(renderer, c, mask) for c in centres]) if ids else np.zeros(0)
    # a ball lifted high or blurred into a long streak is not a resting ball's picture: left out
    usable = np.array([heights.get(b, r) < r + 15 and math.hypot(*vel.get(b, (0, 0))) < 2500 for b in ids], bool)
    seen = (vis >= SEEN) & usable
    present = vis >= HIDDEN  # hidden balls do not make their place a ball
    pts, labels, srcs = [], [], []
    # true centres, jittered
    for i in np.nonzero(seen)[0]:
        rr = float(det.radius_at(true_px[i:i + 1])[0])
        for _ in range(1 if ids[i].startswith("red") else 2):
            pts.append(true_px[i] + rng.normal(0, 0.15 * rr, 2))
            labels.append(labeller(ids[i]))
            srcs.append(0)
    # the colour detector's candidates
    cand = det.candidates(img).px
    for p in cand:
        rr = float(det.radius_at(p[None])[0])
        d = np.linalg.norm(true_px - p, axis=1) / rr if ids else np.zeros(0)
        near = d[present] if ids else d
        j = int(np.argmin(d)) if len(d) else -1
        if len(d) and d[j] <= POS_RADII and seen[j]:
            pts.append(p)
            labels.append(labeller(ids[j]))
            srcs.append(1)
        elif not len(near) or near.min() > NEG_RADII:
            pts.append(p)
            labels.append(none)
            srcs.append(1)
    # random "none": the table, the occluders, the pockets, half a ball off a ball
    h, w = img.shape[:2]
    region = det.region.astype(bool)
    sy, sx = np.nonzero(region)
    extra = []
    extra += [np.array([sx[k], sy[k]], float) / det.scale for k in rng.integers(0, len(sx), 8)]
    if mask is not None:
        full = cv2.resize(det.region, (w, h), interpolation=cv2.INTER_NEAREST).astype(bool)
        oy, ox = np.nonzero(mask & full)
        if len(ox):
            extra += [np.array([ox[k], oy[k]], float) for k in rng.integers(0, len(ox), 6)]
    zy, zx = np.nonzero(det.pocket_zone.astype(bool))
    if len(zx):
        extra += [np.array([zx[k], zy[k]], float) / det.scale for k in rng.integers(0, len(zx), 3)]
    for i in rng.permutation(np.nonzero(seen)[0])[:5]:
        rr = float(det.radius_at(true_px[i:i + 1])[0])
        a = rng.uniform(0, 2 * np.pi)
        extra.append(true_px[i] + rng.uniform(0.65, 1.6) * rr * np.array([math.cos(a), math.sin(a)]))
    for p in extra:
        rr = float(det.radius_at(p[None])[0])
        near = np.linalg.norm(true_px[present] - p, axis=1) / rr if ids else np.zeros(0)
        if not len(near) or near.min() > NEG_RADII:
            pts.append(p)
            labels.append(none)
            srcs.append(2)
    if not pts:
        return [], [], []
    pts_a = np.array(pts)
    scale = np.exp(rng.normal(0, 0.08, len(pts_a)))  # the calibration's radius is not exact
    batch = crops(img, pts_a, det.radius_at(pts_a) * scale, size)
    return [batch], labels, srcs


def generate(cameras: int, frames: int, seed: int, table: TableGeometry = STANDARD_TABLE
             ) -> dict[str, np.ndarray]:
    """Crops, labels, sources and camera kinds for ``cameras`` random cameras x ``frames``
    layouts each (see the module docstring)."""
    from tqdm import tqdm

    rng = np.random.default_rng(seed)
    batches, labels, srcs, kinds, cams = [], [], [], [], []
    for c in tqdm(range(cameras), desc="cameras", unit="camera"):
        cam, kind = training_camera(rng, table)
        style = training_style(rng, seed * 100003 + c)
        renderer = Renderer(cam, table, style)
        cal = Calibration(cam.image_size, table, cam, {"median": 0.0, "max": 0.0, "n": 0}, "synthetic")
        det = BallDetector(cal)
        first = None
        for f in range(frames):
            balls = random_layout(rng, table)
            occ, heights, _ = random_occluders(rng, balls, table)
            vel = random_velocities(rng, balls)
            img = renderer.render(balls, vel, occ, noise_index=f, heights=heights)
            if first is None:
                first = img
                det.learn_cloth(img)
            b, lab, src = frame_samples(rng, img, det, cam, renderer, balls, heights, occ, vel)
            batches += b
            labels += lab
            srcs += src
            kinds += [kind == "oblique"] * len(lab)
            cams += [c] * len(lab)
    x = np.concatenate(batches) if batches else np.zeros((0, 24, 24, 3), np.uint8)
    return {"x": x, "y": np.array(labels, np.int8), "source": np.array(srcs, np.int8),
            "oblique": np.array(kinds, bool), "camera": np.array(cams, np.int32)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cameras", type=int, default=200)
    ap.add_argument("--frames", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("data/ball_crops.npz"))
    a = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    t0 = time.perf_counter()
    data = generate(a.cameras, a.frames, a.seed)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(a.out, **data)
    counts = np.bincount(data["y"], minlength=len(LABELS))
    print(f"{len(data['y'])} crops in {time.perf_counter() - t0:.0f} s -> {a.out}; per label: "
          + ", ".join(f"{n} {k}" for n, k in zip(LABELS, counts, strict=True)))


if __name__ == "__main__":
    main()
