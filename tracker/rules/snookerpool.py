"""Snookerpool (A. M. DeWitt, 2022; ``shared/rules/sources/004_*.txt``), complete as written.

Played on a pool table with pool balls: solids ``1``..``8`` worth 1 each, stripes ``9``..``15``
worth 2..8. Phase 1 alternates "any solid" and "one stripe of choice" (chosen by nomination
or by first contact); phase 2 starts after the stroke that follows the last solid (or at once
if a foul leaves no solid) and plays the stripes in ascending order. There is no free ball,
no miss and no play-again: after any foul the incoming player has the cue ball in hand
anywhere on the table. Penalty: the highest of 4, the value of the ball on and the highest
value of the balls involved; 8 for a foul after a solid before a stripe is nominated.

The engine reuses the snooker state machine's names: ``Phase.RED`` = solids on,
``Phase.COLOUR_CHOICE`` = a stripe of choice on, ``Phase.SEQ`` = the lowest stripe on
(``seq_colour``), ``Phase.RESPOTTED_BLACK`` = the tie-break on the re-spotted 15.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from calibration.table import TableGeometry
from tracker.records.shot import EventType, InputKind, OperatorInput, Shot
from tracker.rules.fouls import FOULS, Group, penalty
from tracker.rules.options import RuleOptions
from tracker.rules.respot import respot_positions
from tracker.rules.snooker import InputResult, RuleError
from tracker.rules.state import Decision, Foul, FrameState, PendingFoul, Phase, Position, Respot

WHITE = "white"
SOLIDS = tuple(str(i) for i in range(1, 9))
STRIPES = tuple(str(i) for i in range(9, 16))
VALUES = {**{s: 1 for s in SOLIDS}, **{str(i): i - 7 for i in range(9, 16)}, WHITE: 0}
#: A 9-ft pool table's playing area and balls, mm (WPA: 100 x 50 in, 2 1/4 in balls).
POOL_TABLE = TableGeometry(length=2540.0, width=1270.0, ball_diameter=57.15, baulk_line=635.0,
                           d_radius=0.0, black_from_top=635.0, corner_mouth=118.0, middle_mouth=130.0)
FOUL_BEFORE_NOMINATION = 8


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


def _value(b: str) -> int:
    return VALUES[b]


@dataclass(frozen=True)
class SnookerpoolRules:
    """Snookerpool with 8 (standard), 6 (hexagon) or 3 (mini-diamond) solids."""

    name: str = "snookerpool"
    n_solids: int = 8
    table: TableGeometry = POOL_TABLE
    options: RuleOptions = field(default_factory=RuleOptions)

    def with_options(self, options: RuleOptions, table: TableGeometry | None = None) -> SnookerpoolRules:
        """Same game, other options or table."""
        return replace(self, options=options, table=table or self.table)

    # ------------------------------------------------------------------ setup
    def solids_in_play(self) -> tuple[str, ...]:
        """Solid ids racked for this variant."""
        return SOLIDS[: self.n_solids]

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
        if self.n_solids <= 6:
            keep = [s for s in keep if s[0] != 0]
        if self.n_solids <= 3:
            keep = [s for s in keep if s[0] < 0]
        pos = {sid: (x, y) for sid, (_, x, y) in zip(self.solids_in_play(), keep, strict=False)}
        pos.update(spots)
        return pos

    def new_frame(self, players: tuple[str, str], breaker: int = 0,
                  positions: Mapping[str, Position] | None = None, frame: int = 1) -> FrameState:
        """Start: cue ball in hand in the kitchen, solids on."""
        pos = dict(positions) if positions is not None else self.setup_positions()
        on = frozenset(b for b in pos if b != WHITE)
        return FrameState(ruleset=self.name, players=players, scores=(0, 0), striker=breaker,
                          breaker=breaker, on_table=on, phase=Phase.RED, cue_in_hand=True,
                          positions=pos, options=self.options.to_dict(), frame=frame)

    # ------------------------------------------------------------------ queries
    def solids(self, on: frozenset[str]) -> list[str]:
        """Solids on the table."""
        return [b for b in SOLIDS if b in on]

    def lowest_stripe(self, on: frozenset[str]) -> str | None:
        """The lowest-valued stripe on the table."""
        return next((b for b in STRIPES if b in on), None)

    def points_remaining(self, st: FrameState) -> int:
        """Most points still available: 8 (the 15) after every solid, plus the stripes."""
        stripes = sum(VALUES[b] for b in STRIPES if b in st.on_table)
        n = len(self.solids(st.on_table))
        extra = 8 if st.phase == Phase.COLOUR_CHOICE else 0
        if st.phase == Phase.SEQ and st.seq_colour:
            return sum(VALUES[b] for b in STRIPES if b in st.on_table and int(b) >= int(st.seq_colour))
        return 9 * n + stripes + extra

    def ball_on_label(self, st: FrameState) -> str:
        """``solid``, ``stripe``, a stripe number or ``none``."""
        return {Phase.RED: "solid", Phase.COLOUR_CHOICE: "stripe"}.get(
            st.phase, st.seq_colour or ("15" if st.phase == Phase.RESPOTTED_BLACK else "none"))

    def _turn_start(self, on: frozenset[str]) -> tuple[Phase, str | None]:
        if self.solids(on):
            return Phase.RED, None
        low = self.lowest_stripe(on)
        return (Phase.SEQ, low) if low else (Phase.OVER, None)

    # ------------------------------------------------------------------ the stroke
    def decide(self, st: FrameState, shot: Shot) -> tuple[Decision, FrameState]:
        """Call one stroke of Snookerpool."""
        if st.frame_over:
            raise RuleError(f"shot {shot.shot}: the frame is already over")
        notes: list[str] = []
        review: list[str] = list(shot.needs_review)
        for e in shot.events:
            for b in e.balls:
                if b != WHITE and b not in VALUES:
                    raise RuleError(f"shot {shot.shot}: {b!r} is not a Snookerpool ball (white, 1-15)")
                if b != WHITE and b not in st.on_table and e.type in (EventType.POT, EventType.CONTACT,
                                                                      EventType.OFF_TABLE):
                    raise RuleError(f"shot {shot.shot}: the {b} is not on the table")
        strike = next((e for e in shot.events if e.type == EventType.STRIKE), None)
        t0 = strike.t if strike else -math.inf
        contacts = [e for e in shot.events if e.type == EventType.CONTACT and WHITE in e.balls
                    and e.t >= t0]
        first: set[str] = set()
        if contacts:
            for e in contacts:
                if e.t - contacts[0].t <= self.options.simultaneous_s:
                    first.update(b for b in e.balls if b != WHITE)
        # ball on
        nominated = None
        if st.phase == Phase.RED:
            on = set(self.solids(st.on_table))
            v_on: int | None = 1
        elif st.phase == Phase.COLOUR_CHOICE:
            nominated = shot.nomination
            if nominated is None and len(first) == 1 and next(iter(first)) in STRIPES:
                nominated = next(iter(first))
                notes.append(f"stripe {nominated} chosen by first contact")
            on = {nominated} if nominated else set()
            v_on = VALUES[nominated] if nominated else None
        else:
            c = st.seq_colour if st.phase == Phase.SEQ else "15"
            on, v_on = {c}, VALUES[c]  # type: ignore[index]
        fouls: list[Foul] = []

        def add(code: str, balls: tuple[str, ...] = (), text: str | None = None) -> None:
            k = FOULS[code]
            vals = tuple(VALUES[b] for b in balls)
            pen = penalty(Group.B if k.group is not Group.D else Group.D, v_on, vals,
                          maximum=8, undetermined=FOUL_BEFORE_NOMINATION)
            if k.group is Group.D:
                pen = max(7, pen)
            msg = text or k.message.format(ball=balls[0] if balls else "", balls=" and ".join(balls))
            fouls.append(Foul(code, "Snookerpool: Fouls", k.digest, msg, pen, balls))

        if strike and strike.ball != WHITE:
            add("wrong_cue_ball", (strike.ball,))
        pre = shot.positions_before
        if st.cue_in_hand and st.shots == 0 and pre and WHITE in pre and pre[WHITE][1] > self.table.length / 4 + 2:
            add("in_hand_outside_d", text="break played from outside the kitchen")
        for e in shot.events:
            if e.type == EventType.MOVING_AT_STRIKE:
                add("moving_ball", (e.ball,))
            elif e.type == EventType.PUSH:
                add("push_stroke", (e.ball,))
            elif e.type == EventType.DISTURBED and e.by == "striker":
                add("ball_disturbed", (e.ball,))
        if pre is not None:
            for b in STRIPES:
                if b in st.on_table and b not in pre:
                    add("not_respotted", (b,), f"struck before the {b} had been spotted")
        if strike is not None:
            if not first:
                add("no_contact")
            elif len(first) > 1 and not first <= set(SOLIDS):
                add("simultaneous_hit", tuple(sorted(first, key=lambda b: -VALUES[b])[:2]))
            elif not first <= on:
                add("wrong_ball_first", (max(first, key=lambda b: VALUES[b]),))
        potted = [e.ball for e in shot.events if e.type == EventType.POT and e.ball != WHITE
                  and e.rest_s <= self.options.hanging_ball_s]
        cue_gone = any(e.type in (EventType.POT, EventType.OFF_TABLE) and e.ball == WHITE
                       for e in shot.events)
        off = [e.ball for e in shot.events if e.type == EventType.OFF_TABLE and e.ball != WHITE]
        if any(e.type == EventType.POT and e.ball == WHITE for e in shot.events):
            add("cue_ball_potted")
        for b in off:
            add("forced_off", (b,))
        if any(e.type == EventType.OFF_TABLE and e.ball == WHITE for e in shot.events):
            add("forced_off", (), "the cue ball was forced off the table")
        bad = [b for b in potted if b not in on]
        if bad:
            add("pot_not_on", (max(bad, key=lambda b: VALUES[b]),))
        for f in shot.operator.fouls:
            add(f.code, (f.ball,) if f.ball else ())
        foul = bool(fouls)
        pen = max((f.penalty for f in fouls), default=0)
        # scoring
        pts = 0 if foul else sum(VALUES[b] for b in potted)
        on_after = set(st.on_table) - set(potted) - set(off)
        to_spot = [b for b in [*potted, *off] if b in STRIPES and
                   (foul or st.phase == Phase.COLOUR_CHOICE)]
        to_spot += [b for b in STRIPES if b in st.on_table and pre is not None and b not in pre
                    and b not in to_spot]
        post = None
        if shot.positions_after is not None:
            post = {k: v for k, v in shot.positions_after.items()
                    if k not in potted and k not in off and not (k == WHITE and cue_gone)}
        spots = stripe_spots(self.table)
        respots: tuple[Respot, ...] = ()
        if to_spot:
            occ = None if post is None else {k: v for k, v in post.items() if k not in to_spot}
            respots = tuple(respot_positions(
                to_spot, occ, spots, list(reversed(STRIPES)), _value, self.table.ball_diameter,
                self.table.length))
            on_after |= set(to_spot)
        positions = dict(post) if post is not None else None
        if positions is not None:
            for r in respots:
                if r.position:
                    positions[r.ball] = r.position
        scores = list(st.scores)
        on_f = frozenset(on_after)
        striker = st.striker
        if foul:
            scores[1 - striker] += pen
            phase, seq = self._turn_start(on_f)
            if st.phase == Phase.RESPOTTED_BLACK:
                phase = Phase.RESPOTTED_BLACK
            nxt = replace(st, scores=tuple(scores), striker=1 - striker, break_points=0, phase=phase,
                          seq_colour=seq, on_table=on_f, positions=positions, cue_in_hand=True,
                          pending=PendingFoul(striker, ("ball_in_hand",), None, False),
                          shots=st.shots + 1)
            options: tuple[str, ...] = ("ball_in_hand",)
            notes.append("cue ball in hand anywhere on the table for the incoming player")
        elif pts > 0:
            scores[striker] += pts
            if st.phase == Phase.RED:
                phase, seq = Phase.COLOUR_CHOICE, None
            elif st.phase == Phase.COLOUR_CHOICE:
                phase, seq = self._turn_start(on_f)
            else:
                phase, seq = self._turn_start(on_f)
                if st.phase == Phase.RESPOTTED_BLACK:
                    phase = Phase.OVER
            nxt = replace(st, scores=tuple(scores), break_points=st.break_points + pts, phase=phase,
                          seq_colour=seq, on_table=on_f, positions=positions, cue_in_hand=False,
                          pending=None, shots=st.shots + 1)
            options = ()
        else:
            phase, seq = self._turn_start(on_f)
            if st.phase == Phase.RESPOTTED_BLACK:
                phase = Phase.RESPOTTED_BLACK
            nxt = replace(st, scores=tuple(scores), striker=1 - striker, break_points=0, phase=phase,
                          seq_colour=seq, on_table=on_f, positions=positions, cue_in_hand=False,
                          pending=None, shots=st.shots + 1)
            options = ()
        # end of frame: the 15 alone and potted or a foul; the tie-break until scores differ
        only_15 = st.on_table == frozenset({"15"})
        if (only_15 and (foul or pts)) or st.phase == Phase.RESPOTTED_BLACK and (foul or pts) \
                or not nxt.on_table:
            if nxt.scores[0] == nxt.scores[1]:
                notes.append("scores level: a lag decides who plays; the 15 is spotted and the cue ball "
                             "placed in the kitchen; play on until the scores differ")
                nxt = replace(nxt, on_table=frozenset({"15"}), phase=Phase.RESPOTTED_BLACK,
                              positions={"15": spots["15"]}, cue_in_hand=True, pending=None)
            else:
                nxt = replace(nxt, frame_over=True, phase=Phase.OVER,
                              winner=0 if nxt.scores[0] > nxt.scores[1] else 1, end_reason="last_ball")
                options = ()
        if v_on is None and foul:
            review.append("foul after a solid before a stripe was nominated: 8 points")
        dec = Decision(
            shot=shot.shot, striker=st.players[striker], foul=foul, fouls=tuple(fouls), penalty=pen,
            points={p: (pen if (foul and i != striker) else (pts if i == striker else 0))
                    for i, p in enumerate(st.players)},
            score=dict(zip(st.players, nxt.scores, strict=True)),
            break_points=nxt.break_points, next_striker=None if nxt.frame_over else nxt.players[nxt.striker],
            ball_on=self.ball_on_label(nxt), free_ball=False, miss=False, options=options,
            respots=respots, frame_over=nxt.frame_over,
            winner=nxt.players[nxt.winner] if nxt.winner is not None else None,
            potted=tuple(potted), nominated=nominated, points_remaining=self.points_remaining(nxt),
            needs_review=tuple(review), notes=tuple(notes), end_reason=nxt.end_reason)
        return dec, nxt

    def apply_input(self, st: FrameState, inp: OperatorInput) -> tuple[InputResult, FrameState]:
        """Concession, lag result (``lots``), award; Snookerpool has no play-again or miss."""
        def result(ok: bool, msg: str, s: FrameState) -> InputResult:
            return InputResult(str(inp.kind), ok, msg, dict(zip(s.players, s.scores, strict=True)),
                               None if s.frame_over else s.players[s.striker], s.frame_over,
                               s.players[s.winner] if s.winner is not None else None, s.end_reason)

        if inp.kind == InputKind.OPTION:
            if inp.choice == "ball_in_hand" or inp.choice == "play":
                return result(True, "cue ball in hand anywhere", st), replace(st, pending=None)
            return result(False, "Snookerpool has no play-again or replacement after a foul", st), st
        if inp.kind == InputKind.CONCEDE:
            who = st.players.index(inp.player) if inp.player in st.players else st.striker
            nxt = replace(st, frame_over=True, winner=1 - who, phase=Phase.OVER, end_reason="conceded")
            return result(True, f"{st.players[who]} concedes; accepted", nxt), nxt
        if inp.kind in (InputKind.LOTS, InputKind.STRIKER):
            if inp.player not in st.players:
                raise RuleError(f"{inp.kind}: {inp.player!r} is not a player")
            nxt = replace(st, striker=st.players.index(inp.player))
            return result(True, f"{inp.player} to play", nxt), nxt
        if inp.kind == InputKind.AWARD_FRAME:
            if inp.player not in st.players:
                raise RuleError(f"award_frame: {inp.player!r} is not a player")
            w = st.players.index(inp.player)
            nxt = replace(st, frame_over=True, winner=w, phase=Phase.OVER, end_reason="awarded")
            return result(True, f"frame awarded to {inp.player}", nxt), nxt
        return result(False, "no claims in Snookerpool", st), st
