"""The state after an English billiards stroke, mixed into
:class:`tracker.rules.billiards.EnglishBilliardsRules`: the scores and the break, the balls
put back and the red and whites spotted (EB S3 R8, R13, R15), the limits' announcements, the
game's end (R5), and the records whose stroke does not stand (no strike, R11, R12; the lip
ruling, R11(b)).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tracker.records.shot import EventType
from tracker.rules import geometry as G
from tracker.rules.billiards_types import (
    ANNOUNCE_BEFORE_LIMIT,
    CROSSING_WINDOW,
    FOUL_POINTS,
    POT_RED,
    BilliardsState,
    BilliardsStroke,
    pending_foul,
)
from tracker.rules.outcome import Outcome, build_decision
from tracker.rules.state import Decision, FrameState, Phase, Position, Respot


class BilliardsAfterRules:
    """The next-state part of the billiards referee (needs its fields and foul hooks)."""

    balls: Any
    table: Any
    options: Any
    name: str
    touching_by_agreement: bool
    baulk_crossing: bool

    def _after_stroke(self, s: BilliardsStroke) -> tuple[Decision, FrameState]:
        st = s.st
        points = sum(p for _, p in s.scoring)
        penalty = FOUL_POINTS if (s.fouls or s.miss) else 0
        scores = list(st.scores)
        scores[st.striker if points else 1 - st.striker] += points or penalty
        on_table, positions, respots, g2 = self._balls_after(s)
        g2 = self._break_counts(s, g2, points)
        continues = points > 0
        striker, turn = (st.striker, st.turn) if continues else st.pass_turn()
        nxt = replace(st, scores=(scores[0], scores[1]), on_table=on_table, positions=positions,
                      striker=striker, turn=turn, resume=None, shots=st.shots + 1, game=g2,
                      break_points=st.break_points + points if continues else 0,
                      pending=None, free_ball=False)
        nxt, extra = self._touching_ball(nxt, s)
        nxt, end_notes = self._game_end(nxt)
        options = ("play", "spot_balls") if s.fouls and not nxt.frame_over else ()
        if options:
            nxt = replace(nxt, pending=pending_foul(st, options))
            s.notes.append("the next player may play from where the balls are, or from in-hand "
                           "with the red on the Spot and the other white on the Centre spot "
                           "(EB S3 R15)")
        out = Outcome(fouls=tuple(s.fouls), penalty=penalty,
                      points={st.striker: points} if points else {1 - st.striker: penalty},
                      potted=s.facts.potted, respots=respots + extra, options=options, miss=s.miss,
                      break_points=0 if s.fouls else st.break_points + points,
                      scoring=tuple(s.scoring),
                      notes=(*s.notes, *end_notes), review=tuple(s.review))
        return build_decision(self, st, s.shot.shot, out, nxt), nxt

    def _balls_after(self, s: BilliardsStroke) -> tuple[frozenset[str], dict[str, Position] | None,
                                                 tuple[Respot, ...], BilliardsState]:
        """Which balls are on the table, where, and what the referee spotted (EB S3 R8)."""
        f, g = s.facts, s.g
        gone = set(f.potted) | set(f.off) | ({s.cue} if f.cue_gone else set())
        put_back = self._put_back(s)
        played = set() if f.cue_gone else {s.cue}  # a cue ball played from in-hand is in play
        on = (set(s.st.on_table) - gone) | set(put_back) | played
        post = None
        if s.shot.positions_after is not None:
            post = {k: v for k, v in s.shot.positions_after.items() if k not in gone}
        respots = tuple(Respot(b, s.pre.get(b) if s.pre else None, "put_back") for b in put_back)
        own_off = (g.own_off | ({s.cue} if f.cue_gone else set())) - ({s.other} if s.other in gone else set())
        g2 = replace(g, own_off=frozenset(own_off), touching_offer=False,
                     red_spot=g.red_spot if self._red_untouched(s) else None)
        if "red" in gone:
            spot, g2 = self._spot_red(s, g2, post)
            respots += (spot,)
            on.add("red")
            post = {**post, "red": spot.position} if post is not None and spot.position else post
        if post is not None:
            post.update({r.ball: r.position for r in respots if r.position})
        return frozenset(on), post, respots, g2

    def _put_back(self, s: BilliardsStroke) -> list[str]:
        """EB S3 R11, R12: a ball that dropped late or fell untouched, or was moved by anyone
        but the striker, goes back where it was."""
        out = [b for b, _ in s.facts.late_drops] + [e.ball for e in s.facts.lip_drops]
        out += [e.ball for e in s.facts.early if e.type == EventType.POT]
        out += [e.ball for e in s.facts.disturbed if e.by != "striker"]
        for b in out:
            s.notes.append(f"the {b} is put back where it was (EB S3 R11, R12)")
        return list(dict.fromkeys(out))

    def _red_untouched(self, s: BilliardsStroke) -> bool:
        """EB S3 R8: a ball touched by another is no longer on its spot."""
        return not any("red" in e.balls for e in s.shot.events
                       if e.type in (EventType.CONTACT, EventType.DISTURBED, EventType.PUSH))

    def _spot_red(self, s: BilliardsStroke, g: BilliardsState, post: dict[str, Position] | None
                  ) -> tuple[Respot, BilliardsState]:
        """EB S3 R8: the Spot, then the Pyramid, then the Centre spot; after two pots of the
        red alone from the Spot or Pyramid in a break, the Centre spot first."""
        alone = not s.fouls and s.scoring == [("pot red", POT_RED)]
        from_spot = s.g.red_spot in ("spot", "pyramid")
        count = s.g.red_spot_pots + 1 if alone and from_spot else 0
        order = ("centre", "pyramid", "spot") if count >= 2 else ("spot", "pyramid", "centre")
        if count >= 2:
            s.notes.append("the red was potted twice running from the Spot: it goes on the Centre "
                           "spot (EB S3 R8)")
        elif alone and from_spot:
            s.notes.append("1 pot of the red from the Spot in this break (EB S3 R8)")
        where = self._free_spot(order, post, "red")
        count = 0 if count >= 2 else count
        return (Respot("red", self.spots()[where], where),
                replace(g, red_spot=where, red_spot_pots=count))

    def _free_spot(self, order: tuple[str, ...], post: Mapping[str, Position] | None,
                   ball: str) -> str:
        """The first spot of ``order`` no ball would touch (EB S2 R19); the last if none is."""
        if post is None:
            return order[0]
        others = [p for b, p in post.items() if b != ball]
        clear = self.table.ball_diameter + 0.1
        for name in order:
            if all(math.dist(self.spots()[name], p) >= clear for p in others):
                return name
        return order[-1]

    def _break_counts(self, s: BilliardsStroke, g: BilliardsState, points: int) -> BilliardsState:
        """Hazard and cannon counts (EB S3 R9, R10), announced before the limit; the baulk
        crossing (000 2.13)."""
        if not points:
            return replace(g.reset_break(), red_spot_pots=0)
        hazards, cannons = self._counts_after(s.g, s.scoring)
        if hazards == self.options.hazard_limit - ANNOUNCE_BEFORE_LIMIT:
            s.notes.append(f"{hazards} HAZARDS (EB S3 R10)")
        if cannons == self.options.cannon_limit - ANNOUNCE_BEFORE_LIMIT:
            s.notes.append(f"{cannons} CANNONS (EB S3 R9)")
        crossed = g.crossed or (self.baulk_crossing and self._crossed_into_baulk(s)
                                and CROSSING_WINDOW[0] <= s.st.break_points % 100)
        if self.baulk_crossing and (s.st.break_points + points) // 100 > s.st.break_points // 100:
            crossed = False
        return replace(g, hazards=hazards, cannons=cannons, crossed=crossed)

    def _touching_ball(self, nxt: FrameState, s: BilliardsStroke) -> tuple[FrameState, tuple[Respot, ...]]:
        """EB S3 R13: the next striker's ball at rest touching a ball: the red on the Spot,
        the other white on the Centre spot, the striker in hand; and the non-striker's own
        ball back on the table after the hazard limit (EB S3 R10)."""
        nxt, extra = self._after_hazard_limit(nxt, s)
        g = nxt.game
        cue = g.cue_of[nxt.striker]
        nxt = replace(nxt, cue_in_hand=cue not in nxt.on_table)
        touching = self._touching(nxt.positions, cue)
        if not touching or nxt.cue_in_hand:
            return nxt, extra
        if self.touching_by_agreement:
            return replace(nxt, game=replace(g, touching_offer=True)), extra
        s.notes.append(f"TOUCHING BALL ({', '.join(touching)}): the red goes on the Spot, the other "
                       "ball on the Centre spot, and the striker plays from in-hand (EB S3 R13)")
        placed, spotted = self._spot_both(nxt, cue, other_always=False)
        return placed, extra + spotted

    def _spot_both(self, st: FrameState, cue: str, other_always: bool
                   ) -> tuple[FrameState, tuple[Respot, ...]]:
        """The red on the Spot and the other white on the Centre spot (for a touching ball
        only if it is on the table), the striker's ball in hand (EB S3 R13, R15)."""
        other = next(b for b in self.balls.cue_balls if b != cue)
        pos = {b: p for b, p in (st.positions or {}).items() if b not in (cue, "red", other)}
        respots = [Respot("red", self.spots()["spot"], "spot")]
        if other in st.on_table or other_always:
            respots.append(Respot(other, self.spots()["centre"], "centre"))
        pos.update({r.ball: r.position for r in respots if r.position})
        on = (st.on_table - {cue}) | {r.ball for r in respots}
        g = replace(st.game, red_spot="spot", touching_offer=False)
        return (replace(st, on_table=on, positions=pos, cue_in_hand=True, game=g),
                tuple(respots))

    def _after_hazard_limit(self, nxt: FrameState, s: BilliardsStroke) -> tuple[FrameState, tuple[Respot, ...]]:
        g = nxt.game
        if not (s.scoring and g.hazards == self.options.hazard_limit and s.other in g.own_off
                and s.other not in nxt.on_table):
            return nxt, ()
        where = self._free_spot(("baulk_middle", "d_right"), nxt.positions, s.other)
        r = Respot(s.other, self.spots()[where], where)
        pos = {**(nxt.positions or {}), s.other: r.position}
        s.notes.append(f"after the {self.options.hazard_limit}th hazard the {s.other}, off the table "
                       "since its owner's stroke, is placed on the table (EB S3 R10)")
        return replace(nxt, on_table=nxt.on_table | {s.other}, positions=pos,
                       game=replace(g, own_off=g.own_off - {s.other})), (r,)

    def _touching(self, positions: Mapping[str, Position] | None, cue: str) -> tuple[str, ...]:
        if not positions or cue not in positions:
            return ()
        others = {b: p for b, p in positions.items() if b != cue}
        return G.touching_balls(positions[cue], others, self.table, self.options.touching_gap_mm)

    def _game_end(self, nxt: FrameState) -> tuple[FrameState, list[str]]:
        """EB S3 R5(d): the first to reach the target wins; only the points needed count."""
        target = self.options.game_points
        if target is None or max(nxt.scores) < target:
            return nxt, []
        w = 0 if nxt.scores[0] >= target else 1
        scores = list(nxt.scores)
        scores[w] = target
        over = replace(nxt, scores=(scores[0], scores[1]), frame_over=True, winner=w,
                       phase=Phase.OVER, end_reason="points", pending=None)
        return over, [f"{nxt.players[w]} reaches {target}: game (only the points needed count; the "
                      "break is credited in full, EB S3 R5(d))"]

    # ------------------------------------------------------------------ other records
    def _unchanged(self, s: BilliardsStroke) -> tuple[Decision, FrameState]:
        out = Outcome(notes=tuple(s.notes), review=tuple(s.review))
        return build_decision(self, s.st, s.shot.shot, out, s.st), s.st

    def _before_stroke(self, s: BilliardsStroke) -> tuple[Decision, FrameState]:
        """No strike: a ball touched by the striker is a foul (his turn ends, EB S3 R15);
        anything else moved is put back (R11, R12)."""
        touched = [e.ball for e in s.facts.disturbed if e.by == "striker"]
        s.fouls = [self._foul("ball_disturbed", (b,)) for b in touched] + self._fouls_entered(s)
        if not s.fouls:
            s.notes.append("no stroke was made")
            respots = tuple(Respot(b, s.pre.get(b) if s.pre else None, "put_back")
                            for b in self._put_back(s))
            out = Outcome(respots=respots, notes=tuple(s.notes), review=tuple(s.review))
            return build_decision(self, s.st, s.shot.shot, out, s.st), s.st
        return self._after_stroke(s)

    def _replay(self, s: BilliardsStroke) -> tuple[Decision, FrameState]:
        """EB S3 R11(b): a ball that fell from the lip would have been hit: every ball back;
        no foul: the same striker again; a foul: the penalty and the usual options."""
        st = s.st
        s.notes.append(f"the {s.shot.operator.lip_would_be_hit} would have been hit: all balls are "
                       "replaced (EB S3 R11)")
        base = replace(st, positions=s.pre if s.pre is not None else st.positions,
                       shots=st.shots + 1, pending=None)
        if not s.fouls:
            out = Outcome(replay=True, replace_positions=s.pre, notes=tuple(s.notes),
                          review=tuple(s.review))
            return build_decision(self, st, s.shot.shot, out, base), base
        scores = list(st.scores)
        scores[1 - st.striker] += FOUL_POINTS
        striker, turn = st.pass_turn()
        options = ("play", "spot_balls")
        nxt = replace(base, scores=(scores[0], scores[1]), striker=striker, turn=turn, resume=None,
                      break_points=0, game=st.game.reset_break(), pending=pending_foul(st, options),
                      cue_in_hand=st.game.cue_of[striker] not in st.on_table)
        out = Outcome(fouls=tuple(s.fouls), penalty=FOUL_POINTS, points={1 - st.striker: FOUL_POINTS},
                      options=options, replay=True, replace_positions=s.pre, break_points=0,
                      notes=tuple(s.notes), review=tuple(s.review))
        return build_decision(self, st, s.shot.shot, out, nxt), nxt
