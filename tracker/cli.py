"""The ``snooker-tracker`` command line.

Subcommands:
- ``referee LOG.jsonl``: call every shot of a match log (no video needed).
"""

from __future__ import annotations

import argparse
import json
import sys
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


def _example_log() -> Path:
    return Path(str(resources.files("tracker").joinpath("examples/example-frame.jsonl")))


def cmd_referee(args: argparse.Namespace) -> int:
    """Referee a match log and print one JSON decision per shot, then the scoreboard."""
    path = Path(args.log) if args.log else _example_log()
    match = Match()
    out = sys.stdout
    line_no = 0
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
        print(f"snooker-tracker referee: {path}: {exc}", file=sys.stderr)
        print("Nothing after that line was refereed; fix the record and run again.", file=sys.stderr)
        return 2
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
        print(f"snooker-tracker synth: missing dependency ({exc.name}); install the synth extra: "
              "pip install -e '.[synth]' && pip install --no-deps pooltool-billiards==0.6.0",
              file=sys.stderr)
        return 2
    if args.scenario not in SCENARIOS:
        print(f"snooker-tracker synth: unknown scenario {args.scenario!r}; choose one of: "
              + ", ".join(SCENARIOS), file=sys.stderr)
        return 2
    try:
        w_px, h_px = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"snooker-tracker synth: --size must look like 1920x1080, got {args.size!r}",
              file=sys.stderr)
        return 2
    t = STANDARD_TABLE
    camera = (CameraModel.overhead(t.length, t.width, (w_px, h_px)) if args.camera == "overhead"
              else CameraModel.broadcast(t.length, t.width, (w_px, h_px)))
    max_s = args.frames / args.fps if args.frames else None
    try:
        world = build(args.scenario, seed=args.seed, fps=args.fps, max_seconds=max_s)
    except (PhysicsUnavailable, ScenarioFailed) as exc:
        print(f"snooker-tracker synth: {exc}", file=sys.stderr)
        return 2
    name = args.name or f"{args.scenario}_{args.camera}_s{args.seed}"
    style = RenderStyle(seed=args.seed, chalk_marks=args.chalk_marks, projected_rings=args.rings)
    summary = write_clip(world, camera, args.out, name, style,
                         progress=not args.quiet, description=SCENARIOS[args.scenario][0])
    print(json.dumps(summary))
    return 0


def _table_from_args(size: str | None, ball: float):
    from calibration.table import TableGeometry

    if not size:
        return TableGeometry.standard() if ball == 52.5 else TableGeometry.of_size(3569, 1778, ball)
    try:
        length, width = (float(v) for v in size.lower().replace("×", "x").split("x"))
    except ValueError:
        raise ValueError(f"--table-size must look like 3569x1778 (mm), got {size!r}") from None
    return TableGeometry.of_size(length, width, ball)


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Calibrate from an image or a video frame; write the profile and a rectified picture."""
    import cv2

    from calibration.auto import calibrate_image, calibrate_points
    from calibration.finder import TableNotFound
    from calibration.io import MediaError, read_frame
    from calibration.profile import CalibrationError
    from calibration.rectify import overlay, rectified

    try:
        table = _table_from_args(args.table_size, args.ball_diameter)
        img = read_frame(args.source, args.frame)
        h, w = img.shape[:2]
        if args.points:
            pts_text = args.points
            if Path(pts_text).exists():
                pts_text = Path(pts_text).read_text()
            try:
                points = json.loads(pts_text)
            except json.JSONDecodeError as exc:
                raise CalibrationError(f"--points is neither a file nor JSON ({exc.msg})") from None
            cal = calibrate_points(points, table, (w, h), args.hfov)
        else:
            lens = None
            if args.lens:
                ld = json.loads(Path(args.lens).read_text())
                lens = (ld["K"], ld["dist"])
            cal = calibrate_image(img, table, args.hfov, lens=lens)
    except (MediaError, TableNotFound, CalibrationError, ValueError) as exc:
        kind = "no table found" if isinstance(exc, TableNotFound) else "cannot calibrate"
        print(f"snooker-tracker calibrate: {kind}: {exc}", file=sys.stderr)
        if isinstance(exc, TableNotFound):
            print("Give the corners by hand with --points (see docs/CALIBRATION.md).", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    cal.save(out)
    stem = out.with_suffix("")
    cv2.imwrite(str(stem) + ".rectified.png", rectified(img, cal))
    cv2.imwrite(str(stem) + ".overlay.jpg", overlay(img, cal))
    summary = {"profile": str(out), "rectified": str(stem) + ".rectified.png",
               "fit_error_mm": cal.fit_error_mm, "method": cal.method,
               "orientation": cal.orientation, "focal": cal.focal, "notes": cal.notes}
    print(json.dumps(summary))
    return 0


def cmd_process(args: argparse.Namespace) -> int:
    """Referee a video end to end."""
    from calibration.profile import Calibration, CalibrationError
    from tracker.outputs.store import StoreError
    from tracker.pipeline import VideoError, inputs_from_log, process_video, spoken_from_log
    from tracker.records.parse import RecordError as _RecordError

    src = args.video or str(Path(__file__).resolve().parents[1] / "sample_videos" / "overhead_frame.mp4")
    try:
        cal = Calibration.load(args.calibration) if args.calibration else None
        inputs = inputs_from_log(args.inputs) if args.inputs else None
        spoken = spoken_from_log(args.inputs) if args.inputs else None
        table = _table_from_args(args.table_size, args.ball_diameter) if args.table_size else None
        players = tuple(args.players) if args.players else ("A", "B")
        listeners = _process_listeners(args, src)
        server = _start_server(args) if args.serve is not None else None
        res = process_video(src, args.out, calibration=cal, players=players, table=table,
                            progress=not args.quiet, on_call=lambda s: print(s, flush=True),
                            inputs=inputs, max_frames=args.max_frames, spoken=spoken,
                            listeners=listeners, detector=args.detector)
    except (VideoError, CalibrationError, _RecordError, ValueError, StoreError, OSError) as exc:
        print(f"snooker-tracker process: {exc}", file=sys.stderr)
        return 2
    summary = {"score": res.score, "shots": len(res.shots), "frames": res.frames,
               "not_refereed_frames": res.not_refereed_frames, "out": args.out}
    if res.end is not None:
        summary["video_end"] = res.end.reason
        if not res.end.clean:
            summary["warning"] = res.end.message
            print(f"snooker-tracker process: warning: {res.end.message}", file=sys.stderr)
    print(json.dumps(summary), flush=True)
    if server is not None:
        print("processing done; the pages stay up until Ctrl-C", flush=True)
        try:
            while server.thread.is_alive():
                server.thread.join(0.5)
        except KeyboardInterrupt:
            server.stop()
    return 0


def _process_listeners(args: argparse.Namespace, src: str) -> list:
    """The outputs ``process`` adds to the JSONL files: the match store (unless
    ``--no-store``), and what its options ask for."""
    from tracker.outputs.store import STORE_NAME, StoreWriter

    listeners: list = []
    if not args.no_store and args.out:
        listeners.append(StoreWriter(Path(args.out) / STORE_NAME, str(src)))
    if args.overlay:
        from tracker.outputs.overlay import OverlayWriter

        listeners.append(OverlayWriter(args.overlay))
    if args.serve is not None or args.review_frames:
        from tracker.server.live import ConsoleBridge, ReviewFrames

        listeners.append(ReviewFrames(Path(args.out) / "review"))
        if args.serve is not None:
            if not listeners or not isinstance(listeners[0], StoreWriter):
                raise ValueError("--serve needs the match store: leave out --no-store")
            listeners.append(ConsoleBridge(listeners[0]))
    if args.realtime:
        from tracker.server.live import RealTimePacer

        listeners.append(RealTimePacer(args.realtime))
    return listeners


def _start_server(args: argparse.Namespace):
    """``process --serve``: the live server on a thread, its addresses and token printed."""
    from tracker.outputs.store import STORE_NAME

    try:
        from tracker.server.app import BackgroundServer, new_token, parse_host_port
    except ImportError as exc:
        raise ValueError(f"--serve needs the live extra ({exc.name} is missing): "
                         "pip install -e '.[live]'") from None

    host, port = parse_host_port(args.serve)
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


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the live pages over a match store (another program processes the video)."""
    from tracker.outputs.store import STORE_NAME, MatchStore, StoreError

    try:
        from tracker.server.app import new_token, parse_host_port, serve_forever
    except ImportError as exc:
        print(f"snooker-tracker serve: needs the live extra ({exc.name} is missing): "
              "pip install -e '.[live]'", file=sys.stderr)
        return 2

    path = Path(args.store)
    if path.is_dir():
        path = path / STORE_NAME
    try:
        host, port = parse_host_port(args.listen)
        if path.exists():
            MatchStore(path, readonly=True).close()
    except (ValueError, StoreError) as exc:
        print(f"snooker-tracker serve: {exc}", file=sys.stderr)
        return 2
    if not path.exists():
        print(f"snooker-tracker serve: {path} does not exist yet: the pages wait for a run to "
              "write it", file=sys.stderr)
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
    try:
        store = MatchStore(path, readonly=True)
        text = (json.dumps(export_json(store, args.run), indent=1) + "\n" if args.format == "json"
                else export_csv(store, args.run))
    except StoreError as exc:
        print(f"snooker-tracker export: {exc}", file=sys.stderr)
        return 2
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
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
    try:
        out = write_report(path, args.out, args.run)
    except StoreError as exc:
        print(f"snooker-tracker report: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"report": str(out)}))
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    """Measure the system; with --fast, the CI subset against the stored references."""
    import subprocess

    from tracker.evaluate import REFERENCE, compare, fast_metrics, reference_from

    if not args.fast:
        root = Path(__file__).resolve().parents[1]
        for script in ("bench/referee_crosscheck.py", "bench/calibration_accuracy.py",
                       "bench/perception.py", "bench/scenario_videos.py overhead",
                       "bench/scenario_videos.py broadcast", "bench/real_footage.py",
                       "bench/first_contact.py overhead 10 90", "bench/first_contact.py broadcast 5 90",
                       "bench/render_speed.py"):
            print(f"== {script}", flush=True)
            name, *extra = script.split()
            rc = subprocess.call([sys.executable, str(root / name), *extra], cwd=root)
            if rc:
                print(f"snooker-tracker eval: {script} failed (exit {rc})", file=sys.stderr)
                return rc
    metrics = fast_metrics()
    if not any(k.startswith("real.") for k in metrics):
        print("eval: ../shared/footage not present: the real-footage metrics are skipped")
    out = Path(args.metrics)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(metrics, indent=1))
    print(json.dumps(metrics, indent=1))
    ref_path = Path(args.reference) if args.reference else REFERENCE
    if args.update_reference:
        old = json.loads(ref_path.read_text()) if ref_path.exists() else None
        ref_path.write_text(json.dumps(reference_from(metrics, old), indent=1) + "\n")
        print(f"reference written: {ref_path}")
        return 0
    if not ref_path.exists():
        print(f"snooker-tracker eval: no reference at {ref_path}; make one with --update-reference",
              file=sys.stderr)
        return 2
    regressions = compare(metrics, json.loads(ref_path.read_text()))
    for r in regressions:
        print(f"REGRESSION {r}", file=sys.stderr)
    print(f"{len(metrics) - len(regressions)} passed, {len(regressions)} failed")
    return 1 if regressions else 0


def cmd_checkerboard(args: argparse.Namespace) -> int:
    """Lens calibration from checkerboard pictures."""
    from calibration.checkerboard import CheckerboardError, calibrate_lens
    from calibration.io import MediaError, read_frame

    try:
        cols, rows = (int(v) for v in args.inner.lower().split("x"))
        images = [read_frame(p) for p in args.images]
        lens = calibrate_lens(images, (cols, rows), args.square)
    except (MediaError, CheckerboardError, ValueError) as exc:
        print(f"snooker-tracker checkerboard: {exc}", file=sys.stderr)
        return 2
    Path(args.out).write_text(json.dumps(lens.to_dict(), indent=1))
    print(json.dumps({"lens": args.out, "rms_px": round(lens.rms_px, 3), "views": lens.views}))
    return 0


def cmd_pots(args: argparse.Namespace) -> int:
    """Pots in a clip of one shot (a replay): ball, pocket and time of each, as JSON."""
    from calibration.profile import Calibration, CalibrationError
    from tracker.perception.potwatch import ClipError, watch_pots

    try:
        cal = Calibration.load(args.calibration) if args.calibration else None
        res = watch_pots(args.video, calibration=cal, scale=args.scale, detector=args.detector)
    except (ClipError, CalibrationError, OSError, ValueError) as exc:
        print(f"snooker-tracker pots: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"video": args.video, "frames": res.frames,
                      "potted": bool(res.object_pots()),
                      "pots": [{"ball": b, "pocket": p, "t": round(t, 3)} for b, p, t in res.pots],
                      "calibration_fit_mm": res.calibration.fit_error_mm.get("median")
                      if res.calibration else None}, indent=1))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    p = argparse.ArgumentParser(prog="snooker-tracker",
                                description="A camera referee for snooker.")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("referee", help="call every shot of a match log (JSONL)")
    r.add_argument("log", nargs="?", help="match log (JSONL); default: the bundled example frame")
    r.add_argument("--explain", action="store_true", help="print each call as a referee says it")
    r.set_defaults(func=cmd_referee)
    s = sub.add_parser("synth", help="make a synthetic clip with exact ground truth (needs [synth])")
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
    c = sub.add_parser("calibrate", help="find the table in an image or video; write a profile")
    c.add_argument("source", help="image or video file")
    c.add_argument("--out", required=True, help="profile to write (JSON)")
    c.add_argument("--table-size", help="playing area LENGTHxWIDTH in mm (default 3569x1778)")
    c.add_argument("--ball-diameter", type=float, default=52.5, help="mm (default 52.5)")
    c.add_argument("--points", help="manual correspondences: a JSON file or inline JSON "
                                    "(docs/CALIBRATION.md)")
    c.add_argument("--hfov", type=float, help="camera horizontal field of view, degrees, if known")
    c.add_argument("--frame", type=int, help="video frame to use (default: the middle one)")
    c.add_argument("--lens", help="lens file from `snooker-tracker checkerboard`")
    c.set_defaults(func=cmd_calibrate)
    pr = sub.add_parser("process", help="referee a video: calls, match log, scoreboard")
    pr.add_argument("video", nargs="?", help="video file (default: the bundled overhead sample)")
    pr.add_argument("--calibration", help="calibration profile (default: found automatically)")
    pr.add_argument("--players", nargs=2, metavar=("A", "B"), help="the two players (A breaks)")
    pr.add_argument("--out", default="out/process", help="output folder")
    pr.add_argument("--inputs", help="operator inputs: a match log (JSONL); its frame_start, its "
                                     "input lines (applied before the stroke that follows them) "
                                     "and the nominations and judgements of its shot lines (by "
                                     "stroke number) are used")
    pr.add_argument("--table-size", help="LENGTHxWIDTH mm (default full size)")
    pr.add_argument("--ball-diameter", type=float, default=52.5)
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
    pr.add_argument("--detector", choices=DETECTORS, default="auto",
                    help="ball detector: colour, learned (the ONNX crop classifier) or auto "
                         "(learned on a TV-angle view, colour overhead; default)")
    pr.set_defaults(func=cmd_process)
    sv = sub.add_parser("serve", help="live scoreboard, overlay, console and review pages over "
                                      "a match store")
    sv.add_argument("--store", required=True, help="match.sqlite, or the output folder of `process`")
    sv.add_argument("--listen", default="127.0.0.1:8765", metavar="HOST:PORT")
    sv.add_argument("--token", help="the console's token (default: a new one, printed)")
    sv.add_argument("--review", help="folder of review pictures (default: review/ beside the store)")
    sv.set_defaults(func=cmd_serve)
    ex = sub.add_parser("export", help="a match store as JSON or CSV (one row per stroke)")
    ex.add_argument("store", help="match.sqlite, or the output folder of `process`")
    ex.add_argument("--format", choices=("json", "csv"), default="json")
    ex.add_argument("--run", type=int, help="run id (default: the latest run)")
    ex.add_argument("--out", help="file to write (default: standard output)")
    ex.set_defaults(func=cmd_export)
    rp = sub.add_parser("report", help="an HTML report with plots of a run (per frame and match)")
    rp.add_argument("store", help="match.sqlite, or the output folder of `process`")
    rp.add_argument("--out", default="report.html", help="HTML file to write")
    rp.add_argument("--run", type=int, help="run id (default: the latest run)")
    rp.set_defaults(func=cmd_report)
    cb = sub.add_parser("checkerboard", help="lens calibration from checkerboard pictures")
    cb.add_argument("images", nargs="+", help="pictures of the board in different poses")
    cb.add_argument("--inner", default="9x6", help="inner corners COLUMNSxROWS (default 9x6)")
    cb.add_argument("--square", type=float, default=25.0, help="square size, mm")
    cb.add_argument("--out", required=True, help="lens file to write (JSON)")
    cb.set_defaults(func=cmd_checkerboard)
    po = sub.add_parser("pots", help="pots in a clip of one shot (a replay): ball, pocket, time")
    po.add_argument("video", help="video file")
    po.add_argument("--calibration", help="calibration profile (default: the best of 8 frames)")
    po.add_argument("--scale", type=float, default=1.0,
                    help="detector working scale (1.0 for 720p, 0.5 for 1080p)")
    po.add_argument("--detector", choices=DETECTORS, default="auto",
                    help="ball detector: colour, learned (the ONNX crop classifier) or auto "
                         "(default: learned on a TV-angle view, colour overhead)")
    po.set_defaults(func=cmd_pots)
    ev = sub.add_parser("eval", help="measure accuracy and speed; --fast: the CI regression check")
    ev.add_argument("--fast", action="store_true", help="only the CI subset (a few minutes)")
    ev.add_argument("--metrics", default="out/metrics.json", help="where to write the metrics")
    ev.add_argument("--reference", help="reference metrics (default bench/reference-metrics.json)")
    ev.add_argument("--update-reference", action="store_true",
                    help="store the measured metrics as the new reference (a deliberate commit)")
    ev.set_defaults(func=cmd_eval)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``snooker-tracker`` console script."""
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
