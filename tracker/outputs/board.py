"""The scoreboard as people see it, folded from the referee's output lines.

One :class:`Board` follows the decisions of a run (:meth:`Board.update`, in order) and says
what a scoreboard, an overlay score bar or a live page shows: players, frame score, break,
ball on, who is to play, frames won, the last call as a short banner ("FOUL AND A MISS — 4 to
Bob") and the strokes marked for review. It reads only the JSON decision lines
(``decisions.jsonl``, the store's ``decisions``), in people's words (:mod:`tracker.words`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from tracker.rules.explain import explain
from tracker.words import capital, potted_words, say


@dataclass
class Banner:
    """A call in a few words, for a banner.

    Attributes:
        kind: ``foul``, ``miss``, ``pot``, ``safe`` (no score), ``input``, ``frame``, ``error``.
        head: the big words ("FOUL AND A MISS").
        sub: the line under them ("4 to Bob · FREE BALL").
        text: the whole call in a referee's words.
        review: review notes of the call (empty when none).
        shot: the stroke's number, if the call is about one.
        amended: the call corrects an earlier one.
    """

    kind: str
    head: str
    sub: str = ""
    text: str = ""
    review: list[str] = field(default_factory=list)
    shot: int | None = None
    amended: bool = False


def banner_of(d: dict[str, Any]) -> Banner | None:
    """The banner of one decision line (None for lines nobody needs to see: a frame start)."""
    text = _explain(d)
    if "frame_end" in d:
        score = " - ".join(f"{p} {s}" for p, s in d["score"].items())
        head = f"FRAME TO {d['winner'].upper()}"
        sub = score + (f" · MATCH TO {d['match_winner'].upper()}" if d.get("match_over") else "")
        return Banner("frame", head, sub, text)
    if "frame_start" in d:
        return None
    if "input" in d:
        head = capital(say(d["message"])) if d.get("accepted") else "Input refused"
        return Banner("input", head.upper() if len(head) < 28 else head,
                      "" if d.get("accepted") else say(d["message"]), text)
    if "error" in d:
        return Banner("error", "CHECK THIS STROKE", say(d["error"]), text,
                      [say(d["error"])], d.get("shot"))
    review = [capital(say(n)) for n in d.get("needs_review") or []]
    extra = []
    if d.get("free_ball"):
        extra.append("FREE BALL")
    if d.get("miss_warning"):
        extra.append("WARNING: one more miss loses the frame")
    if d["foul"]:
        opp = next((p for p, v in d["points"].items() if v), "")
        kind, head = ("miss", "FOUL AND A MISS") if d["miss"] else ("foul", "FOUL")
        sub = " · ".join([f"{d['penalty']} to {opp}", *extra])
    elif sum(d["points"].values()):
        kind, head = "pot", capital(potted_words(d["potted"])).upper()
        sub = " · ".join([f"{d['striker']}: break {d['break']}", *extra])
    else:
        kind, head = "safe", "NO SCORE"
        sub = " · ".join([f"{d.get('next_striker') or ''} to play", *extra])
    if d.get("frame_over"):
        sub += f" · frame to {d['winner']}"
    if d.get("amended"):
        head = "CORRECTED: " + head
    return Banner(kind, head, sub, text, review, d.get("shot"), bool(d.get("amended")))


def _explain(d: dict[str, Any]) -> str:
    try:
        return explain(d)
    except (KeyError, TypeError, StopIteration):
        return say(str(d.get("message") or d.get("error") or ""))


@dataclass
class Board:
    """What a scoreboard shows now (see the module docstring). Every field is plain JSON."""

    players: list[str] = field(default_factory=list)
    score: dict[str, int] = field(default_factory=dict)
    frames_won: dict[str, int] = field(default_factory=dict)
    frame: int = 0
    best_of: int = 1
    striker: str | None = None
    break_points: int = 0
    ball_on: str = ""
    free_ball: bool = False
    options: list[str] = field(default_factory=list)
    shots: int = 0
    frame_over: bool = False
    winner: str | None = None
    last: dict[str, Any] | None = None
    reviews: list[dict[str, Any]] = field(default_factory=list)
    calls: int = 0
    #: the table: ``waiting`` (no frame yet), ``playing``, ``between frames``, ``match over``
    state: str = "waiting"

    def update(self, d: dict[str, Any]) -> Banner | None:
        """Take one decision line; returns its banner (None if it shows none)."""
        self.calls += 1
        if "frame_start" in d:
            new_match = d["frame_start"] == 1 or "frames_won" in d or \
                list(d.get("players", self.players)) != self.players
            self.players = list(d.get("players", self.players))
            self.frame = d["frame_start"]
            self.best_of = d.get("best_of", self.best_of)
            self.score = dict(d.get("start_points") or dict.fromkeys(self.players, 0))
            if new_match or not self.frames_won:  # a match starts (or is taken up)
                self.frames_won = dict(d.get("frames_won") or dict.fromkeys(self.players, 0))
            self.state = "playing"
            self.striker, self.break_points, self.ball_on = d.get("breaker"), 0, "red"
            self.frame_over, self.winner, self.free_ball, self.options = False, None, False, []
        elif "frame_end" in d:
            self.frames_won = dict(d.get("frames_won", self.frames_won))
            self.score = dict(d["score"])
            self.frame_over, self.winner = True, d["winner"]
            self.state = "match over" if d.get("match_over") else "between frames"
        elif "foul" in d:
            self.score = dict(d["score"])
            self.shots = max(self.shots, d.get("shot") or 0)
            self.striker = d.get("next_striker")
            # the break shown is the striker's running break: 0 when the turn passed
            self.break_points = d["break"] if self.striker == d["striker"] else 0
            self.ball_on = d.get("ball_on", "")
            self.free_ball = bool(d.get("free_ball"))
            self.options = list(d.get("options") or [])
            self.frame_over, self.winner = bool(d.get("frame_over")), d.get("winner")
        elif "input" in d and d.get("accepted"):
            self.options = []
            self.score = dict(d.get("score") or self.score)
            self.striker = d.get("next_striker", self.striker)
            self.break_points = 0
            if d.get("frame_over"):
                self.frame_over, self.winner = True, d.get("winner")
        banner = banner_of(d)
        if banner is not None:
            self.last = asdict(banner)
            if banner.review:
                self.reviews = [r for r in self.reviews if r.get("shot") != banner.shot or
                                banner.shot is None]
                self.reviews.append({"shot": banner.shot, "notes": banner.review})
        return banner

    def to_dict(self) -> dict[str, Any]:
        """The board as JSON (what live pages receive)."""
        return asdict(self)
