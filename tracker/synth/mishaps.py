"""Things physics does not play but a referee must call: a ball forced off the table, and a
ball disturbed (moved with no ball touching it, by the striker's hand, cue or sleeve).

pooltool keeps every ball on the bed, so these are scripted on top of a simulated stroke,
never in a way that contradicts it: a stroke whose physics would have the ball touch another
ball after the mishap is refused (:class:`ImpossibleMishap`) and the scenario search tries the
next candidate. The changed :class:`StrokeResult` carries the exact event (``off_table`` at
the moment the ball leaves over the cushion, ``disturbed`` when the ball starts to move), the
ball's trajectory (and height, mm, for a ball in the air) and its final place.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from calibration.table import TableGeometry
from tracker.records.shot import Event, EventType
from tracker.synth.physics import StrokeResult

#: Vertical speed of a ball jumping the cushion, mm/s (peaks ~70 mm above its resting height).
JUMP_VZ_MM_S = 1200.0
#: Share of its horizontal speed a ball keeps as it rides over the cushion.
JUMP_KEEP = 0.7
#: A ball off the table is drawn until this far beyond the cushion face, or until it falls
#: back below the cushion's height (then it is on the floor, out of view), mm.
GONE_BEYOND_MM = 250.0
#: Gravity, mm/s^2.
G_MM_S2 = 9810.0


class ImpossibleMishap(ValueError):
    """The mishap cannot be scripted on this stroke without contradicting its physics."""


def leave_table(res: StrokeResult, ball: str, table: TableGeometry, fps: float) -> StrokeResult:
    """The ``ball`` jumps the cushion at its first cushion contact of the stroke and lands
    off the table: from then on it flies outward (keeping :data:`JUMP_KEEP` of its speed,
    rising and falling), is drawn until :data:`GONE_BEYOND_MM` beyond the face or until it falls
    back below the cushion's height, and is gone. Trajectories are cut where the stroke now
    ends (the other balls at rest); the ball's height goes to ``heights``.

    Raises :class:`ImpossibleMishap` when the ball touches no cushion, meets it at a pocket's
    jaws, comes in too slowly to jump it (< 1 m/s), or would later touch another ball.
    """
    hits = [e for e in res.events if e.type == EventType.CUSHION and e.ball == ball]
    if not hits or ball not in res.xy:
        raise ImpossibleMishap(f"the {ball} touches no cushion in this stroke")
    t_c = hits[0].t
    later = [e for e in res.events if e.t > t_c and ball in e.balls and e.type == EventType.CONTACT]
    if later:
        raise ImpossibleMishap(f"the {ball} would touch the {later[0].balls} after leaving the table")
    times, xy = res.times, res.xy[ball]
    k0 = int(np.searchsorted(times, t_c, side="right") - 1)
    if k0 < 1 or np.isnan(xy[k0]).any() or np.isnan(xy[k0 - 1]).any():
        raise ImpossibleMishap(f"the {ball} has no track before its cushion contact")
    v = (xy[k0] - xy[k0 - 1]) * fps
    p_c = xy[k0] + v * (t_c - times[k0])
    axis, face, inward, _ = min(table.cushion_faces, key=lambda f: abs(p_c[f[0]] - f[1]))
    speed_in = -inward * v[axis]
    if speed_in < 1000.0:
        raise ImpossibleMishap(f"the {ball} meets the cushion at {speed_in:.0f} mm/s, too slow to jump it")
    if min(math.dist(p_c, pk.mouth_centre) for pk in table.pockets.values()) < 2.0 * table.corner_mouth:
        raise ImpossibleMishap(f"the {ball} meets the cushion in a pocket's jaws")
    new_xy = xy.copy()
    heights = np.full(len(times), table.ball_radius)
    moving = res.moving[ball].copy()
    v_out = v * JUMP_KEEP
    for k in np.nonzero(times > t_c)[0]:
        tau = times[k] - t_c
        p = p_c + v_out * tau
        beyond = -inward * (p[axis] - face)
        z = table.ball_radius + JUMP_VZ_MM_S * tau - 0.5 * G_MM_S2 * tau * tau
        falling = tau > JUMP_VZ_MM_S / G_MM_S2
        if beyond > GONE_BEYOND_MM or (falling and z < table.ball_radius + table.cushion_height):
            # on the floor behind the rail, out of view
            new_xy[k:] = np.nan
            moving[k:] = False
            break
        new_xy[k] = p
        heights[k] = z
        moving[k] = True
    events = [e for e in res.events if not (ball in e.balls and e.t >= t_c)]
    events.append(Event(EventType.OFF_TABLE, t_c, (ball,)))
    events.sort(key=lambda e: e.t)
    final = {b: p for b, p in res.final.items() if b != ball}
    pocketed = {b: v_ for b, v_ in res.pocketed.items() if b != ball}
    # the stroke now ends when the other balls stop (the physics had this one roll on)
    busy = np.nonzero(np.any([m for b, m in res.moving.items() if b != ball] + [moving], axis=0))[0]
    last = max(t_c, float(times[busy[-1]]) if len(busy) else t_c)
    others = [e.t for e in events if e.type != EventType.AT_REST]
    duration = max([last, *others])
    n = min(len(times), int(np.searchsorted(times, duration, side="right")) + 1)
    return replace(res, times=times[:n],
                   xy={b: v_[:n] for b, v_ in {**res.xy, ball: new_xy}.items()},
                   moving={b: m[:n] for b, m in {**res.moving, ball: moving}.items()},
                   events=events, final=final, pocketed=pocketed, duration=duration,
                   heights={**{b: h[:n] for b, h in res.heights.items()}, ball: heights[:n]})


def disturb(res: StrokeResult, ball: str, start: tuple[float, float], end: tuple[float, float],
            table: TableGeometry, t_start: float = 0.04, seconds: float = 0.5) -> StrokeResult:
    """The ``ball`` is pushed from ``start`` to ``end`` (mm) by the striker (hand, cue or
    sleeve) from ``t_start`` (s after the strike) for ``seconds``, slowing as it goes; no ball
    touches it. ``res`` must have been simulated with the ball already at ``end`` (so the rest
    of the stroke plays around where it ends up).

    Raises :class:`ImpossibleMishap` when a ball touches it in that simulation or passes
    within a radius of touching it while it is being pushed.
    """
    if any(e.type == EventType.CONTACT and ball in e.balls for e in res.events):
        raise ImpossibleMishap(f"a ball touches the {ball} in this stroke")
    times = res.times
    s = np.clip((times - t_start) / seconds, 0.0, 1.0)
    ease = 1.0 - (1.0 - s) ** 2  # pushed, then slowing to rest
    a, b = np.asarray(start, float), np.asarray(end, float)
    path = a[None, :] + ease[:, None] * (b - a)[None, :]
    moving = (times >= t_start) & (times < t_start + seconds)
    clear = 3.0 * table.ball_radius
    for other, xy in res.xy.items():
        if other == ball:
            continue
        d = np.linalg.norm(xy - path, axis=1)
        if np.nanmin(np.where(times <= t_start + seconds, d, np.inf)) < clear:
            raise ImpossibleMishap(f"the {other} passes next to the {ball} while it is pushed")
    events = sorted([*res.events, Event(EventType.DISTURBED, t_start, (ball,))], key=lambda e: e.t)
    return replace(res, xy={**res.xy, ball: path}, moving={**res.moving, ball: moving},
                   events=events)
