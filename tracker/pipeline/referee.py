"""The referee side of a run: records in, calls out (see :mod:`tracker.pipeline`).

:class:`Referee` holds the match (:class:`tracker.rules.match.Match`) and what the operator and
the referee said: it feeds each record (frame start, operator input, stroke) to the rules,
hands the record and its calls to the listeners and says the calls (``on_call``). Around a
stroke's record it applies the inputs due before it, merges what was said about it
(:class:`Judgement`), drops what the referee's state or the record itself contradicts
(:func:`sanitize`, :func:`consistent_events`), and says
the call early while every ball rests (:meth:`Referee.early_call`). It asks the stroke
detector only through its public methods.
"""

from __future__ import annotations

import contextlib
import copy
import queue
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tracker import balls as B
from tracker.corrections import (
    CorrectionError,
    correction_fields,
    correction_mark,
    current_decisions,
    describe_change,
)
from tracker.listeners import ProcessResult, RunListener
from tracker.perception.events import EARLY_CALL_S, StrokeDetector
from tracker.perception.track import TableState
from tracker.pipeline.table_follow import (
    follow_pool_table,
    follow_the_reds,
    turn_passed,
    unpotted,
    unseen_colours,
)
from tracker.records.parse import record_to_dict
from tracker.records.shot import (
    Event,
    EventType,
    FrameStart,
    InputKind,
    OperatorInput,
    Record,
    Shot,
)
from tracker.rules.explain import explain
from tracker.rules.match import Match
from tracker.rules.snooker import RuleError
from tracker.words import balls_words, the_ball

#: What the referee may say about a stroke (the fields of a :class:`Shot` the camera cannot see).
JUDGEMENT_FIELDS = ("nomination", "free_ball", "operator")


class Judgement(dict):
    """What the referee says about the coming stroke, or (with ``amend``) the last one: some of
    :data:`JUDGEMENT_FIELDS` (``operator`` an :class:`OperatorJudgement`)."""


def merge_operator(said: Judgement, old: Any) -> Judgement:
    """A judgement whose ``operator`` part adds to ``old`` (an OperatorJudgement): a new miss
    judgement replaces the old one, fouls add up."""
    new = said.get("operator")
    if new is None or old is None:
        return said
    return Judgement({**said, "operator": replace(
        old, miss=old.miss if new.miss is None else new.miss, fouls=(*old.fouls, *new.fouls),
        not_a_stroke=old.not_a_stroke or new.not_a_stroke)})


def sanitize(shot: Shot, on_table: frozenset[str]) -> Shot:
    """Drop what the referee's state contradicts (a ball it knows is off the table), with a
    review note, instead of stopping the match."""
    notes = list(shot.needs_review)

    def keep_pos(p: dict | None) -> dict | None:
        if p is None:
            return None
        out = {}
        for b, v in p.items():
            if b == B.WHITE or b in on_table or B.is_colour(b):
                out[b] = v
            else:
                notes.append(f"the camera saw {the_ball(b)} on the table that the referee has "
                             "off it (potted): ignored")
        return out

    events = []
    for e in shot.events:
        if any(b != B.WHITE and b not in on_table for b in e.balls):
            notes.append(f"the camera saw {balls_words(e.balls)} in a {e.type} though off the "
                         "table (potted): ignored")
            continue
        events.append(e)
    events = consistent_events(sorted(events, key=lambda e: e.t), notes)
    return replace(shot, events=tuple(events), positions_before=keep_pos(shot.positions_before),
                   positions_after=keep_pos(shot.positions_after), needs_review=tuple(dict.fromkeys(notes)))


def consistent_events(events: list[Event], notes: list[str]) -> list[Event]:
    """``events`` (in time order) without those the record itself contradicts, each dropped
    with a review note added to ``notes``: a contact of a ball after it left the table
    (potted, or off over a cushion), and a ball's second departure. The referee refuses a
    record with either (:func:`tracker.rules.stroke.check_events`); one such event seen by
    the camera (a potted ball's last place taken for a ball that hit another later) must not
    cost the whole stroke its call."""
    gone: dict[str, Event] = {}
    kept = []
    for e in events:
        met = [b for b in e.balls if b in gone and b != B.GENERIC_RED] if e.type == EventType.CONTACT else []
        if met:
            how = "been potted" if gone[met[0]].type == EventType.POT else "left the table"
            other = balls_words([b for b in e.balls if b != met[0]])
            notes.append(f"the camera saw {the_ball(met[0])} that had {how} at {gone[met[0]].t:.2f} s "
                         f"touch {other} at {e.t:.2f} s: that contact is ignored; check")
            continue
        if e.type in (EventType.POT, EventType.OFF_TABLE) and e.ball != B.GENERIC_RED:
            if e.ball in gone:
                notes.append(f"the camera saw {the_ball(e.ball)} leave the table twice: the second "
                             f"time ({e.t:.2f} s) is ignored; check")
                continue
            gone[e.ball] = e
        kept.append(e)
    return kept


@dataclass
class EarlyCall:
    """A stroke's call said early (:meth:`Referee.early_call`).

    Attributes:
        shot: the stroke's number.
        said: the lines said (the latest, when corrected).
        rest_since: the start (s) of the rest it was said in.
        moved: balls moved again since (the wait was said).
        corrected: said again, corrected.
    """

    shot: int
    said: list[str]
    rest_since: float
    moved: bool = False
    corrected: bool = False

@dataclass(frozen=True)
class Correction:
    """A stroke's call corrected from an operator inputs file (``{"correct": N, "action": ...}``,
    :func:`inputs_from_log`): applied as soon as stroke ``shot`` is called, as the console's
    correction of the last stroke is (:meth:`Referee.amend`), before the inputs after it.

    Attributes:
        shot: the stroke corrected (its number in the run).
        said: what the referee says the stroke was (:class:`Judgement`); None for ``undo``
            (take back the stroke's last correction, :meth:`Referee.take_back`).
    """

    shot: int
    said: Judgement | None


class Referee:
    """The referee of one table's records (see the module docstring); :class:`RefereeRun`
    adds the frames.

    Args:
        strokes: the stroke detector whose strokes are called (asked for the stroke under
            way, its rest, its record so far; told when the referee replaces balls).
        players, inputs, spoken, listeners, on_call: see :class:`RefereeRun`.
    """

    def __init__(self, strokes: StrokeDetector, players: tuple[str, str] = ("A", "B"),
                 inputs: list[tuple[int, OperatorInput | FrameStart | Correction]] | None = None,
                 spoken: dict[int, dict[str, Any]] | None = None,
                 listeners: Iterable[RunListener] = (),
                 on_call: Callable[[str], None] | None = None):
        self.strokes = strokes
        self.players = players
        self.inputs = list(inputs or [])
        self.spoken = dict(spoken or {})
        self.listeners = list(listeners)
        self.on_call = on_call
        self.match = Match()
        self.result = ProcessResult()
        self.start: FrameStart | None = None
        self._live_inputs: queue.Queue[OperatorInput | tuple[str, Judgement, Any]] = queue.Queue()
        #: the console's judgements for the coming stroke, merged into it (over ``spoken``)
        self.said_next = Judgement()
        #: the referee before the last stroke was fed, and the records fed since (for amend)
        self._before_last: tuple[Match, list[Record]] | None = None
        #: the earlier versions of the last stroke's record, one per correction (for undo)
        self._corrected: list[Shot] = []
        self._inputs_done: set[int] = set()
        #: the early call said for the stroke under way
        self._early: EarlyCall | None = None

    def _corrections_due(self, n: int) -> list[dict[str, Any]]:
        """Apply the inputs' corrections of stroke ``n`` (just called), in order; a refused
        one is said (``on_call``) and changes nothing."""
        outs: list[dict[str, Any]] = []

        def refused(out: dict[str, Any]) -> None:
            if not out["accepted"] and self.on_call:
                self.on_call(f"CORRECTION OF SHOT {n} NOT TAKEN: {out['message']}")

        for due, fix in self.inputs:
            if due == n and isinstance(fix, Correction):
                when = "undo" if fix.said is None else "amend"
                outs += self._apply_judgement(when, fix.said or Judgement(), refused)
        return outs

    def _inputs_due(self, n: int) -> list[dict[str, Any]]:
        """Apply the known inputs due before stroke ``n`` not applied yet (as soon as the
        stroke before it is called: a replacement is then known while the referee replaces)."""
        outs: list[dict[str, Any]] = []
        for i, (due, inp) in enumerate(self.inputs):
            if due == n and isinstance(inp, OperatorInput) and i not in self._inputs_done:
                self._inputs_done.add(i)
                outs += self._apply_input(inp)
        return outs

    # --- the loop -------------------------------------------------------------------------
    def submit(self, inp: OperatorInput) -> None:
        """An operator input made while the run goes on (a console); applied before the next
        frame is processed. Safe to call from another thread."""
        self._live_inputs.put(inp)

    def judge(self, said: Judgement, amend: bool = False,
              done: Callable[[dict[str, Any]], None] | None = None) -> None:
        """The referee's judgement (nomination, free ball, miss, fouls the camera cannot see):
        for the coming stroke (merged into its record when it ends; a later judgement of the
        same field replaces it), or with ``amend`` for the last stroke, called again at once
        (:meth:`amend`). Taken before the next frame; ``done`` gets the outcome
        (``{"accepted": bool, "message": str}``). Safe to call from another thread."""
        self._live_inputs.put(("amend" if amend else "next", Judgement(said), done))

    def undo(self, done: Callable[[dict[str, Any]], None] | None = None) -> None:
        """Take back the last correction (:meth:`take_back`) before the next frame; ``done``
        gets the outcome as for :meth:`judge`. Safe to call from another thread."""
        self._live_inputs.put(("undo", Judgement(), done))

    def take_inputs(self) -> list[dict[str, Any]]:
        """Apply the inputs and judgements made while the run went on (:meth:`submit`,
        :meth:`judge`), in order; returns what the referee said about them."""
        decisions: list[dict[str, Any]] = []
        while not self._live_inputs.empty():
            item = self._live_inputs.get_nowait()
            decisions += (self._apply_judgement(*item) if isinstance(item, tuple)
                          else self._apply_input(item))
        return decisions


    @property
    def frame_over(self) -> bool:
        """Whether the frame has ended (nothing more to referee)."""
        return bool(self.match.state and self.match.state.frame_over)

    def _referee(self, shot: Shot) -> tuple[Shot, list[dict[str, Any]]]:
        """Apply the inputs due before this stroke, then call it."""
        outs = self._inputs_due(shot.shot)
        if shot.shot in self.spoken:
            shot = replace(shot, **self.spoken[shot.shot])
        if self.said_next:
            shot = replace(shot, **self.said_next)
            self.said_next = Judgement()
        outs += self._recall_unpotted(shot)
        self.match.state, followed = follow_pool_table(self.match.state, shot)
        shot = self._follow_snooker_table(self.match, shot)
        shot = sanitize(shot, self.match.state.on_table)
        self._before_last = (copy.deepcopy(self.match), [])
        self._corrected = []
        calls = [{**c, "needs_review": [*c["needs_review"], *followed]}
                 if followed and isinstance(c.get("needs_review"), list) else c
                 for c in self._call(shot)]
        self.result.shots.append(shot)
        self._emit(shot, calls)
        fixes = self._corrections_due(shot.shot)
        return shot, outs + calls + fixes + self._inputs_due(shot.shot + 1)

    def _recall_unpotted(self, shot: Shot) -> list[dict[str, Any]]:
        """Balls the last stroke's call potted, seen at rest on the table at the start of
        ``shot``: the last stroke called again without those pots
        (:func:`tracker.pipeline.table_follow.unpotted`), while it may still be corrected (no
        input since). Returns the new calls."""
        if self._why_not_corrected():
            return []
        last = self.result.shots[-1]
        fixed = unpotted(last, shot, self.match.state)
        if fixed is None:
            return []
        self._corrected.append(last)
        gone = sorted({e.ball for e in last.events if e.type == EventType.POT}
                      - {e.ball for e in fixed.events if e.type == EventType.POT}, key=str)
        return self._call_again(fixed, last, taken_back=False,
                                change=f"pot taken back: {balls_words(gone)} still on the table")[2]

    def early_call(self, st: TableState) -> None:
        """Say the stroke's call as soon as every ball has rested :data:`EARLY_CALL_S`: the
        calls of the record it would have if it ended now, made on a copy of the referee
        (nothing is recorded; the stroke's end, after ``SETTLE_S``, makes the call that counts
        and says it again only if it differs). Said once per rest; if balls move again, a
        line says the call waits, and the next rest's call is said only if it differs."""
        early, on_call = self._early, self.on_call
        if on_call is None or not self.strokes.under_way:
            return
        if early is not None and self.strokes.stirring(st) and not early.moved:
            early.moved = True
            on_call(f"WAIT: balls are moving again after the call of shot {early.shot}: it "
                    "stands only if they stop as it said")
            return
        rest = self.strokes.resting_for(st.t)
        if rest is None or rest < EARLY_CALL_S:
            return
        since = self.strokes.quiet_since
        if early is not None and early.rest_since == since:
            return
        shot = self.strokes.preview(st)
        said = [explain(c) for c in self._calls_on_copy(shot)]
        if early is None:
            self.result.early_calls += 1
            self._early = early = EarlyCall(shot.shot, said, since)
            for line in said:
                on_call(line)
            return
        early.rest_since, early.moved = since, False
        if said != early.said:
            self._correct(early, said)

    def _correct(self, early: EarlyCall, said: list[str]) -> None:
        """Say a stroke's call again, corrected (counted once per stroke)."""
        self.result.early_corrected += int(not early.corrected)
        early.corrected, early.said = True, said
        if self.on_call:
            for line in said:
                self.on_call("CORRECTED: " + line)

    def _calls_on_copy(self, shot: Shot) -> list[dict[str, Any]]:
        """What :meth:`_referee` would decide for ``shot``, on a copy of the referee (the
        inputs due, what was said for it, the record cleaned as there)."""
        match = copy.deepcopy(self.match)
        for i, (due, inp) in enumerate(self.inputs):
            if due == shot.shot and isinstance(inp, OperatorInput) and i not in self._inputs_done:
                with contextlib.suppress(RuleError):  # refused: it changes nothing
                    match.feed(inp)
        if shot.shot in self.spoken:
            shot = replace(shot, **self.spoken[shot.shot])
        if self.said_next:
            shot = replace(shot, **self.said_next)
        match.state, _ = follow_pool_table(match.state, shot)
        shot = self._follow_snooker_table(match, shot)
        shot = sanitize(shot, match.state.on_table)
        try:
            return match.feed(shot)
        except RuleError as exc:
            return [{"shot": shot.shot, "error": str(exc), "needs_review": True}]

    @staticmethod
    def _follow_snooker_table(match: Match, shot: Shot) -> Shot:
        """The referee's reds made to follow the camera's record at the strike, and the colours
        the camera does not see (not just re-spotted) taken as where the referee had them
        (:mod:`tracker.pipeline.table_follow`), each with a review note on ``shot``."""
        match.state, notes = follow_the_reds(match.state, shot.positions_before)
        match.state, turn = turn_passed(match.state, shot.positions_before)
        notes += turn
        spots = match.rules.spots() if hasattr(match.rules, "spots") else {}
        before, more = unseen_colours(match.state, shot.positions_before, spots)
        if not notes and not more:
            return shot
        return replace(shot, positions_before=before, needs_review=(*shot.needs_review, *notes, *more))

    def _call(self, shot: Shot) -> list[dict[str, Any]]:
        try:
            return self.match.feed(shot)
        except RuleError as exc:
            return [{"shot": shot.shot, "error": str(exc), "needs_review": True}]

    def amend(self, said: Judgement) -> tuple[bool, str, list[dict[str, Any]]]:
        """Call the last stroke again with the referee's judgement (a miss called or
        cancelled, a foul the camera could not see, a nomination): allowed until an input or
        a stroke follows it. Returns (accepted, message, the new calls, each marked
        ``amended`` with its ``correction``: :mod:`tracker.corrections`). Run on the
        processing thread (:meth:`judge` with ``amend`` from another)."""
        refused = self._why_not_corrected()
        if refused:
            return False, refused, []
        before = self.result.shots[-1]
        self._corrected.append(before)
        return self._call_again(replace(before, **said), before, taken_back=False)

    def take_back(self) -> tuple[bool, str, list[dict[str, Any]]]:
        """Take back the last correction of the last stroke: the call before it is current
        again (called again from the earlier record). Same limits as :meth:`amend`."""
        refused = self._why_not_corrected()
        if refused:
            return False, refused, []
        if not self._corrected:
            return False, "the last stroke's call was not corrected: nothing to take back", []
        before = self.result.shots[-1]
        return self._call_again(self._corrected.pop(), before, taken_back=True)

    def _why_not_corrected(self) -> str:
        if self._before_last is None or not self.result.shots:
            return "no stroke to correct yet"
        if self._before_last[1]:
            return "the last stroke's call can no longer be corrected: an input was made after it"
        return ""

    def _call_again(self, shot: Shot, before: Shot, taken_back: bool, change: str | None = None
                    ) -> tuple[bool, str, list[dict[str, Any]]]:
        """Call the last stroke again as ``shot`` from the referee before it; the new calls
        replace the old ones in :attr:`result` and reach the listeners (``on_amend``).
        ``change``: what changed, in words (default: read from the two records)."""
        old = record_to_dict(before)
        change = change or describe_change(old, record_to_dict(shot))
        if taken_back:
            change = "correction taken back: " + change
        number = 1 + max((int(d["correction"]["number"]) for d in self.result.decisions
                          if (d.get("correction") or {}).get("shot") == shot.shot), default=0)
        mark = correction_mark(shot.shot, number, change, taken_back)
        self.match = copy.deepcopy(self._before_last[0])
        calls = [{**c, "amended": True, "correction": mark} for c in self._call(shot)]
        self.result.shots[-1] = shot
        self.result.decisions = current_decisions([*self.result.decisions, *calls])
        for li in self.listeners:
            li.on_amend(self, shot, calls)
        if self.on_call:
            for c in calls:
                self.on_call("CORRECTED: " + explain(c))
        return True, f"stroke {shot.shot} called again ({change})", calls

    def _apply_judgement(self, when: str, said: Judgement,
                         done: Callable[[dict[str, Any]], None] | None) -> list[dict[str, Any]]:
        bad = [k for k in said if k not in JUDGEMENT_FIELDS]
        if bad:
            ok, msg, calls = False, f"not a judgement: {', '.join(bad)}", []
        elif when == "amend":
            last = self.result.shots[-1].operator if self.result.shots else None
            ok, msg, calls = self.amend(merge_operator(said, last))
        elif when == "undo":
            ok, msg, calls = self.take_back()
        else:
            self.said_next.update(merge_operator(said, self.said_next.get("operator")))
            ok, msg, calls = True, "noted for the coming stroke", []
        if done is not None:
            done({"accepted": ok, "message": msg, "calls": calls})
        return calls

    def _apply_input(self, inp: OperatorInput) -> list[dict[str, Any]]:
        if self.match.state is None:  # a table waiting for its first rack: nothing to apply
            out = {"input": str(inp.kind), "accepted": False, "notes": [],
                   "message": "no frame has started yet: the table waits for the balls to "
                              "be racked"}
            if self.on_call:
                self.on_call(explain(out))
            return [out]
        if inp.kind == InputKind.OPTION and inp.choice == "replace":
            self.strokes.referee_replacing()  # his hands will move balls
        return self._feed(inp)

    def _feed(self, rec: Record, notes: list[str] | None = None) -> list[dict[str, Any]]:
        if self._before_last is not None:
            self._before_last[1].append(rec)
        try:
            calls = self.match.feed(rec)
        except RuleError as exc:
            if isinstance(rec, FrameStart):
                raise
            calls = [{"input": getattr(rec, "kind", "?"), "accepted": False, "message": str(exc),
                      "notes": []}]
        if notes and calls:
            calls[0]["notes"] = [*calls[0].get("notes", []), *notes]
        self._emit(rec, calls)
        return calls

    def _emit(self, rec: Record, calls: list[dict[str, Any]]) -> None:
        self.result.decisions += calls
        for li in self.listeners:
            li.on_record(self, rec, calls)
        said = [explain(c) for c in calls]
        early, self._early = (self._early, None) if isinstance(rec, Shot) else (None, self._early)
        if early is not None and early.shot == rec.shot:
            if said != early.said:
                self._correct(early, said)
            return  # said already, early (and corrected if it had to be)
        if self.on_call:
            for line in said:
                self.on_call(line)


#: The fields a correction entry of an inputs file may hold.
CORRECTION_KEYS = frozenset({"correct", "action", "code", "ball", "miss", "when", "note"})


def correction_entry(obj: dict[str, Any], line: int, corrected: set[int]) -> Correction:
    """An inputs file's correction entry (``{"correct": N, "action": ..., ...}``: the console's
    correction of stroke N, in the console's words, see :func:`correction_fields`).

    Args:
        obj: the line's object; line: its number (for the message).
        corrected: the strokes the file corrected before this line (an ``undo`` needs one).

    Raises:
        RecordError: a wrong entry, in one line naming the line and what to write.
    """
    from tracker.records.parse import RecordError

    shot, action = obj.get("correct"), obj.get("action")
    if not isinstance(shot, int) or isinstance(shot, bool) or shot < 1:
        raise RecordError(f"a correction names the stroke it corrects: \"correct\" must be a "
                          f"stroke number (1, 2, ...), not {shot!r}", line)
    unknown = sorted(set(obj) - CORRECTION_KEYS)
    if unknown:
        raise RecordError(f"a correction holds no {', '.join(unknown)}; it holds correct, "
                          "action and the action's fields (code, ball, miss)", line)
    if obj.get("when", "last") != "last":
        raise RecordError(f"a correction changes the call of the stroke it names ({shot}): leave "
                          "out when (or write \"last\", as the console does)", line)
    if not isinstance(action, str) or not action:
        raise RecordError(f"a correction of stroke {shot} says what to change: give action "
                          "(miss, foul, nominate, free_ball or undo)", line)
    if action == "undo":
        if shot not in corrected:
            raise RecordError(f"undo: stroke {shot} was not corrected before this line: "
                              "nothing to take back", line)
        return Correction(shot, None)
    try:
        said = Judgement(correction_fields(action, obj))
    except CorrectionError as exc:
        raise RecordError(f"correction of stroke {shot}: {exc}", line) from None
    corrected.add(shot)
    return Correction(shot, said)


def _read_inputs(path: str | Path) -> tuple[list[tuple[int, Record]], list[Correction]]:
    """An inputs file's records (line number, record) and its correction entries."""
    from tracker.records.parse import read_log

    corrections: list[Correction] = []
    corrected: set[int] = set()

    def take(n: int, obj: dict[str, Any]) -> bool:
        if "correct" not in obj:
            return False
        corrections.append(correction_entry(obj, n, corrected))
        return True

    return list(read_log(path, other=take)), corrections


def inputs_from_log(path: str | Path) -> list[tuple[int, OperatorInput | FrameStart | Correction]]:
    """Operator inputs of a match log (JSONL), each tied to the stroke that follows it; a
    frame_start line (players, breaker, the layout when the video starts mid-frame) too; and
    its correction entries (:func:`correction_entry`), each tied to the stroke it corrects.

    Raises:
        RecordError: a line that is neither a record nor a correction entry, or a wrong one.
    """
    records, corrections = _read_inputs(path)
    out: list[tuple[int, OperatorInput | FrameStart | Correction]] = []
    n_shots = 0
    for _, rec in records:
        if isinstance(rec, Shot):
            n_shots += 1
        elif isinstance(rec, (OperatorInput, FrameStart)):
            out.append((n_shots + 1, rec))
    return out + [(c.shot, c) for c in corrections]


def spoken_from_log(path: str | Path) -> dict[int, dict[str, Any]]:
    """What the referee heard or judged per stroke in a match log (nomination, free-ball
    nomination, operator judgements), by stroke number: merged into the camera's records."""
    out: dict[int, dict[str, Any]] = {}
    n_shots = 0
    for _, rec in _read_inputs(path)[0]:
        if isinstance(rec, Shot):
            n_shots += 1
            said = {k: v for k, v in (("nomination", rec.nomination), ("free_ball", rec.free_ball))
                    if v is not None}
            if rec.operator.miss is not None or rec.operator.fouls or rec.operator.not_a_stroke:
                said["operator"] = rec.operator
            if said:
                out[n_shots] = said
    return out
