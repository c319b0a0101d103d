"""Match set-up without files (tracker.session_setup) and the frame_start records it makes:
handicap start points, a match taken up in progress, the queue of next matches, every bad value
one line."""

from __future__ import annotations

import json

import pytest

from tracker.records.parse import record_from_dict, record_to_dict
from tracker.records.shot import FrameStart, InputKind, OperatorInput
from tracker.rules.errors import RuleError
from tracker.rules.match import Match
from tracker.session_setup import (
    MatchSetup,
    SetupError,
    parse_then,
    setup_from_dict,
    setup_from_file,
    setup_from_options,
)


def test_options_make_a_checked_setup_and_its_first_frame():
    s = setup_from_options(("Ann", "Bob"), race_to=4, ruleset="snooker-6-reds",
                           handicap=["Ann=14"], breaker="Bob", frames_won="2-1", score="34-12",
                           then=["Cy,Di best-of 5"])
    assert s.best_of == 7 and s.race_to == 4 and s.taken_up
    fs = s.first_frame()
    assert (fs.frame, fs.breaker, fs.ruleset, fs.best_of) == (4, "Bob", "snooker-6-reds", 7)
    assert fs.start_points == {"Ann": 34, "Bob": 12}
    assert fs.frames_won == {"Ann": 2, "Bob": 1}
    nxt = s.next_match()
    assert nxt is not None and nxt.players == ("Cy", "Di") and nxt.best_of == 5
    assert nxt.ruleset == "snooker-6-reds" and nxt.next_match() is None


def test_later_frames_carry_the_handicap_not_the_taken_up_score():
    s = setup_from_options(("Ann", "Bob"), best_of=3, handicap=["Bob=21"], score="5-40")
    later = s.frame_start(2)
    assert later.start_points == {"Ann": 0, "Bob": 21} and later.breaker is None
    assert later.frames_won is None


def test_again_plays_the_same_pair_anew():
    s = setup_from_options(("Ann", "Bob"), best_of=3, frames_won="1-0", again=True)
    nxt = s.next_match()
    assert nxt is not None and nxt.players == ("Ann", "Bob") and nxt.frames_won == (0, 0)
    assert nxt.again


@pytest.mark.parametrize(("fields", "words"), [
    ({"best_of": 4}, "odd number"),
    ({"race_to": 0}, "race to 0"),
    ({"best_of": 3, "race_to": 2}, "not both"),
    ({"ruleset": "snoker"}, "not known"),
    ({"ruleset": "snookerpool"}, "cannot referee snookerpool yet"),
    ({"ruleset": "snookerpool-6-solids"}, "referee LOG"),
    ({"handicap": ["Cy=3"]}, "not a player"),
    ({"handicap": ["Ann=lots"]}, "NAME=POINTS"),
    ({"handicap": ["Ann=900"]}, "0 to 200"),
    ({"breaker": "Cy"}, "not a player"),
    ({"best_of": 7, "frames_won": "4-0"}, "must still be on"),
    ({"score": "12"}, "N-M"),
    ({"then": ["Cy"]}, "--then"),
    ({"then": ["Cy,Di best-of 4"]}, "odd number"),
])
def test_bad_values_are_one_line_errors(fields, words):
    with pytest.raises(SetupError) as exc:
        setup_from_options(("Ann", "Bob"), **fields)
    assert words in str(exc.value) and "\n" not in str(exc.value)


@pytest.mark.parametrize("game", ["eight-ball", "nine-ball"])
def test_pool_games_are_refereed_by_the_camera(game):
    assert setup_from_options(("Ann", "Bob"), race_to=3, ruleset=game).ruleset == game


def test_same_player_twice_is_refused():
    with pytest.raises(SetupError, match="different names"):
        setup_from_options(("Ann", " ann"))


def test_setup_file_toml_and_json(tmp_path):
    toml = tmp_path / "m.toml"
    toml.write_text('players = ["Ann", "Bob"]\nrace_to = 2\nruleset = "snooker-10-reds"\n'
                    'handicap = {Bob = 7}\n[[then]]\nplayers = ["Cy", "Di"]\nbest_of = 3\n')
    s = setup_from_file(toml)
    assert s.best_of == 3 and s.ruleset == "snooker-10-reds" and s.handicap == {"Bob": 7}
    assert s.then[0].ruleset == "snooker-10-reds"
    js = tmp_path / "m.json"
    js.write_text(json.dumps(s.to_dict()))
    assert setup_from_file(js) == s
    js.write_text('{"players": ["Ann", "Bob"], "best_off": 3}')
    with pytest.raises(SetupError, match="unknown field 'best_off'"):
        setup_from_file(js)
    js.write_text("{not json")
    with pytest.raises(SetupError, match="not readable as JSON"):
        setup_from_file(js)
    with pytest.raises(SetupError, match="no such file"):
        setup_from_file(tmp_path / "none.json")
    with pytest.raises(SetupError, match="two whole numbers"):
        setup_from_dict({"players": ["Ann", "Bob"], "best_of": 3, "frames_won": [1]})


def test_parse_then_names_with_spaces_and_a_ruleset():
    m = parse_then("Judd Trump,Mark Selby race-to 3 snooker-6-reds")
    assert m.players == ("Judd Trump", "Mark Selby") and m.best_of == 5
    assert m.ruleset == "snooker-6-reds"


def test_new_frame_fields_round_trip_through_the_log():
    fs = FrameStart(3, ("Ann", "Bob"), breaker="Ann", best_of=5,
                    start_points={"Ann": 0, "Bob": 14}, frames_won={"Ann": 1, "Bob": 1})
    d = record_to_dict(fs)
    assert d["start_points"] == {"Ann": 0, "Bob": 14}
    assert record_from_dict(json.loads(json.dumps(d))) == fs
    assert "start_points" not in record_to_dict(FrameStart(1, ("Ann", "Bob")))


def test_match_takes_up_frames_won_and_rotates_from_the_named_breaker():
    s = setup_from_options(("Ann", "Bob"), best_of=5, breaker="Bob", frames_won="1-1",
                           handicap=["Ann=10"], score="30-2")
    m = Match()
    out = m.feed(s.first_frame())[0]
    assert out["breaker"] == "Bob" and out["frames_won"] == {"Ann": 1, "Bob": 1}
    assert m.state.scores == (30, 2) and not out["notes"]
    m.feed(OperatorInput(InputKind.CONCEDE))  # Bob to play concedes: frame to Ann
    assert m.frames_won == {"Ann": 2, "Bob": 1} and not m.match_over
    out2 = m.feed(s.frame_start(4))[0]
    assert out2["breaker"] == "Ann" and not out2["notes"]  # the rotation: Bob broke frame 3
    assert m.state.scores == (10, 0)  # the handicap, not the taken-up score


def test_match_refuses_points_for_someone_else_and_frames_won_later():
    m = Match()
    with pytest.raises(RuleError, match="not a player"):
        m.feed(FrameStart(1, ("Ann", "Bob"), start_points={"Cy": 3}))
    m = Match()
    m.feed(FrameStart(1, ("Ann", "Bob"), best_of=3))
    m.feed(OperatorInput(InputKind.CONCEDE))
    with pytest.raises(RuleError, match="first frame_start"):
        m.feed(FrameStart(2, ("Ann", "Bob"), best_of=3, frames_won={"Ann": 1}))


def test_default_setup_is_one_frame_of_snooker():
    s = MatchSetup().checked()
    fs = s.first_frame()
    assert (fs.frame, fs.best_of, fs.ruleset, fs.start_points, fs.frames_won) == (
        1, 1, "snooker", None, None)


@pytest.mark.parametrize(("argv", "words"), [
    (["--best-of", "4"], "odd number"),
    (["--players", "Ann", "Bob", "--handicap", "Cy=4"], "not a player"),
    (["--then", "Cy"], "--then"),
    (["--match", "none.toml"], "no such file"),
    (["--frames-won", "1-1"], "0 to 0 in a best of 1"),
])
def test_process_refuses_a_bad_setup_in_one_line_before_any_work(argv, words, tmp_path, capsys):
    from tracker.cli import main

    rc = main(["process", "--quiet", "--out", str(tmp_path / "out"), *argv])
    err = capsys.readouterr().err.strip()
    assert rc != 0 and words in err and len(err.splitlines()) == 1
    assert not (tmp_path / "out").exists()  # refused before any work


def test_process_refuses_a_setup_file_with_setup_options_and_a_setup_on_resume(tmp_path, capsys):
    from tracker.cli import main

    f = tmp_path / "m.json"
    f.write_text('{"players": ["Ann", "Bob"], "best_of": 3}')
    rc = main(["process", "--quiet", "--out", str(tmp_path / "o"), "--match", str(f),
               "--best-of", "5"])
    assert rc != 0 and "leave out --best-of" in capsys.readouterr().err
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / "run.json").write_text("{}")
    rc = main(["process", "--quiet", "--out", str(tmp_path / "o"), "--resume", "--race-to", "2"])
    assert rc != 0 and "leave out --race-to" in capsys.readouterr().err


def test_resume_of_a_live_run_is_not_refused_for_want_of_a_video_file(tmp_path):
    from tracker.cli import build_parser
    from tracker.cli.process import _resumed_options
    from tracker.resume import RunOptions

    RunOptions(video="rtsp://cam3/stream", video_bytes=0, players=["Ann", "Bob"],
               match={"players": ["Ann", "Bob"], "best_of": 3}).save(tmp_path)
    args = build_parser().parse_args(["process", "--resume", "--out", str(tmp_path)])
    opts = _resumed_options(args, tmp_path)
    assert opts.video == "rtsp://cam3/stream" and opts.match["best_of"] == 3
