"""``snooker-tracker process``: referee a video, camera or stream end to end (``--resume``:
go on with a cut-off run), with its outputs, live server and review pictures."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from tracker.cli.common import (
    DETECTORS,
    EXIT_INTERRUPTED,
    EXIT_MISSING,
    UserError,
    check_parent_chain,
    log,
    number_arg,
    one_line,
    output_dir,
    output_file,
    players_arg,
    size_arg,
    table_from_args,
)
from tracker.cli.session import (
    SETUP_OPTIONS,
    add_setup_arguments,
    given_options,
    match_setup,
    take_up_live,
)
from tracker.records.parse import RecordError
from tracker.rules.snooker import RuleError


def _break_points(text: str) -> int:
    """``--keep-breaks``'s value: a whole number of points, 0 or more (0: no clips)."""
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a break size: give the points from which a break's clip is kept "
            "(a whole number, e.g. 50), or 0 for no clips")
    return n


def cmd_process(args: argparse.Namespace) -> int:
    """Referee a video end to end (``--resume``: go on with a cut-off run)."""
    if not args.out.strip():
        raise UserError("--out is empty; give the folder to write the run into")
    out = Path(args.out)
    opts = _resumed_options(args, out) if args.resume else _new_run_options(args, out)
    how, point = _what_to_run(args, opts, out)
    output_dir("--out", out)
    held = hold_folder(out)  # noqa: F841 - held (the folder locked) until this run ends
    if args.overlay:
        output_file("--overlay", args.overlay, force=args.force or args.resume)
    if point is not None:
        opts.pid = os.getpid()
        opts.save(out)
        log.info("resuming the run in %s: %d records (%d strokes) already called are met "
                 "again first", out, len(point.records), point.strokes)
    how = replace(how, size=size_arg(args.size))
    server, res = _referee_video(args, opts, how, point, out)
    print(json.dumps(_summary(args, res, point)), flush=True)
    if server is not None:
        print("processing done; the pages stay up until Ctrl-C", flush=True)
        try:
            while server.thread.is_alive():
                server.thread.join(0.5)
        except KeyboardInterrupt:
            server.stop()
    return 0


def _what_to_run(args: argparse.Namespace, opts, out: Path):  # noqa: ANN001, ANN202
    """The pipeline's options of this run (:class:`tracker.pipeline.ProcessOptions`: the
    calibration, players, table, inputs and what was said, the detector, the progress bar
    and where calls and notes are printed) and, with ``--resume``, where the cut-off run
    stopped (:class:`tracker.resume.ResumePoint`; None otherwise)."""
    from calibration.profile import Calibration, CalibrationError
    from tracker.pipeline import ProcessOptions, inputs_from_log, spoken_from_log
    from tracker.records.shot import FrameStart
    from tracker.resume import ResumeError, resume_point
    from tracker.session_setup import SetupError, setup_from_dict

    try:
        setup = setup_from_dict(opts.match, "the run's match set-up") if opts.match else None
    except SetupError as exc:
        raise UserError(one_line(exc)) from None
    players = tuple(setup.players) if setup is not None else tuple(opts.players)
    table = table_from_args(opts.table_size, opts.ball_diameter)
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
        if setup is not None and any(isinstance(x, FrameStart) for _, x in inputs or ()):
            raise UserError(f"--inputs {opts.inputs} starts its own match (a frame_start line) "
                            "and a match set-up was given too: give one of them")
        point = resume_point(out, opts) if args.resume else None
        if point is not None and _live(opts.video):  # a live run is taken up, not replayed
            setup, inputs = take_up_live(point, setup, opts, out)
            point, players = None, tuple(setup.players) if setup is not None else players
    except RecordError as exc:
        where = f"--inputs {opts.inputs}: " if exc.line is not None else ""
        raise UserError(where + one_line(exc)) from None
    except (CalibrationError, ResumeError) as exc:
        raise UserError(one_line(exc)) from None
    how = ProcessOptions(calibration=cal, players=players, table=table,
                         progress=not args.quiet, on_call=lambda s: print(s, flush=True),
                         inputs=inputs, max_frames=opts.max_frames, spoken=spoken,
                         detector=opts.detector, resume=point, fps=args.fps,
                         on_note=lambda s: print(s, file=sys.stderr, flush=True),
                         setup=setup, wait=opts.wait,
                         steady_memory=getattr(args, "steady_memory", False))
    if setup is not None:
        opts.match = setup.to_dict()
    return how, point


def _referee_video(args: argparse.Namespace, opts, how, point, out: Path):  # noqa: ANN001, ANN202
    """Run the pipeline on the video with the listeners and the live server the options ask
    for (a stop signal taken as Ctrl-C); returns the server (None: none) and the result.
    Whatever stops it becomes one line for a person (:class:`UserError`)."""
    from calibration.profile import CalibrationError
    from tracker.outputs.store import StoreError
    from tracker.perception.learned import LearnedUnavailable
    from tracker.pipeline import VideoError, process_video

    previous = _terminate_as_interrupt()
    try:
        listeners = _process_listeners(args, opts, point)
        server = _start_server(args) if args.serve is not None else None
        res = process_video(opts.video, out, replace(how, listeners=listeners))
    except KeyboardInterrupt:
        raise UserError(_interrupted_words(out), EXIT_INTERRUPTED) from None
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
    return server, res


def _summary(args: argparse.Namespace, res, point) -> dict:  # noqa: ANN001
    """The run's summary line (printed as JSON): score, strokes, frames, the live counts, how
    the video ended (a warning logged when it ended early)."""
    summary = {"score": res.score, "shots": len(res.shots), "frames": res.frames,
               "not_refereed_frames": res.not_refereed_frames, "out": args.out}
    if point is not None:
        summary["resumed_after_strokes"] = point.strokes
    if (res.skipped_frames or res.dropped_frames or res.gaps or res.startup_skipped
            or res.idle_frames):
        summary["live"] = {"skipped_frames": res.skipped_frames,
                           "idle_frames": res.idle_frames,
                           "startup_skipped": res.startup_skipped,
                           "skipped_while_moving": res.skipped_forced,
                           "dropped_frames": res.dropped_frames,
                           "gaps_s": [[round(a, 2), round(b, 2)] for a, b in res.gaps]}
    if res.end is not None:
        summary["video_end"] = res.end.reason
        if not res.end.clean:
            summary["warning"] = res.end.message
            log.warning("%s", res.end.message)
    return summary


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


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


#: The file in a run's --out folder that the running ``process`` holds locked.
LOCK_NAME = ".process.lock"


def hold_folder(out: Path):  # noqa: ANN201 - an open file, kept only to hold the lock
    """Lock ``out`` for this process (``OUT/.process.lock``, an exclusive ``flock`` held until
    the returned file is closed or the process ends, however it ends): a second ``process``
    started on the same folder while this one runs is refused in one line instead of writing
    its files over this one's."""
    import fcntl

    f = open(out / LOCK_NAME, "a+", encoding="utf-8")  # noqa: SIM115 - held open on purpose
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        who = f.read().strip()
        f.close()
        raise UserError(f"--out {out}: another snooker-tracker process"
                        + (f" (process {who})" if who.isdigit() else "")
                        + " is refereeing into this folder right now; wait for it to end, stop "
                          "it, or give another --out") from None
    f.seek(0)
    f.truncate()
    f.write(str(os.getpid()))
    f.flush()
    return f


def _interrupted_words(out: Path) -> str:
    """What an interrupted run says: where its calls are and how to go on, or, stopped before
    its first record (no ``run.json`` yet), that nothing was kept."""
    from tracker.resume import OPTIONS_NAME

    if not (out / OPTIONS_NAME).is_file():
        return (f"interrupted before the first call: nothing was kept in {out}; process the "
                "video again (add --force if the folder already holds files)")
    return (f"interrupted: the calls so far are kept in {out}; go on with: "
            f"snooker-tracker process --resume --out {out}")


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
    number_arg("--realtime", args.realtime, REALTIME_SPEED, "times the video's speed")
    check_source_options(args.video, args.size, args.fps)
    players = players_arg(args.players)
    setup = match_setup(args, players)
    table_from_args(args.table_size, args.ball_diameter)  # checked before any work
    check_parent_chain("--out", out)
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
                      calibration=absolute(args.calibration),
                      players=list(setup.players if setup is not None else players),
                      inputs=absolute(args.inputs), table_size=args.table_size,
                      ball_diameter=args.ball_diameter, detector=args.detector or "auto",
                      max_frames=args.max_frames, store=not args.no_store, pid=os.getpid(),
                      match=setup.to_dict() if setup is not None else None, wait=args.wait)


def check_source_options(video: str | None, size: str | None, fps: float | None) -> None:
    """``--size`` only for raw frames on standard input (``-``), ``--fps`` only for those and a
    camera or stream, a usable frame rate: a video file gives its own (an option that would
    be let go unused is refused, not ignored)."""
    from tracker.sources import SOURCES, is_live_spec

    piped = video == "-"
    if size is not None:
        if not piped:
            raise UserError(f"--size {size}: only raw frames on standard input (VIDEO -) need "
                            "a size; a video file, camera or stream gives its own: leave it out")
        size_arg(size)
    if fps is not None:
        if not piped and not (video and is_live_spec(video)):
            raise UserError(f"--fps {fps:g}: a video file gives its own frame rate; --fps is "
                            "for a camera, a stream or raw frames on standard input: leave it out")
        number_arg("--fps", fps, SOURCES.camera_fps_range, "frames per second")


def _resumed_options(args: argparse.Namespace, out: Path):
    """The options of the run being resumed (``OUT/run.json``); any run-defining option
    given again must agree with them."""
    from tracker.resume import ResumeError, RunOptions, holds_run

    if args.force:
        raise UserError("give --resume (go on with the run) or --force (replace it), not both")
    set_up = given_options(args, (*SETUP_OPTIONS, "wait"))
    if set_up:
        raise UserError(f"--resume goes on with the run's own match set-up ({out}/run.json): "
                        f"leave out --{set_up[0].replace('_', '-')}")
    if not holds_run(out):
        raise UserError(f"--resume: {out} holds no run: nothing to resume; leave out --resume "
                        "to start one")
    try:
        opts = RunOptions.load(out)
    except ResumeError as exc:
        raise UserError(str(exc)) from None
    given = {"video": args.video and (args.video if _live(args.video)
                                      else str(Path(args.video).resolve())),
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
    if _live(opts.video):  # a camera, a stream or a pipe: taken up, not replayed
        return opts
    video = Path(opts.video)
    if not video.is_file():
        raise UserError(f"--resume: the run's video {video} is gone; put it back, or process "
                        "another video with --force")
    if video.stat().st_size != opts.video_bytes:
        raise UserError(f"--resume: the video {video} changed since the run started "
                        f"({opts.video_bytes} bytes then, {video.stat().st_size} now); process "
                        "it again with --force")
    return opts


def _live(video: str) -> bool:
    """Whether a run's video is a camera, a stream or a pipe (not a file to see again)."""
    from tracker.sources import is_live_spec

    return video == "-" or is_live_spec(video)


def _process_listeners(args: argparse.Namespace, opts, point) -> list:  # noqa: ANN001
    """The outputs ``process`` adds to the JSONL files: the run's options (``run.json``), the
    match store (unless ``--no-store``), and what its options ask for."""
    from tracker.outputs.store import STORE_NAME, StoreWriter
    from tracker.resume import OptionsWriter

    listeners: list = [] if point is not None else [OptionsWriter(Path(args.out), opts)]
    store = None
    if opts.store and args.out:
        store = StoreWriter(Path(args.out) / STORE_NAME, str(opts.video),
                            resume_run=point.run_id if point is not None else None,
                            table=getattr(args, "table", None))
        listeners.append(store)
        if getattr(args, "keep_breaks", 0) > 0:
            from tracker.outputs.highbreaks import HighBreakParams
            from tracker.outputs.streamclips import high_break_listener

            listeners.append(high_break_listener(store.path, store, str(opts.video), args.out,
                                                 HighBreakParams(threshold=args.keep_breaks)))
    if args.overlay:
        from tracker.outputs.bar_place import BarParams
        from tracker.outputs.overlay import OverlayWriter

        bar = BarParams(place=getattr(args, "overlay_bar", "auto"))
        listeners.append(OverlayWriter(args.overlay, bar))
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


def check_can_listen(host: str, port: int, option: str) -> None:
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
    check_can_listen(host, port, "--serve")
    token = args.token or new_token()
    server = BackgroundServer(Path(args.out) / STORE_NAME, host, port, token,
                              Path(args.out) / "review")
    print_urls(host, port, token)
    return server


def print_urls(host: str, port: int, token: str) -> None:
    base = f"http://{host}:{port}"
    print(f"live: scoreboard {base}/  overlay {base}/overlay  console {base}/console#token={token}",
          flush=True)
    print(f"console token: {token}", flush=True)


def add_process_parser(add: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``process`` subcommand's arguments (``add``: makes a subparser by name)."""
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
    pr.add_argument("--table", help="the table's name in the match store and on the hall page "
                    "(default: the output folder's name)")
    pr.add_argument("--keep-breaks", type=_break_points, default=50, metavar="POINTS",
                    help="keep a video clip of every break of at least POINTS in OUT/breaks "
                         "(a video file: cut when the run ends; a camera or stream: recorded "
                         "as it is refereed and cut as the break ends; 0: none; default 50)")
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
    pr.add_argument("--overlay-bar", choices=("auto", "bottom", "top"), default="auto",
                    help="where the --overlay video's score bar goes: auto (default: at the "
                         "bottom unless the picture carries its own graphic there, then at the "
                         "top), bottom or top")
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
                         "(learned on a TV-angle view, colour overhead; default). In pool, learned "
                         "names the balls with the learned pool classifier, else by colour")
    pr.add_argument("--steady-memory", action="store_true",
                    help="give each picture back to the system as soon as it is let go, "
                         "for about a fifth more CPU (without it, memory is given back while "
                         "the table is still, which keeps a long day flat too; "
                         "docs/BENCHMARKS.md)")
    pr.add_argument("--resume", action="store_true",
                    help="go on with the cut-off run in OUT (a crash, Ctrl-C) with its own "
                         "options: the calls made are met again, not repeated (docs/OUTPUTS.md)")
    pr.add_argument("--force", action="store_true",
                    help="write into an OUT that holds a run, replacing its JSONL files (the "
                         "match store keeps the old run beside the new one)")
    add_setup_arguments(pr)
    pr.set_defaults(func=cmd_process)
