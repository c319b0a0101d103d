"""The ``snooker-tracker`` command line.

Subcommands: ``referee``, ``process``, ``calibrate``, ``pots``, ``serve``, ``export``,
``report``, ``checkerboard``, ``synth``, ``eval`` (``snooker-tracker -h``).

Bad input is refused at this boundary with one line on standard error that says what is wrong
and what to do (the limits: docs/LIMITS.md); standard output carries only the calls and
results. Diagnostics go through :mod:`logging` (``-v`` for more). Exit codes:

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
import json
import logging
import math
import os
import sys
import tempfile
import traceback
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from tracker.records.parse import RecordError, read_log
from tracker.rules.explain import explain
from tracker.rules.match import Match
from tracker.rules.snooker import RuleError

#: ``--detector`` choices (as :data:`tracker.perception.learned.DETECTORS`; kept here so the
#: referee commands do not import OpenCV).
DETECTORS = ("colour", "learned", "auto")

EXIT_OK = 0
EXIT_REGRESSION = 1
EXIT_BAD_INPUT = 2
EXIT_MISSING = 3
EXIT_BUG = 70
EXIT_INTERRUPTED = 130
#: Where the traceback of a bug is written (default: the system's temporary folder).
CRASH_DIR_ENV = "SNOOKER_TRACKER_CRASH_DIR"

log = logging.getLogger("tracker.cli")


class UserError(Exception):
    """A command cannot go on because of what it was given (or lacks): one line for a person
    and the exit code."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT):
        super().__init__(message)
        self.code = code


def one_line(text: object, limit: int = 600) -> str:
    """``text`` on one line (whitespace runs folded), at most ``limit`` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


# ------------------------------------------------------------------ checks of options
def _output_dir(option: str, path: str | Path) -> Path:
    """A folder the command may write into: created if absent (UserError if it cannot be)."""
    p = Path(path)
    _check_parent_chain(option, p)
    if p.exists() and not p.is_dir():
        raise UserError(f"{option} {p} is a file, not a folder; give a folder (it is made if "
                        "it does not exist)")
    try:
        p.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=p):
            pass
    except OSError as exc:
        raise UserError(f"{option} {p}: cannot write there ({exc.strerror or exc}); give a "
                        "folder you can write") from None
    return p


def _output_file(option: str, path: str | Path, force: bool | None = None) -> Path:
    """A file the command may write: its folder made if absent; an existing file is refused
    unless ``force`` (None: derived outputs, replaced freely). UserError otherwise."""
    if not str(path).strip():
        raise UserError(f"{option} is empty; give a file name")
    p = Path(path)
    _check_parent_chain(option, p)
    if p.is_dir():
        raise UserError(f"{option} {p} is a folder; give a file name")
    if force is False and p.exists():
        raise UserError(f"{option} {p} exists; give --force to replace it, or another name")
    _output_dir(option, p.parent if str(p.parent) else ".")
    return p


def _check_parent_chain(option: str, p: Path) -> None:
    """Every existing ancestor of ``p`` must be a folder (``/dev/null/x`` cannot be made)."""
    for anc in [p, *p.parents][::-1]:
        if anc.exists() and not anc.is_dir() and anc != p:
            raise UserError(f"{option} {p}: {anc} is a file, not a folder; give a path in a "
                            "folder you can write")


def _players(names: Sequence[str] | None) -> tuple[str, str]:
    from calibration.limits import check_name

    if not names:
        return ("A", "B")
    try:
        a, b = (check_name("--players: a player's", n) for n in names)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if " ".join(a.split()).casefold() == " ".join(b.split()).casefold():
        raise UserError(f"--players: the two players must have different names, got {a!r} "
                        "twice; give both names (the first breaks)")
    return a, b


def _number(option: str, value: float | None, bounds: tuple[float, float], unit: str = "",
            ) -> float | None:
    from calibration.limits import check_range

    if value is None:
        return None
    try:
        return check_range(option, value, bounds, unit)
    except ValueError as exc:
        raise UserError(str(exc)) from None


def _example_log() -> Path:
    return Path(str(resources.files("tracker").joinpath("examples/example-frame.jsonl")))


def cmd_referee(args: argparse.Namespace) -> int:
    """Referee a match log and print one JSON decision per shot, then the scoreboard."""
    path = Path(args.log) if args.log else _example_log()
    match = Match()
    out = sys.stdout
    try:
        for line_no, rec in read_log(path):
            try:
                results = match.feed(rec)
            except RuleError as exc:
                raise RecordError(str(exc), line_no) from None
            for res in results:
                if args.explain:
                    out.write(explain(res) + "\n")
                else:
                    out.write(json.dumps(res) + "\n")
    except RecordError as exc:
        if exc.line is None:  # the file as a whole (its message names it)
            raise UserError(str(exc)) from None
        raise UserError(f"{path}: {exc}; nothing from that line on was refereed: fix the "
                        "record and run again") from None
    board = scoreboard(match)
    if args.explain:
        out.write(board["text"] + "\n")
    else:
        out.write(json.dumps({k: v for k, v in board.items() if k != "text"}) + "\n")
    return 0


def scoreboard(match: Match) -> dict[str, object]:
    """The final scoreboard: frames won, the current frame's score and state."""
    st = match.state
    score = dict(zip(st.players, st.scores, strict=True)) if st else {}
    text = "SCOREBOARD  "
    if match.players:
        a, b = match.players
        text += f"{a} {match.frames_won.get(a, 0)} ({score.get(a, 0)})  -  " \
                f"({score.get(b, 0)}) {match.frames_won.get(b, 0)} {b}"
        text += f"   best of {match.best_of}"
        if match.aggregate:
            text += f"   aggregate {a} {match.totals.get(a, 0)} - {match.totals.get(b, 0)} {b}"
    if match.match_over:
        text += f"   MATCH: {match.match_winner()}"
    return {
        "scoreboard": True,
        "frames_won": dict(match.frames_won),
        "aggregate": dict(match.totals) if match.aggregate else None,
        "frame_score": score,
        "frame_over": bool(st and st.frame_over),
        "match_over": match.match_over,
        "text": text,
    }


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
    _number("--fps", args.fps, FPS, "frames per second")
    for option, value in (("--frames", args.frames), ("--seed", args.seed),
                          ("--chalk-marks", args.chalk_marks), ("--rings", args.rings)):
        if not 0 <= value < 2**32:
            raise UserError(f"{option} must be 0 or more, got {value}")
    _output_dir("--out", args.out)
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


def _table_from_args(size: str | None, ball: float | None):
    """The table of ``--table-size`` and ``--ball-diameter`` (None when neither is given).

    Raises:
        UserError: a size that does not parse or lies outside docs/LIMITS.md.
    """
    from calibration.table import STANDARD_BALL_DIAMETER_MM, TableGeometry

    if not size and ball is None:
        return None
    ball = STANDARD_BALL_DIAMETER_MM if ball is None else ball
    if not size:
        length, width = 3569.0, 1778.0
    else:
        try:
            length, width = (float(v) for v in size.lower().replace("×", "x").split("x"))
        except ValueError:
            raise UserError(f"--table-size must look like 3569x1778 (LENGTHxWIDTH, mm), got "
                            f"{size!r}") from None
        if not (math.isfinite(length) and math.isfinite(width)):
            raise UserError(f"--table-size must be two finite numbers of mm, got {size!r}")
    try:
        return TableGeometry.of_size(length, width, ball)
    except ValueError as exc:
        option = "--ball-diameter" if "ball" in str(exc) else "--table-size"
        raise UserError(f"{option}: {exc} (limits: docs/LIMITS.md)") from None


def _read_json_option(option: str, text: str) -> object:
    """The JSON of an option that takes a file or inline JSON (UserError if neither)."""
    p = Path(text)
    if p.is_dir():
        raise UserError(f"{option} {p} is a folder; give a JSON file")
    if p.is_file():
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"{option} {p}: cannot read it as UTF-8 text ({exc}); give a JSON "
                            "file") from None
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        what = "its JSON is malformed" if p.is_file() else "neither a file nor JSON"
        raise UserError(f"{option} {text[:60]!r}: {what} ({getattr(exc, 'msg', exc)}); see "
                        "docs/CALIBRATION.md") from None
    if not _finite_json(value):
        raise UserError(f"{option}: every number must be finite (no 1e400, NaN or Infinity)")
    return value


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number")


def _finite_json(value: object) -> bool:
    """Whether every number in a JSON value is finite."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite_json(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite_json(v) for v in value)
    return True


def _lens(path: str | None):
    """(K, dist) of a ``--lens`` file (UserError if it is not one)."""
    import numpy as np

    if not path:
        return None
    if not Path(path).is_file():
        raise UserError(f"--lens {path}: no such file; make one with `snooker-tracker "
                        "checkerboard IMAGES --out LENS.json`")
    d = _read_json_option("--lens", path)
    try:
        K = np.asarray(d["K"], float)  # type: ignore[index]
        dist = np.asarray(d["dist"], float)  # type: ignore[index]
        if K.shape != (3, 3) or dist.ndim != 1 or not (np.isfinite(K).all()
                                                      and np.isfinite(dist).all()):
            raise ValueError("K must be 3x3 and dist a list of finite numbers")
    except KeyError as exc:
        raise UserError(f"--lens {path}: not a lens file (no {exc.args[0]!r}: a lens file "
                        "holds K and dist); make one with `snooker-tracker checkerboard`") from None
    except (TypeError, ValueError) as exc:
        raise UserError(f"--lens {path}: not a lens file ({exc}); make one with "
                        "`snooker-tracker checkerboard`") from None
    return K.tolist(), dist.tolist()


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Calibrate from an image or a video frame; write the profile and a rectified picture."""
    import cv2

    from calibration.auto import calibrate_points
    from calibration.finder import TableNotFound
    from calibration.io import MediaError, read_frame
    from calibration.limits import HFOV_DEG
    from calibration.profile import CalibrationError
    from calibration.rectify import overlay, rectified
    from calibration.table import TableGeometry
    from tracker.perception.calibrate import calibrate_image

    out = _output_file("--out", args.out, force=args.force)
    hfov = _number("--hfov", args.hfov, HFOV_DEG, "degrees")
    if args.frame is not None and args.frame < 0:
        raise UserError(f"--frame {args.frame}: frame numbers start at 0")
    table = _table_from_args(args.table_size, args.ball_diameter) or TableGeometry.standard()
    points = _read_json_option("--points", args.points) if args.points else None
    if points is not None and not isinstance(points, (dict, list)):
        raise UserError("--points must be a JSON object of named landmarks or a list of "
                        '{"px": [u, v], "mm": [x, y]} items (docs/CALIBRATION.md)')
    lens = _lens(args.lens)
    try:
        img = read_frame(args.source, args.frame)
        h, w = img.shape[:2]
        if points is not None:
            try:
                cal = calibrate_points(points, table, (w, h), hfov)
            except CalibrationError as exc:
                raise CalibrationError(f"--points: {exc}") from None
            except (TypeError, KeyError, IndexError, ValueError) as exc:
                raise CalibrationError(f"--points: malformed points ({one_line(exc, 120)}); "
                                       "see docs/CALIBRATION.md") from None
        else:
            cal = calibrate_image(img, table, hfov, lens=lens)
    except TableNotFound as exc:
        hint = "" if "--points" in str(exc) else "; give the corners by hand with --points"
        raise UserError(f"no table found: {exc}{hint} (docs/CALIBRATION.md)") from None
    except (MediaError, CalibrationError) as exc:
        raise UserError(f"cannot calibrate: {exc}") from None
    stem = out.with_suffix("")
    try:
        cal.save(out)
        cv2.imwrite(str(stem) + ".rectified.png", rectified(img, cal))
        cv2.imwrite(str(stem) + ".overlay.jpg", overlay(img, cal))
    except OSError as exc:
        raise UserError(f"--out {out}: cannot write ({exc.strerror or exc})") from None
    summary = {"profile": str(out), "rectified": str(stem) + ".rectified.png",
               "fit_error_mm": cal.fit_error_mm, "method": cal.method,
               "orientation": cal.orientation, "focal": cal.focal, "notes": cal.notes}
    print(json.dumps(summary))
    return 0


def cmd_process(args: argparse.Namespace) -> int:
    """Referee a video end to end (``--resume``: go on with a cut-off run)."""
    from calibration.profile import Calibration, CalibrationError
    from tracker.outputs.store import StoreError
    from tracker.perception.learned import LearnedUnavailable
    from tracker.pipeline import VideoError, inputs_from_log, process_video, spoken_from_log
    from tracker.resume import ResumeError, resume_point

    if not args.out.strip():
        raise UserError("--out is empty; give the folder to write the run into")
    out = Path(args.out)
    opts = _resumed_options(args, out) if args.resume else _new_run_options(args, out)
    players = tuple(opts.players)
    table = _table_from_args(opts.table_size, opts.ball_diameter)
    try:
        cal = Calibration.load(opts.calibration) if opts.calibration else None
        if cal is not None and table is not None and (table.length, table.width,
                                                      table.ball_diameter) != (
                cal.table.length, cal.table.width, cal.table.ball_diameter):
            raise UserError(f"--table-size/--ball-diameter differ from the calibration "
                            f"profile's table ({cal.table.length:g}x{cal.table.width:g} mm, "
                            f"{cal.table.ball_diameter:g} mm balls); leave them out (the "
                            "profile's table is used) or calibrate again")
        inputs = inputs_from_log(opts.inputs) if opts.inputs else None
        spoken = spoken_from_log(opts.inputs) if opts.inputs else None
        point = resume_point(out, opts) if args.resume else None
    except RecordError as exc:
        where = f"--inputs {opts.inputs}: " if exc.line is not None else ""
        raise UserError(where + one_line(exc)) from None
    except (CalibrationError, ResumeError) as exc:
        raise UserError(one_line(exc)) from None
    _output_dir("--out", out)
    if args.overlay:
        _output_file("--overlay", args.overlay, force=args.force or args.resume)
    if point is not None:
        opts.pid = os.getpid()
        opts.save(out)
        log.info("resuming the run in %s: %d records (%d strokes) already called are met "
                 "again first", out, len(point.records), point.strokes)
    size = _size_arg(args.size)
    previous = _terminate_as_interrupt()
    try:
        listeners = _process_listeners(args, opts, point)
        server = _start_server(args) if args.serve is not None else None
        res = process_video(opts.video, out, calibration=cal, players=players, table=table,
                            progress=not args.quiet, on_call=lambda s: print(s, flush=True),
                            inputs=inputs, max_frames=opts.max_frames, spoken=spoken,
                            listeners=listeners, detector=opts.detector,
                            resume=point, size=size, fps=args.fps,
                            on_note=lambda s: print(s, file=sys.stderr, flush=True))
    except KeyboardInterrupt:
        raise UserError(f"interrupted: the calls so far are kept in {out}; go on with: "
                        f"snooker-tracker process --resume --out {out}", EXIT_INTERRUPTED) from None
    except LearnedUnavailable as exc:
        raise UserError(one_line(exc), EXIT_MISSING) from None
    except (VideoError, CalibrationError, RecordError, StoreError) as exc:
        raise UserError(one_line(exc)) from None
    except RuleError as exc:  # the frame start (from --inputs, or as seen) cannot start a frame
        raise UserError(f"the frame cannot start: {one_line(exc)}; check the frame_start line "
                        "of --inputs") from None
    except OSError as exc:
        raise UserError(f"{exc.filename or out}: {exc.strerror or exc}; check the paths and "
                        "free space") from None
    finally:
        _restore_terminate(previous)
    summary = {"score": res.score, "shots": len(res.shots), "frames": res.frames,
               "not_refereed_frames": res.not_refereed_frames, "out": args.out}
    if point is not None:
        summary["resumed_after_strokes"] = point.strokes
    if res.skipped_frames or res.dropped_frames or res.gaps or res.startup_skipped:
        summary["live"] = {"skipped_frames": res.skipped_frames,
                           "startup_skipped": res.startup_skipped,
                           "skipped_while_moving": res.skipped_forced,
                           "dropped_frames": res.dropped_frames,
                           "gaps_s": [[round(a, 2), round(b, 2)] for a, b in res.gaps]}
    if res.end is not None:
        summary["video_end"] = res.end.reason
        if not res.end.clean:
            summary["warning"] = res.end.message
            log.warning("%s", res.end.message)
    print(json.dumps(summary), flush=True)
    if server is not None:
        print("processing done; the pages stay up until Ctrl-C", flush=True)
        try:
            while server.thread.is_alive():
                server.thread.join(0.5)
        except KeyboardInterrupt:
            server.stop()
    return 0


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _size_arg(text: str | None) -> tuple[int, int] | None:
    """``--size WxH`` as (width, height) px."""
    if not text:
        return None
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(f"--size {text}: give the frame size as WIDTHxHEIGHT, e.g. "
                        "1920x1080") from None
    if w <= 0 or h <= 0:
        raise UserError(f"--size {text}: width and height must be positive")
    return w, h


def _terminate_as_interrupt() -> object:
    """SIGTERM (a service manager or ``kill`` stopping the run) ends ``process`` as Ctrl-C
    does: the calls are kept and the run can be resumed. Returns the previous handler."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _raise_interrupt)


def _restore_terminate(previous: object) -> None:
    import signal

    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


#: ``process`` options that decide a run's calls (a resumed run takes them from ``run.json``).
RUN_DEFINING = ("video", "calibration", "players", "inputs", "table_size", "ball_diameter",
                "detector", "max_frames", "no_store")


def _new_run_options(args: argparse.Namespace, out: Path):
    """The options of a new run, checked; a folder that holds a run is refused unless
    ``--force``."""
    from calibration.limits import REALTIME_SPEED
    from tracker.resume import RunOptions, holds_run
    from tracker.samples import SampleMissing, sample_video
    from tracker.sources import is_live_spec

    try:
        video = Path(args.video) if args.video else sample_video()
    except SampleMissing as exc:
        raise UserError(str(exc), EXIT_MISSING) from None
    if args.max_frames is not None and args.max_frames < 1:
        raise UserError(f"--max-frames must be 1 or more, got {args.max_frames}")
    _number("--realtime", args.realtime, REALTIME_SPEED, "times the video's speed")
    players = _players(args.players)
    _table_from_args(args.table_size, args.ball_diameter)  # checked before any work
    _check_parent_chain("--out", out)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} is a file, not a folder; give a folder (it is made if "
                        "it does not exist)")
    held = holds_run(out)
    if held and not args.force:
        raise UserError(f"--out {out} already holds a run ({', '.join(held)}); go on with it: "
                        "--resume, replace it: --force, or give another --out")
    absolute = (lambda p: str(Path(p).resolve()) if p else None)  # noqa: E731
    if args.video and (args.video == "-" or is_live_spec(args.video)):
        video_name = args.video  # a camera, a stream or a pipe: not a path
    else:
        video_name = str(video.resolve()) if video.exists() else str(video)
    return RunOptions(video=video_name,
                      video_bytes=video.stat().st_size if video.is_file() else 0,
                      calibration=absolute(args.calibration), players=list(players),
                      inputs=absolute(args.inputs), table_size=args.table_size,
                      ball_diameter=args.ball_diameter, detector=args.detector or "auto",
                      max_frames=args.max_frames, store=not args.no_store, pid=os.getpid())


def _resumed_options(args: argparse.Namespace, out: Path):
    """The options of the run being resumed (``OUT/run.json``); any run-defining option
    given again must agree with them."""
    from tracker.resume import ResumeError, RunOptions, holds_run

    if args.force:
        raise UserError("give --resume (go on with the run) or --force (replace it), not both")
    if not holds_run(out):
        raise UserError(f"--resume: {out} holds no run: nothing to resume; leave out --resume "
                        "to start one")
    try:
        opts = RunOptions.load(out)
    except ResumeError as exc:
        raise UserError(str(exc)) from None
    given = {"video": args.video and str(Path(args.video).resolve()),
             "calibration": args.calibration and str(Path(args.calibration).resolve()),
             "players": list(args.players) if args.players else None,
             "inputs": args.inputs and str(Path(args.inputs).resolve()),
             "table_size": args.table_size, "ball_diameter": args.ball_diameter,
             "detector": args.detector, "max_frames": args.max_frames,
             "no_store": True if args.no_store else None}
    kept = {**{k: getattr(opts, k) for k in RUN_DEFINING if k != "no_store"},
            "no_store": not opts.store}
    for key, value in given.items():
        if value is not None and value != kept[key]:
            flag = "--" + key.replace("_", "-") if key != "video" else "VIDEO"
            raise UserError(f"--resume goes on with the run's own options ({out}/run.json): "
                            f"{flag} was {kept[key]!r}, not {value!r}; leave it out")
    video = Path(opts.video)
    if not video.is_file():
        raise UserError(f"--resume: the run's video {video} is gone; put it back, or process "
                        "another video with --force")
    if video.stat().st_size != opts.video_bytes:
        raise UserError(f"--resume: the video {video} changed since the run started "
                        f"({opts.video_bytes} bytes then, {video.stat().st_size} now); process "
                        "it again with --force")
    return opts


def _process_listeners(args: argparse.Namespace, opts, point) -> list:  # noqa: ANN001
    """The outputs ``process`` adds to the JSONL files: the run's options (``run.json``), the
    match store (unless ``--no-store``), and what its options ask for."""
    from tracker.outputs.store import STORE_NAME, StoreWriter
    from tracker.resume import OptionsWriter

    listeners: list = [] if point is not None else [OptionsWriter(Path(args.out), opts)]
    store = None
    if opts.store and args.out:
        store = StoreWriter(Path(args.out) / STORE_NAME, str(opts.video),
                            resume_run=point.run_id if point is not None else None)
        listeners.append(store)
    if args.overlay:
        from tracker.outputs.overlay import OverlayWriter

        listeners.append(OverlayWriter(args.overlay))
    if args.serve is not None or args.review_frames:
        from tracker.server.live import ConsoleBridge, ReviewFrames

        listeners.append(ReviewFrames(Path(args.out) / "review"))
        if args.serve is not None:
            if store is None:
                raise UserError("--serve needs the match store: leave out --no-store")
            listeners.append(ConsoleBridge(store))
    if args.realtime:
        from tracker.server.live import RealTimePacer

        listeners.append(RealTimePacer(args.realtime))
    return listeners


def _check_can_listen(host: str, port: int, option: str) -> None:
    """Refuse an address the server could not listen on (in use, not this machine's)."""
    import socket

    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise UserError(f"{option} {host}:{port}: cannot listen there ({exc.strerror or exc}); "
                        "give another HOST:PORT") from None


def _start_server(args: argparse.Namespace):
    """``process --serve``: the live server on a thread, its addresses and token printed."""
    from tracker.outputs.store import STORE_NAME

    try:
        from tracker.server.app import BackgroundServer, new_token, parse_host_port
    except ImportError as exc:
        raise UserError(f"--serve needs the live extra ({exc.name} is missing): "
                        "pip install -e '.[live]'", EXIT_MISSING) from None
    try:
        host, port = parse_host_port(args.serve)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    _check_can_listen(host, port, "--serve")
    token = args.token or new_token()
    server = BackgroundServer(Path(args.out) / STORE_NAME, host, port, token,
                              Path(args.out) / "review")
    _print_urls(host, port, token)
    return server


def _print_urls(host: str, port: int, token: str) -> None:
    base = f"http://{host}:{port}"
    print(f"live: scoreboard {base}/  overlay {base}/overlay  console {base}/console#token={token}",
          flush=True)
    print(f"console token: {token}", flush=True)


def cmd_batch(args: argparse.Namespace) -> int:
    """Referee a folder or list of videos, one task per video (Ray, or a plain loop)."""
    from tracker.scale.batch import BatchError, run_batch

    def said(s: dict) -> None:
        if s.get("status") == "done":
            print(f"{s['name']}: done, {s['shots']} strokes, score "
                  + " - ".join(f"{k} {v}" for k, v in s["score"].items()), flush=True)
        else:
            print(f"{s['name']}: FAILED: {s.get('error')}", file=sys.stderr, flush=True)

    _output_dir("--out", args.out)
    try:
        res = run_batch(args.videos, args.out, use_ray=not args.no_ray, address=args.address,
                        detector=args.detector, on_done=said)
    except BatchError as exc:
        print(f"snooker-tracker batch: {exc}", file=sys.stderr)
        return exc.code
    print(json.dumps(res), flush=True)
    return 1 if res["failed"] else 0


def cmd_hall(args: argparse.Namespace) -> int:
    """Several live tables as Ray actors, one store, one live server."""
    from tracker.scale.batch import BatchError, require_ray
    from tracker.scale.hall import load_config, run_hall

    try:
        cfg = load_config(args.config)
        _output_dir('the hall\'s "out"', cfg["out"])
        require_ray()  # before the server starts
        server = None
        if cfg.get("serve"):
            from tracker.outputs.store import STORE_NAME
            from tracker.server.app import BackgroundServer, new_token, parse_host_port

            host, port = parse_host_port(cfg["serve"])
            token = new_token()
            server = BackgroundServer(Path(cfg["out"]) / STORE_NAME, host, port, token,
                                      Path(cfg["out"]) / "review")
            _print_urls(host, port, token)
        results = run_hall(cfg, on_done=lambda r: print(json.dumps(r), flush=True))
    except (BatchError, ValueError) as exc:
        print(f"snooker-tracker hall: {exc}", file=sys.stderr)
        return getattr(exc, "code", EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        return 130
    if server is not None:
        server.stop()
    return 1 if any(r.get("status") != "done" for r in results) else 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the live pages over a match store (another program processes the video)."""
    from tracker.outputs.store import STORE_NAME, MatchStore, StoreError

    try:
        from tracker.server.app import new_token, parse_host_port, serve_forever
    except ImportError as exc:
        raise UserError(f"needs the live extra ({exc.name} is missing): pip install -e "
                        "'.[live]'", EXIT_MISSING) from None

    path = Path(args.store)
    if path.is_dir():
        path = path / STORE_NAME
    try:
        host, port = parse_host_port(args.listen)
        if path.exists():
            MatchStore(path, readonly=True).close()
    except (ValueError, StoreError) as exc:
        raise UserError(one_line(str(exc).replace("--serve", "--listen"))) from None
    _check_can_listen(host, port, "--listen")
    if not path.exists():
        log.warning("%s does not exist yet: the pages wait for a run to write it", path)
    token = args.token or new_token()
    _print_urls(host, port, token)
    serve_forever(path, host, port, token, args.review or path.parent / "review")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """A match store (or a run's output folder) as JSON or CSV."""
    from tracker.outputs.store import STORE_NAME, MatchStore, StoreError, export_csv, export_json

    path = Path(args.store)
    if path.is_dir():
        path = path / STORE_NAME
    out = _output_file("--out", args.out) if args.out else None
    try:
        store = MatchStore(path, readonly=True)
        text = (json.dumps(export_json(store, args.run), indent=1) + "\n" if args.format == "json"
                else export_csv(store, args.run))
    except StoreError as exc:
        raise UserError(one_line(exc)) from None
    if out is not None:
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UserError(f"--out {out}: cannot write ({exc.strerror or exc})") from None
        print(json.dumps({"export": args.out, "format": args.format}))
    else:
        sys.stdout.write(text)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """An HTML report with plots of a run in a match store."""
    from tracker.outputs.report import write_report
    from tracker.outputs.store import STORE_NAME, StoreError

    path = Path(args.store)
    if path.is_dir():
        path = path / STORE_NAME
    _output_file("--out", args.out)
    try:
        out = write_report(path, args.out, args.run)
    except StoreError as exc:
        raise UserError(one_line(exc)) from None
    except OSError as exc:
        raise UserError(f"--out {args.out}: cannot write ({exc.strerror or exc})") from None
    print(json.dumps({"report": str(out)}))
    return 0


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
    metrics_out = _output_file("--metrics", args.metrics)
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


def cmd_checkerboard(args: argparse.Namespace) -> int:
    """Lens calibration from checkerboard pictures."""
    from calibration.checkerboard import CheckerboardError, calibrate_lens
    from calibration.io import MediaError, read_frame

    out = _output_file("--out", args.out)
    try:
        cols, rows = (int(v) for v in args.inner.lower().split("x"))
    except ValueError:
        raise UserError(f"--inner must look like 9x6 (inner corners), got {args.inner!r}") from None
    if not (2 <= cols <= 100 and 2 <= rows <= 100):
        raise UserError(f"--inner {args.inner}: a board has 2 to 100 inner corners each way")
    if not (math.isfinite(args.square) and 0 < args.square <= 1000):
        raise UserError(f"--square must be the square's side in mm (0 to 1000), got {args.square}")
    try:
        images = [read_frame(p) for p in args.images]
        lens = calibrate_lens(images, (cols, rows), args.square)
    except (MediaError, CheckerboardError) as exc:
        raise UserError(one_line(exc)) from None
    try:
        out.write_text(json.dumps(lens.to_dict(), indent=1))
    except OSError as exc:
        raise UserError(f"--out {out}: cannot write ({exc.strerror or exc})") from None
    print(json.dumps({"lens": args.out, "rms_px": round(lens.rms_px, 3), "views": lens.views}))
    return 0


def cmd_pots(args: argparse.Namespace) -> int:
    """Pots in a clip of one shot (a replay): ball, pocket and time of each, as JSON."""
    from calibration.limits import DETECTOR_SCALE
    from calibration.profile import Calibration, CalibrationError
    from tracker.perception.learned import LearnedUnavailable
    from tracker.perception.potwatch import ClipError, watch_pots

    _number("--scale", args.scale, DETECTOR_SCALE)
    try:
        cal = Calibration.load(args.calibration) if args.calibration else None
        res = watch_pots(args.video, calibration=cal, scale=args.scale, detector=args.detector)
    except LearnedUnavailable as exc:
        raise UserError(one_line(exc), EXIT_MISSING) from None
    except (ClipError, CalibrationError) as exc:
        raise UserError(one_line(exc)) from None
    print(json.dumps({"video": args.video, "frames": res.frames,
                      "potted": bool(res.object_pots()),
                      "pots": [{"ball": b, "pocket": p, "t": round(t, 3)} for b, p, t in res.pots],
                      "calibration_fit_mm": res.calibration.fit_error_mm.get("median")
                      if res.calibration else None}, indent=1))
    return 0


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

    r = add("referee", help="call every shot of a match log (JSONL)")
    r.add_argument("log", nargs="?", help="match log (JSONL); default: the bundled example frame")
    r.add_argument("--explain", action="store_true", help="print each call as a referee says it")
    r.set_defaults(func=cmd_referee)
    s = add("synth", help="make a synthetic clip with exact ground truth (needs [synth])")
    s.add_argument("--scenario", default="frame", help="scenario name (default: a bot frame)")
    s.add_argument("--frames", type=int, default=0,
                   help="approximate length of a bot frame in video frames (the bot starts no "
                        "stroke after it)")
    s.add_argument("--camera", choices=("overhead", "broadcast"), default="overhead")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--fps", type=float, default=25.0)
    s.add_argument("--size", default="1920x1080", help="image size WxH")
    s.add_argument("--out", default="out/synth", help="output folder")
    s.add_argument("--name", help="clip name (default: scenario_camera_sSEED)")
    s.add_argument("--chalk-marks", type=int, default=0, help="chalk smudges on the cloth")
    s.add_argument("--rings", type=int, default=0, help="projected rings on the cloth")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_synth)
    c = add("calibrate", help="find the table in an image or video; write a profile")
    c.add_argument("source", help="image or video file")
    c.add_argument("--out", required=True, help="profile to write (JSON)")
    c.add_argument("--table-size", help="playing area LENGTHxWIDTH in mm (default 3569x1778)")
    c.add_argument("--ball-diameter", type=float, help="mm (default 52.5)")
    c.add_argument("--points", help="manual correspondences: a JSON file or inline JSON "
                                    "(docs/CALIBRATION.md)")
    c.add_argument("--hfov", type=float, help="camera horizontal field of view, degrees, if known")
    c.add_argument("--frame", type=int, help="video frame to use (default: the middle one)")
    c.add_argument("--lens", help="lens file from `snooker-tracker checkerboard`")
    c.add_argument("--force", action="store_true", help="replace the profile if it exists")
    c.set_defaults(func=cmd_calibrate)
    pr = add("process", help="referee a video: calls, match log, scoreboard")
    pr.add_argument("video", nargs="?", help="video file, camera (0, /dev/video0), stream URL "
                    "(rtsp://, http://), or - for raw BGR frames on standard input (default: the "
                    "bundled overhead sample)")
    pr.add_argument("--size", metavar="WxH", help="frame size of raw frames on standard input")
    pr.add_argument("--fps", type=float, help="frames per second of a camera or raw frames "
                    "(default: what the source says, else 25)")
    pr.add_argument("--calibration", help="calibration profile (default: found automatically)")
    pr.add_argument("--players", nargs=2, metavar=("A", "B"), help="the two players (A breaks)")
    pr.add_argument("--out", default="out/process", help="output folder")
    pr.add_argument("--inputs", help="operator inputs: a match log (JSONL); its frame_start, its "
                                     "input lines (applied before the stroke that follows them) "
                                     "and the nominations and judgements of its shot lines (by "
                                     "stroke number) are used")
    pr.add_argument("--table-size", help="LENGTHxWIDTH mm (default full size)")
    pr.add_argument("--ball-diameter", type=float, help="mm (default 52.5)")
    pr.add_argument("--max-frames", type=int, help="stop after this many frames")
    pr.add_argument("--quiet", action="store_true", help="no progress bar")
    pr.add_argument("--no-store", action="store_true",
                    help="do not write the match store (OUT/match.sqlite)")
    pr.add_argument("--overlay", metavar="FILE",
                    help="write a video with the calls drawn on it (H.264 MP4)")
    pr.add_argument("--serve", nargs="?", const="127.0.0.1:8765", metavar="HOST:PORT",
                    help="serve the live scoreboard, overlay, referee console and review pages "
                         "while processing (default 127.0.0.1:8765)")
    pr.add_argument("--token", help="the console's token (default: a new one, printed)")
    pr.add_argument("--realtime", nargs="?", type=float, const=1.0, metavar="SPEED",
                    help="process a file no faster than its own clock (times SPEED): a live "
                         "match's pace, for the console")
    pr.add_argument("--review-frames", action="store_true",
                    help="save review pictures per stroke in OUT/review (on with --serve)")
    pr.add_argument("--detector", choices=DETECTORS,
                    help="ball detector: colour, learned (the ONNX crop classifier) or auto "
                         "(learned on a TV-angle view, colour overhead; default)")
    pr.add_argument("--resume", action="store_true",
                    help="go on with the cut-off run in OUT (a crash, Ctrl-C) with its own "
                         "options: the calls made are met again, not repeated (docs/OUTPUTS.md)")
    pr.add_argument("--force", action="store_true",
                    help="write into an OUT that holds a run, replacing its JSONL files (the "
                         "match store keeps the old run beside the new one)")
    pr.set_defaults(func=cmd_process)
    sv = add("serve", help="live scoreboard, overlay, console and review pages over "
                                      "a match store")
    sv.add_argument("--store", required=True, help="match.sqlite, or the output folder of `process`")
    sv.add_argument("--listen", default="127.0.0.1:8765", metavar="HOST:PORT")
    sv.add_argument("--token", help="the console's token (default: a new one, printed)")
    sv.add_argument("--review", help="folder of review pictures (default: review/ beside the store)")
    sv.set_defaults(func=cmd_serve)
    ba = add("batch", help="referee a folder or list of videos, one Ray task per "
                        "video; resumable (needs the ray extra, or --no-ray)")
    ba.add_argument("videos", help="a folder of videos, or a text file with one path a line")
    ba.add_argument("--out", required=True, help="output folder (one folder and store per "
                    "video, index.json)")
    ba.add_argument("--address", help="a Ray cluster's address (default: a local Ray)")
    ba.add_argument("--no-ray", action="store_true", help="a plain loop in this process")
    ba.add_argument("--detector", choices=DETECTORS, default="auto")
    ba.set_defaults(func=cmd_batch)

    ha = add("hall", help="several live tables as Ray actors: one store, one live "
                        "server (needs the ray extra)")
    ha.add_argument("config", help="hall configuration (JSON: out, serve, tables: name, source, "
                    "calibration, players)")
    ha.set_defaults(func=cmd_hall)

    ex = add("export", help="a match store as JSON or CSV (one row per stroke)")
    ex.add_argument("store", help="match.sqlite, or the output folder of `process`")
    ex.add_argument("--format", choices=("json", "csv"), default="json")
    ex.add_argument("--run", type=int, help="run id (default: the latest run)")
    ex.add_argument("--out", help="file to write (default: standard output)")
    ex.set_defaults(func=cmd_export)
    rp = add("report", help="an HTML report with plots of a run (per frame and match)")
    rp.add_argument("store", help="match.sqlite, or the output folder of `process`")
    rp.add_argument("--out", default="report.html", help="HTML file to write")
    rp.add_argument("--run", type=int, help="run id (default: the latest run)")
    rp.set_defaults(func=cmd_report)
    cb = add("checkerboard", help="lens calibration from checkerboard pictures")
    cb.add_argument("images", nargs="+", help="pictures of the board in different poses")
    cb.add_argument("--inner", default="9x6", help="inner corners COLUMNSxROWS (default 9x6)")
    cb.add_argument("--square", type=float, default=25.0, help="square size, mm")
    cb.add_argument("--out", required=True, help="lens file to write (JSON)")
    cb.set_defaults(func=cmd_checkerboard)
    po = add("pots", help="pots in a clip of one shot (a replay): ball, pocket, time")
    po.add_argument("video", help="video file")
    po.add_argument("--calibration", help="calibration profile (default: the best of 8 frames)")
    po.add_argument("--scale", type=float, default=1.0,
                    help="detector working scale (1.0 for 720p, 0.5 for 1080p)")
    po.add_argument("--detector", choices=DETECTORS, default="auto",
                    help="ball detector: colour, learned (the ONNX crop classifier) or auto "
                         "(default: learned on a TV-angle view, colour overhead)")
    po.set_defaults(func=cmd_pots)
    ev = add("eval", help="measure accuracy and speed; --fast: the CI regression check")
    ev.add_argument("--fast", action="store_true", help="only the CI subset (a few minutes)")
    ev.add_argument("--metrics", default="out/metrics.json", help="where to write the metrics")
    ev.add_argument("--reference", help="reference metrics (default bench/reference-metrics.json)")
    ev.add_argument("--update-reference", action="store_true",
                    help="store the measured metrics as the new reference (a deliberate commit)")
    ev.set_defaults(func=cmd_eval)
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


if __name__ == "__main__":
    raise SystemExit(main())
