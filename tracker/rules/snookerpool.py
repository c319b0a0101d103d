"""Snookerpool (A. M. DeWitt, 2022; ``shared/rules/sources/004_*.txt``), complete as written.

Played on a pool table with pool balls: solids ``1``..``8`` worth 1 each, stripes ``9``..``15``
worth 2..8. Phase 1 alternates "any solid" and "one stripe of choice" (chosen by nomination
or by first contact); phase 2 starts after the stroke that follows the last solid (or at once
if a foul leaves no solid) and plays the stripes in ascending order. There is no free ball,
no miss, no jump-shot foul and no play-again: after any foul the incoming player has the cue
ball in hand anywhere on the table. Penalty: the highest of 4, the value of the ball on and
the highest value of the balls involved; 8 for a foul after a solid before a stripe is
nominated.

It is the snooker referee with another ball set and these differences: solids play the part
of the reds (``Phase.RED``), a stripe of choice that of the colour after a red
(``Phase.COLOUR_CHOICE``), the lowest stripe that of the colour on (``Phase.SEQ``), the
re-spotted 15 that of the re-spotted black (``Phase.RESPOTTED_BLACK``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import ClassVar

from calibration.table import TableGeometry
from tracker.records.shot import OperatorInput
from tracker.rules.ballset import BallSet, snookerpool_balls
from tracker.rules.fouls import FoulKind, Group, penalty
from tracker.rules.inputs import Handled
from tracker.rules.options import RuleOptions
from tracker.rules.snooker import SnookerRules
from tracker.rules.state import FrameState, MissState, Phase, Position

WHITE = "white"
SOLIDS = tuple(str(i) for i in range(1, 9))
STRIPES = tuple(str(i) for i in range(9, 16))
VALUES = {**{s: 1 for s in SOLIDS}, **{str(i): i - 7 for i in range(9, 16)}, WHITE: 0}
#: A 9-ft pool table's playing area and balls, mm (WPA: 100 x 50 in, 2 1/4 in balls).
POOL_TABLE = TableGeometry(length=2540.0, width=1270.0, ball_diameter=57.15, baulk_line=635.0,
                           d_radius=0.0, black_from_top=635.0, corner_mouth=118.0, middle_mouth=130.0)
#: Penalty for a foul after a solid before a stripe is nominated (004 Penalty Values).
FOUL_BEFORE_NOMINATION = 8
#: The highest penalty: the 15's value (004).
MAX_PENALTY = 8


def stripe_spots(t: TableGeometry) -> dict[str, Position]:
    """The stripes' own spots (004 Setup), x seen from the head rail (y = 0)."""
    w, length = t.width, t.length
    return {
        "9": (3 * w / 4, length / 4),
        "10": (w / 4, length / 4),
        "11": (w / 2, length / 4),
        "12": (w / 2, length / 2),
        "13": (w / 2, 5 * length / 8),
        "14": (w / 2, 3 * length / 4),
        "15": (w / 2, 7 * length / 8),
    }


@dataclass(frozen=True)
class SnookerpoolRules(SnookerRules):
    """Snookerpool with 8 (standard), 6 (hexagon) or 3 (mini-diamond) solids
    (``n_reds`` = the number of solids)."""

    name: str = "snookerpool"
    n_reds: int = 8
    table: TableGeometry = POOL_TABLE
    options: RuleOptions = field(default_factory=RuleOptions)

    free_ball_rule: ClassVar[bool] = False
    miss_rule: ClassVar[bool] = False
    jump_rule: ClassVar[bool] = False
    non_striker_penalty: ClassVar[bool] = False
    deduct_unspotted: ClassVar[bool] = False
    foul_options: ClassVar[tuple[str, ...]] = ("ball_in_hand",)
    in_hand_after_foul: ClassVar[str | None] = "table"
    break_area: ClassVar[str] = "kitchen"
    tip_on_ball_in_hand_foul: ClassVar[bool] = True
    last_ball: ClassVar[str] = "15"
    phase_labels: ClassVar[dict[Phase, str]] = {Phase.RED: "solid", Phase.COLOUR_CHOICE: "stripe"}
    end_reasons: ClassVar[tuple[str, str]] = ("last_ball", "last_ball")
    tie_note: ClassVar[str] = ("scores level: a lag decides who plays; the 15 is spotted and the cue "
                               "ball placed in the kitchen; play on until the scores differ")
    tie_area: ClassVar[str] = "kitchen"
    concede_striker_only: ClassVar[bool] = False
    claim_rule: ClassVar[bool] = False
    forfeit_scoring: ClassVar[bool] = False
    OPTIONS: ClassVar[frozenset[str]] = frozenset(
        ["own_spots_first", "hanging_ball_s", "touching_gap_mm", "in_hand_tolerance_mm",
         "simultaneous_s", "review_confidence"])

    @property
    def n_solids(self) -> int:
        """Solids racked (8, 6 or 3)."""
        return self.n_reds

    @cached_property
    def balls(self) -> BallSet:
        """White, the solids racked and the seven stripes."""
        return snookerpool_balls(self.n_reds)

    def spots(self) -> Mapping[str, Position]:
        """The stripes' own spots."""
        return stripe_spots(self.table)

    def spot_priority(self) -> tuple[str, ...]:
        """Stripe spots from the highest value (the 15's) down."""
        return tuple(reversed(STRIPES))

    def solids_in_play(self) -> tuple[str, ...]:
        """Solid ids racked for this variant."""
        return SOLIDS[: self.n_reds]

    def solids(self, on: frozenset[str]) -> list[str]:
        """Solids on the table."""
        return [b for b in SOLIDS if b in on]

    def setup_positions(self) -> dict[str, Position]:
        """Solids in a diamond around the 14 on the foot spot; stripes on their spots."""
        t = self.table
        spots = stripe_spots(t)
        d = t.ball_diameter + 0.2
        dy = d * math.sin(math.radians(60))
        fx, fy = spots["14"]
        # Diamond rows from the head side (k=-2) to the foot side (k=2): 1,2,3,2,1 balls.
        slots: list[tuple[int, float, float]] = []
        for k, n in ((-2, 1), (-1, 2), (0, 3), (1, 2), (2, 1)):
            for j in range(n):
                x = fx + (j - (n - 1) / 2) * d
                if not (k == 0 and j == 1):
                    slots.append((k, x, fy + k * dy))
        # slots: 8 places; reduced set-ups drop the middle row's ends, then the foot-side rows.
        keep = list(slots)
        if self.n_reds <= 6:
            keep = [s for s in keep if s[0] != 0]
        if self.n_reds <= 3:
            keep = [s for s in keep if s[0] < 0]
        pos = {sid: (x, y) for sid, (_, x, y) in zip(self.solids_in_play(), keep, strict=False)}
        pos.update(spots)
        return pos

    def setup_check(self, positions: Mapping[str, Position]) -> list[str]:
        """No set-up check for Snookerpool yet."""
        return []

    # ------------------------------------------------------------------ the differences
    def _penalty_of(self, kind: FoulKind, v_on: int | None, concerned: tuple[int, ...]) -> int:
        """004 Penalty Values: every foul the highest of 4, the ball on and every ball
        involved (no 7-point fouls as in snooker); 8 before a stripe is nominated after a
        solid."""
        return penalty(Group.B, v_on, concerned, maximum=MAX_PENALTY,
                       undetermined=FOUL_BEFORE_NOMINATION)

    def _rule_of(self, kind: FoulKind) -> str:
        return "Snookerpool: Fouls"

    def _undetermined_note(self, code: str) -> str:
        return "foul after a solid before a stripe was nominated: 8 points"

    def _inferred_note(self, ball: str) -> str:
        return f"stripe {ball} chosen by first contact"

    def _options_after_foul(self, miss: bool) -> tuple[str, ...]:
        return self.foul_options

    def _after_foul(self, s, t):  # type: ignore[no-untyped-def]
        s.notes.append("cue ball in hand anywhere on the table for the incoming player")
        return super()._after_foul(s, t)

    def _input_option(self, st: FrameState, inp: OperatorInput) -> Handled:
        """No play-again or replacement: the incoming player plays with the ball in hand."""
        if st.pending is not None and inp.choice in ("play", "ball_in_hand"):
            nxt = replace(st, pending=None, miss=MissState())
            return self._accept(inp, nxt, "cue ball in hand anywhere")
        if st.pending is None:
            return self._refuse(inp, st, "no foul is pending: option ignored")
        return self._refuse(inp, st, "Snookerpool has no play-again or replacement after a foul")
