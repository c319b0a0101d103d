"""No import cycle among the modules of ``tracker/`` and ``calibration/`` (issue 29): every
import counts, at module level or inside a function, except those under ``if TYPE_CHECKING:``
(never run). A cycle makes the import order matter and ties modules that should stand apart
(the listener API and the pipeline, the frame sources and live reading)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of the two packages it imports (at run time)."""
    paths = {_module_name(p): p for pkg in ("tracker", "calibration")
             for p in (ROOT / pkg).rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in paths}
    for mod, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and "TYPE_CHECKING" in ast.unparse(node.test)
                       for stmt in node.body for n in ast.walk(stmt)}
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                names = [base, *(f"{base}.{a.name}" for a in node.names)]
            else:
                continue
            graph[mod] |= {n for n in names if n in graph and n != mod}
    return graph


# Cycles themselves: tests/test_no_import_cycles.py (deferred and TYPE_CHECKING imports too).


def test_the_graph_reads_the_tree():
    graph = import_graph()
    assert "tracker.pipeline.run" in graph and "tracker.sources" in graph
    assert "tracker.listeners" in graph["tracker.outputs.jsonl"]


def test_the_listener_api_and_the_frame_sources_are_leaves_of_the_pipeline():
    graph = import_graph()
    assert not {m for m in graph["tracker.listeners"] if m.startswith("tracker.pipeline")}
    assert "tracker.live" not in graph["tracker.sources"]


def test_process_options_are_frozen_and_an_unknown_one_is_refused(tmp_path):
    import dataclasses

    import pytest

    from tracker.pipeline import ProcessOptions, process_video

    opts = ProcessOptions(progress=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.progress = True  # type: ignore[misc]
    with pytest.raises(TypeError, match="progres"):
        process_video(tmp_path / "none.mp4", None, opts, progres=False)
