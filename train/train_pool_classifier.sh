#!/usr/bin/env bash
# The pool ball classifier from nothing, in one command: the synthetic pool crops (training
# cameras and held-out cameras), our own CNN and the ultralytics YOLO candidate trained on the
# same crops, both scored on the same held-out cameras, then both on the real labelled pool
# frames (bench/pool_classifier.py). The own CNN, the better of the two (models/pool_classifier.md
# says why, with figures), writes models/pool_classifier.onnx; the YOLO candidate goes to data/.
#
#     PYTHON=/work/venv-train/bin/python bash train/train_pool_classifier.sh
#
# WORLD=plain (the default here: the committed model's crops) or harder (train/pool_world.py).
#
# Needs the synth and train extras (pip install -e '.[synth,train]'; train has ultralytics).
# Heavy steps run under the shared machine's lock (SNOOKER_LOCK, default /tmp/heavy.lock),
# niced, torch on one thread.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
lock() { if command -v flock >/dev/null; then flock "$1" "${@:2}"; else "${@:2}"; fi; }
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
LOCK="${SNOOKER_LOCK:-/tmp/heavy.lock}"
lock "$LOCK" nice -n 10 "$PY" train/make_pool_crops.py --cameras "${CAMERAS:-130}" --frames 8 \
    --seed 0 --world "${WORLD:-plain}" --out data/pool_crops.npz
lock "$LOCK" nice -n 10 "$PY" train/make_pool_crops.py --cameras 24 --frames 8 --seed 1 \
    --world "${WORLD:-plain}" --out data/pool_crops_heldout.npz
lock "$LOCK" nice -n 10 "$PY" train/train_pool_classifier.py --epochs "${EPOCHS:-8}"
lock "$LOCK" nice -n 10 "$PY" train/train_pool_yolo.py --epochs "${YOLO_EPOCHS:-8}"
"$PY" bench/pool_classifier.py --also data/pool_classifier_yolo.onnx
