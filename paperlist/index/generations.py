"""Generations: how the search index and the vectors publish what they build, switch readers to
it atomically and clean up after themselves (one implementation for both).

Layout under a root (``<home>/index``, ``<home>/vectors``)::

    CURRENT                  the name of the live generation (replaced atomically with os.replace)
    PREVIOUS                 the name of the generation that was live before it (kept for readers)
    .lock                    held (flock) by the one build that may run at a time
    g20250101T120000-1a2b/   one complete generation; its info file, written last, says what it holds

A build makes a new generation directory (``new``), writes it, and ``publish`` fsyncs it, points
CURRENT at it and deletes every other generation except the one that was live until then (readers
in other processes have time to move) and the leftovers of builds that were cut short. Readers see
the old generation or the new one, never a half-built one, and find out about a switch with one
``stat`` (``current_stamp``). A build killed half-way leaves its directory behind: the next build
removes it before it starts (``clean``), so at most the live and the previous generation stay.
"""

from __future__ import annotations

import fcntl
import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from ..files import write_atomic

CURRENT_FILE = "CURRENT"
PREVIOUS_FILE = "PREVIOUS"
LOCK_FILE = ".lock"


def current_stamp(root: Path) -> tuple[int, int] | None:
    """(inode, mtime) of ``root``'s CURRENT file, None without one: a switch changes it (the file
    is replaced by a rename), so readers check for a new generation with one ``stat``."""
    try:
        st = os.stat(root / CURRENT_FILE)
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_mtime_ns


def current_generation(root: Path, info: str) -> str | None:
    """The live generation's name under ``root``, or None when none was published yet (or its
    ``info`` file, written last, is missing)."""
    try:
        name = (root / CURRENT_FILE).read_text("utf-8").strip()
    except FileNotFoundError:
        return None
    return name if name and (root / name / info).exists() else None


@contextmanager
def build_lock(root: Path, name: str = LOCK_FILE, wait: bool = True) -> Iterator[None]:
    """Held while one build writes under ``root``: a second build waits for the first (or, with
    ``wait=False``, gets ``BlockingIOError`` at once). ``name`` is the lock file (one per kind of
    holder: a lock is per open file, so one process must not take the same file twice)."""
    root.mkdir(parents=True, exist_ok=True)
    with open(root / name, "a+b") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def new(root: Path) -> tuple[str, Path, str]:
    """(name, path, timestamp) of a new, empty generation directory under ``root``."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    name = f"g{stamp}-{secrets.token_hex(3)}"
    path = root / name
    path.mkdir(parents=True)
    return name, path, stamp


def discard(path: Path) -> None:
    """Delete a generation that failed while it was being written."""
    shutil.rmtree(path, ignore_errors=True)


def publish(root: Path, name: str, info: str) -> None:
    """Make generation ``name`` durable and live, keep the one it replaces, delete the rest."""
    fsync_dir(root / name)
    previous = current_generation(root, info)
    if previous is not None and previous != name:
        write_atomic(root / PREVIOUS_FILE, lambda f: f.write(previous.encode() + b"\n"))
    switch_current(root, name)
    collect_garbage(root, keep={name, previous})


def previous_generation(root: Path, info: str) -> str | None:
    """The generation that was live before the live one (None when unknown or gone)."""
    try:
        name = (root / PREVIOUS_FILE).read_text("utf-8").strip()
    except FileNotFoundError:
        return _newest_older(root, info)        # published before PREVIOUS was written
    return name if name and (root / name / info).exists() else None


def _newest_older(root: Path, info: str) -> str | None:
    """The newest complete generation finished before the live one."""
    live = current_generation(root, info)
    if live is None:
        return None
    live_t = (root / live / info).stat().st_mtime_ns
    done = [(f.stat().st_mtime_ns, d.name) for d in root.iterdir()
            if d.is_dir() and d.name != live and (f := d / info).exists()]
    older = [c for c in done if c[0] <= live_t]
    return max(older)[1] if older else None


def leftovers(root: Path, info: str) -> list[str]:
    """Generation directories under ``root`` that are neither live nor the previous one: what
    killed builds left (a build in progress under the build lock is one too)."""
    if not root.is_dir():
        return []
    keep = {current_generation(root, info), previous_generation(root, info)}
    if keep == {None}:
        keep = set()
    return sorted(d.name for d in root.iterdir()
                  if d.is_dir() and d.name.startswith("g") and d.name not in keep)


def clean(root: Path, info: str) -> list[str]:
    """Delete what builds cut short left under ``root`` (the caller holds the build lock):
    every generation but the live and the previous one. Returns the names deleted."""
    gone = leftovers(root, info)
    for name in gone:
        shutil.rmtree(root / name, ignore_errors=True)
    for d in root.iterdir() if root.is_dir() else ():
        if d.is_file() and d.name.startswith((f".{CURRENT_FILE}.", f".{PREVIOUS_FILE}.")):
            d.unlink(missing_ok=True)
    return gone


def switch_current(root: Path, name: str) -> None:
    """Point ``root/CURRENT`` at generation ``name`` atomically (readers see the old or the new name)."""
    write_atomic(root / CURRENT_FILE, lambda f: f.write(name.encode() + b"\n"))
    fsync_dir(root)


def fsync_dir(path: Path) -> None:
    """Flush a directory's files and the directory itself (a generation is durable before it is live)."""
    for f in path.iterdir():
        if f.is_file():
            with open(f, "rb") as fh:
                os.fsync(fh.fileno())
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def collect_garbage(root: Path, keep: set[str | None]) -> None:
    """Delete generations other than ``keep`` and leftovers of crashed builds (the caller holds
    the build lock, so no other build is writing). Readers that still have a deleted generation
    open keep working: its files stay mapped until they let go."""
    for d in root.iterdir():
        if d.is_dir() and d.name.startswith("g") and d.name not in keep:
            shutil.rmtree(d, ignore_errors=True)
        elif d.is_file() and d.name.startswith((f".{CURRENT_FILE}.", f".{PREVIOUS_FILE}.")):   # cut short
            d.unlink(missing_ok=True)
