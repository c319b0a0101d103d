"""The rulesets the referee knows, by name.

A new game is a small addition: write its rules class (``new_frame``, ``decide``,
``apply_input``, ``points_remaining``, ``with_options``, ``balls``, ``OPTIONS``) and register
a factory here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from calibration.table import TableGeometry
from tracker.records.shot import OperatorInput, Shot
from tracker.rules.ballset import BallSet
from tracker.rules.options import RuleOptions
from tracker.rules.state import Decision, FrameState, Position


class Ruleset(Protocol):
    """What the match driver needs from a game's rules."""

    name: str
    #: The rule options (``RuleOptions`` names) this game reads.
    OPTIONS: frozenset[str]

    @property
    def balls(self) -> BallSet:
        """The balls of the game: ids, values, and what each looks like to a camera."""
        ...

    def setup_positions(self) -> dict[str, Position]: ...

    def new_frame(self, players: tuple[str, str], breaker: int = 0,
                  positions: dict[str, Position] | None = None, frame: int = 1) -> FrameState: ...

    def decide(self, st: FrameState, shot: Shot) -> tuple[Decision, FrameState]: ...

    def apply_input(self, st: FrameState, inp: OperatorInput) -> tuple[Any, FrameState]: ...

    def points_remaining(self, st: FrameState) -> int: ...

    def with_options(self, options: RuleOptions, table: TableGeometry | None = None) -> Ruleset: ...


def _snooker() -> Ruleset:
    from tracker.rules.snooker import SnookerRules

    return SnookerRules()


def _reduced(n: int) -> Callable[[], Ruleset]:
    def make() -> Ruleset:
        from tracker.rules.snooker import SnookerRules

        # 002 annex "any number of reds": at most five fouls-and-misses (then the cue ball may
        # be placed anywhere), never snooker the opponent behind a nominated colour.
        return SnookerRules(name=f"snooker-{n}-reds", n_reds=n, miss_limit=5,
                            after_limit="ball_anywhere", no_snooker_behind_nominated=True)

    return make


def _snookerpool(n_solids: int) -> Callable[[], Ruleset]:
    def make() -> Ruleset:
        from tracker.rules.snookerpool import SnookerpoolRules

        name = "snookerpool" if n_solids == 8 else f"snookerpool-{n_solids}-solids"
        return SnookerpoolRules(name=name, n_reds=n_solids)

    return make


def _billiards(name: str, second: str, variant_000: bool) -> Callable[[], Ruleset]:
    def make() -> Ruleset:
        from tracker.rules.billiards import EnglishBilliardsRules

        # 000 "Snooker - 1 red": a miss is a foul, touching balls spotted only by agreement,
        # the baulk line crossed between 80 and 99 (D37, D38).
        return EnglishBilliardsRules(name=name, second_ball=second, miss_is_foul=variant_000,
                                     touching_by_agreement=variant_000, baulk_crossing=variant_000,
                                     fouls_rule="000 Snooker - 1 red 2.11" if variant_000
                                     else "EB S3 R14")

    return make


def _eight_ball() -> Ruleset:
    from tracker.rules.eightball import EightBallRules

    return EightBallRules()


def _nine_ball() -> Ruleset:
    from tracker.rules.nineball import NineBallRules

    return NineBallRules()


RULESETS: dict[str, Callable[[], Ruleset]] = {
    "snooker": _snooker,
    "snooker-6-reds": _reduced(6),
    "snooker-10-reds": _reduced(10),
    "snookerpool": _snookerpool(8),
    "snookerpool-6-solids": _snookerpool(6),
    "snookerpool-3-solids": _snookerpool(3),
    "english-billiards": _billiards("english-billiards", "spot", False),
    "snooker-1-red": _billiards("snooker-1-red", "yellow", True),
    "eight-ball": _eight_ball,
    "nine-ball": _nine_ball,
}


def get_ruleset(name: str, options: dict[str, Any] | None = None,
                table: TableGeometry | None = None) -> Ruleset:
    """The ruleset registered as ``name``, with rule options and table size applied.

    Raises:
        ValueError: unknown name or option, naming the known ones.
    """
    if name not in RULESETS:
        raise ValueError(f"unknown ruleset {name!r}; known: {', '.join(sorted(RULESETS))}")
    rules = RULESETS[name]()
    opts = RuleOptions.from_dict(options)
    foreign = sorted(set(options or {}) - rules.OPTIONS)
    if foreign:
        raise ValueError(f"rule option(s) {', '.join(foreign)} do not apply to {name}; it reads: "
                         f"{', '.join(sorted(rules.OPTIONS))}")
    return rules.with_options(opts, table)
