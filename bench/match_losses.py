"""Which calls of a synthetic-match run are wrong, and why (issue 28).

    python bench/match_losses.py [--dir out/match-video] [--run RUN]

Reads the match's truth (``DIR/match.truth.json``) and a ``process`` run's
``decisions.jsonl`` and ``match.log.jsonl`` (``RUN``, default ``DIR/run``), pairs each call
with the truth's stroke as :func:`tracker.synth.match_score.score_run` does (the nearest strike
within ``STROKE_MATCH_S``) and sorts the calls whose foul or points differ by the first cause
that explains them:

- ``striker``: the call is on the other player than the truth's (after a "play again" or a
  concession the camera was not told of, whose turn it is is wrong from then on);
- ``turn``: the right player, but an earlier call of the frame was on the wrong one, so the
  ball on and the scores he plays from are not the truth's;
- ``nomination``: the same player and foul, a different penalty, where the truth's player
  nominated a colour aloud (a foul on a red when a colour was on: the rules' 7 for an
  undeclared colour against the declared one's value);
- ``perception``: the same player, and what the camera saw (the first ball hit, the balls
  potted) differs from the truth;
- ``other``: none of these.

Prints one JSON line per wrong call and a summary by cause.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tracker.synth.match_score import STROKE_MATCH_S, read_jsonl, stroke_times  # noqa: E402


def cause(got: dict[str, Any], want: dict[str, Any], turn_lost: bool = False) -> str:
    """The first cause (module docstring) that explains a wrong call ``got`` against the
    truth's ``want`` (decision dicts); ``turn_lost``: an earlier call of the frame was on the
    wrong player."""
    if got.get("striker") != want.get("striker"):
        return "striker"
    if turn_lost:
        return "turn"
    if bool(got.get("foul")) == bool(want.get("foul")) and want.get("nominated") \
            and not got.get("nominated") and got.get("penalty") != want.get("penalty"):
        return "nomination"
    if sorted(got.get("potted") or []) != sorted(want.get("potted") or []) or \
            [f.get("code") for f in got.get("fouls") or []] != \
            [f.get("code") for f in want.get("fouls") or []]:
        return "perception"
    return "other"


def losses(truth: dict[str, Any], decisions: list[dict[str, Any]],
           times: dict[int, float]) -> list[dict[str, Any]]:
    """The wrong calls, each with its stroke, the truth's stroke, the cause and both calls'
    player, foul and points."""
    out = []
    shots = truth["shots"]
    lost_in: set[int] = set()  # frames where a call was on the wrong player
    for d in decisions:
        if d.get("shot") is None or "frame_end" in d:
            continue
        t = times.get(int(d["shot"]))
        if t is None:
            continue
        s = min(shots, key=lambda s: abs(s["t_strike"] - t))
        if abs(s["t_strike"] - t) > STROKE_MATCH_S:
            continue
        want = s["decision"]
        turn_lost = s["frame"] in lost_in
        if d.get("striker") != want.get("striker"):
            lost_in.add(s["frame"])
        if bool(d.get("foul")) == bool(want.get("foul")) and d.get("points") == want.get("points"):
            continue
        out.append({"shot": d["shot"], "truth_shot": s["shot"], "frame": s["frame"],
                    "cause": cause(d, want, turn_lost),
                    "run": {k: d.get(k) for k in ("striker", "foul", "penalty", "points")},
                    "truth": {k: want.get(k) for k in ("striker", "foul", "penalty", "points",
                                                      "nominated")}})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default=str(ROOT / "out" / "match-video"))
    ap.add_argument("--run", help="the process output folder (default DIR/run)")
    args = ap.parse_args(argv)
    folder = Path(args.dir)
    run = Path(args.run or folder / "run")
    truth = json.loads((folder / "match.truth.json").read_text())
    lost = losses(truth, read_jsonl(run / "decisions.jsonl"),
                  stroke_times(read_jsonl(run / "match.log.jsonl")))
    for row in lost:
        print(json.dumps(row))
    by: dict[str, list[int]] = {}
    for row in lost:
        by.setdefault(row["cause"], []).append(row["truth_shot"])
    print(json.dumps({"wrong": len(lost), "by_cause": by}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
