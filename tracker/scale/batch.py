"""``snooker-tracker batch``: referee a folder or a list of videos, one task per video.

Layout of the output folder ``OUT``:

- ``OUT/<name>/``: one video's outputs, as ``process --out`` writes them (match log,
  decisions, scoreboard, calibration) and its own match store ``match.sqlite``;
- ``OUT/<name>/done.json``: written last, atomically, once the video is refereed to its end
  (its summary, and the video's size and modification time): a video with it is not redone;
- ``OUT/index.json``: the merged index, one entry per video (name, path, status, score,
  strokes, store), rewritten atomically as videos finish.

One store per video, not one for the batch: tasks on different machines never wait on one
SQLite file's lock, a video killed half way leaves only its own folder to clear, and a
finished video's store is never opened again. ``index.json`` merges them for a person or a
script; ``snooker-tracker export OUT/<name>`` reads any one.

Resuming: a video is done when its ``done.json`` exists and names the same file (size and
modification time); any other video's folder is cleared and the video refereed again.

Ray (``--ray``, the default when it is installed): one ``ray.remote`` task per video
(``num_cpus=1``), on a local Ray (``ray.init()``) or a cluster (``--address``). Without Ray,
or with ``--no-ray``, the same function runs in a loop in this process.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

VIDEO_SUFFIXES = (".mp4", ".mkv", ".avi", ".mov", ".m4v", ".ts")
DONE_NAME = "done.json"
INDEX_NAME = "index.json"


class BatchError(RuntimeError):
    """The batch cannot run; the message says why and what to do."""


@dataclass(frozen=True)
class Job:
    """One video of a batch: its path and the name of its output folder."""

    video: str
    name: str


def list_videos(spec: str | Path) -> list[str]:
    """The videos a user means: every video file in a folder (sorted), or the lines of a list
    file (one path a line, ``#`` comments; relative paths from the list's folder).

    Raises:
        BatchError: no such folder or file, or no video in it.
    """
    p = Path(spec)
    if p.is_dir():
        out = sorted(str(f) for f in p.iterdir() if f.suffix.lower() in VIDEO_SUFFIXES)
    elif p.is_file():
        out = []
        for line in p.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                f = Path(line)
                out.append(str(f if f.is_absolute() else p.parent / f))
        missing = [v for v in out if not Path(v).is_file()]
        if missing:
            raise BatchError(f"{p}: {len(missing)} listed videos do not exist (the first: "
                             f"{missing[0]}); fix the list")
    else:
        raise BatchError(f"{p}: no such folder or list file; give a folder of videos or a text "
                         "file with one video path a line")
    if not out:
        raise BatchError(f"{p}: no video in it (looked for {', '.join(VIDEO_SUFFIXES)})")
    return out


def plan(videos: Iterable[str]) -> list[Job]:
    """A job per video; output folders named after the file, made unique by a number."""
    jobs, used = [], set()
    for v in videos:
        stem = Path(v).stem
        name, k = stem, 2
        while name in used:
            name, k = f"{stem}-{k}", k + 1
        used.add(name)
        jobs.append(Job(v, name))
    return jobs


def _stamp(video: str) -> dict[str, Any]:
    st = os.stat(video)
    return {"video": str(Path(video).resolve()), "size": st.st_size, "mtime": st.st_mtime}


def is_done(job: Job, out: Path) -> bool:
    """Whether the video was refereed to its end into ``out/<name>`` (and is the same file)."""
    f = out / job.name / DONE_NAME
    try:
        done = json.loads(f.read_text())
    except (OSError, ValueError):
        return False
    return {k: done.get(k) for k in ("video", "size", "mtime")} == _stamp(job.video)


def _write_atomic(path: Path, data: Any) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=1))
    os.replace(tmp, path)


def referee_one(video: str, out_dir: str, detector: str = "auto") -> dict[str, Any]:
    """Referee one video into ``out_dir`` (cleared first: a run killed half way left it) and
    mark it done. Operator inputs are read from ``VIDEO.log.jsonl`` beside the video when
    there is one (stem + ``.log.jsonl``). Returns the summary (``error`` set when the video
    could not be refereed; it is then not marked done)."""
    from tracker.outputs.store import STORE_NAME, StoreWriter
    from tracker.pipeline import VideoError, inputs_from_log, process_video, spoken_from_log

    out = Path(out_dir)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    log = Path(video).with_suffix(".log.jsonl")
    t0 = time.time()
    try:
        inputs = inputs_from_log(log) if log.is_file() else None
        spoken = spoken_from_log(log) if log.is_file() else None
        res = process_video(video, out, progress=False, inputs=inputs, spoken=spoken,
                            listeners=[StoreWriter(out / STORE_NAME, video)], detector=detector)
    except (VideoError, ValueError, OSError) as exc:
        return {"video": video, "status": "failed", "error": str(exc)}
    summary = {"video": video, "status": "done", "score": res.score, "shots": len(res.shots),
               "frames": res.frames, "not_refereed_frames": res.not_refereed_frames,
               "video_end": res.end.reason if res.end else None, "seconds": time.time() - t0,
               "store": str(out / STORE_NAME)}
    _write_atomic(out / DONE_NAME, {**_stamp(video), **summary})
    return summary


class Index:
    """``OUT/index.json``: the merged index of a batch, rewritten as videos finish."""

    def __init__(self, out: Path, jobs: list[Job]):
        self.path = out / INDEX_NAME
        self.entries: dict[str, dict[str, Any]] = {}
        for j in jobs:
            done = out / j.name / DONE_NAME
            entry = {"name": j.name, "video": j.video, "status": "pending"}
            if is_done(j, out):
                entry.update({k: v for k, v in json.loads(done.read_text()).items()
                              if k not in ("size", "mtime")}, video=j.video, status="done")
            self.entries[j.name] = entry
        self.save()

    def update(self, name: str, summary: dict[str, Any]) -> None:
        self.entries[name].update(summary)
        self.save()

    def save(self) -> None:
        _write_atomic(self.path, {"videos": list(self.entries.values())})


def run_batch(spec: str | Path, out: str | Path, use_ray: bool = True,
              address: str | None = None, detector: str = "auto",
              on_done: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Referee every video of ``spec`` (folder or list) into ``out``, skipping those done.

    Returns {"done": n, "skipped": n, "failed": n, "seconds": s, "index": path}.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    jobs = plan(list_videos(spec))
    index = Index(out, jobs)
    todo = [j for j in jobs if not is_done(j, out)]
    t0 = time.time()
    counts = {"done": 0, "skipped": len(jobs) - len(todo), "failed": 0}

    def finished(job: Job, summary: dict[str, Any]) -> None:
        counts["done" if summary.get("status") == "done" else "failed"] += 1
        index.update(job.name, summary)
        if on_done:
            on_done({"name": job.name, **summary})

    if todo and use_ray:
        _run_ray(todo, out, address, detector, finished)
    else:
        for j in todo:
            finished(j, referee_one(j.video, str(out / j.name), detector))
    return {**counts, "seconds": time.time() - t0, "index": str(index.path)}


def _run_ray(jobs: list[Job], out: Path, address: str | None, detector: str,
             finished: Callable[[Job, dict[str, Any]], None]) -> None:
    ray = require_ray()
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 configure_logging=False)
    task = ray.remote(num_cpus=1, max_retries=1)(referee_one)
    pending = {task.remote(j.video, str(out / j.name), detector): j for j in jobs}
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            job = pending.pop(ref)
            try:
                summary = ray.get(ref)
            except Exception as exc:  # a worker died: the video stays not done
                summary = {"video": job.video, "status": "failed", "error": str(exc).splitlines()[0]}
            finished(job, summary)


def require_ray():
    """The ``ray`` module, or a BatchError saying how to get it."""
    try:
        import ray
    except ImportError:
        raise BatchError("Ray is not installed: pip install -e '.[ray]' (or run with --no-ray "
                         "for a plain loop in this process)") from None
    return ray
