#!/usr/bin/env bash
# The learned ball classifier from nothing, in one command (about 25-35 min on the 2-core
# machine: data ~12 min on one core, training ~15 min on one thread):
#
#     bash train/train_ball_classifier.sh
#
# Needs the project installed with the synth and train extras (pip install -e '.[synth,train]').
# Both steps run under the shared machine's heavy-work lock (SNOOKER_LOCK, default
# /tmp/snooker-heavy.lock; flock waits for other heavy jobs), niced, training on one torch
# thread, so that the other core stays free for everyone else.
# Writes data/ball_crops.npz (not committed), models/ball_classifier.onnx and
# models/ball_classifier.metrics.json. Same arguments, same data; training is seeded too.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
lock() { if command -v flock >/dev/null; then flock "$1" "${@:2}"; else "${@:2}"; fi; }
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" OMP_NUM_THREADS=1 MKL_NUM_THREADS=1
LOCK="${SNOOKER_LOCK:-/tmp/snooker-heavy.lock}"
lock "$LOCK" nice -n 5 "$PY" train/make_ball_crops.py --cameras "${CAMERAS:-200}" --frames "${FRAMES:-12}" \
    --seed 0 --out data/ball_crops.npz
lock "$LOCK" nice -n 10 "$PY" train/train_ball_classifier.py --data data/ball_crops.npz \
    --out models/ball_classifier.onnx --metrics models/ball_classifier.metrics.json \
    --epochs "${EPOCHS:-12}" --width "${WIDTH:-16}"
