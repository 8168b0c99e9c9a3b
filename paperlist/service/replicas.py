"""Several machines: the builder publishes its home, followers take each snapshot and serve it.

``publish`` refuses a home whose topics, statistics or index do not match its store (an ingest or
an update under way, or cut short): a follower must never get a store with an index built from
other papers. ``follow_once`` takes the newest snapshot and records what happened in the
follower's state file, which ``/healthz`` and the log read; ``rollback`` goes back to the previous
snapshot and holds the newer one back until a newer still is published.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from ..files import write_atomic
from ..index import fulltext
from ..snapshots import layout
from ..snapshots.chunks import AVG_BYTES, DB_BLOCK
from ..snapshots.follow import SyncError, SyncReport, sync
from ..snapshots.manifest import ID_PATTERN
from ..snapshots.publish import PublishError, PublishReport, stage, staging, write
from ..snapshots.remote import Remote, RemoteError
from ..store import Store
from .derived import stale
from .home import Home

DRAIN_FILE = "DRAIN"
Say = Callable[[str], None]

__all__ = ["DRAIN_FILE", "PublishError", "PublishReport", "SyncError", "SyncReport", "drain", "follow_once",
           "follow_status", "publish", "rollback"]


def drain(root: Path, on: bool) -> Path:
    """Take the server of ``root`` out of its load balancer (its /healthz answers 503 "draining"
    while the flag exists) or put it back; the flag's path (the server reads it)."""
    flag = root / DRAIN_FILE
    if on:
        flag.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(flag, lambda f: f.write(f"{time.time():.0f}\n".encode()))
    else:
        flag.unlink(missing_ok=True)
    return flag


def publish(home: Home, out: Path, keep: int = 3, chunk_bytes: int = AVG_BYTES, db_block: int = DB_BLOCK,
            say: Say | None = None) -> PublishReport:
    """Publish ``home`` into the directory ``out`` (``PublishError`` when it cannot be, as it is)."""
    if layout.is_follower(home.path):
        raise PublishError(f"{home.path} is a follower's home: publish from the builder")
    if not home.store_path.exists():
        raise PublishError(f"no store in {home.path} (run 'paperlist corpus' or 'paperlist ingest' first)")
    if out.resolve() == home.path.resolve() or home.path.resolve() in out.resolve().parents:
        raise PublishError(f"{out} is inside the home {home.path}: publish to a directory of its own")

    def check(copy: Path) -> None:
        store = Store(copy, readonly=True)
        try:
            if stale(home, store):
                raise PublishError("the topics, statistics or search index do not match the store (an ingest "
                                   "or update is under way, or was cut short): run 'paperlist index', then "
                                   "publish again")
            info["papers"] = store.count_papers()
        finally:
            store.close()

    info: dict[str, object] = {"paperlist": _version()}
    t0 = time.perf_counter()
    with staging(home.path) as into:
        with fulltext.build_lock(home.path):        # the index cannot change between copy and check
            files = stage(home.path, into, info, check=check, say=say)
        report = write(out, files, info, keep=keep, chunk_bytes=chunk_bytes, db_block=db_block, say=say)
    report.seconds = round(time.perf_counter() - t0, 2)
    return report


def follow_once(root: Path, url: str, budget: int | None = None, say: Say | None = None) -> SyncReport:
    """Take the newest snapshot at ``url`` into the follower home ``root`` (``SyncError`` with one
    line when it cannot: the live snapshot keeps serving)."""
    state = layout.read_state(root)
    state.url, state.checked_at = url, time.time()
    try:
        report = sync(root, Remote(url), budget, say)
    except (SyncError, RemoteError) as e:
        state.ok, state.refused = False, _snapshot_named(str(e))
        state.message = f"{e}; serving {layout.live_id(root) or 'nothing yet'}"
        layout.write_state(root, state)
        raise SyncError(state.message) from None
    state.ok, state.refused = True, None
    state.live, state.previous = layout.live_id(root), layout.previous_id(root)
    if report.switched:
        state.downloaded = report.downloaded
        state.message = (f"switched to {report.id}: fetched {report.fetched:,} chunks "
                         f"({report.downloaded / 1e6:,.1f} MB), reused {report.reused:,}, "
                         f"in {report.seconds:.1f}s")
    layout.write_state(root, state)
    return report


def rollback(root: Path) -> str:
    """Serve the previous snapshot again and hold the live one back; returns the id now served."""
    live, prev = layout.live_id(root), layout.previous_id(root)
    if prev is None or layout.proof(root, prev) is None:
        raise SyncError(f"{root} holds no previous snapshot to go back to")
    assert live is not None
    layout.point(root, layout.LIVE, prev)
    layout.point(root, layout.PREVIOUS, live)
    state = layout.read_state(root)
    state.held, state.live, state.previous = live, prev, live
    state.message = f"rolled back from {live} to {prev}; {live} is held back"
    layout.write_state(root, state)
    return prev


def follow_status(root: Path, every: float | None = None) -> tuple[bool, str]:
    """(healthy, one line) for /healthz: the snapshot served, and the last sync's news."""
    s = layout.read_state(root)
    live = layout.live_id(root) or "nothing"
    ago = time.time() - s.checked_at if s.checked_at else None
    line = f"follow: serving {live} from {s.url or '?'}"
    if ago is not None:
        line += f", checked {ago:.0f}s ago"
        if every is not None and ago > 3 * every + 60:
            line += " (late: is the follow loop running?)"
    if not s.ok:
        line += f"; newest refused: {s.message}"
    return s.ok, line


def _snapshot_named(message: str) -> str | None:
    m = re.search(ID_PATTERN, message)
    return m.group(0) if m else None


def _version() -> str:
    try:
        return version("paperlist")
    except PackageNotFoundError:
        return "unknown"
