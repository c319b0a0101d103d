"""The synthetic match bench's keyed-in inputs (bench/match_video.py :func:`keyed_log`): what the
players said and chose reaches ``process`` tied to its stroke, and nothing of the outcome."""

import json

from bench.match_video import keyed_log
from tracker.pipeline import inputs_from_log, spoken_from_log
from tracker.records.shot import FrameStart, InputKind

START = {"type": "frame_start", "version": 1, "frame": 1, "players": ["Ann", "Bob"],
         "breaker": "Ann", "ruleset": "snooker-6-reds", "best_of": 3}


def _shot(n, **said):
    return {"type": "shot", "version": 1, "shot": n, "t_start": float(n), "t_end": n + 0.5,
            "positions_before": {"white": [1000.0, 700.0]}, "positions_after": {},
            "events": [{"type": "strike", "t": float(n), "ball": "white"}], **said}


def test_keyed_log_carries_choices_not_outcome(tmp_path):
    (tmp_path / "match.setup.jsonl").write_text("// set-up\n" + json.dumps(START) + "\n")
    log = [START, _shot(1), _shot(2, nomination="pink"),
           {"type": "input", "version": 1, "input": "option", "choice": "play_again"}, _shot(3),
           {"type": "input", "version": 1, "input": "concede", "player": "Ann"},
           {**START, "frame": 2, "breaker": "Bob"}, _shot(4)]
    (tmp_path / "match.log.jsonl").write_text("\n".join(json.dumps(r) for r in log) + "\n")
    path = keyed_log(tmp_path)
    inputs = inputs_from_log(path)
    starts = [n for n, x in inputs if isinstance(x, FrameStart)]
    options = [(n, x.kind) for n, x in inputs if not isinstance(x, FrameStart)]
    assert starts == [1]  # the set-up's frame only: the run has to find frame 2 itself
    # the choice before stroke 3, the concession before stroke 4 (the next frame's first)
    assert options == [(3, InputKind.OPTION), (4, InputKind.CONCEDE)]
    assert spoken_from_log(path) == {2: {"nomination": "pink"}}
    recs = [json.loads(ln) for ln in path.read_text().splitlines()[1:]]
    assert all(not r.get("events") and not r.get("positions_before")
               for r in recs if r["type"] == "shot")
