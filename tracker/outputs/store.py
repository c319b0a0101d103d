"""The match store: a run's records and calls in SQLite, one transaction per record.

``process`` writes ``match.sqlite`` into its output folder (:class:`StoreWriter`, a
:class:`tracker.listeners.RunListener`); the live server, the reports and ``export`` read it
(:class:`MatchStore`). The JSONL files stay the interchange format; the store is what pages and
programs query while a match goes on, and what a crashed run is resumed from.

Durability: the database is in WAL mode and every record of the match log (frame start,
operator input, stroke) is written with the referee's decisions about it in ONE transaction,
committed before the next frame is processed. A crash (even ``kill -9``) loses at most the
stroke in progress; every committed record stays readable (tested).

The tables (one row per run, per match of a run, per snooker frame of a match, per record,
stroke, event, input, call, replaced call and console request) are described in
:mod:`tracker.outputs.schema`, with their migrations.

Read API (what the live server, reports and ``--resume`` use):
:meth:`MatchStore.runs`, :meth:`MatchStore.latest_run`, :meth:`MatchStore.log` (the match log
of a run as dicts, enough to rebuild the referee's state: :func:`rebuild_match`),
:meth:`MatchStore.decisions` (the current calls, optionally only those after a ``seq``: what
a live page polls; ``history=True``: every line, the replaced ones marked),
:meth:`MatchStore.matches` / :meth:`MatchStore.current_match` (a run's matches: a table's
day holds several), :meth:`MatchStore.frames`, :meth:`MatchStore.shots` (one current row per
stroke), :meth:`MatchStore.shot_history` (the
calls corrections replaced), :meth:`MatchStore.frame_span`, :meth:`MatchStore.events`,
:meth:`MatchStore.inputs`,
:meth:`MatchStore.console_pending` / :meth:`MatchStore.console_request` /
:meth:`MatchStore.console_done`. Export: :func:`export_json`, :func:`export_csv`.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tracker.listeners import RunListener
from tracker.outputs.schema import SCHEMA, SCHEMA_VERSION, migrate, old_store_views
from tracker.records.parse import record_from_dict, record_to_dict
from tracker.records.shot import FrameStart, OperatorInput, Record, Shot
from tracker.rules.explain import explain

if TYPE_CHECKING:
    from tracker.listeners import FrameView
    from tracker.pipeline import RefereeRun
    from tracker.rules.match import Match

#: The store's file name in a run's output folder.
STORE_NAME = "match.sqlite"
#: A ``running`` run whose heartbeat is older than this was cut off (s).
STALE_AFTER_S = 30.0
#: How often the run's progress (video frames, time) is written, s of video.
PROGRESS_EVERY_S = 0.5
#: How long a writer waits for a reader's lock before failing, s.
BUSY_TIMEOUT_S = 10.0
#: How a run that did not reach its end ends (its ``status``; ``process --resume`` goes on):
#: ``interrupted`` (Ctrl-C), ``failed`` (an error stopped it).
CUT_OFF = ("interrupted", "failed")



class StoreError(RuntimeError):
    """The store cannot be opened or is not a match store; the message says what to do."""


def open_for_reading(path: Path) -> MatchStore | None:
    """The store at ``path`` opened read-only, or None while it is not there or not yet a
    store (a page waiting for its run)."""
    try:
        return MatchStore(path, readonly=True) if path.exists() else None
    except StoreError:
        return None


def _now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def decision_kind(d: dict[str, Any]) -> str:
    """What kind of referee output line ``d`` is."""
    for key in ("frame_start", "frame_end", "input", "error"):
        if key in d:
            return key
    return "shot" if "foul" in d else "other"


def _say(d: dict[str, Any]) -> str:
    try:
        return explain(d)
    except (KeyError, TypeError, StopIteration):
        return d.get("message") or d.get("error") or ""


class MatchStore:
    """A match store file (see the module docstring).

    Args:
        path: the SQLite file.
        readonly: open for reading only (pages, reports); the file must exist.
    """

    def __init__(self, path: str | Path, readonly: bool = False):
        self.path = Path(path)
        self.readonly = readonly
        if readonly and not self.path.is_file():
            raise StoreError(f"{self.path}: no match store there; give the match.sqlite a run "
                             "wrote (snooker-tracker process ... --out DIR writes DIR/match.sqlite)")
        if not readonly:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        uri = f"file:{self.path}?mode=ro" if readonly else str(self.path)
        try:
            self.db = sqlite3.connect(uri, uri=readonly, timeout=BUSY_TIMEOUT_S,
                                      check_same_thread=False, isolation_level=None)
            self.db.row_factory = sqlite3.Row
            if not readonly:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=FULL")
                self.db.executescript(SCHEMA)
                migrate(self.db)
            else:
                old_store_views(self.db)
            version = self.db.execute(
                "SELECT value FROM meta WHERE key='schema_version'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a match store ({exc}); give the match.sqlite "
                             "a run wrote") from None
        if version is None or int(version[0]) > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: match store version {version and version[0]} is "
                             f"newer than this program's ({SCHEMA_VERSION}); update snooker-tracker")

    def close(self) -> None:
        """Close the file."""
        self.db.close()

    # --- writing --------------------------------------------------------------------------
    def new_run(self, video: str, calibration: dict[str, Any] | None,
                players: tuple[str, str] | None = None, table: str | None = None) -> int:
        """Start a run (on the named ``table``: see :mod:`tracker.outputs.tables`); returns
        its id."""
        with self._tx():
            cur = self.db.execute(
                "INSERT INTO runs(video, started, heartbeat, status, calibration, players, "
                "table_name) VALUES(?,?,?,?,?,?,?)",
                (video, _now_iso(), time.time(), "running",
                 json.dumps(calibration) if calibration else None,
                 json.dumps(list(players)) if players else None, table))
            return int(cur.lastrowid)

    def write_record(self, run_id: int, record: Record, decisions: list[dict[str, Any]],
                     source: str = "log", amends: bool = False) -> int:
        """One record of the match log and the referee's outputs about it, in one
        transaction; returns the record's ``seq``. With ``amends`` the record is the last
        stroke called again after a correction: the stroke record it replaces is marked
        ``superseded`` (kept, but no longer part of the log)."""
        rec = record_to_dict(record)
        now = time.time()
        with self._tx():
            seq = 1 + self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM records WHERE run_id=?",
                                      (run_id,)).fetchone()[0]
            frame = self._current_frame(run_id, record)
            match = self._match_of(run_id, seq, record, decisions)
            if amends:
                self._supersede_last_shot(run_id, seq, decisions)
            self.db.execute("INSERT INTO records(run_id, seq, kind, frame, record, created, "
                            "superseded, match) VALUES(?,?,?,?,?,?,0,?)",
                            (run_id, seq, rec["type"], frame, json.dumps(rec), now, match))
            if isinstance(record, FrameStart):
                self._write_frame_start(run_id, match, seq, record, decisions)
            elif isinstance(record, Shot):
                self._write_shot(run_id, (match, seq, frame), record, decisions)
            elif isinstance(record, OperatorInput):
                self.db.execute("INSERT INTO inputs VALUES(?,?,?,?,?,?,?)",
                                (run_id, seq, str(record.kind), record.choice, record.player,
                                 record.note, source))
            for i, d in enumerate(decisions):
                self.db.execute("INSERT INTO decisions VALUES(?,?,?,?,?,?,?,?)",
                                (run_id, seq, i, decision_kind(d), d.get("shot"), json.dumps(d),
                                 _say(d), now))
                if "frame_end" in d:
                    self._write_frame_end(run_id, match, seq, d)
            self.db.execute("UPDATE runs SET heartbeat=? WHERE id=?", (now, run_id))
        return seq

    def _supersede_last_shot(self, run_id: int, seq: int, decisions: list[dict[str, Any]]) -> None:
        """The current stroke record (the last) is replaced by record ``seq``: marked
        superseded, and its ``shots`` row moved to ``shot_history`` with what changed."""
        old = self.db.execute("SELECT MAX(seq) FROM records WHERE run_id=? AND kind='shot' AND "
                              "superseded=0", (run_id,)).fetchone()[0]
        if old is None:
            return
        self.db.execute("UPDATE records SET superseded=? WHERE run_id=? AND seq=?",
                        (seq, run_id, old))
        corr = next((d["correction"] for d in decisions if isinstance(d.get("correction"), dict)),
                    {})
        dec = self.db.execute("SELECT decision, text FROM decisions WHERE run_id=? AND seq=? AND "
                              "kind IN ('shot', 'error') ORDER BY idx", (run_id, old)).fetchone()
        self.db.execute(
            "INSERT OR REPLACE INTO shot_history SELECT run_id, seq, shot, frame, striker, foul, "
            "penalty, points, ?, ?, ?, ?, ? FROM shots WHERE run_id=? AND seq=?",
            (dec["decision"] if dec else None, dec["text"] if dec else None, seq,
             corr.get("at") or _now_iso(), corr.get("change"), run_id, old))
        self.db.execute("DELETE FROM shots WHERE run_id=? AND seq=?", (run_id, old))

    def reopen_run(self, run_id: int) -> None:
        """A cut-off run goes on (``process --resume``): ``running`` again, not ended."""
        with self._tx():
            self.db.execute("UPDATE runs SET status='running', ended=NULL, summary=NULL, "
                            "heartbeat=? WHERE id=?", (time.time(), run_id))

    def progress(self, run_id: int, video_frames: int, video_t: float) -> None:
        """How far the video has been processed (and that the run is alive)."""
        with self._tx():
            self.db.execute("UPDATE runs SET video_frames=?, video_t=?, heartbeat=? WHERE id=?",
                            (video_frames, video_t, time.time(), run_id))

    def end_run(self, run_id: int, summary: dict[str, Any], status: str = "finished") -> None:
        """Close a run with its final scoreboard line."""
        with self._tx():
            self.db.execute("UPDATE runs SET ended=?, status=?, summary=?, heartbeat=? WHERE id=?",
                            (_now_iso(), status, json.dumps(summary), time.time(), run_id))

    def _tx(self):
        if self.readonly:
            raise StoreError(f"{self.path}: opened read-only")
        return _Transaction(self.db)

    def _current_frame(self, run_id: int, record: Record) -> int | None:
        if isinstance(record, FrameStart):
            return record.frame
        # the frame started last (a later match's frame 1 comes after frame 3 of the one before)
        row = self.db.execute("SELECT number FROM frames WHERE run_id=? ORDER BY start_seq DESC "
                              "LIMIT 1", (run_id,)).fetchone()
        return row[0] if row else None

    def _match_of(self, run_id: int, seq: int, record: Record,
                  decisions: list[dict[str, Any]]) -> int | None:
        """The number of the match ``record`` belongs to (None before the run's first frame).
        A frame start begins match n+1 when match n is over (or the run has none yet): its
        ``matches`` row is made here."""
        last = self.db.execute("SELECT match, over FROM matches WHERE run_id=? ORDER BY match "
                               "DESC LIMIT 1", (run_id,)).fetchone()
        if not isinstance(record, FrameStart) or (last is not None and not last["over"]):
            return last["match"] if last is not None else None
        match = (last["match"] if last is not None else 0) + 1
        started = next((d for d in decisions if "frame_start" in d), {})
        players = started.get("players") or list(record.players)
        self.db.execute("INSERT INTO matches(run_id, match, players, best_of, frames_won, "
                        "start_seq) VALUES(?,?,?,?,?,?)",
                        (run_id, match, json.dumps(players), started.get("best_of",
                                                                         record.best_of),
                         json.dumps(started.get("frames_won") or dict.fromkeys(players, 0)),
                         seq))
        return match

    def _write_frame_start(self, run_id: int, match: int | None, seq: int, rec: FrameStart,
                           decisions: list[dict[str, Any]]) -> None:
        started = next((d for d in decisions if "frame_start" in d), {})
        self.db.execute("INSERT OR REPLACE INTO frames(run_id, match, number, breaker, ruleset, "
                        "start_seq) VALUES(?,?,?,?,?,?)",
                        (run_id, match, rec.frame, started.get("breaker", rec.breaker),
                         rec.ruleset, seq))

    def _write_shot(self, run_id: int, where: tuple[int | None, int, int | None], shot: Shot,
                    decisions: list[dict[str, Any]]) -> None:
        """The stroke's ``shots`` row and its events; ``where``: (match, seq, frame)."""
        match, seq, frame = where
        dec = next((d for d in decisions if "foul" in d), {})
        self.db.execute("INSERT INTO shots(run_id, seq, shot, frame, striker, t_start, t_end, "
                        "foul, penalty, points, needs_review, match) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
                        (run_id, seq, shot.shot, frame, dec.get("striker", shot.striker),
                         shot.t_start, shot.t_end, int(bool(dec.get("foul"))), dec.get("penalty"),
                         sum(dec.get("points", {}).values()) if dec else None,
                         json.dumps(list(dec.get("needs_review", shot.needs_review))), match))
        for i, e in enumerate(shot.events):
            self.db.execute("INSERT INTO events VALUES(?,?,?,?,?,?,?,?,?)",
                            (run_id, seq, i, str(e.type), e.t, json.dumps(list(e.balls)),
                             e.pocket, e.cushion, e.confidence))

    def _write_frame_end(self, run_id: int, match: int | None, seq: int,
                         d: dict[str, Any]) -> None:
        self.db.execute("UPDATE frames SET end_seq=?, winner=?, score=?, reason=? "
                        "WHERE run_id=? AND match=? AND number=?",
                        (seq, d["winner"], json.dumps(d["score"]), d.get("reason"), run_id,
                         match, d["frame_end"]))
        self.db.execute("UPDATE matches SET frames_won=?, winner=?, over=? WHERE run_id=? AND "
                        "match=?", (json.dumps(d.get("frames_won", {})), d.get("match_winner"),
                                    int(bool(d.get("match_over"))), run_id, match))

    # --- the console queue ------------------------------------------------------------------
    def console_request(self, run_id: int | None, action: str, payload: dict[str, Any]) -> int:
        """Queue a console request for the run; returns its id."""
        with self._tx():
            cur = self.db.execute("INSERT INTO console(run_id, created, action, payload) "
                                  "VALUES(?,?,?,?)", (run_id, time.time(), action,
                                                      json.dumps(payload)))
            return int(cur.lastrowid)

    def console_pending(self, run_id: int) -> list[dict[str, Any]]:
        """Console requests not yet taken by the run (oldest first)."""
        rows = self.db.execute("SELECT id, action, payload, created FROM console WHERE "
                               "status='pending' AND (run_id=? OR run_id IS NULL) ORDER BY id",
                               (run_id,)).fetchall()
        return [{"id": r["id"], "action": r["action"], "payload": json.loads(r["payload"]),
                 "created": r["created"]} for r in rows]

    def console_request_taken(self, request_id: int) -> None:
        """The run has taken the request (``taken``); its outcome follows."""
        with self._tx():
            self.db.execute("UPDATE console SET status='taken' WHERE id=? AND status='pending'",
                            (request_id,))

    def console_done(self, request_id: int, accepted: bool, result: dict[str, Any]) -> None:
        """Mark a console request taken (``applied``) or not (``refused``), with the outcome."""
        with self._tx():
            self.db.execute("UPDATE console SET status=?, result=? WHERE id=?",
                            ("applied" if accepted else "refused", json.dumps(result), request_id))

    def console_requests(self, run_id: int, limit: int = 50) -> list[dict[str, Any]]:
        """The latest console requests of a run with their outcome, newest first."""
        rows = self.db.execute("SELECT * FROM console WHERE run_id=? OR run_id IS NULL "
                               "ORDER BY id DESC LIMIT ?", (run_id, limit)).fetchall()
        return [{**dict(r), "payload": json.loads(r["payload"]),
                 "result": json.loads(r["result"]) if r["result"] else None} for r in rows]

    # --- reading --------------------------------------------------------------------------
    def runs(self) -> list[dict[str, Any]]:
        """Every run, oldest first, with ``stale`` True for a ``running`` run cut off."""
        rows = self.db.execute("SELECT * FROM runs ORDER BY id").fetchall()
        return [self._run_dict(r) for r in rows]

    def run(self, run_id: int) -> dict[str, Any]:
        """One run (see :meth:`runs`); StoreError if there is none with that id."""
        r = self.db.execute("SELECT * FROM runs WHERE id=?", (run_id,)).fetchone()
        if r is None:
            raise StoreError(f"{self.path}: no run {run_id}")
        return self._run_dict(r)

    def latest_run(self) -> dict[str, Any] | None:
        """The newest run, or None in an empty store."""
        r = self.db.execute("SELECT * FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        return self._run_dict(r) if r else None

    @staticmethod
    def _run_dict(r: sqlite3.Row) -> dict[str, Any]:
        d = dict(r)
        for k in ("calibration", "players", "summary"):
            d[k] = json.loads(d[k]) if d[k] else None
        d["stale"] = d["status"] == "running" and time.time() - (d["heartbeat"] or 0) > STALE_AFTER_S
        return d

    def log(self, run_id: int) -> list[dict[str, Any]]:
        """The run's match log: every committed record's JSON, in order (as the lines of
        ``match.log.jsonl``)."""
        rows = self.db.execute("SELECT record FROM records WHERE run_id=? AND superseded=0 "
                               "ORDER BY seq", (run_id,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def records(self, run_id: int) -> list[Record]:
        """The run's match log as record objects (what :class:`tracker.rules.match.Match`
        takes)."""
        return [record_from_dict(d) for d in self.log(run_id)]

    def decisions(self, run_id: int, after_seq: int = 0,
                  history: bool = False) -> list[dict[str, Any]]:
        """Referee outputs of the run in order, each ``{"seq", "idx", "kind", "text",
        "emitted", "decision", "superseded"}``; only those of records after ``after_seq`` if
        given. Only the current calls: the calls a correction replaced are left out (the
        new ones are marked ``"amended": true`` with their ``correction``), unless
        ``history`` (every line as written, ``superseded`` true on the replaced ones)."""
        rows = self.db.execute(
            "SELECT d.seq, d.idx, d.kind, d.text, d.emitted, d.decision, r.superseded FROM "
            "decisions d LEFT JOIN records r ON r.run_id=d.run_id AND r.seq=d.seq WHERE "
            "d.run_id=? AND d.seq>? AND (? OR COALESCE(r.superseded, 0)=0) ORDER BY d.seq, d.idx",
            (run_id, after_seq, int(history))).fetchall()
        return [{**dict(r), "decision": json.loads(r["decision"]),
                 "superseded": bool(r["superseded"])} for r in rows]

    def shot_history(self, run_id: int, shot: int | None = None) -> list[dict[str, Any]]:
        """The calls corrections replaced (table ``shot_history``), oldest first; only stroke
        ``shot``'s (in the newest frame that has one) if given. Each with ``decision`` (dict
        or None), ``text``, ``superseded_at``, ``superseded_by`` and ``change``."""
        try:
            rows = self.db.execute("SELECT * FROM shot_history WHERE run_id=? ORDER BY seq",
                                   (run_id,)).fetchall()
        except sqlite3.OperationalError:  # a store written before the table existed
            return []
        out = [{**dict(r), "decision": json.loads(r["decision"]) if r["decision"] else None}
               for r in rows]
        if shot is None:
            return out
        mine = [h for h in out if h["shot"] == shot]
        frame = max((h["frame"] or 0 for h in mine), default=0)
        return [h for h in mine if (h["frame"] or 0) == frame]

    def shots(self, run_id: int) -> list[dict[str, Any]]:
        """Strokes of the run (table ``shots``), with the stroke record and its call."""
        rows = self.db.execute(
            "SELECT s.*, r.record FROM shots s JOIN records r ON r.run_id=s.run_id AND r.seq=s.seq "
            "WHERE s.run_id=? AND r.superseded=0 ORDER BY s.seq", (run_id,)).fetchall()
        out = []
        for r in rows:
            d = dict(r)
            d["record"] = json.loads(d["record"])
            d["needs_review"] = json.loads(d["needs_review"] or "[]")
            dec = self.db.execute("SELECT decision, text FROM decisions WHERE run_id=? AND seq=? "
                                  "AND kind='shot'", (run_id, r["seq"])).fetchone()
            d["decision"] = json.loads(dec["decision"]) if dec else None
            d["text"] = dec["text"] if dec else None
            out.append(d)
        return out

    def frame_span(self, run_id: int, frame: int,
                   match: int | None = None) -> tuple[float | None, float | None]:
        """When snooker frame ``frame`` (of match ``match``; default the run's current match)
        had its first current stroke start and its last end (s of video; None, None before
        its first stroke)."""
        if match is None:
            current = self.current_match(run_id)
            match = current["match"] if current else 1
        row = self.db.execute("SELECT MIN(t_start), MAX(t_end) FROM shots WHERE run_id=? AND "
                              "frame=? AND COALESCE(match, 1)=?", (run_id, frame, match)).fetchone()
        return row[0], row[1]

    def events(self, run_id: int) -> list[dict[str, Any]]:
        """Every stroke event of the run (table ``events``) with its stroke number."""
        rows = self.db.execute(
            "SELECT s.shot, s.frame, s.match, e.* FROM events e JOIN shots s ON s.run_id=e.run_id AND "
            "s.seq=e.seq JOIN records r ON r.run_id=e.run_id AND r.seq=e.seq "
            "WHERE e.run_id=? AND r.superseded=0 ORDER BY e.seq, e.idx", (run_id,)).fetchall()
        return [{**dict(r), "balls": json.loads(r["balls"])} for r in rows]

    def inputs(self, run_id: int) -> list[dict[str, Any]]:
        """Operator inputs of the run (table ``inputs``)."""
        rows = self.db.execute("SELECT * FROM inputs WHERE run_id=? ORDER BY seq", (run_id,))
        return [dict(r) for r in rows.fetchall()]

    def frames(self, run_id: int, match: int | None = None) -> list[dict[str, Any]]:
        """Snooker frames of the run (table ``frames``), match by match, each with its
        ``match`` number; only match ``match``'s if given."""
        rows = self.db.execute("SELECT * FROM frames WHERE run_id=? AND (? IS NULL OR match=?) "
                               "ORDER BY match, number", (run_id, match, match))
        return [{**dict(r), "score": json.loads(r["score"]) if r["score"] else None}
                for r in rows.fetchall()]

    def matches(self, run_id: int) -> list[dict[str, Any]]:
        """The run's matches in order (table ``matches``): ``match`` (1, 2, ...), ``players``
        (list), ``best_of``, ``frames_won`` (dict), ``winner``, ``over`` (bool)."""
        rows = self.db.execute("SELECT * FROM matches WHERE run_id=? ORDER BY match",
                               (run_id,)).fetchall()
        return [{**dict(r), "players": json.loads(r["players"]) if r["players"] else [],
                 "frames_won": json.loads(r["frames_won"]) if r["frames_won"] else {},
                 "over": bool(r["over"])} for r in rows]

    def current_match(self, run_id: int) -> dict[str, Any] | None:
        """The run's latest match (see :meth:`matches`), or None before its first frame."""
        ms = self.matches(run_id)
        return ms[-1] if ms else None

    def integrity(self) -> str:
        """SQLite's own integrity check: ``ok`` or what is wrong."""
        return "; ".join(r[0] for r in self.db.execute("PRAGMA integrity_check").fetchall())


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on an exception)."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type, exc, tb) -> None:
        self.db.execute("ROLLBACK" if exc_type else "COMMIT")


def rebuild_match(store: MatchStore, run_id: int) -> Match:
    """The referee's state after a run's committed records (to resume a cut-off run): its
    current match (a run of several matches starts a new referee's match at each)."""
    from tracker.rules.match import Match

    match = Match()
    for rec in store.records(run_id):
        if isinstance(rec, FrameStart) and match.players is not None and match.match_over:
            match = Match()
        match.feed(rec)
    return match


class StoreWriter(RunListener):
    """Writes a run into a match store as it goes (see the module docstring).

    Args:
        path: the store file (created if absent; a new run is added to an existing one).
        video: what the run processes (a path or a device name).
        resume_run: the id of a cut-off run to go on with (``process --resume``) instead of a
            new run.
        table: the table's name (default: the name of the folder the store is in).
    """

    #: a resumed run holds it back until the records already called are met again
    #: (tracker.resume): they are not written twice
    resume_holds_back = True

    def __init__(self, path: str | Path, video: str, resume_run: int | None = None,
                 table: str | None = None):
        self.path = Path(path)
        self.table = table or self.path.resolve().parent.name
        self.store: MatchStore | None = None  # opened with the run (no file for a failed start)
        self.video = video
        self.run_id: int | None = None
        self._resume_run = resume_run
        self._next_progress = 0.0
        #: ids of the records made on the console (their ``inputs.source`` is ``console``)
        self.console_records: set[int] = set()

    def start(self, run: RefereeRun) -> int:
        """The run's id in the store (the run row is made on the first call)."""
        if self.run_id is None:
            self.store = MatchStore(self.path)
            if self._resume_run is not None:
                self.store.reopen_run(self._resume_run)
                self.run_id = self._resume_run
            else:
                self.run_id = self.store.new_run(self.video, run.calibration.to_dict(),
                                                 run.players, self.table)
        return self.run_id

    def on_record(self, run: RefereeRun, record: Record, decisions: list[dict[str, Any]]) -> None:
        source = "console" if id(record) in self.console_records else "log"
        run_id = self.start(run)
        self.store.write_record(run_id, record, decisions, source)

    def on_amend(self, run: RefereeRun, record: Shot, decisions: list[dict[str, Any]]) -> None:
        run_id = self.start(run)
        self.store.write_record(run_id, record, decisions, "console", amends=True)

    def on_frame(self, run: RefereeRun, view: FrameView) -> None:
        run_id = self.start(run)
        if view.frame.t >= self._next_progress:
            self._next_progress = view.frame.t + PROGRESS_EVERY_S
            self.store.progress(run_id, view.frame.index + 1, view.frame.t)

    def on_end(self, run: RefereeRun, summary: dict[str, Any]) -> None:
        run_id = self.start(run)
        cut = summary.get("video_end") in CUT_OFF
        self.store.end_run(run_id, summary, summary["video_end"] if cut else "finished")
        self.store.close()


# --- export ------------------------------------------------------------------------------
def _pick_run(store: MatchStore, run_id: int | None) -> int:
    if run_id is not None:
        return int(store.run(run_id)["id"])
    latest = store.latest_run()
    if latest is None:
        raise StoreError(f"{store.path}: the store holds no run yet")
    return int(latest["id"])


def export_json(store: MatchStore, run_id: int | None = None) -> dict[str, Any]:
    """A run as one JSON document: the run, its matches, its match log, its current decisions,
    frames (each with its ``match``),
    inputs, and the calls corrections replaced (``corrections``, :meth:`MatchStore.shot_history`)."""
    rid = _pick_run(store, run_id)
    return {"run": store.run(rid), "matches": store.matches(rid), "frames": store.frames(rid),
            "log": store.log(rid),
            "decisions": [{**d["decision"], "_text": d["text"]} for d in store.decisions(rid)],
            "inputs": store.inputs(rid), "corrections": store.shot_history(rid)}


#: CSV columns of :func:`export_csv`, one row per stroke.
CSV_COLUMNS = ("match", "frame", "shot", "striker", "t_start", "t_end", "foul", "penalty", "points",
               "potted", "fouls", "score", "break", "next_striker", "ball_on", "free_ball",
               "miss", "needs_review", "call")


def export_csv(store: MatchStore, run_id: int | None = None) -> str:
    """A run's strokes as CSV text, one row per stroke (columns :data:`CSV_COLUMNS`)."""
    from tracker.words import potted_words

    rid = _pick_run(store, run_id)
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(CSV_COLUMNS)
    for s in store.shots(rid):
        d = s["decision"] or {}
        w.writerow([s["match"], s["frame"], s["shot"], s["striker"], s["t_start"], s["t_end"], s["foul"],
                    s["penalty"], s["points"], potted_words(d.get("potted", [])),
                    "; ".join(f["code"] for f in d.get("fouls", [])),
                    " ".join(f"{p}={v}" for p, v in d.get("score", {}).items()), d.get("break"),
                    d.get("next_striker"), d.get("ball_on"), d.get("free_ball"), d.get("miss"),
                    " | ".join(s["needs_review"]), s["text"]])
    return buf.getvalue()
