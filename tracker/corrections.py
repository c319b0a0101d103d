"""Corrections of a stroke's call: which calls are current, and what a correction changed.

A console correction (or its taking back) calls the last stroke again. Its new calls are
appended to ``decisions.jsonl`` (and the store's ``decisions``) after the calls they replace;
each new line carries ``"amended": true`` and a ``"correction"`` object::

    {"shot": 5, "number": 1, "at": "2026-11-28T00:30:00+00:00",
     "change": "miss cancelled", "taken_back": false}

``number`` counts the corrections of that stroke (1, 2, ...); ``taken_back`` is true when the
correction restores the call before the last correction (console "undo"). Every reader (the
board and pages, the report, the statistics, the exports, resume) reads the calls through
:func:`current_decisions`, which keeps one current call per stroke: the calls a correction
replaces are dropped, in order.

What a correction says (:func:`correction_fields`) is written the same way on the console and
in an operator inputs file (``process --inputs``): an ``action`` with its fields, e.g.
``{"action": "foul", "code": "push"}``, ``{"action": "miss", "miss": false}``,
``{"action": "nominate", "ball": "pink"}``, ``{"action": "undo"}``.
Pure functions, no I/O; a leaf module.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from tracker import balls as B
from tracker.records.shot import OperatorFoul, OperatorJudgement
from tracker.rules.fouls import FOULS
from tracker.words import ball_words

#: Fouls a referee sees and the camera does not (offered on the console): code -> words.
CONSOLE_FOULS = {code: k.message for code, k in FOULS.items() if k.digest.startswith("H")}
#: The actions that say what a stroke's call should have been (a correction, or a judgement
#: for the coming stroke), and ``undo`` (take back the last correction).
JUDGEMENT_ACTIONS = ("nominate", "free_ball", "miss", "foul")


class CorrectionError(ValueError):
    """A correction (or judgement) that cannot be taken; the message says why."""


def correction_fields(action: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """What a judgement action says, as the stroke record's fields it replaces
    (``nomination``, ``free_ball`` or ``operator``: an :class:`OperatorJudgement`).

    Args:
        action: one of :data:`JUDGEMENT_ACTIONS`.
        payload: its fields: ``ball`` (nominate, free_ball; foul, optional), ``miss`` (true
            or false), ``code`` (foul: one of :data:`CONSOLE_FOULS`).

    Raises:
        CorrectionError: an unknown action or a missing or wrong field.
    """
    if action in ("nominate", "free_ball"):
        ball = payload.get("ball")
        if ball in (None, ""):
            raise CorrectionError(f"{action}: give ball")
        if not (isinstance(ball, str) and B.valid_ball(ball) and ball != B.WHITE):
            raise CorrectionError(f"{action}: {ball!r} is not a ball")
        return {"nomination" if action == "nominate" else "free_ball": ball}
    if action == "miss":
        miss = payload.get("miss")
        if not isinstance(miss, bool):
            raise CorrectionError("miss: give miss: true (call a miss) or false (no miss)")
        return {"operator": OperatorJudgement(miss=miss)}
    if action == "foul":
        code = payload.get("code")
        if code in (None, ""):
            raise CorrectionError("foul: give code")
        if code not in CONSOLE_FOULS:
            raise CorrectionError(f"foul: {code!r} is not a foul the console can call; one of "
                                  + ", ".join(CONSOLE_FOULS))
        ball = payload.get("ball") or None
        if ball is not None and not (isinstance(ball, str) and B.valid_ball(ball)):
            raise CorrectionError(f"foul: {ball!r} is not a ball")
        return {"operator": OperatorJudgement(fouls=(OperatorFoul(code, ball),))}
    raise CorrectionError(f"unknown action {action!r}; one of "
                          + ", ".join((*JUDGEMENT_ACTIONS, "undo")))


def _stroke_of(d: Mapping[str, Any]) -> int | None:
    """The stroke a call line is about (its correction's stroke for a corrected line)."""
    corr = d.get("correction")
    if isinstance(corr, Mapping):
        return int(corr["shot"])
    shot = d.get("shot")
    return int(shot) if isinstance(shot, int) and "input" not in d else None


def _block_key(d: Mapping[str, Any]) -> tuple[int, int] | None:
    corr = d.get("correction")
    return (int(corr["shot"]), int(corr["number"])) if isinstance(corr, Mapping) else None


def current_indices(decisions: Iterable[Mapping[str, Any]]) -> list[int]:
    """The places (0-based) of the decision lines that are current, in order (see
    :func:`current_decisions`)."""
    lines = list(decisions)
    out: list[int] = []
    block: tuple[int, int] | None = None
    for i, d in enumerate(lines):
        key = _block_key(d)
        if key is not None and key != block:
            cut = _start_of_last_call([lines[j] for j in out], key[0])
            if cut is not None:
                del out[cut:]
        block = key
        out.append(i)
    return out


def current_decisions(decisions: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The decision lines with every call a correction replaced left out (order kept).

    A block of corrected lines (same ``correction`` shot and number) replaces the lines of
    that stroke's latest call: the trailing lines from the first one about the stroke (its
    call, and the frame's end when that call ended the frame). Lines without a correction
    pass through unchanged, so a run with no correction reads the same.
    """
    lines = [dict(d) for d in decisions]
    return [lines[i] for i in current_indices(lines)]


def superseded_decisions(decisions: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The decision lines a correction replaced (the history), in order."""
    lines = [dict(d) for d in decisions]
    keep = set(current_indices(lines))
    return [d for i, d in enumerate(lines) if i not in keep]


def _start_of_last_call(out: list[Mapping[str, Any]], shot: int) -> int | None:
    """Where the latest call of stroke ``shot`` begins in ``out`` (None if it has none)."""
    last = next((i for i in range(len(out) - 1, -1, -1) if _stroke_of(out[i]) == shot), None)
    if last is None:
        return None
    first = last
    while first > 0 and (_stroke_of(out[first - 1]) == shot
                         and _block_key(out[first - 1]) == _block_key(out[last])):
        first -= 1
    return first


def _operator(rec: Mapping[str, Any]) -> Mapping[str, Any]:
    op = rec.get("operator")
    return op if isinstance(op, Mapping) else {}


def _miss_words(value: Any) -> str:
    return {True: "called", False: "cancelled", None: "as first called"}.get(value, str(value))


def describe_change(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """What a correction changed between two records of the same stroke (record dicts, as in
    the match log), in people's words: "miss cancelled", "foul added: a push stroke", "nominated
    the pink (was the blue)"; "the call confirmed" when nothing the referee judges changed."""
    parts: list[str] = []
    old_op, new_op = _operator(before), _operator(after)
    if old_op.get("miss") != new_op.get("miss"):
        parts.append(f"miss {_miss_words(new_op.get('miss'))}")

    def foul_names(op: Mapping[str, Any]) -> list[str]:
        out = []
        for f in op.get("fouls") or []:
            code = f.get("code") if isinstance(f, Mapping) else str(f)
            kind = FOULS.get(code)
            ball = (f.get("ball") if isinstance(f, Mapping) else None) or "a ball"
            out.append(kind.message.format(ball=ball) if kind else str(code))
        return out

    old_f, new_f = foul_names(old_op), foul_names(new_op)
    added = [f for f in new_f if f not in old_f]
    dropped = [f for f in old_f if f not in new_f]
    if added:
        parts.append("foul added: " + "; ".join(added))
    if dropped:
        parts.append("foul withdrawn: " + "; ".join(dropped))
    for key, words in (("nomination", "nominated"), ("free_ball", "free ball")):
        if before.get(key) != after.get(key):
            new, old = after.get(key), before.get(key)
            now = f"the {ball_words(new)}" if new else "none"
            parts.append(f"{words} {now}" + (f" (was the {ball_words(old)})" if old else ""))
    return "; ".join(parts) or "the call confirmed"


def correction_mark(shot: int, number: int, change: str, taken_back: bool = False,
                    at: dt.datetime | None = None) -> dict[str, Any]:
    """The ``correction`` object a corrected call line carries (see the module docstring)."""
    when = (at or dt.datetime.now(dt.UTC)).isoformat(timespec="seconds")
    return {"shot": int(shot), "number": int(number), "at": when, "change": change,
            "taken_back": bool(taken_back)}
