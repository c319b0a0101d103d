"""Tracking: one fixed slot per ball of the game (22 in snooker) over time, under the
constraints of the game.

Behaviour knobs (mm, s) are in :class:`TrackerConfig`, each documented as behaviour. Colours
and the white are unique, so each is matched to the best detection of its class near where it
should be; the reds are matched together (Hungarian assignment on distance). A ball at rest
does not move unless something touches it: its position is the running mean of its rest
observations, and a far detection cannot drag it. A ball that vanishes while moving into a
pocket's mouth (reaching it at its speed within a few pictures) has been potted (with that
pocket); one that vanishes short of it or elsewhere is hidden (a player, a
hand) and keeps its last position; one hidden at rest (a player addressing it) that is seen
moving on out of hiding was struck there, and is followed at once. A ball struck so hard that
the camera never sees it move (it vanishes the frame a moving ball reaches it, a blur too faint
to detect) is potted when it stays gone and its place shows bare cloth, into the pocket its
line of centres points at. A ball that vanishes at a cushion it was heading at fast, away from
the pockets (or struck toward a near cushion and never seen), has left the table once it stays
gone with its place bare. A potted colour comes back when it is seen again (re-spot); a potted
white comes back when placed in hand.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import linear_sum_assignment

from calibration.table import TableGeometry
from tracker.perception.constraint import capacity
from tracker.perception.detections import CLASSES, BallDetections
from tracker.perception.paths import cushion_met, pocket_on_path, reaches_mouth
from tracker.perception.regroup import regroup_lost
from tracker.perception.remeasure import BACK, MOVES, follow_hold, starts_hold, stirring_balls
from tracker.perception.trackstate import OFF_TABLE, Slot, TableState, TrackerConfig, UpdateStep
from tracker.perception.vanished import struck_towards
from tracker.rules.ballset import BallSet, snooker_balls

__all__ = ["OFF_TABLE", "Slot", "TableState", "Tracker", "TrackerConfig"]


class Tracker:
    """Keeps one slot per ball of the game from frame to frame (see module docstring).

    Args:
        balls: the game's balls (snooker's 22 when not given): a ball whose look the game has
            one of (the white, a colour) is matched alone; balls that look alike (the reds)
            are matched together.
    """

    def __init__(self, table: TableGeometry, fps: float, config: TrackerConfig | None = None,
                 balls: BallSet | None = None):
        self.table = table
        self.fps = fps
        self.cfg = config or TrackerConfig()
        self.balls = balls or snooker_balls()
        cap = capacity(self.balls)
        #: the balls matched alone, in the order they choose
        self.unique = tuple(b for b in self.balls.ids if cap[self.balls.looks[b]] == 1)
        #: look -> the balls of that look matched together
        self.groups = {look: tuple(b for b in self.balls.ids if self.balls.looks[b] == look)
                       for look in CLASSES if cap[look] > 1}
        self.reset()
        self.pocket_xy = {n: np.array(p.mouth_centre) for n, p in table.pockets.items()}
        #: unit vectors from each pocket's mouth into its fall (into the pocket)
        self.pocket_in = {n: _unit(np.subtract(p.fall, p.mouth_centre)) for n, p in table.pockets.items()}

    def reset(self) -> None:
        """Forget every track."""
        self.slots = {b: Slot(b) for b in self.balls.ids}
        self.updates = 0
        #: slots gone for the tracker whose pot no stroke took: lost balls in play, free to
        #: take up a ball standing unexplained (pool: tracker/perception/regroup.py)
        self.released: set[str] = set()

    def seed(self, positions: dict[str, tuple[float, float]]) -> None:
        """Start from a known layout (ball id -> mm): detections are then matched to these
        ids by position, so the tracker and the referee name the reds alike."""
        self.reset()
        for b, p in positions.items():
            if b in self.slots:
                s = self.slots[b]
                s.pos = np.array(p, float)
                s.on_table = True
                s.rest_sum, s.rest_n = s.pos.copy(), 1

    def _on_spot(self, ball: str, p: np.ndarray) -> bool:
        """Whether ``p`` (mm) is on or beside ``ball``'s own spot (a re-spotted colour)."""
        spot = self.table.spots.get(ball)
        return spot is not None and float(np.linalg.norm(p - np.asarray(spot))) <= 3 * self.table.ball_radius

    def _barely_moved(self, s: Slot) -> bool:
        """Whether a ball is at rest, or was until a frame or two ago (it has not gone a
        radius from where its trail starts): the moment it was struck."""
        return not s.moving or (bool(s.trail) and s.pos is not None
                                and float(np.linalg.norm(s.pos - s.trail[0])) < self.table.ball_radius)

    def _taken(self, ball: str, p: np.ndarray) -> bool:
        """Whether another ball on the table stands within 1.5 radii of ``p`` (mm)."""
        return any(b != ball and o.on_table and o.pos is not None
                   and float(np.linalg.norm(o.pos - p)) < 1.5 * self.table.ball_radius
                   for b, o in self.slots.items())

    def _respot_place(self, p: np.ndarray) -> bool:
        """Whether a re-spotted colour can stand at ``p`` (mm): on or beside a spot, or on the
        long centre line (an occupied spot sends it to the next free one, or toward the top
        cushion on the centre line)."""
        t = self.table
        near_spot = any(float(np.linalg.norm(p - np.asarray(xy))) <= 3 * t.ball_radius
                        for xy in t.spots.values())
        return near_spot or abs(float(p[0]) - t.centre_x) <= 2 * t.ball_radius

    def _bare(self, det: BallDetections, p: np.ndarray) -> bool:
        """Whether the place ``p`` (mm) shows bare cloth in this frame (no ball, no player)."""
        if det.occupancy is None:
            return True
        return bool(det.occupancy(p[None, :])[0] < self.cfg.empty_occupancy)

    def _all_reds_seen(self, ball: str, det: BallDetections) -> bool:
        """Whether ``ball`` is of a group that looks alike (a red) and the frame shows at
        least as many of that look as the table has (this one included): a red that vanished
        at a contact in a cluster of reds and is not missing from the count has not been
        potted."""
        look = self.balls.looks[ball]
        if look not in self.groups:
            return False
        on = sum(1 for b in self.groups[look] if self.slots[b].on_table)
        return int(np.sum(det.cls == CLASSES.index(look))) >= on

    def _path_into(self, s: Slot, pocket: str, frame: int) -> bool:
        """Whether the ball that just vanished was on its way into ``pocket``: a ball's path,
        not a dark blob at the mouth (a sleeve, a hand or the cue over the pocket, read as a
        ball for a moment). It has been followed for :attr:`TrackerConfig.path_frames`
        frames since it was last put (or found) on the table, and its last frames' motion
        leads into the pocket: toward its mouth within :attr:`TrackerConfig.path_cone_deg`,
        or, for a ball that barely moved (one hanging in the jaws, tapped in), from within a
        pocket mouth of it."""
        if s.appeared_frame >= 0 and s.last_frame - s.appeared_frame < self.cfg.path_frames:
            return False
        if s.pos is None or len(s.trail) < 2:
            return False
        mouth = self.pocket_xy[pocket]
        step = s.trail[-1] - s.trail[0]
        travelled = float(np.linalg.norm(step))
        to_mouth = mouth - s.trail[0]
        in_mouth = float(np.linalg.norm(mouth - s.trail[-1])) <= self.table.pockets[pocket].mouth_width
        if travelled < 2 * self.cfg.rest_jitter_mm:
            return in_mouth
        cone = np.cos(np.radians(self.cfg.path_cone_deg))
        cos = float(step @ to_mouth) / (travelled * float(np.linalg.norm(to_mouth)) + 1e-9)
        # in the mouth already (past its centre along a cushion), going on into the pocket
        going_in = float(step @ self.pocket_in[pocket]) / travelled >= np.cos(np.radians(80.0))
        return cos >= cone or (in_mouth and going_in)

    def _resumes(self, s: Slot, cand_mm: np.ndarray, frame: int) -> bool:
        """Whether a ball unseen since it went out of sight while moving, for no more than
        :attr:`TrackerConfig.resume_s`, has a detection of its colour (``cand_mm`` (K, 2))
        within :attr:`TrackerConfig.resume_reach_mm` of where it was last seen: it is going
        on, and is followed from there at once. A ball that vanished into a pocket's mouth (a
        pot not yet confirmed) goes on only when seen back out on the bed, clear of that
        mouth (:attr:`TrackerConfig.pot_distance_mm`): it rattled in the jaws and came out."""
        if not s.lost_moving or s.pos is None or not s.on_table:
            return False
        unseen = frame - s.last_frame
        if unseen <= 1 or unseen > self.cfg.resume_s * self.fps:
            return False
        near = np.linalg.norm(cand_mm - s.pos, axis=1) <= self.cfg.resume_reach_mm
        if s.potted_pocket is not None:
            mouth = self.pocket_xy.get(s.potted_pocket)
            if mouth is None:  # pending off the table: it may have jumped the cushion
                return False
            near &= np.linalg.norm(cand_mm - mouth, axis=1) > self.cfg.pot_distance_mm
        return bool(near.any())

    def _emerges(self, s: Slot, cand_mm: np.ndarray, frame: int) -> int | None:
        """Which detection of its colour (index into ``cand_mm`` (K, 2)) a ball hidden while
        at rest is, seen moving on after it came out of hiding: struck while hidden (see
        :attr:`TrackerConfig.emerge_frames`). None while it is not (yet): the detection that
        may be its first sighting is kept for the next frames."""
        if s.lost_moving or s.pos is None or not s.on_table or s.potted_pocket is not None:
            s.emerge = None
            return None
        cfg = self.cfg
        step = cfg.max_speed_mm_s / self.fps
        jitter = 2.0 * cfg.rest_jitter_mm
        if s.emerge is not None and 0 < frame - s.emerge[0] <= cfg.emerge_frames:
            f1, p1 = s.emerge
            out = p1 - s.pos
            d = cand_mm - p1
            gone = np.linalg.norm(d, axis=1)
            ahead = d @ out / (np.linalg.norm(out) * gone + 1e-9)
            ok = ((ahead >= np.cos(np.radians(cfg.emerge_cone_deg)))
                  & (gone >= jitter) & (gone <= step * (frame - f1)))
            if np.linalg.norm(out) > step * cfg.emerge_frames:  # first seen far: struck hard
                ok &= gone * self.fps / (frame - f1) >= cfg.emerge_far_speed_mm_s
            if ok.any():
                s.emerge = None
                return int(np.argmin(np.where(ok, gone, np.inf)))
        dist = np.linalg.norm(cand_mm - s.pos, axis=1)
        # as far as it may have gone since it was last seen (at least emerge_frames' travel)
        reach = step * max(cfg.emerge_frames, frame - s.last_frame - 1)
        near = (dist >= jitter) & (dist <= reach)
        s.emerge = None
        if near.any():
            s.emerge = (frame, cand_mm[int(np.argmin(np.where(near, dist, np.inf)))].copy())
        return None

    def _leaving_over(self, s: Slot, missing: int) -> str | None:
        """The cushion a moving ball that just vanished was jumping: it was heading into it
        at least ``off_speed_mm_s`` across its face (TV under 30 degrees, seed 0: a white at
        1.1 m/s, 0.5 m/s of it into the top cushion, lost at the coarse far end, is no ball off)
        and its centre was within a radius plus two frames of travel of its face, away from the
        pockets; else None."""
        speed = float(np.linalg.norm(s.vel))
        if s.pos is None or speed < self.cfg.off_speed_mm_s:
            return None
        hit = cushion_met(self.table, self.pocket_xy, s.pos, s.vel / speed)
        if hit is None or speed * hit[2] < self.cfg.off_speed_mm_s:
            return None
        toward = speed * (2.0 * missing) / self.fps
        return hit[0] if hit[1] <= toward + 3.0 * self.cfg.rest_jitter_mm else None

    def _gate(self, s: Slot, frame: int) -> float:
        """How far (mm) from its prediction a detection may be to continue this slot: the
        jump allowance, the distance of one frame at its speed, and, for a ball unseen for a
        few frames (struck while merged with the cue ball's blob), as far as a ball can travel
        meanwhile."""
        unseen = max(0, frame - s.last_frame - 1) if s.last_frame >= 0 else 0
        if unseen > 10:
            unseen = 0  # hidden for long: it is where it was, or relocated by hand (below)
        if s.potted_pocket is not None and not s.vanished:
            unseen = 0  # it vanished into a pocket: back only near it, or re-spotted by hand
        return (self.cfg.gate_jump_mm + _length(s.vel) / self.fps
                + self.cfg.max_speed_mm_s / self.fps * unseen)

    def update(self, frame: int, det: BallDetections) -> TableState:
        """Assign this frame's detections to the slots and update every slot."""
        f = UpdateStep(frame, det, 1.0 / self.fps, np.zeros(len(det), bool))
        self._match_unique(f)
        self._match_groups(f)
        self._match_by_position(f)
        # where each ball seen now went over the last few frames (mm, oldest first): what a
        # ball that vanishes at rest may have been struck by
        f.paths = {b: np.array([*self.slots[b].trail, det.mm[j]]) for b, j in f.assigned.items()
                   if self.slots[b].trail}
        f.stirring = stirring_balls(self.slots, f, self.cfg, self.table.ball_radius)
        for ball, s in self.slots.items():
            if ball in f.assigned:
                self._seen(ball, s, f)
            else:
                self._unseen(ball, s, f)
        return self._state(f)

    def _match_unique(self, f: UpdateStep) -> None:
        """The unique balls first (the white and the colours): each takes the best detection
        of its colour, sure enough of it, near where it should be."""
        det = f.det
        for ball in self.unique:
            k = CLASSES.index(self.balls.looks[ball])
            cand = np.nonzero((det.cls == k) & ~f.used & (det.conf >= self.cfg.min_class_conf))[0]
            if not len(cand):
                continue
            j = self._pick_unique(ball, self.slots[ball], cand, f)
            if j is not None:
                f.assigned[ball] = j
                f.used[j] = True

    def _pick_unique(self, ball: str, s: Slot, cand: np.ndarray, f: UpdateStep) -> int | None:
        """Which of the detections ``cand`` (indices into ``f.det``) of its colour the unique
        ball ``ball`` is this frame, or None."""
        cfg, det, frame = self.cfg, f.det, f.frame
        lost = frame - s.last_frame > cfg.relocate_frames
        if lost and self._resumes(s, det.mm[cand], frame):
            lost = False  # the same ball going on after a moment unseen while it moved
        first = s.emerge
        out_of_hiding = self._emerges(s, det.mm[cand], frame) if lost else None
        if out_of_hiding is not None and first is not None:
            # struck while hidden (a player addressing it): followed from its place on
            f.emerged[ball] = first
            s.reloc, s.reloc_n = None, 0
            return int(cand[out_of_hiding])
        if s.pos is None or not s.on_table or (lost and det.conf[cand].max() >= 0.8):
            return self._relocated(ball, s, cand, f)
        pred = s.pos + s.vel * f.dt
        d = np.linalg.norm(det.mm[cand] - pred, axis=1)
        gate = self._gate(s, frame)
        if self._resumes(s, det.mm[cand], frame):
            gate = max(gate, cfg.resume_reach_mm)
        if d.min() > gate:
            return None
        return int(cand[int(np.argmin(d))])

    def _relocated(self, ball: str, s: Slot, cand: np.ndarray, f: UpdateStep) -> int | None:
        """A unique ball unknown, off the table, or hidden for a while (a hand may have moved
        it): the only ball of its colour is wherever that colour is seen standing still (a
        hand or a sleeve of that colour moves; a ball put down stays). The detection it is,
        or None while that is not yet sure."""
        det = f.det
        j = cand[int(np.argmax(det.conf[cand]))]
        far = s.on_table and s.pos is not None and np.linalg.norm(det.mm[j] - s.pos) > 30.0
        # a colour first seen after the start must also stand still a moment: a moving
        # white's blur on the cloth can look green for a frame
        late = s.pos is None and self.updates > 0
        # a potted ball comes back by hand, standing still: the white anywhere (in
        # hand), a colour only where the re-spotting rules put it
        back = s.pos is not None and not s.on_table
        if back and self.balls.is_colour(ball) and not self._respot_place(det.mm[j]):
            return None
        if (late or back) and self._taken(ball, det.mm[j]):
            return None  # another ball stands there, its colour misread for a moment
        if far or late or back:
            if s.reloc is not None and np.linalg.norm(det.mm[j] - s.reloc) <= 10.0:
                s.reloc_n += 1
            else:
                s.reloc, s.reloc_n = det.mm[j].copy(), 1
            if s.reloc_n < self.cfg.relocate_frames:
                return None
            f.relocated.add(ball)
        s.reloc, s.reloc_n = None, 0
        return int(j)

    def _match_groups(self, f: UpdateStep) -> None:
        """The balls of a group that look alike (the reds): a minimum-cost assignment on
        distance among the group's detections and slots; a detection left over starts a slot
        not yet on the table."""
        det = f.det
        for look, group in self.groups.items():
            found = np.nonzero((det.cls == CLASSES.index(look)) & ~f.used)[0]
            if not len(found):
                continue
            known = [b for b in group if self.slots[b].pos is not None and self.slots[b].on_table]
            if known:
                preds = np.array([self.slots[b].pos + self.slots[b].vel * f.dt for b in known])
                cost = np.linalg.norm(preds[:, None, :] - det.mm[found][None, :, :], axis=2)
                gates = np.array([self._gate(self.slots[b], f.frame) for b in known])
                big = 1e6
                c2 = np.where(cost <= gates[:, None], cost, big)
                ri, ci = linear_sum_assignment(c2)
                for a, b_ in zip(ri, ci, strict=True):
                    if c2[a, b_] < big:
                        f.assigned[known[a]] = found[b_]
                        f.used[found[b_]] = True
            free = [b for b in group if self.slots[b].pos is None]
            for j in found:
                if not f.used[j] and free:
                    b = free.pop(0)
                    f.assigned[b] = j
                    f.used[j] = True
            regroup_lost(self, group, found, f)  # pool only (TrackerConfig.regroup_lost_frames)

    def _match_by_position(self, f: UpdateStep) -> None:
        """A moving ball smeared by motion blur may lose its colour: follow it by position;
        so may a ball at rest the moment it is struck (it leaves its rest position blurred).
        A ball pending a pot is not: only a detection of its own colour takes it back."""
        det, cfg = f.det, self.cfg
        for ball, s in self.slots.items():
            if ball in f.assigned or s.pos is None or not s.on_table:
                continue
            free = np.nonzero(~f.used)[0]
            if not len(free):
                break
            own = CLASSES.index(self.balls.looks[ball])
            if s.potted_pocket is not None:
                # vanished into a pocket's mouth (a pot not yet confirmed): unseen since, it
                # is no blur followed from frame to frame; only its own colour brings it back
                # (a blob of no sure colour in the mouth is the pocket's own dark)
                free = free[det.cls[free] == own]
            elif not s.moving:
                # a ball at rest takes a detection beside it only if that is not sure of being
                # another colour (the struck cue ball's blur arriving, a pocket's shadow)
                free = free[(det.cls[free] == own) | (det.conf[free] < 0.9)]
            if not len(free):
                continue
            pred = s.pos + s.vel * f.dt
            d = np.linalg.norm(det.mm[free] - pred, axis=1)
            j = int(np.argmin(d))
            gate = (cfg.gate_jump_mm * 0.5 + np.linalg.norm(s.vel) * f.dt * 0.5 if s.moving
                    else 3.0 * self.table.ball_radius)
            if d[j] <= gate:
                f.assigned[ball] = free[j]
                f.used[free[j]] = True

    def _seen(self, ball: str, s: Slot, f: UpdateStep) -> None:
        """Update the slot of ``ball``, seen this frame at its assigned detection."""
        p = f.det.mm[f.assigned[ball]]
        if (ball in f.relocated and s.on_table and s.potted_pocket is not None
                and (not s.vanished or self._on_spot(ball, p))):
            # it vanished at a pocket and is now seen standing elsewhere: it dropped
            # and was put back on its spot before the wait ran out (one that vanished
            # at a contact and stands elsewhere rolled there unseen, unless on its spot)
            self._gone(ball, s, f)
        if s.on_table:
            s.potted_pocket, s.vanished = None, False  # seen again: it did not drop
        if not s.on_table or s.pos is None or ball in f.relocated:
            f.appeared.append(ball)
            s.appeared_frame = f.frame
            s.on_table, s.pos, s.vel = True, p.copy(), np.zeros(2)
            s.moving, s.still_frames, s.rest_n, s.rest_sum = False, 0, 1, p.copy()
            s.potted_pocket = None
            s.held = None
        elif not s.moving:
            self._seen_at_rest(ball, s, p, f)
        else:
            steps = max(1, f.frame - s.last_frame)
            v = (p - s.pos) / (f.dt * steps)
            if _length(v) < self.cfg.rest_speed_mm_s:
                s.still_frames += 1
            else:
                s.still_frames = 0
            s.vel = v
            s.pos = p.copy()
            if s.still_frames >= self.cfg.rest_frames:
                s.moving, s.vel = False, np.zeros(2)
                s.rest_sum, s.rest_n = p.copy(), 1
        s.seen = True
        s.emerge = None
        if len(f.det.mm_per_px):
            s.mm_per_px = float(f.det.mm_per_px[f.assigned[ball]])
        s.last_frame = f.frame
        s.uncertainty = 1.0
        s.trail = [*s.trail[-2:], p.copy()]

    def _seen_at_rest(self, ball: str, s: Slot, p: np.ndarray, f: UpdateStep) -> None:
        """A ball at rest seen at ``p`` (mm): it stays put unless the detection leaves its
        rest position (by more than the noise: a few mm, or 2.5 px where the view is
        coarse)."""
        jitter = self.cfg.rest_jitter_mm
        if len(f.det.mm_per_px):
            jitter = max(jitter, 2.5 * float(f.det.mm_per_px[f.assigned[ball]]))
        if ball in f.emerged:
            # out of hiding: from its place, through where it was first seen
            f1, p1 = f.emerged[ball]
            s.vel = (p - p1) / (f.dt * max(1, f.frame - f1))
            s.moving, s.still_frames = True, 0
            s.trail = [s.pos.copy(), p1.copy()]
            s.pos = p.copy()
        elif s.held is not None:
            # a small jump with no ball near: the picture re-measured, or a movement?
            first = s.held[0]
            verdict = follow_hold(ball, s, p, f, jitter, self.cfg)
            if verdict == BACK:
                self._rests(s, p)
            elif verdict == MOVES:
                self._leaves_rest(s, p, f, max(1, f.frame - first + 1))
        elif _length(p - s.pos) <= jitter:
            self._rests(s, p)
        elif not starts_hold(ball, s, p, f, jitter, self.cfg, self.table.ball_radius):
            self._leaves_rest(s, p, f, max(1, f.frame - s.last_frame))

    @staticmethod
    def _rests(s: Slot, p: np.ndarray) -> None:
        """A ball at rest seen at ``p`` (mm) within the noise of its place: its place is the
        mean of these sightings."""
        s.rest_sum += p
        s.rest_n += 1
        s.pos = s.rest_sum / s.rest_n

    @staticmethod
    def _leaves_rest(s: Slot, p: np.ndarray, f: UpdateStep, steps: int) -> None:
        """A ball at rest seen at ``p`` (mm), left its place ``steps`` pictures ago: moving."""
        s.vel = (p - s.pos) / (f.dt * steps)
        s.moving, s.still_frames = True, 0
        s.pos = p.copy()

    def _gone(self, ball: str, s: Slot, f: UpdateStep) -> None:
        """Record that ``ball`` left the table (potted, or off over a cushion)."""
        if s.potted_pocket == OFF_TABLE:
            f.off.append((ball, s.potted_t, s.off_cushion or ""))
        else:
            f.pots.append((ball, s.potted_pocket, s.potted_t))

    def _unseen(self, ball: str, s: Slot, f: UpdateStep) -> None:
        """Update the slot of ``ball``, not seen this frame: why it vanished (a pot, a jump
        over a cushion, struck too hard to see) and whether it has gone for good."""
        if s.seen:
            s.lost_moving = s.moving
        s.seen = False
        s.held = None  # a re-measure is told only from the pictures that follow the jump
        if not s.on_table or s.pos is None:
            return
        cfg, det, dt = self.cfg, f.det, f.dt
        missing = f.frame - s.last_frame
        self._why_vanished(ball, s, missing, f)
        wait = cfg.pot_confirm_s
        if s.vanished:
            wait = max(wait, cfg.vanish_confirm_s)
        if s.vanished and missing * dt >= 3 * wait and (
                not self._bare(det, s.pos) or self._all_reds_seen(ball, det)):
            # its place stayed covered: it is hidden there, not potted; or as many
            # reds are seen as there are: it rolled on unseen in a cluster
            s.potted_pocket, s.vanished, s.moving = None, False, False
        if (s.potted_pocket is not None and missing * dt >= wait
                and (not s.vanished or (self._bare(det, s.pos)
                                        and not self._all_reds_seen(ball, det)))):
            s.on_table, s.vanished = False, False
            self._gone(ball, s, f)
            s.moving = False
            s.vel = np.zeros(2)
        elif s.potted_pocket is None and missing > 2:
            s.moving = False
            s.vel = np.zeros(2)
        s.uncertainty = min(100.0, s.uncertainty + 5.0)

    def _why_vanished(self, ball: str, s: Slot, missing: int, f: UpdateStep) -> None:
        """For a ball on the table unseen for ``missing`` frames: mark it pending off the
        table, pending a pot, or struck out of sight, when its last motion says so."""
        cfg, dt = self.cfg, f.dt
        # where its motion took it: two frames at most (a ball unseen longer is
        # hidden or gone, and its last speed says nothing of where)
        pocket, dist = pocket_on_path(self.pocket_xy, s.pos, s.pos + s.vel * dt * min(missing, 2))
        leaving = (self._leaving_over(s, missing) if s.moving and missing <= 2
                   and s.potted_pocket is None else None)
        if leaving is not None and not self._barely_moved(s):
            # vanished at a cushion it was heading at fast, where no pocket is (it
            # could not have dropped before meeting the cushion): it may have
            # jumped it; off the table if it stays gone and its place bare
            s.potted_pocket, s.potted_t = OFF_TABLE, s.last_frame / self.fps + dt / 2
            s.vanished, s.off_cushion = True, leaving
        elif (s.moving and dist < cfg.pot_distance_mm and s.potted_pocket is None
              and reaches_mouth(self.table, self.pocket_xy, pocket, s.pos, s.vel, s.mm_per_px, cfg)
              and self._path_into(s, pocket, f.frame)):
            # vanished near a pocket while moving: a pot, once it stays gone
            s.potted_pocket, s.potted_t = pocket, s.last_frame / self.fps + dt / 2
        elif s.potted_pocket is None and missing <= 2 and self._barely_moved(s):
            struck = struck_towards(self.table, self.pocket_xy, self.cfg, self.fps, ball,
                                    s.pos, f.paths)
            if struck is not None:
                # gone the moment a moving ball reached it: struck too hard to see
                # (into a pocket, or over a cushion it was sent at)
                s.potted_t = s.last_frame / self.fps + dt / 2
                s.vanished, s.moving = True, True
                s.potted_pocket, s.off_cushion = struck

    def _state(self, f: UpdateStep) -> TableState:
        """The frame's :class:`TableState` once every slot is updated."""
        frame, dt = f.frame, f.dt
        pos = {b: (float(s.pos[0]), float(s.pos[1])) for b, s in self.slots.items()
               if s.on_table and s.pos is not None}
        for b, s in self.slots.items():
            # a moving ball unseen for a frame or two (merged with the ball it hits, or a
            # blur too faint) is where its motion takes it, not frozen where last seen
            missing = frame - s.last_frame
            if b in pos and s.moving and not s.seen and 0 < missing <= 2 and s.potted_pocket is None:
                p = s.pos + s.vel * dt * missing
                pos[b] = (float(p[0]), float(p[1]))
        moving = {b for b, s in self.slots.items() if s.on_table and s.moving}
        visible = {b for b, s in self.slots.items() if s.seen}
        pending = [(b, s.potted_pocket, s.potted_t) for b, s in self.slots.items()
                   if s.on_table and s.moving and not s.seen and not s.vanished
                   and s.potted_pocket not in (None, OFF_TABLE) and s.potted_t is not None]
        self.updates += 1
        out = {b: (f1 / self.fps, (float(p1[0]), float(p1[1]))) for b, (f1, p1) in f.emerged.items()}
        scale = {b: s.mm_per_px for b, s in self.slots.items() if b in pos and s.mm_per_px > 0}
        return TableState(frame, frame / self.fps, pos, moving, visible, f.pots, f.appeared, f.off,
                          pending, out, scale)


def _unit(v: np.ndarray) -> np.ndarray:
    """``v`` scaled to length 1 (zero stays zero)."""
    n = float(np.linalg.norm(v))
    return np.asarray(v, float) / n if n > 0 else np.zeros(2)


def _length(v: np.ndarray) -> float:
    """The length of a 2-vector (mm or mm/s): ``np.linalg.norm`` costs about ten times as
    much on two numbers, and the tracker asks for several dozen a frame."""
    return math.hypot(float(v[0]), float(v[1]))
