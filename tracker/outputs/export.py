"""Exports a league can import: one match as JSON and as CSV tables, each with a JSON Schema.

``python -m tracker.outputs.export DIR [--out FOLDER] [--run N]`` reads a run's folder (its
``match.sqlite``, or else ``match.log.jsonl`` with ``decisions.jsonl``; without decisions the
log is refereed again) and writes into ``FOLDER`` (default ``DIR/export``):

- ``match.json``: the match (players, frames won, winner), its frames with their scores, every
  stroke's current call, the breaks with their times and balls, and the statistics
  (:mod:`tracker.stats`); schema ``tracker/records/export-match.schema.json``;
- ``strokes.csv``, ``frames.csv``, ``breaks.csv``, ``statistics.csv``: the same as tables,
  one row per stroke, frame, break, and player (per frame and over the match); schemas
  ``tracker/records/export-<table>.csv.schema.json`` (each row as the strings it holds).

One typed value per field: times of day are ISO 8601 (UTC); places in the video are seconds
from its start (numbers, names ending ``_s``: a video file does not say when it was
recorded); booleans are ``true``/``false``; scores are one field per player (``player1_score``,
``player2_score``, in the order of ``player1``, ``player2``); balls are named by colour
(``red``, never the tracker's ``red_07``; in CSV the balls of a cell are separated by spaces,
the fouls by "; "). A foul's penalty is never the fouler's points: the
stroke's ``points`` is what the striker scored (0 on a foul), ``penalty`` what the opponent
``penalty_to`` received. In CSV an absent value is an empty cell.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import io
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tracker import balls as B
from tracker.corrections import current_decisions
from tracker.outputs.store import STORE_NAME, MatchStore, StoreError
from tracker.rules.explain import explain
from tracker.stats import (
    DEFAULT_PARAMS,
    MatchStats,
    PlayerStats,
    StatsParams,
    current_calls,
    match_stats,
    split_by_match,
)

#: The export's format name and version (bumped when a field changes meaning or goes).
FORMAT, VERSION = "snooker-tracker match export", 1
#: Decimal places kept: seconds, and ratios (pot success, points per visit).
SECONDS_DP, RATIO_DP = 3, 4
#: The CSV tables and their columns, in order.
CSV_COLUMNS: dict[str, tuple[str, ...]] = {
    "strokes": ("frame", "shot", "striker", "start_s", "end_s", "shot_time_s", "kind", "foul",
                "miss", "points", "penalty", "penalty_to", "potted", "fouls", "long_pot",
                "player1", "player1_score", "player2", "player2_score", "call"),
    "frames": ("frame", "player1", "player2", "breaker", "ruleset", "finished", "winner",
               "end_reason", "player1_score", "player2_score", "start_s", "end_s",
               "duration_s", "player1_highest_break", "player2_highest_break"),
    "breaks": ("frame", "player", "points", "balls", "pots", "first_shot", "last_shot",
               "start_s", "end_s", "ended"),
    "statistics": ("scope", "frame", "player", "strokes", "pots", "missed_pots", "pot_success",
                   "long_pots", "long_missed_pots", "long_pot_success", "safeties", "fouls",
                   "points_given_away", "points_scored", "visits", "points_per_visit",
                   "timed_strokes", "average_shot_time_s", "breaks_20_plus", "breaks_50_plus",
                   "breaks_100_plus", "highest_break"),
}


class ExportError(ValueError):
    """The run cannot be exported; the message says what to do."""


@dataclass(frozen=True)
class RunData:
    """What an export is made of: the match log and the referee's calls (dicts, in order),
    and where they came from (``started``/``ended``: ISO 8601 UTC, None when unknown)."""

    log: list[dict[str, Any]]
    decisions: list[dict[str, Any]]
    video: str | None = None
    started: str | None = None
    ended: str | None = None
    status: str | None = None


def from_store(store: MatchStore, run_id: int | None = None) -> RunData:
    """A store's run (the latest by default)."""
    run = store.run(run_id) if run_id is not None else store.latest_run()
    if run is None:
        raise ExportError(f"{store.path}: the store holds no run yet; process a video first")
    return RunData(store.log(run["id"]), [d["decision"] for d in store.decisions(run["id"])],
                   run.get("video"), run.get("started"), run.get("ended"), run.get("status"))


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip() and not line.lstrip().startswith("//"):
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                raise ExportError(f"{path}: line {n} is not JSON; give the files a run "
                                  "wrote") from None
    return out


def from_folder(folder: str | Path, run_id: int | None = None) -> RunData:
    """A run's output folder: its store, or else its JSONL files (module docstring)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ExportError(f"{folder}: no such folder; give the --out folder of a "
                          "snooker-tracker process run")
    if (folder / STORE_NAME).is_file():
        store = MatchStore(folder / STORE_NAME, readonly=True)
        try:
            return from_store(store, run_id)
        finally:
            store.close()
    log_path = folder / "match.log.jsonl"
    if not log_path.is_file():
        raise ExportError(f"{folder}: neither {STORE_NAME} nor match.log.jsonl there; give "
                          "the --out folder of a snooker-tracker process run")
    log = _read_jsonl(log_path)
    dec_path = folder / "decisions.jsonl"
    if dec_path.is_file():
        decisions = current_decisions(_read_jsonl(dec_path))
    else:
        from tracker.records.parse import read_log
        from tracker.rules.match import Match

        match = Match()
        decisions = [d for _, rec in read_log(log_path) for d in match.feed(rec)]
    return RunData(log, decisions)


def split_matches(data: RunData) -> list[RunData]:
    """A run's matches, one :class:`RunData` each, in order (a table's day: ``process
    --then``/``--again``; :func:`tracker.stats.split_by_match`)."""
    return [replace(data, log=lg, decisions=c)
            for lg, c in split_by_match(data.log, data.decisions)]


def _s(t: float | None) -> float | None:
    return None if t is None else round(float(t), SECONDS_DP)


def _r(x: float | None) -> float | None:
    return None if x is None else round(float(x), RATIO_DP)


def _kinds(balls: Sequence[str]) -> list[str]:
    return [B.kind(b) for b in balls if b != B.WHITE]


def _scores(players: Sequence[str], score: Mapping[str, int]) -> list[dict[str, Any]]:
    return [{"player": p, "points": int(score.get(p, 0))} for p in players]


def stats_fields(st: PlayerStats) -> dict[str, Any]:
    """One player's statistics as export fields (ratios rounded, breaks one field per
    threshold: ``breaks_20_plus``...)."""
    return {"player": st.player, "strokes": st.strokes, "pots": st.pots,
            "missed_pots": st.missed_pots, "pot_success": _r(st.pot_success),
            "long_pots": st.long_pots, "long_missed_pots": st.long_missed_pots,
            "long_pot_success": _r(st.long_pot_success), "safeties": st.safeties,
            "fouls": st.fouls, "points_given_away": st.points_given_away,
            "points_scored": st.points_scored, "visits": st.visits,
            "points_per_visit": _r(st.points_per_visit), "timed_strokes": st.timed_strokes,
            "average_shot_time_s": _s(st.average_shot_time_s),
            **{f"breaks_{t}_plus": n for t, n in st.breaks_at_least.items()},
            "highest_break": st.highest_break}


def _stroke_fields(ms: MatchStats, calls: Mapping[tuple[int, int], Mapping[str, Any]]
                   ) -> list[dict[str, Any]]:
    out = []
    for s in ms.strokes:
        call = calls[(s.frame, s.shot)]
        out.append({"frame": s.frame, "shot": s.shot, "striker": s.striker,
                    "start_s": _s(s.t_start), "end_s": _s(s.t_end),
                    "shot_time_s": _s(s.shot_time_s), "kind": s.kind, "foul": bool(call["foul"]),
                    "miss": s.miss, "points": s.points, "penalty": s.penalty,
                    "penalty_to": s.penalty_to, "potted": _kinds(s.potted),
                    "fouls": [f["message"] for f in call.get("fouls", [])], "long_pot": s.long,
                    "scores": _scores(ms.players, s.score), "call": explain(call)})
    return out


def match_document(data: RunData, params: StatsParams = DEFAULT_PARAMS,
                   exported_at: str | None = None) -> dict[str, Any]:
    """The match as one JSON document (schema ``export-match.schema.json``)."""
    ms = match_stats(data.log, data.decisions, params)
    calls, _ = current_calls(data.decisions)
    frames = []
    for f in ms.frames:
        dur = None if f.t_start is None or f.t_end is None else f.t_end - f.t_start
        frames.append({"number": f.number, "breaker": f.breaker, "ruleset": f.ruleset,
                       "finished": f.finished, "winner": f.winner, "end_reason": f.end_reason,
                       "scores": _scores(f.players, f.score), "start_s": _s(f.t_start),
                       "end_s": _s(f.t_end), "duration_s": _s(dur),
                       "highest_breaks": [{"player": p, "points": ms.per_frame[f.number][p]
                                           .highest_break} for p in f.players]})
    return {
        "format": FORMAT, "version": VERSION,
        "exported_at": exported_at or dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "source": {"video": data.video, "processed_from": data.started,
                   "processed_to": data.ended, "status": data.status},
        "players": [{"name": p, "frames_won": ms.frames_won.get(p, 0)} for p in ms.players],
        "best_of": ms.best_of, "winner": ms.winner, "finished": ms.winner is not None,
        "frames": frames,
        "strokes": _stroke_fields(ms, calls),
        "breaks": [{"frame": v.frame, "player": v.player, "points": v.points,
                    "balls": _kinds(v.balls), "first_shot": v.shots[0], "last_shot": v.shots[-1],
                    "start_s": _s(v.t_start), "end_s": _s(v.t_end), "ended": v.ended}
                   for v in ms.breaks()],
        "statistics": {
            "thresholds": {"long_object_to_pocket": params.long_object_to_pocket,
                           "long_cue_to_object": params.long_cue_to_object,
                           "attempt_max_angle_deg": params.attempt_max_angle_deg,
                           "attempt_min_travel": params.attempt_min_travel,
                           "attempt_min_move_mm": params.attempt_min_move_mm},
            "match": [stats_fields(ms.match[p]) for p in ms.players],
            "frames": [{"frame": n, "players": [stats_fields(st) for st in by.values()]}
                       for n, by in ms.per_frame.items()]},
    }


def match_documents(data: RunData, params: StatsParams = DEFAULT_PARAMS,
                    exported_at: str | None = None) -> list[dict[str, Any]]:
    """Each match of the run as its :func:`match_document`, in order."""
    return [match_document(m, params, exported_at) for m in split_matches(data)]


def interval_statistics(store: MatchStore, run_id: int | None = None) -> dict[str, Any]:
    """What an interval page or overlay shows between frames, from a live store: the
    players with frames won, each frame's scores and highest breaks, the breaks, and the
    statistics (the fields of :func:`match_document`). For the live server
    (``tracker/server``), e.g. as ``/api/statistics``."""
    doc = match_documents(from_store(store, run_id))[-1]  # the match under way
    return {k: doc[k] for k in ("players", "best_of", "winner", "frames", "breaks",
                                "statistics")}


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return " ".join(str(x) for x in v)
    return str(v)


def _by_slot(scores: Sequence[Mapping[str, Any]], key: str = "points") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, sc in enumerate(scores[:2], start=1):
        out[f"player{i}"] = sc["player"]
        out[f"player{i}_score"] = sc[key]
    return out


def csv_rows(doc: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The CSV tables' rows (typed values) from a :func:`match_document`."""
    strokes = [{**{k: v for k, v in s.items() if k != "scores"}, **_by_slot(s["scores"]),
                "fouls": "; ".join(s["fouls"])} for s in doc["strokes"]]
    frames = []
    for f in doc["frames"]:
        slots = _by_slot(f["scores"])
        best = {f"player{i}_highest_break": hb["points"]
                for i, hb in enumerate(f["highest_breaks"][:2], start=1)}
        frames.append({**f, "frame": f["number"], **slots, **best})
    breaks = [{**b, "pots": len(b["balls"])} for b in doc["breaks"]]
    stats = [{"scope": "match", "frame": None, **st} for st in doc["statistics"]["match"]]
    stats += [{"scope": "frame", "frame": fr["frame"], **st}
              for fr in doc["statistics"]["frames"] for st in fr["players"]]
    return {"strokes": strokes, "frames": frames, "breaks": breaks, "statistics": stats}


def csv_tables(doc: Mapping[str, Any]) -> dict[str, str]:
    """Each CSV table's text (``{name: text}``, names of :data:`CSV_COLUMNS`)."""
    out = {}
    for name, rows in csv_rows(doc).items():
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(CSV_COLUMNS[name])
        for row in rows:
            w.writerow([_cell(row.get(c)) for c in CSV_COLUMNS[name]])
        out[name] = buf.getvalue()
    return out


def write_exports(folder: str | Path, out: str | Path | None = None,
                  run_id: int | None = None) -> list[Path]:
    """Write ``match.json`` and the CSV tables of a run's folder into ``out`` (default
    ``folder/export``); a run of several matches (a table's day) writes each match's files
    into ``out/match-1``, ``out/match-2``...; returns the files written."""
    docs = match_documents(from_folder(folder, run_id))
    target = Path(out) if out else Path(folder) / "export"
    written = []
    for n, doc in enumerate(docs, start=1):
        where = target if len(docs) == 1 else target / f"match-{n}"
        where.mkdir(parents=True, exist_ok=True)
        written.append(where / "match.json")
        written[-1].write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n",
                               encoding="utf-8")
        for name, text in csv_tables(doc).items():
            written.append(where / f"{name}.csv")
            written[-1].write_text(text, encoding="utf-8")
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m tracker.outputs.export DIR [--out FOLDER] [--run N]``; 0 on success, 2
    on a bad folder (one line on standard error)."""
    ap = argparse.ArgumentParser(prog="python -m tracker.outputs.export",
                                 description="Write a run's match as JSON and CSV tables "
                                             "a league can import.")
    ap.add_argument("folder", help="the --out folder of a snooker-tracker process run")
    ap.add_argument("--out", help="where to write the files (default: FOLDER/export)")
    ap.add_argument("--run", type=int, help="which run of the match store (default: latest)")
    args = ap.parse_args(argv)
    try:
        files = write_exports(args.folder, args.out, args.run)
    except (ExportError, StoreError, ValueError) as exc:
        print(f"snooker-tracker export: {exc}", file=sys.stderr)
        return 2
    for f in files:
        print(f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
