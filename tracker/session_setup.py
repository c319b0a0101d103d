"""A table's match set-up without files: who plays, how long, which game, handicaps, who breaks,
a match taken up in progress, and the matches queued after it (:class:`MatchSetup`).

A set-up becomes the ``frame_start`` records the referee already understands
(:meth:`MatchSetup.frame_start`): the ruleset, the best-of, each player's handicap start points
(``start_points``), the frames already won and the current frame's scores of a match taken up in
progress. It is made from ``process`` options (:func:`setup_from_options`) or a small set-up
file, JSON or TOML (:func:`setup_from_file`; the format is in docs/OUTPUTS.md). Every bad value
is a :class:`SetupError` whose one line says what is wrong and what to give instead.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from calibration.limits import check_name
from tracker.perception.detections import CLASSES as SEEN_LOOKS
from tracker.records.shot import FrameStart
from tracker.rules.ballset import POOL_COLOURS

#: The most frames a match may be the best of, the most start points a handicap may give a
#: player, and the most points a frame's score taken up in progress may hold.
MAX_BEST_OF = 99
MAX_POINTS = 200
MAX_SCORE = 1000

#: The rulesets whose re-rack the camera recognises (reds in the triangle, colours on their
#: spots): a session goes on from frame to frame only with these.
RACKED_RULESETS = ("snooker", "snooker-10-reds", "snooker-6-reds")


class SetupError(ValueError):
    """A match set-up that cannot be used; the message says what to change."""


@dataclass(frozen=True)
class MatchSetup:
    """One match at a table (frozen; :meth:`checked` validates it).

    Attributes:
        players: the two players; the first breaks unless ``breaker`` says otherwise.
        best_of: frames in the match (odd; a race to N is a best of 2N-1).
        ruleset: a name of :mod:`tracker.rules.registry` (``snooker``, ``snooker-10-reds``,
            ``snooker-6-reds``, ...).
        handicap: start points each frame, per player name (absent: 0).
        breaker: who breaks the current frame (None: the first player).
        frames_won: frames already won when the match is taken up in progress, per player.
        score: the current frame's scores (players' order) when it is taken up in progress
            (handicap included); None: a new frame.
        then: the matches that follow at this table, in order.
        again: when the last match is over, the same players play a new match of the same
            length (the table's evening of one pair); otherwise the session waits.
    """

    players: tuple[str, str] = ("A", "B")
    best_of: int = 1
    ruleset: str = "snooker"
    handicap: Mapping[str, int] = field(default_factory=dict)
    breaker: str | None = None
    frames_won: tuple[int, int] = (0, 0)
    score: tuple[int, int] | None = None
    then: tuple[MatchSetup, ...] = ()
    again: bool = False

    @property
    def race_to(self) -> int:
        """Frames needed to win the match."""
        return self.best_of // 2 + 1

    @property
    def taken_up(self) -> bool:
        """The match was under way when the camera took it up."""
        return any(self.frames_won) or self.score is not None

    def checked(self) -> MatchSetup:
        """This set-up, its values checked (:class:`SetupError` naming the first bad one)."""
        a, b = (_name("a player's", n) for n in self.players)
        if _fold(a) == _fold(b):
            raise SetupError(f"the two players must have different names, got {a!r} twice")
        if not 1 <= self.best_of <= MAX_BEST_OF or self.best_of % 2 == 0:
            raise SetupError(f"best of {self.best_of}: give an odd number of frames from 1 to "
                             f"{MAX_BEST_OF} (or a race to N frames)")
        _check_ruleset(self.ruleset)
        for who, pts in self.handicap.items():
            if who not in (a, b):
                raise SetupError(f"handicap for {who!r}: not a player of {a} v {b}")
            _points(f"{who}'s handicap", pts)
        if self.breaker is not None and self.breaker not in (a, b):
            raise SetupError(f"breaker {self.breaker!r}: not a player of {a} v {b}")
        if any(not isinstance(n, int) or n < 0 for n in self.frames_won) or \
                max(self.frames_won) >= self.race_to:
            raise SetupError(f"frames won {self.frames_won[0]}-{self.frames_won[1]}: each must be "
                             f"0 to {self.race_to - 1} in a best of {self.best_of} (the match "
                             "must still be on)")
        if self.score is not None:
            for who, pts in zip((a, b), self.score, strict=True):
                _points(f"{who}'s score", pts, MAX_SCORE)
        return replace(self, players=(a, b), then=tuple(m.checked() for m in self.then))

    def start_points(self) -> dict[str, int]:
        """Each player's points when a new frame starts (the handicap)."""
        return {p: int(self.handicap.get(p, 0)) for p in self.players}

    def frame_start(self, frame: int, first: bool = False) -> FrameStart:
        """The ``frame_start`` record of frame ``frame`` of this match (``first``: the first
        frame the camera sees of it: the breaker named, a match taken up in progress)."""
        points = self.start_points()
        if first and self.score is not None:
            points = dict(zip(self.players, self.score, strict=True))
        won = dict(zip(self.players, self.frames_won, strict=True))
        return FrameStart(frame=frame, players=self.players,
                          breaker=(self.breaker or self.players[0]) if first else None,
                          ruleset=self.ruleset, best_of=self.best_of,
                          start_points=points if any(points.values()) else None,
                          frames_won=won if first and any(self.frames_won) else None)

    def first_frame(self) -> FrameStart:
        """The record of the first frame the camera sees of this match."""
        return self.frame_start(sum(self.frames_won) + 1, first=True)

    def next_match(self) -> MatchSetup | None:
        """The match that follows this one at the table (the queue's next, carrying the rest
        of the queue; the same players again if ``again``), or None."""
        if self.then:
            return replace(self.then[0], then=self.then[1:],
                           again=self.then[0].again or self.again)
        if self.again:
            return replace(self, breaker=None, frames_won=(0, 0), score=None)
        return None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON (``run.json``; :func:`setup_from_dict` reads it back)."""
        d: dict[str, Any] = {"players": list(self.players), "best_of": self.best_of,
                             "ruleset": self.ruleset}
        if self.handicap:
            d["handicap"] = dict(self.handicap)
        if self.breaker is not None:
            d["breaker"] = self.breaker
        if any(self.frames_won):
            d["frames_won"] = list(self.frames_won)
        if self.score is not None:
            d["score"] = list(self.score)
        if self.then:
            d["then"] = [m.to_dict() for m in self.then]
        if self.again:
            d["again"] = True
        return d


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def _name(what: str, name: Any) -> str:
    if not isinstance(name, str):
        raise SetupError(f"{what} name must be text, got {name!r}")
    try:
        return check_name(what, name)
    except ValueError as exc:
        raise SetupError(str(exc)) from None


def _points(what: str, pts: Any, most: int = MAX_POINTS) -> int:
    if isinstance(pts, bool) or not isinstance(pts, int) or not 0 <= pts <= most:
        raise SetupError(f"{what} {pts!r}: give whole points from 0 to {most}")
    return pts


def _check_ruleset(name: str) -> None:
    from tracker.rules.registry import RULESETS

    if name not in RULESETS:
        raise SetupError(f"ruleset {name!r} is not known; give one of: "
                         f"{', '.join(sorted(RULESETS))}")
    # the pool balls of the WPA colours are named by tracker.perception.pool_identity
    unseen = sorted(look for look in set(RULESETS[name]().balls.looks.values()) - set(SEEN_LOOKS)
                    if look.split("_", 1)[-1] not in POOL_COLOURS.values())
    if unseen:
        raise SetupError(f"the camera cannot referee {name} yet: it does not recognise "
                         f"{', '.join(unseen[:3])}{' ...' if len(unseen) > 3 else ''} balls "
                         "(only snooker's colours and pool's numbered balls); a match written "
                         "down can be refereed with `snooker-tracker referee LOG`")


def _length(best_of: int | None, race_to: int | None) -> int:
    """A best-of from a best-of or a race-to (one of them, or neither: 1)."""
    if best_of is not None and race_to is not None:
        raise SetupError("give the best of N frames or the race to N, not both")
    if race_to is not None:
        if isinstance(race_to, bool) or not isinstance(race_to, int) or \
                not 1 <= race_to <= MAX_BEST_OF // 2 + 1:
            raise SetupError(f"race to {race_to!r}: give a whole number of frames from 1 to "
                             f"{MAX_BEST_OF // 2 + 1}")
        return 2 * race_to - 1
    if best_of is None:
        return 1
    if isinstance(best_of, bool) or not isinstance(best_of, int):
        raise SetupError(f"best of {best_of!r}: give a whole, odd number of frames")
    return best_of


def _pair(what: str, text: str) -> tuple[int, int]:
    """``"2-1"`` -> (2, 1)."""
    m = re.fullmatch(r"\s*(\d{1,4})\s*-\s*(\d{1,4})\s*", text or "")
    if m is None:
        raise SetupError(f"{what} {text!r}: give the two players' numbers as N-M, e.g. 2-1")
    return int(m.group(1)), int(m.group(2))


def _handicaps(items: Sequence[str]) -> dict[str, int]:
    """``["A=14", "B=0"]`` -> {"A": 14, "B": 0}."""
    out: dict[str, int] = {}
    for item in items:
        name, sep, pts = item.rpartition("=")
        if not sep or not name.strip() or not pts.strip().isdigit():
            raise SetupError(f"handicap {item!r}: give NAME=POINTS, e.g. A=14")
        out[name.strip()] = int(pts)
    return out


#: ``--then`` text: players (comma between), then optionally best-of N or race-to N, a
#: ruleset's name.
_THEN = re.compile(r"^(?P<a>[^,]+),(?P<b>.+?)(?:\s+(?P<kind>best-of|race-to)\s+(?P<n>\d{1,3}))?"
                   r"(?:\s+(?P<ruleset>[a-z][a-z0-9-]*))?\s*$")


def parse_then(text: str, ruleset: str = "snooker") -> MatchSetup:
    """One queued match from ``--then`` text, e.g. ``"C,D best-of 5"``, ``"C,D race-to 3
    snooker-6-reds"`` (the ruleset of the match before it when not named)."""
    m = _THEN.match(text or "")
    if m is None:
        raise SetupError(f"--then {text!r}: give the players and the length, e.g. "
                         "\"C,D best-of 5\" or \"C,D race-to 3 snooker-6-reds\"")
    n = int(m["n"]) if m["n"] else None
    best_of = _length(n if m["kind"] == "best-of" else None, n if m["kind"] == "race-to" else None)
    return MatchSetup((m["a"].strip(), m["b"].strip()), best_of, m["ruleset"] or ruleset)


def setup_from_options(players: tuple[str, str], best_of: int | None = None,
                       race_to: int | None = None, ruleset: str | None = None,
                       handicap: Sequence[str] = (), breaker: str | None = None,
                       frames_won: str | None = None, score: str | None = None,
                       then: Sequence[str] = (), again: bool = False) -> MatchSetup:
    """The set-up ``process`` options give (each as typed; see :class:`MatchSetup`)."""
    rules = "snooker" if ruleset is None else ruleset  # an empty name is refused, not snooker
    setup = MatchSetup(
        players=players, best_of=_length(best_of, race_to), ruleset=rules,
        handicap=_handicaps(handicap), breaker=breaker,
        frames_won=_pair("frames won", frames_won) if frames_won is not None else (0, 0),
        score=_pair("score", score) if score is not None else None,
        then=tuple(parse_then(t, rules) for t in then), again=again)
    return setup.checked()


def setup_from_dict(d: Any, where: str = "the set-up") -> MatchSetup:
    """A set-up from plain data (a set-up file's, ``run.json``'s): the fields of
    :class:`MatchSetup` (``race_to`` instead of ``best_of`` if wished; ``then`` a list of
    matches, each with its players and length)."""
    if not isinstance(d, Mapping):
        raise SetupError(f"{where}: expected a table of fields (players, best_of, ...)")
    known = {"players", "best_of", "race_to", "ruleset", "handicap", "breaker", "frames_won",
             "score", "then", "again"}
    unknown = sorted(set(d) - known)
    if unknown:
        raise SetupError(f"{where}: unknown field {unknown[0]!r}; the fields are: "
                         f"{', '.join(sorted(known))}")
    players = d.get("players", ["A", "B"])
    if not isinstance(players, list) or len(players) != 2:
        raise SetupError(f"{where}: players must be a list of two names")
    handicap = d.get("handicap", {})
    if not isinstance(handicap, Mapping):
        raise SetupError(f"{where}: handicap must map each player's name to points")
    then = d.get("then", [])
    if not isinstance(then, list):
        raise SetupError(f"{where}: then must be a list of matches")
    rules = d.get("ruleset", "snooker")
    setup = MatchSetup(
        players=(players[0], players[1]), best_of=_length(d.get("best_of"), d.get("race_to")),
        ruleset=rules, handicap=dict(handicap), breaker=d.get("breaker"),
        frames_won=_int_pair(where, "frames_won", d.get("frames_won", [0, 0])),
        score=_int_pair(where, "score", d["score"]) if d.get("score") is not None else None,
        then=tuple(setup_from_dict({"ruleset": rules, **m} if isinstance(m, Mapping) else m,
                                   f"{where}: then[{i}]") for i, m in enumerate(then)),
        again=bool(d.get("again", False)))
    return setup.checked()


def _int_pair(where: str, what: str, v: Any) -> tuple[int, int]:
    if not isinstance(v, list) or len(v) != 2 or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in v):
        raise SetupError(f"{where}: {what} must be two whole numbers, e.g. [2, 1]")
    return v[0], v[1]


def setup_from_file(path: str | Path) -> MatchSetup:
    """A set-up file: JSON, or TOML when it ends ``.toml`` (docs/OUTPUTS.md)."""
    p = Path(path)
    if not p.is_file():
        raise SetupError(f"--match {p}: no such file; give the match set-up file (JSON or TOML)")
    try:
        text = p.read_text(encoding="utf-8")
        d = tomllib.loads(text) if p.suffix.lower() == ".toml" else json.loads(text)
    except (UnicodeDecodeError, ValueError) as exc:
        raise SetupError(f"--match {p}: not readable as "
                         f"{'TOML' if p.suffix.lower() == '.toml' else 'JSON'} "
                         f"({str(exc).splitlines()[0]}); check the file") from None
    return setup_from_dict(d, f"--match {p}")
