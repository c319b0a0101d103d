"""Value types of the referee: the state of a frame, a called foul, a decision.

Everything here is immutable; the engine is a pure function
``decide(state, shot) -> (Decision, next state)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

Position = tuple[float, float]


class Phase(StrEnum):
    """The ball-on state machine (C03)."""

    RED = "red"
    """Reds are left: the ball on is any red."""
    COLOUR_CHOICE = "colour"
    """After a red (or a free ball nominated as a red): a colour of the striker's choice."""
    SEQ = "seq"
    """No reds left: the lowest colour on the table (``FrameState.seq_colour``)."""
    RESPOTTED_BLACK = "respotted_black"
    """Tie-break: the black re-spotted, the next score or foul ends the frame."""
    OVER = "over"
    """The frame has ended."""
    OPEN = "open"
    """No ball on: any ball may be hit first (English billiards)."""


@dataclass(frozen=True)
class MissState:
    """The foul-and-a-miss sequence (C30).

    Attributes:
        count: consecutive misses from the same (replaced) position.
        full_ball: full-ball contact was available when the sequence started.
        warned: the offender has been warned that a third failure loses the frame.
    """

    count: int = 0
    full_ball: bool = False
    warned: bool = False


@dataclass(frozen=True)
class Snapshot:
    """What is needed to replace the balls after a foul and a miss (C27, C33).

    Attributes:
        positions: the positions before the missed stroke (mm), or None if unobserved.
        on_table: object balls on the table before it.
        phase, seq_colour, last_red_colour: the ball-on state before it.
        cue_in_hand: whether the cue ball was in hand.
        free_ball: whether the offender had a free ball.
    """

    positions: dict[str, Position] | None
    on_table: frozenset[str]
    phase: Phase
    seq_colour: str | None
    last_red_colour: bool
    cue_in_hand: bool
    free_ball: bool


@dataclass(frozen=True)
class PendingFoul:
    """A foul whose options are still open to the incoming player.

    Attributes:
        offender: index of the player (side) who fouled.
        options: the choices open (``play``, ``play_again``, ``replace``, ``ball_in_hand``,
            ``ball_anywhere``, ``in_hand``, ``spot_balls``).
        snapshot: the table before the foul stroke, for ``replace``.
        free_ball: the incoming player has a free ball if he plays.
        offender_turn: the offender's place in the four-handed order (``FrameState.order``).
        offender_resume: where the turn passes after the offender's next turn, when he had
            played out of turn (``FrameState.resume``).
    """

    offender: int
    options: tuple[str, ...]
    snapshot: Snapshot | None
    free_ball: bool
    offender_turn: int = 0
    offender_resume: int | None = None


@dataclass(frozen=True)
class MatchContext:
    """What a frame needs to know about the match it belongs to (set by ``Match``).

    Attributes:
        aggregate: the match is decided on aggregate points (S3 R4(c), S2 R1(b), S4 R5(b)).
        last_frame: this frame is the last one the match can have (aggregate: the last of
            ``best_of``; frames: the deciding frame).
        carried: aggregate points of each side from the frames before this one.
        frames_level: the frames won are level (the "four snookers" rule is off in the last
            frame when the frame score is level, 000 S3 R4(d)*(ii)).
        rotation_breaker: who should have broken this frame by the rotation (S3 R3(d)(iii):
            after a stalemate the correct side restarts); None = the breaker.
    """

    aggregate: bool = False
    last_frame: bool = False
    carried: tuple[int, int] = (0, 0)
    frames_level: bool = False
    rotation_breaker: int | None = None


@dataclass(frozen=True)
class FrameState:
    """Everything the referee knows about a frame between strokes.

    Attributes:
        ruleset: registry name.
        players: names of the two players (or sides).
        scores: points of each player.
        striker: index (0/1) of the player to strike next.
        breaker: index of the player who opened the frame.
        on_table: ids of the object balls on the table.
        phase, seq_colour: the ball on (C03).
        last_red_colour: the current COLOUR_CHOICE follows the last red.
        cue_in_hand: the cue ball is in hand (must be played from the D).
        positions: ball id -> centre (mm) of the balls at rest, the white included when on
            the table; None when positions are not observed (manual scoring).
        break_points: points in the current visit.
        free_ball: the striker has a free ball (C23).
        pending: the open options after the last foul.
        miss: the foul-and-a-miss sequence.
        replaced: the balls were replaced after a miss: the next stroke is from the original
            position (C30).
        shots: strokes played in this frame.
        frame_over, winner, end_reason: the outcome.
        last_colour_scored: (colour, points, player) for the colour scored in the last stroke
            that has to be re-spotted (C06 deducts it if the next stroke is played first).
        flags: notes raised about the state (for the operator).
        options: rule options in force (see ``tracker.rules.options``).
        frame: frame number in the match.
        last_respots: balls the referee placed after the last stroke (checked at the next, C36).
        order: four-handed play (S3 R17): the four players in playing order, alternating
            sides (``order[k]`` plays for side ``k % 2`` counted from the breaking side);
            empty for singles.
        turn: place in ``order`` of the player to strike next (four-handed).
        context: the match around the frame (aggregate scoring, last frame).
        awaiting_lots: the scores are level with only the black left: the black is
            re-spotted and lots decide who plays (S3 R4(b)); no striker until ``lots``.
        game: ruleset-specific state (English billiards: whose ball is where, break counts).
        in_hand_area: where the cue ball in hand may be placed: ``D`` (snooker, billiards),
            ``kitchen`` (Snookerpool break and tie-break) or ``table`` (anywhere: after a
            Snookerpool foul, the annex's ``ball_anywhere``).
        resume: four-handed: the place in ``order`` the turn passes to when the current
            striker's turn ends, set when a player plays out of turn (R17(c)); None: the next.
    """

    ruleset: str
    players: tuple[str, str]
    scores: tuple[int, int]
    striker: int
    breaker: int
    on_table: frozenset[str]
    phase: Phase
    seq_colour: str | None = None
    last_red_colour: bool = False
    cue_in_hand: bool = True
    positions: dict[str, Position] | None = None
    break_points: int = 0
    free_ball: bool = False
    pending: PendingFoul | None = None
    miss: MissState = field(default_factory=MissState)
    replaced: bool = False
    shots: int = 0
    frame_over: bool = False
    winner: int | None = None
    end_reason: str | None = None
    last_colour_scored: tuple[str, int, int, bool] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    frame: int = 1
    last_respots: tuple[str, ...] = ()
    order: tuple[str, ...] = ()
    turn: int = 0
    context: MatchContext = field(default_factory=MatchContext)
    awaiting_lots: bool = False
    game: Any = None
    in_hand_area: str = "D"
    resume: int | None = None

    @property
    def opponent(self) -> int:
        """Index of the player not striking."""
        return 1 - self.striker

    @property
    def player(self) -> str:
        """The person to strike next: the side's name in singles, the player in four-handed."""
        return self.order[self.turn] if self.order else self.players[self.striker]

    def side_of(self, person: str) -> int | None:
        """The side (0/1) a player or side name belongs to, or None."""
        if person in self.players:
            return self.players.index(person)
        if person in self.order:
            first_side = self.breaker_side_of_order()
            return (self.order.index(person) + first_side) % 2
        return None

    def breaker_side_of_order(self) -> int:
        """The side of ``order[0]`` (the side that broke)."""
        return self.breaker

    def pass_turn(self) -> tuple[int, int]:
        """(striker, turn) after the turn passes to the other side: the next player in the
        order, or the one ``resume`` names after a player out of turn. The caller clears
        ``resume``."""
        if not self.order:
            return 1 - self.striker, 0
        turn = self.resume if self.resume is not None else (self.turn + 1) % len(self.order)
        return 1 - self.striker, turn

    def played_out_of_turn(self, side: int, turn: int) -> FrameState:
        """The state with ``order[turn]`` (of ``side``) striking out of turn (S2 R5, R17(c)).
        The order of play is kept: a partner of the player due took his turn, who loses it
        (the turn then passes as if the due player had played); a player of the other side
        plays outside the order (the player due plays after him)."""
        if not self.order:
            return replace(self, striker=side, turn=turn)
        after = (self.turn + 1) % len(self.order) if side == self.striker else self.turn
        return replace(self, striker=side, turn=turn, resume=after)

    def with_recorded_striker(self, name: str | None, shot: int, review: list[str],
                              of_what: str, rule: str) -> tuple[FrameState, bool]:
        """The state with the record's striker ``name`` at the table: the player due (False),
        or a player out of turn (True: a foul under ``rule``, e.g. "002 6.13"; the balls are
        played from where the mistaken play left them; a note for review). ``of_what`` names
        the frame in the error for a name that plays no part in it ("rack", "game").

        Raises:
            ValueError: ``name`` is not a player (the caller's rules turn it into its error).
        """
        if name is None or name in (self.players[self.striker], self.player):
            return self, False
        side = self.side_of(name)
        if side is None:
            raise ValueError(f"shot {shot}: striker {name!r} is not a player of this {of_what}")
        review.append(f"{name} played but {self.player} was due: playing out of turn, a foul "
                      f"({rule}); check the record's striker")
        turn = self.order.index(name) if name in self.order else self.turn
        return self.played_out_of_turn(side, turn), True


@dataclass(frozen=True)
class Foul:
    """One foul called in a stroke.

    Attributes:
        code: catalogue code (``tracker.rules.fouls.FOULS``).
        rule: WPBSA rule reference.
        digest: RULES-DIGEST id.
        message: what the referee says.
        penalty: points to the opponent for this foul alone.
        balls: the balls concerned.
    """

    code: str
    rule: str
    digest: str
    message: str
    penalty: int
    balls: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "code": self.code,
            "rule": self.rule,
            "digest": self.digest,
            "message": self.message,
            "penalty": self.penalty,
            "balls": list(self.balls),
        }


@dataclass(frozen=True)
class Respot:
    """A ball the referee puts on the table after the stroke.

    Attributes:
        ball: id.
        position: (x, y) mm, or None when positions are not observed.
        how: ``own_spot``, ``highest_spot``, ``above_spot``, ``below_spot``, ``put_back``.
    """

    ball: str
    position: Position | None
    how: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        pos = [round(self.position[0], 2), round(self.position[1], 2)] if self.position else None
        return {"ball": self.ball, "position": pos, "how": self.how}


@dataclass(frozen=True)
class Decision:
    """The referee's call on one stroke (or on an operator input that ends the frame).

    ``striker`` / ``next_striker`` name sides (the players in singles); ``player`` /
    ``next_player`` the person (the same in singles, a member of the side in four-handed).
    ``cue_in_hand``: the next stroke is played from in-hand (the D in snooker and billiards;
    the kitchen at a Snookerpool tie-break, anywhere after a Snookerpool foul).
    ``draw_lots``: the black is re-spotted and lots decide who plays (no next striker).
    ``replay``: the stroke is void and replayed with every ball put back (S3 R9(b)).
    ``scoring``: what scored, for games that score by kind of stroke (English billiards).
    """

    shot: int | None
    striker: str
    foul: bool
    fouls: tuple[Foul, ...]
    penalty: int
    points: dict[str, int]
    score: dict[str, int]
    break_points: int
    next_striker: str | None
    ball_on: str
    free_ball: bool
    miss: bool
    options: tuple[str, ...]
    respots: tuple[Respot, ...]
    frame_over: bool
    winner: str | None
    potted: tuple[str, ...] = ()
    nominated: str | None = None
    free_ball_nominated: str | None = None
    touching: tuple[str, ...] = ()
    points_remaining: int = 0
    snookers_required: dict[str, int] = field(default_factory=dict)
    replace_positions: dict[str, Position] | None = None
    miss_count: int = 0
    miss_warning: bool = False
    needs_review: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    end_reason: str | None = None
    effective_snookering: tuple[str, ...] = ()
    cue_in_hand: bool = False
    draw_lots: bool = False
    replay: bool = False
    player: str | None = None
    next_player: str | None = None
    scoring: tuple[tuple[str, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the ``referee`` command's output line)."""
        return {
            "shot": self.shot,
            "striker": self.striker,
            "player": self.player,
            "foul": self.foul,
            "fouls": [f.to_dict() for f in self.fouls],
            "penalty": self.penalty,
            "points": dict(self.points),
            "score": dict(self.score),
            "break": self.break_points,
            "potted": list(self.potted),
            "nominated": self.nominated,
            "free_ball_nominated": self.free_ball_nominated,
            "next_striker": self.next_striker,
            "next_player": self.next_player,
            "cue_in_hand": self.cue_in_hand,
            "draw_lots": self.draw_lots,
            "ball_on": self.ball_on,
            "free_ball": self.free_ball,
            "effective_snookering": list(self.effective_snookering),
            "miss": self.miss,
            "miss_count": self.miss_count,
            "miss_warning": self.miss_warning,
            "replay": self.replay,
            "options": list(self.options),
            "replace_positions": (
                {k: [round(v[0], 2), round(v[1], 2)] for k, v in self.replace_positions.items()}
                if self.replace_positions
                else None
            ),
            "respots": [r.to_dict() for r in self.respots],
            "scoring": [{"what": w, "points": p} for w, p in self.scoring],
            "touching": list(self.touching),
            "points_remaining": self.points_remaining,
            "snookers_required": dict(self.snookers_required),
            "frame_over": self.frame_over,
            "winner": self.winner,
            "end_reason": self.end_reason,
            "needs_review": list(self.needs_review),
            "notes": list(self.notes),
        }
