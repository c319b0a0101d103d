"""What eight-ball and nine-ball share (002 "Pool Billiards", General Rules and Fouls): the
rack set-up, reading a shot's record, the standard fouls the camera sees (002 6.1-6.3, 6.5,
6.9-6.11), those the operator enters, the cue ball in hand anywhere after a foul (1.5) and the
state after a shot. Each game (:mod:`tracker.rules.eightball`, :mod:`tracker.rules.nineball`)
adds its ball on, its break and its end of a rack in ``_call``; the operator inputs are in
:mod:`tracker.rules.pool_inputs`.

Pool scores no points: ``FrameState.scores`` stays 0-0 until the rack is won, when the
winner's is 1 (a rack is "one point", 002 8.10); a foul costs no points but gives the
opponent the cue ball in hand.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import ClassVar

from calibration.table import POCKET_NAMES, TableGeometry
from tracker.records.shot import Event, EventType, Shot
from tracker.rules.ballset import BallSet, pool_balls
from tracker.rules.errors import RuleError
from tracker.rules.options import RuleOptions
from tracker.rules.outcome import Outcome, build_decision
from tracker.rules.pool_inputs import PoolInputRules
from tracker.rules.pool_racks import rack_positions
from tracker.rules.pool_types import (
    FOULS,
    OPERATOR_FOULS,
    PUSH_OUT,
    SAFETY,
    Choice,
    PoolState,
    PoolStroke,
    pool_foul,
)
from tracker.rules.state import Decision, Foul, FrameState, Phase, Position
from tracker.rules.stroke import check_events, check_positions, read_stroke, record_warnings
from tracker.words import is_not_hit_note

WHITE = "white"

#: Object balls all within this many ball radii of the foot spot are a rack still to be broken
#: (a racked triangle of 15 reaches about 7 radii from its apex on the foot spot).
RACK_REACH_RADII = 9.0

#: A picture of a rack to break (:meth:`PoolRules.rack_seen`): at least this many object balls
#: found around the foot spot ...
RACK_SEEN_MIN = 4
#: ... and at least this share of the object balls found (the others: a hand, a cue).
RACK_SEEN_SHARE = 0.75
#: A first contact the camera is unsure of (its confidence below ``review_confidence``: the
#: cue ball's path seen passing a few cm from the ball it seemed to hit, as at the far end of a
#: side view) still makes a wrong-ball-first foul when no ball the cue ball had to hit first
#: can have been hit: each stands, at the stroke's end, within this many mm of where it
#: stood, is in no contact of the record, and stood clear of every other ball and every
#: cushion by ``UNTOUCHED_CLEAR_MM`` (a ball frozen against another or a cushion may hardly
#: move when hit). bench/pool_synth.py nine-ball side seed 2 stroke 2 (development): the cue
#: ball met the 3, seen 24 mm short of touching it, the 1 (the ball on) untouched 900 mm
#: away; "no foul" was called and the next two calls went to the wrong player. mm.
UNTOUCHED_MM = 10.0
UNTOUCHED_CLEAR_MM = 10.0


def pool_table(table: TableGeometry | None) -> TableGeometry:
    """A 9 ft pool table, or ``table``'s size with pool markings (a match log's ``table``
    gives only length, width and ball size: the head string and foot spot are then put a
    quarter of the length from each end, 002 8.1)."""
    if table is None:
        return TableGeometry.pool(9)
    quarter = table.length / 4.0
    return replace(TableGeometry.pool(9), length=table.length, width=table.width,
                   ball_diameter=table.ball_diameter, baulk_line=quarter, black_from_top=quarter)


@dataclass(frozen=True)
class PoolRules(PoolInputRules):
    """The shared pool referee; a game sets the class constants and writes ``_call``,
    ``legal_first`` and ``ball_on_label``."""

    name: str = "pool"
    table: TableGeometry = field(default_factory=lambda: TableGeometry.pool(9))
    options: RuleOptions = field(default_factory=RuleOptions)

    OPTIONS: ClassVar[frozenset[str]] = frozenset(
        ["hanging_ball_s", "in_hand_tolerance_mm", "simultaneous_s", "review_confidence"])
    #: The game's section of 002 listing its standard fouls (``2.7`` nine-ball, ``3.9``).
    fouls_section: ClassVar[str] = ""
    #: Object balls 1..n.
    n_objects: ClassVar[int] = 15
    #: The rack, row by row from the apex (``tracker.rules.pool_racks``).
    rows: ClassVar[tuple[tuple[str, ...], ...]] = ()

    def with_options(self, options: RuleOptions, table: TableGeometry | None = None) -> PoolRules:
        """The same game with other options or another table size."""
        return replace(self, options=options, table=pool_table(table) if table else self.table)

    @cached_property
    def balls(self) -> BallSet:
        """The cue ball and the object balls 1..``n_objects``."""
        return pool_balls(self.n_objects)

    def setup_positions(self) -> dict[str, Position]:
        """The object balls racked on the foot spot; the cue ball in hand."""
        return rack_positions(self.table, self.rows)

    def new_frame(self, players: tuple[str, str], breaker: int = 0,
                  positions: Mapping[str, Position] | None = None, frame: int = 1) -> FrameState:
        """A rack: the balls racked (or ``positions``), the breaker with the cue ball in hand
        behind the head string (002 2.3(a), 3.3(a))."""
        pos = dict(positions) if positions is not None else self.setup_positions()
        pos = {self.balls.aliases.get(b, b): p for b, p in pos.items()}
        bad = sorted(b for b in pos if not self.balls.is_valid(b))
        if bad:
            raise RuleError(f"{', '.join(bad)} not a ball of {self.name} "
                            f"({', '.join(self.balls.ids)})")
        return FrameState(ruleset=self.name, players=players, scores=(0, 0), striker=breaker,
                          breaker=breaker, on_table=frozenset(b for b in pos if b != WHITE),
                          phase=Phase.OPEN, cue_in_hand=WHITE not in pos, positions=pos,
                          options=self.options.to_dict(), frame=frame,
                          game=PoolState(break_due=positions is None or self.racked(pos)),
                          in_hand_area="kitchen")

    def racked(self, positions: Mapping[str, Position]) -> bool:
        """Whether ``positions`` hold a rack still to be broken: every object ball within
        ``RACK_REACH_RADII`` ball radii of the foot spot (or of the head end's matching point:
        a camera's view may be turned end for end). A layout taken up in the middle of a rack
        (a video starting mid-rack) is not, and its first shot is no break."""
        objs = [p for b, p in positions.items() if b != WHITE]
        if not objs:
            return False
        t = self.table
        reach = RACK_REACH_RADII * t.ball_radius
        ends = (t.foot_spot, (t.foot_spot[0], t.length - t.foot_spot[1]))
        return any(all(math.dist(p, end) <= reach for p in objs) for end in ends)

    def rack_seen(self, positions: Mapping[str, Position]) -> bool:
        """Whether a picture whose balls the camera found at ``positions`` shows a rack still
        to be broken, as a camera sees one: the rack's touching balls merge (fewer found than
        racked), and a hand or a cue over the table adds a few more elsewhere. At least
        ``RACK_SEEN_MIN`` object balls within ``RACK_REACH_RADII`` ball radii of one foot spot
        (either end) and at least ``RACK_SEEN_SHARE`` of those found there."""
        objs = [p for b, p in positions.items() if b != WHITE]
        t = self.table
        reach = RACK_REACH_RADII * t.ball_radius
        for end in (t.foot_spot, (t.foot_spot[0], t.length - t.foot_spot[1])):
            near = sum(math.dist(p, end) <= reach for p in objs)
            if near >= RACK_SEEN_MIN and near >= RACK_SEEN_SHARE * len(objs):
                return True
        return False

    # ------------------------------------------------------------------ queries
    def ball_on_label(self, st: FrameState) -> str:  # pragma: no cover - each game's own
        raise NotImplementedError

    def legal_first(self, s: PoolStroke) -> tuple[frozenset[str], str]:  # pragma: no cover
        """The balls the cue ball may hit first, and their words (``the 1``, ``a solid``)."""
        raise NotImplementedError

    def points_remaining(self, st: FrameState) -> int:
        """Pool has no points on the table: 0."""
        return 0

    def snookers_required(self, st: FrameState) -> dict[str, int]:
        """Not a pool notion: none."""
        return {}

    def touching_call(self, st: FrameState) -> tuple[tuple[str, ...], str | None]:
        """Pool has no touching-ball call (a frozen ball may be played into, 002 6.7)."""
        return (), None

    # ------------------------------------------------------------------ the shot
    def decide(self, st: FrameState, shot: Shot) -> tuple[Decision, FrameState]:
        """Call one pool shot.

        Raises:
            RuleError: the record cannot describe a shot of this rack (a ball of another game,
                a ball not on the table, no strike, the rack over).
        """
        if st.frame_over:
            raise RuleError(f"shot {shot.shot}: the rack is over; start the next one first")
        s = self._begin(st, shot)
        if shot.operator.not_a_stroke:
            s.notes.append("not a shot: the cue ball was only moved while in hand (002 1.5)")
            out = Outcome(notes=tuple(s.notes), review=tuple(s.review))
            return build_decision(self, s.st, shot.shot, out, s.st), s.st
        self._common_fouls(s)
        out, after = self._call(s)
        return build_decision(self, s.st, shot.shot, out, after), after

    def _call(self, s: PoolStroke) -> tuple[Outcome, FrameState]:  # pragma: no cover
        raise NotImplementedError

    def _begin(self, st: FrameState, shot: Shot) -> PoolStroke:
        """Check the record, settle a pending choice and who plays, read the events."""
        check_events(shot.events, shot.shot)
        check_positions(shot, self.table.length, self.table.width)
        notes: list[str] = []
        review = list(shot.needs_review)
        if st.game.choice is not None:
            st = self._choice_by_default(st, shot, notes)
        st, out_of_turn = self._resolve_striker(st, shot, review)
        events = tuple(self._resolve(st, shot, e) for e in shot.events)
        shot = replace(shot, events=events,
                       positions_before=self._named(shot.positions_before, shot),
                       positions_after=self._named(shot.positions_after, shot))
        facts = read_stroke(events, WHITE, self.options.simultaneous_s, self.options.hanging_ball_s)
        if facts.strike is None:
            raise RuleError(f"shot {shot.shot}: no strike event; a shot begins when the cue ball "
                            "is struck (002 8.2): add the strike")
        review.extend(record_warnings(facts))
        pre = dict(shot.positions_before) if shot.positions_before is not None else (
            dict(st.positions) if st.positions is not None else None)
        s = PoolStroke(st, st.game, shot, facts, pre, notes, review, is_break=st.game.break_due)
        self._read_call(s)
        if out_of_turn:
            s.fouls.append(self._foul("out_of_turn"))
        return s

    def _choice_by_default(self, st: FrameState, shot: Shot, notes: list[str]) -> FrameState:
        """A shot came while a choice was pending: the game's default reading of it."""
        choice = st.game.choice
        assert choice is not None
        pick = self.default_choice(st, shot)
        notes.append(f"no choice was entered by {st.players[choice.side]}: taken as "
                     f"{pick.replace('_', ' ')}")
        return self.choose(st, pick)

    def default_choice(self, st: FrameState, shot: Shot) -> str:
        """The choice read from a shot played while one was pending: the first option (the
        table accepted as it lies)."""
        assert st.game.choice is not None
        return st.game.choice.options[0]

    def _resolve_striker(self, st: FrameState, shot: Shot, review: list[str]
                         ) -> tuple[FrameState, bool]:
        """The expected striker, or a player out of turn (True: a foul, 002 6.13)."""
        try:
            return st.with_recorded_striker(shot.striker, shot.shot, review, "rack", "002 6.13")
        except ValueError as exc:
            raise RuleError(str(exc)) from None

    def _named(self, pos: Mapping[str, Position] | None, shot: Shot) -> dict[str, Position] | None:
        if pos is None:
            return None
        out = {self.balls.aliases.get(k, k): v for k, v in pos.items()}
        bad = sorted(b for b in out if not self.balls.is_valid(b))
        if bad:
            raise RuleError(f"shot {shot.shot}: {', '.join(bad)} not a ball of {self.name} "
                            f"({', '.join(self.balls.ids)})")
        return out

    def _resolve(self, st: FrameState, shot: Shot, e: Event) -> Event:
        """Each ball of an event: of this set, and on the table unless it is the cue ball."""
        names = []
        for b in e.balls:
            b = self.balls.aliases.get(b, b)
            if not self.balls.is_valid(b):
                raise RuleError(f"shot {shot.shot}: {b!r} is not a ball of {self.name} "
                                f"({', '.join(self.balls.ids)})")
            if b != WHITE and b not in st.on_table:
                raise RuleError(f"shot {shot.shot}: a {e.type} event names the {b}, which is not "
                                "on the table")
            names.append(b)
        return replace(e, balls=tuple(names))

    def _read_call(self, s: PoolStroke) -> None:
        """The shot's nomination: ``safety``, ``push_out``, or a ball (``3``) with an optional
        pocket (``3@top_left``)."""
        nom = (s.shot.nomination or "").strip()
        if not nom:
            return
        if nom == SAFETY:
            s.safety = True
            return
        if nom == PUSH_OUT:
            s.push_out = s.g.push_out_open
            if not s.push_out:
                s.review.append("a push out was declared where none is allowed (only on the shot "
                                "after a break with no foul, 002 2.4): called as an ordinary shot")
            return
        ball, _, pocket = nom.partition("@")
        ball = self.balls.aliases.get(ball, ball)
        if ball not in s.st.on_table:
            raise RuleError(f"shot {s.shot.shot}: the call {nom!r} names no object ball on the "
                            "table; call a ball on the table (\"3\", \"3@top_left\"), \"safety\" "
                            "or \"push_out\"")
        if pocket and pocket not in POCKET_NAMES:
            raise RuleError(f"shot {s.shot.shot}: pocket {pocket!r} is not one of "
                            f"{', '.join(POCKET_NAMES)}")
        s.called, s.called_pocket = ball, pocket or None

    # ------------------------------------------------------------------ the standard fouls
    def _foul(self, code: str, ball: str | None = None, on: str = "",
              balls: tuple[str, ...] = ()) -> Foul:
        return pool_foul(code, self.fouls_section, ball, on, balls)

    def _common_fouls(self, s: PoolStroke) -> None:
        """The standard fouls of both games the record shows (002 6.1-6.3, 6.5, 6.6, 6.9-6.11)
        and those the operator entered; the break's and the ball on's are the game's."""
        f = s.facts
        strike = f.strike
        assert strike is not None
        if strike.ball != WHITE:
            s.fouls.append(self._foul("touched_ball", strike.ball))
        s.fouls.extend(self._in_hand_fouls(s))
        if f.cue_potted:
            s.fouls.append(self._foul("scratch"))
        elif WHITE in f.off:
            s.fouls.append(self._foul("cue_off_table"))
        s.fouls.extend(self._foul("ball_off_table", b) for b in f.objects_off)
        if not s.push_out:  # 002 2.4: 6.2 and 6.3 are suspended on a push out
            s.fouls.extend(self._contact_fouls(s, *self.legal_first(s)))
        for e in f.moving:
            s.fouls.append(self._foul("moving_ball", e.ball))
        for e in f.disturbed:
            if e.by == "striker":
                s.fouls.append(self._foul("touched_ball", e.ball))
        s.fouls.extend(self._entered_fouls(s))
        if f.cue_contacts and f.cue_contacts[0].confidence < self.options.review_confidence:
            s.review.append("the camera is not sure which ball the cue ball hit first "
                            f"(confidence {f.cue_contacts[0].confidence:.2f}): check it")

    def _contact_fouls(self, s: PoolStroke, legal: frozenset[str], words: str) -> list[Foul]:
        """No contact, wrong ball first (6.2), no rail after contact (6.3; not on a break,
        whose own rail rule is stricter)."""
        f = s.facts
        if not f.first:
            moved = self._moved_unseen(s)
            if moved:  # something hit them: a contact the camera missed, no evidence of a foul
                s.review.append(f"the camera saw no contact, yet the {' and the '.join(moved)} "
                                "moved: no foul called; check which ball was hit first")
                return []
            doubt = self._no_contact_doubt(s)
            if doubt:  # a miss is read from what was not seen: only on a clean record
                s.review.append(f"the camera saw no contact, but {doubt}: no foul called; "
                                "check it")
                return []
            return [self._foul("no_contact")]
        out = []
        if not f.first & legal:
            unsure = (bool(f.cue_contacts)
                      and f.cue_contacts[0].confidence < self.options.review_confidence)
            if unsure and not self._none_hit(s, legal):
                s.review.append(f"the camera is not sure the cue ball hit the "
                                f"{min(f.first, key=_number)} first (it had to hit {words}): "
                                "no foul called; check it")
                return []
            if unsure:
                s.review.append(f"the camera is not sure the cue ball hit the "
                                f"{min(f.first, key=_number)}, but {words} it had to hit first "
                                "stood still, touched by nothing: foul called; check it")
            out.append(self._foul("wrong_ball_first", min(f.first, key=_number), words))
        elif f.first - legal:
            s.review.append(f"the cue ball met {' and '.join(sorted(f.first, key=_number))} at "
                            "the same moment: check that the legal ball was hit first")
        if not s.is_break and not f.potted and not self._rail_after_contact(s):
            out.append(self._foul("no_rail"))
        return out

    def _none_hit(self, s: PoolStroke, legal: frozenset[str]) -> bool:
        """Whether the record shows that none of the ``legal`` balls was hit
        (:data:`UNTOUCHED_MM`, :data:`UNTOUCHED_CLEAR_MM`): each stood clear of every other
        ball and cushion, is in no contact, and ends where it stood. False without positions."""
        before, after = s.pre, s.shot.positions_after
        if not legal or before is None or after is None:
            return False
        t, clear = self.table, UNTOUCHED_CLEAR_MM
        touched = {b for e in s.shot.events if e.type == EventType.CONTACT for b in e.balls}
        for b in legal:
            if b in touched or b not in before or b not in after:
                return False
            (x, y), r = before[b], t.ball_radius
            if (math.dist(before[b], after[b]) > UNTOUCHED_MM
                    or min(x, y, t.width - x, t.length - y) < r + clear
                    or any(o != b and math.dist(p, before[b]) < 2 * r + clear
                           for o, p in before.items())):
                return False
        return True

    def _no_contact_doubt(self, s: PoolStroke) -> str | None:
        """Why a camera's record of a stroke with no contact is no sure miss (None: it is):
        the cue ball moved less than two ball diameters (a hand or a cue over it read as a
        stroke), or the record carries the camera's own doubts (the picture left the table,
        the cue ball out of view). A record without positions (entered by hand) is sure."""
        after = s.shot.positions_after
        if s.pre is None or after is None:
            return None
        if WHITE in s.pre and WHITE in after and \
                math.dist(s.pre[WHITE], after[WHITE]) < 2.0 * self.table.ball_diameter:
            return "the cue ball hardly moved (perhaps no stroke: a hand or a cue over it)"
        if any(not is_not_hit_note(n) for n in s.shot.needs_review):
            # (a ball seen standing where it stood as the cue ball passed it is no doubt: the
            # camera saw it was not hit)
            return "the camera has doubts about this stroke's record"
        return None

    def _moved_unseen(self, s: PoolStroke) -> list[str]:
        """Object balls the record shows moved in a stroke with no contact seen: gone (potted,
        off the table), or at rest more than a ball's diameter from where they stood."""
        f = s.facts
        gone = [*f.potted, *f.objects_off]
        after = s.shot.positions_after
        if s.pre is None or after is None:
            return sorted(set(gone), key=_number)
        far = 2.0 * self.table.ball_radius
        moved = [b for b, p in s.pre.items() if b != WHITE and b in after
                 and math.dist(p, after[b]) > far]
        return sorted(set(gone) | set(moved), key=_number)

    @staticmethod
    def _rail_after_contact(s: PoolStroke) -> bool:
        """A ball (the cue ball or an object ball) reached a cushion after the first contact, or
        left the table (002 8.4: a ball pocketed or driven off counts as driven to a rail)."""
        t = s.facts.first_t
        assert t is not None
        return bool(s.facts.off) or any(e.type == EventType.CUSHION and e.t >= t
                                        for e in s.shot.events)

    def _in_hand_fouls(self, s: PoolStroke) -> list[Foul]:
        """From in hand behind the head string: placed on or past it (6.10), or the first ball
        hit also behind it without the cue ball crossing it first (6.11)."""
        st, hs = s.st, self.table.head_string
        if not (st.cue_in_hand and st.in_hand_area == "kitchen") or s.pre is None:
            return []
        cue = s.pre.get(WHITE)
        if cue is not None and cue[1] - hs > self.options.in_hand_tolerance_mm:
            return [self._foul("bad_placement")]
        f = s.facts
        if not f.first or f.first_t is None:
            return []
        behind = [b for b in f.first if b in s.pre and s.pre[b][1] < hs]
        if not behind:
            return []
        if any(e.t < f.first_t for e in f.cue_cushions):
            s.review.append(f"from in hand behind the head string the cue ball hit the "
                            f"{behind[0]}, also behind it, after a cushion: check that it crossed "
                            "the head string first (002 6.11)")
            return []
        return [self._foul("bad_play_from_kitchen", behind[0])]

    def _entered_fouls(self, s: PoolStroke) -> list[Foul]:
        """The fouls the referee entered (002 6.4, 6.6-6.9, 6.12, 6.13, 6.15, 6.16)."""
        out = []
        for of in s.shot.operator.fouls:
            if of.code not in FOULS:
                raise RuleError(f"shot {s.shot.shot}: {of.code!r} is not a pool foul; the referee "
                                f"may enter {', '.join(sorted(OPERATOR_FOULS))}")
            out.append(self._foul(of.code, of.ball))
        return out

    @staticmethod
    def balls_to_rail(s: PoolStroke) -> frozenset[str]:
        """Object balls that reached a cushion (or left the table) after the strike."""
        return frozenset(b for e in s.shot.events if e.type == EventType.CUSHION
                         and e.t >= s.facts.t0 for b in e.balls if b != WHITE) \
            | frozenset(s.facts.objects_off)

    # ------------------------------------------------------------------ after the shot
    def positions_after(self, s: PoolStroke, gone: set[str],
                        spotted: Mapping[str, Position | None]) -> dict[str, Position] | None:
        """The balls at rest: the record's, or those before less the balls gone, with the
        spotted balls placed."""
        base = s.shot.positions_after if s.shot.positions_after is not None else s.pre
        if base is None:
            return None
        pos = {b: p for b, p in base.items() if b not in gone}
        pos.update({b: p for b, p in spotted.items() if p is not None})
        return pos

    def after_shot(self, s: PoolStroke, *, keep: bool, on_table: frozenset[str],
                   positions: dict[str, Position] | None, game: PoolState,
                   foul: bool) -> FrameState:
        """The state for the next shot: the same player (``keep``) or the other; after a foul
        the cue ball in hand anywhere (002 1.5); after a scratch in hand too."""
        st = s.st
        striker, turn = (st.striker, st.turn) if keep else st.pass_turn()
        cue_gone = s.facts.cue_gone
        if cue_gone and positions is not None:
            positions = {b: p for b, p in positions.items() if b != WHITE}
        return replace(st, striker=striker, turn=turn, resume=None if not keep else st.resume,
                       on_table=on_table, positions=positions, game=game,
                       cue_in_hand=foul or cue_gone, in_hand_area="table",
                       shots=st.shots + 1)

    def won(self, st: FrameState, winner: int, reason: str) -> FrameState:
        """The rack over, won by ``winner`` (one point for the rack, 002 8.10)."""
        scores = [0, 0]
        scores[winner] = 1
        return replace(st, frame_over=True, winner=winner, phase=Phase.OVER, end_reason=reason,
                       scores=(scores[0], scores[1]), game=replace(st.game, choice=None),
                       cue_in_hand=False)

    @staticmethod
    def with_choice(st: FrameState, choice: Choice) -> FrameState:
        """``st`` with ``choice`` pending."""
        return replace(st, game=replace(st.game, choice=choice))


def _number(ball: str) -> int:
    """A pool ball's number (the cue ball 0), for ordering."""
    return int(ball) if ball.isdigit() else 0
