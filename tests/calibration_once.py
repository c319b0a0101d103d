"""One automatic calibration per picture per test session (the suite's wall time, not a check).

Every run of ``process`` on a bundled sample starts by calibrating the camera on up to eight of
its first frames (``calibration.startup.find_start``: ~0.7 s of CPU a frame here), and the
suite runs the same samples' starts many times over in its own process. The automatic
calibration (:func:`calibration.auto.calibrate_image`) is a pure function of its picture,
table, lens and ball finder, with no randomness and no clock, so its answer for a picture it
has already been given is the same: :func:`install` keeps each answer (or each
``TableNotFound``) keyed on the picture's bytes and every argument, and hands back a deep copy.

What can change the answer without changing the arguments is a test changing the code or its
tunables: the cache is passed by while a ``monkeypatch`` of the session holds a change to a
module the calibration imports (directly or through others: :func:`calibration_modules`), to
one of their classes, to anything outside this project, or to any item or environment
variable (a test breaking a stage, as tests/test_gate.py does, calibrates afresh; one changing
the tracker or the pipeline, which the calibration never imports, does not). Runs in child
processes (the CLI in a subprocess) calibrate as before. ``CALIBRATE_EVERY_TIME=1`` in the
environment turns the cache off for a run of the suite that calibrates every time.
"""

from __future__ import annotations

import ast
import copy
import functools
import hashlib
import os
import weakref
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

#: The monkeypatches of the session that have changed something (see :func:`_patched`).
_PATCHERS: weakref.WeakSet = weakref.WeakSet()

#: How often a picture was calibrated (``misses``) and answered from the cache (``hits``).
STATS = {"hits": 0, "misses": 0, "passed_by": 0}


def _imports(path: Path, name: str, known: set[str]) -> set[str]:
    """The modules of ``known`` that module ``name`` (its file ``path``) imports anywhere."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".")[:len(name.split(".")) - node.level + (path.name == "__init__.py")]
                base = ".".join([*here, base] if base else here)
            out |= {base} | {f"{base}.{a.name}" for a in node.names}
    return {m for m in out if m in known} - {name}


def calibration_modules() -> frozenset[str]:
    """The modules of ``calibration`` and ``tracker`` that the automatic calibration with the
    tracker's ball finder imports, directly or through others (each module's imports read from
    its text, wherever they stand)."""
    root = Path(__file__).resolve().parents[1]
    files = {".".join(f.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): f
             for pkg in ("calibration", "tracker") for f in (root / pkg).rglob("*.py")}
    seen: set[str] = set()
    todo = ["calibration.auto", "tracker.perception.calibrate"]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += _imports(files[name], name, set(files))
    return frozenset(seen)


def _touches_calibration(target: Any, reached: frozenset[str]) -> bool:
    """Whether a change to ``target`` (a module, a class, or an object) can change what the
    calibration answers: a module or class of ``reached``, or anything outside this project
    (a library, a test's own object), pytest's own configuration aside."""
    if isinstance(target, ModuleType):
        name = target.__name__
    elif isinstance(target, type):
        name = target.__module__
    else:
        name = type(target).__module__
    if name.startswith("_pytest"):
        return False
    if name.split(".")[0] in ("tracker", "calibration"):
        return name in reached
    return True


def _patched(reached: frozenset[str]) -> bool:
    """Whether a monkeypatch of the session holds a change now that can change what the
    calibration answers: an attribute of what it reaches (:func:`_touches_calibration`), or any
    item or environment variable, set and not yet undone. Unknown internals count as patched."""
    for mp in list(_PATCHERS):
        changed = getattr(mp, "_setattr", None)
        items = getattr(mp, "_setitem", None)
        if changed is None or items is None or items:
            return True
        if any(_touches_calibration(row[0], reached) for row in changed):
            return True
    return False


def _track_monkeypatches() -> None:
    """Make every ``MonkeyPatch`` that changes something known to :func:`_patched`."""
    for name in ("setattr", "delattr", "setitem", "delitem", "setenv", "delenv"):
        real = getattr(pytest.MonkeyPatch, name)

        @functools.wraps(real)
        def tracked(self, *args, _real=real, **kwargs):
            _PATCHERS.add(self)
            return _real(self, *args, **kwargs)

        setattr(pytest.MonkeyPatch, name, tracked)


def _part(value: Any) -> Any:
    """One argument as a hashable part of a key: an array by its shape, type and bytes, a
    sequence part by part, anything else as itself (a function by identity: the key holds it,
    so its identity is never reused). Raises TypeError for what cannot be keyed."""
    if isinstance(value, np.ndarray):
        digest = hashlib.blake2b(np.ascontiguousarray(value).tobytes(), digest_size=16).digest()
        return ("array", value.shape, str(value.dtype), digest)
    if isinstance(value, (tuple, list)):
        return ("sequence", tuple(_part(v) for v in value))
    hash(value)
    return value


def _key(img: Any, args: tuple, kwargs: dict) -> tuple | None:
    """The cache key of one call (the picture and every other argument); None when an
    argument cannot be keyed (the call is then made as it is)."""
    if not isinstance(img, np.ndarray):
        return None
    try:
        return (_part(img), _part(args), tuple((k, _part(v)) for k, v in sorted(kwargs.items())))
    except TypeError:
        return None


def _cached(real, reached: frozenset[str]):
    """``real`` (the automatic calibration) answering each picture once, the modules it
    reaches ``reached`` (:func:`calibration_modules`; see the module's docstring)."""
    from calibration.finder import TableNotFound

    answers: dict[tuple, tuple[str, Any]] = {}  # picture and arguments -> ("ok", calibration)
    # or ("error", the TableNotFound raised)

    @functools.wraps(real)
    def calibrate_image(img, *args, **kwargs):
        key = None if _patched(reached) else _key(img, args, kwargs)
        if key is None:
            STATS["passed_by"] += 1
            return real(img, *args, **kwargs)
        if key not in answers:
            STATS["misses"] += 1
            try:
                answers[key] = ("ok", real(img, *args, **kwargs))
            except TableNotFound as exc:  # no table in the picture: the same answer next time
                answers[key] = ("error", exc)
        else:
            STATS["hits"] += 1
        kind, answer = answers[key]
        if kind == "error":
            raise copy.copy(answer)
        return copy.deepcopy(answer)

    calibrate_image.uncached = real
    return calibrate_image


def install() -> bool:
    """Put the cache in front of ``calibration.auto.calibrate_image`` (and the modules that
    imported it by name); False when ``CALIBRATE_EVERY_TIME`` is set."""
    if os.environ.get("CALIBRATE_EVERY_TIME"):
        return False
    import sys

    try:
        import calibration.auto as auto
    except Exception:  # a calibration that does not import: its tests say so, the rest run
        return False
    real = auto.calibrate_image
    if hasattr(real, "uncached"):
        return True
    _track_monkeypatches()
    cached = _cached(real, calibration_modules())
    for module in list(sys.modules.values()):
        if module is not None and getattr(module, "calibrate_image", None) is real \
                and (module.__name__.startswith("calibration") or module.__name__.startswith("tracker")):
            module.calibrate_image = cached
    return True
