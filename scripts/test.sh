#!/usr/bin/env bash
# Set up baccara and its test tools in ./.venv and run the test suite.
#
#   bash scripts/test.sh            the fast suite: every test not marked slow (from a fresh clone on 2 cores:
#                                   4 minutes with the install and the kernels' compilation; the tests
#                                   themselves 3.3 minutes, about 1,870 of them; 7 CPU-minutes in all)
#   bash scripts/test.sh --slow     the tests marked slow (the long paper reproductions), not those marked proof
#   bash scripts/test.sh --proofs   the tests marked proof: re-deriving a stored proof from scratch (tens of minutes)
#   bash scripts/test.sh --all      everything
#
# Other arguments go to pytest after the selection (e.g. `-k banque`, a test file, or `-m ...`, which overrides).
# CI (.ci/run) runs the fast suite, then the slow job.  "No test selected" (pytest status 5) is a success.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
# (Re)install only when pyproject.toml changed since the last install into this .venv.
stamp=.venv/.baccara-install-test
want=$( (sha256sum pyproject.toml 2>/dev/null || shasum -a 256 pyproject.toml) | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    .venv/bin/python -m pip install --quiet -e ".[test,web,gpu]"   # gpu: numba-cuda, its CUDA simulator runs the GPU tests
    echo "$want" > "$stamp"
fi
select=(-m "not slow")
args=()
for a in "$@"; do
    case "$a" in
        --slow) select=(-m "slow and not proof"); export BACCARA_HYPOTHESIS_PROFILE=${BACCARA_HYPOTHESIS_PROFILE:-thorough} ;;
        --proofs) select=(-m proof) ;;
        --all)  select=(-m "") ;;
        *)      args+=("$a") ;;
    esac
done
# On a fresh clone, compile the Numba kernels once, in one process, before the workers start (each
# worker would compile them again); with the kernels' cache present this step is skipped.
if ! compgen -G "src/baccara/punto/__pycache__/*.nbi" >/dev/null; then
    echo "scripts/test.sh: compiling the kernels once (about a minute, first run only)"
    .venv/bin/python scripts/warm_kernels.py
fi
# one worker per core; a test module's fixtures (the theta sweeps) stay in one worker
status=0
.venv/bin/python -m pytest -n auto --dist loadfile "${select[@]}" ${args[@]+"${args[@]}"} || status=$?
if [ "$status" -eq 5 ]; then
    echo "scripts/test.sh: no test selected (pytest status 5): nothing to run, not a failure"
    status=0
fi
exit "$status"
