"""The lights dimmed or flickering as a session fault (issue 28): the fault as drawn
(tracker/synth/lights.py), and a clip refereed through it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tracker.sources import Frame, FrameSource
from tracker.synth.lights import LightsFault, LightsSource

ROOT = Path(__file__).resolve().parents[1]


class _Grey(FrameSource):
    """Six frames of a flat grey 200 picture, 10 frames a second."""

    fps = 10.0

    def frames(self):
        for i in range(6):
            yield Frame(i, i / self.fps, np.full((40, 8, 3), 200, np.uint8))
        self.end = None


def test_dimmed_lights_halve_every_pixel_within_their_stretch_only():
    fault = LightsFault(dim_s=(0.2, 0.4), dim_gain=0.5)
    got = [f.image for f in LightsSource(_Grey(), fault)]
    assert [int(g[0, 0, 0]) for g in got] == [200, 200, 100, 100, 200, 200]


def test_flickering_lights_alternate_frame_to_frame_and_bands_vary_down_the_picture():
    fault = LightsFault(flicker_s=(0.0, 1.0), flicker_gains=(1.0, 0.6))
    got = [int(f.image[0, 0, 0]) for f in LightsSource(_Grey(), fault)]
    assert got == [200, 120] * 3
    banded = LightsFault(flicker_s=(0.0, 1.0), banding=0.3, band_period_px=20.0)
    img = next(iter(LightsSource(_Grey(), banded))).image[:, 0, 0].astype(int)
    assert img.max() - img.min() >= 0.25 * 200  # a band 30 % deep (to the nearest row)
    assert img.max() <= 200


def test_a_picture_under_good_lights_is_passed_on_untouched():
    img = np.full((4, 4, 3), 50, np.uint8)
    assert LightsFault(dim_s=(5.0, 6.0)).apply(img, 1.0, 10) is img


class _Smaller(FrameSource):
    """A video's frames at half size (960 x 540 from 1080p: a quarter of the work)."""

    def __init__(self, source: FrameSource):
        super().__init__()
        self.source = source
        self.name, self.fps, self.total = source.name, source.fps, source.total
        self.size = (source.size[0] // 2, source.size[1] // 2) if source.size else None

    def frames(self):
        try:
            for f in self.source:
                yield Frame(f.index, f.t, cv2.resize(f.image, self.size,
                                                     interpolation=cv2.INTER_AREA))
        finally:
            self.end = self.source.end


def _calls(decisions: list[dict]) -> list[tuple]:
    """What a scorer keeps of each stroke's call (which red went down is no call)."""
    keys = ("shot", "striker", "foul", "penalty", "score", "frame_over", "winner")
    return [(*(str(d.get(k)) for k in keys), sorted(b.split("_")[0] for b in d["potted"]))
            for d in decisions if "shot" in d]


def test_a_frame_refereed_through_dimmed_then_flickering_lights_gets_the_same_calls():
    """The free-ball sample at half size (two strokes: Ann's foul on the black, then Bob's
    foul that pots a red at the very end), with the lights dimmed to half from 3 s to 6.5 s
    (the first stroke's balls coming to rest and its call, then Bob's cue ball placed) and
    flickering in rolling-shutter bands from 9 s to the end (the second stroke's last balls
    rolling and its pot): the calls are the ones the sample's log says a perfect perception
    makes, nothing invented (no concession, no frame over), every frame refereed. Without the
    light meter (tracker/perception/lighting.py) the dimmed table reads as cleared: the frame
    is ended as a concession after 144 frames and the second stroke is never called."""
    from tracker.pipeline import process_video
    from tracker.sources import VideoFileSource

    clip = ROOT / "sample_videos" / "overhead_free_ball.mp4"
    fault = LightsFault(dim_s=(3.0, 6.5), dim_gain=0.5, flicker_s=(9.0, 99.0), banding=0.3)
    res = process_video(LightsSource(_Smaller(VideoFileSource(clip)), fault), None,
                        players=("Ann", "Bob"), progress=False)
    assert res.not_refereed_frames == 0 and res.frames == 339
    assert _calls(res.decisions) == [
        ("1", "Ann", "True", "7", "{'Ann': 0, 'Bob': 7}", "False", "None", []),
        ("2", "Bob", "True", "7", "{'Ann': 7, 'Bob': 7}", "False", "None", ["red"])]


def test_the_meter_mends_an_even_change_of_light_and_leaves_a_player_over_the_table_alone():
    """A real overhead picture: dimmed to half it comes back within a level of itself on
    average; a dark arm and shoulder over a sixth of the picture's height (a player leaning
    over the table) is no change of light, and the picture is passed on as it is; dimmed with
    the player there, the cloth away from the player comes back too."""
    from calibration.auto import calibrate_image
    from calibration.table import STANDARD_TABLE
    from tracker.perception.lighting import LightMeter

    cap = cv2.VideoCapture(str(ROOT / "sample_videos" / "overhead_free_ball.mp4"))
    ok, first = cap.read()
    cap.release()
    assert ok
    meter = LightMeter(calibrate_image(first, STANDARD_TABLE), first)
    dim = LightsFault(dim_s=(0.0, 1.0), dim_gain=0.5)
    mended, level = meter.mend(dim.apply(first, 0.5, 0))
    assert abs(level - 0.5) < 0.02
    assert np.abs(mended.astype(int) - first).mean() < 1.0
    player = first.copy()
    h, w = first.shape[:2]
    player[h // 3:h // 3 + h // 6, w // 4:3 * w // 4] = (40, 35, 30)
    assert meter.mend(player)[0] is player
    mended, _ = meter.mend(dim.apply(player, 0.5, 0))
    away = slice(0, h // 4)
    assert np.abs(mended[away].astype(int) - first[away]).mean() < 1.0


def test_a_picture_too_dark_to_mend_is_not_refereed():
    """The lights nearly off (10 %): the view monitor may still make out the table, but the
    run does not referee the picture (the frame carries on when the light is back, as after a
    knocked camera); the same picture in the light is refereed."""
    from calibration.auto import calibrate_image
    from calibration.table import STANDARD_TABLE
    from tracker.pipeline import RefereeRun

    cap = cv2.VideoCapture(str(ROOT / "sample_videos" / "overhead_free_ball.mp4"))
    ok, first = cap.read()
    cap.release()
    assert ok
    run = RefereeRun(calibrate_image(first, STANDARD_TABLE), 25.0, ("Ann", "Bob"))
    run.begin(first)
    dark = LightsFault(dim_s=(0.0, 1.0), dim_gain=0.1).apply(first, 0.5, 0)
    assert run.look_ahead(Frame(0, 0.0, first)).status.refereed
    assert not run.look_ahead(Frame(1, 0.04, dark)).status.refereed
    assert not run.step(Frame(2, 0.08, dark)).status.refereed
    assert run.step(Frame(3, 0.12, first)).status.refereed
