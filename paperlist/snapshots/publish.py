"""The builder's side: write a consistent, immutable snapshot of a home into a published directory.

The store is copied page for page through SQLite's online backup API (a consistent copy while
the site reads and an update may write; a raw file copy could be torn), the live index and vector
generations are hard-linked beside it (they never change once published), and every file is cut
into chunks (``chunks``) written once under their name. The snapshot's manifest is written after
its chunks are on disk, and ``LATEST`` after the manifest: a follower that sees a snapshot finds
all of it. Old snapshots beyond ``keep`` go, with the chunks no kept snapshot uses.

The backup keeps the store's page layout (VACUUM INTO would rewrite it and move every page after
the first change), so a small update changes few pages and few chunks: measured in BENCHMARKS.md.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..files import write_atomic
from ..index import generations
from ..index.docstate import BUILD_FILES
from ..index.fulltext import INFO_FILE as INDEX_INFO
from ..index.fulltext import index_root
from ..index.vectors import INFO_FILE as VECTORS_INFO
from ..index.vectors import LOCAL_FILES, vectors_root
from ..store import STORE_FILE
from . import chunks
from .manifest import (
    LATEST_FILE,
    SNAPSHOTS_DIR,
    STORE_PATH,
    Chunk,
    FileEntry,
    Latest,
    Manifest,
    chunk_path,
    manifest_path,
    pack,
    unpack,
)

STAGING = ".snapshot"           # in the builder's home: the store's copy and links to the generations
LOCK = ".publish.lock"
Say = Callable[[str], None]


class PublishError(Exception):
    """The home cannot be published as it is; the message is one line."""


@dataclass(slots=True)
class PublishReport:
    id: str
    files: int
    size: int                   # plain bytes of the snapshot
    stored: int                 # compressed bytes of all its chunks: a new follower's download
    new_chunks: int
    new_bytes: int              # compressed bytes this publish added: a follower's download from the last
    chunk_count: int
    removed: list[str]          # snapshots deleted beyond ``keep``
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}


def new_id() -> str:
    """A snapshot id: its UTC time to the millisecond (ids sort in publishing order), then random."""
    now = datetime.now(UTC)
    return f"s{now.strftime('%Y%m%dT%H%M%S')}{now.microsecond // 1000:03d}-{secrets.token_hex(3)}"


@contextmanager
def staging(home: Path) -> Iterator[Path]:
    """A clean staging folder in ``home`` (what a publish killed half-way left goes first)."""
    stage = home / STAGING
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    try:
        yield stage
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def stage(home: Path, into: Path, info: dict[str, Any], check: Callable[[Path], None] | None = None,
          say: Say | None = None) -> list[tuple[str, Path]]:
    """Copy the store into ``into`` and link the live generations beside it: the snapshot's files
    as (path in the snapshot, path here). ``check(store_copy)`` may refuse the copy (with
    ``PublishError``); the generations' names go into ``info``. The caller holds the index's build
    lock, so that the copy and the index it is checked against belong together."""
    _say(say, "copying the store (SQLite backup) ...")
    backup(home / STORE_FILE, into / STORE_PATH)
    if check is not None:
        check(into / STORE_PATH)
    files = [(STORE_PATH, into / STORE_PATH)]
    for name, root, info_file in (("index", index_root(home), INDEX_INFO),
                                  ("vectors", vectors_root(home), VECTORS_INFO)):
        gen = generations.current_generation(root, info_file)
        info[name] = gen
        if gen is not None:
            files += _link_generation(root, gen, into / name, name)
    files += [(f"reports/{p.name}", p) for p in sorted((home / "reports").glob("*")) if p.is_file()]
    return files


def write(out: Path, files: list[tuple[str, Path]], info: dict[str, Any], keep: int = 3,
          chunk_bytes: int = chunks.AVG_BYTES, db_block: int = chunks.DB_BLOCK,
          say: Say | None = None) -> PublishReport:
    """Write the snapshot of ``files`` into the published directory ``out``: the chunks it lacks,
    the manifest, then LATEST; then drop what no kept snapshot uses."""
    t0 = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    with generations.build_lock(out, LOCK):
        _say(say, f"cutting {len(files)} files into chunks ...")
        sid = new_id()
        entries, new_chunks, new_bytes = [], 0, 0
        for rel, path in files:
            entry, n, b = _put_file(out, rel, path, chunk_bytes, db_block)
            entries.append(entry)
            new_chunks, new_bytes = new_chunks + n, new_bytes + b
        os.sync()                               # every chunk on disk before a manifest names it
        m = Manifest(id=sid, created=datetime.now(UTC).isoformat(timespec="seconds"), files=tuple(entries),
                     info=info)
        blob = pack(m)
        (out / SNAPSHOTS_DIR).mkdir(exist_ok=True)
        write_atomic(out / manifest_path(sid), lambda f: f.write(blob))
        write_atomic(out / LATEST_FILE, lambda f: f.write(Latest.for_manifest(m, blob).to_bytes()))
        removed = collect(out, keep)
    return PublishReport(id=sid, files=len(entries), size=m.size, stored=m.stored_bytes(),
                         new_chunks=new_chunks, new_bytes=new_bytes, chunk_count=len(m.chunk_names()),
                         removed=removed, seconds=round(time.perf_counter() - t0, 2))


def backup(src: Path, dst: Path) -> None:
    """A consistent copy of the SQLite file ``src`` (read-only; writers may go on), page for page,
    left in rollback-journal mode so that readers need no -wal or -shm file beside it."""
    dst.unlink(missing_ok=True)
    source = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
    target = sqlite3.connect(dst)
    try:
        source.backup(target)
        target.execute("PRAGMA journal_mode=DELETE")
    finally:
        target.close()
        source.close()


def _link_generation(root: Path, gen: str, stage: Path, name: str) -> list[tuple[str, Path]]:
    """The generation's files, hard-linked into the staging folder (a build may delete the
    generation meanwhile; the links keep its files), with a CURRENT that names it."""
    out: list[tuple[str, Path]] = []
    (stage / gen).mkdir(parents=True)
    (stage / generations.CURRENT_FILE).write_text(gen + "\n", "utf-8")
    out.append((f"{name}/{generations.CURRENT_FILE}", stage / generations.CURRENT_FILE))
    for p in sorted((root / gen).rglob("*")):
        if not p.is_file() or p.name in BUILD_FILES or p.name in LOCAL_FILES:   # the builder's; a follower's
            continue
        rel = p.relative_to(root / gen)
        target = stage / gen / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(p, target)
        except OSError:                         # another file system: a copy
            shutil.copy2(p, target)
        out.append((f"{name}/{gen}/{rel.as_posix()}", target))
    return out


def _put_file(out: Path, rel: str, path: Path, avg: int, block: int) -> tuple[FileEntry, int, int]:
    """Cut one file into chunks and store the ones ``out`` lacks: (entry, new chunks, their bytes)."""
    whole = hashlib.sha256()
    refs, new, new_bytes = [], 0, 0
    for sha, data in chunks.cut(path, avg, block):
        whole.update(data)
        target = out / chunk_path(sha)
        if target.exists():
            stored = target.stat().st_size
        else:
            blob = chunks.pack(data)
            target.parent.mkdir(parents=True, exist_ok=True)
            _write_blob(target, blob)
            stored, new, new_bytes = len(blob), new + 1, new_bytes + len(blob)
        refs.append(Chunk(sha, len(data), stored))
    size = sum(c.size for c in refs)
    return FileEntry(path=rel, size=size, sha256=whole.hexdigest(), chunks=tuple(refs)), new, new_bytes


def _write_blob(target: Path, blob: bytes) -> None:
    write_atomic(target, lambda f: f.write(blob), durable=False)


def collect(out: Path, keep: int) -> list[str]:
    """Delete snapshots beyond the newest ``keep`` and the chunks none of the kept ones uses."""
    found = sorted(p for p in (out / SNAPSHOTS_DIR).glob("s*.json.zst"))
    gone, kept = found[:-keep] if keep > 0 else [], found[-keep:] if keep > 0 else found
    used: set[str] = set()
    for p in kept:
        used |= Manifest.parse(unpack(p.read_bytes())).chunk_names()
    for p in gone:
        p.unlink()
    for d in (out / "chunks").glob("*"):
        for c in d.iterdir():
            if c.name not in used:              # unused chunks and .tmp files of a killed publish
                c.unlink()
    return [p.name.removesuffix(".json.zst") for p in gone]


def _say(say: Say | None, text: str) -> None:
    if say is not None:
        say(text)
