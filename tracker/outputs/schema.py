"""The match store's tables and their migrations (:mod:`tracker.outputs.store` uses them).

Version 2 numbers the matches of a run: a table's day is one run of several matches (``process
--then``, ``--again``, ``--wait``), so ``matches`` has one row per match (key ``(run_id,
match)``, ``match`` from 1 in the run's order, ``over`` 1 once the match is decided) and
``frames`` one row per snooker frame of each match (key ``(run_id, match, number)``);
``records`` and ``shots`` carry the ``match`` of their frame.

Tables (``run_id`` ties every row to its run; ``seq`` is the record's 1-based place in the
run's match log, shared by every table, so ``ORDER BY seq`` gives the log's order):

- ``runs``: one row per processing run: ``table_name`` (the table it refereed, see
  :mod:`tracker.outputs.tables`), ``video``, ``started``/``ended`` (ISO 8601 UTC),
  ``status`` (``running``, ``finished``, ``interrupted`` (Ctrl-C), ``failed`` (an error
  stopped it); a ``running`` row whose ``heartbeat`` is old was cut off), ``calibration`` (the profile's JSON), ``players``, ``video_frames``/``video_t`` (how far
  the video was processed), ``summary`` (the final scoreboard line).
- ``matches``: per match of a run (``match``: 1, 2, ... in the run's order; a table's day is
  one run of several), the ``players`` (JSON), ``best_of``, ``frames_won`` (JSON), the
  ``winner``, ``over`` (1 once decided: the next frame start begins match n+1) and
  ``start_seq`` (its first frame start).
- ``frames`` (snooker frames, not video frames): ``match``, ``number`` (within the match),
  ``breaker``, ``ruleset``, ``start_seq``, and once over ``end_seq``, ``winner``, ``score``
  (JSON), ``reason``.
- ``records``: the match log itself: ``kind`` (``frame_start``/``shot``/``input``),
  ``record`` (the JSON line exactly as in ``match.log.jsonl``), ``match``, ``frame``, ``superseded``
  (0: current; else the ``seq`` of the record that replaced it after a correction).
- ``shots``: per stroke: ``shot`` number, ``match``, ``frame``, ``striker``, ``t_start``, ``t_end``,
  ``foul``, ``penalty``, ``points`` (total scored), ``needs_review`` (JSON list of notes).
- ``events``: per stroke event: ``idx``, ``type``, ``t`` (s), ``balls`` (JSON), ``pocket``,
  ``cushion``, ``confidence``.
- ``inputs``: operator inputs: ``kind``, ``choice``, ``player``, ``note``, ``source``
  (``log``: given before the run; ``console``: made live).
- ``decisions``: every referee output line (``decision``: its JSON, as in
  ``decisions.jsonl``), ``idx`` within its record, ``kind`` (``frame_start``, ``shot``,
  ``input``, ``frame_end``, ``error``), ``shot``, ``text`` (the call in people's words) and
  ``emitted`` (wall-clock time, s since the epoch: for the live latency bench).
- ``shot_history``: the calls a correction replaced, one row per replaced call: the stroke's
  old ``shots`` row (``seq`` its record, ``striker``, ``foul``, ``penalty``, ``points``), its
  ``decision`` (JSON) and ``text``, ``superseded_by`` (the ``seq`` of the record that
  replaced it), ``superseded_at`` (ISO 8601 UTC) and ``change`` (what the correction changed,
  in people's words). ``shots`` keeps one row per stroke: the current call.
- ``console``: requests made on the referee console, waiting for the run to take them
  (``status`` ``pending`` → ``taken`` → ``applied``/``refused``, ``result``); the run polls it, so
  a console served by another process still reaches the engine.

A store written before (version 1: one ``matches`` row per run, frames keyed ``(run_id,
number)``) is migrated when opened for writing (:func:`migrate`: its one match is match 1) and
read through temporary views with ``match`` 1 when opened read-only (:func:`old_store_views`),
so its file is not changed by a page or a report.
"""

from __future__ import annotations

import sqlite3

#: Bumped when the tables change in a way old readers cannot follow (2: matches numbered).
SCHEMA_VERSION = 2

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs(
    id INTEGER PRIMARY KEY, video TEXT, started TEXT NOT NULL, ended TEXT, heartbeat REAL,
    status TEXT NOT NULL, calibration TEXT, players TEXT, video_frames INTEGER DEFAULT 0,
    video_t REAL DEFAULT 0, summary TEXT, table_name TEXT);
CREATE TABLE IF NOT EXISTS matches(
    run_id INTEGER NOT NULL REFERENCES runs(id), match INTEGER NOT NULL, players TEXT,
    best_of INTEGER, frames_won TEXT, winner TEXT, over INTEGER NOT NULL DEFAULT 0,
    start_seq INTEGER, PRIMARY KEY(run_id, match));
CREATE TABLE IF NOT EXISTS frames(
    run_id INTEGER NOT NULL REFERENCES runs(id), match INTEGER NOT NULL DEFAULT 1,
    number INTEGER NOT NULL, breaker TEXT, ruleset TEXT, start_seq INTEGER, end_seq INTEGER,
    winner TEXT, score TEXT, reason TEXT, PRIMARY KEY(run_id, match, number));
CREATE TABLE IF NOT EXISTS records(
    run_id INTEGER NOT NULL REFERENCES runs(id), seq INTEGER NOT NULL, kind TEXT NOT NULL,
    frame INTEGER, record TEXT NOT NULL, created REAL NOT NULL, superseded INTEGER DEFAULT 0,
    match INTEGER, PRIMARY KEY(run_id, seq));
CREATE TABLE IF NOT EXISTS shots(
    run_id INTEGER NOT NULL, seq INTEGER NOT NULL, shot INTEGER NOT NULL, frame INTEGER,
    striker TEXT, t_start REAL, t_end REAL, foul INTEGER, penalty INTEGER, points INTEGER,
    needs_review TEXT, match INTEGER, PRIMARY KEY(run_id, seq));
CREATE TABLE IF NOT EXISTS events(
    run_id INTEGER NOT NULL, seq INTEGER NOT NULL, idx INTEGER NOT NULL, type TEXT NOT NULL,
    t REAL, balls TEXT, pocket TEXT, cushion TEXT, confidence REAL,
    PRIMARY KEY(run_id, seq, idx));
CREATE TABLE IF NOT EXISTS inputs(
    run_id INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, choice TEXT,
    player TEXT, note TEXT, source TEXT, PRIMARY KEY(run_id, seq));
CREATE TABLE IF NOT EXISTS decisions(
    run_id INTEGER NOT NULL, seq INTEGER NOT NULL, idx INTEGER NOT NULL, kind TEXT NOT NULL,
    shot INTEGER, decision TEXT NOT NULL, text TEXT, emitted REAL NOT NULL,
    PRIMARY KEY(run_id, seq, idx));
CREATE TABLE IF NOT EXISTS console(
    id INTEGER PRIMARY KEY, run_id INTEGER, created REAL NOT NULL, action TEXT NOT NULL,
    payload TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'pending', result TEXT);
CREATE INDEX IF NOT EXISTS console_pending ON console(status, run_id);
CREATE TABLE IF NOT EXISTS shot_history(
    run_id INTEGER NOT NULL, seq INTEGER NOT NULL, shot INTEGER NOT NULL, frame INTEGER,
    striker TEXT, foul INTEGER, penalty INTEGER, points INTEGER, decision TEXT, text TEXT,
    superseded_by INTEGER NOT NULL, superseded_at TEXT NOT NULL, change TEXT,
    PRIMARY KEY(run_id, seq));
"""

#: Version 1's ``matches`` and ``frames`` columns, as they were (what the migration copies).
_V1_MATCH_COLUMNS = "run_id, 1, players, best_of, frames_won, winner, winner IS NOT NULL, NULL"
_V1_FRAME_COLUMNS = ("run_id, 1, number, breaker, ruleset, start_seq, end_seq, winner, score, "
                     "reason")


def _columns(db: sqlite3.Connection, table: str, schema: str = "main") -> set[str]:
    return {r[1] for r in db.execute(f"PRAGMA {schema}.table_info({table})").fetchall()}


def is_old_store(db: sqlite3.Connection) -> bool:
    """Whether the store's ``matches`` table is version 1's (one match per run)."""
    cols = _columns(db, "matches")
    return bool(cols) and "match" not in cols


def migrate(db: sqlite3.Connection) -> None:
    """Bring a store opened for writing to :data:`SCHEMA_VERSION` (idempotent): ``runs``
    gets ``table_name``; version 1's ``matches`` and ``frames`` are rebuilt with the match
    number (their one match is match 1), ``records`` and ``shots`` get ``match``."""
    if "table_name" not in _columns(db, "runs"):
        db.execute("ALTER TABLE runs ADD COLUMN table_name TEXT")
    if is_old_store(db):
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("ALTER TABLE matches RENAME TO matches_v1")
            db.execute("ALTER TABLE frames RENAME TO frames_v1")
            for statement in _new_tables_only():
                db.execute(statement)
            db.execute(f"INSERT INTO matches SELECT {_V1_MATCH_COLUMNS} FROM matches_v1")
            db.execute(f"INSERT INTO frames SELECT {_V1_FRAME_COLUMNS} FROM frames_v1")
            db.execute("UPDATE matches SET start_seq=(SELECT MIN(start_seq) FROM frames f "
                       "WHERE f.run_id=matches.run_id)")
            db.execute("DROP TABLE matches_v1")
            db.execute("DROP TABLE frames_v1")
            for table in ("records", "shots"):
                if "match" not in _columns(db, table):
                    db.execute(f"ALTER TABLE {table} ADD COLUMN match INTEGER")
                    db.execute(f"UPDATE {table} SET match=1")
            db.execute("INSERT OR REPLACE INTO meta VALUES('schema_version', ?)",
                       (str(SCHEMA_VERSION),))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    db.execute("INSERT OR IGNORE INTO meta VALUES('schema_version', ?)", (str(SCHEMA_VERSION),))


def _new_tables_only() -> list[str]:
    """The ``CREATE`` statements of ``matches`` and ``frames`` alone (for the migration)."""
    return [p for p in SCHEMA.split(";") if "TABLE IF NOT EXISTS matches(" in p
            or "TABLE IF NOT EXISTS frames(" in p]


def old_store_views(db: sqlite3.Connection) -> None:
    """A version 1 store opened read-only reads as version 2: temporary views named like the
    tables (they come first in SQLite's name lookup) give its one match the number 1."""
    if not is_old_store(db):
        return
    db.execute(f"CREATE TEMP VIEW matches(run_id, match, players, best_of, frames_won, winner, "
               f"over, start_seq) AS SELECT {_V1_MATCH_COLUMNS} FROM main.matches")
    db.execute("CREATE TEMP VIEW frames AS SELECT run_id, 1 AS match, number, breaker, ruleset, "
               "start_seq, end_seq, winner, score, reason FROM main.frames")
    for table in ("records", "shots"):
        if "match" not in _columns(db, table):
            db.execute(f"CREATE TEMP VIEW {table} AS SELECT *, 1 AS match FROM main.{table}")
