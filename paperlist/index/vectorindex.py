"""Reading published vector generations (see vectors.py for the layout and how they are made):
the live generation of a home, reopened when ``paperlist embed`` publishes anew, and the exact
and approximate nearest-neighbour searches over it."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import orjson

from .generations import current_stamp
from .vectors import available, current_generation, vectors_root


@dataclass(frozen=True, slots=True)
class Generation:
    """One published generation, loaded. Replaced whole when a newer one is published: a search
    that took one keeps its ids, rows and graph even while the switch happens."""

    name: str
    info: dict[str, Any]
    ids: list[str]
    row: dict[str, int]
    mat: Any                    # (N, 384) float16, memory-mapped
    venue_codes: Any
    years: Any
    ann: Any                    # usearch HNSW view, or None

    @classmethod
    def load(cls, path: Path) -> Generation:
        import numpy as np

        ids = orjson.loads((path / "ids.json").read_bytes())
        ann = None
        if (path / "ann.usearch").exists():
            from usearch.index import Index
            ann = Index.restore(str(path / "ann.usearch"), view=True)
        return cls(path.name, orjson.loads((path / "info.json").read_bytes()), ids,
                   {pid: i for i, pid in enumerate(ids)}, np.load(path / "vectors.npy", mmap_mode="r"),
                   np.load(path / "venues.npy"), np.load(path / "years.npy"), ann)

    def __len__(self) -> int:
        return len(self.ids)

    def vector(self, pid: str) -> Any | None:
        import numpy as np

        i = self.row.get(pid)
        return None if i is None else np.asarray(self.mat[i], dtype=np.float32)

    def scores(self, qvec: Any, ids: list[str]) -> dict[str, float]:
        """Cosine similarity of the query to each listed paper that has a vector."""
        import numpy as np

        rows = [(pid, self.row[pid]) for pid in ids if pid in self.row]
        if not rows:
            return {}
        sub = np.asarray(self.mat[np.array([r for _, r in rows])], dtype=np.float32)
        sims = sub @ np.asarray(qvec, dtype=np.float32)
        return {pid: float(s) for (pid, _), s in zip(rows, sims, strict=True)}

    def scope(self, venues: list[str] | None = None, year_from: int | None = None,
              year_to: int | None = None) -> Any | None:
        """Row numbers of papers in these venues and years (None: no restriction given)."""
        import numpy as np

        if not venues and year_from is None and year_to is None:
            return None
        mask = np.ones(len(self.ids), dtype=bool)
        if venues:
            names = self.info.get("venues", [])
            codes = [names.index(v) for v in venues if v in names]
            mask &= np.isin(self.venue_codes, np.array(codes, dtype=np.int16))
        if year_from is not None:
            mask &= self.years >= year_from
        if year_to is not None:
            mask &= self.years <= year_to
        return np.flatnonzero(mask)

    def search(self, qvec: Any, k: int = 100, rows: Any | None = None,
               exclude: Iterable[str] = ()) -> list[tuple[str, float]]:
        """The ``k`` papers nearest to ``qvec`` (cosine, best first), within ``rows`` if given."""
        import numpy as np

        q = np.asarray(qvec, dtype=np.float32)
        skip = set(exclude)
        want = k + len(skip)
        if rows is None and self.ann is not None:
            # graph candidates, then exact float16 scores: int8 distances are approximate
            m = self.ann.search(q, min(len(self.ids), max(want + 32, 64)))
            cand = np.sort(np.asarray(m.keys, dtype=np.int64))
            if len(cand) == 0:
                return []
            sims = _dot(self.mat, cand, q)
            top = np.argsort(-sims)[:want]
            out = [(self.ids[int(cand[i])], float(sims[i])) for i in top]
        else:
            out = self._exact(q, want, rows)
        return [(pid, s) for pid, s in out if pid not in skip][:k]

    def _exact(self, q: Any, k: int, rows: Any | None) -> list[tuple[str, float]]:
        """Exact cosine search over all rows or ``rows``, with usearch's SIMD float16 kernels
        (numpy converts float16 to float32 first: 40x slower)."""
        import numpy as np
        from usearch.index import MetricKind
        from usearch.index import search as exact_search

        data = self.mat if rows is None else self.mat[np.asarray(rows, dtype=np.int64)]
        if len(data) == 0:
            return []
        m = exact_search(np.asarray(data), q.astype(np.float16), min(k, len(data)),
                         MetricKind.Cos, exact=True)
        keys = np.asarray(m.keys, dtype=np.int64)
        if rows is not None:
            keys = np.asarray(rows, dtype=np.int64)[keys]
        return [(self.ids[int(r)], 1.0 - float(d))
                for r, d in zip(keys, np.asarray(m.distances), strict=True)]

    def neighbours(self, pid: str, k: int = 10) -> list[tuple[str, float]]:
        """Papers most similar to paper ``pid`` ([] when it has no vector)."""
        v = self.vector(pid)
        return [] if v is None else self.search(v, k, exclude=[pid])


class VectorIndex:
    """The live vector generation of a home, reopened when ``paperlist embed`` publishes anew.

    ``current()`` is the live ``Generation`` (checked with one ``stat``); a caller that makes
    several calls for one answer (a scope, then a search in it) takes it once. The methods and
    attributes here are shortcuts to the live generation's."""

    def __init__(self, home: Path) -> None:
        self.root = vectors_root(home)
        self._lock = threading.Lock()
        self._stamp: tuple[int, int] | None = None
        self._g: Generation | None = None
        self.reload()

    @classmethod
    def open(cls, home: Path) -> VectorIndex | None:
        """The vectors of ``home``, or None (none published, or numpy/usearch not installed)."""
        if available() is not None or current_generation(vectors_root(home)) is None:
            return None
        vi = cls(home)
        return vi if vi._g is not None else None

    def current(self) -> Generation:
        """The live generation (reopened first if ``paperlist embed`` published a newer one)."""
        self.reload()
        g = self._g
        if g is None:
            raise RuntimeError(f"no vectors published in {self.root}")
        return g

    def reload(self) -> bool:
        stamp = current_stamp(self.root)
        if stamp == self._stamp:
            return False
        with self._lock:
            name = current_generation(self.root)
            if name is None or (self._g is not None and name == self._g.name):
                self._stamp = stamp
                return False
            self._g = Generation.load(self.root / name)
            self._stamp = stamp
            return True

    @property
    def generation(self) -> str | None:
        return self._g.name if self._g else None

    @property
    def info(self) -> dict[str, Any]:
        return self.current().info

    @property
    def ids(self) -> list[str]:
        return self.current().ids

    @property
    def row(self) -> dict[str, int]:
        return self.current().row

    @property
    def mat(self) -> Any:
        return self.current().mat

    @property
    def ann(self) -> Any:
        return self.current().ann

    @ann.setter
    def ann(self, value: Any) -> None:
        """(Benchmarks: search with or without the graph.)"""
        g = self.current()
        with self._lock:
            self._g = replace(g, ann=value)

    def __len__(self) -> int:
        return len(self.current())

    def has(self, pid: str) -> bool:
        return pid in self.current().row

    def vector(self, pid: str) -> Any | None:
        return self.current().vector(pid)

    def scores(self, qvec: Any, ids: list[str]) -> dict[str, float]:
        return self.current().scores(qvec, ids)

    def scope(self, venues: list[str] | None = None, year_from: int | None = None,
              year_to: int | None = None) -> Any | None:
        return self.current().scope(venues, year_from, year_to)

    def search(self, qvec: Any, k: int = 100, rows: Any | None = None,
               exclude: Iterable[str] = ()) -> list[tuple[str, float]]:
        return self.current().search(qvec, k, rows, exclude)

    def neighbours(self, pid: str, k: int = 10) -> list[tuple[str, float]]:
        return self.current().neighbours(pid, k)


def _dot(mat: Any, rows: Any, q: Any) -> Any:
    """Cosine scores of ``rows`` of the float16 matrix against ``q``, in blocks (converting the
    whole matrix to float32 at once would allocate 400 MB)."""
    import numpy as np

    out = np.empty(len(rows), dtype=np.float32)
    step = 32768
    contiguous = len(rows) == len(mat) and (len(rows) == 0 or (rows[0] == 0 and rows[-1] == len(mat) - 1))
    for i in range(0, len(rows), step):
        block = mat[i:i + step] if contiguous else mat[rows[i:i + step]]
        out[i:i + step] = np.asarray(block, dtype=np.float32) @ q
    return out
