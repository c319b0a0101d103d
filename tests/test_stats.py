"""Statistics of a match (tracker.stats), checked against figures worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracker.cli import main
from tracker.records.parse import read_log, record_to_dict
from tracker.stats import (
    FOUL,
    MISSED_POT,
    POT,
    SAFETY,
    UNKNOWN,
    StatsParams,
    classify,
    match_stats,
)

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_LOG = ROOT / "sample_videos" / "overhead_frame.log.jsonl"


def _log(path: Path) -> list[dict]:
    return [record_to_dict(r) for _, r in read_log(path)]


def _referee(path: Path, capsys) -> list[dict]:
    """The referee's calls on a log, as ``snooker-tracker referee LOG`` prints them."""
    capsys.readouterr()
    assert main(["referee", str(path)]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]


def _with_stroke_5_a_foul(tmp_path: Path) -> Path:
    """The sample log with a push stroke (a foul the referee saw) added to stroke 5."""
    lines = []
    for d in _log(SAMPLE_LOG):
        if d.get("shot") == 5:
            d["operator"] = {"fouls": [{"code": "push"}]}
        lines.append(json.dumps(d))
    path = tmp_path / "foul5.log.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_sample_frames_statistics_equal_those_worked_out_by_hand(capsys):
    """The bundled sample (sample_videos/overhead_frame.log.jsonl), read stroke by stroke
    with the referee's calls (``snooker-tracker referee`` on it):

    - 1 Ann breaks off: the cue ball hits red_12 first, nothing potted, no foul. red_12 went
      from (836.30, 2913.81) to (751.01, 2773.14) mm: 164.5 mm, heading -121.2 deg. The only
      pocket within 12 deg of that heading is the left middle (0, 1784.5): 5.3 deg off, but
      1405.3 mm away, and 164.5 < 0.6 x 1405.3 = 843.2: not a missed pot, so a SAFETY.
      No shot time (first stroke of the frame).
    - 2 Bob: red_12 potted, then the cue ball (in-off): FOUL, 4 to Ann. Shot time 14.28 -
      11.856832 = 2.423168 s. Bob's visit: strokes (2), 0 points, ended by the foul.
    - Ann asks Bob to play again (an input, no stroke).
    - 3 Bob pots red_07 (1 point): POT. red_07 stood at (817.87, 950.58), 1168.0 mm from the
      left middle (< 3569/3 = 1189.7) and 314.5 mm from the cue ball at (1037, 725) (< 3569/4
      = 892.25): not long. Shot time 20.84 - 16.712348 = 4.127652 s (the input in between).
    - 4 Bob pots the blue (5): POT, 129.3 mm from the bottom left: not long. Shot time 23.8 -
      21.482 = 2.318 s. Break 1 + 5 = 6.
    - 5 Bob: red_01 first, nothing potted, no foul; the other player is next: the visit (3,
      4, 5) ends with 6 points. red_01 went from (1528.26, 1881.41) to (1094.69, 882.59):
      1088.9 mm heading -113.5 deg; pockets off by 15.5 (bottom left), 30.2 (bottom right)
      and more deg: none within 12 deg, so a SAFETY. Shot time 31.64 - 27.358332 = 4.281668 s.
    - 6 Ann pots red_03 (1): POT. red_03 was 1415.8 mm from the left middle (>= 1189.7) but
      the cue ball only 648.4 mm from it (< 892.25): not long. Shot time 45.04 - 42.309851
      = 2.730149 s. The log ends with Ann at the table: her visit (6) is a break of 1.

    So Ann: 2 strokes, 1 pot of 1 attempt, 1 safety, no foul, visits (1) 0 + (6) 1 points:
    1 point in 2 visits = 0.5 per visit, shot time 2.730149 s (one timed stroke), highest
    break 1. Bob: 4 strokes, 2 pots of 2 attempts, 1 safety, 1 foul giving away 4, visits
    (2) 0 + (3-5) 6: 6 points in 2 visits = 3.0, shot times (2.423168 + 4.127652 + 2.318 +
    4.281668) / 4 = 3.287622 s, highest break 6. No long pot, no break of 20 or more; the
    frame is not finished (Ann 5, Bob 6)."""
    ms = match_stats(_log(SAMPLE_LOG), _referee(SAMPLE_LOG, capsys))
    assert [(s.shot, s.striker, s.kind) for s in ms.strokes] == [
        (1, "Ann", SAFETY), (2, "Bob", FOUL), (3, "Bob", POT), (4, "Bob", POT),
        (5, "Bob", SAFETY), (6, "Ann", POT)]
    assert [(v.player, v.shots, v.points) for v in ms.visits] == [
        ("Ann", (1,), 0), ("Bob", (2,), 0), ("Bob", (3, 4, 5), 6), ("Ann", (6,), 1)]
    ann, bob = ms.match["Ann"], ms.match["Bob"]
    assert (ann.strokes, ann.pots, ann.missed_pots, ann.pot_success) == (2, 1, 0, 1.0)
    assert (bob.strokes, bob.pots, bob.missed_pots, bob.pot_success) == (4, 2, 0, 1.0)
    assert (ann.safeties, bob.safeties) == (1, 1)
    assert (ann.fouls, ann.points_given_away, bob.fouls, bob.points_given_away) == (0, 0, 1, 4)
    assert (ann.points_scored, ann.visits, ann.points_per_visit) == (1, 2, 0.5)
    assert (bob.points_scored, bob.visits, bob.points_per_visit) == (6, 2, 3.0)
    assert ann.timed_strokes == 1 and ann.average_shot_time_s == pytest.approx(2.730149)
    assert bob.timed_strokes == 4 and bob.average_shot_time_s == pytest.approx(3.287622)
    assert (ann.highest_break, bob.highest_break) == (1, 6)
    assert ann.breaks_at_least == bob.breaks_at_least == {20: 0, 50: 0, 100: 0}
    assert (ann.long_pots, bob.long_pots, bob.long_pot_success) == (0, 0, None)
    assert ms.per_frame[1]["Bob"] == bob  # one frame: the frame's figures are the match's
    frame = ms.frames[0]
    assert (frame.finished, frame.winner, dict(frame.score)) == (False, None, {"Ann": 5, "Bob": 6})
    assert [(b.player, b.points, b.balls, b.ended) for b in ms.breaks()] == [
        ("Bob", 6, ("red_07", "blue"), "no score"), ("Ann", 1, ("red_03",), "still at the table")]


def test_a_break_that_ends_in_a_foul_keeps_its_points(tmp_path, capsys):
    """Stroke 5 made a foul (push, 4 away): Bob's visit 3-5 still scored 6 before it."""
    log = _with_stroke_5_a_foul(tmp_path)
    ms = match_stats(_log(log), _referee(log, capsys))
    visit = next(v for v in ms.visits if v.shots == (3, 4, 5))
    assert (visit.points, visit.ended) == (6, "foul")
    bob = ms.match["Bob"]
    assert (bob.highest_break, bob.fouls, bob.points_given_away, bob.safeties) == (6, 2, 8, 0)


def test_a_corrected_stroke_counts_once_with_its_last_call(tmp_path, capsys):
    """A correction adds a second call of stroke 5 (marked amended) after the first: the
    statistics take the second."""
    calls = _referee(SAMPLE_LOG, capsys)
    amended = next(d for d in _referee(_with_stroke_5_a_foul(tmp_path), capsys)
                   if d.get("shot") == 5)
    at = next(i for i, d in enumerate(calls) if d.get("shot") == 5)
    calls.insert(at + 1, {**amended, "amended": True})
    ms = match_stats(_log(SAMPLE_LOG), calls)
    assert [s.shot for s in ms.strokes] == [1, 2, 3, 4, 5, 6]
    assert ms.match["Bob"].fouls == 2 and ms.strokes[4].kind == FOUL


def _stroke(after: dict | None, potted: bool) -> tuple[dict, dict]:
    """A red at (889, 2200) mm, the cue ball at (889, 700): 1500 mm apart (>= 892.25), the
    red 1590.7 mm from the top left pocket (>= 1189.7): a long pot if it is one."""
    events = [{"type": "strike", "t": 1.0, "ball": "white"},
              {"type": "contact", "t": 1.5, "balls": ["white", "red_01"]}]
    if potted:
        events.append({"type": "pot", "t": 2.5, "ball": "red_01", "pocket": "top_left"})
    record = {"type": "shot", "shot": 1, "events": events,
              "positions_before": {"white": [889.0, 700.0], "red_01": [889.0, 2200.0]},
              "positions_after": after}
    call = {"shot": 1, "striker": "Ann", "foul": False, "points": {"Ann": int(potted), "Bob": 0},
            "potted": ["red_01"] if potted else []}
    return record, call


@pytest.mark.parametrize(("after", "potted", "kind", "long"), [
    (None, True, POT, True),  # potted from far: a long pot
    # towards the top left (1.9 deg off), 1213.8 mm of 1590.7 (>= 60%): a missed long pot
    ({"white": [889.0, 1400.0], "red_01": [200.0, 3200.0]}, False, MISSED_POT, True),
    # towards it but only 500 mm (< 60%): a safety
    ({"white": [889.0, 1400.0], "red_01": [602.0, 2610.0]}, False, SAFETY, None),
    # straight up the table, towards no pocket: a safety
    ({"white": [889.0, 1400.0], "red_01": [889.0, 3300.0]}, False, SAFETY, None),
    (None, False, UNKNOWN, None),  # nothing potted and no positions after: cannot tell
])
def test_pot_attempts_safeties_and_long_pots_from_the_positions(after, potted, kind, long):
    from calibration.table import TableGeometry

    record, call = _stroke(after, potted)
    assert classify(record, call, TableGeometry.standard(), StatsParams()) == (kind, long)


def test_the_long_pot_threshold_is_the_parameters(capsys):
    """Every pot of the sample is long when the thresholds are nil, none at the defaults."""
    ms = match_stats(_log(SAMPLE_LOG), _referee(SAMPLE_LOG, capsys),
                     StatsParams(long_object_to_pocket=0.0, long_cue_to_object=0.0))
    assert (ms.match["Ann"].long_pots, ms.match["Bob"].long_pots) == (1, 2)
    assert ms.match["Bob"].long_pot_success == 1.0
