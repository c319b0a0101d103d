"""A match: frames in sequence, alternating break-off, frames won (or the aggregate of the
frames' points), four-handed sides, the match result.

``Match.feed(record)`` takes the records of a match log one by one and returns what the
referee says about each (a :class:`Decision`, an input result, or a frame/match summary).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from calibration.table import TableGeometry
from tracker.records.shot import FrameStart, InputKind, OperatorInput, Record, Shot
from tracker.rules.errors import RuleError
from tracker.rules.inputs import FRAME_MAXIMUM
from tracker.rules.outcome import input_result
from tracker.rules.registry import Ruleset, get_ruleset
from tracker.rules.state import FrameState, MatchContext


@dataclass
class Match:
    """Referees a whole match from its records.

    Attributes:
        players: the two players (or sides); set by the first frame_start.
        best_of: frames in the match (with aggregate scoring: the frames played).
        aggregate: the match is decided on the total of the frames' points (S2 R2(g)(ii)).
        teams: four-handed play: each side's two players (S3 R17).
        frames_won: per player (side).
        totals: per player, the points of the frames finished (the aggregate).
        state: the current frame's state (None before the first frame_start).
        rules: the current frame's ruleset.
        history: the decisions so far, as dicts.
        game_awarded: the side the referee awarded the game to (S4 R2(b)), if any.
    """

    players: tuple[str, str] | None = None
    best_of: int = 1
    aggregate: bool = False
    teams: tuple[tuple[str, str], tuple[str, str]] | None = None
    frames_won: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)
    state: FrameState | None = None
    rules: Ruleset | None = None
    first_breaker: int = 0
    frames_started: int = 0
    frames_finished: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    game_awarded: str | None = None
    _counted_frames: set[int] = field(default_factory=set)
    _foul_after_first: bool = False

    # ------------------------------------------------------------------ the result
    @property
    def match_over(self) -> bool:
        """Over once the game is awarded, every frame is played (aggregate scoring), or a
        player has won more than half of ``best_of`` frames."""
        if self.game_awarded is not None:
            return True
        if self.aggregate:
            return self.frames_finished >= self.best_of
        need = self.best_of // 2 + 1
        return any(v >= need for v in self.frames_won.values())

    def match_winner(self) -> str | None:
        """The winner: most frames, or the greatest total under aggregate scoring (S2 R2(g))."""
        if self.game_awarded is not None:
            return self.game_awarded
        table = self.totals if self.aggregate else self.frames_won
        best = max(table.values(), default=0)
        leaders = [p for p, v in table.items() if v == best]
        return leaders[0] if len(leaders) == 1 else None

    def expected_breaker(self) -> int:
        """Index of the player (side) who should open the next frame (S3 R3(b), R17(a))."""
        return (self.first_breaker + self.frames_started) % 2

    # ------------------------------------------------------------------ frames
    def start_frame(self, rec: FrameStart) -> dict[str, Any]:
        """Begin a frame (or restart one started by the wrong player, S3 R3(d)(i))."""
        restart = self._check_frame_ended(rec)
        if restart:
            self.frames_started -= 1
        self._set_up_match(rec)
        assert self.players is not None
        if self.match_over:
            raise RuleError(f"frame {rec.frame} starts after the match is over")
        breaker, notes = self._breaker(rec)
        if restart:
            notes.insert(0, f"frame {rec.frame} restarted without penalty: it was started by the "
                         "wrong player and no foul followed its first stroke (S3 R3(d)(i))")
        self._foul_after_first = False
        self.rules = self._ruleset(rec)
        order = self._order(rec, breaker)
        state = self.rules.new_frame(self.players, breaker, rec.positions, rec.frame)
        self.state = replace(state, order=order, context=self._context(breaker),
                             scores=self._start_points(rec, state.scores))
        if rec.positions is not None and sum(1 for b in rec.positions if b.startswith("red")) == \
                getattr(self.rules, "n_reds", -1) and hasattr(self.rules, "setup_check"):
            notes.extend(self.rules.setup_check(rec.positions))
        self.frames_started += 1
        out = {"frame_start": rec.frame, "ruleset": rec.ruleset, "breaker": self.players[breaker],
               "players": list(self.players), "best_of": self.best_of,
               "next_player": self.state.player,
               "cue_in_hand": self.state.cue_in_hand, "notes": notes}
        if order:
            out["order"] = list(order)
        if self.aggregate:
            out["aggregate"] = dict(self.totals)
        if rec.start_points:
            out["start_points"] = dict(zip(self.players, self.state.scores, strict=True))
        if rec.frames_won:
            out["frames_won"] = dict(self.frames_won)
        self.history.append(out)
        return out

    def _start_points(self, rec: FrameStart, scores: tuple[int, ...]) -> tuple[int, ...]:
        """The scores a frame starts with: ``rec.start_points`` (handicap start points, or a
        frame taken up in progress) by player, else the rules' own (0 each)."""
        if not rec.start_points:
            return scores
        assert self.players is not None
        self._check_named(rec.start_points, "start_points", rec.frame)
        return tuple(int(rec.start_points.get(p, 0)) for p in self.players)

    def _check_named(self, per_player: dict[str, int], what: str, frame: int) -> None:
        assert self.players is not None
        unknown = sorted(set(per_player) - set(self.players))
        if unknown:
            raise RuleError(f"frame {frame}: {what} names {', '.join(unknown)}, not a player of "
                            f"this match ({', '.join(self.players)})")

    def _check_frame_ended(self, rec: FrameStart) -> bool:
        """A frame_start while a frame is in play: a restart (True) when the frame has the
        same number and may be restarted (S3 R3(d)(i)).

        Raises:
            RuleError: the frame in play has not ended and may not be restarted.
        """
        st = self.state
        if st is None or st.frame_over:
            return False
        if rec.frame != st.frame:
            raise RuleError(f"frame {rec.frame} starts before frame {st.frame} has ended; add its "
                            "concession or award, or remove the unfinished frame")
        wrong = st.context.rotation_breaker is not None and st.breaker != st.context.rotation_breaker
        if not wrong:
            raise RuleError(f"frame {rec.frame} is in play and was started by the right player: it "
                            "is not restarted (S3 R3(d)); a stalemate input re-racks it (S3 R16)")
        if st.shots > 1 or self._foul_after_first:
            raise RuleError(f"frame {rec.frame} was started by the wrong player but "
                            + ("another stroke has been played" if st.shots > 1 else
                               "a foul followed its first stroke")
                            + ": it continues and the next frame resumes the order (S3 R3(d)(ii))")
        return True

    def _set_up_match(self, rec: FrameStart) -> None:
        """The first frame_start fixes the players, the length, the scoring and the sides."""
        if self.players is None:
            self.players = rec.players
            self.best_of = self._best_of(rec)
            self.aggregate = rec.aggregate
            self.teams = self._checked_teams(rec)
            self.frames_won = {p: 0 for p in rec.players}
            self.totals = {p: 0 for p in rec.players}
            if rec.breaker is not None:
                side = self._side_of_name(rec.breaker)
                self.first_breaker = side if side is not None else 0
            if rec.frames_won:
                self._take_up(rec)
            return
        if rec.frames_won:
            raise RuleError(f"frame {rec.frame} gives frames_won, a match setting: only the first "
                            "frame_start of a match taken up in progress may")
        if tuple(rec.players) != tuple(self.players):
            raise RuleError(f"frame {rec.frame} names players {', '.join(rec.players)} but the "
                            f"match is {', '.join(self.players)}")
        if rec.aggregate and not self.aggregate:
            raise RuleError(f"frame {rec.frame} asks for aggregate scoring, a match setting: put "
                            "\"aggregate\": true on the first frame_start")
        if rec.teams is not None and rec.teams != self.teams:
            raise RuleError(f"frame {rec.frame} names other teams; the sides are fixed by the first "
                            "frame_start (only the order of play may change, in \"order\")")

    def _take_up(self, rec: FrameStart) -> None:
        """A match taken up in progress: the frames already won count, frames started so far
        are those (the breaker named, or the one the rotation gives from the first frame, opens
        this one)."""
        assert rec.frames_won is not None and self.players is not None
        self._check_named(rec.frames_won, "frames_won", rec.frame)
        self.frames_won.update({p: int(v) for p, v in rec.frames_won.items()})
        if self.match_over:
            raise RuleError(f"frames_won {rec.frames_won} already decides a best of {self.best_of} "
                            "match: there is no frame left to play")
        played = sum(self.frames_won.values())
        if rec.breaker is not None:  # the named player opens this frame: the rotation follows
            self.first_breaker = (self.first_breaker - played) % 2
        self.frames_started = played

    @staticmethod
    def _best_of(rec: FrameStart) -> int:
        """The match length: ``best_of``, or a race to ``race_to`` frames (pool, 002 8.9),
        which is decided exactly as best of 2 x ``race_to`` - 1."""
        if rec.race_to is None:
            return rec.best_of
        if rec.aggregate:
            raise RuleError("a race (race_to) is won on frames, not on aggregate points: remove "
                            "one of them")
        best_of = 2 * rec.race_to - 1
        if rec.best_of not in (1, best_of):
            raise RuleError(f"race_to {rec.race_to} is best of {best_of}, not {rec.best_of}: give "
                            "only one of them")
        return best_of

    @staticmethod
    def _checked_teams(rec: FrameStart) -> tuple[tuple[str, str], tuple[str, str]] | None:
        if rec.teams is None:
            if rec.order is not None:
                raise RuleError("an order of play needs the teams: add \"teams\" (each side's two "
                                "players) to the first frame_start")
            return None
        names = [p for t in rec.teams for p in t]
        if len(set(names)) != 4 or set(names) & set(rec.players):
            raise RuleError("teams must name four different players, none named like a side")
        return rec.teams

    def _side_of_name(self, name: str) -> int | None:
        assert self.players is not None
        if name in self.players:
            return self.players.index(name)
        for i, t in enumerate(self.teams or ()):
            if name in t:
                return i
        return None

    def _breaker(self, rec: FrameStart) -> tuple[int, list[str]]:
        """The side that breaks: the rotation, or the one named (noted when wrong, R3(d))."""
        assert self.players is not None
        breaker = self.expected_breaker()
        if rec.breaker is None:
            return breaker, []
        named = self._side_of_name(rec.breaker)
        if named is None:
            raise RuleError(f"breaker {rec.breaker!r} is not a player ({', '.join(self.players)})")
        if named == breaker:
            return breaker, []
        return named, [f"{rec.breaker} breaks but {self.players[breaker]} should by rotation "
                       "(S3 R3(d)): if only one stroke is played with no foul, restart"]

    def _ruleset(self, rec: FrameStart) -> Ruleset:
        table = None
        try:
            if rec.table:
                table = TableGeometry.of_size(rec.table["length"], rec.table["width"],
                                              rec.table.get("ball_diameter", 52.5))
            return get_ruleset(rec.ruleset, rec.options, table)
        except ValueError as exc:
            raise RuleError(str(exc)) from None

    def _order(self, rec: FrameStart, breaker: int) -> tuple[str, ...]:
        """Four-handed: the playing order, alternating sides from the breaking side (R17(a),(b))."""
        if self.teams is None:
            return ()
        first, other = self.teams[breaker], self.teams[1 - breaker]
        if rec.order is None:
            lead = rec.breaker if rec.breaker in first else first[0]
            mate = first[1] if lead == first[0] else first[0]
            return (lead, other[0], mate, other[1])
        order = tuple(rec.order)
        if sorted(order) != sorted([*first, *other]):
            raise RuleError(f"order {', '.join(order)} must name the four players once each")
        if any((p in first) != (k % 2 == 0) for k, p in enumerate(order)):
            raise RuleError(f"order {', '.join(order)} must alternate the sides, starting with the "
                            f"breaking side ({self.players[breaker]})")  # type: ignore[index]
        return order

    def _context(self, breaker: int) -> MatchContext:
        assert self.players is not None
        a, b = (self.totals[p] for p in self.players)
        won = [self.frames_won[p] for p in self.players]
        level = won[0] == won[1]
        if self.aggregate:
            last = self.frames_started + 1 >= self.best_of
        else:
            last = level and won[0] == self.best_of // 2
        return MatchContext(aggregate=self.aggregate, last_frame=last, carried=(a, b),
                            frames_level=level, rotation_breaker=self.expected_breaker())

    # ------------------------------------------------------------------ records
    def feed(self, rec: Record) -> list[dict[str, Any]]:
        """Referee one record; returns the output lines (dicts) it produces."""
        if isinstance(rec, FrameStart):
            return [self.start_frame(rec)]
        if self.state is None or self.rules is None:
            raise RuleError("the log must begin with a frame_start record")
        out: list[dict[str, Any]] = []
        if isinstance(rec, Shot):
            strokes_before = self.state.shots
            dec, self.state = self.rules.decide(self.state, rec)
            self._foul_after_first = self._foul_after_first or (dec.foul and strokes_before >= 1)
            out.append(dec.to_dict())
        elif isinstance(rec, OperatorInput) and rec.kind == InputKind.AWARD_GAME:
            out.append(self._award_game(rec))
        elif isinstance(rec, OperatorInput):
            res, self.state = self.rules.apply_input(self.state, rec)
            out.append(res.to_dict())
        if self.state.frame_over and self.state.frame not in self._counted_frames:
            out.append(self._frame_end())
        self.history.extend(out)
        return out

    def _frame_end(self) -> dict[str, Any]:
        st = self.state
        assert st is not None
        self._counted_frames.add(st.frame)
        self.frames_finished += 1
        for p, s in zip(st.players, st.scores, strict=True):
            self.totals[p] += s
        w = st.players[st.winner] if st.winner is not None else None
        if w is not None:
            self.frames_won[w] += 1
        summary: dict[str, Any] = {
            "frame_end": st.frame, "winner": w,
            "score": dict(zip(st.players, st.scores, strict=True)),
            "reason": st.end_reason, "frames_won": dict(self.frames_won),
            "match_over": self.match_over}
        if self.aggregate:
            summary["aggregate"] = dict(self.totals)
        if self.match_over:
            summary["match_winner"] = self.match_winner()
        return summary

    def _award_game(self, rec: OperatorInput) -> dict[str, Any]:
        """S4 R2(b): the offender loses the frame in progress (forfeited, R2(a)) and the
        frames needed to finish the game; under aggregate scoring each unplayed frame counts
        147 to the other side."""
        assert self.state is not None and self.rules is not None and self.players is not None
        if self.match_over:
            return input_result("award_game", False, "the match is over", self.state).to_dict()
        side = self._side_of_name(rec.player or "")
        if side is None:
            raise RuleError(f"award_game: {rec.player!r} is not a player of this match")
        winner = self.players[side]
        need = self.best_of // 2 + 1
        if not self.state.frame_over:
            award = OperatorInput(InputKind.AWARD_FRAME, player=winner)
            _, self.state = self.rules.apply_input(self.state, award)
            need -= 1  # the forfeited frame is counted when it ends, below
        unplayed = max(0, self.best_of - self.frames_started)
        if self.aggregate:
            self.totals[winner] += FRAME_MAXIMUM * unplayed
        else:
            self.frames_won[winner] = max(self.frames_won[winner], need)
        self.game_awarded = winner
        extra = f"; {unplayed} unplayed frame(s) at {FRAME_MAXIMUM} each" if self.aggregate and unplayed else ""
        return input_result("award_game", True, f"game awarded to {winner} (S4 R2(b)){extra}",
                            self.state).to_dict()
