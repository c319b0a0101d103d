"""A whole synthetic match through ``process``, judged against its truth (issue 28).

    flock /tmp/heavy.lock .venv/bin/python bench/match_video.py [--short] [--dir DIR]
        [--reuse] [--write-doc] [--json FILE] [--doc-from JSON]

Makes the match video (``snooker-tracker synth match``: three frames of 6-red snooker, best of
3, re-racks by hand, frame 2 conceded, an idle minute with the table empty and one with people
walking past, the camera knocked in frame 3; 1280x720, 25 fps) into DIR (default
``out/match-video``, or ``out/match-video-short`` with ``--short``), or with ``--reuse``
takes the one already there, then runs ``python -m tracker.cli process VIDEO --out DIR/run
--inputs NAME.keyed.jsonl --quiet`` on it: the set-up a hall keys in before play (players, 6
reds, best of 3, who breaks first) and what the players say and choose during play as a marker
keys it in (nominations, "play again" after a foul, a concession: :func:`keyed_log`), nothing
of the outcome
(``--setup-only``: the set-up alone; the truth's referee then knows choices the run does not). It scores the run's
``decisions.jsonl`` and ``match.log.jsonl`` with :func:`tracker.synth.match_score.score_run`
(frames found, each frame's breaker, score and winner, frames won, the match's winner, calls
made in the idle stretches, the concession marked for review).

Writes docs/metrics-match-video.json (or ``--json FILE``) always and the "Synthetic match
through process" section of docs/ACCURACY.md with ``--write-doc``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.runinfo import run_info  # noqa: E402
from tracker.evaluate import replace_section  # noqa: E402

SECTION = "Synthetic match through process"
NAME = "match"


def make_video(folder: Path, short: bool) -> dict[str, Any]:
    """Render the match into ``folder`` (``synth match``); its summary line."""
    cmd = [sys.executable, "-m", "tracker.cli", "synth", "match", str(folder), "--name", NAME,
           "--quiet", *(["--short"] if short else [])]
    t0 = time.perf_counter()
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if res.returncode != 0:
        raise SystemExit(f"synth match failed: {res.stderr.strip().splitlines()[-1:]}")
    summary = json.loads(res.stdout.strip().splitlines()[-1])
    summary["wall_s"] = round(time.perf_counter() - t0, 1)
    return summary


#: The operator inputs a hall keys in during play (the players' choices, which no camera sees:
#: after a foul, "play again"; a concession, by whom).
KEYED_INPUTS = ("option", "concede")


def keyed_log(folder: Path) -> Path:
    """Write ``NAME.keyed.jsonl``: the set-up, plus what the players said and chose during play
    as a hall's marker keys it in (each stroke's nomination and free-ball nomination; after a
    foul, the incoming player's choice such as "play again"; a concession, by whom), taken
    from the match log that the truth's referee was given. Nothing of the outcome: each stroke
    is an empty record (no positions, no events) that only carries what was said for it, so
    the inputs stay tied to their stroke numbers. The frames after the first are left to the
    run to find (no frame start of theirs). The camera cannot tell who conceded: the match
    has the player ahead on frames concede while ahead in points, where the run's guess from
    a re-rack seen (the player behind conceded) is wrong by design."""
    lines = [ln for ln in (folder / f"{NAME}.setup.jsonl").read_text().splitlines()
             if ln.strip() and not ln.startswith("//")]
    for ln in (folder / f"{NAME}.log.jsonl").read_text().splitlines():
        if not ln.strip() or ln.startswith("//"):
            continue
        rec = json.loads(ln)
        if rec["type"] == "shot":
            said = {k: rec[k] for k in ("nomination", "free_ball") if rec.get(k) is not None}
            lines.append(json.dumps({"type": "shot", "version": rec["version"],
                                     "shot": rec["shot"], "t_start": rec["t_start"],
                                     "t_end": rec["t_end"], "positions_before": {},
                                     "positions_after": {}, "events": [], **said}))
        elif rec["type"] == "input" and rec["input"] in KEYED_INPUTS:
            lines.append(ln)
    path = folder / f"{NAME}.keyed.jsonl"
    path.write_text("// Made by bench/match_video.py: the set-up and what the players said and "
                    "chose during play, as keyed in.\n" + "\n".join(lines) + "\n")
    return path


def run_process(folder: Path, setup_only: bool = False) -> dict[str, Any]:
    """``process`` on the match video into ``folder/run`` (replaced); exit code and seconds.
    Its inputs: :func:`keyed_log` (or, ``setup_only``, the set-up alone)."""
    run = folder / "run"
    if run.exists():
        shutil.rmtree(run)
    inputs = folder / f"{NAME}.setup.jsonl" if setup_only else keyed_log(folder)
    cmd = [sys.executable, "-m", "tracker.cli", "process", str(folder / f"{NAME}.mp4"),
           "--out", str(run), "--inputs", str(inputs), "--quiet"]
    t0 = time.perf_counter()
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    board = run / "scoreboard.json"
    read = json.loads(board.read_text()).get("frames") if board.exists() else None
    return {"exit": res.returncode, "seconds": round(time.perf_counter() - t0, 1),
            "video_frames_read": read, "stderr_tail": res.stderr.strip().splitlines()[-3:],
            "command": "python -m tracker.cli process " + " ".join(
                str(Path(c).relative_to(ROOT)) if c.startswith(str(ROOT)) else c for c in cmd[4:])}


def doc_section(fig: dict[str, Any], info: dict[str, Any], made: dict[str, Any],
                proc: dict[str, Any], other: dict[str, Any] | None = None) -> str:
    """The ACCURACY.md section (``other``: a ``--setup-only`` run's figures file, quoted)."""
    lines = [
        f"## {SECTION}",
        "",
        f"Measured {info['date']} on {info['machine']}, commit `{info['commit']}`, by "
        f"`{info['command']}` ({info.get('seconds', '?')} s in all; `process` "
        f"{proc['seconds']} s, exit {proc['exit']}; "
        + ("the video made by an earlier run, reused" if made.get("reused") else
           f"the video rendered in {made.get('render_s', '?')} s")
        + "). The video: "
        f"{made['duration_s'] / 60:.1f} min at {made['size'][0]}x{made['size'][1]}, "
        "three frames of 6-red snooker (best of 3) played by the bot, re-racks by hand, frame 2 "
        "conceded, an idle minute with the table empty and one with people walking past, the "
        "camera knocked in frame 3 (`snooker-tracker synth match`). `process` is given the "
        "match's set-up (players, 6 reds, best of 3, who breaks first)"
        + (" only." if proc.get("inputs") == "set-up only" else
           " and what the players said and chose during play as a marker keys it in (each "
           "stroke's nomination; after a foul, the incoming player's \"play again\"; frame 2's "
           "concession, by whom), which no camera sees and the truth's referee was given: "
           "nothing of the outcome, and no frame start after the first (the run finds the "
           "racks). With the set-up only (`--setup-only`) the run has to guess who conceded "
           "from the re-rack (the player behind in points), and the match has the player "
           "ahead concede."),
        "",
        "| frame | breaker right | score (truth) | score (run) | exact | winner right | how it ended |",
        "|---|---|---|---|---|---|---|"]
    for r in fig["frames"]:
        got = "not found" if not r["found"] else ("not ended" if r["score_got"] is None
                                                   else _score(r["score_got"]))
        how = r["how_truth"] + ("" if "concession_for_review" not in r else
                                (", marked for review" if r["concession_for_review"]
                                 else ", not marked for review"))
        lines.append(f"| {r['frame']} | {'yes' if r['breaker_right'] else 'no'} | "
                     f"{_score(r['score_truth'])} | {got} | {'yes' if r['score_exact'] else 'no'} | "
                     f"{'yes' if r['winner_right'] else 'no'} | {how} |")
    lines += [
        "",
        f"Frames found {fig['frames_found']} of {fig['frames_truth']} (ended "
        f"{fig['frames_ended']}); scores exact {fig['scores_exact']}; frames won "
        f"{'right' if fig['frames_won_right'] else 'wrong'} (truth {_won(fig['frames_won_truth'])}, "
        f"run {_won(fig['frames_won_got'])}); the match's winner "
        f"{'right' if fig['match_winner_right'] else 'wrong'} (truth {fig['match_winner_truth']}, "
        f"run {fig['match_winner_got']}); calls {fig['calls']} against {fig['strokes_truth']} "
        f"strokes played, {fig.get('strokes_matched', '?')} on a stroke of the truth, "
        f"{fig.get('calls_right', '?')} of them with its foul and points; calls in the idle stretches {fig['idle_calls']}, outside every frame "
        f"{fig['calls_outside_frames']}. Whole match right: "
        f"{'yes' if fig['match_right'] else 'no'}."]
    if other is not None:
        o = other["summary"]
        lines += ["", f"Given the set-up only (`--setup-only`, commit `{other['commit']}`, "
                  f"{other['date']}): frames found {o['frames_found']} of {o['frames_truth']}, "
                  f"scores exact {o['scores_exact']}, winners right {o['winners_right']}, the "
                  f"match's winner {'right' if o['match_winner_right'] else 'wrong'}, "
                  f"{o.get('calls_right', '?')} of {o['calls']} calls with their foul and points, "
                  f"concession marked for review {o['concessions_for_review']} of "
                  f"{o['concessions_truth']}."]
    read, total = proc.get("video_frames_read"), made.get("video_frames")
    unseen = [f["frame"] for f in fig.get("frames", []) if not f.get("found")]
    if read and total and read < total and unseen:
        fps = total / made["duration_s"]
        idles = [s for s in fig.get("idle", []) if s["start_s"] < read / fps]
        lines += ["", f"`process` read {read} of the video's {total} frames: it stopped at "
                  f"{read / fps:.0f} s, so frames {', '.join(map(str, unseen))} were not "
                  f"refereed and {len(idles)} of the {len(fig.get('idle', []))} idle stretches "
                  "were watched."]
    elif read and total and read < total:
        lines += ["", f"`process` read {read} of the video's {total} frames: it stops when the "
                  "match is over (no next match was set)."]
    return "\n".join(lines) + "\n"


def _won(w: dict[str, int] | None) -> str:
    return "none" if not w else ", ".join(f"{p} {v}" for p, v in w.items())


def _score(s: dict[str, int] | None) -> str:
    return "-" if not s else "-".join(str(v) for v in s.values())


def main(argv: list[str] | None = None) -> int:
    from tracker.synth.match_score import score_run

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--short", action="store_true", help="the tiny version (a quick check)")
    ap.add_argument("--dir", help="where the video and the run go")
    ap.add_argument("--reuse", action="store_true", help="use the video already in --dir")
    ap.add_argument("--write-doc", action="store_true")
    ap.add_argument("--setup-only", action="store_true",
                    help="give process the set-up alone, not the players' nominations and "
                         "choices keyed in during play")
    ap.add_argument("--json", help="where the figures go (default docs/metrics-match-video.json)")
    ap.add_argument("--setup-only-from", metavar="JSON",
                    help="quote a --setup-only run's figures (its --json file) in the section")
    ap.add_argument("--doc-from", metavar="JSON",
                    help="write the ACCURACY section from a run's figures (its own date, commit "
                         "and timing) without running again")
    args = ap.parse_args(argv)
    if args.doc_from:
        data = json.loads(Path(args.doc_from).read_text())
        replace_section(ROOT / "docs" / "ACCURACY.md", SECTION,
                        doc_section({**data["summary"], "frames": data["frames"]}, data,
                                    data["video"], data["process"]))
        return 0
    folder = Path(args.dir or ROOT / "out" / ("match-video-short" if args.short else "match-video"))
    t0 = time.perf_counter()
    if args.reuse and (folder / f"{NAME}.truth.json").exists():
        truth = json.loads((folder / f"{NAME}.truth.json").read_text())
        made = {"duration_s": truth["duration_s"], "size": truth["plan"]["size"],
                "video_frames": truth["video_frames"], "reused": True}
    else:
        made = make_video(folder, args.short)
    print(json.dumps({"video": made}), flush=True)
    proc = run_process(folder, args.setup_only)
    proc["inputs"] = "set-up only" if args.setup_only else "set-up and keyed choices"
    fig = score_run(folder / f"{NAME}.truth.json", folder / "run")
    fig["idle"] = json.loads((folder / f"{NAME}.truth.json").read_text())["idle"]
    info = run_info(("python bench/match_video.py " + " ".join(argv or sys.argv[1:])).rstrip(),
                    time.perf_counter() - t0)
    out = {"summary": {k: v for k, v in fig.items() if k != "frames"}, "frames": fig["frames"],
           "video": made, "process": proc, **info}
    print(json.dumps(out["summary"]))
    Path(args.json or ROOT / "docs" / "metrics-match-video.json").write_text(
        json.dumps(out, indent=1, default=str))
    if args.write_doc:
        other = (json.loads(Path(args.setup_only_from).read_text())
                 if args.setup_only_from else None)
        replace_section(ROOT / "docs" / "ACCURACY.md", SECTION,
                        doc_section(fig, info, made, proc, other))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
