"""What an index generation was built from, paper by paper: a hash of each paper's document and
its three sort values. The next build compares against it and, when few papers changed, copies
the generation and rewrites only their documents (``writer``).

Sort values are spaced (``GAP`` apart in a full build), not dense ranks: a paper that arrives
between two others takes a value between theirs, so the papers that did not change keep theirs
and their documents stay as they are. When no value is free between two neighbours (after about
24 arrivals at one spot), the build is a full one and spaces them again.

Both files are the builder's alone: ``BUILD_FILES`` are left out of published snapshots.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import orjson

from ..files import write_atomic

GAP = 1 << 24
IDS_FILE = "build-docstate.ids"
VALUES_FILE = "build-docstate.npy"
BUILD_FILES = (IDS_FILE, VALUES_FILE)
SORTS = ("browse", "title", "rating")


@dataclass(slots=True)
class DocState:
    ids: list[str]
    values: np.ndarray          # (N, 4) int64: document hash, browse, title and rating values

    def row(self) -> dict[str, int]:
        return {pid: i for i, pid in enumerate(self.ids)}


def doc_hash(parts: object) -> int:
    """A document's content as a signed 64-bit hash (``parts``: what ``fulltext._document`` reads,
    JSON-able; orjson serializes the store's dataclasses)."""
    return int.from_bytes(hashlib.blake2b(orjson.dumps(parts), digest_size=8).digest(), "little", signed=True)


def save(path: Path, state: DocState) -> None:
    ids = "\n".join(state.ids).encode()
    write_atomic(path / IDS_FILE, lambda f: f.write(ids), durable=False)
    write_atomic(path / VALUES_FILE, lambda f: np.save(f, state.values), durable=False)


def load(path: Path) -> DocState | None:
    """A generation's state, or None when it has none (built before it existed) or it is damaged."""
    try:
        ids = (path / IDS_FILE).read_text("utf-8").split("\n")
        values = np.load(path / VALUES_FILE, allow_pickle=False)
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if values.ndim != 2 or values.shape != (len(ids), 4) or values.dtype != np.int64:
        return None
    return DocState(ids, values)


def spaced(order: Sequence[int]) -> np.ndarray:
    """Values for papers in sorted ``order`` (indexes), GAP apart: the value of each index."""
    out = np.zeros(len(order), dtype=np.int64)
    out[np.asarray(order, dtype=np.int64)] = (np.arange(len(order), dtype=np.int64) + 1) * GAP
    return out


def fill(order: Sequence[int], kept: dict[int, int]) -> dict[int, int] | None:
    """Values for the papers in sorted ``order`` (indexes) that ``kept`` (index -> value) lacks,
    between their kept neighbours'; None when the kept values are not increasing in this order or
    no value is free between two neighbours (then the build spaces them all again)."""
    out: dict[int, int] = {}
    pending: list[int] = []
    low = 0
    for i in order:
        v = kept.get(i)
        if v is None:
            pending.append(i)
            continue
        if v <= low or not _place(pending, low, v, out):
            return None
        pending, low = [], v
    if pending and not _place(pending, low, low + (len(pending) + 1) * GAP, out):
        return None
    return out


def _place(pending: list[int], low: int, high: int, out: dict[int, int]) -> bool:
    if not pending:
        return True
    step = (high - low) // (len(pending) + 1)
    if step < 1:
        return False
    for k, i in enumerate(pending, 1):
        out[i] = low + k * step
    return True
