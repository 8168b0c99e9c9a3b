"""A follower's home: the snapshots it holds, which one is live, and what it last said.

    live -> snapshots/<id>      the snapshot the site serves (a symlink, replaced atomically)
    previous -> snapshots/<id>  the one before it, kept for rollback and for requests still on it
    snapshots/<id>/             a complete snapshot; its .manifest.json (written last) is the proof
                                that every file was checked against the manifest
    incoming/<id>/              a snapshot being fetched (.chunks/ holds the chunks fetched so far)
    FOLLOW.json                 the follower's state: what /healthz and the log say
    lists.db                    reading lists, unless they live in PostgreSQL

The site's workers serve ``<home>/live`` (``service.Home`` notices when the link moves and reopens
the store and the index), so a switch needs no restart and drops no request.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import orjson

from ..files import write_atomic
from .manifest import Manifest, ManifestError

LIVE = "live"
PREVIOUS = "previous"
SNAPSHOTS = "snapshots"
INCOMING = "incoming"
STATE_FILE = "FOLLOW.json"
PROOF = ".manifest.json"


@dataclass(slots=True)
class FollowState:
    url: str = ""
    live: str | None = None
    previous: str | None = None
    checked_at: float = 0.0          # time.time() of the last look at LATEST
    ok: bool = True
    message: str = ""                # one line: the last switch, or why the newest snapshot was refused
    refused: str | None = None       # the snapshot id last refused
    held: str | None = None          # a snapshot rolled back from: not taken again
    downloaded: int = 0              # bytes fetched for the last snapshot taken


def live_id(root: Path) -> str | None:
    return _target(root / LIVE)


def previous_id(root: Path) -> str | None:
    return _target(root / PREVIOUS)


def _target(link: Path) -> str | None:
    try:
        return Path(os.readlink(link)).name
    except OSError:
        return None


def snapshot_dir(root: Path, sid: str) -> Path:
    return root / SNAPSHOTS / sid


def proof(root: Path, sid: str) -> Manifest | None:
    """The manifest a held snapshot was checked against (None when it is not complete)."""
    try:
        return Manifest.parse((snapshot_dir(root, sid) / PROOF).read_bytes())
    except (OSError, ManifestError):
        return None


def point(root: Path, name: str, sid: str) -> None:
    """Point the link ``name`` (live, previous) at snapshot ``sid``, atomically."""
    tmp = root / f".{name}.{os.getpid()}.tmp"
    tmp.unlink(missing_ok=True)
    os.symlink(f"{SNAPSHOTS}/{sid}", tmp)
    os.replace(tmp, root / name)
    fd = os.open(root, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def switch(root: Path, sid: str) -> None:
    """Make ``sid`` live, the live one previous, and delete every other snapshot."""
    old = live_id(root)
    if old is not None and old != sid:
        point(root, PREVIOUS, old)
    point(root, LIVE, sid)
    prune(root)


def prune(root: Path) -> None:
    keep = {live_id(root), previous_id(root)}
    for d in (root / SNAPSHOTS).glob("*"):
        if d.name not in keep:
            shutil.rmtree(d, ignore_errors=True)


def read_state(root: Path) -> FollowState:
    try:
        doc = orjson.loads((root / STATE_FILE).read_bytes())
        return FollowState(**{k: v for k, v in doc.items() if k in FollowState.__slots__})
    except (OSError, orjson.JSONDecodeError, TypeError):
        return FollowState()


def write_state(root: Path, state: FollowState) -> None:
    state.checked_at = state.checked_at or time.time()
    data = orjson.dumps(asdict(state))
    write_atomic(root / STATE_FILE, lambda f: f.write(data), durable=False)


def is_follower(root: Path) -> bool:
    return (root / LIVE).is_symlink() or (root / STATE_FILE).exists()
