"""High breaks kept on video: every break of at least a threshold gets a clip of its strokes.

The breaks are those of :mod:`tracker.stats` (a visit's points scored by potting, from the
referee's current calls: :meth:`tracker.stats.MatchStats.breaks`); nothing is re-derived
here. A break's clip runs from :attr:`HighBreakParams.pad_before_s` before its first strike
(the first stroke's ``t_start``) to :attr:`HighBreakParams.pad_after_s` after its last stroke's
end (``t_end``, all balls at rest), cut from the table's video with ffmpeg (the one
``imageio-ffmpeg`` ships):

- re-encoded (default, :attr:`HighBreakParams.reencode` True; H.264 ``veryfast``): the clip
  starts and ends where asked (to a video frame); on the bundled 1080p25 samples a 24.5 s clip
  took about 4 s of CPU;
- or by stream copy (``reencode`` False): no decoding, milliseconds for any length, but a
  clip can only start on a key frame, so it starts at the key frame at or before the padded
  start: up to one key-frame interval earlier (10 s on the bundled samples), never later, so
  the break's first strike is always in it.

Clips are written to ``breaks/`` beside the table's outputs (``OUT/breaks/`` for ``process``,
``OUT/NAME/breaks/`` for a hall table), named ``frame{F}-shot{S}-{player}-{points}.mp4``
(``match{M}-`` before it from a run's second match on: a table's day), and a row per break
goes into the store's ``high_breaks`` table: ``run_id``, ``match``, ``frame``, ``first_shot``,
``player``, ``points``, ``shots`` (JSON list), ``t_start``/``t_end`` (the clip's window, s of
video), ``clip`` (the file's path relative to the store's folder), ``created`` (s since the
epoch). :func:`kept_breaks` reads them (an empty list from a store that has none).

Sources: a video FILE is cut when the run ends (:class:`HighBreakClips`), or afterwards with
:func:`keep_high_breaks`. A live source (a camera, a stream URL, frames on a pipe) has no file
to cut from: :mod:`tracker.outputs.streamclips` keeps a rolling recording of its pictures and
cuts each break from it as the break ends (same rows, same names, same links).
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tracker.listeners import RunListener
from tracker.outputs.store import MatchStore
from tracker.stats import Visit, match_stats, split_by_match

if TYPE_CHECKING:
    from tracker.pipeline import RefereeRun

log = logging.getLogger(__name__)

#: The folder, beside a table's outputs, that holds its clips.
BREAKS_DIR = "breaks"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS high_breaks(
    run_id INTEGER NOT NULL, frame INTEGER NOT NULL, first_shot INTEGER NOT NULL,
    player TEXT, points INTEGER NOT NULL, shots TEXT, t_start REAL, t_end REAL, clip TEXT,
    created REAL NOT NULL, match INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY(run_id, match, frame, first_shot));
"""
#: The columns a row is written with (``match``: the match of the run, see
#: :mod:`tracker.outputs.schema`).
_COLUMNS = ("run_id", "match", "frame", "first_shot", "player", "points", "shots", "t_start",
            "t_end", "clip", "created")


@dataclass(frozen=True)
class HighBreakParams:
    """Which breaks are kept and how their clips are cut.

    Attributes:
        threshold: a break of at least this many points is kept (leagues keep 50+ and 100+).
        pad_before_s: the clip starts this long before the break's first strike (s).
        pad_after_s: and ends this long after its last stroke's balls stop (s).
        reencode: cut exactly by re-encoding (slower) instead of by stream copy (module
            docstring).
        timeout_s: an ffmpeg cut that takes longer is abandoned (s).
    """

    threshold: int = 50
    pad_before_s: float = 2.0
    pad_after_s: float = 1.0
    reencode: bool = True
    timeout_s: float = 120.0


#: The parameters used unless others are given.
DEFAULT_BREAK_PARAMS = HighBreakParams()


class ClipError(RuntimeError):
    """A clip could not be cut; the message says why."""


def high_breaks(log_: list[dict[str, Any]], decisions: list[dict[str, Any]],
                params: HighBreakParams = DEFAULT_BREAK_PARAMS) -> list[Visit]:
    """The breaks of a match (:mod:`tracker.stats`) of at least ``params.threshold`` points,
    in order, from its match log and the referee's calls (dicts, as the store gives them)."""
    return [v for v in match_stats(log_, decisions).breaks() if v.points >= params.threshold]


def high_breaks_by_match(log_: list[dict[str, Any]], decisions: list[dict[str, Any]],
                         params: HighBreakParams = DEFAULT_BREAK_PARAMS
                         ) -> list[tuple[int, Visit]]:
    """:func:`high_breaks` of each match of a run (a table's day holds several), as
    ``(match number from 1, break)`` in order."""
    return [(n, v) for n, v in visits_by_match(log_, decisions) if v.points >= params.threshold]


def visits_by_match(log_: list[dict[str, Any]], decisions: list[dict[str, Any]]
                    ) -> list[tuple[int, Visit]]:
    """Every visit of a run (:mod:`tracker.stats`, scoring or not), as ``(match number from
    1, visit)`` in order; the last may still be under way (``ended`` "still at the table")."""
    return [(n, v) for n, (lg, calls) in enumerate(split_by_match(log_, decisions), start=1)
            for v in match_stats(list(lg), list(calls)).visits]


def clip_window(visit: Visit, params: HighBreakParams = DEFAULT_BREAK_PARAMS
                ) -> tuple[float, float]:
    """The clip's start and end (s of video) around a break (module docstring)."""
    if visit.t_start is None or visit.t_end is None:
        raise ClipError(f"the break of {visit.points} by {visit.player} has no stroke times")
    return max(0.0, visit.t_start - params.pad_before_s), visit.t_end + params.pad_after_s


def cut_clip(video: str | Path, t0: float, t1: float, out: str | Path,
             params: HighBreakParams = DEFAULT_BREAK_PARAMS) -> Path:
    """Cut ``video`` from ``t0`` to ``t1`` (s) into ``out`` (an .mp4) with ffmpeg; returns
    ``out``. Raises ClipError (one line) when the video cannot be read or the cut fails."""
    import imageio_ffmpeg

    video, out = Path(video), Path(out)
    if not video.is_file():
        raise ClipError(f"{video}: no such video file to cut the break from")
    if t1 <= t0:
        raise ClipError(f"the clip would end ({t1:.2f} s) before it starts ({t0:.2f} s)")
    out.parent.mkdir(parents=True, exist_ok=True)
    codec = (["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-an"] if params.reencode
             else ["-c", "copy", "-avoid_negative_ts", "make_zero"])
    cmd = [imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-y",
           "-ss", f"{t0:.3f}", "-to", f"{t1:.3f}", "-i", str(video), *codec,
           "-movflags", "+faststart", str(out)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=params.timeout_s,
                              check=False)
    except subprocess.TimeoutExpired:
        raise ClipError(f"cutting {out.name} took over {params.timeout_s:g} s") from None
    if done.returncode != 0 or not out.is_file() or out.stat().st_size == 0:
        said = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise ClipError(f"could not cut {out.name} from {video.name}: {said}")
    return out


def clip_name(visit: Visit, match: int = 1) -> str:
    """The clip's file name: ``frame{F}-shot{S}-{player}-{points}.mp4`` (a safe name),
    ``match{M}-`` before it for the run's second match and after."""
    player = re.sub(r"[^A-Za-z0-9_-]+", "_", visit.player).strip("_") or "player"
    prefix = f"match{match}-" if match > 1 else ""
    return f"{prefix}frame{visit.frame}-shot{visit.shots[0]}-{player}-{visit.points}.mp4"


def _ensure_table(store: MatchStore) -> None:
    """The ``high_breaks`` table, keyed by match too (one written before is rebuilt with its
    breaks as match 1's)."""
    cols = {r[1] for r in store.db.execute("PRAGMA table_info(high_breaks)").fetchall()}
    if cols and "match" not in cols:
        store.db.execute("ALTER TABLE high_breaks RENAME TO high_breaks_v1")
        store.db.executescript(_SCHEMA)
        store.db.execute(f"INSERT INTO high_breaks({', '.join(_COLUMNS)}) SELECT run_id, 1, "
                         "frame, first_shot, player, points, shots, t_start, t_end, clip, "
                         "created FROM high_breaks_v1")
        store.db.execute("DROP TABLE high_breaks_v1")
    store.db.executescript(_SCHEMA)


def keep_high_breaks(store: MatchStore, run_id: int, video: str | Path, out_dir: str | Path,
                     params: HighBreakParams = DEFAULT_BREAK_PARAMS) -> list[dict[str, Any]]:
    """Cut a clip of every high break of the run not kept yet into ``out_dir/breaks/`` and
    record it in the store (opened for writing); returns the rows written. A break whose
    clip cannot be cut is logged and skipped (the others are still kept)."""
    visits = high_breaks_by_match(store.log(run_id),
                                  [d["decision"] for d in store.decisions(run_id)], params)
    done = breaks_kept_keys(store, run_id)
    folder = Path(out_dir) / BREAKS_DIR
    rows = []
    for match, v in visits:
        if (match, v.frame, v.shots[0]) in done:
            continue
        try:
            t0, t1 = clip_window(v, params)
            path = cut_clip(video, t0, t1, folder / clip_name(v, match), params)
        except ClipError as exc:
            log.warning("break of %d by %s not kept on video: %s", v.points, v.player, exc)
            continue
        rows.append(record_break(store, run_id, match, v, (t0, t1), path))
    return rows


def breaks_kept_keys(store: MatchStore, run_id: int) -> set[tuple[int, int, int]]:
    """``(match, frame, first stroke)`` of each break of the run already kept (the
    ``high_breaks`` table made if missing)."""
    _ensure_table(store)
    return {tuple(r) for r in store.db.execute(
        "SELECT match, frame, first_shot FROM high_breaks WHERE run_id=?", (run_id,))}


def record_break(store: MatchStore, run_id: int, match: int, visit: Visit,
                 window: tuple[float, float], path: Path) -> dict[str, Any]:
    """Write the store's row for a break kept in the clip ``path`` (``window``: the clip's
    start and end, s of video); returns the row."""
    _ensure_table(store)
    row = {"run_id": run_id, "match": match, "frame": visit.frame, "first_shot": visit.shots[0],
           "player": visit.player, "points": visit.points, "shots": list(visit.shots),
           "t_start": window[0], "t_end": window[1],
           "clip": _relative(path, store.path.parent), "created": time.time()}
    store.db.execute(f"INSERT OR REPLACE INTO high_breaks({', '.join(_COLUMNS)}) "
                     f"VALUES({', '.join('?' * len(_COLUMNS))})",
                     [json.dumps(row[k]) if k == "shots" else row[k] for k in _COLUMNS])
    return row


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path.resolve())


def kept_breaks(store: MatchStore, run_id: int | None = None) -> list[dict[str, Any]]:
    """The high breaks kept in the store (all runs, or one), best first; [] when none were."""
    has = store.db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND "
                           "name='high_breaks'").fetchone()
    if not has:
        return []
    where, args = ("WHERE run_id=?", (run_id,)) if run_id is not None else ("", ())
    cols = {r[1] for r in store.db.execute("PRAGMA table_info(high_breaks)").fetchall()}
    by_match = "match, " if "match" in cols else ""  # a table written before: match 1's
    rows = store.db.execute(f"SELECT * FROM high_breaks {where} ORDER BY points DESC, run_id, "
                            f"{by_match}frame, first_shot", args).fetchall()
    return [{**dict(r), "shots": json.loads(r["shots"] or "[]")} for r in rows]


def clips_section(store: MatchStore, run_id: int, link_from: Path) -> str:
    """The report's "High breaks on video" section: one link per kept clip of the run,
    relative to ``link_from`` (the report's folder); "" when the run kept none."""
    import os
    from html import escape

    rows = kept_breaks(store, run_id)
    if not rows:
        return ""
    items = []
    for b in rows:
        target = Path(b["clip"]) if Path(b["clip"]).is_absolute() else store.path.parent / b["clip"]
        href = Path(os.path.relpath(target.resolve(), Path(link_from).resolve())).as_posix()
        items.append(f"<li><a href='{escape(href)}'>{b['points']} by {escape(str(b['player']))}"
                     f"</a> (frame {b['frame']}, strokes {b['shots'][0]} to {b['shots'][-1]})</li>")
    return "<h2 id='high-breaks'>High breaks on video</h2><ul>" + "".join(items) + "</ul>"


def is_file_source(source: str | Path) -> bool:
    """True when ``source`` is a video file (a clip can be cut from it), not a camera or a
    stream."""
    text = str(source)
    return not text.isdigit() and "://" not in text and Path(text).is_file()


class HighBreakClips(RunListener):
    """Keeps the run's high breaks on video when it ends (:func:`keep_high_breaks`).

    Args:
        store_path: the run's match store (the run's writer must come BEFORE this listener,
            so that its ``run_id`` is known).
        writer: the run's :class:`tracker.outputs.store.StoreWriter` (gives the run's id).
        source: what the run refereed: only a video file can be cut (module docstring).
        out_dir: the table's output folder (clips go to ``out_dir/breaks``).
    """

    def __init__(self, store_path: str | Path, writer: Any, source: str | Path,
                 out_dir: str | Path, params: HighBreakParams = DEFAULT_BREAK_PARAMS):
        self.store_path, self.writer, self.source = Path(store_path), writer, source
        self.out_dir, self.params = Path(out_dir), params
        self.kept: list[dict[str, Any]] = []

    def on_end(self, run: RefereeRun, summary: dict[str, Any]) -> None:
        if self.writer.run_id is None:
            return
        if not is_file_source(self.source):
            log.info("high breaks are kept on video for video files only; %s is live",
                     self.source)
            return
        store = MatchStore(self.store_path)
        try:
            self.kept = keep_high_breaks(store, self.writer.run_id, self.source, self.out_dir,
                                         self.params)
        finally:
            store.close()
