"""Paper vectors: a content-hash cache that ``paperlist embed`` appends to, and published
generations that searches read.

Layout under ``<home>/vectors/``::

    cache/<model>-t<tokens>/c<seq>-<rand>.npz   embedded texts: 12-byte content hashes + float16 rows;
                                                each chunk is written whole (tmp file, fsync, rename),
                                                so an interrupted job loses at most the batch in flight
    CURRENT                                     the live generation's name (replaced atomically)
    g<stamp>-<rand>/info.json                   model, token budget, count, built_at
    g<stamp>-<rand>/ids.json                    paper ids; row i of the matrix is ids[i]
    g<stamp>-<rand>/vectors.npy                 (N, 384) float16, unit rows (memory-mapped by readers)
    g<stamp>-<rand>/venues.npy, years.npy       per-row venue code and year: exact filtered search
    g<stamp>-<rand>/ann.usearch                 HNSW graph over int8-quantized rows (usearch)

The cache is keyed by a hash of (model, token budget, text), so papers whose title and abstract did
not change are never embedded again, and a re-merge that renames a paper reuses its vector.
Publishing maps the store's current papers onto the cache; like the full-text index, readers see
the old or the new generation, never a mixture.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from ..files import write_atomic
from . import generations
from .encoder import DIM, MODEL_NAME

HASH_BYTES = 12
ANN_MIN_ROWS = 20_000        # below this, exact search is as fast as the graph: do not build one
ANN_FILE = "ann.usearch"
# Files a follower makes itself from a published generation's others (snapshots/follow.py): the
# graph is built anew on every publish and differs throughout, so shipping it would cost a
# follower ~100 MB (compressed) of every small update; it is built from vectors.npy instead.
LOCAL_FILES = frozenset({ANN_FILE})


def vectors_root(home: Path) -> Path:
    return Path(home) / "vectors"


def available() -> str | None:
    """Why stored vectors cannot be read here (numpy / usearch missing), or None."""
    import importlib.util

    for mod in ("numpy", "usearch"):
        if importlib.util.find_spec(mod) is None:
            return f"{mod} is not installed (pip install 'paperlist[semantic]')"
    return None


def embed_text(title: str, abstract: str | None) -> str:
    """What is embedded for a paper: its title, then its abstract (the encoder truncates)."""
    title = " ".join((title or "").split())
    abstract = " ".join((abstract or "").split())
    return f"{title}. {abstract}" if abstract else title


def content_hash(text: str, max_tokens: int) -> bytes:
    return hashlib.blake2b(f"{MODEL_NAME}\x1f{max_tokens}\x1f{text}".encode(),
                           digest_size=HASH_BYTES).digest()


# --- the cache ----------------------------------------------------------------------------------
class VectorCache:
    """Append-only chunks of (content hash -> float16 vector) for one model and token budget."""

    def __init__(self, home: Path, max_tokens: int) -> None:
        self.dir = vectors_root(home) / "cache" / f"{MODEL_NAME}-t{max_tokens}"
        self.max_tokens = max_tokens

    def chunks(self) -> list[Path]:
        return sorted(self.dir.glob("c*.npz")) if self.dir.exists() else []

    def load(self) -> dict[bytes, Any]:
        """Every cached vector by content hash (a later chunk wins; they agree anyway)."""
        import numpy as np

        out: dict[bytes, Any] = {}
        for path in self.chunks():
            with np.load(path) as z:
                hashes, vecs = z["h"], z["v"]
            for i in range(len(hashes)):
                out[hashes[i].tobytes()] = vecs[i]
        return out

    def append(self, hashes: list[bytes], vectors: Any) -> Path:
        """Write one chunk atomically: it is there whole or not at all."""
        import numpy as np

        self.dir.mkdir(parents=True, exist_ok=True)
        seq = len(self.chunks()) + 1
        path = self.dir / f"c{seq:07d}-{secrets.token_hex(3)}.npz"
        h = np.frombuffer(b"".join(hashes), dtype=np.uint8).reshape(len(hashes), HASH_BYTES)
        write_atomic(path, lambda f: np.savez(f, h=h, v=np.asarray(vectors, dtype=np.float16)))
        return path

    def compact(self, keep: set[bytes]) -> int:
        """Rewrite the cache as one chunk holding only ``keep`` (run after a complete job, so the
        cache does not grow with every changed abstract). Returns the rows kept."""
        import numpy as np

        old = self.chunks()
        if len(old) <= 1:
            return 0
        cached = self.load()
        hashes = [h for h in cached if h in keep]
        if hashes:
            self.append(hashes, np.stack([cached[h] for h in hashes]))
        for p in old:
            p.unlink(missing_ok=True)
        for p in self.dir.glob(".*.tmp"):       # left by a crash inside write_atomic
            p.unlink(missing_ok=True)
        return len(hashes)


# --- generations ----------------------------------------------------------------------------
INFO_FILE = "info.json"


def current_generation(root: Path) -> str | None:
    """The live vector generation's name under ``root``, or None when none was published yet."""
    return generations.current_generation(root, INFO_FILE)


def is_partial(info: dict[str, Any]) -> bool:
    """Whether a generation (its info.json) is a step of a job still embedding (``publish``)."""
    return bool(info.get("partial"))


def evidence_generation(root: Path) -> str | None:
    """The live generation when it is a complete one (not a step of a job still embedding): what
    topics take as evidence. A step would make topics and the index be rebuilt at every restart
    of the job, from vectors of the newest papers only."""
    name = current_generation(root)
    if name is None:
        return None
    try:
        info = orjson.loads((root / name / INFO_FILE).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    return None if not isinstance(info, dict) or is_partial(info) else name


@dataclass(slots=True)
class PublishReport:
    generation: str
    vectors: int
    papers: int
    seconds: float

    def to_dict(self) -> dict[str, object]:
        return {"generation": self.generation, "vectors": self.vectors, "papers": self.papers,
                "seconds": round(self.seconds, 2)}


def publish(home: Path, rows: Iterable[tuple[str, str, int, bytes]], cache: dict[bytes, Any],
            max_tokens: int, threads: int = 2, partial: bool = False) -> tuple[str, int]:
    """Write a generation from (paper id, venue, year, content hash) rows whose hash is cached, and
    switch CURRENT to it. Returns (generation, rows written). When the live generation already
    holds exactly these rows, nothing is written and it is returned (topics and the index, which
    depend on the generation, then stay current). ``partial`` marks a step of a job still
    embedding: searches use it, topics wait for the complete one (``evidence_generation``)."""
    import numpy as np

    root = vectors_root(home)
    root.mkdir(parents=True, exist_ok=True)
    ids, venues, years, vecs, content = _cached_rows(rows, cache, max_tokens)
    live = current_generation(root)
    if live is not None and _content(root / live) == content:
        return live, len(ids)
    gen, path, stamp = generations.new(root)
    try:
        mat = np.stack(vecs).astype(np.float16) if vecs else np.zeros((0, DIM), dtype=np.float16)
        np.save(path / "vectors.npy", mat)
        names = sorted(set(venues))
        code = {v: i for i, v in enumerate(names)}
        np.save(path / "venues.npy", np.array([code[v] for v in venues], dtype=np.int16))
        np.save(path / "years.npy", np.array(years, dtype=np.int16))
        (path / "ids.json").write_bytes(orjson.dumps(ids))
        if len(ids) >= ANN_MIN_ROWS:
            _build_ann(path / ANN_FILE, mat, threads)
        (path / INFO_FILE).write_bytes(orjson.dumps({
            "model": MODEL_NAME, "dim": DIM, "max_tokens": max_tokens, "count": len(ids),
            "venues": names, "built_at": stamp, "ann": len(ids) >= ANN_MIN_ROWS, "content": content,
            "partial": partial}))
    except BaseException:
        generations.discard(path)
        raise
    generations.publish(root, gen, INFO_FILE)       # keeps the previous generation (readers move over)
    return gen, len(ids)


def _cached_rows(rows: Iterable[tuple[str, str, int, bytes]], cache: dict[bytes, Any], max_tokens: int
                 ) -> tuple[list[str], list[str], list[int], list[Any], str]:
    """The ids, venues, years and vectors of the rows whose hash is cached, and a digest of what a
    generation of them holds (the model, the token budget, every row)."""
    ids: list[str] = []
    venues: list[str] = []
    years: list[int] = []
    vecs: list[Any] = []
    digest = hashlib.sha1(f"{MODEL_NAME}:{max_tokens}".encode())
    for pid, venue, year, h in rows:
        v = cache.get(h)
        if v is not None:
            ids.append(pid)
            venues.append(venue)
            years.append(year)
            vecs.append(v)
            digest.update(f"{pid}\t{venue}\t{year}\t".encode() + h)
    return ids, venues, years, vecs, digest.hexdigest()


def _content(path: Path) -> object:
    """The content digest a generation's info records (None when it cannot be read)."""
    try:
        return orjson.loads((path / "info.json").read_bytes()).get("content")
    except (OSError, orjson.JSONDecodeError):
        return None


def complete(path: Path, threads: int = 2, like: Path | None = None) -> bool:
    """Make the ``LOCAL_FILES`` a published generation at ``path`` lacks: its ANN graph when its
    info says it has one, hard-linked from ``like`` (the same generation held elsewhere: the same
    vectors, so the same graph serves) or else built from its vectors. True if it built one."""
    import numpy as np

    info = orjson.loads((path / INFO_FILE).read_bytes())
    if not info.get("ann") or (path / ANN_FILE).exists():
        return False
    if like is not None and (like / ANN_FILE).is_file():
        try:
            os.link(like / ANN_FILE, path / ANN_FILE)
            return False
        except OSError:
            pass
    tmp = path / (ANN_FILE + ".tmp")
    _build_ann(tmp, np.load(path / "vectors.npy", mmap_mode="r"), threads)
    with open(tmp, "rb") as f:                  # on disk before a switch can point at it
        os.fsync(f.fileno())
    os.replace(tmp, path / ANN_FILE)
    return True


def _build_ann(path: Path, mat: Any, threads: int) -> None:
    """An HNSW graph with int8 rows: a quarter of float32's memory; recall is measured in
    BENCHMARKS.md and exact float16 scores re-rank what it finds."""
    import numpy as np
    from usearch.index import Index

    index = Index(ndim=mat.shape[1], metric="cos", dtype="i8", connectivity=16, expansion_add=128,
                  expansion_search=128)
    index.add(np.arange(len(mat), dtype=np.uint64), mat.astype(np.float32), threads=threads)
    index.save(str(path))


def iter_rows(items: Iterable[tuple[str, str, int, str, str | None]],
              max_tokens: int) -> Iterator[tuple[str, str, int, bytes, str]]:
    """(id, venue, year, title, abstract) -> (id, venue, year, content hash, text)."""
    for pid, venue, year, title, abstract in items:
        text = embed_text(title, abstract)
        yield pid, venue, year, content_hash(text, max_tokens), text
