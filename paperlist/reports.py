"""Report files: what an ingest set aside, one JSON object a line, in ``HOME/reports/``.

``ingest-<UTC time>.jsonl`` lists every skipped record with its reason (``{"kind": "skipped",
"file", "source", "key", "reason"}``), every failed file (``"failed"``, ``"reason"``: the error)
and every file that is not a paper list (``"ignored"``). Only the newest ``KEEP`` reports are
kept. The command's summary names the file.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import orjson

from .ingest import IngestReport

KEEP = 10
FOLDER = "reports"


def ingest_rows(rep: IngestReport) -> Iterator[dict[str, str | None]]:
    for f in rep.files:
        if f.status in ("failed", "ignored"):
            yield {"kind": f.status, "file": f.name, "source": f.source, "key": f.key, "reason": f.error}
        for msg in f.problems:
            yield {"kind": "skipped", "file": f.name, "source": f.source, "key": f.key, "reason": msg}


def write_ingest_report(home: Path, rep: IngestReport, keep: int = KEEP, named: int = 0) -> Path | None:
    """Write the report of an ingest when it skipped records, a file failed, or more files were
    ignored than the summary names (``named``); else None, so that a rerun that only meets the same
    ignored files does not rotate away the report of the run that parsed them. Keep the newest."""
    rows = list(ingest_rows(rep))
    if not any(r["kind"] != "ignored" for r in rows) and len(rows) <= named:
        return None
    folder = home / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    path = folder / f"ingest-{stamp}.jsonl"
    n = 1
    while path.exists():                     # two ingests within one second
        n += 1
        path = folder / f"ingest-{stamp}-{n}.jsonl"
    part = path.with_name(path.name + ".part")
    part.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    part.replace(path)
    rotate(folder, "ingest-", keep)
    return path


def rotate(folder: Path, prefix: str, keep: int) -> None:
    """Delete all but the newest ``keep`` reports named ``prefix*.jsonl`` (names sort by time)."""
    reports = sorted(folder.glob(f"{prefix}*.jsonl"), key=lambda p: (p.stat().st_mtime, p.name))
    for old in reports[:-keep] if keep > 0 else reports:
        old.unlink(missing_ok=True)
