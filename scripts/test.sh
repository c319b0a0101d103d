#!/usr/bin/env bash
# Installs the project with its test extra into .venv and runs ruff and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test]'
.venv/bin/ruff check .
set +e
.venv/bin/python -m pytest "$@"
rc=$?
set -e
# pytest exits 5 when it collected no test: that is a failure of the suite here, not a pass.
exit $rc
