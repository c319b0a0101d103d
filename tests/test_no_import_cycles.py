"""No import cycles in the ``tracker`` and ``calibration`` packages (issue 29).

Every ``import``/``from ... import`` in every module counts, wherever it stands: at the top, in a
function (a deferred import hides a cycle at run time but not from the reader), or under
``if TYPE_CHECKING``. Modules that import each other, directly or through others, form a
strongly connected component of the import graph; each such component is a cycle.

``KNOWN_CYCLES`` lists the cycles being cut on another branch at the time of writing (issue 29:
the listener API of ``live.py``/``sources.py`` and ``outputs/jsonl.py``/``pipeline.py``); whoever
cuts one removes it from the list. A new cycle, or a known one that grows, fails the test.

Shown to fail: with ``tracker/rules/misses.py`` importing ``SnookerStroke`` from
``tracker.rules.snooker`` again (the cycle of issue 29), the test said
``new import cycle among: tracker.rules.misses, tracker.rules.snooker``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("tracker", "calibration")

#: Cycles known on ``main`` at 131a5b1 and being cut elsewhere; empty this as they go.
KNOWN_CYCLES: set[frozenset[str]] = set()  # live<->sources and jsonl<->pipeline: cut (issue 29)


def _modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file under ``root/<package>``."""
    out = {}
    for pkg in packages:
        for f in (root / pkg).rglob("*.py"):
            parts = list(f.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = f
    return out


def _imported(name: str, path: Path, mods: dict[str, Path]) -> set[str]:
    """The modules of ``mods`` that module ``name`` imports anywhere in its text."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                m = alias.name
                while m and m not in mods:
                    m = m.rpartition(".")[0]
                if m:
                    out.add(m)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                here = here[:len(here) - node.level + 1]
                base = ".".join([*here, base] if base else here)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in mods:
                    out.add(sub)
                elif base in mods:
                    out.add(base)
    out.discard(name)
    return out


def import_cycles(root: Path, packages: tuple[str, ...] = PACKAGES) -> list[list[str]]:
    """Each set of modules that import one another (Tarjan's strongly connected components of
    more than one module), each sorted, in no particular order."""
    mods = _modules(root, packages)
    graph = {m: _imported(m, p, mods) for m, p in mods.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def test_no_import_cycle_in_tracker_or_calibration():
    new = [c for c in import_cycles(ROOT) if frozenset(c) not in KNOWN_CYCLES]
    assert not new, "new import cycle among: " + "; ".join(", ".join(c) for c in new)


def test_the_cycle_finder_finds_a_cycle_through_a_deferred_or_type_checking_import(tmp_path):
    pkg = tmp_path / "tracker"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from tracker import b\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from tracker.c import C\n")
    (pkg / "c.py").write_text("def f():\n    from . import a\n")
    (pkg / "d.py").write_text("import tracker.a\n")
    assert import_cycles(tmp_path, ("tracker",)) == [["tracker.a", "tracker.b", "tracker.c"]]


def test_the_rules_referee_and_its_mixins_import_no_private_name_of_each_other():
    """Issue 29: ``misses.py`` and ``unplayed.py`` imported the referee's private types."""
    for path in (ROOT / "tracker" / "rules").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tracker.rules"):
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{path.name} imports {private} from {node.module}"
