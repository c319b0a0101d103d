"""The working types of the English billiards referee: the counts kept between strokes
(:class:`BilliardsState`, in ``FrameState.game``), the stroke being called
(:class:`BilliardsStroke`) and the scoring constants (EB S3 R4, R9, R10, R15; 000 2.13).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from tracker.records.shot import Shot
from tracker.rules.state import Foul, FrameState, PendingFoul, Position
from tracker.rules.stroke import StrokeFacts

#: Every foul costs this, and no more in one stroke (EB S3 R15); so does a miss (R16).
FOUL_POINTS = 2
#: Points of each scoring stroke (EB S3 R4).
CANNON, POT_RED, POT_WHITE, IN_OFF_RED, IN_OFF_WHITE = 2, 3, 2, 3, 2
#: The referee announces the count this many strokes before a limit (TEN HAZARDS, SEVENTY
#: CANNONS, EB S3 R9, R10).
ANNOUNCE_BEFORE_LIMIT = 5
#: Cushions wholly out of baulk (``TableGeometry.cushion_label``); the long cushions' baulk
#: halves run past the baulk line, so a contact there is not known to be out of baulk.
CUSHIONS_OUT_OF_BAULK = frozenset({"top", "left_top", "right_top"})
#: 000 2.13: in each hundred of a break, the cue ball must cross the baulk line between these.
CROSSING_WINDOW = (80, 99)


@dataclass(frozen=True)
class BilliardsState:
    """What English billiards keeps between strokes (``FrameState.game``).

    Attributes:
        cue_of: each side's cue ball.
        hazards, cannons: consecutive hazard-only and cannon-only strokes in this break.
        red_spot: the spot the red was placed on by hand and not touched since, else None.
        red_spot_pots: consecutive pots of the red alone from the Spot or Pyramid spot in
            this break.
        own_off: cue balls off the table through their owner's own stroke (EB S3 R10).
        touching_offer: 000 2.10: the cue ball touches a ball; the balls are spotted if the
            players agree (an ``option`` input ``spot_balls``).
        crossed: 000 2.13: the cue ball crossed the baulk line in this hundred of the break.
    """

    cue_of: tuple[str, str]
    hazards: int = 0
    cannons: int = 0
    red_spot: str | None = "spot"
    red_spot_pots: int = 0
    own_off: frozenset[str] = frozenset()
    touching_offer: bool = False
    crossed: bool = False

    def reset_break(self) -> BilliardsState:
        """The counts that last one break start again."""
        return replace(self, hazards=0, cannons=0, red_spot_pots=0, crossed=False)


@dataclass
class BilliardsStroke:
    """One billiards stroke being called (internal working record)."""

    st: FrameState
    g: BilliardsState
    shot: Shot
    cue: str
    other: str
    facts: StrokeFacts
    pre: dict[str, Position] | None
    notes: list[str]
    review: list[str]
    fouls: list[Foul] = field(default_factory=list)
    scoring: list[tuple[str, int]] = field(default_factory=list)
    miss: bool = False
    out_of_turn: bool = False


def pending_foul(st: FrameState, options: tuple[str, ...]) -> PendingFoul:
    """The choice left to the incoming player after a foul (no snapshot, no free ball)."""
    return PendingFoul(st.striker, options, None, False, st.turn, st.resume)
