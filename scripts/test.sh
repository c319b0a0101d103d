#!/usr/bin/env bash
# Installs the project with its test and synth extras (pooltool too) into .venv, then runs ruff,
# the test suite and the accuracy regression check against bench/reference-metrics.json.
# This is the README's test command and what .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test,synth]'
.venv/bin/python -m pip install -q --no-deps pooltool-billiards==0.6.0
.venv/bin/ruff check .
export POOLTOOL_HOME="${POOLTOOL_HOME:-$PWD/.pooltool-home}"
.venv/bin/python -m pytest "$@"
.venv/bin/snooker-tracker eval --fast --metrics out/metrics.json > out-eval.log || { cat out-eval.log; exit 1; }
tail -n 1 out-eval.log
