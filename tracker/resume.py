"""Going on with a cut-off run (``process --resume``), and never overwriting one silently.

What resuming means for a video. The perception is stateful (the cloth and ball colours are
learned from the first frames, the tracker and the stroke detector carry motion from frame to
frame), so starting the video at the frame after the last stored stroke would give a run whose
later calls can differ from an uninterrupted run's. A resumed run therefore sees the video again
from its first frame, with the same options (``OUT/run.json``), and *meets again* the records
already called: each record it makes is compared with the next committed one and not written
or printed again (the match store is the truth; the JSONL files are rewritten from it). The
referee's judgements made on the console (a nomination, a miss called or cancelled, an amended
stroke) and console inputs are taken from the store at the same places. Once every committed
record has been met, the run goes on as any run: new calls are printed and written, and the
decisions equal an uninterrupted run's (tested by killing a run and resuming it). If the video
gives a record that differs from the committed one (the video, its options or the program
changed since), the resume stops and says so; ``--force`` then processes the video again.
The price: the frames before the cut are decoded and seen again (about real time for an
overhead 1080p video on two cores, docs/BENCHMARKS.md), without the referee's output.

A run folder is one whose files (:data:`RUN_FILES`) are there: ``process`` refuses to write
into it unless told ``--resume`` (go on) or ``--force`` (replace the JSONL files; the match
store keeps the old run beside the new one).
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tracker.outputs.jsonl import DECISIONS_NAME, LOG_NAME, SCOREBOARD_NAME
from tracker.outputs.store import CUT_OFF, STORE_NAME, MatchStore, StoreError
from tracker.pipeline import RefereeRun, RunListener, VideoError
from tracker.records.parse import RecordError, record_from_dict, record_to_dict
from tracker.records.shot import FrameStart, OperatorInput, Record, Shot
from tracker.rules.match import Match
from tracker.rules.snooker import RuleError
from tracker.session import ConsoleSetup, replay_setups
from tracker.session_setup import SetupError, setup_from_dict

log = logging.getLogger(__name__)

#: The options of a run, written when it starts (a resumed run takes them from there).
OPTIONS_NAME = "run.json"
#: A folder holding any of these holds a run.
RUN_FILES = (OPTIONS_NAME, LOG_NAME, DECISIONS_NAME, SCOREBOARD_NAME, STORE_NAME)
OPTIONS_VERSION = 1


class ResumeError(ValueError):
    """The folder's run cannot be resumed; the message says why and what to do."""


@dataclass
class RunOptions:
    """What decides a run's calls (``OUT/run.json``): a resumed run uses the same.

    Attributes:
        video: absolute path of the video.
        video_bytes: its size when the run started (a changed file is refused).
        calibration: absolute path of the profile, or None (found automatically).
        players: the two players.
        inputs: absolute path of the operator inputs' match log, or None.
        table_size: ``LENGTHxWIDTH`` or None; ball_diameter: mm or None.
        detector: ``colour``, ``learned`` or ``auto``.
        max_frames: the frame limit, or None.
        store: whether the run writes the match store.
        pid: the process that runs it (a resume waits for it to be gone).
        match: the match set-up (:meth:`tracker.session_setup.MatchSetup.to_dict`), or None.
        wait: the run waits for a rack before the first frame and after the last match.
    """

    video: str
    video_bytes: int
    calibration: str | None = None
    players: list[str] = field(default_factory=lambda: ["A", "B"])
    inputs: str | None = None
    table_size: str | None = None
    ball_diameter: float | None = None
    detector: str = "auto"
    max_frames: int | None = None
    store: bool = True
    pid: int = 0
    match: dict[str, Any] | None = None
    wait: bool = False

    def save(self, out: Path) -> None:
        """Write ``out/run.json`` (through a temporary file)."""
        tmp = out / (OPTIONS_NAME + ".tmp")
        tmp.write_text(json.dumps({"version": OPTIONS_VERSION, **asdict(self)}, indent=1),
                       encoding="utf-8")
        tmp.replace(out / OPTIONS_NAME)

    @classmethod
    def load(cls, out: Path) -> RunOptions:
        """The options in ``out/run.json`` (ResumeError if absent or unreadable)."""
        p = out / OPTIONS_NAME
        if not p.is_file():
            raise ResumeError(f"{out}: no {OPTIONS_NAME} (the options of the run): nothing to "
                              "resume there (a run made before --resume existed cannot be "
                              "resumed); process the video again with --force")
        try:
            d = json.loads(p.read_text(encoding="utf-8"))
            if d.pop("version", None) != OPTIONS_VERSION:
                raise ValueError("unknown version")
            return cls(**d)
        except (ValueError, TypeError, UnicodeDecodeError) as exc:
            raise ResumeError(f"{p}: unreadable ({exc}); process the video again with "
                              "--force") from None


def holds_run(out: Path) -> list[str]:
    """The run files in ``out`` (empty: no run there). Empty JSONL files (a run that could
    not start) do not count."""
    if not out.is_dir():
        return []
    return [n for n in RUN_FILES if (out / n).is_file()
            and (n not in (LOG_NAME, DECISIONS_NAME) or (out / n).stat().st_size > 0)]


class OptionsWriter(RunListener):
    """Writes ``run.json`` when a new run has started (its first record), so a folder where
    a run could not start does not hold one."""

    def __init__(self, out: Path, options: RunOptions):
        self.out, self.options, self.done = out, options, False

    def on_record(self, run: RefereeRun, record: Record, decisions: list[dict[str, Any]]) -> None:
        if not self.done:
            self.options.save(self.out)
            self.done = True


@dataclass
class StoredRecord:
    """A committed record: its JSON, and whether it was made on the referee console."""

    data: dict[str, Any]
    console: bool = False
    #: its place in the store's run (0: read from the JSONL log)
    seq: int = 0


@dataclass
class ResumePoint:
    """Where a cut-off run stopped: its committed records and decisions.

    Attributes:
        records: the committed match log, in order.
        decisions: the decision lines so far (as ``decisions.jsonl``).
        run_id: the store's run to go on with (None: no store).
        setups: the matches set or queued on the referee console, each where it came (read
            from the store's console requests; the resumed run sets them there again).
    """

    records: list[StoredRecord]
    decisions: list[dict[str, Any]]
    run_id: int | None = None
    setups: list[ConsoleSetup] = field(default_factory=list)

    @property
    def lines(self) -> tuple[list[str], list[str]]:
        """The JSONL files' lines so far (match log, decisions)."""
        return ([json.dumps(r.data) for r in self.records],
                [json.dumps(d) for d in self.decisions])

    @property
    def strokes(self) -> int:
        """Strokes already called."""
        return sum(r.data["type"] == "shot" for r in self.records)

    def run(self, *args: Any, **kwargs: Any) -> ResumedRun:
        """A :class:`ResumedRun` (called as :class:`RefereeRun` is)."""
        return ResumedRun(*args, done=self, **kwargs)


def resume_point(out: Path, options: RunOptions) -> ResumePoint:
    """The committed state of the run in ``out``: from the match store when the run wrote
    one (it is transactional), else from ``match.log.jsonl`` (a torn last line is dropped; the
    decisions are called again from the records, as the referee is deterministic).

    Raises:
        ResumeError: no run, a finished one, one still running, an unreadable log or store.
    """
    _check_gone(options)
    store_path = out / STORE_NAME
    if options.store and store_path.exists():
        return _from_store(store_path)
    board = out / SCOREBOARD_NAME
    if board.exists():
        try:
            end = json.loads(board.read_text(encoding="utf-8")).get("video_end")
        except ValueError:
            end = None
        if end not in CUT_OFF:
            raise ResumeError(f"{out}: the run there finished ({SCOREBOARD_NAME}): nothing to "
                              "resume; process again with --force, or give another --out")
    return _from_jsonl(out / LOG_NAME)


def _check_gone(options: RunOptions) -> None:
    if options.pid and options.pid != os.getpid() and _alive(options.pid):
        raise ResumeError(f"the run is still going (process {options.pid}); stop it first")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def _from_store(path: Path) -> ResumePoint:
    try:
        store = MatchStore(path, readonly=True)
    except StoreError as exc:
        raise ResumeError(str(exc)) from None
    try:
        run = store.latest_run()
        if run is None:
            return ResumePoint([], [], None)
        if run["status"] == "finished":
            raise ResumeError(f"{path.parent}: the run there finished: nothing to resume; "
                              "process again with --force, or give another --out")
        rid = int(run["id"])
        console = {r["seq"] for r in store.inputs(rid) if r["source"] == "console"}
        rows = store.db.execute("SELECT seq, record FROM records WHERE run_id=? AND "
                                "superseded=0 ORDER BY seq", (rid,)).fetchall()
        records = [StoredRecord(json.loads(r["record"]), r["seq"] in console, int(r["seq"]))
                   for r in rows]
        setups = _console_setups(store, rid, records)
        # every line as written (a correction's replaced calls too): decisions.jsonl is
        # append-only, and its readers take the current calls (tracker.corrections)
        decisions = [d["decision"] for d in store.decisions(rid, history=True)]
    finally:
        store.close()
    for r in records:  # committed records are valid, but say so plainly if not
        try:
            record_from_dict(r.data)
        except RecordError as exc:
            raise ResumeError(f"{path}: a committed record is unreadable ({exc}); process "
                              "again with --force") from None
    return ResumePoint(records, decisions, rid, setups)


def _console_setups(store: MatchStore, rid: int, records: list[StoredRecord]) -> list[ConsoleSetup]:
    """The matches set or queued on the console that the run took (applied ``match``
    requests), in order, each placed after the records committed before it."""
    rows = store.db.execute("SELECT result FROM console WHERE run_id=? AND action='match' AND "
                            "status='applied' ORDER BY id", (rid,)).fetchall()
    out = []
    for r in rows:
        res = json.loads(r["result"] or "{}")
        if "setup" not in res:
            continue  # taken by a version that did not keep it
        try:
            setup = setup_from_dict(res["setup"], "a match set on the console")
        except SetupError as exc:
            raise ResumeError(f"{store.path}: {exc}; process again with --force") from None
        after = sum(1 for rec in records if rec.seq <= int(res.get("after_seq", 0)))
        out.append(ConsoleSetup(after, setup, bool(res.get("queue"))))
    return out


def _from_jsonl(path: Path) -> ResumePoint:
    if not path.exists():
        return ResumePoint([], [])
    records: list[StoredRecord] = []
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    for n, line in enumerate(lines, start=1):
        try:
            data = json.loads(line)
            record_from_dict(data, n)
        except (ValueError, RecordError) as exc:
            if n == len(lines):
                log.warning("%s: the last line was cut off by the crash: dropped", path)
                break
            raise ResumeError(f"{path}: line {n} is unreadable ({exc}); process again with "
                              "--force") from None
        records.append(StoredRecord(data))
    match, decisions = Match(), []
    try:
        for r in records:
            rec = record_from_dict(r.data)
            if isinstance(rec, FrameStart) and match.players is not None and match.match_over:
                match = Match()  # a table's day: the next match's first frame
            decisions += match.feed(rec)
    except RuleError as exc:
        raise ResumeError(f"{path}: the log does not replay ({exc}); process again with "
                          "--force") from None
    return ResumePoint(records, _with_notes_written(decisions, path.parent / DECISIONS_NAME))


def _with_notes_written(decisions: list[dict[str, Any]], written: Path) -> list[dict[str, Any]]:
    """``decisions`` (called again from the log) with the notes the first run wrote on them
    (the run adds notes of its own, e.g. that the video started mid-frame, which the rules
    alone do not make): a line is taken as written only where it is the same call apart
    from its notes."""
    if not written.exists():
        return decisions
    out = list(decisions)
    lines = written.read_text(encoding="utf-8", errors="replace").splitlines()
    for i, line in enumerate(lines[:len(out)]):
        try:
            old = json.loads(line)
        except ValueError:
            break  # the line the crash cut off, and any after it
        if not isinstance(old, dict):
            break
        same = ({k: v for k, v in old.items() if k != "notes"}
                == {k: v for k, v in out[i].items() if k != "notes"})
        if same:
            out[i] = old
    return out


class ResumeMismatch(VideoError):
    """The video no longer gives the records already called."""


class ResumedRun(RefereeRun):
    """A :class:`RefereeRun` that goes on with a cut-off one (see the module docstring).

    While it meets the committed records again, what it makes is checked
    against them, and the listeners marked ``resume_holds_back`` (the JSONL files and the store,
    which hold those records already, and the console bridge, whose requests would land in the
    middle of the replay) hear nothing (no record, frame or end) and ``on_call`` is not called;
    the other listeners (an overlay, review pictures) get everything.
    """

    def __init__(self, *args: Any, done: ResumePoint, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._pending = list(done.records)
        self._met = 0
        self._setups = list(done.setups)
        self._all_listeners = self.listeners
        self._all_on_call = self.on_call
        if self._pending:
            self.listeners = [li for li in self.listeners
                              if not getattr(li, "resume_holds_back", False)]
            self.on_call = None
        n = 0
        #: the strokes committed: their records hold the inputs file's corrections already
        self._committed_shots = max((int(r.data["shot"]) for r in done.records
                                     if r.data["type"] == "shot"), default=0)
        for r in done.records:  # what was said about each stroke, as committed
            if r.data["type"] == "shot":
                n += 1
                shot = record_from_dict(r.data)
                assert isinstance(shot, Shot)
                self.spoken[n] = {"nomination": shot.nomination, "free_ball": shot.free_ball,
                                  "operator": shot.operator}

    def begin(self, *args: Any, **kwargs: Any) -> Any:
        """As :meth:`RefereeRun.begin`, the console's set-ups made before any record set first."""
        self._set_up_due()
        return super().begin(*args, **kwargs)

    def _set_up_due(self) -> None:
        """The matches set or queued on the console once as many records as now were made."""
        self.session.setup = replay_setups(self._setups, self._met, self.session.setup,
                                           self.match)

    def _corrections_due(self, n: int) -> list[dict[str, Any]]:
        """A committed stroke is met again as corrected (its record holds the correction):
        the inputs file's corrections are applied only to the strokes after them."""
        return [] if n <= self._committed_shots else super()._corrections_due(n)

    def _emit(self, rec: Record, calls: list[dict[str, Any]]) -> None:
        if not self._pending:
            super()._emit(rec, calls)
            return
        expected = self._pending.pop(0).data
        made = json.loads(json.dumps(record_to_dict(rec)))
        if made != expected:
            raise ResumeMismatch(_mismatch(made, expected))
        self._met += 1
        self._set_up_due()
        super()._emit(rec, calls)  # to the listeners that do not keep records
        if self._pending:
            self._inject_console()
        else:
            self.listeners, self.on_call = self._all_listeners, self._all_on_call
            log.info("resumed: the %d records already called were met again; going on",
                     self._met)

    def _inject_console(self) -> None:
        """Inputs made on the console, applied where they were committed."""
        while self._pending and self._pending[0].console:
            inp = record_from_dict(self._pending[0].data)
            assert isinstance(inp, OperatorInput)
            self._apply_input(inp)

    def finish(self, end):  # noqa: ANN001 - as RefereeRun.finish
        result = super().finish(end)  # while catching up, only the other listeners hear it
        if self._pending and (end is None or end.reason not in CUT_OFF):
            n = sum(r.data["type"] == "shot" for r in self._pending)
            raise ResumeMismatch(f"cannot resume: the video ended before {len(self._pending)} "
                                 f"records already called ({n} strokes) were met again: the "
                                 "video, its options or this program changed since the first "
                                 "run; process it again with --force")
        return result


def _mismatch(made: dict[str, Any], expected: dict[str, Any]) -> str:
    what = (f"stroke {expected.get('shot')}" if expected["type"] == "shot"
            else f"the {expected['type'].replace('_', ' ')}")
    keys = sorted(k for k in set(made) | set(expected) if made.get(k) != expected.get(k))
    return (f"cannot resume: the video now gives {what} otherwise than the run already called "
            f"it (differs in: {', '.join(keys) or 'type'}): the video, its options or this "
            "program changed since the first run; process it again with --force")
