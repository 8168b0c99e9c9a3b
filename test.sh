#!/usr/bin/env bash
# Run the test suite in the project's own virtualenv (created on first use).
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null
# the semantic extra too (CPU torch first: the pinned wheel), so the embedding and search-by-meaning
# tests run on their small fixtures; PAPERLIST_REQUIRE_SEMANTIC makes them fail, not skip, without it
.venv/bin/python -m pip install --quiet torch==2.13.0 >/dev/null
.venv/bin/python -m pip install --quiet -e '.[test,semantic]' >/dev/null
export PAPERLIST_REQUIRE_SEMANTIC=${PAPERLIST_REQUIRE_SEMANTIC:-1}
exec .venv/bin/python -m pytest "$@"
