"""The overlay video: the calls drawn on the picture, for people who do not read JSON.

``process --overlay FILE`` adds an :class:`OverlayWriter` (a
:class:`tracker.listeners.RunListener`) that draws on every processed frame:

- each ball's identity: a ring in the ball's colour, the colour's name beside it (reds only a
  ring: a person cannot tell them apart, nor needs to);
- short trails behind moving balls (the last :data:`TRAIL_S` seconds);
- the first contact of the stroke (a cross where the cue ball met the first ball, with its
  name) and every pot (a ring at the pocket with the ball and the pocket's name), held
  :data:`MARK_HOLD_S`;
- a score bar (players, frame score, the player at the table marked by an arrow and bold
  type, the break with the balls potted in it, points remaining, reds remaining, snookers
  required, frames won and best of N) and the last foul named beside it (above a bar at the
  bottom, below one at the top). The bar goes at the bottom, the top, or (``auto``, the
  default) at the bottom unless the broadcaster's own graphic is there
  (:mod:`tracker.outputs.bar_place`; ``process --overlay-bar``);
- a banner for each call ("FOUL AND A MISS", "4 to Bob · FREE BALL"), held
  :data:`BANNER_HOLD_S` (calls that come together follow each other, each shown
  :data:`BANNER_MIN_S` at least), and the review note of a call that needs one, wrapped onto
  as many lines as it takes. The banner moves off the top when a mark (a pot at a top pocket)
  is there.

Calls are drawn when the referee makes them: at the end of a stroke (when all balls are at
rest), so the first-contact mark appears then, at the place it happened. The video is H.264
through imageio-ffmpeg (plays in browsers), at the source's frame rate and size.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from tracker import balls as B
from tracker.listeners import RunListener
from tracker.outputs.bar_place import BarParams, free_band
from tracker.outputs.board import Banner, Board
from tracker.records.shot import EventType, Record
from tracker.words import ball_words, pocket_words

if TYPE_CHECKING:
    from calibration.profile import Calibration
    from tracker.listeners import FrameView
    from tracker.pipeline import RefereeRun

#: How long a call's banner stays on screen, s of video.
BANNER_HOLD_S = 3.0
#: A banner shows at least this long before the next call's banner replaces it, s of video.
BANNER_MIN_S = 1.5
#: How long a pot or first-contact mark stays, s of video.
MARK_HOLD_S = 3.0
#: Length of a moving ball's trail, s.
TRAIL_S = 0.6
#: x264 speed preset and quality (lower CRF: better, bigger).
X264_PRESET = "veryfast"
X264_CRF = 23

#: Ring and label colours per ball kind (BGR).
BALL_BGR = {"white": (245, 245, 245), "red": (40, 40, 220), "yellow": (40, 220, 240),
            "green": (60, 170, 60), "brown": (40, 80, 140), "blue": (220, 120, 30),
            "pink": (180, 140, 250), "black": (30, 30, 30)}
#: Banner background per call kind (BGR).
BANNER_BGR = {"foul": (30, 30, 190), "miss": (20, 20, 150), "pot": (40, 120, 30),
              "safe": (70, 70, 70), "input": (120, 80, 30), "frame": (20, 110, 170),
              "error": (0, 110, 200)}
FONT = cv2.FONT_HERSHEY_DUPLEX


def _ascii(text: str) -> str:
    """Hershey fonts draw ASCII only."""
    return text.replace("—", "-").replace("·", "|").replace("–", "-").encode(
        "ascii", "replace").decode()


def _text(img: np.ndarray, text: str, org: tuple[int, int], scale: float,
          colour: tuple[int, int, int], thick: int = 1, shadow: bool = True) -> None:
    text = _ascii(text)
    if shadow:
        cv2.putText(img, text, (org[0] + 2, org[1] + 2), FONT, scale, (0, 0, 0), thick + 2,
                    cv2.LINE_AA)
    cv2.putText(img, text, org, FONT, scale, colour, thick, cv2.LINE_AA)


def _box(img: np.ndarray, x0: int, y0: int, x1: int, y1: int, bgr: tuple[int, int, int],
         alpha: float = 0.8) -> None:
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(img.shape[1], x1), min(img.shape[0], y1)
    if x1 <= x0 or y1 <= y0:
        return
    roi = img[y0:y1, x0:x1]
    roi[:] = (roi * (1 - alpha) + np.array(bgr) * alpha).astype(np.uint8)


class OverlayPainter:
    """Draws the overlay on frames (no file: :class:`OverlayWriter` writes them).

    Args:
        calibration: the camera (table mm -> image px).
        fps: the source's frame rate.
        bar_place: where the score bar goes: ``bottom`` or ``top``.
    """

    def __init__(self, calibration: Calibration, fps: float, bar_place: str = "bottom"):
        self.cal = calibration
        self.bar_place = bar_place
        self.fps = fps
        self.r_mm = calibration.table.ball_radius
        self.board = Board()
        self.trails: dict[str, deque[tuple[float, tuple[int, int]]]] = {}
        self.history: deque[tuple[float, dict[str, tuple[float, float]]]] = deque(
            maxlen=max(2, int(fps * 30)))
        self.banners: list[tuple[float, Banner]] = []
        self.marks: list[tuple[float, str, tuple[int, int], str]] = []  # t, kind, px, label
        self.t = 0.0

    def px(self, mm: tuple[float, float], z: float | None = None) -> tuple[int, int]:
        """Table mm -> image px (at the ball centre's height by default)."""
        p = self.cal.to_image(np.array([mm], float), self.r_mm if z is None else z)[0]
        return int(round(p[0])), int(round(p[1]))

    def ball_px(self) -> float:
        """A ball's radius in px near the table's centre."""
        t = self.cal.table
        a = self.cal.to_image(np.array([[t.width / 2, t.length / 2]]), self.r_mm)[0]
        b = self.cal.to_image(np.array([[t.width / 2 + self.r_mm, t.length / 2]]), self.r_mm)[0]
        return max(4.0, float(np.hypot(*(b - a))))

    # --- what happened --------------------------------------------------------------------
    def take_decisions(self, decisions: list[dict[str, Any]], t: float) -> None:
        """The referee's lines said at video time ``t`` (s)."""
        for d in decisions:
            banner = self.board.update(d)
            if banner is not None:
                # one after the other: each shown BANNER_MIN_S at least, the last BANNER_HOLD_S
                start = max(t, self.banners[-1][0] + BANNER_MIN_S) if self.banners else t
                self.banners.append((start, banner))
        self.banners = [(t0, b) for t0, b in self.banners if t - t0 <= BANNER_HOLD_S or t0 > t]

    def take_shot_marks(self, shot: Record, t: float) -> None:
        """The first contact of a stroke just called, marked where it happened."""
        contacts = [e for e in getattr(shot, "events", ()) if e.type == EventType.CONTACT
                    and B.WHITE in e.balls]
        if not contacts:
            return
        first = contacts[0]
        other = next((b for b in first.balls if b != B.WHITE), first.ball)
        where = self._position_at(other, first.t) or self._position_at(B.WHITE, first.t)
        if where is not None:
            self.marks.append((t, "contact", self.px(where), f"first: {ball_words(other)}"))

    def _position_at(self, ball: str, t: float) -> tuple[float, float] | None:
        best = None
        for tt, pos in self.history:
            if ball in pos and (best is None or abs(tt - t) < best[0]):
                best = (abs(tt - t), pos[ball])
        return best[1] if best else None

    # --- drawing ---------------------------------------------------------------------------
    def draw(self, view: FrameView) -> np.ndarray:
        """The frame with the overlay (a new image)."""
        img = view.frame.image.copy()
        self.t = t = view.frame.t
        st = view.state
        if st is not None:
            self.history.append((t, dict(st.pos)))
            for ball, pocket, _ in st.pots:
                mouth = self.cal.table.pockets[pocket].mouth_centre if pocket in \
                    self.cal.table.pockets else None
                if mouth is not None:
                    self.marks.append((t, "pot", self.px(mouth, 0.0),
                                       f"{ball_words(ball)}: {pocket_words(pocket)}"))
            self._draw_trails(img, st, t)
            self._draw_balls(img, st)
        if view.shot is not None:
            self.take_shot_marks(view.shot, t)
        if view.decisions:
            self.take_decisions(view.decisions, t)
        self._draw_marks(img, t)
        self._draw_banner(img, t)
        self._draw_score_bar(img)
        return img

    def _draw_trails(self, img: np.ndarray, st, t: float) -> None:
        for ball in list(self.trails):
            if ball not in st.moving:
                self.trails.pop(ball)
        for ball in st.moving:
            if ball in st.pos and ball in st.visible:
                trail = self.trails.setdefault(ball, deque())
                trail.append((t, self.px(st.pos[ball])))
                while trail and t - trail[0][0] > TRAIL_S:
                    trail.popleft()
        for ball, trail in self.trails.items():
            pts = [p for _, p in trail]
            colour = BALL_BGR[B.kind(ball)]
            for i in range(1, len(pts)):
                w = 1 + int(4 * i / len(pts))
                cv2.line(img, pts[i - 1], pts[i], colour, w, cv2.LINE_AA)

    def _draw_balls(self, img: np.ndarray, st) -> None:
        r = int(self.ball_px() * 1.45)
        scale = max(0.45, r / 30)
        for ball, p in st.pos.items():
            if ball not in st.visible:
                continue
            c = self.px(p)
            colour = BALL_BGR[B.kind(ball)]
            ring = (200, 200, 200) if ball == "black" else colour
            cv2.circle(img, c, r, (0, 0, 0), 3, cv2.LINE_AA)
            cv2.circle(img, c, r, ring, 2, cv2.LINE_AA)
            if not B.is_red(ball):
                _text(img, ball_words(ball), (c[0] + r + 3, c[1] - r // 2), scale,
                      (255, 255, 255))

    def _draw_marks(self, img: np.ndarray, t: float) -> None:
        self.marks = [m for m in self.marks if t - m[0] <= MARK_HOLD_S]
        r = int(self.ball_px() * 2.2)
        scale = max(0.55, r / 40)
        for _, kind, c, label in self.marks:
            if kind == "contact":
                cv2.drawMarker(img, c, (0, 255, 255), cv2.MARKER_TILTED_CROSS, 2 * r, 3,
                               cv2.LINE_AA)
                cv2.circle(img, c, r, (0, 255, 255), 2, cv2.LINE_AA)
                colour = (0, 255, 255)
            else:
                cv2.circle(img, c, r, (0, 255, 0), 3, cv2.LINE_AA)
                cv2.circle(img, c, r + 6, (0, 120, 0), 2, cv2.LINE_AA)
                colour = (120, 255, 120)
            (tw, _), _ = cv2.getTextSize(_ascii(label), FONT, scale, 2)
            x = min(max(4, c[0] - tw // 2), img.shape[1] - tw - 4)
            y = c[1] - r - 10 if c[1] - r - 10 > 30 else c[1] + r + 30
            _text(img, label, (x, y), scale, colour, 2)

    def _draw_banner(self, img: np.ndarray, t: float) -> None:
        started = [(t0, b) for t0, b in self.banners if t0 <= t]  # the latest one shows
        if not started or t - started[-1][0] > BANNER_HOLD_S:
            return
        _, b = started[-1]
        h, w = img.shape[:2]
        s = h / 1080
        head_scale, sub_scale = 1.6 * s, 0.9 * s
        (hw, hh), _ = cv2.getTextSize(_ascii(b.head), FONT, head_scale, 3)
        (sw, _), _ = cv2.getTextSize(_ascii(b.sub), FONT, sub_scale, 2)
        bw = min(w - int(20 * s), max(hw, sw) + int(60 * s))
        bh = int((hh + 50 + (40 if b.sub else 0)) * s) + hh // 2
        ns = 0.6 * s
        notes = wrap_text("REVIEW: " + b.review[0], ns, int(w * 0.8)) if b.review else []
        nh = cv2.getTextSize("Ag", FONT, ns, 1)[0][1] + int(12 * s)
        x0 = (w - bw) // 2
        y0 = self._banner_top(h, bh + (len(notes) * nh + int(20 * s) if notes else 0), s)
        _box(img, x0, y0, x0 + bw, y0 + bh, BANNER_BGR.get(b.kind, (60, 60, 60)), 0.85)
        _text(img, b.head, ((w - hw) // 2, y0 + int(20 * s) + hh), head_scale, (255, 255, 255), 3)
        if b.sub:
            _text(img, b.sub, ((w - sw) // 2, y0 + bh - int(18 * s)), sub_scale, (255, 255, 255), 2)
        if notes:
            nw = max(cv2.getTextSize(_ascii(n), FONT, ns, 1)[0][0] for n in notes)
            ny = y0 + bh + int(10 * s)
            _box(img, (w - nw) // 2 - 12, ny, (w + nw) // 2 + 12, ny + len(notes) * nh + int(10 * s),
                 (0, 140, 230), 0.9)
            for i, line in enumerate(notes):
                _text(img, line, ((w - nw) // 2, ny + (i + 1) * nh), ns, (0, 0, 0), 1, False)

    def _banner_top(self, h: int, height: int, s: float) -> int:
        """Where the banner goes: at the top (below a score bar there), unless a pot or
        contact mark is there (a pot at a top pocket): then at the bottom (above a score bar
        there), or wherever covers the fewest marks."""
        r = int(self.ball_px() * 2.2) + int(40 * s)
        if self.bar_place == "top":
            places = (int(140 * s), h - height - int(30 * s), (h - height) // 2)
        else:
            places = (int(30 * s), h - height - int(110 * s), (h - height) // 2)
        def covered(y0: int) -> int:
            return sum(1 for m in self.marks if y0 - r <= m[2][1] <= y0 + height + r)
        return min(places, key=lambda y0: (covered(y0), places.index(y0)))

    def _draw_score_bar(self, img: np.ndarray) -> None:
        bd = self.board
        if len(bd.players) != 2:
            return
        h, w = img.shape[:2]
        s = h / 1080
        bar_h = int(64 * s)
        y0 = int(16 * s) if self.bar_place == "top" else h - bar_h - int(16 * s)
        _box(img, int(20 * s), y0, w - int(20 * s), y0 + bar_h, (25, 25, 25), 0.85)
        a, b = bd.players
        scale = 1.05 * s
        base = y0 + int(44 * s)
        x = int(40 * s)
        for i, p in enumerate((a, b)):
            on = bd.striker == p and not bd.frame_over
            colour = (80, 230, 255) if on else (235, 235, 235)
            label = f"{'> ' if on else ''}{p}  {bd.score.get(p, 0)}"
            _text(img, label, (x, base), scale, colour, 3 if on else 2, False)
            (tw, _), _ = cv2.getTextSize(_ascii(label), FONT, scale, 2)
            x += tw + int(50 * s)
            if i == 0:
                _text(img, "|", (x - int(30 * s), base), scale, (150, 150, 150), 2, False)
        info = score_bar_info(bd)
        (iw, _), _ = cv2.getTextSize(_ascii(info), FONT, 0.75 * s, 2)
        _text(img, info, (w - iw - int(40 * s), base), 0.75 * s, (220, 220, 220), 2, False)
        if bd.foul and not bd.frame_over:
            fs = 0.7 * s
            (fw, fh), _ = cv2.getTextSize(_ascii(bd.foul), FONT, fs, 2)
            top = y0 + bar_h + int(6 * s) if self.bar_place == "top" else y0 - fh - int(24 * s)
            _box(img, int(20 * s), top, int(20 * s) + fw + int(30 * s), top + fh + int(18 * s),
                 BANNER_BGR["foul"], 0.85)
            _text(img, bd.foul, (int(35 * s), top + fh + int(10 * s)), fs, (255, 255, 255), 2,
                  False)


def score_bar_info(bd: Board) -> str:
    """The right side of the video's score bar: the break and its balls, points remaining,
    reds, snookers required, frames and best of N."""
    a, b = bd.players
    frames = f"frames {bd.frames_won.get(a, 0)}-{bd.frames_won.get(b, 0)} (best of {bd.best_of})"
    if bd.frame_over:
        return f"frame to {bd.winner}   {frames}"
    parts = [f"break {bd.break_points}" + (f" ({', '.join(bd.break_balls)})"
                                           if bd.break_balls else "")]
    if bd.points_remaining is not None:
        parts.append(f"remaining {bd.points_remaining}")
    if bd.reds_remaining is not None:
        parts.append(f"reds {bd.reds_remaining}")
    parts += [f"{p} needs {n} snooker{'s' if n > 1 else ''}"
              for p, n in bd.snookers_required.items()]
    parts.append(frames)
    return "   ".join(parts)


def wrap_text(text: str, scale: float, width_px: int, thick: int = 1) -> list[str]:
    """``text`` in lines no wider than ``width_px`` at this font ``scale`` (whole words; a
    word longer than a line stands alone): nothing is cut off."""
    lines: list[str] = []
    for word in text.split():
        trial = f"{lines[-1]} {word}" if lines else word
        if lines and cv2.getTextSize(_ascii(trial), FONT, scale, thick)[0][0] <= width_px:
            lines[-1] = trial
        else:
            lines.append(word)
    return lines


class OverlayWriter(RunListener):
    """Writes the overlay video (see the module docstring) into ``path`` as the run goes.

    Args:
        path: the MP4 file.
        bar: where the score bar goes (default: ``auto``); with ``auto`` the first ``bar.window_s`` of pictures
            are held (in memory) until the place is chosen, then written.
    """

    def __init__(self, path: str | Path, bar: BarParams | None = None):
        self.path = Path(path)
        self.bar = bar or BarParams()
        self.painter: OverlayPainter | None = None
        self._writer = None
        self.frames = 0
        self._held: list[FrameView] = []

    def _open(self, run: RefereeRun, image: np.ndarray) -> None:
        import imageio_ffmpeg

        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.painter = OverlayPainter(run.calibration, run.fps,
                                      "bottom" if self.bar.place == "auto" else self.bar.place)
        h, w = image.shape[:2]
        self._writer = imageio_ffmpeg.write_frames(
            str(self.path), (w, h), fps=run.fps, codec="libx264", pix_fmt_in="bgr24",
            macro_block_size=2, output_params=["-preset", X264_PRESET, "-crf", str(X264_CRF),
                                               "-movflags", "+faststart"])
        self._writer.send(None)

    def on_record(self, run: RefereeRun, record: Record, decisions: list[dict[str, Any]]) -> None:
        # decisions before the first frame (the frame start) reach the board here; later
        # ones arrive with their frame (FrameView.decisions)
        if self.painter is None:
            self._early = [*getattr(self, "_early", []), *decisions]

    def on_frame(self, run: RefereeRun, view: FrameView) -> None:
        if self._writer is None:
            self._open(run, view.frame.image)
            self.painter.take_decisions(getattr(self, "_early", []), view.frame.t)
            self.painter.banners.clear()
            if self.bar.place == "auto":
                self._held = [view]
                return
        if self._held:
            self._held.append(view)
            if view.frame.t - self._held[0].frame.t < self.bar.window_s:
                return
            self._write_held()
            return
        self._write(view)

    def _write(self, view: FrameView) -> None:
        img = self.painter.draw(view)
        self._writer.send(np.ascontiguousarray(img))
        self.frames += 1

    def _write_held(self) -> None:
        """Choose the bar's place from the held pictures, then write them."""
        held, self._held = self._held, []
        self.painter.bar_place = free_band([v.frame.image for v in held], self.bar)
        for v in held:
            self._write(v)

    def on_amend(self, run: RefereeRun, record: Record, decisions: list[dict[str, Any]]) -> None:
        """Corrected calls reach the picture with their frame (FrameView.decisions)."""

    def on_end(self, run: RefereeRun, summary: dict[str, Any]) -> None:
        if self._held:
            self._write_held()
        if self._writer is not None:
            self._writer.close()
            self._writer = None
