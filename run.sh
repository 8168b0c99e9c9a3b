#!/usr/bin/env bash
# One command on a fresh machine: set up, ingest the real corpus, and serve the site.
#   ./run.sh            -> venv + install + corpus (../shared/data if present, else downloads)
#                          + search index + the site on http://127.0.0.1:8000 (Ctrl-C stops it)
#                          + the papers' vectors, computed in the background while the site serves
#                            (search by meaning and similar papers appear as they are published)
# Re-running it is cheap: installs and ingests only what changed, and the vectors continue where
# they stopped.
# PAPERLIST_HOST / PAPERLIST_PORT / PAPERLIST_WORKERS change where and how the site listens;
# PAPERLIST_EMBED=0 serves without computing vectors.
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
# set-up is silent unless it fails; then its whole log is shown
quietly() {
  local log
  log=$(mktemp)
  if ! "$@" >"$log" 2>&1; then
    echo "run.sh: '$*' failed:" >&2
    cat "$log" >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
}
if [ ! -x .venv/bin/python ]; then
  quietly "$PY" -m venv .venv
fi
quietly .venv/bin/python -m pip install --upgrade pip
# Search by meaning: CPU torch first (the pinned wheel; other versions pull gigabytes of CUDA), then
# the package with its semantic extra. Without them the site still serves keyword search.
semantic=1
if ! .venv/bin/python -m pip install --quiet torch==2.13.0 >/dev/null 2>&1 \
   || ! .venv/bin/python -m pip install --quiet -e '.[semantic]' >/dev/null 2>&1; then
  echo "run.sh: could not install the semantic extra; serving keyword search only" >&2
  semantic=0
fi
quietly .venv/bin/python -m pip install -e .
export PAPERLIST_HOME=${PAPERLIST_HOME:-$PWD/data}
.venv/bin/paperlist corpus
.venv/bin/paperlist stats
embed=--no-embed
[ "$semantic" = 1 ] && [ "${PAPERLIST_EMBED:-1}" != 0 ] && embed=--embed
exec .venv/bin/paperlist serve --host "${PAPERLIST_HOST:-127.0.0.1}" --port "${PAPERLIST_PORT:-8000}" \
  --workers "${PAPERLIST_WORKERS:-2}" "$embed"
