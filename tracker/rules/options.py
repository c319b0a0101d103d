"""Named rule options: the readings marked [interpretation] in ``RULES-DIGEST.md`` section 4,
and the thresholds the referee uses. Each has a documented default; a frame_start record may
override any of them in its ``options`` object.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

#: The values a threshold option may take (a frame_start outside them is an error): penalties
#: are 4 to 7 (S3 R10); a limit on consecutive hazards or cannons allows at least one.
RANGES: dict[str, tuple[float, float]] = {
    "hanging_ball_s": (0.0, 60.0),
    "undetermined_on_penalty": (4, 7),
    "touching_gap_mm": (0.0, 10.0),
    "in_hand_tolerance_mm": (0.0, 50.0),
    "simultaneous_s": (0.0, 0.1),
    "review_confidence": (0.0, 1.0),
    "hazard_limit": (1, 1000),
    "cannon_limit": (1, 1000),
}


@dataclass(frozen=True)
class RuleOptions:
    """Rule readings and thresholds.

    Attributes:
        free_ball_value: D18. ``"ball_on"`` (default): in a penalty the nominated free ball
            counts at the value of the ball on (R12(a)(ii)); ``"own"``: at its own value.
        free_ball_snooker_after_pot: D19. False (default): the snookering-behind-the-free-ball
            foul is tested only when no ball was legally potted.
        own_spots_first: D21. True (default): colours whose own spot is free are placed first,
            then the rest in descending value.
        hanging_ball_s: D36 / C42. A ball that falls from the lip within this many seconds of
            stopping counts as potted in the stroke (default 5 s).
        undetermined_on_penalty: C04. Penalty when the ball on is undetermined after a red
            (R10(d)(vi)); default 7, flagged for the operator.
        touching_gap_mm: C37. Gap at or below which the cue ball is touching (default 0.5 mm).
        in_hand_tolerance_mm: C02. Margin outside the D lines forgiven for measurement error
            (default 2 mm: a centre 1 cm outside is still a foul).
        simultaneous_s: C10. First contacts within this time are simultaneous (default 2 ms).
        review_confidence: events whose confidence is below this are marked "needs review"
            (default 0.8).
        operator_may_cancel_auto_miss: the referee is the sole judge (S5 R1(a)); when True
            (default) an operator ``miss: false`` cancels an automatic miss, with a note.
        amateur_miss_2004: the 2004 amateur miss rule (000): after a third foul and a miss
            with a full ball available the frame is not awarded; the next player may have the
            offender play on, play on himself, or play from in-hand (default False: 003).
        four_snookers: the "four snookers" rule (000 S3 R4(d)*): at the end of a turn with
            only colours left and the cue ball on the table, a player needing four snookers
            or more (to draw level) loses the frame; off in the last frame when the frames are
            level (default False: 003).
        hazard_limit: English billiards: consecutive hazards (pots and in-offs without a
            cannon) allowed in a break (15, 002 S3 R11; older editions had 25).
        cannon_limit: English billiards: consecutive cannons without a hazard (75, S3 R10).
        game_points: English billiards: the game ends when a player reaches this many points
            (S2 R1, S3 R5(d)); None (default) = a game to a time limit, ended by a ``time``
            input.
        breaker_ball: English billiards: the cue ball of the player who breaks (``white``,
            default; or the other: ``spot``, ``yellow`` in the 000 set); the other player
            has the other one (EB S3 R2: the winner of the stringing chooses).
    """

    free_ball_value: str = "ball_on"
    free_ball_snooker_after_pot: bool = False
    own_spots_first: bool = True
    hanging_ball_s: float = 5.0
    undetermined_on_penalty: int = 7
    touching_gap_mm: float = 0.5
    in_hand_tolerance_mm: float = 2.0
    simultaneous_s: float = 0.002
    review_confidence: float = 0.8
    operator_may_cancel_auto_miss: bool = True
    amateur_miss_2004: bool = False
    four_snookers: bool = False
    hazard_limit: int = 15
    cannon_limit: int = 75
    game_points: int | None = None
    breaker_ball: str = "white"

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> RuleOptions:
        """Build from a frame_start ``options`` object; unknown names are an error."""
        if not data:
            return cls()
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"unknown rule option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        if "free_ball_value" in data and data["free_ball_value"] not in ("ball_on", "own"):
            raise ValueError("free_ball_value must be 'ball_on' or 'own'")
        if "breaker_ball" in data and data["breaker_ball"] not in ("white", "spot", "yellow"):
            raise ValueError("breaker_ball must be 'white', 'spot' or 'yellow'")
        for f in fields(cls):
            if f.name in data and not _type_ok(data[f.name], getattr(cls(), f.name), f.name):
                raise ValueError(f"rule option {f.name} has the wrong type "
                                 f"({type(data[f.name]).__name__}: {data[f.name]!r})")
        for name, (lo, hi) in RANGES.items():
            if name in data and not lo <= data[name] <= hi:
                raise ValueError(f"rule option {name} is {data[name]!r}; it must be from {lo} to {hi}")
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict."""
        return asdict(self)


def _type_ok(value: Any, default: Any, name: str) -> bool:
    """A frame_start option value is of its option's kind (numbers for thresholds, true/false
    for flags; ``game_points`` a whole number or null)."""
    if name == "game_points":
        return value is None or (isinstance(value, int) and not isinstance(value, bool) and value > 0)
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, type(default))
