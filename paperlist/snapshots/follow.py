"""The follower's side: take the newest published snapshot, checked, and switch to it.

One ``sync`` reads LATEST; when it names a snapshot this home does not serve, it reads the
manifest (checked against LATEST's sha256), fetches the chunks it holds nowhere (the live and the
previous snapshot give the rest, read from their files and checked too), assembles every file
under ``incoming/<id>/``, checks each against its size and sha256, writes the manifest beside them
as proof, and only then moves the snapshot into place and points ``live`` at it. Anything that
does not check out refuses the snapshot with one line: the live one keeps serving.

Fetched chunks are kept under ``incoming/<id>/.chunks/`` until the switch, so a sync killed at any
point resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..files import write_atomic
from ..index import generations, vectors
from ..index.vectors import INFO_FILE as VECTORS_INFO
from . import chunks, layout
from .chunks import ChunkError
from .manifest import Chunk, Manifest, ManifestError
from .remote import Remote, RemoteError

FETCHERS = 4                     # chunks fetched at once
Say = Callable[[str], None]


class SyncError(Exception):
    """The newest snapshot cannot be taken; the message is one line (the live one keeps serving)."""


@dataclass(slots=True)
class SyncReport:
    id: str
    switched: bool
    downloaded: int = 0          # bytes fetched (compressed)
    fetched: int = 0             # chunks fetched
    reused: int = 0              # chunks taken from the snapshots held here
    size: int = 0                # plain bytes of the snapshot
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Local:
    path: Path
    offset: int


def sync(root: Path, remote: Remote, budget: int | None = None, say: Say | None = None) -> SyncReport:
    """Bring ``root`` to the newest snapshot ``remote`` publishes (``SyncError`` when it cannot)."""
    t0 = time.perf_counter()
    root.mkdir(parents=True, exist_ok=True)
    try:
        latest = remote.latest()
        state = layout.read_state(root)
        live = layout.live_id(root)
        if latest.id in (live, state.held):
            return SyncReport(id=live or latest.id, switched=False)
        m = remote.manifest(latest)
        have = _held_chunks(root)
        _check_budget(root, m, have, budget)
        work = root / layout.INCOMING / m.id
        for d in (root / layout.INCOMING).glob("*"):
            if d.name != m.id:                    # an older snapshot that never finished
                shutil.rmtree(d, ignore_errors=True)
        report = SyncReport(id=m.id, switched=True, size=m.size)
        _fetch(remote, m, have, work / ".chunks", report, say)
        _assemble(remote, m, have, work, report)
        _complete(root, work, say)
        write_atomic(work / layout.PROOF, lambda f: f.write(m.to_bytes()))
        target = layout.snapshot_dir(root, m.id)
        shutil.rmtree(target, ignore_errors=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(work / ".chunks", ignore_errors=True)
        os.replace(work, target)
        layout.switch(root, m.id)
    except (RemoteError, ManifestError, ChunkError) as e:
        raise SyncError(str(e)) from None
    except OSError as e:
        raise SyncError(f"{e.filename or root}: {e.strerror}") from None
    report.seconds = round(time.perf_counter() - t0, 2)
    return report


def _held_chunks(root: Path) -> dict[str, _Local]:
    """Where each chunk of the live and the previous snapshot lies on this machine."""
    out: dict[str, _Local] = {}
    for sid in (layout.previous_id(root), layout.live_id(root)):
        m = layout.proof(root, sid) if sid else None
        if m is None or sid is None:
            continue
        base = layout.snapshot_dir(root, sid)
        for f in m.files:
            offset = 0
            for c in f.chunks:
                out[c.sha256] = _Local(base / f.path, offset)
                offset += c.size
    return out


def _check_budget(root: Path, m: Manifest, have: dict[str, _Local], budget: int | None) -> None:
    """Refuse a snapshot that would not fit in ``budget`` bytes beside the live one (the previous
    one is deleted first when that makes it fit)."""
    if budget is None:
        return
    live, prev = layout.live_id(root), layout.previous_id(root)
    size = {sid: (p.size if (p := layout.proof(root, sid)) else 0) for sid in (live, prev) if sid}
    fetched: dict[str, int] = {c.sha256: c.size for f in m.files for c in f.chunks if c.sha256 not in have}
    need = m.size + sum(fetched.values())         # the files, and the fetched chunks until the switch
    if size.get(live or "", 0) + size.get(prev or "", 0) + need <= budget:
        return
    if prev is not None and prev != live and size.get(live or "", 0) + need <= budget:
        (root / layout.PREVIOUS).unlink(missing_ok=True)
        layout.prune(root)
        return
    raise SyncError(f"snapshot {m.id} needs {need / 1e9:.1f} GB beside the live one's "
                    f"{size.get(live or '', 0) / 1e9:.1f} GB: over the disk budget of {budget / 1e9:.1f} GB")


def _fetch(remote: Remote, m: Manifest, have: dict[str, _Local], into: Path, report: SyncReport,
           say: Say | None) -> None:
    """Fetch every chunk of ``m`` held nowhere here into ``into`` (each checked before it is kept)."""
    into.mkdir(parents=True, exist_ok=True)
    wanted: dict[str, Chunk] = {}
    for f in m.files:
        for c in f.chunks:
            if c.sha256 not in have and not (into / c.sha256).exists():
                wanted[c.sha256] = c
    report.reused = len(m.chunk_names()) - len(wanted)
    if say is not None and wanted:
        say(f"fetching {len(wanted):,} chunks ({sum(c.stored for c in wanted.values()) / 1e6:,.1f} MB) "
            f"of snapshot {m.id}")

    def one(c: Chunk) -> int:
        data = chunks.unpack(remote.chunk(c.sha256, c.stored), c.sha256, c.size)
        write_atomic(into / c.sha256, lambda f: f.write(data), durable=False)
        return c.stored

    with ThreadPoolExecutor(FETCHERS) as pool:
        for n in pool.map(one, wanted.values()):
            report.downloaded += n
            report.fetched += 1


def _assemble(remote: Remote, m: Manifest, have: dict[str, _Local], work: Path, report: SyncReport) -> None:
    created = _timestamp(m.created)
    for f in m.files:
        target = work / f.path
        target.parent.mkdir(parents=True, exist_ok=True)
        whole = hashlib.sha256()
        with open(target, "wb") as out:
            for c in f.chunks:
                data = _chunk_bytes(remote, c, have, work / ".chunks", report)
                whole.update(data)
                out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if whole.hexdigest() != f.sha256:
            raise ChunkError(f"{f.path} of snapshot {m.id} does not match its sha256")
        os.utime(target, (created, created))       # the same ETags on every follower
    _fsync_tree(work)


def _chunk_bytes(remote: Remote, c: Chunk, have: dict[str, _Local], fetched: Path,
                 report: SyncReport) -> bytes:
    """A chunk's bytes: from a snapshot held here, else fetched (each checked)."""
    local = have.get(c.sha256)
    if local is not None:
        try:
            with open(local.path, "rb") as f:
                f.seek(local.offset)
                data = f.read(c.size)
            chunks.check(data, c.sha256, c.size)
            return data
        except (OSError, ChunkError):
            pass                                  # damaged on this disk: fetch it
    try:
        data = (fetched / c.sha256).read_bytes()
        chunks.check(data, c.sha256, c.size)
        return data
    except (OSError, ChunkError):
        data = chunks.unpack(remote.chunk(c.sha256, c.stored), c.sha256, c.size)
        report.downloaded += c.stored
        report.fetched += 1
        return data


def _complete(root: Path, work: Path, say: Say | None) -> None:
    """What the snapshot leaves to its followers (``vectors.LOCAL_FILES``): the vector graph,
    linked from the live snapshot when it holds the same generation, else built here."""
    gen = generations.current_generation(work / "vectors", VECTORS_INFO)
    if gen is None:
        return
    live = layout.live_id(root)
    like = layout.snapshot_dir(root, live) / "vectors" / gen if live else None
    if say is not None and not (like is not None and (like / vectors.ANN_FILE).is_file()):
        say(f"building the vector graph of {gen} (not shipped: it differs throughout after any change)")
    vectors.complete(work / "vectors" / gen, like=like)


def _fsync_tree(path: Path) -> None:
    for d in [path, *(p for p in path.rglob("*") if p.is_dir())]:
        fd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _timestamp(created: str) -> float:
    try:
        return datetime.fromisoformat(created).timestamp()
    except ValueError:
        return time.time()

