"""Two frames in one video through ``process_video``: the session loop end to end on the
detector's output (issue 28).

The video: the bundled ``overhead_frame`` sample (a rack, a break-off and five more strokes),
then its first picture (the rack) held 3 s, then the sample again. The operator's inputs: the
sample's own match log (its play-again option, its nomination) with ``best_of`` 3, the frame
conceded by the striker after its sixth stroke, and the same inputs again for the second copy.
Truth, from the sample's perfect-perception log and the rules, not from the run: frame 1 goes
to the player not conceding; frame 2 starts on the held rack (after the first copy ends at
52.6 s and before the second copy's break-off at 58.7 s), broken by the other player; its
strokes are the first frame's with the players' parts swapped, so its score is the first
frame's swapped (as far as the perception calls the same strokes the same way twice).

    POOLTOOL_HOME=/tmp/pooltool flock /tmp/heavy.lock .venv/bin/python bench/session_two_frames.py
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.runinfo import run_info  # noqa: E402
from tracker.pipeline import inputs_from_log, process_video, spoken_from_log  # noqa: E402
from tracker.records.parse import read_log, record_to_dict  # noqa: E402
from tracker.records.shot import FrameStart, InputKind, OperatorInput, Shot  # noqa: E402
from tracker.rules.match import Match  # noqa: E402

SAMPLE = ROOT / "sample_videos" / "overhead_frame"
HOLD_S = 3.0


def make_video(path: Path) -> tuple[float, float]:
    """The two-copy video; returns (fps, seconds where the second copy starts)."""
    cap = cv2.VideoCapture(str(SAMPLE.with_suffix(".mp4")))
    fps = cap.get(cv2.CAP_PROP_FPS)
    frames = []
    while True:
        ok, img = cap.read()
        if not ok:
            break
        frames.append(img)
    cap.release()
    h, w = frames[0].shape[:2]
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
    for img in [*frames, *[frames[0]] * int(HOLD_S * fps), *frames]:
        out.write(img)
    out.release()
    return fps, (len(frames) + int(HOLD_S * fps)) / fps


def make_log(path: Path, offset: float) -> list:
    """The inputs log (see the module docstring); returns its records."""
    recs = [r for _, r in read_log(SAMPLE.with_suffix(".log.jsonl"))]
    first = [replace(recs[0], best_of=3), *recs[1:], OperatorInput(InputKind.CONCEDE)]
    second: list = [FrameStart(2, recs[0].players)]
    for r in recs[1:]:
        if isinstance(r, Shot):
            r = replace(r, shot=r.shot + 6, t_start=(r.t_start or 0) + offset,
                        t_end=(r.t_end or 0) + offset,
                        events=tuple(replace(e, t=e.t + offset) for e in r.events))
        second.append(r)
    path.write_text("".join(json.dumps(record_to_dict(r)) + "\n" for r in [*first, *second]))
    return [*first, *second]


def truth(records: list) -> list[dict]:
    """The frame ends and the last score the rules give the perfect log."""
    m, out = Match(), []
    for r in records:
        out += [d for d in m.feed(r) if "frame_end" in d]
    return out + [{"score_at_end": dict(zip(m.state.players, m.state.scores, strict=True)),
                   "frame": m.state.frame}]


def main() -> None:
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        video, log, out = Path(tmp) / "two.mp4", Path(tmp) / "two.log.jsonl", Path(tmp) / "out"
        fps, offset = make_video(video)
        records = make_log(log, offset)
        res = process_video(video, out, progress=False, players=("Ann", "Bob"),
                            inputs=inputs_from_log(log), spoken=spoken_from_log(log))
        decisions = [json.loads(x) for x in (out / "decisions.jsonl").read_text().splitlines()]
    starts = [{"frame": d["frame_start"], "breaker": d["breaker"], "notes": d["notes"]}
              for d in decisions if "frame_start" in d]
    ends = [{k: d[k] for k in ("frame_end", "winner", "score", "reason")}
            for d in decisions if "frame_end" in d]
    board = decisions[-1]
    report = {**run_info("POOLTOOL_HOME=/tmp/pooltool .venv/bin/python "
                         "bench/session_two_frames.py", time.perf_counter() - t0),
              "second_copy_starts_s": round(offset, 2),
              "second_break_off_s": round(offset + 3.12, 2),
              "truth": truth(records), "frame_starts": starts, "frame_ends": ends,
              "score_at_end": res.score, "strokes": len(res.shots),
              "scoreboard": {k: board.get(k) for k in ("state", "frame", "frames_won")}}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
