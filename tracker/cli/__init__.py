"""The ``snooker-tracker`` command line.

Subcommands: ``referee``, ``process``, ``calibrate``, ``pots``, ``serve``, ``export``,
``report``, ``checkerboard``, ``synth``, ``eval`` (``snooker-tracker -h``).

Bad input is refused at this boundary with one line on standard error that says what is wrong
and what to do (the limits: docs/LIMITS.md); standard output carries only the calls and
results. Diagnostics go through :mod:`logging` (``-v`` for more). One module per command
(:mod:`~tracker.cli.referee`, :mod:`~tracker.cli.process`, :mod:`~tracker.cli.camera`:
calibrate, checkerboard, pots; :mod:`~tracker.cli.serve`: serve, batch, hall;
:mod:`~tracker.cli.store`: export, report; :mod:`~tracker.cli.synth`,
:mod:`~tracker.cli.evaluate`), what they share in :mod:`~tracker.cli.common`. Exit codes:

- 0: done (``process`` also when the video ended early: the summary says so);
- 1: ``eval`` found a metric worse than its reference (a regression);
- 2: bad input: what was given must change (also argparse's own usage errors);
- 3: this installation or folder lacks what the command needs (an extra, the source checkout);
- 70: a bug: an unexpected error; its traceback is written to a file the message names;
- 130: interrupted (Ctrl-C); ``process`` keeps its calls and says how to go on (``--resume``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path

from tracker.cli import camera, evaluate, process, referee, serve, store, synth
from tracker.cli.common import (
    CRASH_DIR_ENV,
    DETECTORS,
    EXIT_BAD_INPUT,
    EXIT_BUG,
    EXIT_INTERRUPTED,
    EXIT_MISSING,
    EXIT_OK,
    EXIT_REGRESSION,
    UserError,
    one_line,
)

__all__ = ["CRASH_DIR_ENV", "DETECTORS", "EXIT_BAD_INPUT", "EXIT_BUG", "EXIT_INTERRUPTED",
           "EXIT_MISSING", "EXIT_OK", "EXIT_REGRESSION", "UserError", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    p = argparse.ArgumentParser(prog="snooker-tracker",
                                description="A camera referee for snooker.",
                                epilog="Exit codes: 0 done, 1 eval found a regression, 2 bad "
                                       "input, 3 something this installation lacks, 70 a bug, "
                                       "130 interrupted. Limits on inputs: docs/LIMITS.md.")
    p.add_argument("-v", "--verbose", action="count", default=0,
                   help="more diagnostics on standard error (-vv: debugging detail)")
    verbose = argparse.ArgumentParser(add_help=False)  # -v after the subcommand works too
    verbose.add_argument("-v", "--verbose", action="count", default=argparse.SUPPRESS,
                         help="more diagnostics on standard error (-vv: debugging detail)")
    sub = p.add_subparsers(dest="command", required=True)

    def add(name: str, **kw) -> argparse.ArgumentParser:
        return sub.add_parser(name, parents=[verbose], **kw)

    referee.add_referee_parser(add)
    synth.add_synth_parser(add)
    camera.add_calibrate_parser(add)
    process.add_process_parser(add)
    serve.add_serve_parser(add)
    serve.add_batch_parser(add)
    serve.add_hall_parser(add)
    store.add_export_parser(add)
    store.add_report_parser(add)
    camera.add_checkerboard_parser(add)
    camera.add_pots_parser(add)
    evaluate.add_eval_parser(add)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``snooker-tracker`` console script: runs a subcommand and turns
    whatever stops it into one line on standard error and an exit code (module docstring)."""
    args = build_parser().parse_args(argv)
    _set_up_logging(args.verbose)
    try:
        return int(args.func(args))
    except UserError as exc:
        print(f"snooker-tracker {args.command}: {one_line(exc)}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        print(f"snooker-tracker {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (`... | head`): nothing more to say
        _silence_stdout()
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - the last resort: a bug, said so in one line
        where = _write_crash_log(argv, exc)
        print(f"snooker-tracker {args.command}: internal error (a bug, not your input): "
              f"{type(exc).__name__}: {one_line(exc, 200)}; the traceback is in {where}; "
              "please report it", file=sys.stderr)
        return EXIT_BUG


def _set_up_logging(verbose: int) -> None:
    """Diagnostics on standard error: warnings, with ``-v`` information, ``-vv`` debugging.
    FFmpeg's own messages (a damaged file's noise) are kept quiet unless ``-v``: what matters
    is said in the summary."""
    level = logging.WARNING if not verbose else logging.INFO if verbose == 1 else logging.DEBUG
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("snooker-tracker: %(levelname)s: %(message)s"))
    for name in ("tracker", "calibration"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level)
        logger.propagate = False
    if not verbose:
        os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # AV_LOG_QUIET
        os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")


def _write_crash_log(argv: Sequence[str] | None, exc: BaseException) -> str:
    """Write the traceback of an unexpected error to a file; returns its path (or a note)."""
    folder = Path(os.environ.get(CRASH_DIR_ENV) or tempfile.gettempdir())
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"snooker-tracker-crash-{stamp}-{os.getpid()}.log"
    text = (f"snooker-tracker {' '.join(sys.argv[1:] if argv is None else argv)}\n"
            f"python {sys.version.split()[0]}\n\n"
            + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError:
        return "(no file could be written: run again with -v)"
    return str(path)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
