"""The interchange files of a run: match log, decisions, scoreboard, calibration.

``match.log.jsonl`` holds the records (frame start, operator inputs, strokes) in the format of
docs/SHOT-RECORD.md, ``decisions.jsonl`` one line per referee output and the scoreboard line
at the end, ``scoreboard.json`` the final scoreboard. ``decisions.jsonl`` is append-only: a
correction's new calls follow the calls they replace (:mod:`tracker.corrections` says which
are current). Each line is flushed as it is written, so
a crash keeps everything called so far.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from calibration.profile import Calibration
from tracker.listeners import RefereeRun, RunListener
from tracker.records.parse import record_to_dict
from tracker.records.shot import Record

#: The files a run writes into its output folder.
LOG_NAME = "match.log.jsonl"
DECISIONS_NAME = "decisions.jsonl"
SCOREBOARD_NAME = "scoreboard.json"
CALIBRATION_NAME = "calibration.json"


class JsonlOutputs(RunListener):
    """Writes the run's JSONL files into ``out`` as the run goes (see the module docstring).

    Args:
        out: the run's folder.
        calibration: the camera (written as ``calibration.json``).
        resume: a resumed run's lines so far, (match-log lines, decision lines): the files are
            rewritten with them (through temporary files), then written on as usual.
    """

    #: a resumed run holds it back until the records already called are met again
    #: (tracker.resume): they are not written twice
    resume_holds_back = True

    def __init__(self, out: Path, calibration: Calibration,
                 resume: tuple[list[str], list[str]] | None = None):
        self.out = out
        out.mkdir(parents=True, exist_ok=True)
        calibration.save(out / CALIBRATION_NAME)
        log_lines, dec_lines = resume or ([], [])
        for name, lines in ((LOG_NAME, log_lines), (DECISIONS_NAME, dec_lines)):
            tmp = out / (name + ".tmp")
            tmp.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
            tmp.replace(out / name)
        (out / SCOREBOARD_NAME).unlink(missing_ok=True)  # a run in progress has none yet
        self._log = open(out / LOG_NAME, "a", encoding="utf-8")  # noqa: SIM115 - written as we go
        self._dec = open(out / DECISIONS_NAME, "a", encoding="utf-8")  # noqa: SIM115
        self._lines: list[str] = list(log_lines)

    def on_record(self, run: RefereeRun, record: Record, decisions: list[dict[str, Any]]) -> None:
        line = json.dumps(record_to_dict(record))
        self._lines.append(line)
        self._log.write(line + "\n")
        self._log.flush()
        for d in decisions:
            self._dec.write(json.dumps(d) + "\n")
        self._dec.flush()

    def on_amend(self, run: RefereeRun, record: Record, decisions: list[dict[str, Any]]) -> None:
        """A corrected stroke: its line in the match log is replaced (the log is rewritten
        whole, through a temporary file, so it stays a replayable log); the new calls are
        appended to the decisions (append-only), marked ``"amended": true`` with their
        ``correction``: a reader takes the current calls with
        :func:`tracker.corrections.current_decisions`."""
        last = max(i for i, x in enumerate(self._lines) if json.loads(x)["type"] == "shot")
        self._lines[last] = json.dumps(record_to_dict(record))
        self._log.close()
        tmp = self.out / (LOG_NAME + ".tmp")
        tmp.write_text("".join(x + "\n" for x in self._lines), encoding="utf-8")
        tmp.replace(self.out / LOG_NAME)
        self._log = open(self.out / LOG_NAME, "a", encoding="utf-8")  # noqa: SIM115
        for d in decisions:
            self._dec.write(json.dumps(d) + "\n")
        self._dec.flush()

    def on_end(self, run: RefereeRun, summary: dict[str, Any]) -> None:
        self._log.close()
        self._dec.write(json.dumps(summary) + "\n")
        self._dec.close()
        (self.out / SCOREBOARD_NAME).write_text(json.dumps(summary, indent=1))
