#!/usr/bin/env bash
# Run the test suite in the project's own virtualenv (created on first use).
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null
.venv/bin/python -m pip install --quiet -e '.[test]' >/dev/null
exec .venv/bin/python -m pytest "$@"
