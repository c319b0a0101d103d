"""What every ``snooker-tracker`` command shares: exit codes, the one-line user error, and
the checks of paths, names and numbers given on the command line (bad input is refused here
with one line that says what is wrong and what to do; the limits: docs/LIMITS.md)."""

from __future__ import annotations

import json
import logging
import math
import tempfile
from collections.abc import Sequence
from pathlib import Path

from tracker.records.parse import refuse_constant

#: ``--detector`` choices (as :data:`tracker.perception.learned.DETECTORS`; kept here so the
#: referee commands do not import OpenCV).
DETECTORS = ("colour", "learned", "auto")

EXIT_OK = 0
EXIT_REGRESSION = 1
EXIT_BAD_INPUT = 2
EXIT_MISSING = 3
EXIT_BUG = 70
EXIT_INTERRUPTED = 130
#: Where the traceback of a bug is written (default: the system's temporary folder).
CRASH_DIR_ENV = "SNOOKER_TRACKER_CRASH_DIR"

log = logging.getLogger("tracker.cli")


class UserError(Exception):
    """A command cannot go on because of what it was given (or lacks): one line for a person
    and the exit code."""

    def __init__(self, message: str, code: int = EXIT_BAD_INPUT):
        super().__init__(message)
        self.code = code


def one_line(text: object, limit: int = 600) -> str:
    """``text`` on one line (whitespace runs folded), at most ``limit`` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


# ------------------------------------------------------------------ checks of options
def output_dir(option: str, path: str | Path) -> Path:
    """A folder the command may write into: created if absent (UserError if it cannot be)."""
    p = Path(path)
    check_parent_chain(option, p)
    if p.exists() and not p.is_dir():
        raise UserError(f"{option} {p} is a file, not a folder; give a folder (it is made if "
                        "it does not exist)")
    try:
        p.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=p):
            pass
    except OSError as exc:
        raise UserError(f"{option} {p}: cannot write there ({exc.strerror or exc}); give a "
                        "folder you can write") from None
    return p


def output_file(option: str, path: str | Path, force: bool | None = None) -> Path:
    """A file the command may write: its folder made if absent; an existing file is refused
    unless ``force`` (None: derived outputs, replaced freely). UserError otherwise."""
    if not str(path).strip():
        raise UserError(f"{option} is empty; give a file name")
    p = Path(path)
    check_parent_chain(option, p)
    if p.is_dir():
        raise UserError(f"{option} {p} is a folder; give a file name")
    if force is False and p.exists():
        raise UserError(f"{option} {p} exists; give --force to replace it, or another name")
    output_dir(option, p.parent if str(p.parent) else ".")
    return p


def check_parent_chain(option: str, p: Path) -> None:
    """Every existing ancestor of ``p`` must be a folder (``/dev/null/x`` cannot be made)."""
    for anc in [p, *p.parents][::-1]:
        if anc.exists() and not anc.is_dir() and anc != p:
            raise UserError(f"{option} {p}: {anc} is a file, not a folder; give a path in a "
                            "folder you can write")


def players_arg(names: Sequence[str] | None) -> tuple[str, str]:
    from calibration.limits import check_name

    if not names:
        return ("A", "B")
    try:
        a, b = (check_name("--players: a player's", n) for n in names)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if " ".join(a.split()).casefold() == " ".join(b.split()).casefold():
        raise UserError(f"--players: the two players must have different names, got {a!r} "
                        "twice; give both names (the first breaks)")
    return a, b


def number_arg(option: str, value: float | None, bounds: tuple[float, float], unit: str = "",
            ) -> float | None:
    from calibration.limits import check_range

    if value is None:
        return None
    try:
        return check_range(option, value, bounds, unit)
    except ValueError as exc:
        raise UserError(str(exc)) from None


def table_from_args(size: str | None, ball: float | None):
    """The table of ``--table-size`` and ``--ball-diameter`` (None when neither is given).

    Raises:
        UserError: a size that does not parse or lies outside docs/LIMITS.md.
    """
    from calibration.table import STANDARD_BALL_DIAMETER_MM, TableGeometry

    if not size and ball is None:
        return None
    ball = STANDARD_BALL_DIAMETER_MM if ball is None else ball
    if not size:
        length, width = 3569.0, 1778.0
    else:
        try:
            length, width = (float(v) for v in size.lower().replace("×", "x").split("x"))
        except ValueError:
            raise UserError(f"--table-size must look like 3569x1778 (LENGTHxWIDTH, mm), got "
                            f"{size!r}") from None
        if not (math.isfinite(length) and math.isfinite(width)):
            raise UserError(f"--table-size must be two finite numbers of mm, got {size!r}")
    try:
        return TableGeometry.of_size(length, width, ball)
    except ValueError as exc:
        option = "--ball-diameter" if "ball" in str(exc) else "--table-size"
        raise UserError(f"{option}: {exc} (limits: docs/LIMITS.md)") from None


def read_json_option(option: str, text: str) -> object:
    """The JSON of an option that takes a file or inline JSON (UserError if neither)."""
    p = Path(text)
    if p.is_dir():
        raise UserError(f"{option} {p} is a folder; give a JSON file")
    if p.is_file():
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"{option} {p}: cannot read it as UTF-8 text ({exc}); give a JSON "
                            "file") from None
    try:
        value = json.loads(text, parse_constant=refuse_constant)
    except (ValueError, RecursionError) as exc:
        what = "its JSON is malformed" if p.is_file() else "neither a file nor JSON"
        raise UserError(f"{option} {text[:60]!r}: {what} ({getattr(exc, 'msg', exc)}); see "
                        "docs/CALIBRATION.md") from None
    if not _finite_json(value):
        raise UserError(f"{option}: every number must be finite (no 1e400, NaN or Infinity)")
    return value


def _finite_json(value: object) -> bool:
    """Whether every number in a JSON value is finite."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite_json(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite_json(v) for v in value)
    return True


def size_arg(text: str | None) -> tuple[int, int] | None:
    """``--size WxH`` as (width, height) px."""
    if not text:
        return None
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(f"--size {text}: give the frame size as WIDTHxHEIGHT, e.g. "
                        "1920x1080") from None
    if w <= 0 or h <= 0:
        raise UserError(f"--size {text}: width and height must be positive")
    return w, h
