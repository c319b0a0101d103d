"""``process``'s match set-up options (docs/OUTPUTS.md, "A table's session") and the taking up
of a live run's match when its process is started again (``--resume`` on a camera or stream)."""

from __future__ import annotations

import argparse
import logging
import os
from pathlib import Path

from tracker.cli.common import UserError, one_line

log = logging.getLogger("snooker-tracker")


#: ``process`` options that set up the match (docs/OUTPUTS.md, "A table's session").
SETUP_OPTIONS = ("match", "best_of", "race_to", "ruleset", "handicap", "breaker", "frames_won",
                 "score", "then", "again")


def match_setup(args: argparse.Namespace, players: tuple[str, str]):  # noqa: ANN202
    """The match set-up the options give (:class:`tracker.session_setup.MatchSetup`; None: no
    set-up option given), every bad value one line."""
    from tracker.session_setup import SetupError, setup_from_file, setup_from_options

    given = given_options(args, SETUP_OPTIONS)
    if not given:
        return None
    try:
        if args.match:
            others = [k for k in given if k != "match"]
            if others:
                raise SetupError(f"--match {args.match} sets up the match: leave out "
                                 f"--{others[0].replace('_', '-')} (put it in the file)")
            setup = setup_from_file(args.match)
            if args.players and tuple(setup.players) != players:
                raise SetupError(f"--players {' '.join(players)} differ from the players of "
                                 f"--match {args.match} ({', '.join(setup.players)}); leave one out")
            return setup
        return setup_from_options(players, args.best_of, args.race_to, args.ruleset,
                                  args.handicap or (), args.breaker, args.frames_won, args.score,
                                  args.then or (), args.again)
    except SetupError as exc:
        raise UserError(one_line(exc)) from None


def given_options(args: argparse.Namespace, names) -> list[str]:  # noqa: ANN001
    """Which of the options ``names`` were given on the command line: a value, even 0 or an
    empty text (``--best-of 0`` is given, and refused, not taken for no value)."""
    return [k for k in names
            if (v := getattr(args, k, None)) is not None and v is not False and v != []]


def add_setup_arguments(pr: argparse.ArgumentParser) -> None:
    """The match set-up options (docs/OUTPUTS.md, "A table's session")."""
    g = pr.add_argument_group("match set-up", "who plays, how long and which game; without "
                              "them: the --inputs log's frame start, else one frame")
    g.add_argument("--match", metavar="FILE", help="the match set-up in a file (JSON, or TOML "
                   "ending .toml): players, best_of or race_to, ruleset, handicap, breaker, "
                   "frames_won, score, then (the next matches), again")
    length = g.add_mutually_exclusive_group()
    length.add_argument("--best-of", type=int, metavar="N", help="frames in the match (odd)")
    length.add_argument("--race-to", type=int, metavar="N", help="frames needed to win")
    g.add_argument("--ruleset", metavar="NAME", help="the game: snooker (15 reds, default), "
                   "snooker-10-reds, snooker-6-reds, eight-ball, nine-ball (pool: a 9 ft pool "
                   "table unless --table-size), ... (tracker/rules/registry.py)")
    g.add_argument("--handicap", action="append", metavar="NAME=POINTS",
                   help="a player's start points each frame (give once per player)")
    g.add_argument("--breaker", metavar="NAME", help="who breaks the first frame (default: the "
                   "first player); then the break alternates")
    g.add_argument("--frames-won", metavar="N-M", help="a match taken up in progress: frames "
                   "each player has won so far")
    g.add_argument("--score", metavar="N-M", help="a frame taken up in progress: its scores")
    g.add_argument("--then", action="append", metavar="\"C,D best-of 5\"",
                   help="the next match at this table (give once per match, in order): the "
                        "players, best-of N or race-to N, a ruleset's name")
    g.add_argument("--again", action="store_true", help="when the last match is over, the same "
                   "players play another")
    g.add_argument("--wait", action="store_true", help="start no frame until the balls are seen "
                   "racked, and after the last match keep watching for the next rack (a hall "
                   "table with nobody at the keyboard)")


def take_up_live(point, setup, opts, out: Path):  # noqa: ANN001, ANN201
    """``--resume`` on a live source: the stream cannot be seen again from its start, so the
    match is taken up from what the stopped run called (:func:`tracker.session.take_up`):
    frames won, the frame's scores and breaker, who is at the table, the matches still queued
    (those set or queued on the console too). The run goes on as a new run (the store keeps the stopped one beside it; its JSONL files
    are set aside as ``*.before-restart-N.jsonl``); between frames it waits for the rack.
    Returns the set-up and the inputs (who is at the table) to go on with."""
    from tracker.records.parse import record_from_dict
    from tracker.records.shot import InputKind, OperatorInput
    from tracker.rules.errors import RuleError
    from tracker.session import take_up

    try:
        taken = take_up([record_from_dict(r.data) for r in point.records], setup,
                        tuple(getattr(point, "setups", ())))
    except RuleError as exc:
        raise UserError(f"--resume: the stopped run's calls do not replay ({one_line(exc)}); "
                        "start again with --force") from None
    if taken.setup is None and not opts.wait:
        raise UserError(f"--resume: the matches of the run in {out} are over: nothing to take "
                        "up; start a new run with --force")
    opts.wait = opts.wait or taken.between_frames
    inputs = None
    if taken.striker is not None and taken.setup is not None \
            and taken.striker != taken.setup.breaker:
        inputs = [(1, OperatorInput(InputKind.STRIKER, player=taken.striker,
                                    note="taken up after the table's process restarted"))]
    _set_aside(out)
    opts.match = taken.setup.to_dict() if taken.setup is not None else None
    opts.pid = os.getpid()
    opts.save(out)  # a second restart takes up from here, even before the first new call
    log.info("taking up the match in %s after a restart: %s", out,
             f"frame {taken.frame}" if taken.frame else "no frame called yet")
    return taken.setup, inputs


def _set_aside(out: Path) -> None:
    """The stopped run's JSONL files kept under another name (the new run writes its own)."""
    from tracker.outputs.jsonl import DECISIONS_NAME, LOG_NAME

    n = 1 + sum(1 for _ in out.glob("match.log.before-restart-*.jsonl"))
    for name in (LOG_NAME, DECISIONS_NAME):
        p = out / name
        if p.exists():
            p.replace(out / name.replace(".jsonl", f".before-restart-{n}.jsonl"))
