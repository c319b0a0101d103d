"""Pool matches through the match driver and ``snooker-tracker referee LOG``: a nine-ball race
(alternate break, 002 2.1) and an eight-ball rack with a foul and a lost 8, read back by the
words, the board banners and the statistics written for snooker."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.cli import main
from tracker.outputs.board import banner_of
from tracker.records.parse import record_from_dict
from tracker.rules.errors import RuleError
from tracker.rules.explain import explain
from tracker.rules.match import Match
from tracker.rules.registry import RULESETS, get_ruleset
from tracker.stats import match_stats


def _shot(n, first, pots=(), rails=(), nomination=None, striker=None):
    ev = [{"type": "strike", "t": 0.0, "ball": "white"},
          {"type": "contact", "t": 0.2, "balls": ["white", first]}]
    ev += [{"type": "cushion", "t": 0.4 + i / 100, "ball": b} for i, b in enumerate(rails)]
    ev += [{"type": "pot", "t": 0.6 + i / 100, "ball": b, "pocket": "top_left"}
           for i, b in enumerate(pots)]
    ev.append({"type": "at_rest", "t": 1.5})
    rec = {"type": "shot", "shot": n, "events": ev}
    if nomination:
        rec["nomination"] = nomination
    if striker:
        rec["striker"] = striker
    return rec


def _start(frame, ruleset, **kw):
    return {"type": "frame_start", "frame": frame, "players": ["A", "B"], "ruleset": ruleset, **kw}


NINE_BALL_RACE = [
    _start(1, "nine-ball", race_to=2, breaker="A"),
    _shot(1, "1", pots=("9",)),                                   # A: the 9 on the break
    _start(2, "nine-ball"),                                       # B breaks (alternate)
    _shot(2, "1", rails=("2", "4", "5", "6")),                    # legal, nothing down
    _shot(3, "5", nomination="push_out"),                         # A pushes out
    {"type": "input", "input": "option", "choice": "pass", "player": "B"},
    _shot(4, "2", pots=("4",)),                                   # A: wrong ball first
    _shot(5, "1", pots=("9",)),                                   # B: 9 on a combination
    _start(3, "nine-ball"),                                       # A breaks
    _shot(6, "1", pots=("2", "3")),
    _shot(7, "1", pots=("9",)),                                   # A wins the race 2-1
]

EIGHT_BALL_RACK = [
    _start(1, "eight-ball", breaker="A"),
    _shot(1, "1", pots=("3",)),
    _shot(2, "10", pots=("10",), nomination="10@top_left"),       # A takes the stripes
    _shot(3, "1", rails=("1",)),                                  # wrong group: foul
    _shot(4, "2", rails=("2",), nomination="safety"),             # B, ball in hand
    _shot(5, "12", pots=("8",)),                                  # A: the 8 early, loses
]


def _referee(records):
    match = Match()
    out = []
    for rec in records:
        out.extend(match.feed(record_from_dict(rec)))
    return match, out


def test_pool_games_are_registered_rulesets():
    assert {"eight-ball", "nine-ball"} <= set(RULESETS)
    assert get_ruleset("eight-ball").balls.ids[:2] == ("white", "1")
    assert get_ruleset("nine-ball").balls.looks["9"] == "stripe_yellow"
    assert get_ruleset("eight-ball").balls.looks["1"] == "solid_yellow"


def test_race_to_two_alternates_the_break_and_ends_at_two_racks():
    match, out = _referee(NINE_BALL_RACE)
    starts = [o["breaker"] for o in out if "frame_start" in o]
    assert starts == ["A", "B", "A"] and match.best_of == 3
    ends = [o for o in out if "frame_end" in o]
    assert [e["winner"] for e in ends] == ["A", "B", "A"]
    assert ends[-1]["match_over"] and ends[-1]["match_winner"] == "A"
    assert match.frames_won == {"A": 2, "B": 1}
    with pytest.raises(RuleError, match="after the match is over"):
        match.feed(record_from_dict(_start(4, "nine-ball")))


def test_race_and_best_of_must_agree():
    with pytest.raises(RuleError, match="best of 5, not 3"):
        _referee([_start(1, "nine-ball", race_to=3, best_of=3)])


def test_referee_command_reads_a_pool_log_in_json_and_in_words(tmp_path, capsys):
    for name, records in (("nine", NINE_BALL_RACE), ("eight", EIGHT_BALL_RACK)):
        log = tmp_path / f"{name}.jsonl"
        log.write_text("\n".join(json.dumps(r) for r in records) + "\n")
        assert main(["referee", str(log)]) == 0
        lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
        assert lines[-1]["scoreboard"] and lines[-1]["match_over"]
        assert main(["referee", "--explain", str(log)]) == 0
        words = capsys.readouterr().out
        assert "FOUL." in words and "Traceback" not in words
    assert "the 8 lost" in words and "The cue ball hit the 1 first" in words


def test_board_banners_and_statistics_read_pool_calls():
    match, out = _referee(EIGHT_BALL_RACK)
    banners = [banner_of(o) for o in out]
    assert [b.kind for b in banners if b and b.kind in ("foul", "frame")] == ["foul", "frame"]
    stats = match_stats(EIGHT_BALL_RACK, out)
    assert stats.frames_won == {"A": 0, "B": 1} and len(stats.strokes) == 5


# ------------------------------------------------------------------ random pool logs
_BALLS = ["white", *(str(i) for i in range(1, 16))]
_CALLS = [*_BALLS[1:], "8@top_left", "3@middle_left", "safety", "push_out"]
_CHOICES = ["play", "pass", "in_hand_kitchen", "rerack", "rerack_offender", "respot", "rebreak",
            "solids", "stripes"]


@st.composite
def _event(draw, t):
    kind = draw(st.sampled_from(["strike", "contact", "contact", "cushion", "cushion", "pot",
                                 "off_table", "disturbed", "jump", "moving_at_strike"]))
    e = {"type": kind, "t": t}
    if kind == "contact":
        e["balls"] = ["white", draw(st.sampled_from(_BALLS[1:]))]
    else:
        e["ball"] = draw(st.sampled_from(_BALLS))
    if kind == "pot":
        e["pocket"] = draw(st.sampled_from(["top_left", "middle_right", "baulk_left"]))
    return e


@st.composite
def _record(draw, n):
    if draw(st.integers(0, 4)) == 0:
        kind = draw(st.sampled_from(["option", "option", "concede", "award_frame", "striker",
                                     "stalemate", "claim"]))
        rec = {"type": "input", "input": kind, "player": draw(st.sampled_from(["A", "B"]))}
        if kind == "option":
            rec["choice"] = draw(st.sampled_from(_CHOICES))
        return rec
    times = sorted(draw(st.lists(st.floats(0.01, 9), max_size=6)))
    rec = {"type": "shot", "shot": n, "events": [{"type": "strike", "t": 0.0, "ball": "white"},
                                                 *(draw(_event(t)) for t in times)]}
    if draw(st.booleans()):
        rec["nomination"] = draw(st.sampled_from(_CALLS))
    if draw(st.integers(0, 3)) == 0:
        rec["striker"] = draw(st.sampled_from(["A", "B"]))
    return rec


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_random_pool_logs_are_called_or_refused_in_one_line_and_read_back(data):
    """Any pool log the schema takes: every line is called, or one is refused with RuleError;
    the words, the banners and the statistics read whatever was called."""
    game = data.draw(st.sampled_from(["eight-ball", "nine-ball"]))
    log = [_start(1, game, race_to=2),
           *(data.draw(_record(n)) for n in range(1, data.draw(st.integers(1, 14))))]
    match, out = Match(), []
    for rec in log:
        try:
            out.extend(match.feed(record_from_dict(rec)))
        except RuleError as exc:
            assert "\n" not in str(exc)
            break
    for line in out:
        explain(line)
        banner_of(line)
    match_stats(log, out)
