"""The overlay painter and the scoreboard fold: a call becomes a banner a person reads, the
score bar follows the calls, balls are marked where the camera sees them."""

from __future__ import annotations

import numpy as np

from calibration.camera import CameraModel
from calibration.monitor import ViewStatus
from calibration.profile import Calibration
from calibration.table import TableGeometry
from tracker.listeners import FrameView
from tracker.outputs.board import Board, banner_of
from tracker.outputs.overlay import OverlayPainter, score_bar_info, wrap_text
from tracker.perception.track import TableState
from tracker.sources import Frame

START = {"frame_start": 1, "ruleset": "snooker", "breaker": "Ann", "players": ["Ann", "Bob"],
         "notes": []}
MISS = {"shot": 1, "striker": "Ann", "foul": True, "fouls": [{"code": "wrong_ball_first",
        "message": "the cue ball hit the yellow first"}], "penalty": 4,
        "points": {"Ann": 0, "Bob": 4}, "score": {"Ann": 0, "Bob": 4}, "break": 0, "potted": [],
        "next_striker": "Bob", "ball_on": "red", "free_ball": False, "miss": True,
        "miss_warning": False, "options": ["play", "play_again", "replace"], "respots": [],
        "frame_over": False, "winner": None, "needs_review": [], "notes": []}
POT = {**MISS, "shot": 2, "striker": "Bob", "foul": False, "fouls": [], "penalty": 0, "miss": False,
       "points": {"Ann": 0, "Bob": 1}, "score": {"Ann": 0, "Bob": 5}, "break": 1,
       "potted": ["red_07"], "options": [], "ball_on": "colour",
       "needs_review": ["the cue ball seemed to hit two reds at the same moment"]}


def test_banners_say_the_call_in_a_few_words():
    b = banner_of(MISS)
    assert (b.kind, b.head, b.sub) == ("miss", "FOUL AND A MISS",
                                       "the cue ball hit the yellow first, 4 to Bob")
    fb = banner_of({**MISS, "miss": False, "free_ball": True})
    assert fb.head == "FOUL" and fb.sub == "the cue ball hit the yellow first, 4 to Bob · FREE BALL"
    pot = banner_of(POT)
    assert pot.head == "A RED" and "break 1" in pot.sub and pot.review
    assert banner_of(START) is None


def test_the_board_follows_the_calls():
    board = Board()
    for d in (START, MISS):
        board.update(d)
    assert board.striker == "Bob" and board.options == ["play", "play_again", "replace"]
    board.update({"input": "option", "accepted": True, "message": "balls replaced",
                  "score": {"Ann": 0, "Bob": 4}, "next_striker": "Ann"})
    assert board.striker == "Ann" and board.options == []
    board.update(POT)
    assert board.score == {"Ann": 0, "Bob": 5} and board.break_points == 1
    assert board.reviews == [{"shot": 2, "notes": ["The cue ball seemed to hit two reds at the same moment"]}]


def test_the_painter_marks_balls_and_shows_the_banner():
    t = TableGeometry.standard()
    cal = Calibration((960, 540), t, CameraModel.overhead(t.length, t.width, (960, 540)))
    painter = OverlayPainter(cal, 25.0)
    painter.take_decisions([START], 0.0)
    img = np.full((540, 960, 3), 60, np.uint8)
    blue = t.spots["blue"]
    st = TableState(frame=1, t=1.0, pos={"blue": blue}, moving=set(), visible={"blue"}, pots=[],
                    appeared=[])
    out = painter.draw(FrameView(Frame(1, 1.0, img), ViewStatus(1, "ok", 1.0), state=st,
                                 decisions=[MISS]))
    x, y = painter.px(blue)
    r = int(painter.ball_px() * 1.45)
    ring = out[y - r - 2:y + r + 3, x - r - 2:x + r + 3]
    assert (np.abs(ring.astype(int) - 60).sum(axis=2) > 60).any()  # the ring is drawn
    top = out[: 540 // 5]
    assert (top[..., 2].astype(int) - top[..., 1] > 60).sum() > 2000  # the red banner
    bottom = out[-60:]
    assert (bottom < 40).all(axis=2).sum() > 5000  # the dark score bar
    later = painter.draw(FrameView(Frame(200, 8.0, img), ViewStatus(200, "ok", 1.0)))
    assert (later[: 540 // 5][..., 2].astype(int) - later[: 540 // 5][..., 1] > 60).sum() < 100


def test_the_board_keeps_the_tv_figures():
    """Break with its balls, points remaining, reds, difference, the foul named; a frame
    taken up in progress starts from its start points and frames won."""
    board = Board()
    board.update({**START, "best_of": 7, "start_points": {"Ann": 30, "Bob": 12},
                  "frames_won": {"Ann": 2, "Bob": 1}})
    assert board.score == {"Ann": 30, "Bob": 12} and board.frames_won == {"Ann": 2, "Bob": 1}
    assert board.best_of == 7 and (board.leader, board.difference) == ("Ann", 18)
    assert board.state == "playing"
    board.update({**MISS, "points_remaining": 147, "score": {"Ann": 30, "Bob": 16}})
    assert board.foul == "FOUL AND A MISS: the cue ball hit the yellow first, 4 to Bob"
    assert board.reds_remaining == 15 and board.break_balls == []
    board.update({**POT, "score": {"Ann": 30, "Bob": 17}, "points_remaining": 138,
                  "next_striker": "Bob"})
    assert board.foul == "" and board.break_balls == ["red"] and board.reds_remaining == 13
    black = {**POT, "shot": 3, "potted": ["black"], "points": {"Ann": 0, "Bob": 7},
             "score": {"Ann": 30, "Bob": 24}, "break": 8, "ball_on": "red",
             "points_remaining": 131, "next_striker": "Bob",
             "snookers_required": {"Ann": 0, "Bob": 0}}
    board.update(black)
    assert board.break_points == 8 and board.break_balls == ["red", "black"]
    assert board.reds_remaining == 13 and board.difference == 6
    info = score_bar_info(board)
    assert "break 8 (red, black)" in info and "remaining 131" in info and "reds 13" in info
    assert "best of 7" in info
    board.update({**black, "shot": 4, "potted": [], "points": {"Ann": 0, "Bob": 0}, "break": 8,
                  "next_striker": "Ann", "snookers_required": {"Ann": 0, "Bob": 2}})
    assert board.break_points == 0 and board.break_balls == [] and board.striker == "Ann"
    assert board.snookers_required == {"Bob": 2} and "Bob needs 2 snookers" in score_bar_info(board)
    board.update({"frame_end": 1, "winner": "Ann", "score": {"Ann": 60, "Bob": 24},
                  "frames_won": {"Ann": 3, "Bob": 1}, "match_over": False})
    assert board.state == "between frames" and board.frames_won == {"Ann": 3, "Bob": 1}
    assert board.break_balls == [] and "frame to Ann" in score_bar_info(board)


def test_a_long_review_note_is_wrapped_not_cut():
    note = "REVIEW: " + "check that the cue ball hit the red before the blue " * 4
    lines = wrap_text(note, 0.6, 400)
    assert len(lines) > 1 and " ".join(lines) == " ".join(note.split())


def test_the_banner_leaves_the_top_when_a_pot_is_marked_there():
    t = TableGeometry.standard()
    cal = Calibration((960, 540), t, CameraModel.overhead(t.length, t.width, (960, 540)))
    painter = OverlayPainter(cal, 25.0)
    painter.take_decisions([START], 0.0)
    img = np.full((540, 960, 3), 60, np.uint8)
    out = painter.draw(FrameView(Frame(1, 1.0, img), ViewStatus(1, "ok", 1.0), decisions=[MISS]))
    red = (out[..., 2].astype(int) - out[..., 1]) > 60
    assert red[:540 // 5].sum() > 2000  # nothing marked at the top: the banner is there
    low_before = red[540 // 2:].sum()  # the foul named above the score bar
    painter.marks.append((1.0, "pot", (480, 20), "black: top left"))
    out = painter.draw(FrameView(Frame(2, 1.04, img), ViewStatus(2, "ok", 1.0)))
    red = (out[..., 2].astype(int) - out[..., 1]) > 60
    assert red[:540 // 5].sum() < 500  # moved off the pot ...
    assert red[540 // 2:].sum() > low_before + 2000  # ... above the score bar


def _broadcast_pictures(graphic: bool, n: int = 12) -> list[np.ndarray]:
    """720p pictures of a green table on a dark floor with a player's arm moving across the
    lower band; with ``graphic``, a broadcaster's score bar (boxes, names and digits) stays
    still over the lower band in every picture."""
    import cv2

    rng = np.random.default_rng(5)
    out = []
    for i in range(n):
        img = np.full((720, 1280, 3), (40, 35, 30), np.uint8)
        cv2.rectangle(img, (200, 60), (1080, 640), (40, 150, 30), -1)  # the cloth
        cv2.rectangle(img, (180, 640), (1100, 665), (20, 40, 90), -1)  # the cushion rail
        x = 100 + 60 * i  # an arm moving across the lower band
        cv2.rectangle(img, (x, 600), (x + 200, 700), (200, 200, 210), -1)
        img = np.clip(img.astype(int) + rng.integers(-4, 5, img.shape), 0, 255).astype(np.uint8)
        if graphic:
            cv2.rectangle(img, (220, 630), (1060, 680), (20, 20, 20), -1)
            cv2.rectangle(img, (560, 630), (720, 680), (180, 90, 20), -1)
            for k, text in enumerate(("HIGGINS", "54", "6 (33) 11", "54", "GILBERT")):
                cv2.putText(img, text, (240 + 170 * k, 665), cv2.FONT_HERSHEY_DUPLEX, 0.9,
                            (255, 255, 255), 2, cv2.LINE_AA)
        out.append(img)
    return out


def test_auto_puts_the_score_bar_at_the_top_over_a_broadcasters_graphic():
    from tracker.outputs.bar_place import BarParams, free_band, still_edge_share

    with_graphic, plain = _broadcast_pictures(True), _broadcast_pictures(False)
    params = BarParams()
    assert still_edge_share(with_graphic, "bottom", params) >= params.graphic_density
    assert still_edge_share(plain, "bottom", params) < params.graphic_density / 2
    assert free_band(with_graphic) == "top" and free_band(plain) == "bottom"
    assert free_band(with_graphic, BarParams(place="bottom")) == "bottom"  # a set place stays


def test_the_overlay_video_holds_its_first_second_then_draws_the_bar_where_it_is_free(tmp_path):
    """OverlayWriter with auto: nothing is written while it decides; the pictures it held are
    then written with the bar at the top, clear of the graphic at the bottom."""
    import cv2

    from tracker.outputs.overlay import OverlayWriter

    t = TableGeometry.standard()
    cal = Calibration((1280, 720), t, CameraModel.overhead(t.length, t.width, (1280, 720)))
    run = type("Run", (), {"calibration": cal, "fps": 10.0})()
    pictures = _broadcast_pictures(True)
    writer = OverlayWriter(tmp_path / "o.mp4")
    writer.on_record(run, None, [START, MISS])
    sent = []
    for i, img in enumerate(pictures):
        writer.on_frame(run, FrameView(Frame(i, i / 10.0, img), ViewStatus(i, "ok", 1.0)))
        sent.append(writer.frames)
    assert sent[:10] == [0] * 10 and sent[10] == 11  # held for a second (10 pictures), then out
    writer.on_end(run, {})
    assert writer.frames == len(pictures) and writer.painter.bar_place == "top"
    cap = cv2.VideoCapture(str(tmp_path / "o.mp4"))
    ok, first = cap.read()
    cap.release()
    assert ok
    assert (first[20:80, 100:1180] < 45).all(axis=2).mean() > 0.5  # the dark bar at the top
    graphic = pictures[0][630:680, 560:720].astype(int)  # the broadcaster's blue box: clear
    assert np.abs(first[630:680, 560:720].astype(int) - graphic).mean() < 12
