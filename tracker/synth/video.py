"""Write a synthetic clip: the video, its exact ground truth and the match log.

Files written for a clip named NAME into a folder:

- ``NAME.mp4``: H.264 (libx264 through imageio-ffmpeg), ``fps`` frames per second;
- ``NAME.gt.json.gz``: ground truth per frame (ball table positions mm, image positions px of
  the ball centres at z = R, visible fraction, moving) and per stroke (strike time, events with
  exact times, the referee's decision);
- ``NAME.log.jsonl``: the match log a perfect perception would write (``snooker-tracker referee``
  replays it);
- ``NAME.camera.json``: the camera model (intrinsics, distortion, pose).
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from calibration.camera import CameraModel
from tracker.records.parse import event_to_dict
from tracker.synth.render import Renderer, RenderStyle
from tracker.synth.world import FrameTruth, World

GT_VERSION = 1


class VideoWriter:
    """H.264 writer on top of imageio-ffmpeg (frames BGR uint8)."""

    def __init__(self, path: Path, size: tuple[int, int], fps: float, crf: int = 26):
        import imageio_ffmpeg

        self.gen = imageio_ffmpeg.write_frames(
            str(path), size, fps=fps, codec="libx264", pix_fmt_in="bgr24",
            pix_fmt_out="yuv420p", output_params=["-crf", str(crf), "-preset", "veryfast"],
            macro_block_size=8,
        )
        self.gen.send(None)

    def write(self, frame: np.ndarray) -> None:
        """Append one frame."""
        self.gen.send(np.ascontiguousarray(frame))

    def close(self) -> None:
        """Finish the file."""
        self.gen.close()


def visible_fraction(renderer: Renderer, centre: np.ndarray, mask: np.ndarray | None) -> float:
    """Fraction of a ball's image (sampled on 25 points of its disc) inside the image and not
    under an occluder."""
    r = renderer.table.ball_radius
    cam = renderer.camera
    ring = [(0.0, 0.0)] + [(rr * math.cos(a), rr * math.sin(a)) for rr in (0.5, 0.9)
                           for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)]
    # points on the ball's silhouette, approximated by the horizontal disc through its centre
    pts = np.array([[centre[0] + dx * r, centre[1] + dy * r, centre[2]] for dx, dy in ring])
    px = cam.project(pts)
    w, h = cam.image_size
    inside = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
    vis = inside.copy()
    if mask is not None:
        ix = np.clip(px[:, 0].astype(int), 0, w - 1)
        iy = np.clip(px[:, 1].astype(int), 0, h - 1)
        vis &= ~mask[iy, ix]
    return float(vis.mean())


def frame_truth_dict(renderer: Renderer, ft: FrameTruth, index: int) -> dict[str, Any]:
    """Ground truth of one frame as JSON-ready values."""
    r = renderer.table.ball_radius
    mask = renderer.occluder_mask(ft.occluders) if ft.occluders else None
    balls = {}
    for b, (x, y) in ft.balls.items():
        z = ft.heights.get(b, r)
        c = np.array([x, y, z])
        px = renderer.camera.project(c[None])[0]
        balls[b] = {
            "xy": [round(x, 2), round(y, 2)],
            "z": round(z, 2),
            "px": [round(float(px[0]), 3), round(float(px[1]), 3)],
            "visible": round(visible_fraction(renderer, c, mask), 3),
            "moving": b in ft.velocities,
        }
    return {"frame": index, "t": round(ft.t, 4), "phase": ft.phase, "shot": ft.shot, "balls": balls}


def write_clip(world: World, camera: CameraModel, out_dir: str | Path, name: str,
               style: RenderStyle | None = None, progress: bool = True, crf: int = 26,
               description: str = "", renderer: Renderer | None = None) -> dict[str, Any]:
    """Render every frame of ``world`` through ``camera`` and write the clip files
    (``renderer``: another renderer of that camera, e.g. pool balls; None: the snooker one).

    Returns:
        a summary: paths, frames, duration, final score, render seconds.
    """
    import time

    from tqdm import tqdm

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    renderer = renderer or Renderer(camera, world.table, style)
    video = out / f"{name}.mp4"
    writer = VideoWriter(video, camera.image_size, world.fps, crf=crf)
    frames_gt = []
    t0 = time.perf_counter()
    it = tqdm(world.frames, desc=f"render {name}", unit="frame", disable=not progress)
    for i, ft in enumerate(it):
        img = renderer.render(ft.balls, ft.velocities, ft.occluders, noise_index=i,
                              heights=ft.heights, smear=ft.smear)
        writer.write(img)
        frames_gt.append(frame_truth_dict(renderer, ft, i))
    writer.close()
    render_s = time.perf_counter() - t0
    shots = []
    for s in world.shots:
        shots.append({
            "shot": s.shot.shot,
            "label": s.label,
            "t_strike": round(s.t_strike, 6),
            "stroke": {"speed": s.stroke.speed, "phi": s.stroke.phi, "a": s.stroke.a,
                       "b": s.stroke.b},
            "events": [event_to_dict(e) for e in s.shot.events],
            "decision": s.decision.to_dict(),
        })
    st = world.state
    summary = {
        "name": name,
        "description": description,
        "video": video.name,
        "fps": world.fps,
        "frames": len(world.frames),
        "duration_s": round(len(world.frames) / world.fps, 2),
        "image_size": list(camera.image_size),
        "final_score": dict(zip(st.players, st.scores, strict=True)),
        "frame_over": st.frame_over,
        "render_s": round(render_s, 2),
    }
    gt = {"version": GT_VERSION, "summary": summary, "camera": camera.to_dict(),
          "table": world.table.to_dict(), "shots": shots, "frames": frames_gt}
    with gzip.open(out / f"{name}.gt.json.gz", "wt", encoding="utf-8") as fh:
        json.dump(gt, fh, separators=(",", ":"))
    with open(out / f"{name}.log.jsonl", "w", encoding="utf-8") as fh:
        fh.write(f"// Made by snooker-tracker synth ({name}): the shot records a perfect perception "
                 "would write.\n")
        for line in world.log_lines():
            fh.write(json.dumps(line) + "\n")
    (out / f"{name}.camera.json").write_text(json.dumps(camera.to_dict(), indent=1))
    return summary
