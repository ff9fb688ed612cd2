#!/usr/bin/env bash
# Build the documentation site into ./site and check it.
#
#   bash scripts/docs.sh               install the docs tools into ./.venv, then:
#                                      1. mkdocs build --strict (every code block of the pages runs, and
#                                         the examples page executes every notebook in examples/; a
#                                         warning, a broken link or an exception fails the build)
#                                      2. check the built site: internal links and anchors, then every
#                                         page opened in headless Chromium (renders, images load, no
#                                         error text, no console error)
#   bash scripts/docs.sh --no-browser  skip step 2's browser part (not allowed when CI is set)
#   bash scripts/docs.sh --serve       build, then serve the site on http://127.0.0.1:8000
#
# Chromium comes from the distribution's packages: if it is missing, it is installed with apt-get
# when running as root, and otherwise the browser check is skipped with a message -- or fails, in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
browser=1
serve=0
for a in "$@"; do
    case "$a" in
        --no-browser) browser=0 ;;
        --serve) serve=1 ;;
        *) echo "scripts/docs.sh: unknown argument $a (use --no-browser or --serve)" >&2; exit 2 ;;
    esac
done
if [ "${CI:-}" = "true" ] && [ "$browser" = 0 ]; then
    echo "scripts/docs.sh: --no-browser is not allowed in CI" >&2; exit 2
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
# (Re)install only when pyproject.toml changed since the last docs install into this .venv.
stamp=.venv/.baccara-install-docs
want=$( (sha256sum pyproject.toml 2>/dev/null || shasum -a 256 pyproject.toml) | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    .venv/bin/python -m pip install --quiet -e ".[docs]"
    echo "$want" > "$stamp"
fi

# the pages' shell blocks run `baccara` as a user would
export NO_MKDOCS_2_WARNING=1 MPLBACKEND=Agg PATH="$PWD/.venv/bin:$PATH"
echo "== mkdocs build --strict"
.venv/bin/mkdocs build --strict
if [ "$serve" = 1 ]; then
    exec .venv/bin/python -m http.server --directory site --bind 127.0.0.1 8000
fi

echo "== the built site"
if [ "$browser" = 1 ] && ! command -v chromium >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "scripts/docs.sh: installing chromium and chromium-driver from the distribution's packages"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
    elif [ "${CI:-}" = "true" ]; then
        echo "scripts/docs.sh: chromium is missing and cannot be installed (not root, or no apt-get)" >&2
        exit 1
    else
        echo "!!! scripts/docs.sh: chromium is missing and cannot be installed here (not root, or no apt-get):"
        echo "!!! the pages are NOT checked in a browser.  Install chromium and chromium-driver to check them."
        browser=0
    fi
fi
if [ "$browser" = 1 ]; then
    .venv/bin/python scripts/check_site.py site
else
    .venv/bin/python scripts/check_site.py --no-browser site
fi
echo "scripts/docs.sh: the site is in ./site (open site/index.html)"
