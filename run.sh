#!/usr/bin/env bash
# One command on a fresh machine: set up, ingest the real corpus, and run paperlist.
#   ./run.sh            -> venv + install + corpus (../shared/data if present, else downloads)
# Re-running it is cheap: installs and ingests only what changed.
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null
.venv/bin/python -m pip install --quiet -e . >/dev/null
export PAPERLIST_HOME=${PAPERLIST_HOME:-$PWD/data}
.venv/bin/paperlist corpus
.venv/bin/paperlist stats
