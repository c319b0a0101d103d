"""The shot record: the boundary between perception and the referee.

A match log is a JSONL file; each line is one record (format version 1, documented in
``docs/SHOT-RECORD.md`` and ``tracker/records/shot-record.schema.json``):

- ``frame_start``: a new frame (players, ruleset, breaker, optional starting positions);
- ``shot``: one stroke (positions before, events in time order, positions after, nomination,
  free-ball nomination, touching balls, operator judgements about this stroke);
- ``input``: an operator input between strokes (option after a foul, concession, claim,
  lots for a re-spotted black, frame award).

All positions are ball centres in table mm (canonical frame), times in seconds from the
start of the video.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

FORMAT_VERSION = 1

Position = tuple[float, float]


class EventType(StrEnum):
    """Kinds of event in a shot record."""

    STRIKE = "strike"
    """The cue tip strikes a ball (``ball``; normally the white)."""
    CONTACT = "contact"
    """Two balls touch (``balls``: two ids)."""
    CUSHION = "cushion"
    """A ball touches a cushion (``ball``, optional ``cushion``)."""
    POT = "pot"
    """A ball drops into ``pocket``; ``rest_s`` = seconds it sat on the lip first (C42)."""
    OFF_TABLE = "off_table"
    """A ball is forced off the table, or comes to rest on the rail (C13)."""
    DISTURBED = "disturbed"
    """A ball moved with no ball contact (C15); ``by`` says who (striker by default)."""
    PUSH = "push"
    """A touching ball moved at the moment of striking (C17/C38)."""
    JUMP = "jump"
    """The cue ball passed over ``ball`` (footprints overlapped) (C16)."""
    MOVING_AT_STRIKE = "moving_at_strike"
    """``ball`` was still moving when the stroke was made (C05)."""
    LIP_DROP = "lip_drop"
    """A ball at rest on a pocket lip fell with nothing touching it (C41)."""
    AT_REST = "at_rest"
    """All balls at rest: the end of the stroke."""


@dataclass(frozen=True)
class Event:
    """One timed event of a stroke.

    Attributes:
        type: the kind.
        t: time, s from the start of the video (sub-frame for contacts).
        balls: ball ids involved (one for most kinds, two for a contact).
        pocket: pocket name for a pot.
        cushion: cushion name for a cushion contact (optional).
        confidence: 0..1, how sure perception is.
        rest_s: for a pot, seconds the ball sat on the lip before falling.
        by: for ``disturbed``: striker / non_striker / referee / outside / table.
    """

    type: EventType
    t: float = 0.0
    balls: tuple[str, ...] = ()
    pocket: str | None = None
    cushion: str | None = None
    confidence: float = 1.0
    rest_s: float = 0.0
    by: str = "striker"
    frame: int | None = None

    @property
    def ball(self) -> str:
        """The (first) ball of the event."""
        return self.balls[0]


@dataclass(frozen=True)
class OperatorFoul:
    """A foul the camera cannot see, entered by the referee (digest section 3)."""

    code: str
    ball: str | None = None
    note: str = ""


@dataclass(frozen=True)
class OperatorJudgement:
    """Operator inputs about one stroke (all optional).

    Attributes:
        miss: the referee's miss judgement (H5); None = engine default.
        fouls: fouls seen by the referee (H7, H9-H13, H19).
        not_a_stroke: the tip touched the cue ball while placing it (H20).
        lip_would_be_hit: the ball that fell from a pocket's lip during the stroke, when
            the referee rules that a ball in the stroke would have hit it (S3 R9(b)): the
            stroke is replayed with every ball put back (a foul in it still costs its penalty).
    """

    miss: bool | None = None
    fouls: tuple[OperatorFoul, ...] = ()
    not_a_stroke: bool = False
    lip_would_be_hit: str | None = None


@dataclass(frozen=True)
class Shot:
    """Everything the referee needs about one stroke.

    Attributes:
        shot: the stroke's number in the log.
        striker: the player's name if known (checked against the expected striker).
        positions_before / positions_after: ball id -> centre (mm) of the balls on the table
            before the stroke / at rest after it; None when not observed (manual scoring).
        events: in time order.
        nomination: the colour declared after a red (H1) or for a touching colour (H3).
        free_ball: the ball nominated as a free ball (H2).
        touching: balls touching the cue ball at the strike (C37), if known.
        operator: the referee's judgements.
        t_start / t_end: s.
    """

    shot: int
    events: tuple[Event, ...] = ()
    striker: str | None = None
    positions_before: dict[str, Position] | None = None
    positions_after: dict[str, Position] | None = None
    nomination: str | None = None
    free_ball: str | None = None
    touching: tuple[str, ...] | None = None
    operator: OperatorJudgement = field(default_factory=OperatorJudgement)
    t_start: float | None = None
    t_end: float | None = None
    needs_review: tuple[str, ...] = ()


@dataclass(frozen=True)
class FrameStart:
    """The start of a frame.

    Attributes:
        frame: 1-based frame number in the match.
        players: the two players (or sides).
        breaker: who opens the frame; None = the match rotation.
        ruleset: registry name (``snooker``, ``snooker-6-reds``, ``snooker-10-reds``,
            ``snookerpool``, ``english-billiards``, ... : ``tracker.rules.registry``).
        best_of: frames in the match.
        race_to: a race (pool, 002 8.9): the first to win this many frames (racks) wins the
            match, the same as ``best_of`` = 2 * ``race_to`` - 1. Match-level: set on the first
            frame; None = ``best_of`` decides.
        positions: starting layout (mm); None = the ruleset's standard setup.
        options: named rule options (section 4 readings), see ``tracker.rules.options``.
        table: table size {"length": mm, "width": mm}; None = full size.
        aggregate: the match is decided on the total of the frames' points (S2 R2(g)(ii));
            every one of ``best_of`` frames is played. Match-level: set on the first frame.
        teams: four-handed play (S3 R17): the two players of each side, in the order of
            ``players`` (the sides' names). Match-level: set on the first frame.
        order: four-handed: the four players in playing order for this frame, starting with
            the breaking side (default: each side's first player, then each side's second).
        start_points: points each player has when the frame starts (handicap start points,
            or the scores of a frame taken up in progress); None: 0 each.
        frames_won: frames each player had already won when the match was taken up in
            progress. Match-level: set on the first frame; None: none.
    """

    frame: int
    players: tuple[str, str]
    breaker: str | None = None
    ruleset: str = "snooker"
    best_of: int = 1
    race_to: int | None = None
    positions: dict[str, Position] | None = None
    options: dict[str, object] = field(default_factory=dict)
    table: dict[str, float] | None = None
    aggregate: bool = False
    teams: tuple[tuple[str, str], tuple[str, str]] | None = None
    order: tuple[str, ...] | None = None
    start_points: dict[str, int] | None = None
    frames_won: dict[str, int] | None = None


class InputKind(StrEnum):
    """Operator inputs between strokes."""

    OPTION = "option"
    """After a foul: ``choice`` = play / play_again / replace (H4), or a game's own choice
    (ball_anywhere, in_hand, ball_in_hand, spot_balls)."""
    CONCEDE = "concede"
    """The striker concedes the frame (H16)."""
    CLAIM = "claim"
    """The striker claims the frame with only the black left (C45)."""
    AWARD_FRAME = "award_frame"
    """The referee awards the frame to ``player`` (forfeit, S4 R2) (H17)."""
    AWARD_GAME = "award_game"
    """The referee awards the game (the match) to ``player`` (S4 R1(a)(vii), R2(b))."""
    LOTS = "lots"
    """Who plays the re-spotted black: ``player`` (H15)."""
    STRIKER = "striker"
    """Correct who is to strike (H14)."""
    STALEMATE = "stalemate"
    """The referee declares a stalemate: scores nullified, balls re-racked, the same
    player opens again (S3 R16, C50)."""
    TIME = "time"
    """The referee calls TIME: the end of a game played to a time limit (English billiards
    S3 R5(a),(b))."""


@dataclass(frozen=True)
class OperatorInput:
    """One operator input line."""

    kind: InputKind
    choice: str | None = None
    player: str | None = None
    note: str = ""


Record = FrameStart | Shot | OperatorInput
