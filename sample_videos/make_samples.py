"""Regenerate the bundled sample clips and their README table.

    POOLTOOL_HOME=/tmp/pooltool python sample_videos/make_samples.py

Each clip is made by the project's own generator (``snooker-tracker synth``): the video, its
exact ground truth (``.gt.json.gz``), the match log a perfect perception would write
(``.log.jsonl``) and the camera (``.camera.json``).
"""

from __future__ import annotations

import json
from pathlib import Path

from calibration.camera import CameraModel
from calibration.table import STANDARD_TABLE as T
from tracker.synth.physics import Physics
from tracker.synth.render import RenderStyle
from tracker.synth.scenarios import build
from tracker.synth.video import write_clip

HERE = Path(__file__).parent
SAMPLES = [
    # name, scenario, camera, seed, max seconds, what happens
    ("overhead_frame", "frame", "overhead", 11, 50.0,
     "Overhead hall camera: break-off, then the bot plays on: pots of reds and colours, fouls."),
    ("broadcast_pots", "pots", "broadcast", 0, None,
     "TV main camera: a red, the black (re-spotted), another red."),
    ("overhead_miss", "foul_and_miss", "overhead", 0, None,
     "Red in full view, the yellow hit first: FOUL AND A MISS, balls replaced, replayed."),
    ("overhead_free_ball", "free_ball", "overhead", 0, None,
     "No-contact foul leaves the opponent snookered behind the black: FREE BALL taken."),
]


def main() -> None:
    physics = Physics()
    rows = []
    for name, scenario, cam_name, seed, max_s, what in SAMPLES:
        world = build(scenario, seed=seed, physics=physics, players=("Ann", "Bob"),
                      max_seconds=max_s)
        cam = (CameraModel.overhead(T.length, T.width) if cam_name == "overhead"
               else CameraModel.broadcast(T.length, T.width))
        summary = write_clip(world, cam, HERE, name, RenderStyle(seed=seed), progress=False,
                             description=what)
        fouls = sum(1 for o in world.outputs if o.get("foul"))
        pots = sum(len(o.get("potted", [])) for o in world.outputs if "potted" in o)
        score = " – ".join(f"{p} {s}" for p, s in summary["final_score"].items())
        rows.append(f"| `{name}.mp4` | {cam_name} | {summary['duration_s']:.0f} s | "
                    f"{len(world.shots)} | {pots} | {fouls} | {what} | {score} |")
        print(json.dumps(summary))
    table = "\n".join(rows)
    text = (HERE / "README.template.md").read_text().replace("{{TABLE}}", table)
    (HERE / "README.md").write_text(text)


if __name__ == "__main__":
    main()
