"""Statistics of a match from its observed strokes: per player, per frame and per match.

Pure functions over what a run writes: the match log (``match.log.jsonl`` or the store's
``records``, one dict per record, :func:`tracker.records.parse.record_to_dict` form) and the
referee's calls (``decisions.jsonl`` or the store's ``decisions``, one dict per call). When a
stroke was called more than once (a correction), the LAST call of that stroke counts.

Each called stroke is put in exactly one class (:class:`Stroke` ``kind``):

- ``pot``: no foul and the striker scored by potting (points to the striker > 0);
- ``missed pot`` and ``safety`` (INFERRED from the table positions, not observed: nobody
  tells the camera what the player meant): a stroke with no foul and no score is a *missed
  pot* when the first ball the cue ball hit went towards a pocket: the line from where it
  stood to where it stopped is within ``attempt_max_angle_deg`` of the line to that pocket
  and it covered at least ``attempt_min_travel`` of the distance to it (a ball that missed
  the pocket stops near it or in the jaws); otherwise a *safety*. A break-off that pots
  nothing is therefore a safety. A missed pot whose ball bounced far back out of the jaws
  reads as a safety, and a safety that rolled a ball up to a pocket as a missed pot;
- ``foul``: the referee called a foul (a foul is not counted as a pot or a safety);
- ``unknown``: no score and no foul, but the positions needed to infer the intent were not
  observed; ``replayed``: the stroke was replayed with every ball put back.

Pot success = pots / (pots + missed pots). A pot (or missed pot) is *long* when the object
ball stood at least ``long_object_to_pocket`` × the table's length from the pocket AND the
cue ball at least ``long_cue_to_object`` × the table's length from the first ball it hit
(full-size table: 1190 mm and 892 mm). The object ball of a pot is the first ball potted, its
pocket the one it fell in; of a missed pot, the first ball hit and the pocket it went towards.

A *visit* is a player's turn at the table: it ends with a foul, when the other player is to
play next, or with the frame (a player asked to play again after his own foul starts a new
visit). Its *break* is the points the striker scored in it by potting; a visit that ends in a
foul keeps the points scored before the foul. Penalties are not break points: they count as
points given away by the offender. Shot time = the stroke's strike (``t_start``) less the
time the previous stroke of the frame ended (``t_end``, all balls at rest); the first stroke
of a frame has none. Breaks "of 20+" count every break of 20 or more (50+ and 100+ too),
"50+" those of 50 or more, and so on (cumulative, as snooker statistics give them).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from calibration.table import TableGeometry
from tracker import balls as B
from tracker.corrections import current_decisions

POT, MISSED_POT, SAFETY, FOUL, UNKNOWN, REPLAYED = (
    "pot", "missed pot", "safety", "foul", "unknown", "replayed")
#: How a visit ended (:class:`Visit` ``ended``).
ENDED_FOUL, ENDED_NO_SCORE, ENDED_FRAME, ENDED_UNFINISHED = (
    "foul", "no score", "frame over", "still at the table")


@dataclass(frozen=True)
class StatsParams:
    """The statistics' thresholds (documented in the module docstring).

    Attributes:
        long_object_to_pocket: a long pot's object ball stands at least this fraction of the
            table's length from the pocket (1190 mm on a 3569 mm table).
        long_cue_to_object: and the cue ball at least this fraction of the table's length
            from the first ball it hits (892 mm on a 3569 mm table).
        attempt_max_angle_deg: a no-score stroke is a missed pot when the first ball hit
            travelled within this angle (degrees) of the line from it to a pocket...
        attempt_min_travel: ...and covered at least this fraction of its distance to that
            pocket (start to rest, straight line).
        attempt_min_move_mm: a first ball hit that moved less than this (mm) went nowhere.
        break_thresholds: the break counts given (breaks of at least each, points).
    """

    long_object_to_pocket: float = 1.0 / 3.0
    long_cue_to_object: float = 1.0 / 4.0
    attempt_max_angle_deg: float = 12.0
    attempt_min_travel: float = 0.6
    attempt_min_move_mm: float = 50.0
    break_thresholds: tuple[int, ...] = (20, 50, 100)


#: The thresholds used unless others are given.
DEFAULT_PARAMS = StatsParams()


@dataclass(frozen=True)
class Stroke:
    """One called stroke, as the statistics see it.

    Attributes:
        frame, shot: the snooker frame's number and the stroke's number in the log.
        striker: who played it. kind: see the module docstring.
        points: what the striker scored (0 on a foul). penalty: points given to the
            opponent (``penalty_to``; 0 and None without). potted: ball ids potted.
        long: a long pot or missed pot (None: not a pot attempt or positions not observed).
        t_start, t_end: strike and all-at-rest, s from the start of the video (None: unknown).
        shot_time_s: seconds from the previous stroke's end to this strike (None: first).
        score: each player's frame score after the stroke. miss: a foul and a miss was called.
    """

    frame: int
    shot: int
    striker: str
    kind: str
    points: int
    penalty: int
    penalty_to: str | None
    potted: tuple[str, ...]
    long: bool | None
    t_start: float | None
    t_end: float | None
    shot_time_s: float | None
    score: Mapping[str, int]
    miss: bool
    next_striker: str | None
    frame_over: bool


@dataclass(frozen=True)
class Visit:
    """A player's visit to the table; ``points`` is its break, ``balls`` (ids, in order) the
    balls potted in it that scored; ``ended``: ``foul``, ``no score``, ``frame over`` or
    ``still at the table`` (the log ends first)."""

    frame: int
    player: str
    shots: tuple[int, ...]
    points: int
    balls: tuple[str, ...]
    t_start: float | None
    t_end: float | None
    ended: str


@dataclass(frozen=True)
class PlayerStats:
    """One player's figures over some strokes (a frame or the match).

    ``pot_success`` and the other ratios are None where there is nothing to divide by;
    ``breaks_at_least`` maps each threshold of :attr:`StatsParams.break_thresholds` to the
    number of breaks of at least that many points; times in seconds."""

    player: str
    strokes: int
    pots: int
    missed_pots: int
    pot_success: float | None
    long_pots: int
    long_missed_pots: int
    long_pot_success: float | None
    safeties: int
    fouls: int
    points_given_away: int
    points_scored: int
    visits: int
    points_per_visit: float | None
    timed_strokes: int
    average_shot_time_s: float | None
    breaks_at_least: Mapping[int, int]
    highest_break: int


@dataclass(frozen=True)
class FrameResult:
    """A snooker frame: who played, who broke, its result (None while unfinished), the
    strokes' time span (s of video)."""

    number: int
    players: tuple[str, ...]
    breaker: str | None
    ruleset: str
    best_of: int
    winner: str | None
    score: Mapping[str, int]
    end_reason: str | None
    finished: bool
    t_start: float | None
    t_end: float | None


@dataclass(frozen=True)
class MatchStats:
    """Everything: frames, strokes, visits, and each player's figures per frame and over
    the match (``per_frame[frame][player]``, ``match[player]``)."""

    players: tuple[str, ...]
    best_of: int
    frames: tuple[FrameResult, ...]
    strokes: tuple[Stroke, ...]
    visits: tuple[Visit, ...]
    per_frame: Mapping[int, Mapping[str, PlayerStats]]
    match: Mapping[str, PlayerStats]
    frames_won: Mapping[str, int]
    winner: str | None
    params: StatsParams

    def breaks(self) -> tuple[Visit, ...]:
        """The visits that scored (the breaks), in order."""
        return tuple(v for v in self.visits if v.points > 0)


def is_stroke_call(d: Mapping[str, Any]) -> bool:
    """True for a referee's call about a stroke (not a frame start, input or error)."""
    return "foul" in d and "shot" in d and "striker" in d


def current_calls(decisions: Iterable[Mapping[str, Any]]) -> tuple[
        dict[tuple[int, int], Mapping[str, Any]], dict[int, Mapping[str, Any]]]:
    """The current call of each stroke, keyed ``(frame, shot)`` (a later call of the same
    stroke, a correction, replaces the earlier one), and each frame's end, by frame (a frame's
    end that a correction took away is left out: :func:`tracker.corrections.current_decisions`)."""
    frame = 0
    calls: dict[tuple[int, int], Mapping[str, Any]] = {}
    ends: dict[int, Mapping[str, Any]] = {}
    for d in current_decisions(decisions):
        if "frame_start" in d:
            frame = int(d["frame_start"])
        elif "frame_end" in d:
            ends[int(d["frame_end"])] = d
        elif is_stroke_call(d):
            calls[(frame, int(d["shot"]))] = d
    return calls, ends


def _distance(a: Sequence[float], b: Sequence[float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def first_ball_hit(record: Mapping[str, Any]) -> str | None:
    """The first ball the cue ball touched in a stroke record (None: none)."""
    for e in record.get("events", []):
        balls = e.get("balls") or ([e["ball"]] if "ball" in e else [])
        if e.get("type") == "contact" and B.WHITE in balls:
            return next((b for b in balls if b != B.WHITE), None)
    return None


def _first_pot(record: Mapping[str, Any]) -> tuple[str, str] | None:
    for e in record.get("events", []):
        balls = e.get("balls") or ([e["ball"]] if "ball" in e else [])
        if e.get("type") == "pot" and balls and balls[0] != B.WHITE and e.get("pocket"):
            return balls[0], e["pocket"]
    return None


def aimed_pocket(record: Mapping[str, Any], table: TableGeometry,
                 params: StatsParams) -> str | None:
    """The pocket the first ball hit went towards (module docstring), or None: it went
    towards none, or its positions before and after were not observed."""
    ball = first_ball_hit(record)
    before = (record.get("positions_before") or {}).get(ball)
    after = (record.get("positions_after") or {}).get(ball)
    if ball is None or before is None or after is None:
        return None
    moved = _distance(before, after)
    if moved < params.attempt_min_move_mm:
        return None
    heading = math.atan2(after[1] - before[1], after[0] - before[0])
    towards: list[tuple[float, str]] = []  # (degrees off the line to the pocket, pocket)
    for name, pocket in table.pockets.items():
        target = pocket.mouth_centre
        to_pocket = _distance(before, target)
        angle = math.atan2(target[1] - before[1], target[0] - before[0]) - heading
        angle = abs(math.degrees((angle + math.pi) % (2 * math.pi) - math.pi))
        if angle <= params.attempt_max_angle_deg and moved >= params.attempt_min_travel * to_pocket:
            towards.append((angle, name))
    return min(towards)[1] if towards else None


def is_long(record: Mapping[str, Any], ball: str | None, pocket: str | None,
            table: TableGeometry, params: StatsParams) -> bool | None:
    """Whether a pot attempt at ``ball`` into ``pocket`` was long (None: not observed)."""
    before = record.get("positions_before") or {}
    first = first_ball_hit(record)
    if None in (ball, pocket, first) or pocket not in table.pockets:
        return None
    cue, obj, hit = before.get(B.WHITE), before.get(ball), before.get(first)
    if cue is None or obj is None or hit is None:
        return None
    far = _distance(obj, table.pockets[pocket].mouth_centre) >= params.long_object_to_pocket * table.length
    return far and _distance(cue, hit) >= params.long_cue_to_object * table.length


def classify(record: Mapping[str, Any], call: Mapping[str, Any], table: TableGeometry,
             params: StatsParams) -> tuple[str, bool | None]:
    """A stroke's kind (module docstring) and whether it was a long pot attempt."""
    striker = call["striker"]
    if call["foul"]:  # a foul, even in a stroke that is replayed (it costs its penalty)
        return FOUL, None
    if call.get("replay"):
        return REPLAYED, None
    if call["points"].get(striker, 0) > 0:  # scored: by a pot (or a cannon, in billiards)
        pot = _first_pot(record)
        if not call.get("potted") or pot is None:
            return UNKNOWN, None
        return POT, is_long(record, *pot, table, params)
    pocket = aimed_pocket(record, table, params)
    if pocket is not None:
        return MISSED_POT, is_long(record, first_ball_hit(record), pocket, table, params)
    after = record.get("positions_after")
    if not record.get("positions_before") or not after or first_ball_hit(record) not in after:
        return UNKNOWN, None
    return SAFETY, None


def _stroke(frame: int, record: Mapping[str, Any], call: Mapping[str, Any],
            previous_end: float | None, table: TableGeometry, params: StatsParams) -> Stroke:
    striker = call["striker"]
    kind, long = classify(record, call, table, params)
    given = {p: v for p, v in call["points"].items() if p != striker and v}
    penalty = sum(given.values()) if (call["foul"] or call.get("penalty")) else 0
    t_start, t_end = record.get("t_start"), record.get("t_end")
    shot_time = None
    if previous_end is not None and t_start is not None and t_start >= previous_end:
        shot_time = t_start - previous_end
    return Stroke(frame, int(call["shot"]), striker, kind,
                  0 if call["foul"] else int(call["points"].get(striker, 0)), int(penalty),
                  next(iter(given), None) if penalty else None,
                  tuple(call.get("potted", ())), long, t_start, t_end, shot_time,
                  dict(call.get("score", {})), bool(call.get("miss")),
                  call.get("next_striker"), bool(call.get("frame_over")))


def strokes_of(log: Iterable[Mapping[str, Any]], decisions: Sequence[Mapping[str, Any]],
               params: StatsParams = DEFAULT_PARAMS) -> tuple[list[Stroke], list[FrameResult]]:
    """The called strokes of a match log (its current calls) and its frames, in order.
    Strokes the referee could not call (no call in ``decisions``) are left out."""
    calls, ends = current_calls(decisions)
    breakers = {int(d["frame_start"]): d.get("breaker") for d in decisions if "frame_start" in d}
    strokes: list[Stroke] = []
    starts: list[Mapping[str, Any]] = []
    frame, table, previous_end = 0, TableGeometry.standard(), None
    for rec in log:
        if rec.get("type") == "frame_start":
            frame, previous_end = int(rec["frame"]), None
            starts.append(rec)
            size = rec.get("table")
            table = (TableGeometry.of_size(size["length"], size["width"]) if size
                     else TableGeometry.standard())
        elif rec.get("type") == "shot" and (frame, int(rec["shot"])) in calls:
            strokes.append(_stroke(frame, rec, calls[(frame, int(rec["shot"]))], previous_end,
                                   table, params))
            previous_end = rec.get("t_end", previous_end)
    return strokes, [_frame_result(s, ends.get(int(s["frame"])), strokes,
                                   breakers.get(int(s["frame"]))) for s in starts]


def _frame_result(start: Mapping[str, Any], end: Mapping[str, Any] | None,
                  strokes: Sequence[Stroke], breaker: str | None = None) -> FrameResult:
    number = int(start["frame"])
    mine = [s for s in strokes if s.frame == number]
    players = tuple(start["players"])
    score = dict(end["score"]) if end else (dict(mine[-1].score) if mine else dict.fromkeys(players, 0))
    times = [t for s in mine for t in (s.t_start, s.t_end) if t is not None]
    return FrameResult(number, players, breaker or start.get("breaker"), start.get("ruleset", "snooker"),
                       int(start.get("best_of", 1)), end.get("winner") if end else None, score,
                       end.get("reason") if end else None, end is not None,
                       min(times) if times else None, max(times) if times else None)


def visits_of(strokes: Sequence[Stroke]) -> list[Visit]:
    """The visits of a run of strokes (module docstring), in order."""
    visits: list[Visit] = []
    current: list[Stroke] = []

    def close(ended: str) -> None:
        if current:
            balls = tuple(b for s in current if s.kind == POT for b in s.potted if b != B.WHITE)
            visits.append(Visit(current[0].frame, current[0].striker,
                                tuple(s.shot for s in current), sum(s.points for s in current),
                                balls, current[0].t_start, current[-1].t_end, ended))
            current.clear()

    for s in strokes:
        if current and (s.striker != current[-1].striker or s.frame != current[-1].frame):
            close(ENDED_UNFINISHED)  # a change the calls did not announce (a correction)
        current.append(s)
        if s.kind == FOUL:
            close(ENDED_FOUL)
        elif s.frame_over:
            close(ENDED_FRAME)
        elif s.next_striker is not None and s.next_striker != s.striker:
            close(ENDED_NO_SCORE)
    close(ENDED_UNFINISHED)
    return visits


def _ratio(a: float, b: float) -> float | None:
    return a / b if b else None


def player_stats(player: str, strokes: Sequence[Stroke], visits: Sequence[Visit],
                 params: StatsParams = DEFAULT_PARAMS) -> PlayerStats:
    """One player's figures over ``strokes`` and ``visits`` (those of others are ignored)."""
    mine = [s for s in strokes if s.striker == player]
    turns = [v for v in visits if v.player == player]

    def count(kind: str, long: bool = False) -> int:
        return sum(1 for s in mine if s.kind == kind and (s.long or not long))

    pots, missed, long_pots, long_missed = (count(POT), count(MISSED_POT), count(POT, True),
                                            count(MISSED_POT, True))
    times = [s.shot_time_s for s in mine if s.shot_time_s is not None]
    scored = sum(v.points for v in turns)
    return PlayerStats(
        player, len(mine), pots, missed, _ratio(pots, pots + missed), long_pots, long_missed,
        _ratio(long_pots, long_pots + long_missed), count(SAFETY), count(FOUL),
        sum(s.penalty for s in mine if s.kind == FOUL), scored, len(turns),
        _ratio(scored, len(turns)), len(times), _ratio(sum(times), len(times)),
        {t: sum(1 for v in turns if v.points >= t) for t in params.break_thresholds},
        max((v.points for v in turns), default=0))


def split_by_match(log: Sequence[Mapping[str, Any]], decisions: Sequence[Mapping[str, Any]]
                   ) -> list[tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]]:
    """A run's match log and calls cut into its matches, ``[(log, calls), ...]`` in order (a
    table's day holds several). A match ends with the frame end that says ``match_over``;
    the log is cut where the calls are, as each frame start record has its one frame start
    call (a restarted frame too)."""
    calls: list[list[Mapping[str, Any]]] = [[]]
    over = False
    for d in decisions:
        if "frame_start" in d and over:
            calls.append([])
            over = False
        calls[-1].append(d)
        over = over or bool(d.get("match_over"))
    starts = [sum(1 for d in c if "frame_start" in d) for c in calls]
    logs: list[list[Mapping[str, Any]]] = [[]]
    seen = 0  # frame start records in the current piece of the log
    for rec in log:
        if rec.get("type") == "frame_start":
            if len(logs) < len(calls) and seen >= starts[len(logs) - 1]:
                logs.append([])
                seen = 0
            seen += 1
        logs[-1].append(rec)
    return list(zip(logs + [[]] * (len(calls) - len(logs)), calls, strict=True))


def match_stats(log: Iterable[Mapping[str, Any]], decisions: Iterable[Mapping[str, Any]],
                params: StatsParams = DEFAULT_PARAMS) -> MatchStats:
    """The statistics of a match from its log and the referee's calls (module docstring)."""
    decisions = list(decisions)
    strokes, frames = strokes_of(list(log), decisions, params)
    visits = visits_of(strokes)
    players = frames[0].players if frames else tuple(dict.fromkeys(s.striker for s in strokes))
    per_frame = {f.number: {p: player_stats(p, [s for s in strokes if s.frame == f.number],
                                            [v for v in visits if v.frame == f.number], params)
                            for p in f.players} for f in frames}
    won = {p: sum(1 for f in frames if f.winner == p) for p in players}
    best_of = frames[0].best_of if frames else 1
    said = [e.get("match_winner") for e in current_calls(decisions)[1].values()]
    winner = next((w for w in reversed(said) if w), None) or next(
        (p for p, n in won.items() if n > best_of // 2), None)
    return MatchStats(players, best_of, tuple(frames), tuple(strokes), tuple(visits), per_frame,
                      {p: player_stats(p, strokes, visits, params) for p in players}, won,
                      winner, params)
