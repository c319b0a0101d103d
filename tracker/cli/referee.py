"""``snooker-tracker referee``: call every shot of a match log (JSONL)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from tracker.cli.common import UserError
from tracker.records.parse import RecordError, read_log
from tracker.rules.explain import explain
from tracker.rules.match import Match
from tracker.rules.snooker import RuleError


def _example_log() -> Path:
    return Path(str(resources.files("tracker").joinpath("examples/example-frame.jsonl")))


def cmd_referee(args: argparse.Namespace) -> int:
    """Referee a match log and print one JSON decision per shot, then the scoreboard."""
    path = Path(args.log) if args.log else _example_log()
    match = Match()
    out = sys.stdout
    try:
        for line_no, rec in read_log(path):
            try:
                results = match.feed(rec)
            except RuleError as exc:
                raise RecordError(str(exc), line_no) from None
            for res in results:
                if args.explain:
                    out.write(explain(res) + "\n")
                else:
                    out.write(json.dumps(res) + "\n")
    except RecordError as exc:
        if exc.line is None:  # the file as a whole (its message names it)
            raise UserError(str(exc)) from None
        raise UserError(f"{path}: {exc}; nothing from that line on was refereed: fix the "
                        "record and run again") from None
    board = scoreboard(match)
    if args.explain:
        out.write(board["text"] + "\n")
    else:
        out.write(json.dumps({k: v for k, v in board.items() if k != "text"}) + "\n")
    return 0


def scoreboard(match: Match) -> dict[str, object]:
    """The final scoreboard: frames won, the current frame's score and state."""
    st = match.state
    score = dict(zip(st.players, st.scores, strict=True)) if st else {}
    text = "SCOREBOARD  "
    if match.players:
        a, b = match.players
        text += f"{a} {match.frames_won.get(a, 0)} ({score.get(a, 0)})  -  " \
                f"({score.get(b, 0)}) {match.frames_won.get(b, 0)} {b}"
        text += f"   best of {match.best_of}"
        if match.aggregate:
            text += f"   aggregate {a} {match.totals.get(a, 0)} - {match.totals.get(b, 0)} {b}"
    if match.match_over:
        text += f"   MATCH: {match.match_winner()}"
    return {
        "scoreboard": True,
        "frames_won": dict(match.frames_won),
        "aggregate": dict(match.totals) if match.aggregate else None,
        "frame_score": score,
        "frame_over": bool(st and st.frame_over),
        "match_over": match.match_over,
        "text": text,
    }


def add_referee_parser(add: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``referee`` subcommand's arguments (``add``: makes a subparser by name)."""
    r = add("referee", help="call every shot of a match log (JSONL)")
    r.add_argument("log", nargs="?", help="match log (JSONL); default: the bundled example frame")
    r.add_argument("--explain", action="store_true", help="print each call as a referee says it")
    r.set_defaults(func=cmd_referee)
