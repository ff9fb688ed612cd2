#!/usr/bin/env bash
# Set up baccara and its test tools in ./.venv and run the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install --quiet -e ".[test]"
# one worker per core; a test module's fixtures (the theta sweeps) stay in one worker
exec .venv/bin/python -m pytest -n auto --dist loadfile "$@"
