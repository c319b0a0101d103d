"""The scoreboard as people see it, folded from the referee's output lines.

One :class:`Board` follows the decisions of a run (:meth:`Board.update`, in order) and says
what a scoreboard, an overlay score bar or a live page shows, in the conventions of snooker
television and hall scoreboards: players, frame score (from the frame's start points when a
frame was taken up in progress), frames won and best of N, the current break with the balls
potted in it, points remaining, the difference, snookers required, reds remaining, who is at
the table, ball on, the last foul named ("FOUL: the cue ball went into a pocket, 4 to Ann"),
the last call as a short banner ("FOUL AND A MISS — 4 to Bob") and the strokes marked for
review. It reads only the JSON decision lines (``decisions.jsonl`` or the store's
``decisions``, their current calls: :mod:`tracker.corrections`), in people's words
(:mod:`tracker.words`). The frame's time comes from the strokes' times, not the calls: the
live server sets :attr:`Board.frame_time_s`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from tracker.rules.explain import explain
from tracker.words import ball_words, capital, potted_words, say


@dataclass
class Banner:
    """A call in a few words, for a banner.

    Attributes:
        kind: ``foul``, ``miss``, ``pot``, ``safe`` (no score), ``input``, ``frame``, ``error``.
        head: the big words ("FOUL AND A MISS").
        sub: the line under them ("the cue ball went into a pocket, 4 to Bob · FREE BALL").
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
        kind, head = ("miss", "FOUL AND A MISS") if d["miss"] else ("foul", "FOUL")
        sub = " · ".join([foul_line(d).split(": ", 1)[-1], *extra])
    elif sum(d["points"].values()):
        kind, head = "pot", capital(potted_words(d["potted"])).upper()
        sub = " · ".join([f"{d['striker']}: break {d['break']}", *extra])
    else:
        kind, head = "safe", "NO SCORE"
        sub = " · ".join([f"{d.get('next_striker') or ''} to play", *extra])
    if d.get("frame_over"):
        sub += f" · frame to {d['winner']}"
    if d.get("amended"):
        taken_back = bool((d.get("correction") or {}).get("taken_back"))
        head = ("CORRECTION TAKEN BACK: " if taken_back else "CORRECTED: ") + head
    return Banner(kind, head, sub, text, review, d.get("shot"), bool(d.get("amended")))


def foul_line(d: dict[str, Any]) -> str:
    """A foul named for a score strip: "FOUL: the cue ball went into a pocket, 4 to Ann"
    ("FOUL AND A MISS: ..." after a miss); "" for a call that is not a foul."""
    if not d.get("foul"):
        return ""
    fouls = sorted(d.get("fouls") or [], key=lambda f: -int(f.get("penalty") or 0))
    what = say(fouls[0]["message"]) if fouls and fouls[0].get("message") else "a foul"
    opp = next((p for p, v in (d.get("points") or {}).items() if v), "")
    head = "FOUL AND A MISS" if d.get("miss") else "FOUL"
    return f"{head}: {what}, {d.get('penalty', 0)} to {opp}" if opp else f"{head}: {what}"


#: Points a full set of colours is worth (yellow 2 ... black 7).
COLOURS_VALUE = 27
#: Points a red and the highest colour after it are worth while reds remain.
RED_AND_BLACK = 8


def reds_left(ruleset: str, ball_on: str, points_remaining: int | None) -> int | None:
    """Reds still on the table, from the points remaining of a snooker frame (every red
    with a black after it, the colour due after a red potted, the six colours); None for a
    game without reds worth one (snookerpool, English billiards) or when unknown."""
    if points_remaining is None or not ruleset.startswith("snooker") or ruleset == "snookerpool":
        return None
    if ball_on not in ("red", "colour"):
        return 0
    extra = COLOURS_VALUE + (7 if ball_on == "colour" else 0)
    return max(0, (int(points_remaining) - extra) // RED_AND_BLACK)


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
    ruleset: str = "snooker"
    break_balls: list[str] = field(default_factory=list)
    points_remaining: int | None = None
    snookers_required: dict[str, int] = field(default_factory=dict)
    reds_remaining: int | None = None
    foul: str = ""
    leader: str | None = None
    difference: int = 0
    frame_time_s: float | None = None
    #: the table: ``waiting`` (no frame yet), ``playing``, ``between frames``, ``match over``
    state: str = "waiting"

    def update(self, d: dict[str, Any]) -> Banner | None:
        """Take one decision line; returns its banner (None if it shows none)."""
        self.calls += 1
        if "frame_start" in d:
            self._start(d)
        elif "frame_end" in d:
            self.frames_won = dict(d.get("frames_won", self.frames_won))
            self.score = dict(d["score"])
            self.frame_over, self.winner = True, d["winner"]
            self.break_points, self.break_balls = 0, []
            self.state = "match over" if d.get("match_over") else "between frames"
        elif "foul" in d:
            self._stroke(d)
        elif "input" in d and d.get("accepted"):
            self.options = []
            self.score = dict(d.get("score") or self.score)
            self.striker = d.get("next_striker", self.striker)
            self.break_points, self.break_balls = 0, []
            if d.get("frame_over"):
                self.frame_over, self.winner = True, d.get("winner")
        self._lead()
        banner = banner_of(d)
        if banner is not None:
            self.last = asdict(banner)
            if banner.review:
                self.reviews = [r for r in self.reviews if r.get("shot") != banner.shot or
                                banner.shot is None]
                self.reviews.append({"shot": banner.shot, "notes": banner.review})
        return banner

    def _start(self, d: dict[str, Any]) -> None:
        """A frame starts (from its start points when it was taken up in progress; a match
        taken up in progress from its frames won)."""
        new_match = d["frame_start"] == 1 or "frames_won" in d or \
            list(d.get("players", self.players)) != self.players
        self.players = list(d.get("players", self.players))
        self.frame = d["frame_start"]
        self.ruleset = str(d.get("ruleset") or self.ruleset)
        self.best_of = int(d.get("best_of") or self.best_of)
        start = d.get("start_points") or {}
        self.score = {p: int(start.get(p, 0)) for p in self.players}
        if new_match or not self.frames_won:  # a match starts (or is taken up)
            self.frames_won = dict(d.get("frames_won") or dict.fromkeys(self.players, 0))
        self.state = "playing"
        self.striker, self.break_points, self.ball_on = d.get("breaker"), 0, "red"
        self.frame_over, self.winner, self.free_ball, self.options = False, None, False, []
        self.break_balls, self.foul, self.snookers_required = [], "", {}
        self.points_remaining = self.reds_remaining = self.frame_time_s = None

    def _stroke(self, d: dict[str, Any]) -> None:
        """A stroke's call: the score, who is at the table, the break and its balls."""
        self.score = dict(d["score"])
        self.shots = max(self.shots, d.get("shot") or 0)
        self.striker = d.get("next_striker")
        scored = int((d.get("points") or {}).get(d.get("striker"), 0))
        if d.get("foul") or self.striker != d.get("striker"):
            # the break shown is the striker's running break: 0 when the turn passed
            self.break_points, self.break_balls = 0, []
        else:
            if scored and int(d.get("break") or 0) == scored:
                self.break_balls = []  # a new break starts with this stroke
            self.break_points = int(d.get("break") or 0)
            self.break_balls = [*self.break_balls, *(ball_words(b) for b in d.get("potted") or [])]
        self.ball_on = d.get("ball_on", "")
        self.free_ball = bool(d.get("free_ball"))
        self.options = list(d.get("options") or [])
        self.frame_over, self.winner = bool(d.get("frame_over")), d.get("winner")
        self.foul = foul_line(d)
        self.points_remaining = d.get("points_remaining")
        self.snookers_required = {p: int(n) for p, n in
                                  (d.get("snookers_required") or {}).items() if n}
        self.reds_remaining = reds_left(self.ruleset, self.ball_on, self.points_remaining)

    def _lead(self) -> None:
        ranked = sorted(self.score.items(), key=lambda kv: -kv[1])
        if len(ranked) >= 2 and ranked[0][1] != ranked[1][1]:
            self.leader, self.difference = ranked[0][0], ranked[0][1] - ranked[1][1]
        else:
            self.leader, self.difference = None, 0

    def to_dict(self) -> dict[str, Any]:
        """The board as JSON (what live pages receive)."""
        return asdict(self)
