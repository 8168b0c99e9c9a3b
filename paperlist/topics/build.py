"""``paperlist topics assign``: assign topics to every paper and store them.

Derived data, like the search index: it is recomputed whole from the papers (and the vectors, when
``paperlist embed`` published some), and skipped when nothing it depends on changed. The search
index reads the stored topics, so ingest assigns topics before it rebuilds the index.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..store import Store
from ..taxonomy import taxonomy
from . import source_labels
from .assign import assign_store, assignment_rows
from .evidence import Assigner, packaged_weights
from .stats import all_details
from .textprobe import CACHE_FILE


@dataclass(slots=True)
class AssignReport:
    papers: int = 0
    with_topics: int = 0
    rows: int = 0
    vectors: int = 0                 # papers whose vector joined the evidence
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    skipped: bool = False            # already current
    main: dict[str, int] = field(default_factory=dict)   # papers per main topic

    def to_dict(self) -> dict[str, Any]:
        return {"papers": self.papers, "with_topics": self.with_topics, "rows": self.rows,
                "vectors": self.vectors, "seconds": round(self.seconds, 2),
                "cpu_seconds": round(self.cpu_seconds, 2), "skipped": self.skipped, "main": self.main}


def _vectors(home: Path) -> Any | None:
    from ..index.vectorindex import VectorIndex
    from ..index.vectors import is_partial

    try:
        vi = VectorIndex.open(home)
        g = vi.current() if vi is not None else None        # one generation for the whole assignment
        return None if g is None or is_partial(g.info) else g
    except Exception:  # noqa: BLE001 - unreadable vectors: assign from words alone
        return None


def fingerprint(store: Store, home: Path, papers_fp: str | None = None) -> str:
    """What the assignment depends on: the taxonomy and the method (``ASSIGNER_VERSION``), the
    learned term weights, the label tables the probes learn from, the papers and the vector
    generation."""
    from ..index.vectors import evidence_generation, vectors_root

    fp = papers_fp if papers_fp is not None else store.papers_fingerprint()
    weights = hashlib.sha1(packaged_weights().encode()).hexdigest()[:12]
    gen = evidence_generation(vectors_root(home))
    return f"{taxonomy().version}:{weights}:{source_labels.version()}:{fp}:{gen or '-'}"


def is_current(store: Store, home: Path) -> bool:
    return store.topics_fingerprint() == fingerprint(store, home)


def assign_topics(store: Store, home: Path, force: bool = True, use_vectors: bool = True) -> AssignReport:
    """Assign and store topics for every paper (unless current and not ``force``)."""
    t0, c0 = time.perf_counter(), time.process_time()
    rep = AssignReport()
    fp = fingerprint(store, home)
    if not force and store.topics_fingerprint() == fp:
        rep.skipped = True
        rep.seconds = time.perf_counter() - t0
        return rep
    vectors = _vectors(home) if use_vectors else None
    rep.vectors = len(vectors) if vectors is not None else 0
    assignments = list(assign_store(store, vectors=vectors, assigner=Assigner(), cache=home / CACHE_FILE))
    rep.papers = len(assignments)
    for a in assignments:
        if a.topics:
            rep.with_topics += 1
            rep.main[a.topics[0][0]] = rep.main.get(a.topics[0][0], 0) + 1
    rep.main = dict(sorted(rep.main.items(), key=lambda kv: -kv[1]))
    rep.rows = store.replace_topics(assignment_rows(assignments), fp)
    # what each topic's page counts, once per assignment rather than on a page's first visit
    store.replace_topic_stats(all_details(store), fp)
    rep.seconds = time.perf_counter() - t0
    rep.cpu_seconds = time.process_time() - c0
    return rep
