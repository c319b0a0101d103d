"""The rules package must not depend on OpenCV, ultralytics or torch (design rule)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import tracker.rules

FORBIDDEN = {"cv2", "ultralytics", "torch", "onnxruntime"}
RULES_DIR = Path(tracker.rules.__file__).parent


def test_rules_sources_import_no_vision_library():
    offenders = []
    for path in RULES_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert not offenders, offenders


def test_importing_the_rules_loads_no_vision_library():
    code = (
        "import sys, tracker.rules.snooker, tracker.rules.snookerpool, tracker.rules.billiards, "
        "tracker.rules.match;"
        f"bad = sorted(m for m in {sorted(FORBIDDEN)!r} if m in sys.modules);"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
