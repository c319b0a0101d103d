"""Bad input, as a hostile new user gives it: every case is a one-line error that says what is
wrong and what to do, with the right exit code, and never a traceback.

Each row of :data:`CASES` is one command line (``{name}`` fields are files the ``media``
fixture makes in a temporary folder), the exit code it must give and a fragment its error line
must hold (case-insensitive). Rows marked ``# issue 17`` are the cases of the issue's "tried
as a new user would"; the others were added while hunting for more (docs/LIMITS.md lists the
limits they check). Exit codes: 2 bad input (what you gave must change), 3 something this
installation or folder lacks (an extra, the source checkout), 130 interrupted, 70 a bug.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.profile import Calibration
from calibration.table import TableGeometry
from tracker.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_videos"
START = {"type": "frame_start", "frame": 1, "players": ["A", "B"]}
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def _shot(n: int, t0: float = 0.0, **extra) -> dict:
    return {"type": "shot", "shot": n, "events": [
        {"type": "strike", "ball": "white", "t": t0},
        {"type": "contact", "balls": ["white", "red_01"], "t": t0 + 0.5}], **extra}


def _log(path: Path, *records) -> str:
    """A match log of ``records`` (dicts, or raw text lines)."""
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records),
                    encoding="utf-8")
    return str(path)


def _video(path: Path, frames, fps: float = 25.0) -> str:
    frames = list(frames)
    h, w = frames[0].shape[:2]
    wr = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
    for f in frames:
        wr.write(f)
    wr.release()
    return str(path)


def _profile(path: Path, size: tuple[int, int], **change) -> str:
    """A profile of the overhead sample's camera at ``size`` px (``change``: fields replaced)."""
    truth = json.loads((SAMPLES / "overhead_miss.camera.json").read_text())
    k = size[0] / truth["image_size"][0]
    K = np.array(truth["K"]) * np.array([[k, 1, k], [1, k, k], [1, 1, 1]])
    cam = CameraModel(size, K, np.array(truth["dist"]), np.array(truth["R"]), np.array(truth["t"]))
    d = Calibration(size, TableGeometry.standard(), cam).to_dict()
    d.update(change)
    path.write_text(json.dumps(d))
    return str(path)


def _profiles(tmp: Path, m: dict[str, str]) -> None:
    """The calibration profiles the cases name, good and bad, into ``m``."""
    tv = json.loads((SAMPLES / "broadcast_pots.camera.json").read_text())  # another camera
    cam = CameraModel(tuple(tv["image_size"]), np.array(tv["K"]), np.array(tv["dist"]),
                      np.array(tv["R"]), np.array(tv["t"]))
    (tmp / "tv.json").write_text(json.dumps(Calibration(cam.image_size, TableGeometry.standard(),
                                                        cam).to_dict()))
    m["prof_other_camera"] = str(tmp / "tv.json")
    m["prof1080"] = _profile(tmp / "p1080.json", (1920, 1080))
    m["prof720"] = _profile(tmp / "p720.json", (1280, 720))
    (tmp / "list.json").write_text("[1, 2]")
    m["prof_list"] = str(tmp / "list.json")
    m["prof_huge"] = _profile(tmp / "huge.json", (1920, 1080), image_size=[1e12, -5])
    d = json.loads(Path(m["prof1080"]).read_text())
    d["lens"]["K"][0][0] = 12345.5
    (tmp / "nan.json").write_text(json.dumps(d).replace("12345.5", "NaN"))
    m["prof_nan"] = str(tmp / "nan.json")
    (tmp / "inf.json").write_text(json.dumps(d).replace("12345.5", "1e400"))
    m["prof_inf"] = str(tmp / "inf.json")
    m["prof_rot"] = _profile(tmp / "rot.json", (1920, 1080),
                             camera_pose={"R": [[2, 0, 0], [0, 2, 0], [0, 0, 2]], "t": [0, 0, 3000]})
    m["prof_table"] = _profile(tmp / "table.json", (1920, 1080),
                               table={"length": 1e300, "width": 1e300, "ball_diameter": 52.5})
    (tmp / "latin1.json").write_bytes(b'{"version": 1, "notes": ["caf\xe9"]}')
    m["prof_latin1"] = str(tmp / "latin1.json")
    (tmp / "lens_nok.json").write_text('{"dist": [0, 0, 0, 0, 0]}')
    m["lens_nok"] = str(tmp / "lens_nok.json")
    m["prof_dist6"] = _profile(tmp / "dist6.json", (1920, 1080), lens={
        "model": "opencv", "K": json.loads(Path(m["prof1080"]).read_text())["lens"]["K"],
        "dist": [0, 0, 0, 0, 0, 0]})


def _logs(tmp: Path, m: dict[str, str]) -> None:
    """The match logs the cases name, good and bad, into ``m``."""
    m["log_not_utf8"] = str(tmp / "latin1.jsonl")
    Path(m["log_not_utf8"]).write_bytes(b'{"type": "frame_start", "frame": 1, "players": ["Jos\xe9", "B"]}\n')
    m["log_nan"] = _log(tmp / "nan.jsonl", START, json.dumps(_shot(1)).replace('"t": 0.0', '"t": NaN'))
    m["log_inf"] = _log(tmp / "inf.jsonl", START, json.dumps(_shot(1)).replace('"t": 0.5', '"t": Infinity'))
    m["log_negative_t"] = _log(tmp / "neg.jsonl", START, _shot(1, t0=-5.0))
    m["log_huge_t"] = _log(tmp / "huget.jsonl", START, _shot(1, t0=1e300))
    m["log_bigint_t"] = _log(tmp / "bigint.jsonl", START, json.dumps(_shot(1)).replace('"t": 0.0', '"t": ' + "9" * 400))
    m["log_off_table"] = _log(tmp / "off.jsonl", START, _shot(1, positions_before={"white": [5000, -300]}))
    m["log_big_table"] = _log(tmp / "bigtable.jsonl", {**START, "table": {"length": 1e300, "width": 1e300}}, _shot(1))
    m["log_same_players"] = _log(tmp / "same.jsonl", {**START, "players": ["Ann", "Ann"]}, _shot(1))
    m["log_empty"] = _log(tmp / "empty.jsonl")
    m["log_blank"] = _log(tmp / "blank.jsonl", "", "   ", "// only a comment")
    m["log_backwards"] = _log(tmp / "back.jsonl", START, _shot(2), _shot(1))
    m["log_dup_start"] = _log(tmp / "dup.jsonl", START, START, _shot(1))
    m["log_ruleset"] = _log(tmp / "rules.jsonl", {**START, "ruleset": "pool9"}, _shot(1))
    m["log_nested"] = _log(tmp / "nested.jsonl", START, "[" * 100_000 + "]" * 100_000)
    m["log_t_end_first"] = _log(tmp / "tend.jsonl", START, _shot(1, t_start=5.0, t_end=2.0))
    m["log_breaker"] = _log(tmp / "breaker.jsonl", {**START, "breaker": "Zed"}, _shot(1))
    m["log_control_name"] = _log(tmp / "ctrl.jsonl", {**START, "players": ["A\nB", "C"]}, _shot(1))
    m["log_good"] = _log(tmp / "good.jsonl", START, _shot(1))
    m["log_typo"] = _log(tmp / "typo.jsonl", START, {**_shot(1), "nomnation": "blue"})
    m["log_dup_key"] = _log(tmp / "dupkey.jsonl", START, json.dumps(_shot(
        1, positions_before={"white": [100, 100]})).replace(
        '{"white": [100, 100]}', '{"white": [100, 100], "white": [900, 900]}'))
    m["log_breaker_zed"] = _log(tmp / "zed.jsonl", {**START, "breaker": "Zed"})
    m["log_strike_no_ball"] = _log(tmp / "noball.jsonl", START, {
        "type": "shot", "shot": 1, "events": [{"type": "strike", "t": 0.0}]})


@pytest.fixture(scope="module")
def media(tmp_path_factory) -> dict[str, str]:
    """Every file the cases name, made once."""
    tmp = tmp_path_factory.mktemp("bad")
    m: dict[str, str] = {"tmp": str(tmp), "sample": str(SAMPLES / "overhead_miss.mp4"),
                         "sample_log": str(SAMPLES / "overhead_miss.log.jsonl")}
    cap = cv2.VideoCapture(m["sample"])
    frames = [cap.read()[1] for _ in range(40)]
    cap.release()
    m["clip720"] = _video(tmp / "clip720.mp4", [cv2.resize(f, (1280, 720)) for f in frames])
    m["solid"] = _video(tmp / "solid.mp4", [np.full((360, 640, 3), (40, 150, 40), np.uint8)] * 20)
    m["zero_frames"] = _video(tmp / "zero.mp4", [np.zeros((64, 64, 3), np.uint8)])
    Path(m["zero_frames"]).write_bytes(Path(m["zero_frames"]).read_bytes()[:48])
    cv2.imwrite(str(tmp / "still.png"), frames[0])
    m["still"] = str(tmp / "still.png")
    (tmp / "empty.mp4").write_bytes(b"")
    m["empty_video"] = str(tmp / "empty.mp4")
    (tmp / "text.mp4").write_text("this is not a video\n")
    m["text_video"] = str(tmp / "text.mp4")
    (tmp / "a_file").write_text("x")
    m["a_file"] = str(tmp / "a_file")
    (tmp / "a_dir").mkdir()
    m["a_dir"] = str(tmp / "a_dir")
    ro = tmp / "read_only"
    ro.mkdir()
    ro.chmod(0o555)
    m["read_only"] = str(ro)
    _profiles(tmp, m)
    _logs(tmp, m)
    data = (SAMPLES / "overhead_free_ball.mp4").read_bytes()  # its index at the end: cut off
    (tmp / "cut.mp4").write_bytes(data[: len(data) // 3])
    m["cut_index_at_end"] = str(tmp / "cut.mp4")
    import imageio_ffmpeg  # an mp4 that holds no picture at all

    os.system(f'"{imageio_ffmpeg.get_ffmpeg_exe()}" -v error -y -f lavfi -i anullsrc -t 0.2 '
              f'"{tmp / "audio_only.mp4"}"')
    m["audio_only"] = str(tmp / "audio_only.mp4")
    (tmp / "not.json").write_text("{this is not JSON")
    m["not_json"] = str(tmp / "not.json")
    m["camera_truth"] = str(SAMPLES / "broadcast_pots.camera.json")  # JSON, not a profile
    # a folder that already holds a run; one that holds none
    held = tmp / "held"
    held.mkdir()
    (held / "match.log.jsonl").write_text(json.dumps(START) + "\n")
    m["held"] = str(held)
    m["fresh"] = str(tmp / "fresh")
    # a match store with one finished run, for export and report
    from tracker.outputs.store import MatchStore
    from tracker.records.parse import record_from_dict

    store = MatchStore(tmp / "store" / "match.sqlite")
    rid = store.new_run("x.mp4", None, ("A", "B"))
    store.write_record(rid, record_from_dict(START), [])
    store.end_run(rid, {"scoreboard": True})
    store.close()
    m["store"] = str(tmp / "store")
    return m


@dataclass(frozen=True)
class Case:
    """One bad command line: ``argv`` (``{name}``: a file of ``media``), the exit code, a
    fragment the error line holds, and fragments it must not hold."""

    id: str
    argv: tuple[str, ...]
    code: int
    says: str
    never: tuple[str, ...] = ()
    skip_as_root: bool = False


def C(id: str, argv: str, code: int, says: str, never: tuple[str, ...] = (), **kw) -> Case:
    return Case(id, tuple(argv.split()), code, says, never, **kw)


P = "process {sample} --quiet --out {tmp}/out-{id}"  # a process call that could work
CASES = [
    # ---- issue 17: tracebacks
    C("process-out-under-dev-null", "process {sample} --quiet --out /dev/null/x", 2, "--out"),  # issue 17
    C("process-out-is-a-file", "process {sample} --quiet --out {a_file}", 2, "--out"),  # issue 17
    C("process-out-read-only", "process {sample} --quiet --out {read_only}/x", 2, "--out",  # issue 17
      skip_as_root=True),
    C("calibrate-out-under-dev-null", "calibrate {sample} --out /dev/null/x.json", 2, "--out"),  # issue 17
    C("calibrate-out-is-a-folder", "calibrate {sample} --out {a_dir}", 2, "--out"),  # issue 17
    C("calibrate-out-read-only", "calibrate {sample} --out {read_only}/p.json", 2, "--out",  # issue 17
      skip_as_root=True),
    C("profile-is-a-json-list", P + " --calibration {prof_list}", 2, "json object"),  # issue 17
    C("profile-absurd-image-size", P + " --calibration {prof_huge}", 2, "image_size"),  # issue 17
    C("pots-1080p-profile-on-720p-clip", "pots {clip720} --calibration {prof1080}", 2, "1920x1080"),  # issue 17
    C("pots-scale-0", "pots {clip720} --scale 0", 2, "--scale"),  # issue 17
    C("referee-not-utf8", "referee {log_not_utf8}", 2, "utf-8"),  # issue 17
    # ---- issue 17: silent wrong results
    C("players-the-same", P + " --players Ann Ann", 2, "different"),  # issue 17
    C("referee-nan-time", "referee {log_nan}", 2, "nan"),  # issue 17
    C("process-720p-profile-on-1080p-video", P + " --calibration {prof720}", 2, "1280x720"),  # issue 17
    C("referee-negative-time", "referee {log_negative_t}", 2, "negative"),  # issue 17
    C("referee-position-off-table", "referee {log_off_table}", 2, "off the table"),  # issue 17
    C("referee-absurd-table-size", "referee {log_big_table}", 2, "table"),  # issue 17
    C("process-solid-colour-video", P.replace("{sample}", "{solid}"), 2,  # issue 17
      "snooker-tracker calibrate", never=("give the corners with --points",)),
    C("calibrate-ball-diameter-0", "calibrate {sample} --out {tmp}/b0.json --ball-diameter 0", 2,  # issue 17
      "ball diameter", never=("table size",)),
    C("process-ball-diameter-0", P + " --ball-diameter 0", 2, "ball diameter"),  # issue 17
    C("process-inputs-with-nan", P + " --inputs {log_nan}", 2, "nan"),  # issue 17
    # ---- more, as a hostile new user
    C("referee-infinity", "referee {log_inf}", 2, "infinity"),
    C("referee-absurd-time", "referee {log_huge_t}", 2, "time"),
    C("referee-400-digit-time", "referee {log_bigint_t}", 2, "time"),
    C("referee-empty-file", "referee {log_empty}", 2, "no record"),
    C("referee-only-blank-lines", "referee {log_blank}", 2, "no record"),
    C("referee-a-folder", "referee {a_dir}", 2, "folder"),
    C("referee-a-png", "referee {still}", 2, "utf-8"),
    C("referee-a-video", "referee {sample}", 2, "utf-8"),
    C("referee-same-players-in-log", "referee {log_same_players}", 2, "different"),
    C("referee-stroke-numbers-go-back", "referee {log_backwards}", 2, "stroke 1"),
    C("referee-frame-started-twice", "referee {log_dup_start}", 2, "line 2"),
    C("referee-unknown-ruleset", "referee {log_ruleset}", 2, "unknown ruleset"),
    C("referee-deeply-nested-json", "referee {log_nested}", 2, "line 2"),
    C("referee-stroke-ends-before-it-starts", "referee {log_t_end_first}", 2, "t_end"),
    C("referee-breaker-not-a-player", "referee {log_breaker}", 2, "breaker"),
    C("referee-control-character-in-name", "referee {log_control_name}", 2, "name"),
    C("process-png-as-video", "process {still} --quiet --out {tmp}/out-png", 2, "still picture"),
    C("process-empty-file", "process {empty_video} --quiet --out {tmp}/out-empty", 2, "empty"),
    C("process-text-as-video", "process {text_video} --quiet --out {tmp}/out-text", 2, "cannot open"),
    C("process-zero-frames", "process {zero_frames} --quiet --out {tmp}/out-zero", 2, "video"),
    C("process-a-folder", "process {a_dir} --quiet --out {tmp}/out-dir", 2, "folder"),
    C("process-missing-video", "process {tmp}/nope.mp4 --quiet --out {tmp}/out-nope", 2, "no such file"),
    C("process-max-frames-0", P + " --max-frames 0", 2, "--max-frames"),
    C("process-max-frames-negative", P + " --max-frames -5", 2, "--max-frames"),
    C("process-keep-breaks-negative", P + " --keep-breaks -5", 2, "not a break size"),
    C("process-keep-breaks-not-a-number", P + " --keep-breaks lots", 2, "not a break size"),
    C("process-empty-player-name", P + " --players '' Bob", 2, "name"),
    C("process-table-size-garbage", P + " --table-size axb", 2, "--table-size"),
    C("process-table-size-nan", P + " --table-size nanxnan", 2, "--table-size"),
    C("process-table-size-absurd", P + " --table-size 1e300x1e300", 2, "table"),
    C("process-table-size-zero", P + " --table-size 0x0", 2, "table"),
    C("process-realtime-0", P + " --realtime 0", 2, "--realtime"),
    C("process-inputs-not-utf8", P + " --inputs {log_not_utf8}", 2, "utf-8"),
    C("process-inputs-missing", P + " --inputs {tmp}/none.jsonl", 2, "no such file"),
    C("process-inputs-empty", P + " --inputs {log_empty}", 2, "no record"),
    C("process-into-a-folder-holding-a-run", "process {sample} --quiet --out {held}", 2, "--resume"),
    C("process-resume-with-nothing-to-resume", "process {sample} --quiet --resume --out {fresh}", 2,
      "nothing to resume"),
    C("process-profile-missing", P + " --calibration {tmp}/none.json", 2, "no such"),
    C("process-profile-is-a-folder", P + " --calibration {a_dir}", 2, "folder"),
    C("process-profile-not-utf8", P + " --calibration {prof_latin1}", 2, "utf-8"),
    C("process-profile-nan-focal", P + " --calibration {prof_nan}", 2, "NaN"),
    C("process-profile-infinite-focal", P + " --calibration {prof_inf}", 2, "lens.K"),
    C("process-profile-not-a-rotation", P + " --calibration {prof_rot}", 2, "rotation"),
    C("process-profile-absurd-table", P + " --calibration {prof_table}", 2, "table"),
    C("process-profile-is-a-video", P + " --calibration {sample}", 2, "utf-8"),
    C("calibrate-existing-profile", "calibrate {sample} --out {prof1080}", 2, "--force"),
    C("calibrate-hfov-0", "calibrate {sample} --out {tmp}/h0.json --hfov 0", 2, "--hfov"),
    C("calibrate-hfov-nan", "calibrate {sample} --out {tmp}/hn.json --hfov nan", 2, "--hfov"),
    C("calibrate-frame-negative", "calibrate {sample} --out {tmp}/fn.json --frame -1", 2, "--frame"),
    C("calibrate-frame-past-the-end", "calibrate {sample} --out {tmp}/fe.json --frame 100000", 2, "frame"),
    C("calibrate-lens-missing", "calibrate {sample} --out {tmp}/lm.json --lens {tmp}/none.json", 2, "--lens"),
    C("calibrate-lens-without-k", "calibrate {sample} --out {tmp}/lk.json --lens {lens_nok}", 2, "--lens"),
    C("calibrate-lens-not-json", "calibrate {sample} --out {tmp}/lj.json --lens {still}", 2, "--lens"),
    C("calibrate-points-wrong-shape", "calibrate {sample} --out {tmp}/pw.json --points [1,2]", 2, "--points"),
    C("calibrate-a-text-file", "calibrate {text_video} --out {tmp}/tx.json", 2, "video"),
    C("calibrate-table-size-absurd", "calibrate {sample} --out {tmp}/ta.json --table-size 1e300x1e300",
      2, "table"),
    C("calibrate-solid-colour-video", "calibrate {solid} --out {tmp}/so.json", 2, "--points"),
    C("pots-scale-negative", "pots {clip720} --scale -1", 2, "--scale"),
    C("pots-scale-nan", "pots {clip720} --scale nan", 2, "--scale"),
    C("pots-a-png", "pots {still}", 2, "still picture"),
    C("pots-720p-profile-on-1080p", "pots {sample} --calibration {prof720}", 2, "1280x720"),
    C("export-out-under-dev-null", "export {store} --out /dev/null/x.json", 2, "--out"),
    C("export-no-such-run", "export {store} --run 99", 2, "no run 99"),
    C("report-out-under-dev-null", "report {store} --out /dev/null/r.html", 2, "--out"),
    C("report-out-is-a-folder", "report {store} --out {a_dir}", 2, "--out"),
    C("checkerboard-out-under-dev-null", "checkerboard {still} --out /dev/null/l.json", 2, "--out"),
    C("checkerboard-inner-0x0", "checkerboard {still} --inner 0x0 --out {tmp}/l.json", 2, "--inner"),
    C("checkerboard-square-negative", "checkerboard {still} --square -3 --out {tmp}/l2.json", 2, "--square"),
    C("serve-listen-garbage", "serve --store {store} --listen nowhere:port", 2, "port"),
    C("synth-fps-0", "synth --fps 0 --out {tmp}/s0", 2, "--fps"),
    C("synth-size-zero", "synth --size 0x0 --out {tmp}/s1", 2, "--size"),
    C("synth-unknown-scenario", "synth --scenario nope --out {tmp}/s2", 2, "unknown scenario"),
    C("synth-seed-negative", "synth --seed -1 --out {tmp}/s3", 2, "--seed"),
    C("synth-match-no-folder", "synth match", 2, "where to write the match"),
    C("synth-match-size-zero", "synth match {tmp}/m1 --size 0x0", 2, "--size"),
    C("synth-match-idle-negative", "synth match {tmp}/m2 --idle -5", 2, "--idle"),
    C("synth-what-unknown", "synth movie {tmp}/m3", 2, "a match"),
    C("referee-endless-line", "referee /dev/zero", 2, "longer than"),
    C("referee-misspelt-field", "referee {log_typo}", 2, "nomnation"),
    C("referee-a-key-twice", "referee {log_dup_key}", 2, "twice"),
    C("referee-strike-without-ball", "referee {log_strike_no_ball}", 2, "schema"),
    C("process-profile-endless", P + " --calibration /dev/zero", 2, "not a calibration profile"),
    C("process-profile-six-distortion-numbers", P + " --calibration {prof_dist6}", 2, "lens.dist"),
    C("process-out-empty", "process {sample} --quiet --out ''", 2, "--out"),
    C("process-video-is-a-profile", "process {prof1080} --quiet --out {tmp}/out-json", 2,
      "cannot open"),
    C("process-inputs-breaker-not-a-player", P + " --inputs {log_breaker_zed}", 2, "breaker"),
    C("process-overlay-under-dev-null", P + " --overlay /dev/null/o.mp4", 2, "--overlay"),
    C("process-serve-port-out-of-range", P + " --serve 127.0.0.1:99999", 2, "port"),
    C("process-resume-and-force", "process --resume --force --out {held}", 2, "not both"),
    C("process-unknown-detector", P + " --detector yolo", 2, "invalid choice"),
    C("calibrate-points-infinite", "calibrate {sample} --out {tmp}/pi.json --points "
      '[{{"px":[1,2],"mm":[1e400,0]}}]', 2, "finite"),
    C("calibrate-points-unknown-landmark", "calibrate {sample} --out {tmp}/pu.json --points "
      '{{"corner:nope":[1,2]}}', 2, "corner:nope"),
    C("calibrate-points-a-png", "calibrate {sample} --out {tmp}/pp.json --points {still}", 2,
      "--points"),
    C("pots-solid-colour", "pots {solid}", 2, "no table"),
    C("report-no-such-run", "report {store} --run 99 --out {tmp}/r.html", 2, "no run 99"),
    C("report-not-a-store", "report {prof1080} --out {tmp}/r2.html", 2, "not a match store"),
    C("export-not-a-store", "export {prof1080}", 2, "not a match store"),
    C("serve-not-a-store", "serve --store {prof1080}", 2, "not a match store"),
    C("eval-metrics-under-dev-null", "eval --fast --metrics /dev/null/m.json", 2, "--metrics"),
    C("eval-reference-missing", "eval --fast --metrics {tmp}/m.json --reference {tmp}/none.json",
      3, "no reference"),
    C("unknown-command", "frobnicate", 2, "invalid choice"),
    # ---- process, kind by kind (docs/ACCURACY.md, "Bad input to process, kind by kind")
    C("process-truncated-index-at-end", "process {cut_index_at_end} --quiet --out {tmp}/out-cut",
      2, "cannot open"),
    C("process-out-where-nothing-can-be-made", "process {sample} --quiet --out /proc/no/x", 2,
      "--out"),
    C("process-profile-not-json", P + " --calibration {not_json}", 2, "not valid json"),
    C("process-profile-another-json-file", P + " --calibration {camera_truth}", 2,
      "not a calibration profile", never=("None",)),
    C("process-ruleset-unknown", P + " --ruleset nope", 2, "not known"),
    C("process-ruleset-empty", P + " --ruleset ''", 2, "not known"),
    C("process-best-of-0", P + " --best-of 0", 2, "best of 0"),
    C("process-race-to-0", P + " --race-to 0", 2, "race to 0"),
    C("process-players-one-name", P + " --players Ann", 2, "2 arguments"),
    C("process-size-on-a-file", P + " --size 640x480", 2, "standard input"),
    C("process-size-zero", "process - --size 0x0 --quiet --out {tmp}/out-s0", 2, "--size"),
    C("process-fps-0", "process - --size 64x48 --fps 0 --quiet --out {tmp}/out-f0", 2, "--fps"),
    C("process-fps-nan", "process - --size 64x48 --fps nan --quiet --out {tmp}/out-fn", 2, "--fps"),
    C("process-fps-on-a-file", P + " --fps 30", 2, "own frame rate"),
    C("process-camera-not-there", "process 7 --quiet --out {tmp}/out-cam", 2,
      "cannot open the camera"),
    C("process-camera-device-not-there", "process /dev/video9 --quiet --out {tmp}/out-dev", 2,
      "cannot open the camera"),
    C("process-no-picture-in-the-mp4", "process {audio_only} --quiet --out {tmp}/out-audio", 2,
      "give a video with pictures"),
    C("process-stream-unreachable", "process rtsp://127.0.0.1:1/table --quiet --out {tmp}/out-rtsp",
      2, "cannot open the camera or stream"),
    C("process-profile-of-another-camera", P + " --calibration {prof_other_camera}", 2,
      "does not fit"),
    C("process-resume-best-of-0", "process --resume --best-of 0 --out {held}", 2, "--best-of"),
]


def _argv(case: Case, media: dict[str, str]) -> list[str]:
    fields = {**media, "id": case.id}
    return [a.format(**fields).strip("'") for a in case.argv]


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        rc = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        rc = exc.code if isinstance(exc.code, int) else 2
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def error_lines(err: str) -> list[str]:
    """The lines of the program's own messages (what FFmpeg or OpenCV say is not ours)."""
    return [x for x in err.splitlines() if x.startswith("snooker-tracker")]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_is_one_clear_line_and_the_right_exit_code(case, media, capsys):
    if case.skip_as_root and IS_ROOT:
        pytest.skip("root may write into a read-only folder")
    rc, out, err = _run(_argv(case, media), capsys)
    assert "Traceback" not in err + out
    lines = error_lines(err)
    assert rc == case.code, (rc, err[-600:])
    assert len(lines) == 1, err[-600:]
    assert case.says.lower() in lines[0].lower(), lines[0]
    for bad in case.never:
        assert bad.lower() not in err.lower(), err
    assert not re.search(r'"scoreboard"|"profile"|"report"|"export"|"shots": \d', out), out  # no result


def test_the_table_holds_every_case_of_the_issue_and_more():
    marked = [c for c in CASES if c.id in ISSUE_CASES]
    assert len(marked) == len(ISSUE_CASES) and len(CASES) - len(marked) >= 15


ISSUE_CASES = {
    "process-out-under-dev-null", "process-out-is-a-file", "process-out-read-only",
    "calibrate-out-under-dev-null", "calibrate-out-is-a-folder", "calibrate-out-read-only",
    "profile-is-a-json-list", "profile-absurd-image-size", "pots-1080p-profile-on-720p-clip",
    "pots-scale-0", "referee-not-utf8", "players-the-same", "referee-nan-time",
    "process-720p-profile-on-1080p-video", "referee-negative-time", "referee-position-off-table",
    "referee-absurd-table-size", "process-solid-colour-video", "calibrate-ball-diameter-0",
    "process-ball-diameter-0", "process-inputs-with-nan",
}


def test_a_folder_that_holds_a_run_is_left_as_it_was(media, capsys):
    held = Path(media["held"])
    before = {p.name: p.read_bytes() for p in held.iterdir()}
    rc, _, _ = _run(["process", media["sample"], "--quiet", "--out", str(held)], capsys)
    assert rc == 2 and {p.name: p.read_bytes() for p in held.iterdir()} == before


def test_an_existing_profile_is_not_replaced(media, capsys):
    before = Path(media["prof1080"]).read_bytes()
    rc, _, _ = _run(["calibrate", media["sample"], "--out", media["prof1080"]], capsys)
    assert rc == 2 and Path(media["prof1080"]).read_bytes() == before


def test_odd_but_valid_inputs_work(media, capsys, tmp_path):
    """Unicode names and a --max-frames far past the end are fine: the whole clip, exit 0; a
    second run into its folder is refused, the finished match left as it was."""
    rc, out, err = _run(["process", media["clip720"], "--quiet", "--players", "Zoë", "丁俊晖",
                         "--max-frames", str(10**30), "--out", str(tmp_path / "o")], capsys)
    assert rc == 0, err
    summary = json.loads(out.splitlines()[-1])
    assert set(summary["score"]) == {"Zoë", "丁俊晖"} and summary["frames"] == 40
    assert summary["video_end"] == "complete"
    # the finished match is not written over by a second run into its folder
    done = tmp_path / "o"
    before = {p.name: p.read_bytes() for p in done.iterdir() if p.is_file()}
    rc, out, err = _run(["process", media["clip720"], "--quiet", "--out", str(done)], capsys)
    assert rc == 2 and len(error_lines(err)) == 1 and "--resume" in err and not out
    assert {p.name: p.read_bytes() for p in done.iterdir() if p.is_file()} == before


def test_the_bundled_sample_is_found_outside_the_checkout(monkeypatch, tmp_path):
    """Installed (not editable) and run elsewhere: `process` with no video finds the sample in
    the package, or says plainly how to get it."""
    from tracker import cli, samples

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(samples, "CHECKOUT", tmp_path / "no-checkout")
    path = samples.sample_video()
    assert path.is_file() and path.name == "overhead_frame.mp4"
    monkeypatch.setattr(samples, "PACKAGED", tmp_path / "not-packaged")
    with pytest.raises(samples.SampleMissing, match="give a VIDEO"):
        samples.sample_video()
    assert cli.main(["process", "--quiet", "--out", str(tmp_path / "o")]) == 3


def test_eval_outside_the_checkout_says_what_it_needs(monkeypatch, tmp_path, capsys):
    from tracker import evaluate

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(evaluate, "ROOT", tmp_path)
    monkeypatch.setattr(evaluate, "SAMPLES", tmp_path / "sample_videos")
    monkeypatch.setattr(evaluate, "REFERENCE", tmp_path / "bench" / "reference-metrics.json")
    rc, _, err = _run(["eval", "--fast", "--metrics", str(tmp_path / "m.json")], capsys)
    assert rc == 3 and "checkout" in err and "Traceback" not in err


def test_eval_without_pooltool_says_what_it_needs(monkeypatch, tmp_path, capsys):
    from tracker.synth import physics

    def missing():
        raise physics.PhysicsUnavailable("pooltool is not installed: pip install ...")

    monkeypatch.setattr(physics, "ensure_pooltool", missing)
    rc, _, err = _run(["eval", "--fast", "--metrics", str(tmp_path / "m.json")], capsys)
    assert rc == 3 and "pooltool" in err and "Traceback" not in err


def test_ctrl_c_during_process_keeps_the_calls_and_says_how_to_go_on(media, tmp_path, capsys,
                                                                  monkeypatch):
    from tracker import pipeline

    real_step = pipeline.RefereeRun.step

    def step(self, frame, *args, **kw):
        if frame.index == 15:
            raise KeyboardInterrupt
        return real_step(self, frame, *args, **kw)

    monkeypatch.setattr(pipeline.RefereeRun, "step", step)
    out = tmp_path / "o"
    rc, _, err = _run(["process", media["clip720"], "--quiet", "--out", str(out)], capsys)
    assert rc == 130 and "--resume" in err and "Traceback" not in err
    board = json.loads((out / "scoreboard.json").read_text())
    assert board["video_end"] == "interrupted" and "warning" in board


def test_an_unexpected_error_is_called_a_bug_with_its_traceback_in_a_file(monkeypatch, capsys,
                                                                         tmp_path):
    from tracker import cli
    from tracker.cli import referee

    def boom(args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setenv("SNOOKER_TRACKER_CRASH_DIR", str(tmp_path))
    monkeypatch.setattr(referee, "cmd_referee", boom)
    rc, out, err = _run(["referee"], capsys)
    lines = error_lines(err)
    assert rc == cli.EXIT_BUG and len(lines) == 1 and "bug" in lines[0] and "Traceback" not in err
    crash = next(tmp_path.glob("snooker-tracker-crash-*.log"))
    assert str(crash) in lines[0] and "ZeroDivisionError" in crash.read_text()


def test_a_truncated_video_is_reported_in_the_summary_scoreboard_and_store(tmp_path, capsys):
    import imageio_ffmpeg

    from tracker.outputs.store import MatchStore

    whole = tmp_path / "whole.mp4"  # the moov atom first, so that a cut file still opens
    os.system(f'"{imageio_ffmpeg.get_ffmpeg_exe()}" -v error -y -i '
              f'"{SAMPLES / "overhead_free_ball.mp4"}" -c copy -movflags faststart "{whole}"')
    data = whole.read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(data[: len(data) * 2 // 5])
    out = tmp_path / "o"
    rc, stdout, err = _run(["process", str(cut), "--quiet", "--out", str(out)], capsys)
    assert rc == 0 and "ended early" in err
    summary = json.loads(stdout.splitlines()[-1])
    assert summary["video_end"] == "truncated" and "ended early" in summary["warning"]
    assert summary["frames"] < 339
    board = json.loads((out / "scoreboard.json").read_text())
    assert board["video_end"] == "truncated" and "ended early" in board["warning"]
    run = MatchStore(out / "match.sqlite", readonly=True).latest_run()
    assert run["summary"]["video_end"] == "truncated" and run["status"] == "finished"
