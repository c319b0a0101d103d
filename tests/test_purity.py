"""Design rules on imports: the rules package must not depend on OpenCV, ultralytics or torch;
the calibration package must not depend on the tracker (it is given what it needs, such as a
ball finder)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import calibration
import tracker.rules

FORBIDDEN = {"cv2", "ultralytics", "torch", "onnxruntime"}
RULES_DIR = Path(tracker.rules.__file__).parent
CALIBRATION_DIR = Path(calibration.__file__).parent


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


def test_calibration_sources_import_no_tracker_module():
    offenders = []
    for path in CALIBRATION_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "tracker"]
    assert not offenders, offenders


def test_calibrating_loads_no_tracker_module():
    # every calibration module imported, and a table found in a plain drawn picture: the
    # tracker is never loaded
    code = """
import importlib, pkgutil, sys

import cv2
import numpy as np

import calibration
for m in pkgutil.iter_modules(calibration.__path__):
    importlib.import_module("calibration." + m.name)
from calibration.auto import calibrate_image
from calibration.table import TableGeometry

img = np.full((720, 1280, 3), (40, 30, 20), np.uint8)
cv2.rectangle(img, (140, 110), (1140, 610), (60, 140, 40), -1)
try:
    calibrate_image(img, TableGeometry.standard())
except Exception:
    pass
print(",".join(sorted(m for m in sys.modules if m.split(".")[0] == "tracker")))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
