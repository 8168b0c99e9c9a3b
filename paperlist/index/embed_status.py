"""How far embedding has come: the record the embedding job writes and the servers read.

``<home>/vectors/JOB.json`` is rewritten whole (atomically) by a running ``paperlist embed``
every few seconds: its state, how many papers have vectors, its rate and when it expects to end.
Readers (``/healthz``, the site's status line) combine it with the live generation, which says
what search can use *now*. A job that died without saying so is recognised by its process being
gone or its record going stale, and is reported as stopped: the cache keeps what it finished.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Literal, TypedDict

import orjson

from ..files import write_atomic
from .generations import current_stamp
from .vectors import INFO_FILE, current_generation, vectors_root

STATUS_FILE = "JOB.json"
STALE_S = 120.0             # a running job rewrites its record far more often than this

JobState = Literal["starting", "embedding", "publishing", "topics", "done", "stopped", "failed"]
RUNNING: frozenset[str] = frozenset({"starting", "embedding", "publishing", "topics"})


class JobRecord(TypedDict, total=False):
    state: JobState
    pid: int
    model: str
    papers: int             # papers in the store
    covered: int            # of them, with a vector in the cache (embedded before or by this job)
    embedded: int           # embedded by this job so far
    todo: int               # what this job set out to embed
    rate: float             # texts per second, this job
    eta_s: float | None     # seconds left for the embedding (publishing and topics come after)
    started_at: float
    updated_at: float
    message: str


def write(home: Path, record: JobRecord) -> None:
    root = vectors_root(home)
    root.mkdir(parents=True, exist_ok=True)
    data = orjson.dumps({**record, "updated_at": time.time()})
    write_atomic(root / STATUS_FILE, lambda f: f.write(data), durable=False)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:          # someone else's process: it exists
        return True
    return True


def read(home: Path) -> JobRecord | None:
    """The job's last record, its state corrected to "stopped" when it claims to run but its
    process is gone or has not written for ``STALE_S``; None when no job ever ran here."""
    try:
        rec: JobRecord = orjson.loads((vectors_root(home) / STATUS_FILE).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(rec, dict):
        return None
    if rec.get("state") in RUNNING:
        pid = rec.get("pid")
        fresh = time.time() - float(rec.get("updated_at") or 0) < STALE_S
        if not (isinstance(pid, int) and _alive(pid) and fresh):
            rec["state"] = "stopped"
    return rec


class Live(TypedDict):
    generation: str | None
    model: str | None
    count: int              # papers with a vector in the live generation (what search uses)


class LiveInfo:
    """The live generation's name, model and size, re-read only when CURRENT changes (one stat)."""

    def __init__(self, home: Path) -> None:
        self.root = vectors_root(home)
        self._stamp: Any = object()
        self._live: Live = {"generation": None, "model": None, "count": 0}

    def get(self) -> Live:
        stamp = current_stamp(self.root)
        if stamp != self._stamp:
            name = current_generation(self.root)
            live: Live = {"generation": None, "model": None, "count": 0}
            if name is not None:
                try:
                    info = orjson.loads((self.root / name / INFO_FILE).read_bytes())
                    live = {"generation": name, "model": info.get("model"),
                            "count": int(info.get("count", 0))}
                except (OSError, orjson.JSONDecodeError, TypeError, ValueError):
                    pass
            self._live, self._stamp = live, stamp
        return self._live
