"""High-break clips from a live source: a rolling recording of the table's pictures, cut as
each break ends.

A camera or a stream keeps no file to cut a break from (:mod:`tracker.outputs.highbreaks`
cuts files when the run ends). While a live source is refereed, :class:`RollingRecording`
writes the pictures the run sees into short H.264 files (segments of
:attr:`RecordingParams.segment_s`, scaled to :attr:`RecordingParams.height`, one ffmpeg
process per segment fed raw pictures on a thread of its own, so the referee's loop only
hands a picture over). Old segments are deleted to stay within
:attr:`RecordingParams.disk_mb`, except those a break still under way may need (from
``pad_before_s`` before its first strike). When a break of at least the threshold ends (the
other player is to play, a foul, or the frame over: :mod:`tracker.stats` visits), and the
recording has reached the clip's end, its clip is cut from the segments by stream copy (no
re-encoding: a clip starts on the key frame at or before the padded start, at most
:attr:`RecordingParams.key_every_s` early), written to ``breaks/`` with the same name, store
row and links as a file's clip. A break still under way when the run ends is cut from what
was recorded. The recording's folder (``recording/`` beside the outputs) is removed at the end.

Times: a live frame's ``t`` is its index over the source's frame rate
(:class:`tracker.sources.CaptureSource`), so a stroke's times map to frame indexes. A picture
the run skipped to keep up (or the queue could not take) is filled by repeating the last one;
a stream lost for longer than :attr:`RecordingParams.max_fill_s` starts a new segment (the
clip jumps over the gap). Only breaks whose strokes this run saw are cut (a resumed run's
earlier breaks were not recorded).
"""

from __future__ import annotations

import logging
import queue
import shutil
import subprocess
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tracker.listeners import FrameView, RunListener
from tracker.outputs.highbreaks import (
    BREAKS_DIR,
    DEFAULT_BREAK_PARAMS,
    ClipError,
    HighBreakClips,
    HighBreakParams,
    breaks_kept_keys,
    clip_name,
    clip_window,
    is_file_source,
    record_break,
    visits_by_match,
)
from tracker.outputs.store import MatchStore
from tracker.records.shot import Shot
from tracker.stats import ENDED_UNFINISHED, Visit

log = logging.getLogger(__name__)

#: The folder, beside a table's outputs, that holds the rolling recording while a run lasts.
RECORDING_DIR = "recording"


@dataclass(frozen=True)
class RecordingParams:
    """How a live source's pictures are recorded for its high-break clips.

    Attributes:
        segment_s: length of one recorded file (s of video); the disk budget is kept a segment
            at a time.
        disk_mb: the recording's disk budget (MB, 10^6 bytes): the oldest segments beyond it
            are deleted, unless a break under way may need them.
        height: pictures are scaled to this height (pixels, even), width in proportion; 0:
            recorded at their own size.
        crf: H.264 quality (libx264 constant rate factor: lower is better and larger).
        preset: libx264 speed preset (``ultrafast`` costs least CPU).
        key_every_s: a key frame at least this often (s): a clip may start this much early.
        max_fill_s: a jump between pictures up to this long (s; frames skipped to keep up) is
            filled by repeating the last picture; a longer one (a lost stream) starts a new
            segment.
        queue_frames: pictures waiting for the recording thread; when it is full a picture
            is left out (filled by repetition, as a skipped one).
        timeout_s: an ffmpeg process (a segment's end, a cut) that takes longer is abandoned.
    """

    segment_s: float = 10.0
    disk_mb: float = 300.0
    height: int = 540
    crf: int = 28
    preset: str = "ultrafast"
    key_every_s: float = 1.0
    max_fill_s: float = 1.0
    queue_frames: int = 12
    timeout_s: float = 60.0


#: The parameters used unless others are given.
DEFAULT_RECORDING = RecordingParams()


@dataclass
class Segment:
    """One recorded file: ``count`` pictures from source frame ``first`` on (one a frame)."""

    path: Path
    first: int
    count: int = 0
    bytes: int = 0

    @property
    def end(self) -> int:
        """The index of the source frame after its last picture."""
        return self.first + self.count


def _ffmpeg() -> str:
    import imageio_ffmpeg

    return imageio_ffmpeg.get_ffmpeg_exe()


class RollingRecording:
    """A live source's pictures in segments on disk, kept within a budget (module docstring).

    :meth:`add` is called from the referee's thread and only queues the picture; a thread of
    the recording's own scales, encodes (an ffmpeg process per segment) and deletes. Cuts
    are queued behind the pictures (:meth:`request_cut`), so a cut sees every picture added
    before it was asked for.

    Args:
        folder: where the segments go (made; removed by :meth:`close`).
        fps: the source's frames per second (a frame's time is its index over this).
        params: the tunables.
    """

    def __init__(self, folder: str | Path, fps: float,
                 params: RecordingParams = DEFAULT_RECORDING):
        self.folder, self.fps, self.params = Path(folder), float(fps), params
        self.folder.mkdir(parents=True, exist_ok=True)
        self.segments: list[Segment] = []
        self.left_out = 0  # pictures the queue could not take
        self.deleted = 0  # segments deleted to keep within the budget
        self.failed: str | None = None  # why the recording stopped (an encoder that failed)
        self.keep_from = 0  # frames from this index on are never deleted
        self._lock = threading.Lock()
        self._queue: queue.Queue = queue.Queue(maxsize=max(1, params.queue_frames))
        self._proc: subprocess.Popen | None = None
        self._size: tuple[int, int] | None = None
        self._last: memoryview | None = None
        self._made = 0
        self._thread = threading.Thread(target=self._run, name="break-recording", daemon=True)
        self._thread.start()

    # --- the referee's thread -------------------------------------------------------------
    def add(self, index: int, image: np.ndarray) -> None:
        """Queue source frame ``index``'s picture (BGR uint8, (H, W, 3)); left out when the
        queue is full."""
        try:
            self._queue.put_nowait(("frame", index, image))
        except queue.Full:
            self.left_out += 1

    def request_cut(self, t0: float, t1: float, out: Path) -> Future:
        """Cut s ``t0`` to ``t1`` of the source into ``out`` once every picture queued so far
        is written; the future gives ``out`` or raises :class:`ClipError`."""
        done: Future = Future()
        try:
            self._queue.put(("cut", t0, t1, out, done), timeout=self.params.timeout_s)
        except queue.Full:  # the recording's thread is stuck: the run goes on without it
            done.set_exception(ClipError("the recording did not answer in time"))
        return done

    def wait_written(self) -> None:
        """Wait until every picture and cut queued so far is done."""
        self._queue.join()

    def close(self, remove: bool = True) -> None:
        """Write what is queued, end the last segment, stop the thread and (``remove``)
        delete the recording's folder."""
        try:
            self._queue.put(("stop",), timeout=self.params.timeout_s)
        except queue.Full:
            log.warning("the recording for high-break clips did not stop in time")
        self._thread.join(timeout=self.params.timeout_s)
        if remove:
            shutil.rmtree(self.folder, ignore_errors=True)

    @property
    def key_frames(self) -> int:
        """Frames from one key frame to the next (each segment starts on one)."""
        return max(1, int(round(self.params.key_every_s * self.fps)))

    @property
    def disk_bytes(self) -> int:
        """Bytes the finished segments hold."""
        with self._lock:
            return sum(s.bytes for s in self.segments if s is not self._open_segment())

    # --- the recording's thread -----------------------------------------------------------
    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item[0] == "stop":
                    self._finish_segment()
                    return
                if self.failed is not None:  # recording no more; cuts are refused
                    if item[0] == "cut":
                        item[4].set_exception(ClipError(f"the recording failed: {self.failed}"))
                elif item[0] == "frame":
                    self._write(item[1], item[2])
                else:
                    self._cut(*item[1:])
            except Exception as exc:  # noqa: BLE001 - a broken encoder must not end the run
                self.failed = str(exc) or type(exc).__name__
                log.warning("the recording for high-break clips stopped (the run goes on; its "
                            "breaks get no clip): %s", self.failed)
                if item[0] == "cut" and not item[4].done():
                    item[4].set_exception(ClipError(f"the recording failed: {self.failed}"))
            finally:
                self._queue.task_done()

    def _open_segment(self) -> Segment | None:
        return self.segments[-1] if self._proc is not None and self.segments else None

    def _picture(self, image: np.ndarray) -> memoryview:
        if self._size is None:
            h, w = image.shape[:2]
            th = self.params.height or h
            th = min(th, h) - min(th, h) % 2
            self._size = (max(2, int(round(w * th / h / 2)) * 2), th)
        if image.shape[1::-1] != self._size:
            image = cv2.resize(image, self._size, interpolation=cv2.INTER_AREA)
        return memoryview(np.ascontiguousarray(image)).cast("B")

    def _write(self, index: int, image: np.ndarray) -> None:
        picture = self._picture(image)
        seg = self._open_segment()
        fill = self.params.max_fill_s * self.fps
        if seg is not None and (index < seg.end or index - seg.end > fill
                                or seg.count >= self.params.segment_s * self.fps):
            self._finish_segment()
            seg = None
        if seg is None:
            seg = self._start_segment(index)
        assert self._proc is not None and self._proc.stdin is not None
        for _ in range(index - seg.end):  # frames skipped to keep up: the last picture again
            self._proc.stdin.write(self._last or picture)
        self._proc.stdin.write(picture)
        with self._lock:
            seg.count = index + 1 - seg.first
        self._last = picture

    def _start_segment(self, index: int) -> Segment:
        p = self.params
        w, h = self._size or (0, 0)
        path = self.folder / f"seg{self._made:06d}.ts"
        self._made += 1
        cmd = [_ffmpeg(), "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo",
               "-pix_fmt", "bgr24", "-s", f"{w}x{h}", "-r", f"{self.fps:g}", "-i", "-", "-an",
               "-c:v", "libx264", "-preset", p.preset, "-crf", str(p.crf), "-threads", "1",
               "-g", str(self.key_frames), "-sc_threshold", "0", "-bf", "0",
               "-pix_fmt", "yuv420p", "-muxdelay", "0", "-muxpreload", "0", "-f", "mpegts",
               str(path)]
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE)
        seg = Segment(path, index)
        with self._lock:
            self.segments.append(seg)
        return seg

    def _finish_segment(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=self.params.timeout_s)
        seg = self.segments[-1]
        with self._lock:
            seg.bytes = seg.path.stat().st_size if seg.path.is_file() else 0
            if seg.count == 0:
                self.segments.pop()
                seg.path.unlink(missing_ok=True)
        self._keep_budget()

    def _keep_budget(self) -> None:
        """Delete the oldest finished segments beyond the disk budget that no break under way
        needs (ends at or before :attr:`keep_from`)."""
        budget = self.params.disk_mb * 1e6
        with self._lock:
            while (self.segments and sum(s.bytes for s in self.segments) > budget
                   and self.segments[0].end <= self.keep_from
                   and self.segments[0] is not self._open_segment()):
                self.segments.pop(0).path.unlink(missing_ok=True)
                self.deleted += 1

    def _cut(self, t0: float, t1: float, out: Path, done: Future) -> None:
        i0, i1 = int(np.floor(t0 * self.fps)), int(np.ceil(t1 * self.fps))
        seg = self._open_segment()
        if seg is not None and seg.first < i1:
            self._finish_segment()  # the clip needs its pictures: this segment ends now
        try:
            done.set_result(cut_segments(self.segments, i0, i1, self.fps, out,
                                         self.key_frames, self.params.timeout_s))
        except ClipError as exc:
            done.set_exception(exc)


def cut_segments(segments: list[Segment], i0: int, i1: int, fps: float, out: Path,
                 key_frames: int = 1, timeout_s: float = 60.0) -> Path:
    """Cut source frames ``i0`` to ``i1`` (end excluded) from finished ``segments`` into
    ``out`` (.mp4) by stream copy (ffmpeg's concat list with in and out points); returns
    ``out``. A segment has a key frame every ``key_frames`` from its first: the clip starts
    on the one at or before ``i0``. Raises ClipError (one line) when none of those frames was
    recorded."""
    parts = [s for s in segments if s.count and s.end > i0 and s.first < i1 and s.path.is_file()]
    if not parts:
        raise ClipError("its pictures were not recorded (before the recording started, or "
                        "deleted to keep within the recording's disk budget)")
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = ["ffconcat version 1.0"]
    for s in parts:
        lines.append(f"file '{s.path.resolve().as_posix()}'")
        if i0 > s.first:
            lines.append(f"inpoint {(i0 - s.first) // key_frames * key_frames / fps:.4f}")
        if i1 < s.end:
            lines.append(f"outpoint {(i1 - s.first) / fps:.4f}")
    listing = out.with_suffix(".txt")
    listing.write_text("\n".join(lines) + "\n")
    cmd = [_ffmpeg(), "-hide_banner", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0",
           "-i", str(listing), "-c", "copy", "-movflags", "+faststart", str(out)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s,
                              check=False)
    except subprocess.TimeoutExpired:
        raise ClipError(f"cutting {out.name} took over {timeout_s:g} s") from None
    finally:
        listing.unlink(missing_ok=True)
    if done.returncode != 0 or not out.is_file() or out.stat().st_size == 0:
        said = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise ClipError(f"could not cut {out.name} from the recording: {said}")
    return out


@dataclass(frozen=True)
class _Pending:
    """A break over whose clip is still to be cut (``future`` None: its end not yet
    recorded)."""

    match: int
    visit: Visit
    window: tuple[float, float]
    future: Future | None = None


class StreamBreakClips(RunListener):
    """Keeps a live run's high breaks on video from a :class:`RollingRecording` (module
    docstring): the same clips, rows and links as :class:`HighBreakClips` gives a file.

    Args:
        store_path: the run's match store (the run's writer must come BEFORE this listener).
        writer: the run's :class:`tracker.outputs.store.StoreWriter` (gives the run's id).
        out_dir: the table's output folder (clips to ``out_dir/breaks``, the recording to
            ``out_dir/recording`` while the run lasts).
        params: which breaks and the clips' padding.
        recording: how the pictures are recorded.
        hold_s: the last this many seconds are never deleted, so a stroke under way (not yet
            called) is recorded from before its strike (s).
    """

    def __init__(self, store_path: str | Path, writer: Any, out_dir: str | Path,
                 params: HighBreakParams = DEFAULT_BREAK_PARAMS,
                 recording: RecordingParams = DEFAULT_RECORDING, hold_s: float = 120.0):
        self.store_path, self.writer, self.out_dir = Path(store_path), writer, Path(out_dir)
        self.params, self.rec_params, self.hold_s = params, recording, hold_s
        self.recording: RollingRecording | None = None
        self.kept: list[dict[str, Any]] = []
        self._store: MatchStore | None = None
        self._seen: set[int] = set()  # strokes this run saw (a resumed run's earlier: not)
        self._asked: set[tuple[int, int, int]] = set()
        self._pending: list[_Pending] = []
        self._open_from: float | None = None  # the first strike of a visit under way (s)
        self._last = -1  # the newest frame added

    def on_frame(self, run: Any, view: FrameView) -> None:
        if self.recording is None:
            self.recording = RollingRecording(self.out_dir / RECORDING_DIR, run.source_fps,
                                              self.rec_params)
        self.recording.add(view.frame.index, view.frame.image)
        self._last = max(self._last, view.frame.index)
        self._move_on(final=False)

    def on_record(self, run: Any, record: Any, decisions: list[dict[str, Any]]) -> None:
        if self.writer.run_id is None:
            return
        if isinstance(record, Shot):
            self._seen.add(record.shot)
        if self.recording is not None:  # a stroke, or a concession that ends the frame
            self._look(final=False)

    def on_end(self, run: Any, summary: dict[str, Any]) -> None:
        if self.recording is None:
            return
        try:
            if self.writer.run_id is not None:
                self._look(final=True)
                self._move_on(final=True)
        finally:
            self.recording.close()
            if self._store is not None:
                self._store.close()

    def _db(self) -> MatchStore:
        if self._store is None:
            self._store = MatchStore(self.store_path)
        return self._store

    def _look(self, final: bool) -> None:
        """After a stroke (or at the end): every break of the threshold that is over (all,
        when ``final``), seen by this run and not kept nor asked for yet, waits for its clip;
        a visit under way holds the recording from its first strike."""
        store, rid = self._db(), self.writer.run_id
        visits = visits_by_match(store.log(rid), [d["decision"] for d in store.decisions(rid)])
        under_way = (visits[-1][1] if visits and not final
                     and visits[-1][1].ended == ENDED_UNFINISHED else None)
        self._open_from = under_way.t_start if under_way is not None else None
        done = breaks_kept_keys(store, rid) | self._asked
        for match, v in visits:
            key = (match, v.frame, v.shots[0])
            if (v is under_way or v.points < self.params.threshold or key in done
                    or v.shots[0] not in self._seen):
                continue
            try:
                window = clip_window(v, self.params)
            except ClipError as exc:
                log.warning("break of %d by %s not kept on video: %s", v.points, v.player, exc)
                continue
            self._asked.add(key)
            self._pending.append(_Pending(match, v, window))

    def _move_on(self, final: bool) -> None:
        """Ask for the cuts whose clip end is recorded (all, when ``final``), store the clips
        cut (waiting for them when ``final``), and hold what is still needed."""
        assert self.recording is not None
        fps, folder = self.recording.fps, self.out_dir / BREAKS_DIR
        for i, p in enumerate(self._pending):
            if p.future is None and (final or p.window[1] * fps <= self._last):
                self._pending[i] = _Pending(p.match, p.visit, p.window, self.recording.request_cut(
                    *p.window, folder / clip_name(p.visit, p.match)))
        still = []
        for p in self._pending:
            if p.future is None or not (final or p.future.done()):
                still.append(p)
                continue
            try:
                path = p.future.result(timeout=self.rec_params.timeout_s)
            except (ClipError, TimeoutError) as exc:
                log.warning("break of %d by %s not kept on video: %s", p.visit.points,
                            p.visit.player, exc)
                continue
            self.kept.append(record_break(self._db(), self.writer.run_id, p.match, p.visit,
                                          p.window, path))
        self._pending = still
        starts = [p.window[0] for p in still] + [self._last / fps - self.hold_s]
        if self._open_from is not None:
            starts.append(self._open_from - self.params.pad_before_s)
        self.recording.keep_from = int(np.floor(min(starts) * fps))


def high_break_listener(store_path: str | Path, writer: Any, source: str | Path,
                        out_dir: str | Path, params: HighBreakParams = DEFAULT_BREAK_PARAMS
                        ) -> RunListener:
    """What keeps a run's high breaks on video: :class:`HighBreakClips` (cut when the run
    ends) for a video file, :class:`StreamBreakClips` (a rolling recording) for a camera, a
    stream or a pipe."""
    if is_file_source(source):
        return HighBreakClips(store_path, writer, source, out_dir, params)
    return StreamBreakClips(store_path, writer, out_dir, params)
