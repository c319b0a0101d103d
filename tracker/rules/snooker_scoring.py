"""Scoring a fair snooker stroke (C21, C25) and placing the balls after it (R9, R15, C34-C36),
mixed into the snooker referee: the balls put back, the colours re-spotted, the scores and
the penalty before the turn passes.
"""

from __future__ import annotations

from typing import Any

from tracker.records.shot import EventType
from tracker.rules.respot import respot_positions
from tracker.rules.snooker_types import SnookerStroke, TableAfter
from tracker.rules.state import Phase, Position, Respot, Snapshot

#: Who may move a ball without penalty: it is put back (R15).
PUT_BACK_BY = ("referee", "outside", "house_equipment")


class SnookerScoringRules:
    """The scoring and ball-placing part of the snooker referee (needs the
    ``SnookerRules`` fields)."""

    balls: Any
    table: Any
    options: Any
    last_ball: str
    deduct_unspotted: bool

    def _score(self, s: SnookerStroke) -> int:
        """C21, C25: points of a fair stroke."""
        st, ctx, potted = s.st, s.ctx, s.facts.potted
        if st.phase == Phase.RED:
            return sum(1 for b in potted if self.balls.is_red(b) or b == ctx.fb)
        if st.phase == Phase.COLOUR_CHOICE:
            return self.balls.value(ctx.nominated) if ctx.nominated in potted else 0  # type: ignore[arg-type]
        if st.phase in (Phase.SEQ, Phase.RESPOTTED_BLACK):
            c = st.seq_colour if st.phase == Phase.SEQ else self.last_ball
            if c in potted or (ctx.fb and ctx.fb in potted):
                return self.balls.value(c)  # type: ignore[arg-type]
        return 0

    def _on_after_pots(self, s: SnookerStroke) -> set[str]:
        return set(s.st.on_table) - set(s.facts.potted) - set(s.facts.objects_off)

    def _positions_after(self, s: SnookerStroke) -> dict[str, Position] | None:
        """Positions at rest, without the balls that left the table."""
        if s.shot.positions_after is None:
            return None
        f = s.facts
        gone = set(f.potted) | set(f.off) | ({self.balls.cue} if f.cue_gone else set())
        return {k: v for k, v in s.shot.positions_after.items() if k not in gone}

    def _balls_put_back(self, s: SnookerStroke) -> list[str]:
        """R9(a), R15: balls that dropped late, fell from a lip or were moved by someone other
        than the players, put back where they were (in event order)."""
        out: list[str] = []
        late = dict(s.facts.late_drops)
        for e in s.facts.early:
            if e.type == EventType.POT:
                out.append(e.ball)
                s.notes.append(f"the {e.ball} dropped before the strike: not part of the stroke, "
                               "put back (R9(a))")
                s.review.append(f"a pot of the {e.ball} is recorded before the strike: check the "
                                "record's times")
        for e in s.shot.events:
            if e.type == EventType.POT and e.t < s.facts.t0:
                continue  # dropped before the strike: above
            if e.type == EventType.POT and e.ball in late and e.rest_s == late[e.ball]:
                out.append(e.ball)
                s.notes.append(f"the {e.ball} fell {e.rest_s:.1f} s after stopping on the lip: "
                               "not part of the stroke, put back (R9(a))")
            elif e.type == EventType.POT and e.rest_s > 0 and e.ball != self.balls.cue:
                s.notes.append(f"the {e.ball} balanced on the lip and fell: it counts (R9(c))")
            elif e.type == EventType.LIP_DROP:
                out.append(e.ball)
                s.notes.append(f"the {e.ball} fell from the lip untouched: put back, no penalty (R9(a))")
                if e.t > s.facts.t0:
                    s.review.append(f"the {e.ball} fell from the lip during the stroke: check whether "
                                    "a moving ball would have hit it (R9(b))")
            elif e.type == EventType.DISTURBED and e.by in PUT_BACK_BY:
                out.append(e.ball)
                s.notes.append(f"the {e.ball} was moved by the {e.by}: repositioned, no penalty (R15)")
            elif e.type == EventType.DISTURBED and e.by == "non_striker":
                out.append(e.ball)
                s.notes.append(f"the {e.ball} was moved by the non-striker: repositioned (R14(h), R15)")
        return out

    def _balls_to_spot(self, s: SnookerStroke) -> list[str]:
        """C34: colours potted in a foul or while they are re-spotted, colours forced off,
        colours missing at the strike."""
        foul = bool(s.fouls)
        out = [b for b in s.facts.potted
               if self.balls.is_colour(b) and (foul or self._respot_after_fair_pot(s, b))]
        out += [b for b in s.facts.off if self.balls.is_colour(b)]
        out += [c for c in s.missing if c not in out]
        return out

    def _respot_after_fair_pot(self, s: SnookerStroke, ball: str) -> bool:
        if s.ctx.fb and ball == s.ctx.fb:
            return True  # a potted free ball is always spotted (R12(c),(e))
        return s.st.phase == Phase.COLOUR_CHOICE  # colour after a red, the last red included

    def _respot(self, to_spot: list[str], post: dict[str, Position] | None, put_back: list[str],
                pre: dict[str, Position] | None) -> tuple[Respot, ...]:
        """Where the referee puts each ball back (R9, R15) or re-spots it (C35)."""
        out = [Respot(b, pre.get(b) if pre else None, "put_back") for b in put_back]
        if to_spot:
            occupied = None
            if post is not None:
                occupied = {k: v for k, v in post.items() if k not in to_spot}
                occupied.update({r.ball: r.position for r in out if r.position})
            out.extend(respot_positions(to_spot, occupied, self.spots(), self.spot_priority(),
                                        self.balls.value, self.table.ball_diameter,
                                        self.table.length, own_first=self.options.own_spots_first))
        return tuple(out)

    def _table_after(self, s: SnookerStroke) -> TableAfter:
        """The balls, positions and scores once the stroke is over (before the turn passes)."""
        post = self._positions_after(s)
        respots = self._respot(self._balls_to_spot(s), post, s.put_back, s.pre)
        on_after = self._on_after_pots(s) | {r.ball for r in respots} | set(s.put_back)
        scores, break_points = self._deduct_unspotted(s)
        pen = self._penalty(s)
        for f in s.nonstriker:
            scores[s.st.striker] += f.penalty
            s.notes.append(f"non-striker's foul: {f.message}; {f.penalty} to the striker, "
                           "order of play unchanged (R2(b)(ii))")
        if s.fouls:
            scores[1 - s.st.striker] += pen
        return TableAfter(frozenset(on_after), apply_respots(post, respots), post, respots,
                      (scores[0], scores[1]), break_points, pen)

    def _deduct_unspotted(self, s: SnookerStroke) -> tuple[list[int], int]:
        """C06: the colour scored last stroke and not re-spotted when this one was played
        does not score (R3(g)(iv))."""
        scores, break_points = list(s.st.scores), s.st.break_points
        last = s.st.last_colour_scored
        if self.deduct_unspotted and last and last[0] in s.missing and last[2] == s.st.striker:
            scores[last[2]] -= last[1]
            break_points = max(0, break_points - last[1])
            s.notes.append(f"the {last[0]} potted last stroke does not score (R3(g)(iv))")
        return scores, break_points

    def _penalty(self, s: SnookerStroke) -> int:
        """The penalty incurred (C19); D18's ``own`` reading for a potted free ball."""
        pen = max((f.penalty for f in s.fouls), default=0)
        fb = s.ctx.fb
        if s.fouls and fb and fb in s.facts.potted and self.options.free_ball_value == "own":
            pen = min(7, max(pen, self.balls.value(fb)))
            s.notes.append(f"the potted free ball counts at its own value ({self.balls.value(fb)}) "
                           "(option free_ball_value=own, D18)")
        return pen

    def _snapshot(self, s: SnookerStroke) -> Snapshot:
        st = s.st
        return Snapshot(s.pre, st.on_table, st.phase, st.seq_colour, st.last_red_colour,
                        st.cue_in_hand, st.free_ball)


def apply_respots(post: dict[str, Position] | None,
                   respots: tuple[Respot, ...]) -> dict[str, Position] | None:
    if post is None:
        return None
    out = dict(post)
    for r in respots:
        if r.position is not None:
            out[r.ball] = r.position
    return out
