"""What a run needs to be watched and steered live: the console's requests reach the
engine, review frames are saved, and a file can be played at the camera's pace.

- :class:`ConsoleBridge` (a :class:`tracker.listeners.RunListener`) takes the referee console's
  requests from the match store (table ``console``, written by the server, possibly in another
  process) on the processing thread, turns each into an operator input
  (:meth:`RefereeRun.submit`: option after a foul, concession, who is to strike, frame award)
  or a judgement (:meth:`RefereeRun.judge`: nomination, free ball, miss, a foul the camera
  cannot see, for the coming stroke or as a correction of the last one), and writes the
  outcome back.
- :class:`ReviewFrames` saves, per stroke, JPEGs of the frames around the first contact, a
  zoom on it, and a zoom on balls touching the cue ball at the strike (``OUT/review/N/``).
- :class:`RealTimePacer` holds a file's frames to the video's clock (``--realtime``), so a
  console has the time a live match gives it.

Console actions (``action`` and its fields; :func:`parse_action` checks them):

==============  ===========================================  ==================================
action          fields                                       what it does
==============  ===========================================  ==================================
``option``      ``choice``: play / play_again / replace      the non-offender's choice (H4)
``concede``     ``player`` (optional: the striker)           the striker concedes the frame
``striker``     ``player``                                   correct who is to strike (H14)
``award``       ``player``                                   award the frame (H17)
``nominate``    ``ball`` (a colour)                          nominated colour, coming stroke
``free_ball``   ``ball``                                     free-ball nomination, coming stroke
``miss``        ``miss`` (bool), ``when`` next / last        call (true) or cancel (false) a miss
``foul``        ``code`` (H codes), ``ball``, ``when``       a foul the camera cannot see
``undo``        (none)                                       take back the last correction:
                                                             the call before it is current
``match``       ``players`` (two names), ``best_of`` or      the table's match set-up
                ``race_to``, ``ruleset``, ``handicap``       (:func:`match_setup`; ``queue``:
                (name: points), ``breaker``, ``frames_won``  the next match after those set)
                and ``score`` (two numbers), ``queue``
==============  ===========================================  ==================================

``when`` = ``last`` corrects the last stroke's call (allowed until an input or a stroke follows
it); ``next`` (default) goes with the coming stroke.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from tracker import balls as B
from tracker.corrections import CONSOLE_FOULS as CONSOLE_FOULS  # the console page lists them
from tracker.corrections import JUDGEMENT_ACTIONS, CorrectionError, correction_fields
from tracker.listeners import RunListener
from tracker.pipeline import Judgement
from tracker.records.shot import (
    EventType,
    InputKind,
    OperatorInput,
    Record,
)
from tracker.session_setup import MatchSetup, SetupError, setup_from_dict

if TYPE_CHECKING:
    from tracker.listeners import FrameView
    from tracker.outputs.store import StoreWriter
    from tracker.pipeline import RefereeRun

#: Frames saved before and after the first contact.
REVIEW_FRAMES_BEFORE = 3
REVIEW_FRAMES_AFTER = 3
#: JPEG quality of review frames (0-100).
REVIEW_JPEG_QUALITY = 88
#: Zoom crops: half-size of the crop around the point, in ball diameters; magnification.
ZOOM_HALF_BALLS = 2.5
ZOOM_SCALE = 4
#: A ball this close to the cue ball at the strike (gap, mm) gets a touching zoom.
TOUCH_ZOOM_GAP_MM = 5.0

_INPUT_ACTIONS = {"option": InputKind.OPTION, "concede": InputKind.CONCEDE,
                  "striker": InputKind.STRIKER, "award": InputKind.AWARD_FRAME}
ACTIONS = (*_INPUT_ACTIONS, *JUDGEMENT_ACTIONS, "undo", "match")
#: the fields of a ``match`` request that go to :func:`tracker.session_setup.setup_from_dict`
_SETUP_FIELDS = ("players", "best_of", "race_to", "ruleset", "handicap", "breaker",
                 "frames_won", "score")


class ConsoleError(ValueError):
    """A console request that cannot be taken; the message says why."""


def match_setup(payload: dict[str, Any]) -> tuple[MatchSetup, bool]:
    """A ``match`` request's set-up, checked as a set-up file's is
    (:func:`tracker.session_setup.setup_from_dict`: the same one-line errors), and whether it
    is queued after the matches already set (``queue``) rather than set for the next rack.
    Empty fields are left out (their defaults), a zero handicap too.

    Raises:
        ConsoleError: a bad or missing value (the message says which and what to give).
    """
    d = {k: payload[k] for k in _SETUP_FIELDS if payload.get(k) not in (None, "", [])}
    if "players" not in d:
        raise ConsoleError("match: give the two players' names")
    if isinstance(d.get("handicap"), dict):
        d["handicap"] = {k: v for k, v in d["handicap"].items() if v not in (0, None, "")}
    try:
        setup = setup_from_dict(d, "match")
    except SetupError as exc:
        raise ConsoleError(str(exc)) from None
    return setup, bool(payload.get("queue"))


def parse_action(action: str, payload: dict[str, Any]) -> tuple[str, Any]:
    """A console request as ``("input", OperatorInput)``, ``("next"|"last", Judgement)``,
    ``("undo", None)`` (take back the last correction) or ``("match", (MatchSetup, queue))``
    (:func:`match_setup`).

    Raises:
        ConsoleError: an unknown action or a missing or wrong field.
    """
    def need(key: str) -> Any:
        v = payload.get(key)
        if v in (None, ""):
            raise ConsoleError(f"{action}: give {key}")
        return v

    if action in _INPUT_ACTIONS:
        kind = _INPUT_ACTIONS[action]
        if kind == InputKind.OPTION:
            choice = need("choice")
            if choice not in ("play", "play_again", "replace"):
                raise ConsoleError(f"option: choice must be play, play_again or replace, not {choice!r}")
            return "input", OperatorInput(kind, choice=choice, note="console")
        player = payload.get("player") or None
        if kind != InputKind.CONCEDE and player is None:
            raise ConsoleError(f"{action}: give player")
        return "input", OperatorInput(kind, player=player, note="console")
    if action == "undo":
        return "undo", None
    if action == "match":
        return "match", match_setup(payload)
    when = payload.get("when", "next")
    if when not in ("next", "last"):
        raise ConsoleError(f"{action}: when must be next or last, not {when!r}")
    if action in JUDGEMENT_ACTIONS:
        try:
            return when, Judgement(correction_fields(action, payload))
        except CorrectionError as exc:
            raise ConsoleError(str(exc)) from None
    raise ConsoleError(f"unknown action {action!r}; one of {', '.join(ACTIONS)}")


class ConsoleBridge(RunListener):
    """Takes console requests from the store into the run (see the module docstring).

    Args:
        writer: the run's store writer (its connection is used on the processing thread).
    """

    #: a resumed run takes console requests only once it has caught up (tracker.resume)
    resume_holds_back = True

    def __init__(self, writer: StoreWriter):
        self.writer = writer
        self.waiting: dict[int, int] = {}  # id(OperatorInput) -> console request id

    def on_frame(self, run: RefereeRun, view: FrameView) -> None:
        run_id = self.writer.start(run)
        store = self.writer.store
        for req in store.console_pending(run_id):
            try:
                kind, what = parse_action(req["action"], req["payload"])
            except ConsoleError as exc:
                store.console_done(req["id"], False, {"message": str(exc)})
                continue
            if kind == "input":
                self.waiting[id(what)] = req["id"]
                self.writer.console_records.add(id(what))
                run.submit(what)
                store.console_request_taken(req["id"])
            else:
                def done(out: dict[str, Any], rid: int = req["id"]) -> None:
                    store.console_done(rid, out["accepted"], {"message": out["message"]})

                if kind == "undo":
                    run.undo(done=done)
                elif kind == "match":
                    self._take_setup(run, run_id, req["id"], *what)
                else:
                    run.judge(what, amend=kind == "last", done=done)
                store.console_request_taken(req["id"])

    def _take_setup(self, run: RefereeRun, run_id: int, request: int, setup: MatchSetup,
                    queue: bool) -> None:
        """A ``match`` request into the session; its outcome, with the set-up and where it
        came among the run's records (``after_seq``: the last record's ``seq`` then), is kept
        in the store so that a resumed run sets it at the same place (tracker.resume)."""
        store = self.writer.store
        try:
            message = run.session.take_setup(setup, queue, run.match)
        except SetupError as exc:
            store.console_done(request, False, {"message": str(exc)})
            return
        last = store.db.execute("SELECT COALESCE(MAX(seq), 0) FROM records WHERE run_id=?",
                                (run_id,)).fetchone()[0]
        store.console_done(request, True, {"message": message, "after_seq": int(last),
                                           "setup": setup.to_dict(), "queue": queue})

    def on_record(self, run: RefereeRun, record: Record, decisions: list[dict[str, Any]]) -> None:
        rid = self.waiting.pop(id(record), None)
        if rid is not None:
            res = next((d for d in decisions if "input" in d), {})
            self.writer.store.console_done(rid, bool(res.get("accepted")),
                                           {"message": res.get("message", "")})


class RealTimePacer(RunListener):
    """Holds each frame until its time on the video's clock (times ``speed``) has come.
    ``origin`` is the wall-clock time (s since the epoch) at which the video's time 0 is due
    (None before the first frame): video time ``t`` is due at ``origin + t / speed``."""

    def __init__(self, speed: float = 1.0):
        self.speed = speed
        self.t0: float | None = None
        self.origin: float | None = None

    def on_frame(self, run: RefereeRun, view: FrameView) -> None:
        now = time.monotonic()
        if self.t0 is None:
            self.t0 = now - view.frame.t / self.speed
            self.origin = time.time() - view.frame.t / self.speed
        wait = self.t0 + view.frame.t / self.speed - now
        if wait > 0:
            time.sleep(wait)


class ReviewFrames(RunListener):
    """Saves review pictures per stroke into ``out/N/`` (N: the stroke's number):
    ``contact_-3.jpg`` … ``contact_+3.jpg`` (frames around the first contact),
    ``contact_zoom.jpg``, ``strike.jpg`` and ``touching_zoom.jpg`` (when a ball nearly
    touches the cue ball at the strike)."""

    def __init__(self, out: str | Path):
        self.out = Path(out)
        self.recent: list[FrameView] = []
        self.after: list[tuple[int, Path]] = []  # (frames still to save, folder)
        self.in_stroke = False
        self.contact_seen = False

    def on_frame(self, run: RefereeRun, view: FrameView) -> None:
        self.recent = [*self.recent[-REVIEW_FRAMES_BEFORE:], view]
        for i, (left, folder) in enumerate(self.after):
            self._jpeg(folder / f"contact_+{REVIEW_FRAMES_AFTER - left + 1}.jpg", view.frame.image)
            self.after[i] = (left - 1, folder)
        self.after = [a for a in self.after if a[0] > 0]
        stroke = run.strokes.stroke
        if stroke is None:
            self.in_stroke = self.contact_seen = False
            return
        folder = self.out / str(run.strokes.n_shots + 1)
        if not self.in_stroke:
            self.in_stroke = True
            # the stroke is known a frame or two after the strike: the picture of the balls
            # still at rest is the last one before it
            still = [v for v in self.recent if v.frame.t < stroke.t0] or self.recent[:1]
            self._strike(run, stroke.before, folder, still[-1].frame.image)
        if not self.contact_seen:
            contact = next((e for e in stroke.events if e.type == EventType.CONTACT
                            and B.WHITE in e.balls), None)
            if contact is not None:
                self.contact_seen = True
                self._contact(run, contact, folder)

    def _strike(self, run: RefereeRun, before: dict, folder: Path, image: np.ndarray) -> None:
        self._jpeg(folder / "strike.jpg", image)
        w = before.get(B.WHITE)
        if w is None:
            return
        d = run.calibration.table.ball_diameter
        near = [b for b, p in before.items() if b != B.WHITE
                and np.hypot(p[0] - w[0], p[1] - w[1]) - d <= TOUCH_ZOOM_GAP_MM]
        if near:
            p = before[near[0]]
            self._zoom(run, image, ((w[0] + p[0]) / 2, (w[1] + p[1]) / 2),
                       folder / "touching_zoom.jpg")

    def _contact(self, run: RefereeRun, contact, folder: Path) -> None:
        # the object ball starts moving on this frame: the contact was just before it
        frames = self.recent
        idx = min(range(len(frames)), key=lambda i: abs(frames[i].frame.t - contact.t))
        for i, v in enumerate(frames):
            self._jpeg(folder / f"contact_{i - idx:+d}.jpg", v.frame.image)
        self.after.append((REVIEW_FRAMES_AFTER - (len(frames) - 1 - idx), folder))
        hit = next((b for b in contact.balls if b != B.WHITE), None)
        st = frames[idx].state
        if hit and st is not None and hit in st.pos:
            self._zoom(run, frames[idx].frame.image, st.pos[hit], folder / "contact_zoom.jpg")

    def _zoom(self, run: RefereeRun, image: np.ndarray, at_mm, path: Path) -> None:
        cal = run.calibration
        r = cal.table.ball_radius
        c = cal.to_image(np.array([at_mm], float), r)[0]
        e = cal.to_image(np.array([[at_mm[0] + 2 * r * ZOOM_HALF_BALLS, at_mm[1]]]), r)[0]
        half = max(12, int(np.hypot(*(e - c))))
        x0, y0 = int(c[0]) - half, int(c[1]) - half
        h, w = image.shape[:2]
        crop = image[max(0, y0):min(h, y0 + 2 * half), max(0, x0):min(w, x0 + 2 * half)]
        if crop.size:
            self._jpeg(path, cv2.resize(crop, None, fx=ZOOM_SCALE, fy=ZOOM_SCALE,
                                        interpolation=cv2.INTER_CUBIC))

    @staticmethod
    def _jpeg(path: Path, image: np.ndarray) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, REVIEW_JPEG_QUALITY])
