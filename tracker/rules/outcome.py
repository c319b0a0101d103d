"""The one place where a call becomes a :class:`Decision` (strokes) or an
:class:`InputResult` (operator inputs), for every game.

A game's rules work out an :class:`Outcome` (what was called) and the next
:class:`FrameState`; :func:`build_decision` reads both and fills in everything that follows
from the state alone: who plays next, the ball on, points remaining, touching ball, the frame's
end. The games never build a ``Decision`` themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from tracker.rules.state import Decision, Foul, FrameState, Position, Respot


class Referee(Protocol):
    """What the builder asks of a game's rules about a state."""

    def ball_on_label(self, st: FrameState) -> str: ...

    def points_remaining(self, st: FrameState) -> int: ...

    def snookers_required(self, st: FrameState) -> dict[str, int]: ...

    def touching_call(self, st: FrameState) -> tuple[tuple[str, ...], str | None]: ...


@dataclass(frozen=True)
class Outcome:
    """What the referee called on one stroke.

    Attributes:
        fouls: every foul called; ``penalty`` the one incurred (the highest, C19).
        points: player (side) index -> points: the striker's score, or the penalty to the
            opponent.
        potted: the object balls that dropped.
        respots: balls the referee places (re-spotted colours, balls put back).
        options: the incoming player's choices after a foul.
        miss, miss_warning: foul and a miss (C28-C30) and the warning before a third.
        free_ball, effective: free ball for the incoming player and the effective
            snookering balls (C23).
        replace_positions: where the balls go if a replacement (or a replay) is asked.
        nominated, free_ball_nominated: the ball on declared or inferred; the free ball.
        break_points: the break to report (None: the next state's).
        replay: the stroke is void and replayed with all balls replaced (R9(b)).
        scoring: (what, points) for games that score by kind of stroke.
        notes, review: what the referee says; what needs the operator's check.
    """

    fouls: tuple[Foul, ...] = ()
    penalty: int = 0
    points: dict[int, int] = field(default_factory=dict)
    potted: tuple[str, ...] = ()
    respots: tuple[Respot, ...] = ()
    options: tuple[str, ...] = ()
    miss: bool = False
    miss_warning: bool = False
    free_ball: bool = False
    effective: tuple[str, ...] = ()
    replace_positions: dict[str, Position] | None = None
    nominated: str | None = None
    free_ball_nominated: str | None = None
    break_points: int | None = None
    replay: bool = False
    scoring: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = ()
    review: tuple[str, ...] = ()


def _unique(items: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def next_turn(after: FrameState) -> tuple[str | None, str | None]:
    """(next side, next person), both None when the frame is over or lots are to be drawn."""
    if after.frame_over or after.awaiting_lots:
        return None, None
    return after.players[after.striker], after.player


def build_decision(rules: Referee, before: FrameState, shot: int | None, out: Outcome,
                   after: FrameState) -> Decision:
    """The decision on a stroke: ``out`` called on ``before``, leading to ``after``. Once the
    frame is over no ball is placed and nothing is offered (R4(a))."""
    touching, touch_note = rules.touching_call(after)
    over = after.frame_over
    side, person = next_turn(after)
    notes = [*out.notes, *([touch_note] if touch_note else [])]
    return Decision(
        shot=shot, striker=before.players[before.striker], player=before.player,
        foul=bool(out.fouls), fouls=out.fouls, penalty=out.penalty,
        points={p: out.points.get(i, 0) for i, p in enumerate(before.players)},
        score=dict(zip(before.players, after.scores, strict=True)),
        break_points=after.break_points if out.break_points is None else out.break_points,
        next_striker=side, next_player=person, ball_on=rules.ball_on_label(after),
        free_ball=out.free_ball and not over, miss=out.miss, options=() if over else out.options,
        respots=() if over else out.respots, frame_over=over,
        winner=after.players[after.winner] if after.winner is not None else None,
        potted=out.potted, nominated=out.nominated, free_ball_nominated=out.free_ball_nominated,
        touching=touching, points_remaining=rules.points_remaining(after),
        snookers_required={} if over else rules.snookers_required(after),
        replace_positions=out.replace_positions, miss_count=after.miss.count,
        miss_warning=out.miss_warning, needs_review=_unique(out.review), notes=_unique(notes),
        end_reason=after.end_reason, effective_snookering=out.effective,
        cue_in_hand=after.cue_in_hand and not over, draw_lots=after.awaiting_lots and not over,
        replay=out.replay, scoring=out.scoring,
    )


@dataclass(frozen=True)
class InputResult:
    """The outcome of an operator input between strokes."""

    input: str
    accepted: bool
    message: str
    score: dict[str, int]
    next_striker: str | None
    frame_over: bool = False
    winner: str | None = None
    end_reason: str | None = None
    notes: tuple[str, ...] = ()
    cue_in_hand: bool = False
    next_player: str | None = None
    draw_lots: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "input": self.input,
            "accepted": self.accepted,
            "message": self.message,
            "score": dict(self.score),
            "next_striker": self.next_striker,
            "next_player": self.next_player,
            "cue_in_hand": self.cue_in_hand,
            "draw_lots": self.draw_lots,
            "frame_over": self.frame_over,
            "winner": self.winner,
            "end_reason": self.end_reason,
            "notes": list(self.notes),
        }


def input_result(kind: str, accepted: bool, message: str, st: FrameState,
                 notes: tuple[str, ...] = ()) -> InputResult:
    """The answer to an input, read from the state it leads to (or the unchanged one)."""
    side, person = next_turn(st)
    return InputResult(
        kind, accepted, message, dict(zip(st.players, st.scores, strict=True)), side,
        st.frame_over, st.players[st.winner] if st.winner is not None else None, st.end_reason,
        notes, st.cue_in_hand and not st.frame_over, person, st.awaiting_lots and not st.frame_over,
    )
