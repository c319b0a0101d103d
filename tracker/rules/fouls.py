"""The catalogue of fouls: code, rule reference, penalty group and the referee's words.

Penalty groups (S3 R10 [h12], contents-list numbering of ``RULES-DIGEST.md`` section 0):

- ``A`` = max(4, v_on)
- ``B`` = max(4, v_on, v(ball concerned))
- ``C`` = max(4, v_on, v(b1), v(b2))
- ``D`` = 7

``v_on`` may be undetermined (C04: after a red with no nomination and no single colour hit
first); the penalty is then 7 (R10(d)(vi)) and the call is flagged for the operator.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Group(StrEnum):
    """Penalty formula of a foul."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"


@dataclass(frozen=True)
class FoulKind:
    """One kind of foul.

    Attributes:
        code: stable machine code used in decisions and logs.
        digest: the C-code of ``shared/rules/RULES-DIGEST.md`` (or H-code for operator fouls).
        rule: the WPBSA rule reference.
        group: penalty formula.
        message: what the referee says; ``{ball}`` / ``{balls}`` are filled in.
    """

    code: str
    digest: str
    rule: str
    group: Group
    message: str


_KINDS = [
    FoulKind("in_hand_outside_d", "C02", "S3 R10(a)(v)", Group.A,
             "played from in-hand with the cue ball outside the D"),
    FoulKind("moving_ball", "C05", "S3 R10(b)(i)", Group.B,
             "struck while the {ball} was still moving"),
    FoulKind("not_respotted", "C06", "S3 R10(b)(ii)", Group.B,
             "struck before the {ball} had been re-spotted"),
    FoulKind("free_ball_not_respotted", "C06", "S3 R10(a)(i)", Group.A,
             "struck before the {ball} taken as a free ball had been re-spotted"),
    FoulKind("wrong_cue_ball", "C07", "S3 R10(d)(iv)", Group.D,
             "struck the {ball} instead of the white"),
    FoulKind("no_contact", "C08", "S3 R10(a)(vi)", Group.A,
             "the cue ball missed all object balls"),
    FoulKind("wrong_ball_first", "C09", "S3 R10(b)(iv)", Group.B,
             "the cue ball hit the {ball} first, a ball not on"),
    FoulKind("free_ball_not_hit_first", "C24", "S3 R12(b)(i), R10(b)(iv)", Group.B,
             "the cue ball hit the {ball} first instead of the nominated free ball"),
    FoulKind("simultaneous_hit", "C10", "S3 R10(c)", Group.C,
             "the cue ball hit the {balls} at the same time"),
    FoulKind("pot_not_on", "C11", "S3 R10(b)(iii)", Group.B,
             "the {ball} was potted, a ball not on"),
    FoulKind("cue_ball_potted", "C12", "S3 R10(a)(vii)", Group.A,
             "the cue ball went into a pocket"),
    FoulKind("forced_off", "C13", "S3 R10(b)(vii)", Group.B,
             "the {ball} was forced off the table"),
    FoulKind("ball_disturbed", "C15", "S3 R10(b)(vi)", Group.B,
             "the {ball} was touched or moved other than by a lawful stroke"),
    FoulKind("jump_shot", "C16", "S3 R10(a)(ix)", Group.A,
             "jump shot over the {ball}"),
    FoulKind("push_stroke", "C17", "S3 R10(b)(v)", Group.B,
             "push stroke: the touching {ball} moved at the moment of striking"),
    FoulKind("double_hit", "C18", "S3 R10(a)(ii)", Group.A,
             "the cue ball was struck more than once"),
    FoulKind("snooker_behind_free_ball", "C26", "S3 R12(b)(ii), R10(a)(viii)", Group.A,
             "the cue ball was left snookered behind the free ball ({ball})"),
    FoulKind("free_ball_not_declared", "C24", "S3 R10(d)(v)", Group.D,
             "the free ball was not nominated"),
    FoulKind("snooker_behind_nominated", "reds-annex-3", "any-number-of-reds annex rule 3", Group.A,
             "the opponent was snookered behind the nominated colour ({ball})"),
    # Operator-entered fouls (RULES-DIGEST section 3).
    FoulKind("feet", "H7", "S3 R10(a)(iii)", Group.A, "struck with both feet off the floor"),
    FoulKind("push", "H9", "S3 R10(b)(v)", Group.B, "push stroke"),
    FoulKind("jump", "H10", "S3 R10(a)(ix)", Group.A, "jump shot"),
    FoulKind("cue", "H11", "S3 R10(a)(x)", Group.A, "played with a non-standard cue"),
    FoulKind("confer", "H13", "S3 R10(a)(xi)", Group.A, "conferred with a partner"),
    FoulKind("measure", "H12", "S3 R10(d)(ii)", Group.D, "used an object to measure a gap"),
    FoulKind("ball_off_table_used", "H12", "S3 R10(d)(i)", Group.D,
             "used a ball off the table"),
    FoulKind("out_of_turn", "H14", "S3 R10(a)(iv)", Group.A, "played out of turn"),
    FoulKind("deliberate_red", "H19", "S3 R10(d)(iii)", Group.D,
             "played at reds in successive strokes"),
    FoulKind("no_declaration", "H1", "S3 R10(d)(v)", Group.D,
             "failed to declare the ball on when asked"),
    FoulKind("touched_ball", "H8", "S3 R10(b)(vi)", Group.B,
             "touched the {ball} other than with the tip in a stroke"),
    FoulKind("foul_before_stroke", "C31", "S3 R10(b)(vi), R14(d)", Group.B,
             "foul before the stroke: the {ball} was moved"),
    FoulKind("slow_play", "H17", "S4 R1", Group.A, "slow play"),
    # Snookerpool (004 Fouls, digest D39): the ball in hand touched with the tip of the cue.
    FoulKind("tip_on_ball_in_hand", "D39", "004 Fouls", Group.A,
             "the tip of the cue touched the cue ball in hand"),
    # English billiards (002 "The Official Rules of English Billiards", EB; 000 "Snooker - 1
    # red"): every foul costs 2 points.
    FoulKind("coup", "EB", "EB S2 R17, S3 R16", Group.A,
             "the cue ball went into a pocket without touching a ball (a coup)"),
    FoulKind("in_hand_ball_in_baulk", "EB", "EB S3 R6", Group.A,
             "played from in-hand directly at the {ball}, a ball in baulk"),
    FoulKind("in_hand_not_out_of_baulk", "EB", "EB S3 R6", Group.A,
             "played from in-hand and the cue ball stopped in baulk without touching a ball or "
             "cushion out of baulk"),
    FoulKind("hazard_limit", "EB", "EB S3 R10", Group.A,
             "more consecutive hazards than the limit"),
    FoulKind("cannon_limit", "EB", "EB S3 R9", Group.A,
             "more consecutive cannons than the limit"),
    FoulKind("baulk_line_not_crossed", "000-2.13", "000 Snooker - 1 red 2.13", Group.A,
             "the cue ball did not cross the baulk line between 80 and 99 of the break"),
]

FOULS: dict[str, FoulKind] = {k.code: k for k in _KINDS}

#: Operator foul codes accepted in a shot record's ``operator.fouls``.
OPERATOR_FOUL_CODES = frozenset(
    ["feet", "push", "jump", "cue", "confer", "measure", "ball_off_table_used", "out_of_turn",
     "deliberate_red", "no_declaration", "touched_ball", "foul_before_stroke", "slow_play",
     "double_hit"]
)


def penalty(group: Group, v_on: int | None, concerned: tuple[int, ...] = (), minimum: int = 4,
            maximum: int = 7, undetermined: int = 7) -> int:
    """Penalty points of one foul.

    Args:
        group: the formula.
        v_on: value of the ball on, or None when undetermined (C04).
        concerned: values of the ball(s) concerned (groups B and C).
        minimum, maximum: the ruleset's bounds (4 and 7 in snooker).
        undetermined: penalty when ``v_on`` is None (7 by R10(d)(vi)).
    """
    if group is Group.D:
        return maximum
    if v_on is None:
        return undetermined
    vals = [minimum, v_on]
    if group in (Group.B, Group.C):
        vals.extend(concerned)
    return min(maximum, max(vals))
