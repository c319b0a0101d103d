"""The lights dimmed or flickering as a session fault (issue 28): a clip refereed as it is and
again with the lights failing over a stretch of it (:mod:`tracker.synth.lights`); the calls
compared stroke for stroke, and the frames not refereed counted.

    .venv/bin/python bench/lights.py [--clip PATH] [--seconds S] [--write-doc]

The cases: the lights dimmed to half, flickering frame to frame between full and 60 %,
flickering with rolling-shutter bands, and nearly off (10 %: too dark to mend, so those
frames should be marked not refereed, with no call made on them). A call is what a scorer keeps of a stroke (striker,
foul, penalty, points, balls potted (a red as a red), score, frame over and winner); a call the faulted run
makes that the plain one does not is invented, one it lacks is lost.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from runinfo import run_info  # noqa: E402

from tracker.evaluate import replace_section  # noqa: E402
from tracker.pipeline import process_video  # noqa: E402
from tracker.sources import VideoFileSource  # noqa: E402
from tracker.synth.lights import LightsFault, LightsSource  # noqa: E402

SECTION = "Lights dimmed or flickering (a session fault)"
#: What the figures mean (written under the table).
NOTE = ('Nearly off (10 %), the pictures are too dark to mend: they are not refereed (as a '
        "knocked camera's) and nothing is called on them, but the strokes played in the dark "
        'are not seen, so the calls after the light is back start from a table whose change '
        'the camera missed (the invented and lost calls of that row: among them a foul on '
        'the blue and the score behind); what happened in the dark is for the operator to '
        'enter. Dimmed to half and flickering, the pictures are mended '
        "(`tracker/perception/lighting.py`) and every call is the plain run's.")
CALL_KEYS = ("shot", "striker", "foul", "penalty", "points", "potted", "score", "frame_over",
             "winner")


def cases(a: float, b: float) -> dict[str, LightsFault]:
    """The faults, each over ``a`` .. ``b`` seconds of the clip."""
    return {"dimmed to half": LightsFault(dim_s=(a, b), dim_gain=0.5),
            "flickering 100 % / 60 %": LightsFault(flicker_s=(a, b)),
            "flickering with bands": LightsFault(flicker_s=(a, b), banding=0.3),
            "nearly off (10 %)": LightsFault(dim_s=(a, b), dim_gain=0.1)}


def calls_of(decisions: list[dict[str, Any]]) -> list[tuple]:
    """What a scorer keeps of each stroke's call (:data:`CALL_KEYS`; which red went down
    is no call: ``red_03`` is ``red``)."""
    return [tuple(json.dumps(sorted(b.split("_")[0] for b in d["potted"]) if k == "potted"
                             else d.get(k), sort_keys=True) for k in CALL_KEYS)
            for d in decisions if "shot" in d]


def referee(clip: Path, fault: LightsFault | None, seconds: float | None) -> dict[str, Any]:
    """The clip refereed (its first ``seconds``), with the lights failing as ``fault`` says."""
    source = VideoFileSource(clip)
    max_frames = int(round(seconds * source.fps)) if seconds else None
    src = source if fault is None else LightsSource(source, fault)
    t0 = time.perf_counter()
    res = process_video(src, None, players=("Ann", "Bob"), progress=False,
                        max_frames=max_frames)
    return {"calls": calls_of(res.decisions), "frames": res.frames,
            "not_refereed": res.not_refereed_frames, "seconds": round(time.perf_counter() - t0, 1)}


def compare(plain: list[tuple], faulted: list[tuple]) -> dict[str, int]:
    """Calls equal, invented (in ``faulted`` only) and lost (in ``plain`` only), as multisets."""
    from collections import Counter

    p, f = Counter(plain), Counter(faulted)
    return {"equal": sum((p & f).values()), "invented": sum((f - p).values()),
            "lost": sum((p - f).values()), "same_list": plain == faulted}


def doc_section(fig: dict[str, Any], info: dict[str, Any]) -> str:
    """The ACCURACY.md section."""
    lines = [f"## {SECTION}", "",
             f"Measured {info['date']} on {info['machine']}, commit `{info['commit']}`, by "
             f"`{info['command']}` ({info['seconds']} s in all). The clip: `{fig['clip']}`, "
             f"{fig['frames']} frames; the lights fail from {fig['from_s']} s to {fig['to_s']} s "
             f"(`tracker/synth/lights.py`). The plain run made {len(fig['plain']['calls'])} "
             "calls; each faulted run is compared with it stroke for stroke (striker, foul, "
             "penalty, points, balls potted, score, frame over, winner).", "",
             "| lights | calls equal | invented | lost | same calls in order | frames not "
             "refereed |", "|---|---|---|---|---|---|",
             f"| as they are | {len(fig['plain']['calls'])} | - | - | - | "
             f"{fig['plain']['not_refereed']} |"]
    for name, r in fig["faulted"].items():
        c = r["compare"]
        lines.append(f"| {name} | {c['equal']} | {c['invented']} | {c['lost']} | "
                     f"{'yes' if c['same_list'] else 'no'} | {r['not_refereed']} |")
    lines += ["", NOTE]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clip", default=str(ROOT / "sample_videos" / "overhead_frame.mp4"))
    ap.add_argument("--seconds", type=float, default=None, help="only the clip's first seconds")
    ap.add_argument("--from-s", type=float, default=8.0, help="the lights fail from here, s")
    ap.add_argument("--to-s", type=float, default=20.0, help="... to here, s")
    ap.add_argument("--write-doc", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    clip = Path(args.clip)
    plain = referee(clip, None, args.seconds)
    fig: dict[str, Any] = {"clip": clip.name, "frames": plain["frames"], "from_s": args.from_s,
                           "to_s": args.to_s, "plain": plain, "faulted": {}}
    for name, fault in cases(args.from_s, args.to_s).items():
        r = referee(clip, fault, args.seconds)
        r["compare"] = compare(plain["calls"], r["calls"])
        fig["faulted"][name] = r
        print(name, json.dumps(r["compare"]), "not refereed", r["not_refereed"], flush=True)
    info = run_info(("python bench/lights.py " + " ".join(argv or sys.argv[1:])).rstrip(),
                    time.perf_counter() - t0)
    fig.update(info)
    (ROOT / "docs" / "metrics-lights.json").write_text(json.dumps(fig, indent=1, default=str))
    if args.write_doc:
        replace_section(ROOT / "docs" / "ACCURACY.md", SECTION, doc_section(fig, info))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
