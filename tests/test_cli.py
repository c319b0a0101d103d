"""The ``snooker-tracker referee`` command: output fields, errors a user can act on."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tracker.cli import main

REQUIRED = {"shot", "foul", "fouls", "penalty", "points", "score", "break", "next_striker",
            "ball_on", "free_ball", "miss", "options", "respots", "frame_over", "winner"}


def run(args, capsys):
    rc = main(args)
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_referee_on_the_bundled_example_prints_decisions_and_scoreboard(capsys):
    rc, out, _ = run(["referee"], capsys)
    assert rc == 0
    lines = [json.loads(x) for x in out.splitlines()]
    shots = [x for x in lines if "shot" in x and "foul" in x]
    assert len(shots) == 9
    for d in shots:
        assert set(d) >= REQUIRED
        for f in d["fouls"]:
            assert {"code", "rule", "message", "penalty"} <= set(f)
    assert lines[-1]["scoreboard"] and lines[-1]["frames_won"] == {"Ronnie": 1, "Judd": 0}
    assert shots[4]["foul"] and shots[4]["penalty"] == 6  # in-off after the nominated pink


def test_explain_speaks_like_a_referee(capsys):
    rc, out, _ = run(["referee", "--explain"], capsys)
    assert rc == 0
    assert "FOUL, 6 away" in out and "SCOREBOARD" in out


def write(tmp_path, lines):
    p = tmp_path / "log.jsonl"
    p.write_text("\n".join(json.dumps(x) if not isinstance(x, str) else x for x in lines))
    return p


START = {"type": "frame_start", "frame": 1, "players": ["A", "B"]}


@pytest.mark.parametrize(
    "bad,fragment",
    [
        ("{not json", "line 2: not valid JSON"),
        ({"type": "shot", "shot": 1}, "line 2: does not match the shot-record schema"),
        ({"type": "shot", "shot": 1, "events": [{"type": "pot", "ball": "purple"}]}, "line 2"),
        ({"type": "shot", "shot": 1, "events": [{"type": "strike", "ball": "white", "t": 1},
                                                 {"type": "pot", "ball": "red_16", "t": 2,
                                                  "pocket": "top_left"}]}, "red_16"),
        ({"type": "shot", "shot": 1, "events": [{"type": "strike", "ball": "white", "t": 2},
                                                 {"type": "contact", "balls": ["white", "red_01"],
                                                  "t": 1}]}, "not in time order"),
    ],
)
def test_malformed_lines_name_the_line_and_the_problem(tmp_path, capsys, bad, fragment):
    p = write(tmp_path, [START, bad])
    rc, _, err = run(["referee", str(p)], capsys)
    assert rc == 2 and fragment in err and "Traceback" not in err


def test_potting_a_ball_that_is_not_on_the_table_is_refused(tmp_path, capsys):
    pot = lambda n: {"type": "shot", "shot": n, "events": [  # noqa: E731
        {"type": "strike", "ball": "white", "t": 0}, {"type": "contact", "balls": ["white", "red_01"], "t": 1},
        {"type": "pot", "ball": "red_01", "t": 2, "pocket": "top_left"}]}
    p = write(tmp_path, [START, pot(1), {"type": "shot", "shot": 2, "nomination": "blue", "events": [
        {"type": "strike", "ball": "white", "t": 0}, {"type": "contact", "balls": ["white", "blue"], "t": 1}]},
        pot(3)])
    rc, out, err = run(["referee", str(p)], capsys)
    assert rc == 2 and "line 4" in err and "red_01, which is not on the table" in err
    assert len(out.splitlines()) == 3  # what was refereed before the bad line is kept


def test_missing_file_is_a_clear_error(tmp_path, capsys):
    rc, _, err = run(["referee", str(tmp_path / "nope.jsonl")], capsys)
    assert rc == 2 and "no such file" in err


def test_console_script_runs_as_a_process():
    out = subprocess.run([sys.executable, "-m", "tracker.cli", "referee", "--explain"],
                         capture_output=True, text=True, check=True)
    assert "Frame 1 to Ronnie" in out.stdout


def test_scoreboard_names_the_aggregate_winner_not_the_frames_leader(tmp_path, capsys):
    def pot(n, ball):
        return {"type": "shot", "shot": n, "events": [
            {"type": "strike", "t": 0, "ball": "white"},
            {"type": "contact", "t": 0.5, "balls": ["white", ball]},
            {"type": "pot", "t": 1, "ball": ball, "pocket": "top_left"}]}

    spots = {"blue": [889.0, 1784.5], "pink": [889.0, 2676.75], "black": [889.0, 3245.0]}
    black = {"black": spots["black"]}
    lines = [
        {"type": "frame_start", "frame": 1, "players": ["A", "B"], "breaker": "A", "best_of": 3,
         "aggregate": True, "positions": spots},
        pot(1, "blue"), pot(2, "pink"), pot(3, "black"),  # A 18-0
        {"type": "frame_start", "frame": 2, "players": ["A", "B"], "positions": black},
        pot(4, "black"),  # B 0-7
        {"type": "frame_start", "frame": 3, "players": ["A", "B"], "positions": black},
        {"type": "shot", "shot": 5, "events": [{"type": "strike", "t": 0, "ball": "white"}]},
    ]  # A misses the black: 0-7
    log = tmp_path / "aggregate.jsonl"
    log.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    rc, out, _ = run(["referee", str(log)], capsys)
    board = json.loads(out.splitlines()[-1])
    assert rc == 0 and board["frames_won"] == {"A": 1, "B": 2}
    assert board["aggregate"] == {"A": 18, "B": 14} and board["match_over"]
    rc, out, _ = run(["referee", "--explain", str(log)], capsys)
    assert "MATCH: A" in out and "aggregate A 18 - 14 B" in out
