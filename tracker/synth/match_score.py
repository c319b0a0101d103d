"""Score what ``process`` made of a synthetic match against the match's truth.

Inputs: the truth (``NAME.truth.json``, :func:`tracker.synth.match_video.truth_dict`), the
run's ``decisions.jsonl`` lines (``frame_start`` / ``frame_end`` lines and one line per call)
and the stroke times of its ``match.log.jsonl`` (stroke number -> start, s of video).

Figures (:func:`score_match`):

- ``frames_found``: frames whose start the run recorded (``frame_start`` lines), against
  ``frames_truth``; ``frames_ended``: frames it ended;
- per truth frame: breaker right, score exact, winner right, how it ended right (a conceded
  frame must end ``conceded``), and for a conceded frame whether it was marked for review
  (its ``concede`` input or its ``frame_end`` line flagged, or with a note asking for a
  review or a check);
- ``frames_won_right``, ``match_winner_right``: from the run's last ``frame_end`` line;
- ``idle_calls``: calls on strokes that started inside an idle stretch (must be 0);
  ``calls_outside_frames``: calls on strokes that started outside every frame's
  [start - 1 s, end + 1 s] (re-racks, idles);
- ``strokes_matched``: calls on a stroke the truth has (started within
  :data:`STROKE_MATCH_S`), ``calls_right``: those whose foul and points are the truth's;
- ``match_right``: every truth frame found with the right breaker, exact score and winner,
  frames won and the match winner right, and no call in the idle stretches.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: Slack around a frame's start and end when placing a stroke in it, s.
FRAME_SLACK_S = 1.0
#: A called stroke is the truth's stroke that started within this long of it, s.
STROKE_MATCH_S = 0.5


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """The JSON lines of a file (``//`` comment lines and blank lines skipped)."""
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("//"):
            out.append(json.loads(line))
    return out


def stroke_times(log_lines: list[dict[str, Any]]) -> dict[int, float]:
    """Stroke number -> its start (s of video) from match-log lines."""
    return {int(r["shot"]): float(r.get("t_start") or 0.0) for r in log_lines
            if r.get("type") == "shot" and "shot" in r}


def _marked_for_review(line: dict[str, Any]) -> bool:
    """A line flagged for a referee's look: ``review`` / ``needs_review``, or a note asking
    for a review or a check."""
    if line.get("review") or line.get("needs_review"):
        return True
    return any("review" in str(n).lower() or "check" in str(n).lower()
               for n in line.get("notes", []))


def concession_lines(decisions: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """Frame number -> the lines that end it by concession: its ``concede`` input lines and
    its ``frame_end`` line when that says ``conceded``."""
    out: dict[int, list[dict[str, Any]]] = {}
    frame = None
    for d in decisions:
        if "frame_start" in d:
            frame = d["frame_start"]
        elif d.get("input") == "concede" and frame is not None:
            out.setdefault(frame, []).append(d)
        elif "frame_end" in d and "conced" in str(d.get("reason", "")):
            out.setdefault(d["frame_end"], []).append(d)
    return out


def score_frame(truth: dict[str, Any], start: dict[str, Any] | None,
                end: dict[str, Any] | None,
                conceding: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """One truth frame against the run's ``frame_start`` and ``frame_end`` lines of the same
    number (None: not found) and the lines that ended it by concession."""
    conceded = truth["ended"] == "conceded"
    got_score = end.get("score") if end else None
    row = {"frame": truth["frame"], "found": start is not None, "ended": end is not None,
           "breaker_right": bool(start) and start.get("breaker") == truth["breaker"],
           "score_truth": truth["score"], "score_got": got_score,
           "score_exact": got_score == truth["score"],
           "winner_right": bool(end) and end.get("winner") == truth["winner"],
           "how_truth": truth["ended"],
           "how_right": bool(end) and (("conced" in str(end.get("reason", ""))) == conceded)}
    if conceded:
        row["concession_for_review"] = any(_marked_for_review(d) for d in conceding or [])
    return row


def score_match(truth: dict[str, Any], decisions: list[dict[str, Any]],
                times: dict[int, float]) -> dict[str, Any]:
    """The figures of the module docstring."""
    starts = {d["frame_start"]: d for d in decisions if "frame_start" in d}
    ends = {d["frame_end"]: d for d in decisions if "frame_end" in d}
    conceding = concession_lines(decisions)
    rows = [score_frame(f, starts.get(f["frame"]), ends.get(f["frame"]), conceding.get(f["frame"]))
            for f in truth["frames"]]
    calls = [d for d in decisions if d.get("shot") is not None and "frame_end" not in d]
    idle_calls, outside = [], []
    for d in calls:
        t = times.get(int(d["shot"]))
        if t is None:
            continue
        if any(s["start_s"] <= t <= s["end_s"] for s in truth["idle"]):
            idle_calls.append({"shot": d["shot"], "t": round(t, 2)})
        if not any(f["start_s"] - FRAME_SLACK_S <= t <= f["end_s"] + FRAME_SLACK_S
                   for f in truth["frames"]):
            outside.append({"shot": d["shot"], "t": round(t, 2)})
    matched, right = _calls_against_truth(truth["shots"], calls, times)
    last = ends[max(ends)] if ends else {}
    frames_won_right = last.get("frames_won") == truth["frames_won"]
    winner_right = last.get("match_winner") == truth["match_winner"]
    every = all(r["found"] and r["breaker_right"] and r["score_exact"] and r["winner_right"]
                for r in rows)
    return {
        "frames_truth": len(truth["frames"]), "frames_found": len(starts),
        "frames_ended": len(ends),
        "scores_exact": sum(r["score_exact"] for r in rows),
        "breakers_right": sum(r["breaker_right"] for r in rows),
        "winners_right": sum(r["winner_right"] for r in rows),
        "frames_won_truth": truth["frames_won"], "frames_won_got": last.get("frames_won"),
        "frames_won_right": frames_won_right,
        "match_winner_truth": truth["match_winner"], "match_winner_got": last.get("match_winner"),
        "match_winner_right": winner_right,
        "calls": len(calls), "strokes_truth": len(truth["shots"]),
        "strokes_matched": matched, "calls_right": right,
        "idle_calls": len(idle_calls), "idle_call_list": idle_calls,
        "calls_outside_frames": len(outside),
        "concessions_for_review": sum(bool(r.get("concession_for_review")) for r in rows),
        "concessions_truth": sum(r["how_truth"] == "conceded" for r in rows),
        "match_right": every and frames_won_right and winner_right and not idle_calls,
        "frames": rows,
    }


def _calls_against_truth(shots: list[dict[str, Any]], calls: list[dict[str, Any]],
                         times: dict[int, float]) -> tuple[int, int]:
    """(calls on a stroke of the truth, of those the ones with its foul and points)."""
    matched = right = 0
    for d in calls:
        t = times.get(int(d["shot"]))
        if t is None or not shots:
            continue
        s = min(shots, key=lambda s: abs(s["t_strike"] - t))
        if abs(s["t_strike"] - t) > STROKE_MATCH_S:
            continue
        matched += 1
        want = s["decision"]
        right += (bool(d.get("foul")) == bool(want.get("foul"))
                  and d.get("points") == want.get("points"))
    return matched, right


def score_run(truth_path: str | Path, out_dir: str | Path) -> dict[str, Any]:
    """:func:`score_match` on a ``process`` output folder (its ``decisions.jsonl`` and
    ``match.log.jsonl``)."""
    out = Path(out_dir)
    truth = json.loads(Path(truth_path).read_text())
    decisions = read_jsonl(out / "decisions.jsonl") if (out / "decisions.jsonl").exists() else []
    log = read_jsonl(out / "match.log.jsonl") if (out / "match.log.jsonl").exists() else []
    return score_match(truth, decisions, stroke_times(log))
