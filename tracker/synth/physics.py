"""Stroke physics with pooltool (optional extra ``[synth]``), on the official geometry.

pooltool's own snooker table is off-spec; we build ours: a 3569 x 1778 mm playing area,
52.5 mm balls (R = 26.25 mm), pocket mouths 86 mm (corner) and 98 mm (middle) as in
``calibration.table``, and place every ball ourselves from the WPBSA spots. Only its physics
is used, never its rules. Coordinates: pooltool's x/y in metres equal our canonical frame
(origin at the baulk-left cushion corner) divided by 1000.

pooltool reads ``~/.config/pooltool``; point ``HOME`` at a controlled folder before importing
(``tracker.synth.physics.ensure_pooltool`` does this when ``POOLTOOL_HOME`` is set). The first
simulation JIT-compiles for about 30-40 s.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from calibration.table import STANDARD_TABLE, TableGeometry
from tracker.records.shot import Event, EventType

POCKET_NAMES = {"lb": "baulk_left", "lc": "middle_left", "lt": "top_left",
                "rb": "baulk_right", "rc": "middle_right", "rt": "top_right"}
#: Motion states of pooltool balls.
STATIONARY, SPINNING, SLIDING, ROLLING, POCKETED = 0, 1, 2, 3, 4


class PhysicsUnavailable(RuntimeError):
    """pooltool is not installed."""


def ensure_pooltool():
    """Import pooltool, or explain how to install it."""
    home = os.environ.get("POOLTOOL_HOME")
    if home:
        os.makedirs(home, exist_ok=True)
        os.environ["HOME"] = home
    try:
        import pooltool as pt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise PhysicsUnavailable(
            "the synthetic world needs pooltool: pip install -e '.[synth]' then "
            "pip install --no-deps pooltool-billiards==0.6.0 (see README)"
        ) from exc
    return pt


@dataclass(frozen=True)
class Stroke:
    """Cue parameters of one stroke.

    Attributes:
        speed: cue-ball speed V0, m/s.
        phi: aim direction, degrees, counter-clockwise from +x (across the table).
        theta: cue elevation, degrees.
        a, b: tip offsets from the ball centre (fractions of R): side (a) and height (b).
        cue_ball: the ball struck (normally the white).
    """

    speed: float
    phi: float
    theta: float = 0.0
    a: float = 0.0
    b: float = 0.0
    cue_ball: str = "white"


@dataclass
class StrokeResult:
    """What the physics produced for one stroke.

    Attributes:
        times: sample times from the strike, s, shape (T,).
        xy: ball id -> (T, 2) centres, mm (NaN once pocketed).
        moving: ball id -> (T,) bool.
        pocketed: ball id -> (pocket name, time) for balls that dropped.
        events: contacts, cushions and pots as shot-record events (t from the strike).
        duration: time until every ball is at rest, s.
        final: ball id -> final centre (mm) of the balls still on the table.
        system: the simulated pooltool ``System`` (its events feed pooltool's own rules in
            :mod:`tracker.synth.crosscheck`).
        heights: ball id -> (T,) centre height, mm, for a ball in the air (scripted by
            :mod:`tracker.synth.mishaps`); others stand at R.
        smear: ball id -> (T, S, 2) centres, mm, at S instants spread evenly over each
            sample's exposure (centred on its time; NaN once pocketed), for the balls that move
            in the stroke, when the simulation was asked for them: what a camera's shutter
            integrates (motion blur along the true, possibly bent, path).
    """

    times: np.ndarray
    xy: dict[str, np.ndarray]
    moving: dict[str, np.ndarray]
    pocketed: dict[str, tuple[str, float]]
    events: list[Event]
    duration: float
    final: dict[str, tuple[float, float]] = field(default_factory=dict)
    system: Any = None
    heights: dict[str, np.ndarray] = field(default_factory=dict)
    smear: dict[str, np.ndarray] = field(default_factory=dict)


class Physics:
    """Builds pooltool systems on our table and simulates strokes."""

    def __init__(self, table: TableGeometry = STANDARD_TABLE):
        pt = ensure_pooltool()
        import attrs
        from pooltool.objects.table.specs import SnookerTableSpecs

        self.pt = pt
        self.table = table
        specs = SnookerTableSpecs(
            l=table.length / 1000, w=table.width / 1000,
            corner_pocket_width=table.corner_mouth / 1000,
            side_pocket_width=table.middle_mouth / 1000,
        )
        self.pt_table = pt.Table.from_table_specs(specs)
        params = pt.BallParams.default(game_type=pt.GameType.SNOOKER)
        self.params = attrs.evolve(params, R=table.ball_radius / 1000)
        self._attrs = attrs

    def simulate(self, positions: Mapping[str, tuple[float, float]], stroke: Stroke,
                 fps: float = 25.0, times: np.ndarray | None = None, offset_s: float = 0.0,
                 exposure: tuple[float, int] | None = None) -> StrokeResult:
        """Simulate one stroke from ``positions`` (mm, every ball on the table incl. the white).

        Returns trajectories sampled at ``fps`` (or at the given ``times``, s from the strike)
        and the exact event times.

        Args:
            offset_s: the strike falls this long after the first sample (0 <= offset < 1/fps:
                a camera's frames do not wait for the strike); samples before it show the
                balls at rest.
            exposure: (seconds, samples): also sample each ball that moves at that many
                instants over each sample's exposure (``StrokeResult.smear``).
        """
        pt = self.pt
        balls = {
            b: pt.Ball.create(b, xy=(x / 1000.0, y / 1000.0), **self._attrs.asdict(self.params))
            for b, (x, y) in positions.items()
        }
        system = pt.System(cue=pt.Cue(cue_ball_id=stroke.cue_ball), table=self.pt_table, balls=balls)
        system.cue.set_state(V0=stroke.speed, phi=stroke.phi % 360.0, theta=stroke.theta,
                             a=stroke.a, b=stroke.b)
        pt.simulate(system, inplace=True)
        events = self._events(system)
        duration = float(system.t)
        if times is None:
            n = int(math.ceil((duration + offset_s) * fps)) + 1
            times = np.arange(n) / fps - offset_s
        times = np.asarray(times, float)
        xy: dict[str, np.ndarray] = {}
        moving: dict[str, np.ndarray] = {}
        pocketed: dict[str, tuple[str, float]] = {}
        for e in events:
            if e.type == EventType.POT:
                pocketed[e.ball] = (e.pocket or "", e.t)
        for bid, ball in system.balls.items():
            hist = ball.history
            ts = np.array([s.t for s in hist.states])
            rs = np.array([s.rvw[0][:2] for s in hist.states]) * 1000.0
            vs = np.array([s.rvw[1][:2] for s in hist.states]) * 1000.0
            ss = np.array([s.s for s in hist.states])
            xy[bid], moving[bid] = _sample(ts, rs, vs, ss, times, self.params, ball)
            if bid in pocketed:
                xy[bid][times > pocketed[bid][1]] = np.nan
        smear: dict[str, np.ndarray] = {}
        if exposure is not None:
            seconds, n_sub = exposure
            sub = times[:, None] + seconds * (np.linspace(0.0, 1.0, n_sub) - 0.5)[None, :]
            for bid, ball in system.balls.items():
                if not moving[bid].any() and bid not in pocketed:
                    continue
                hist = ball.history
                ts = np.array([s.t for s in hist.states])
                rs = np.array([s.rvw[0][:2] for s in hist.states]) * 1000.0
                path, _ = _sample(ts, rs, None, None, sub.ravel(), self.params, ball)
                if bid in pocketed:
                    path[sub.ravel() > pocketed[bid][1]] = np.nan
                smear[bid] = path.reshape(len(times), n_sub, 2)
        final = {b: (float(v[-1, 0]), float(v[-1, 1])) for b, v in xy.items()
                 if b not in pocketed}
        return StrokeResult(times, xy, moving, pocketed, events, duration, final, system,
                            smear=smear)

    def _events(self, system) -> list[Event]:
        out: list[Event] = []
        for e in system.events:
            et = str(e.event_type)
            ids = [a.id for a in e.agents]
            t = float(e.time)
            if et == "stick_ball":
                out.append(Event(EventType.STRIKE, t, (ids[1],)))
            elif et == "ball_ball":
                out.append(Event(EventType.CONTACT, t, (ids[0], ids[1])))
            elif et in ("ball_linear_cushion", "ball_circular_cushion"):
                out.append(Event(EventType.CUSHION, t, (ids[0],), cushion=str(ids[1])))
            elif et == "ball_pocket":
                out.append(Event(EventType.POT, t, (ids[0],), pocket=POCKET_NAMES.get(ids[1], ids[1])))
        return out


def _sample(ts, rs, vs, ss, times, params, ball) -> tuple[np.ndarray, np.ndarray]:
    """Positions at ``times`` from pooltool's event-based history (exact between events);
    ``moving`` is True while the ball slides or rolls (spinning on the spot is not moving)."""
    from pooltool.physics.evolve import evolve_ball_motion

    out = np.empty((len(times), 2))
    mov = np.zeros(len(times), bool)
    idx = np.clip(np.searchsorted(ts, times, side="right") - 1, 0, len(ts) - 1)
    hist = ball.history.states
    for k, (i, t) in enumerate(zip(idx, times, strict=True)):
        st = hist[i]
        if t < 0.0:  # before the strike: where it stands
            out[k] = hist[0].rvw[0][:2] * 1000.0
            continue
        if st.s in (STATIONARY, POCKETED):
            out[k] = st.rvw[0][:2] * 1000.0
            continue
        rvw, state = evolve_ball_motion(st.s, st.rvw, params.R, params.m, params.u_s, params.u_sp,
                                        params.u_r, params.g, max(0.0, t - st.t))
        out[k] = rvw[0][:2] * 1000.0
        mov[k] = state in (SLIDING, ROLLING)
    return out, mov
