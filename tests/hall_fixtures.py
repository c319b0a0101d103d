"""A hall's store for the hall tests: two tables, each with a run of a bundled sample's log.

``t1``: Ann v Bob on ``overhead_miss`` (a foul and a miss: Bob 4); ``t2``: Cy v Di on
``overhead_frame`` (the first strokes; the rest of its log is kept for a test to write).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from tracker.outputs.store import MatchStore
from tracker.records.parse import read_log
from tracker.records.shot import FrameStart
from tracker.rules.match import Match

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_videos"


def renamed(records, players: tuple[str, str]):
    """The records with the frame start's players (and breaker) renamed."""
    out = []
    for rec in records:
        if isinstance(rec, FrameStart):
            rec = dataclasses.replace(rec, players=players, breaker=players[0])
        out.append(rec)
    return out


class HallStore:
    """The two tables' store at ``folder/match.sqlite`` (see the module docstring); ``more``
    holds t2's records not yet written and :meth:`write_next` writes the next one."""

    def __init__(self, folder: Path, t2_records: int = 3):
        self.path = folder / "match.sqlite"
        self.store = MatchStore(self.path)
        self.runs: dict[str, int] = {}
        self.matches: dict[str, Match] = {}
        miss = [r for _, r in read_log(SAMPLES / "overhead_miss.log.jsonl")][:2]
        frame = renamed([r for _, r in read_log(SAMPLES / "overhead_frame.log.jsonl")],
                        ("Cy", "Di"))
        self._add("t1", "overhead_miss.mp4", ("Ann", "Bob"), miss)
        self._add("t2", "overhead_frame.mp4", ("Cy", "Di"), frame[:t2_records])
        self.more = frame[t2_records:]

    def _add(self, table: str, video: str, players: tuple[str, str], records) -> None:
        self.runs[table] = self.store.new_run(video, None, players, table)
        self.matches[table] = Match()
        for rec in records:
            self.store.write_record(self.runs[table], rec, self.matches[table].feed(rec))

    def write_next(self) -> None:
        """Write t2's next record (and the referee's calls about it)."""
        rec = self.more.pop(0)
        self.store.write_record(self.runs["t2"], rec, self.matches["t2"].feed(rec))
