"""``snooker-tracker synth match OUT``: a synthetic match video with its truth (issue 28)."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

from tracker.cli.common import EXIT_MISSING, UserError, output_dir


def cmd_synth_match(args: argparse.Namespace) -> int:
    """Play, render and write a synthetic match (tracker.synth.match_render)."""
    try:
        from tracker.synth.match_render import make_match
        from tracker.synth.match_video import MatchPlan
        from tracker.synth.physics import PhysicsUnavailable
        from tracker.synth.scenarios import ScenarioFailed
    except ImportError as exc:
        raise UserError(f"missing dependency ({exc.name}); install the synth extra: "
                        "pip install -e '.[synth]' && pip install --no-deps "
                        "pooltool-billiards==0.6.0", EXIT_MISSING) from None
    from calibration.limits import FPS, IMAGE_SIDE_PX, within
    from tracker.cli.common import number_arg

    if not args.folder:
        raise UserError("say where to write the match: snooker-tracker synth match OUT")
    plan = MatchPlan().short() if args.short else MatchPlan()
    size = args.size or "x".join(str(v) for v in plan.size)
    try:
        w_px, h_px = (int(v) for v in size.lower().split("x"))
    except ValueError:
        raise UserError(f"--size must look like 1280x720, got {size!r}") from None
    if not (within(w_px, IMAGE_SIDE_PX) and within(h_px, IMAGE_SIDE_PX)):
        raise UserError(f"--size {size}: each side must be {IMAGE_SIDE_PX[0]} to "
                        f"{IMAGE_SIDE_PX[1]} px")
    number_arg("--fps", args.fps, FPS, "frames per second")
    if not 0 <= args.seed < 2**32:
        raise UserError(f"--seed must be 0 or more, got {args.seed}")
    plan = replace(plan, size=(w_px, h_px), fps=args.fps, seed=args.seed)
    if args.idle is not None:
        if not 0 <= args.idle <= 3600:
            raise UserError(f"--idle must be 0 to 3600 seconds, got {args.idle:g}")
        plan = replace(plan, idle_empty_s=args.idle, idle_walkers_s=args.idle)
    if args.players:
        plan = replace(plan, players=tuple(args.players))
    output_dir("OUT", args.folder)
    bar = None
    if not args.quiet:
        from tqdm import tqdm

        bar = tqdm(desc="rendering the match", unit="frame")

    def progress(done: int, total: int) -> None:
        if bar is not None:
            bar.total = total
            bar.update(done - bar.n)

    try:
        summary = make_match(plan, args.folder, args.name or "match", progress)
    except PhysicsUnavailable as exc:
        raise UserError(str(exc), EXIT_MISSING) from None
    except ScenarioFailed as exc:
        raise UserError(f"the match could not be played with seed {args.seed} ({exc}); "
                        "try another --seed") from None
    finally:
        if bar is not None:
            bar.close()
    print(json.dumps(summary))
    return 0
