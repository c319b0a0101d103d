"""The limits every input is checked against at the boundary (profiles, match logs, command-line
options, videos), in one place. docs/LIMITS.md lists them for users; a value outside them is
refused with a one-line error naming the value, the limit and what to do.

They are wide on purpose: they catch what cannot be a snooker table, a camera or a match
(a 1e300 mm table, a 10^12-pixel image, a stroke at minus five seconds), not unusual set-ups.
"""

from __future__ import annotations

import math
import unicodedata

#: Playing-area length (baulk cushion to top cushion), mm: a 4 ft toy table to a 14 ft one.
TABLE_LENGTH_MM = (1000.0, 4300.0)
#: Playing-area width, mm.
TABLE_WIDTH_MM = (500.0, 2200.0)
#: Ball diameter, mm (children's sets to carom balls).
BALL_DIAMETER_MM = (30.0, 70.0)
#: Image width and height, px.
IMAGE_SIDE_PX = (16, 16384)
#: A ball centre in a match log may lie this far outside the cushion lines (in a pocket's jaws,
#: or misplaced by the camera by a few mm) and still be on the table, mm.
POSITION_MARGIN_MM = 200.0
#: Times in a match log (seconds from the start of the video): 0 to two days.
TIME_S = (0.0, 48 * 3600.0)
#: A match log's line, characters (a record is a few kB; a longer line is not a record).
LOG_LINE_MAX_CHARS = 1_000_000
#: A calibration profile, bytes (a profile is a few kB).
PROFILE_MAX_BYTES = 1_000_000
#: Player and team names: characters.
NAME_MAX_CHARS = 60
#: Camera horizontal field of view, degrees.
HFOV_DEG = (5.0, 170.0)
#: The ball detector's working scale (``pots --scale``).
DETECTOR_SCALE = (0.1, 4.0)
#: Frames per second of a synthetic clip.
FPS = (1.0, 1000.0)
#: ``--realtime`` speed factor.
REALTIME_SPEED = (0.01, 100.0)


def is_finite(x: object) -> bool:
    """Whether ``x`` is a real number (not a bool) that is neither NaN nor infinite."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return False
    try:
        return math.isfinite(x)
    except OverflowError:  # an int too large for a float
        return False


def within(x: object, bounds: tuple[float, float]) -> bool:
    """Whether ``x`` is a finite number within ``bounds`` (inclusive)."""
    return is_finite(x) and bounds[0] <= x <= bounds[1]  # type: ignore[operator]


def check_range(name: str, x: object, bounds: tuple[float, float], unit: str = "") -> float:
    """``x`` as a float if it lies within ``bounds``, else ValueError naming ``name``, the value
    and the bounds (a message for a person)."""
    if not within(x, bounds):
        u = f" {unit}" if unit else ""
        raise ValueError(f"{name} must be between {bounds[0]:g} and {bounds[1]:g}{u}, "
                         f"got {_short(x)}")
    return float(x)  # type: ignore[arg-type]


def _short(x: object) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def check_name(what: str, name: object) -> str:
    """A player's or team's name: a non-empty string without control characters, at most
    :data:`NAME_MAX_CHARS` long (ValueError otherwise)."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{what} name is empty; give a name")
    if len(name) > NAME_MAX_CHARS:
        raise ValueError(f"{what} name {name[:20]!r}... is {len(name)} characters long; "
                         f"at most {NAME_MAX_CHARS}")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
        raise ValueError(f"{what} name {name!r} holds a control character (a new line, a tab); "
                         "give a plain name")
    return name


def check_table(length: object, width: object, ball: object) -> tuple[float, float, float]:
    """A table's size, mm: each within its limits and the length not shorter than the width
    (ValueError naming the bad one)."""
    if not is_finite(ball) or ball <= 0:  # type: ignore[operator]
        raise ValueError(f"the ball diameter must be a positive number of mm, got {_short(ball)}")
    check_range("the ball diameter", ball, BALL_DIAMETER_MM, "mm")
    check_range("the table length", length, TABLE_LENGTH_MM, "mm")
    check_range("the table width", width, TABLE_WIDTH_MM, "mm")
    if length < width:  # type: ignore[operator]
        raise ValueError(f"the table length {length} mm is shorter than its width {width} mm; "
                         "give the size as LENGTHxWIDTH")
    return float(length), float(width), float(ball)  # type: ignore[arg-type]
