"""``snooker-tracker eval``: measure accuracy and speed; ``--fast``: the CI regression check."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from tracker.cli.common import EXIT_MISSING, UserError, one_line, output_file


def cmd_eval(args: argparse.Namespace) -> int:
    """Measure the system; with --fast, the CI subset against the stored references."""
    import subprocess

    from tracker import evaluate
    from tracker.evaluate import compare, fast_metrics, reference_from
    from tracker.synth import physics

    if not evaluate.SAMPLES.is_dir() or not (evaluate.ROOT / "bench").is_dir():
        raise UserError("eval measures the project against its sample clips and benches, which "
                        "only a source checkout has (sample_videos/, bench/): run it in a "
                        "clone of the repository, installed with pip install -e "
                        "'.[test,synth]' && pip install --no-deps pooltool-billiards==0.6.0",
                        EXIT_MISSING)
    metrics_out = output_file("--metrics", args.metrics)
    ref_path = Path(args.reference) if args.reference else evaluate.REFERENCE
    if not args.update_reference and not ref_path.is_file():
        raise UserError(f"no reference at {ref_path}; make one with --update-reference",
                        EXIT_MISSING)
    try:
        physics.ensure_pooltool()
    except physics.PhysicsUnavailable as exc:
        raise UserError(f"eval needs pooltool: {exc}", EXIT_MISSING) from None
    if not args.fast:
        root = evaluate.ROOT
        for script in ("bench/referee_crosscheck.py", "bench/calibration_accuracy.py",
                       "bench/perception.py", "bench/scenario_videos.py overhead",
                       "bench/scenario_videos.py broadcast", "bench/real_footage.py",
                       "bench/stills.py auto --write-doc", "bench/real_process.py --write-doc",
                       "bench/calibration_split.py --write-doc",
                       "bench/calibration_truth.py --write-doc",
                       "bench/first_contact.py overhead 10 90", "bench/first_contact.py broadcast 5 90",
                       "bench/render_speed.py", "bench/pipeline_speed.py"):
            print(f"== {script}", flush=True)
            name, *extra = script.split()
            rc = subprocess.call([sys.executable, str(root / name), *extra], cwd=root)
            if rc:
                raise UserError(f"{script} failed (exit {rc})", rc)
    try:
        metrics = fast_metrics()
    except (physics.PhysicsUnavailable, ImportError) as exc:
        raise UserError(f"eval needs the synth extra: {exc}", EXIT_MISSING) from None
    if not any(k.startswith("real.") for k in metrics):
        print("eval: ../shared/footage not present: the real-footage metrics are skipped")
    metrics_out.write_text(json.dumps(metrics, indent=1))
    print(json.dumps(metrics, indent=1))
    if args.update_reference:
        old = json.loads(ref_path.read_text()) if ref_path.exists() else None
        ref_path.write_text(json.dumps(reference_from(metrics, old), indent=1) + "\n")
        print(f"reference written: {ref_path}")
        return 0
    try:
        reference = json.loads(ref_path.read_text(encoding="utf-8"))
    except (ValueError, OSError) as exc:
        raise UserError(f"{ref_path}: not a reference file ({one_line(exc, 100)}); make one "
                        "with --update-reference") from None
    regressions = compare(metrics, reference)
    for r in regressions:
        print(f"REGRESSION {r}", file=sys.stderr)
    print(f"{len(metrics) - len(regressions)} passed, {len(regressions)} failed")
    return 1 if regressions else 0


def add_eval_parser(add: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``eval`` subcommand's arguments (``add``: makes a subparser by name)."""
    ev = add("eval", help="measure accuracy and speed; --fast: the CI regression check")
    ev.add_argument("--fast", action="store_true", help="only the CI subset (a few minutes)")
    ev.add_argument("--metrics", default="out/metrics.json", help="where to write the metrics")
    ev.add_argument("--reference", help="reference metrics (default bench/reference-metrics.json)")
    ev.add_argument("--update-reference", action="store_true",
                    help="store the measured metrics as the new reference (a deliberate commit)")
    ev.set_defaults(func=cmd_eval)
