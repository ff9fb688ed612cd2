#!/usr/bin/env bash
# Set up baccara in ./.venv and print the exact edge table of an 8-deck shoe.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
# (Re)install only when pyproject.toml changed since the last install into this .venv
# (scripts/test.sh's install, with the test tools, will do as well).
want=$( (sha256sum pyproject.toml 2>/dev/null || shasum -a 256 pyproject.toml) | cut -d' ' -f1)
if [ "$(cat .venv/.baccara-install 2>/dev/null)" != "$want" ] && [ "$(cat .venv/.baccara-install-test 2>/dev/null)" != "$want" ]; then
    .venv/bin/python -m pip install --quiet -e ".[web]"
    echo "$want" > .venv/.baccara-install
fi
exec .venv/bin/baccara edge --decks 8 "$@"
