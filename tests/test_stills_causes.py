"""The general causes behind the real stills' misses (issue 13: broadcast stills counted per
colour, overhead lab stills found with the right colour), each shown on a synthetic or a
crafted picture; the real stills themselves (third-party, read in place from ``../shared``)
are checked last, skipped where that folder is absent.

- a dark patch wholly on the bed, cloth all round it, is a ball, not a pocket's hole (lab
  still 15: the black beside a corner pocket was masked as a fixture), but a thin sliver of
  the pocket or a cushion face is the pocket's (the 9-ball clip's near corner pocket; the
  synthetic overhead view's corner, where an arm joined such a strip and was split into balls);
- two highlights are two balls (broadcast still 26: a red of the pack standing under a radius
  below the one behind it on screen was merged with it);
- a circle split from a blob whose likeliest answer is "not a ball" is none (broadcast still
  4: a player's grey head over the table read as the brown);
- a ball the circle transform misses beside those it found in a blob of touching balls is the
  blob's ball-sized uncovered part (lab still 32: a dim brown touching a lit pink).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.profile import Calibration
from calibration.table import STANDARD_TABLE as T
from tracker.perception import candidates as C
from tracker.perception.candidates import Candidates
from tracker.perception.cloth import pocket_parts
from tracker.perception.detect import CLASSES, BallDetector
from tracker.perception.judge import distinct
from tracker.perception.learned_judge import LearnedJudge
from tracker.perception.params import DEFAULT
from tracker.perception.refine import refine_share
from tracker.synth.render import Renderer, RenderStyle


def _overhead() -> tuple[CameraModel, Calibration]:
    cam = CameraModel.overhead(T.length, T.width, image_size=(1280, 720))
    return cam, Calibration(cam.image_size, T, cam, {"median": 0.0, "max": 0.0, "n": 0}, "test")


# ---------------------------------------------------------------- pocket holes and balls


def _radius(r: float):
    return lambda p: np.full(len(p), r)


def test_dark_parts_that_open_off_the_bed_are_the_pocket_a_black_on_it_is_not():
    import cv2

    bed = np.zeros((60, 80), np.uint8)
    bed[10:, 10:] = 1
    holes = np.zeros_like(bed)
    cv2.circle(holes, (10, 10), 8, 1, -1)  # the hole, over the bed's corner
    cv2.circle(holes, (40, 35), 6, 1, -1)  # a black ball on the bed, cloth all round it
    out = pocket_parts(holes, bed, holes, _radius(8.0))
    assert out[10, 10] == 1 and out[14, 14] == 1  # the hole, its part on the bed too
    assert out[35, 40] == 0 and out[35, 45] == 0
    assert pocket_parts(np.zeros_like(bed), bed, holes, _radius(8.0)).sum() == 0


def test_a_dark_sliver_with_cloth_round_it_is_the_pocket_one_against_a_ball_is_not():
    """A patch no disc of FixtureParams.min_ball_core_radii ball radii fits in, with cloth round it, is
    the pocket's (a sliver of its hole seen past the jaws), even wholly on the bed; a
    ball-sized disc is not, nor a sliver against a ball (its shaded side, a contact shadow)
    more than FixtureParams.edge_reach_radii in from the bed's edge."""
    import cv2

    holes = np.zeros((60, 100), np.uint8)
    bed = np.zeros_like(holes)
    bed[2:, 2:] = 1  # everything here lies more than a radius in from the bed's edge
    cv2.ellipse(holes, (20, 20), (14, 14), 0, 0, 90, 1, 2)  # an arc 2 px thick
    cv2.circle(holes, (55, 40), 6, 1, -1)  # a black's dark part, radius 0.75 of a ball's
    cv2.ellipse(holes, (85, 30), (10, 10), 0, 90, 270, 1, 2)  # a crescent hugging a ball's side
    fg = holes.copy()
    cv2.circle(fg, (85, 30), 9, 1, -1)  # that ball's lit part
    r = 8.0
    out = pocket_parts(holes, bed, fg, _radius(r))
    assert out[20, 34] == 1 and out[34, 20] == 1 and out[:, :40].sum() == holes[:, :40].sum()
    assert out[40, 55] == 0 and out[30, 75] == 0 and out[:, 40:].sum() == 0
    # with nothing beside it, the crescent is a sliver too
    assert pocket_parts(holes, bed, holes, _radius(r))[30, 75] == 1
    # where the ball is seen larger (a camera's near end), the disc is a sliver too
    assert pocket_parts(holes, bed, fg, _radius(4 * r))[40, 55] == 1


def test_a_dark_cushion_face_the_bed_takes_in_is_the_pocket_even_beside_more_of_it():
    """The calibrated bed takes in a few px of a cushion's dark face: in a pocket's zone that
    strip is dark grey, thin, hugs the bed's edge and borders the rest of the face (non-cloth).
    It is the pocket's, however much non-cloth it borders (synthetic overhead, bench seed 7:
    left to the search, a player's arm reaching in over that corner joined it, was no longer
    seen to come from outside the table and was split into a pink, a brown and a second black
    over the real black, which was then called disturbed). The same strip a ball's width
    further in, against a ball, is that ball's shaded side."""
    r = 6.0
    bed = np.zeros((80, 80), np.uint8)
    bed[:, :60] = 1  # the bed's edge (a cushion) at x = 60
    holes = np.zeros_like(bed)
    holes[20:40, 56:60] = 1  # 4 px of dark face on the bed: 0.67 radii deep, 3.3 radii long
    fg = holes.copy()
    fg[10:70, 53:60] = 1  # the rest of the face the bed takes in: lighter, and past the zone
    other = fg.astype(bool) & ~holes.astype(bool)
    assert other[19:41, 55:61].sum() > 20  # (a third of the strip's outline and more)
    out = pocket_parts(holes, bed, fg, _radius(r))
    assert out[20:40, 56:60].all()
    # moved a ball's width in from the edge, against a ball's lit part: kept for the search
    holes2 = np.zeros_like(bed)
    holes2[20:40, 44:48] = 1
    fg2 = holes2.copy()
    fg2[20:40, 48:54] = 1
    assert pocket_parts(holes2, bed, fg2, _radius(r)).sum() == 0
    # and with no non-cloth beside it, a sliver that far in is the pocket's still
    assert pocket_parts(holes2, bed, holes2, _radius(r))[20:40, 44:48].all()


def _sliver_beside_the_corner(img: np.ndarray, cam: CameraModel, radius_mm: float) -> np.ndarray:
    """Mask (uint8 0/1) of a dark grey arc ``radius_mm`` from the bed's corner at (0, 0), 3 px
    thick, painted into ``img`` (in place): the inside of a pocket seen past its jaws where
    the calibrated bed takes the pocket in (the 9-ball clearance's near corner pocket)."""
    import cv2

    th = np.linspace(0.4, np.pi / 2 - 0.4, 40)  # clear of the cushions: wholly on the bed
    px = cam.project(np.c_[radius_mm * np.cos(th), radius_mm * np.sin(th), np.zeros(len(th))])
    m = np.zeros(img.shape[:2], np.uint8)
    cv2.polylines(m, [np.round(px).astype(np.int32)], False, 1, 3)
    img[m.astype(bool)] = (40, 40, 40)
    return m


def test_a_sliver_of_the_pocket_on_the_bed_is_masked_and_the_black_beside_it_found():
    """The synthetic overhead camera, a sliver of a corner pocket's hole wholly on the bed and
    a black on the bed in that pocket's zone: the sliver is fixture (main before this fix: left
    to be searched as balls; a ball rolling into the pocket joined it into one blob, split on
    the real 9-ball clip into the ball and a ghost that took its pot), the black is found."""
    cam, cal = _overhead()
    black = (95.0, 95.0)
    img = Renderer(cam, T, RenderStyle(seed=1)).render({"black": black, "white": (800.0, 1500.0),
                                                        "red_01": (300.0, 2000.0)})
    sliver = _sliver_beside_the_corner(img, cam, 45.0)
    det = BallDetector(cal, scale=1.0)  # (the working scale of the lab stills and the 9-ball clip)
    det.learn_cloth(img)
    det.learn_colours([img])
    small = cv2_resize_mask(sliver, det.small)
    on_bed = small.astype(bool) & det.bed.astype(bool) & det.pocket_zone.astype(bool)
    assert on_bed.sum() > 10  # the sliver is on the bed, in the pocket's zone
    assert det.static[on_bed].mean() > 0.9
    d = det.detect(img)
    p = cam.project(np.array([[*black, T.ball_radius]]))[0]
    j = int(np.argmin(np.linalg.norm(d.px - p, axis=1)))
    assert np.linalg.norm(d.px[j] - p) < 0.6 * d.radius_px[j] and CLASSES[d.cls[j]] == "black"


def cv2_resize_mask(mask: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``mask`` (0/1) at the detector's working size ``size`` (w, h): a pixel is in it when
    any of the full-resolution pixels it covers is."""
    import cv2

    return cv2.resize(mask, size, interpolation=cv2.INTER_AREA) > 0


@pytest.mark.parametrize("pos", [(90.0, 90.0), (T.ball_radius + 5.0, 110.0)])
def test_a_black_beside_a_corner_pocket_is_found(pos):
    """The synthetic overhead camera: a black on the bed within the corner pocket's zone,
    cloth between it and the hole (main before this fix: masked as the pocket, not found)."""
    cam, cal = _overhead()
    layout = {"black": pos, "white": (800.0, 1500.0), "red_01": (300.0, 2000.0)}
    img = Renderer(cam, T, RenderStyle(seed=1)).render(layout)
    det = BallDetector(cal)
    det.learn_cloth(img)
    det.learn_colours([img])
    d = det.detect(img)
    p = cam.project(np.array([[*pos, T.ball_radius]]))[0]
    j = int(np.argmin(np.linalg.norm(d.px - p, axis=1)))
    assert np.linalg.norm(d.px[j] - p) < 0.6 * d.radius_px[j]
    assert CLASSES[d.cls[j]] == "black"
    # the pocket's hole is still masked, its part over the bed's corner too
    for mm in ((0.0, 0.0), (10.0, 10.0)):
        hole = np.round(cam.project(np.array([[*mm, 0.0]]))[0] * det.scale).astype(int)
        assert det.static[hole[1], hole[0]]


# ---------------------------------------------------------------- highlights in a pack


def test_two_highlights_under_a_radius_apart_stay_two_balls():
    """Two detections 0.9 local radii apart on screen: one ball's top and underside (the
    brighter stays), unless both stand under a highlight of their own."""
    _, cal = _overhead()
    det = BallDetector(cal, scale=1.0)
    c = np.array([640.0, 360.0])
    r = float(det.radius_at(c[None])[0])
    px = np.array([c, c + [0.0, 0.9 * r]])
    feats = np.zeros((2, 5))
    feats[:, 3] = [0.9, 0.5]
    assert distinct(det.view, px, feats, min_sep=1.0).tolist() == [True, False]
    both = np.array([True, True])
    assert distinct(det.view, px, feats, min_sep=1.0, apart=both).tolist() == [True, True]
    one = np.array([True, False])
    assert distinct(det.view, px, feats, min_sep=1.0, apart=one).tolist() == [True, False]
    # one highlight seen twice (from the windows of two blobs, broadcast still 47) is one ball
    twice = np.array([c, c + [0.0, 0.3 * r]])
    assert distinct(det.view, twice, feats, min_sep=1.0, apart=both).tolist() == [True, False]


# ---------------------------------------------------------------- circles split from blobs


class _Network:
    """A stand-in for the crop classifier: the same nine probabilities at every point."""

    def __init__(self, p9: list[float]):
        self.p9 = np.array(p9, np.float32) / sum(p9)

    def classify(self, frame, px, radii):
        return np.tile(self.p9, (len(px), 1))


@pytest.mark.parametrize("p9, split_kept", [
    # a grey head's circle: "not a ball" its likeliest answer, though under LearnedParams.max_none
    ([0.2, 0.04, 0.02, 0.03, 0.15, 0.06, 0.04, 0.01, 0.45], False),
    # a ball of a pack, half hidden: "not a ball" likely, red likelier
    ([0.02, 0.5, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.36], True),
])
def test_a_split_circle_is_a_ball_only_when_the_network_says_so_first(p9, split_kept):
    cam, cal = _overhead()
    img = Renderer(cam, T, RenderStyle(seed=1)).render({})
    params = replace(DEFAULT, learned=replace(DEFAULT.learned, search_blobs=False))
    det = BallDetector(cal, scale=1.0, params=params, judge=LearnedJudge(_Network(p9)))
    det.learn_cloth(img)
    px = cam.project(np.array([[600.0, 1000.0, T.ball_radius], [1200.0, 2500.0, T.ball_radius]]))
    fg = np.zeros(img.shape[:2], np.uint8)
    no = np.zeros(2, bool)
    d = det.judge(img, Candidates(px, np.array([True, False]), no, no, fg))
    near = [bool(len(d)) and np.linalg.norm(d.px - p, axis=1).min() < 1.0 for p in px]
    assert near == [split_kept, True]


def test_an_uncovered_ball_sized_part_of_a_blob_is_a_ball():
    import cv2

    r = 8.0
    sub = np.zeros((40, 60), np.uint8)
    cv2.circle(sub, (20, 20), 8, 1, -1)
    cv2.circle(sub, (36, 20), 8, 1, -1)  # two touching balls, the circle of one found
    more = C.uncovered_balls(sub.astype(bool), [np.array([20.0, 20.0])], r)
    assert len(more) == 1 and np.hypot(*(more[0] - [37.0, 20.0])) <= 2.5
    crescent = np.zeros_like(sub)
    cv2.circle(crescent, (20, 22), 10, 1, -1)  # a ball with its shadow's crescent
    assert C.uncovered_balls(crescent.astype(bool), [np.array([20.0, 20.0])], r) == []
    assert C.uncovered_balls(sub.astype(bool), [np.array([20.0, 20.0]), np.array([36.0, 20.0])], r) == []


# ---------------------------------------------------------------- the real stills

def _footage():
    from tracker.footage_eval import footage

    root = footage()
    if root is None:
        pytest.skip("../shared/footage is not here (third-party footage, never in the repository)")
    return root


def _broadcast_counts(n: int) -> tuple[dict[str, int], dict[str, int]]:
    """(labelled, seen) balls per colour on broadcast still ``n``, counted as
    :func:`tracker.footage_eval.broadcast_stills` counts them (automatic calibration, the
    default detector, colours learned from the still, the game's constraint)."""
    import cv2

    from tracker.perception.calibrate import calibrate_image
    from tracker.perception.learned import make_detector

    folder = _footage() / "broadcast-snooker" / "stills"
    truth = {c: 0 for c in CLASSES}
    for line in (folder / "ground-truth" / f"{n}_gt.txt").read_text().splitlines()[1:]:
        if len(line.split()) == 2:
            truth[line.split()[1].lower()] = int(line.split()[0])
    img = cv2.imread(str(folder / f"{n}.jpg"))
    det = make_detector(calibrate_image(img, T), "auto", scale=1.0)
    det.learn_cloth(img)
    det.learn_colours(img)
    d = det.detect_constrained(img)
    return truth, {c: int((d.cls == k).sum()) for k, c in enumerate(CLASSES)}


def test_real_tv_pack_counts_every_red():
    truth, seen = _broadcast_counts(26)
    assert seen == truth


def test_real_head_over_the_table_is_no_ball():
    truth, seen = _broadcast_counts(4)
    assert seen == truth


def test_real_black_beside_a_corner_pocket_is_found():
    import json

    import cv2

    from calibration.table import TableGeometry
    from tracker.perception.calibrate import calibrate_image
    from tracker.perception.learned import make_detector

    folder = _footage() / "overhead-lab-snooker" / "with_halo_2"
    case = next(c for c in json.loads((folder / "testcases.json").read_text())["cases"]
                if c["image"].endswith("/15.png"))
    img = cv2.imread(str(folder / "15.png"))
    det = make_detector(calibrate_image(img, TableGeometry.of_size(1881, 943, 52.3)), "auto", scale=1.0)
    det.learn_cloth(img)
    det.learn_colours([img])
    d = det.detect_constrained(img)
    black = next(b for b in case["balls"] if b["type"] == "BLACK")
    dist = np.linalg.norm(d.px - [black["pixelX"], black["pixelY"]], axis=1)
    j = int(np.argmin(dist))
    assert dist[j] <= 0.6 * d.radius_px[j] and CLASSES[d.cls[j]] == "black"


def test_a_blur_streak_is_one_candidate_outside_any_cluster(monkeypatch):
    """A ball smeared by motion blur (a streak one ball wide, nearly two long, where the
    circle transform finds no sharp circle): one candidate, not split from a cluster, one
    flag per candidate (the uncovered-ball search is not asked: no circle was found)."""
    import cv2

    cam, cal = _overhead()
    img = Renderer(cam, T, RenderStyle(seed=1)).render({})
    det = BallDetector(cal)
    det.learn_cloth(img)
    c = cam.project(np.array([[900.0, 1800.0, T.ball_radius]]))[0]
    r = float(det.radius_at(c[None])[0])
    cv2.ellipse(img, (int(c[0]), int(c[1])), (int(1.8 * r), int(r)), 0, 0, 360, (235, 235, 235),
                -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (0, 0), 0.2 * r)
    monkeypatch.setattr(C, "cluster_circles", lambda *a: [])
    cands = det.candidates(img)
    px, in_cluster = cands.px, cands.in_cluster
    near = np.linalg.norm(px - c, axis=1) < r
    assert len(px) == len(in_cluster) and near.sum() == 1
    assert not in_cluster[near][0]


# ---------------------------------------------------------------- a ball of the cloth's colour


def test_a_ball_of_the_cloths_colour_is_placed_by_its_colour_not_its_shadow():
    """A green on a cloth of nearly its colour with a dark grey shadow cast beside it (a lamp
    off to one side, as over the lab stills; the stock renderer draws contact shadows only, so the
    shadow is painted): the ball hardly differs from the cloth (its share of the difference
    under RefineParams.low_contrast_share), and the disc of its colour, not the centroid of the
    difference, is the ball (main before this fix: 0.16 radii off, toward the shadow; the
    shadow itself is taken for a ball here, and must not push the green away either)."""
    cam, cal = _overhead()
    green_mm = (600.0, 1200.0)
    layout = {"green": green_mm, "white": (800.0, 1500.0), "red_01": (300.0, 2000.0),
              "blue": (900.0, 1800.0)}
    img = Renderer(cam, T, RenderStyle(seed=1, cloth_rgb=(0.10, 0.42, 0.30))).render(layout)
    det = BallDetector(cal, scale=1.0)
    det.learn_cloth(img)
    det.learn_colours([img])
    p = cam.project(np.array([[*green_mm, T.ball_radius]]))[0]
    r = float(det.radius_at(p[None])[0])
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
    ball = (xx - p[0]) ** 2 + (yy - p[1]) ** 2 <= r * r
    shadow = ((xx - p[0] + 0.9 * r) ** 2 + (yy - p[1] + 0.5 * r) ** 2 <= (1.1 * r) ** 2) & ~ball
    grey = img[shadow].astype(float).mean(1, keepdims=True)
    img[shadow] = (0.6 * (0.3 * img[shadow] + 0.7 * grey)).astype(np.uint8)  # dark and grey

    cands = det.candidates(img)
    j = int(np.argmin(np.linalg.norm(cands.px - p, axis=1)))
    assert cands.low_contrast[j]
    d = det.detect(img)
    j = int(np.argmin(np.linalg.norm(d.px - p, axis=1)))
    assert CLASSES[d.cls[j]] == "green" and np.linalg.norm(d.px[j] - p) < 0.12 * r
    # a red on the same cloth is no low-contrast ball: the centroid of its difference stays
    red = cam.project(np.array([[300.0, 2000.0, T.ball_radius]]))
    share = refine_share(det.view, det.cloth_map, img, red)[1][0]
    assert share >= DEFAULT.refine.low_contrast_share


def test_real_greens_on_the_lab_cloth_are_placed_on_the_ball():
    """The lab's green is teal on a teal cloth, its grey shadow cast beside it: each of three
    lab stills' greens lies within 0.3 radii of its label (main before this fix: 0.37, 0.36 and
    0.78 radii with the stills bench's calibration; 10.png's counted as not found)."""
    import json

    import cv2

    from calibration.table import TableGeometry
    from tracker.perception.calibrate import calibrate_image
    from tracker.perception.learned import make_detector

    folder = _footage() / "overhead-lab-snooker" / "with_halo_2"
    cases = [c for c in json.loads((folder / "testcases.json").read_text())["cases"]
             if (folder / c["image"].split("/")[-1]).exists()]
    imgs = {c["image"].split("/")[-1]: cv2.imread(str(folder / c["image"].split("/")[-1]))
            for c in cases}
    table = TableGeometry.of_size(1881, 943, 52.3)
    cal = calibrate_image(imgs["10.png"], table)
    for name in ("10.png", "20.png", "32.png"):
        case = next(c for c in cases if c["image"].endswith("/" + name))
        det = make_detector(cal, "auto", scale=1.0)
        det.learn_cloth(imgs[name])
        det.learn_colours([im for n, im in imgs.items() if n != name])
        d = det.detect_constrained(imgs[name])
        green = next(b for b in case["balls"] if b["type"] == "GREEN")
        dist = np.linalg.norm(d.px - [green["pixelX"], green["pixelY"]], axis=1)
        j = int(np.argmin(dist))
        assert CLASSES[d.cls[j]] == "green" and dist[j] <= 0.3 * d.radius_px[j], (name, dist[j])
