"""Render a synthetic match (:mod:`tracker.synth.match_video`) and write its files.

Files written for a match named NAME into a folder:

- ``NAME.mp4``: H.264, the plan's frame rate and size; the knocked camera from the knock on;
- ``NAME.truth.json``: the match's truth (:func:`tracker.synth.match_video.truth_dict`):
  per frame the breaker, score, winner, how it ended (``played out`` / ``conceded``, by whom),
  its start (break-off strike) and end times, the re-rack before it; the idle stretches; the
  knock; frames won and the match's winner; every stroke's time and the referee's decision;
- ``NAME.log.jsonl``: the match log a perfect perception would write (``snooker-tracker
  referee`` replays it: the same frames, scores and winner);
- ``NAME.setup.jsonl``: the match's set-up only (frame 1's ``frame_start``: players, ruleset,
  best of, who breaks), what a hall keys in before play: ``process --inputs`` takes it;
- ``NAME.camera.json``: the camera before the knock.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tracker.records.parse import record_to_dict
from tracker.records.shot import FrameStart
from tracker.synth.match_video import MatchPlan, MatchTimeline, play_match, truth_dict
from tracker.synth.render import Renderer, RenderStyle
from tracker.synth.video import VideoWriter


def render_match(tl: MatchTimeline, video: Path, style: RenderStyle | None = None,
                 progress: Callable[[int, int], None] | None = None, crf: int = 26) -> float:
    """Render every video frame of ``tl`` into ``video`` (H.264); ``progress(done, total)``
    is called every 100 frames. Returns the seconds it took."""
    w = tl.world
    before = Renderer(tl.camera_at(0), w.table, style)
    after = Renderer(tl.knocked, w.table, style) if tl.knocked is not None else before
    assert tl.camera is not None
    writer = VideoWriter(video, tl.camera.image_size, w.fps, crf=crf)
    t0 = time.perf_counter()
    total = len(w.frames)
    try:
        for i, ft in enumerate(w.frames):
            renderer = after if tl.knock_index is not None and i >= tl.knock_index else before
            img = renderer.render(ft.balls, ft.velocities, ft.occluders, noise_index=i,
                                  heights=ft.heights, smear=ft.smear)
            writer.write(img)
            if progress is not None and (i % 100 == 99 or i == total - 1):
                progress(i + 1, total)
    finally:
        writer.close()
    return time.perf_counter() - t0


def write_match(tl: MatchTimeline, out_dir: str | Path, name: str,
                style: RenderStyle | None = None,
                progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Render the match and write its files (module docstring). Returns a summary: the
    files, the video's length and size, the frames' results, render seconds."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    video = out / f"{name}.mp4"
    render_s = render_match(tl, video, style, progress)
    truth = truth_dict(tl)
    truth["name"] = name
    truth["video"] = video.name
    (out / f"{name}.truth.json").write_text(json.dumps(truth, indent=1))
    with open(out / f"{name}.log.jsonl", "w", encoding="utf-8") as fh:
        fh.write(f"// Made by snooker-tracker synth match ({name}): the records a perfect "
                 "perception would write.\n")
        for line in tl.world.log_lines():
            fh.write(json.dumps(line) + "\n")
    first = next(r for r in tl.world.records if isinstance(r, FrameStart))
    with open(out / f"{name}.setup.jsonl", "w", encoding="utf-8") as fh:
        fh.write(f"// The set-up of {name}'s match: players, game, best of, who breaks first.\n")
        fh.write(json.dumps(record_to_dict(first)) + "\n")
    assert tl.camera is not None
    (out / f"{name}.camera.json").write_text(json.dumps(tl.camera.to_dict(), indent=1))
    return {"name": name, "video": str(video), "truth": str(out / f"{name}.truth.json"),
            "setup": str(out / f"{name}.setup.jsonl"),
            "duration_s": truth["duration_s"], "video_frames": truth["video_frames"],
            "size": list(tl.camera.image_size), "render_s": round(render_s, 1),
            "frames": [{k: f[k] for k in ("frame", "breaker", "score", "winner", "ended")}
                       for f in truth["frames"]],
            "match_winner": truth["match_winner"]}


def make_match(plan: MatchPlan, out_dir: str | Path, name: str = "match",
               progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play ``plan``'s match and write its files (the default render style, seeded by the
    plan's seed)."""
    tl = play_match(plan)
    return write_match(tl, out_dir, name, RenderStyle(seed=plan.seed), progress)
