"""People's words: reds, pockets, cushions, and the calls and review notes a person reads."""

from __future__ import annotations

import json
from pathlib import Path

from tracker.cli import main
from tracker.rules.explain import explain
from tracker.words import balls_words, cushion_words, pocket_words, say, the_ball

ROOT = Path(__file__).resolve().parents[1]


def test_reds_are_a_red_and_colours_by_name():
    assert the_ball("red_07") == "a red" and the_ball("blue") == "the blue"
    assert the_ball("white") == "the cue ball"
    assert balls_words(["red_01", "pink", "red_09", "blue"]) == "the pink, the blue and two reds"
    assert balls_words(["red_03"]) == "a red"


def test_pockets_as_a_player_names_them_from_the_baulk_end():
    assert pocket_words("baulk_left") == "bottom left"
    assert pocket_words("middle_right") == "right middle"
    assert pocket_words("top_right") == "top right"
    assert cushion_words("left_top") == "left cushion (top half)"
    assert cushion_words("baulk") == "baulk cushion"


def test_say_replaces_ids_with_words_and_keeps_the_rest():
    assert say("clear path to the red_01: foul and a miss") == "clear path to a red: foul and a miss"
    assert say("potted in top_left") == "potted in top left"
    assert say("the reds and the redder red") == "the reds and the redder red"


def test_explained_calls_never_name_a_red_by_its_slot(capsys):
    assert main(["referee", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "red_" not in out and "a red" in out


def test_a_json_decision_keeps_the_machine_ids(capsys):
    assert main(["referee"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    potted = [b for d in lines for b in d.get("potted", [])]
    assert any(b.startswith("red_") for b in potted)


def test_simultaneous_hit_note_reads_as_a_referee_would_say_it():
    note = ("the cue ball seemed to hit the blue and a red at the same moment (1.3 ms apart): "
            "check which it hit first")
    dec = {"shot": 1, "striker": "Ann", "foul": False, "fouls": [], "miss": False, "penalty": 0,
           "points": {"Ann": 0, "Bob": 0},
           "potted": [], "respots": [], "free_ball": False, "miss_warning": False, "notes": [],
           "frame_over": False, "options": [], "next_striker": "Bob", "ball_on": "red",
           "score": {"Ann": 0, "Bob": 0}, "needs_review": [note], "break": 0}
    text = explain(dec)
    assert "NEEDS REVIEW: the cue ball seemed to hit the blue and a red" in text


def test_notes_that_name_the_programs_workings_read_as_a_referee_says_them(tmp_path, capsys):
    """Stroke 4 of the sample without its nomination: the engine takes the blue (the first
    ball hit) as nominated and notes it in its own terms; the call says it in words."""
    lines = []
    for raw in (ROOT / "sample_videos" / "overhead_frame.log.jsonl").read_text().splitlines():
        if raw.startswith("{"):
            d = json.loads(raw)
            d.pop("nomination", None)
            lines.append(json.dumps(d))
    log = tmp_path / "no_nomination.log.jsonl"
    log.write_text("\n".join(lines) + "\n")
    assert main(["referee", str(log)]) == 0
    notes = [n for x in capsys.readouterr().out.splitlines() for n in json.loads(x).get("notes", [])]
    assert any("(H1 default)" in n for n in notes)  # the JSON keeps the engine's note
    assert main(["referee", "--explain", str(log)]) == 0
    out = capsys.readouterr().out
    assert "the blue taken as the colour nominated (the first ball hit)" in out
    assert "After the foul: Bob is asked to play again" in out
    for code in ("H1", "default)", "inferred from the first contact", "[option]", "_"):
        assert code not in out, code


def test_say_drops_digest_references_and_machine_names_but_not_file_names():
    assert say("not a stroke (H20): the tip touched it") == "not a stroke: the tip touched it"
    assert say("state changed (C40): check (C17/C38)") == "state changed: check"
    assert say("no lip_drop of it is recorded") == "no lip drop of it is recorded"
    assert say("see overhead_frame.mp4 and out/run_1") == "see overhead_frame.mp4 and out/run_1"
