"""A match: frames in sequence, alternating break-off, frames won, the match result.

``Match.feed(record)`` takes the records of a match log one by one and returns what the
referee says about each (a :class:`Decision`, an input result, or a frame/match summary).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from calibration.table import TableGeometry
from tracker.records.shot import FrameStart, OperatorInput, Record, Shot
from tracker.rules.registry import Ruleset, get_ruleset
from tracker.rules.snooker import RuleError
from tracker.rules.state import FrameState


@dataclass
class Match:
    """Referees a whole match from its records.

    Attributes:
        players: the two players; set by the first frame_start.
        best_of: frames in the match.
        frames_won: per player.
        state: the current frame's state (None before the first frame_start).
        rules: the current frame's ruleset.
        history: the decisions so far, as dicts.
    """

    players: tuple[str, str] | None = None
    best_of: int = 1
    frames_won: dict[str, int] = field(default_factory=dict)
    state: FrameState | None = None
    rules: Ruleset | None = None
    first_breaker: int = 0
    frames_started: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def match_over(self) -> bool:
        """True once a player has won more than half of ``best_of`` frames."""
        need = self.best_of // 2 + 1
        return any(v >= need for v in self.frames_won.values())

    def expected_breaker(self) -> int:
        """Index of the player who should open the next frame (S3 R3(b))."""
        return (self.first_breaker + self.frames_started) % 2

    def start_frame(self, rec: FrameStart) -> dict[str, Any]:
        """Begin a frame."""
        if self.state is not None and not self.state.frame_over:
            raise RuleError(f"frame {rec.frame} starts before frame {self.state.frame} has ended; "
                            "add its concession or award, or remove the unfinished frame")
        if self.players is None:
            self.players = rec.players
            self.best_of = rec.best_of
            self.frames_won = {p: 0 for p in rec.players}
            if rec.breaker is not None:
                self.first_breaker = rec.players.index(rec.breaker) if rec.breaker in rec.players else 0
        elif tuple(rec.players) != tuple(self.players):
            raise RuleError(f"frame {rec.frame} names players {', '.join(rec.players)} but the "
                            f"match is {', '.join(self.players)}")
        if self.match_over:
            raise RuleError(f"frame {rec.frame} starts after the match is over")
        notes = []
        breaker = self.expected_breaker()
        if rec.breaker is not None:
            if rec.breaker not in self.players:
                raise RuleError(f"breaker {rec.breaker!r} is not a player ({', '.join(self.players)})")
            named = self.players.index(rec.breaker)
            if named != breaker:
                notes.append(f"{rec.breaker} breaks but {self.players[breaker]} should by rotation "
                             "(S3 R3(d)): if only one stroke is played with no foul, restart")
                breaker = named
        table = None
        if rec.table:
            table = TableGeometry.of_size(rec.table["length"], rec.table["width"],
                                          rec.table.get("ball_diameter", 52.5))
        try:
            self.rules = get_ruleset(rec.ruleset, rec.options, table)
        except ValueError as exc:
            raise RuleError(str(exc)) from None
        self.state = self.rules.new_frame(self.players, breaker, rec.positions, rec.frame)
        full_rack = rec.positions is not None and sum(
            1 for b in rec.positions if b.startswith("red")) == getattr(self.rules, "n_reds", -1)
        if full_rack and hasattr(self.rules, "setup_check"):
            notes.extend(self.rules.setup_check(rec.positions))
        self.frames_started += 1
        out = {"frame_start": rec.frame, "ruleset": rec.ruleset, "breaker": self.players[breaker],
               "players": list(self.players), "notes": notes}
        self.history.append(out)
        return out

    def feed(self, rec: Record) -> list[dict[str, Any]]:
        """Referee one record; returns the output lines (dicts) it produces."""
        if isinstance(rec, FrameStart):
            return [self.start_frame(rec)]
        if self.state is None or self.rules is None:
            raise RuleError("the log must begin with a frame_start record")
        out: list[dict[str, Any]] = []
        if isinstance(rec, Shot):
            dec, self.state = self.rules.decide(self.state, rec)
            out.append(dec.to_dict())
        elif isinstance(rec, OperatorInput):
            res, self.state = self.rules.apply_input(self.state, rec)
            out.append(res.to_dict())
        if self.state.frame_over and self.state.winner is not None and not self._counted():
            w = self.state.players[self.state.winner]
            self.frames_won[w] += 1
            summary = {"frame_end": self.state.frame, "winner": w,
                       "score": dict(zip(self.state.players, self.state.scores, strict=True)),
                       "reason": self.state.end_reason, "frames_won": dict(self.frames_won),
                       "match_over": self.match_over}
            if self.match_over:
                summary["match_winner"] = max(self.frames_won, key=lambda p: self.frames_won[p])
            self._counted_frames.add(self.state.frame)
            out.append(summary)
        self.history.extend(out)
        return out

    _counted_frames: set[int] = field(default_factory=set)

    def _counted(self) -> bool:
        return self.state is not None and self.state.frame in self._counted_frames
