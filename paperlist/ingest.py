"""Ingest: files -> records (one transaction per file) -> merged papers (one transaction per block).

Idempotent and resumable: a file whose bytes and reader version did not change is not parsed
again; blocks whose records changed are remembered in the store until merged, so an interrupted
run finishes on the next one.

Parsing files and merging blocks are CPU work and run in worker processes (``jobs``); the main
process only writes to the store, in input order, so results do not depend on ``jobs``.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, Protocol, TypeVar

from . import merge
from .curated.folder import is_lists_folder
from .curated.read import ReadReport
from .pool import process_pool
from .sources import SourceError, companion, detect, expand, load_path, load_url
from .store import FileCounts, FileState, PaperCounts, Store, encode_record

BULK_BLOCKS = 50          # merging this many blocks rebuilds secondary indexes once instead of per row
T = TypeVar("T")
R = TypeVar("R")


@dataclass(slots=True)
class FileReport:
    name: str
    status: str                       # "ingested", "unchanged", "failed", "ignored", "companion"
    key: str | None = None
    source: str | None = None
    counts: FileCounts = field(default_factory=FileCounts)
    error: str | None = None
    problems: list[str] = field(default_factory=list)   # every skipped record's message (to_dict: first 20)


@dataclass(slots=True)
class IngestReport:
    files: list[FileReport] = field(default_factory=list)
    papers: PaperCounts = field(default_factory=PaperCounts)
    blocks_merged: int = 0
    seconds: float = 0.0
    lists: ReadReport | None = None           # the curated reading lists read (service.derived)

    @property
    def failed(self) -> int:
        return sum(f.status == "failed" for f in self.files)

    def totals(self) -> FileCounts:
        t = FileCounts()
        for f in self.files:
            for k in ("new", "updated", "unchanged", "removed", "skipped"):
                setattr(t, k, getattr(t, k) + getattr(f.counts, k))
        return t

    def to_dict(self) -> dict[str, object]:
        return {"files": [{**asdict(f), "problems": f.problems[:20]} for f in self.files],
                "totals": asdict(self.totals()),
                "papers": asdict(self.papers), "failed": self.failed, "blocks_merged": self.blocks_merged,
                "lists": self.lists.to_dict() if self.lists else None,
                "seconds": round(self.seconds, 2)}


class Progress(Protocol):
    def file_done(self, n: int, total: int, report: FileReport) -> None: ...
    def merge_step(self, n: int, total: int, block: str) -> None: ...   # n = 0 (block "") as it starts


@dataclass(slots=True)
class _Job:
    name: str
    path: Path | None                 # None for a URL
    explicit: bool                    # named on the command line (not found in a directory)
    fmt: str | None
    known: dict[str, tuple[str, int]]  # file key -> (sha256, reader version) already stored


@dataclass(slots=True)
class _Parsed:
    report: FileReport
    sha256: str = ""
    version: int = 0
    rows: list[tuple[str, str, str, bytes]] | None = None   # encoded records, or None: nothing to write


def default_jobs() -> int:
    return max(1, min(4, os.cpu_count() or 1))


def ingest(store: Store, targets: list[str], fmt: str | None = None, force: bool = False,
           progress: Progress | None = None, jobs: int | None = None) -> IngestReport:
    """Ingest every file the targets name (files, directories, http(s) URLs), then merge."""
    t0 = time.perf_counter()
    report = IngestReport()
    jobs = jobs or default_jobs()
    known = {} if force else store.file_versions()
    work: list[_Job] = []
    for target in targets:
        explicit = not Path(target).is_dir()
        found = list(expand(target))
        if not found and not is_lists_folder(Path(target)):
            report.files.append(FileReport(target, "failed", error="no data files found"))
        work.extend(_Job(name, path, explicit, fmt, known) for name, path in found)
    first: dict[str, str] = {}            # file key -> the file of this run that holds it
    with _executor(jobs if len(work) > 1 else 1) as ex:
        for n, parsed in enumerate(_ordered(ex, _parse_job, work, window=2 * jobs), 1):
            fr = parsed.report
            if fr.key and fr.key in first:
                # Two files of one run are the same source file (one key): the first one holds it,
                # whatever the store held before, so that a rerun changes nothing.
                fr = FileReport(fr.name, "ignored", fr.key, fr.source,
                                error=f"the same source file ({fr.key}) as {first[fr.key]}")
            elif fr.key:
                first[fr.key] = fr.name
            if fr.status == "unchanged" and fr.key:
                store.touch_file(fr.key, fr.name)
                fr.counts = _stored_counts(store.file_state(fr.key))
            elif fr.status == "ingested" and parsed.rows is not None and fr.key and fr.source:
                fr.counts = store.replace_file_records(fr.key, fr.source, fr.name, parsed.sha256,
                                                       parsed.version, parsed.rows, fr.counts.skipped)
            report.files.append(fr)
            if progress:
                progress.file_done(n, len(work), fr)
        merge_pending(store, report, progress, ex, jobs)
    report.seconds = time.perf_counter() - t0
    return report


_OUT_OF_MEMORY = "out of memory reading it (lower PAPERLIST_MAX_FILE_BYTES, or give it more memory)"


def _parse_job(job: _Job) -> _Parsed:
    """Load, detect and parse one file (runs in a worker process)."""
    try:
        # load_path says what a missing, looping or non-regular path is (bounded.py)
        src = load_url(job.name) if job.path is None else load_path(job.path, job.name)
        try:
            reader = detect(src, job.fmt)
        except SourceError as e:
            if job.explicit:
                raise
            # a file that describes its folder's lists (provenance, counts) is passed by quietly
            what = companion(src)
            return _Parsed(FileReport(job.name, "companion" if what else "ignored", error=what or str(e)))
        key = reader.file_key(src)
        if job.known.get(key) == (src.sha256, reader.version):
            return _Parsed(FileReport(job.name, "unchanged", key, reader.name))
        parsed = reader.parse(src)
        rows = [encode_record(r) for r in parsed.records]
        fr = FileReport(job.name, "ingested", key, reader.name, FileCounts(skipped=len(parsed.skipped)),
                        problems=parsed.skipped)
        return _Parsed(fr, src.sha256, reader.version, rows)
    except SourceError as e:
        return _Parsed(FileReport(job.name, "failed", error=str(e)))
    except MemoryError:
        return _Parsed(FileReport(job.name, "failed", error=_OUT_OF_MEMORY))


def merge_pending(store: Store, report: IngestReport | None = None, progress: Progress | None = None,
                  ex: Executor | None = None, jobs: int = 1) -> PaperCounts:
    """Merge every block whose records changed; each block is one transaction."""
    total = PaperCounts()
    if store.meta("merge_version") != str(merge.MERGE_VERSION):
        store.mark_all_dirty()          # the merge rules changed since this store was merged
    blocks = store.dirty_blocks()
    if progress:
        progress.merge_step(0, len(blocks), "")      # the merge's time starts here, not at its first block
    own = ex is None
    if own:
        ex = _executor(jobs if len(blocks) > 8 else 1)
    assert ex is not None
    bulk = store.bulk_load() if len(blocks) >= BULK_BLOCKS else contextlib.nullcontext()
    try:
        with bulk:
            work = [(str(store.path), b) for b in blocks]
            for n, (block, res) in enumerate(_ordered(ex, _merge_job, work, window=2 * jobs), 1):
                total.add(store.apply_block(block, res.papers, res.members, lambda p: None))
                if progress:
                    progress.merge_step(n, len(blocks), block)
    finally:
        if own:
            ex.shutdown()
    if blocks or store.pending_authors() or store.venues_stale():
        # what the blocks' transactions left pending (durable: a merge killed after its last
        # block finishes here on the next run)
        store.refresh_authors()
        store.sync_venues()
        store.checkpoint()
    store.set_merge_version(merge.MERGE_VERSION)
    if report is not None:
        report.papers.add(total)
        report.blocks_merged += len(blocks)
    return total


def _stored_counts(state: FileState | None) -> FileCounts:
    return FileCounts(unchanged=state.records, skipped=state.skipped) if state else FileCounts()


_WORKER_STORES: dict[tuple[int, str], Store] = {}


def _merge_job(item: tuple[str, str]) -> tuple[str, merge.BlockResult]:
    """Merge one block from its stored records (runs in a worker process, read-only)."""
    path, block = item
    key = (os.getpid(), path)
    store = _WORKER_STORES.get(key)
    if store is None:
        store = _WORKER_STORES[key] = Store(path, readonly=True)
    res = merge.merge_block(block, store.block_records(block))
    for paper, _ in res.papers:
        merge.prepare(paper)
    return block, res


# --- a small ordered, bounded map over an executor ----------------------------------------------

class _InlineExecutor(Executor):
    """Runs calls in this process (jobs=1), with the Executor interface."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        from concurrent.futures import Future

        f: Future[Any] = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as e:  # noqa: BLE001 - re-raised by result()
            f.set_exception(e)
        return f


def _executor(jobs: int) -> Executor:
    if jobs <= 1:
        return _InlineExecutor()
    return process_pool(jobs)


def _ordered(ex: Executor, fn: Callable[[T], R], items: Iterable[T], window: int) -> Iterator[R]:
    """fn over items in order, with at most ``window`` calls in flight (bounded memory)."""
    it = iter(items)
    pending = deque(ex.submit(fn, x) for x in islice(it, max(1, window)))
    while pending:
        result = pending.popleft().result()
        for x in islice(it, 1):
            pending.append(ex.submit(fn, x))
        yield result
