#!/usr/bin/env bash
# Set up baccara in ./.venv and print the exact edge table of an 8-deck shoe.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install --quiet -e .
exec .venv/bin/baccara edge --decks 8 "$@"
