"""Reading and writing match-log records (JSONL), with errors a user can act on."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from calibration.limits import (
    LOG_LINE_MAX_CHARS,
    POSITION_MARGIN_MM,
    TABLE_LENGTH_MM,
    TABLE_WIDTH_MM,
    TIME_S,
    check_name,
    check_table,
    is_finite,
    within,
)
from calibration.table import STANDARD_LENGTH_MM, STANDARD_WIDTH_MM
from tracker.records.shot import (
    Event,
    EventType,
    FrameStart,
    InputKind,
    OperatorFoul,
    OperatorInput,
    OperatorJudgement,
    Record,
    Shot,
)


class RecordError(ValueError):
    """A malformed or impossible record; the message names the line and the problem."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        prefix = f"line {line}: " if line is not None else ""
        super().__init__(prefix + message)


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The JSON Schema of a match-log record (format version 1)."""
    text = resources.files("tracker.records").joinpath("shot-record.schema.json").read_text()
    return json.loads(text)


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema())


def _describe(err: jsonschema.ValidationError) -> str:
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path)
    where = where.lstrip(".") or "record"
    return f"{where}: {err.message}"


def _xy_map(obj: dict[str, list[float]] | None) -> dict[str, tuple[float, float]] | None:
    if obj is None:
        return None
    return {k: (float(v[0]), float(v[1])) for k, v in obj.items()}


def _event(obj: dict[str, Any]) -> Event:
    balls = tuple(obj.get("balls") or ([obj["ball"]] if "ball" in obj else []))
    return Event(
        type=EventType(obj["type"]),
        t=float(obj.get("t", 0.0)),
        balls=balls,
        pocket=obj.get("pocket"),
        cushion=obj.get("cushion"),
        confidence=float(obj.get("confidence", 1.0)),
        rest_s=float(obj.get("rest_s", 0.0)),
        by=obj.get("by", "striker"),
        frame=obj.get("frame"),
    )


def _teams(obj: list[list[str]] | None) -> tuple[tuple[str, str], tuple[str, str]] | None:
    if obj is None:
        return None
    return (obj[0][0], obj[0][1]), (obj[1][0], obj[1][1])


def record_from_dict(obj: Any, line: int | None = None,
                     table: tuple[float, float] | None = None) -> Record:
    """Validate one decoded JSON record and build its typed form.

    Args:
        obj: the decoded JSON.
        line: its line number, for messages.
        table: (width, length) mm of the table its positions are on (the frame start's; None:
            only the widest table of docs/LIMITS.md bounds them).

    Raises:
        RecordError: naming ``line`` and the first problem found; never anything else.
    """
    if not isinstance(obj, dict):
        raise RecordError(f"expected a JSON object, got {type(obj).__name__}", line)
    errors = sorted(_validator().iter_errors(obj), key=lambda e: (len(e.absolute_path), e.path))
    if errors:
        best = jsonschema.exceptions.best_match(errors)
        raise RecordError(
            f"does not match the shot-record schema: {_describe(best)} "
            "(see docs/SHOT-RECORD.md)",
            line,
        )
    try:
        _check_values(obj, table)
    except ValueError as exc:
        raise RecordError(f"{exc} (limits: docs/LIMITS.md)", line) from None
    kind = obj["type"]
    if kind == "frame_start":
        return FrameStart(
            frame=obj["frame"],
            players=(obj["players"][0], obj["players"][1]),
            breaker=obj.get("breaker"),
            ruleset=obj.get("ruleset", "snooker"),
            best_of=obj.get("best_of", 1),
            race_to=obj.get("race_to"),
            positions=_xy_map(obj.get("positions")),
            options=dict(obj.get("options", {})),
            table=obj.get("table"),
            aggregate=bool(obj.get("aggregate", False)),
            teams=_teams(obj.get("teams")),
            order=tuple(obj["order"]) if obj.get("order") is not None else None,
            start_points=dict(obj["start_points"]) if obj.get("start_points") else None,
            frames_won=dict(obj["frames_won"]) if obj.get("frames_won") else None,
        )
    if kind == "shot":
        events = tuple(_event(e) for e in obj["events"])
        times = [e.t for e in events]
        if any(b < a - 1e-9 for a, b in zip(times, times[1:], strict=False)):
            raise RecordError(f"shot {obj['shot']}: events are not in time order", line)
        op = obj.get("operator", {})
        judgement = OperatorJudgement(
            miss=op.get("miss"),
            fouls=tuple(
                OperatorFoul(f["code"], f.get("ball"), f.get("note", "")) for f in op.get("fouls", [])
            ),
            not_a_stroke=bool(op.get("not_a_stroke", False)),
            lip_would_be_hit=op.get("lip_would_be_hit"),
        )
        touching = obj.get("touching")
        return Shot(
            shot=obj["shot"],
            events=events,
            striker=obj.get("striker"),
            positions_before=_xy_map(obj.get("positions_before")),
            positions_after=_xy_map(obj.get("positions_after")),
            nomination=obj.get("nomination"),
            free_ball=obj.get("free_ball"),
            touching=tuple(touching) if touching is not None else None,
            operator=judgement,
            t_start=obj.get("t_start"),
            t_end=obj.get("t_end"),
            needs_review=tuple(obj.get("needs_review", [])),
        )
    return OperatorInput(
        kind=InputKind(obj["input"]),
        choice=obj.get("choice"),
        player=obj.get("player"),
        note=obj.get("note", ""),
    )


def read_log(path: str | Path, other: Callable[[int, dict[str, Any]], bool] | None = None
             ) -> Iterator[tuple[int, Record]]:
    """Yield (line number, record) for each non-blank line of a JSONL match log.

    ``other`` (optional) is offered each line's object first (line number, object): a line it
    takes (returns True) is not a record of the log (an operator inputs file's correction
    entries, :func:`tracker.pipeline.referee.inputs_from_log`) and is not checked here.

    Besides each record's own checks (:func:`record_from_dict`), the log as a whole: it holds
    at least one record, stroke numbers increase, and positions lie on the table of the frame
    start before them.

    Raises:
        RecordError: for a missing, empty or unreadable file, text that is not UTF-8, invalid
            JSON, or a record that breaks the schema or the limits (docs/LIMITS.md); never
            anything else.
    """
    p = Path(path)
    if not p.exists():
        raise RecordError(f"{p}: no such file; give the path of a match log (JSONL)")
    if p.is_dir():
        raise RecordError(f"{p} is a folder; give the path of a match log (JSONL)")
    table: tuple[float, float] | None = (STANDARD_WIDTH_MM, STANDARD_LENGTH_MM)
    last_shot, n_records = 0, 0
    try:
        with p.open(encoding="utf-8") as fh:
            for n, raw in enumerate(iter(lambda: fh.readline(LOG_LINE_MAX_CHARS + 1), ""),
                                    start=1):
                if len(raw) > LOG_LINE_MAX_CHARS:
                    raise RecordError(f"the line is longer than {LOG_LINE_MAX_CHARS} "
                                      "characters: not a match-log record", n)
                text = raw.strip()
                if not text or text.startswith("//"):
                    continue
                try:
                    obj = json.loads(text, parse_constant=refuse_constant,
                                     object_pairs_hook=_refuse_duplicate_keys)
                except json.JSONDecodeError as exc:
                    raise RecordError(f"not valid JSON ({exc.msg} at column {exc.colno})",
                                      n) from None
                except (ValueError, RecursionError) as exc:
                    why = exc if isinstance(exc, ValueError) else "nested too deeply"
                    raise RecordError(f"not valid JSON ({why})", n) from None
                if other is not None and isinstance(obj, dict) and other(n, obj):
                    n_records += 1
                    continue
                rec = record_from_dict(obj, n, table)
                if isinstance(rec, FrameStart):
                    table = ((rec.table["width"], rec.table["length"]) if rec.table
                             else (STANDARD_WIDTH_MM, STANDARD_LENGTH_MM))
                elif isinstance(rec, Shot):
                    if rec.shot <= last_shot:
                        raise RecordError(f"stroke {rec.shot} comes after stroke {last_shot}: "
                                          "stroke numbers must increase through the log", n)
                    last_shot = rec.shot
                n_records += 1
                yield n, rec
    except UnicodeDecodeError as exc:
        raise RecordError(f"{p}: not a match log: the file is not UTF-8 text (byte "
                          f"{exc.start}: a picture, a video, or another encoding?); give a "
                          "JSONL match log saved as UTF-8") from None
    except OSError as exc:
        raise RecordError(f"{p}: cannot read the file ({exc.strerror})") from None
    if n_records == 0:
        raise RecordError(f"{p}: the log holds no record (the file is empty or only blank "
                          "lines and comments); a match log begins with a frame_start line "
                          "(docs/SHOT-RECORD.md)")


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object; one that names a key twice is refused (JSON readers keep the last
    silently: a second "white" position, a second nomination)."""
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"the key {k!r} appears twice in one object")
        out[k] = v
    return out


@lru_cache(maxsize=1)
def _known_fields() -> dict[str, frozenset[str]]:
    """The fields each record type may have (its schema's properties, type and version)."""
    defs = schema()["$defs"]
    return {kind: frozenset({"type", "version", *defs[kind].get("properties", {})})
            for kind in ("frame_start", "shot", "input")}


def refuse_constant(name: str) -> Any:
    """JSON has no NaN or Infinity (Python's json reads them unless told not to)."""
    raise ValueError(f"{name} is not a number: give a finite number")


def _check_values(obj: dict[str, Any], table: tuple[float, float] | None) -> None:
    """The checks the schema cannot make: finite times within the limits, positions on the
    table, a real table size, two different players with printable names (ValueError)."""
    unknown = sorted(set(obj) - _known_fields()[obj["type"]])
    if unknown:
        raise ValueError(f"unknown field {unknown[0]!r} in a {obj['type']} record (a typo?); "
                         f"its fields are: {', '.join(sorted(_known_fields()[obj['type']]))}")
    if obj["type"] == "frame_start":
        names = [*obj["players"], *(n for team in obj.get("teams") or [] for n in team),
                 *(obj.get("order") or [])]
        for name in names:
            check_name("a player's", name)
        if _same(obj["players"][0], obj["players"][1]):
            raise ValueError(f"the two players must have different names, got "
                             f"{obj['players'][0]!r} twice")
        teams = [n for team in obj.get("teams") or [] for n in team]
        if len({_fold(n) for n in teams}) != len(teams):
            raise ValueError("the four players of the two teams must have different names")
        t = obj.get("table")
        if t is not None:
            try:
                check_table(t["length"], t["width"], t.get("ball_diameter", 52.5))
            except ValueError as exc:
                raise ValueError(f"table: {exc}") from None
            table = (t["width"], t["length"])
        else:
            table = (STANDARD_WIDTH_MM, STANDARD_LENGTH_MM)
        _check_positions("positions", obj.get("positions"), table)
        return
    if obj["type"] != "shot":
        return
    for i, e in enumerate(obj["events"]):
        if "t" in e:
            _check_time(f"events[{i}].t", e["t"])
        if "rest_s" in e:
            _check_time(f"events[{i}].rest_s", e["rest_s"])
    for key in ("t_start", "t_end"):
        if obj.get(key) is not None:
            _check_time(key, obj[key])
    if obj.get("t_start") is not None and obj.get("t_end") is not None \
            and obj["t_end"] < obj["t_start"]:
        raise ValueError(f"t_end {obj['t_end']} s is before t_start {obj['t_start']} s")
    for key in ("positions_before", "positions_after"):
        _check_positions(key, obj.get(key), table)


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def _same(a: str, b: str) -> bool:
    return _fold(a) == _fold(b)


def _check_time(name: str, t: Any) -> None:
    if not is_finite(t):
        raise ValueError(f"{name}: the time {str(t)[:30]} is not a finite number of seconds")
    if t < 0:
        raise ValueError(f"{name}: the time {t} s is negative; times are seconds from the "
                         "start of the video")
    if not within(t, TIME_S):
        raise ValueError(f"{name}: the time {t:g} s is past {TIME_S[1]:g} s (two days)")


def _check_positions(name: str, positions: dict[str, list[float]] | None,
                     table: tuple[float, float] | None) -> None:
    """Ball centres (mm) within the table (``table``: width, length) and its margin."""
    if not positions:
        return
    w, ln = table if table is not None else (TABLE_WIDTH_MM[1], TABLE_LENGTH_MM[1])
    m = POSITION_MARGIN_MM
    for ball, xy in positions.items():
        x, y = xy
        if not (is_finite(x) and is_finite(y)):
            raise ValueError(f"{name}.{ball}: position {xy} is not finite")
        if not (-m <= x <= w + m and -m <= y <= ln + m):
            raise ValueError(f"{name}.{ball}: position ({x:g}, {y:g}) mm is off the table "
                             f"(x 0..{w:g}, y 0..{ln:g} mm, {m:g} mm of margin)")


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None and v != () and v != []}


def event_to_dict(e: Event) -> dict[str, Any]:
    """JSON form of an event."""
    d: dict[str, Any] = {"type": str(e.type), "t": round(e.t, 6)}
    if len(e.balls) == 1 and e.type != EventType.CONTACT:
        d["ball"] = e.balls[0]
    elif e.balls:
        d["balls"] = list(e.balls)
    if e.pocket:
        d["pocket"] = e.pocket
    if e.cushion:
        d["cushion"] = e.cushion
    if e.confidence != 1.0:
        d["confidence"] = round(e.confidence, 4)
    if e.rest_s:
        d["rest_s"] = e.rest_s
    if e.by != "striker":
        d["by"] = e.by
    if e.frame is not None:
        d["frame"] = e.frame
    return d


def _pos(p: dict[str, tuple[float, float]] | None) -> dict[str, list[float]] | None:
    if p is None:
        return None
    return {k: [round(v[0], 2), round(v[1], 2)] for k, v in p.items()}


def record_to_dict(rec: Record) -> dict[str, Any]:
    """JSON form of a record (inverse of :func:`record_from_dict`)."""
    if isinstance(rec, FrameStart):
        return _drop_none(
            {
                "type": "frame_start",
                "version": 1,
                "frame": rec.frame,
                "players": list(rec.players),
                "breaker": rec.breaker,
                "ruleset": rec.ruleset,
                "best_of": rec.best_of,
                "race_to": rec.race_to,
                "positions": _pos(rec.positions),
                "options": rec.options or None,
                "table": rec.table,
                "aggregate": True if rec.aggregate else None,
                "teams": [list(t) for t in rec.teams] if rec.teams else None,
                "order": list(rec.order) if rec.order else None,
                "start_points": dict(rec.start_points) if rec.start_points else None,
                "frames_won": dict(rec.frames_won) if rec.frames_won else None,
            }
        )
    if isinstance(rec, Shot):
        op: dict[str, Any] = {}
        if rec.operator.miss is not None:
            op["miss"] = rec.operator.miss
        if rec.operator.fouls:
            op["fouls"] = [_drop_none({"code": f.code, "ball": f.ball, "note": f.note or None})
                           for f in rec.operator.fouls]
        if rec.operator.not_a_stroke:
            op["not_a_stroke"] = True
        if rec.operator.lip_would_be_hit:
            op["lip_would_be_hit"] = rec.operator.lip_would_be_hit
        return _drop_none(
            {
                "type": "shot",
                "version": 1,
                "shot": rec.shot,
                "striker": rec.striker,
                "t_start": rec.t_start,
                "t_end": rec.t_end,
                "positions_before": _pos(rec.positions_before),
                "events": [event_to_dict(e) for e in rec.events] or [],
                "positions_after": _pos(rec.positions_after),
                "nomination": rec.nomination,
                "free_ball": rec.free_ball,
                "touching": list(rec.touching) if rec.touching is not None else None,
                "needs_review": list(rec.needs_review) or None,
                "operator": op or None,
            }
        ) | {"events": [event_to_dict(e) for e in rec.events]}
    return _drop_none(
        {
            "type": "input",
            "version": 1,
            "input": str(rec.kind),
            "choice": rec.choice,
            "player": rec.player,
            "note": rec.note or None,
        }
    )
