"""``snooker-tracker synth``: a synthetic clip with exact ground truth."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from tracker.cli.common import EXIT_MISSING, UserError, number_arg, output_dir


def cmd_synth(args: argparse.Namespace) -> int:
    """Make a synthetic clip with exact ground truth."""
    try:
        from calibration.camera import CameraModel
        from calibration.table import STANDARD_TABLE
        from tracker.synth.physics import PhysicsUnavailable
        from tracker.synth.render import RenderStyle
        from tracker.synth.scenarios import SCENARIOS, ScenarioFailed, build
        from tracker.synth.video import write_clip
    except ImportError as exc:
        raise UserError(f"missing dependency ({exc.name}); install the synth extra: "
                        "pip install -e '.[synth]' && pip install --no-deps "
                        "pooltool-billiards==0.6.0", EXIT_MISSING) from None
    from calibration.limits import FPS, IMAGE_SIDE_PX, within

    if args.what == "match":
        from tracker.cli.synth_match import cmd_synth_match

        return cmd_synth_match(args)
    if args.what is not None:
        raise UserError(f"synth makes a clip (no word) or a match (synth match OUT), not {args.what!r}")
    args.size = args.size or "1920x1080"
    if args.scenario not in SCENARIOS:
        raise UserError(f"unknown scenario {args.scenario!r}; choose one of: "
                        + ", ".join(SCENARIOS))
    try:
        w_px, h_px = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise UserError(f"--size must look like 1920x1080, got {args.size!r}") from None
    if not (within(w_px, IMAGE_SIDE_PX) and within(h_px, IMAGE_SIDE_PX)):
        raise UserError(f"--size {args.size}: each side must be {IMAGE_SIDE_PX[0]} to "
                        f"{IMAGE_SIDE_PX[1]} px")
    number_arg("--fps", args.fps, FPS, "frames per second")
    for option, value in (("--frames", args.frames), ("--seed", args.seed),
                          ("--chalk-marks", args.chalk_marks), ("--rings", args.rings)):
        if not 0 <= value < 2**32:
            raise UserError(f"{option} must be 0 or more, got {value}")
    output_dir("--out", args.out)
    t = STANDARD_TABLE
    camera = (CameraModel.overhead(t.length, t.width, (w_px, h_px)) if args.camera == "overhead"
              else CameraModel.broadcast(t.length, t.width, (w_px, h_px)))
    max_s = args.frames / args.fps if args.frames else None
    try:
        world = build(args.scenario, seed=args.seed, fps=args.fps, max_seconds=max_s)
    except PhysicsUnavailable as exc:
        raise UserError(str(exc), EXIT_MISSING) from None
    except ScenarioFailed as exc:
        raise UserError(str(exc)) from None
    name = args.name or f"{args.scenario}_{args.camera}_s{args.seed}"
    style = RenderStyle(seed=args.seed, chalk_marks=args.chalk_marks, projected_rings=args.rings)
    summary = write_clip(world, camera, args.out, name, style,
                         progress=not args.quiet, description=SCENARIOS[args.scenario][0])
    print(json.dumps(summary))
    return 0


def add_synth_parser(add: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``synth`` subcommand's arguments (``add``: makes a subparser by name)."""
    s = add("synth", help="make a synthetic clip with exact ground truth (needs [synth]); "
                          "'synth match OUT': a whole match (several frames, re-racks, idle "
                          "table, a knocked camera) with its truth")
    s.add_argument("what", nargs="?", help="'match' for a whole match")
    s.add_argument("folder", nargs="?", help="with 'match': the folder to write it into")
    s.add_argument("--scenario", default="frame", help="scenario name (default: a bot frame)")
    s.add_argument("--frames", type=int, default=0,
                   help="approximate length of a bot frame in video frames (the bot starts no "
                        "stroke after it)")
    s.add_argument("--camera", choices=("overhead", "broadcast"), default="overhead")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--fps", type=float, default=25.0)
    s.add_argument("--size", help="image size WxH (default 1920x1080; a match 1280x720)")
    s.add_argument("--out", default="out/synth", help="output folder")
    s.add_argument("--name", help="clip name (default: scenario_camera_sSEED)")
    s.add_argument("--chalk-marks", type=int, default=0, help="chalk smudges on the cloth")
    s.add_argument("--rings", type=int, default=0, help="projected rings on the cloth")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.add_argument("--short", action="store_true",
                   help="with 'match': the tiny version (frames of a few strokes, 10 s idles)")
    s.add_argument("--idle", type=float,
                   help="with 'match': seconds of each idle stretch (default 60; --short 10)")
    s.add_argument("--players", nargs=2, metavar=("A", "B"),
                   help="with 'match': the two players (A breaks first)")
    s.set_defaults(func=cmd_synth)
