#!/usr/bin/env bash
# Installs the project with its test, synth, live and ray extras (pooltool too) into .venv, then runs ruff,
# the test suite and the accuracy regression check against bench/reference-metrics.json.
# This is the README's test command and what .ci/run calls.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test,synth,live,ray]'
.venv/bin/python -m pip install -q --no-deps pooltool-billiards==0.6.0
.venv/bin/ruff check .
# Debian's chromium for the browser test (tests/test_browser.py skips, saying why, without it).
# Playwright drives it; its own browser download (`playwright install`) is never used.
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1 \
        || echo "chromium could not be installed: the browser test will be skipped"
fi
export POOLTOOL_HOME="${POOLTOOL_HOME:-$PWD/.pooltool-home}"
.venv/bin/python -m pytest "$@"
.venv/bin/snooker-tracker eval --fast --metrics out/metrics.json > out-eval.log || { cat out-eval.log; exit 1; }
tail -n 1 out-eval.log
