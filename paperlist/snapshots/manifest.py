"""A snapshot's manifest: every file with its size, sha256 and chunks, and the ``LATEST`` pointer.

A published directory holds::

    LATEST                      {"id", "manifest", "sha256", "size"}: the newest snapshot (replaced
                                atomically, written last)
    snapshots/<id>.json.zst     one snapshot's manifest, zstd-compressed (immutable; a store of
                                3 GB in 32 KB blocks lists ~90,000 chunks: 7 MB of JSON, 3 MB packed)
    chunks/<ab>/<sha256>        one chunk, zstd-compressed, named by the sha256 of its plain bytes

A follower reads the manifest from the network, so ``Manifest.parse`` trusts nothing: every path
must be a plain relative path under the parts a home serves, every hash 64 hex digits, every size
a bounded integer, and a file's chunks must add up to its size. Anything else is one-line
``ManifestError``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

import orjson

FORMAT = "paperlist-snapshot/1"
LATEST_FILE = "LATEST"
SNAPSHOTS_DIR = "snapshots"
CHUNKS_DIR = "chunks"
STORE_PATH = "paperlist.db"
TOP_LEVEL = ("index", "reports", "vectors")     # the folders a snapshot may hold, beside the store
MAX_FILES = 20_000
MAX_MANIFEST_BYTES = 64 << 20
MAX_FILE_BYTES = 1 << 40
ID_PATTERN = r"s\d{8}T\d{9}-[0-9a-f]{6}"
_ID = re.compile(ID_PATTERN)
_SHA = re.compile(r"[0-9a-f]{64}")
_SEGMENT = re.compile(r"[A-Za-z0-9_.-]{1,200}")


class ManifestError(ValueError):
    """A manifest or LATEST file that is not what we publish; the message is one line."""


@dataclass(frozen=True)
class Chunk:
    sha256: str           # of the plain bytes: the chunk's name
    size: int             # plain bytes
    stored: int           # bytes as stored (compressed): what a follower downloads


@dataclass(frozen=True)
class FileEntry:
    path: str             # relative, '/'-separated
    size: int
    sha256: str
    chunks: tuple[Chunk, ...]


@dataclass(frozen=True)
class Manifest:
    id: str
    created: str          # ISO 8601, UTC
    files: tuple[FileEntry, ...]
    info: dict[str, Any] = field(default_factory=dict)    # papers, generations, fingerprint

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)

    def stored_bytes(self, chunks: set[str] | None = None) -> int:
        """Bytes a follower downloads for this snapshot: all of its distinct chunks, or only those
        not in ``chunks`` (the ones it holds already)."""
        seen: dict[str, int] = {}
        for f in self.files:
            for c in f.chunks:
                if chunks is None or c.sha256 not in chunks:
                    seen[c.sha256] = c.stored
        return sum(seen.values())

    def chunk_names(self) -> set[str]:
        return {c.sha256 for f in self.files for c in f.chunks}

    def to_bytes(self) -> bytes:
        doc = {"format": FORMAT, "id": self.id, "created": self.created, "info": self.info,
               "files": [{"path": f.path, "size": f.size, "sha256": f.sha256,
                          "chunks": [[c.sha256, c.size, c.stored] for c in f.chunks]} for f in self.files]}
        return orjson.dumps(doc) + b"\n"

    @classmethod
    def parse(cls, data: bytes) -> Manifest:
        if len(data) > MAX_MANIFEST_BYTES:
            raise ManifestError(f"manifest larger than {MAX_MANIFEST_BYTES} bytes")
        doc = _object(data, "manifest")
        if doc.get("format") != FORMAT:
            raise ManifestError(f"manifest format is {str(doc.get('format'))[:40]!r}, not {FORMAT!r}")
        sid, created, info, files = doc.get("id"), doc.get("created"), doc.get("info"), doc.get("files")
        if not isinstance(sid, str) or not _ID.fullmatch(sid):
            raise ManifestError("manifest id is not a snapshot id")
        if not isinstance(created, str) or len(created) > 40:
            raise ManifestError("manifest 'created' is not a time")
        if not isinstance(info, dict) or len(orjson.dumps(info)) > 100_000:
            raise ManifestError("manifest 'info' is not a small object")
        if not isinstance(files, list) or not 0 < len(files) <= MAX_FILES:
            raise ManifestError(f"manifest 'files' is not a list of 1 to {MAX_FILES} files")
        entries = tuple(_file(f) for f in files)
        paths = [e.path for e in entries]
        if len(set(paths)) != len(paths):
            raise ManifestError("manifest names a file twice")
        if STORE_PATH not in paths:
            raise ManifestError(f"manifest has no {STORE_PATH}")
        return cls(id=sid, created=created, files=entries, info=info)


@dataclass(frozen=True)
class Latest:
    """The pointer to the newest snapshot: its id, its manifest's path and sha256."""

    id: str
    manifest: str
    sha256: str
    size: int

    def to_bytes(self) -> bytes:
        return orjson.dumps({"format": FORMAT, "id": self.id, "manifest": self.manifest,
                             "sha256": self.sha256, "size": self.size}) + b"\n"

    @classmethod
    def for_manifest(cls, m: Manifest, blob: bytes) -> Latest:
        """The pointer to ``m``, published as ``blob`` (``pack``)."""
        return cls(id=m.id, manifest=manifest_path(m.id), sha256=hashlib.sha256(blob).hexdigest(),
                   size=len(blob))

    @classmethod
    def parse(cls, data: bytes) -> Latest:
        if len(data) > 4096:
            raise ManifestError("LATEST is larger than 4 KB")
        doc = _object(data, "LATEST")
        if doc.get("format") != FORMAT:
            raise ManifestError(f"LATEST format is {str(doc.get('format'))[:40]!r}, not {FORMAT!r}")
        sid, size = doc.get("id"), doc.get("size")
        if not isinstance(sid, str) or not _ID.fullmatch(sid):
            raise ManifestError("LATEST id is not a snapshot id")
        if doc.get("manifest") != manifest_path(sid):
            raise ManifestError("LATEST names a manifest outside snapshots/")
        if not _is_sha(doc.get("sha256")) or not _is_size(size, MAX_MANIFEST_BYTES):
            raise ManifestError("LATEST has no valid sha256 and size")
        assert isinstance(size, int)
        return cls(id=sid, manifest=manifest_path(sid), sha256=doc["sha256"], size=size)

    def check(self, blob: bytes) -> Manifest:
        """The published manifest ``blob``, when it is the one this pointer names (size, sha256 of
        the compressed bytes, id)."""
        if len(blob) != self.size or hashlib.sha256(blob).hexdigest() != self.sha256:
            raise ManifestError(f"manifest of {self.id} does not match the sha256 in LATEST")
        m = Manifest.parse(unpack(blob))
        if m.id != self.id:
            raise ManifestError(f"manifest says {m.id}, LATEST says {self.id}")
        return m


def manifest_path(sid: str) -> str:
    return f"{SNAPSHOTS_DIR}/{sid}.json.zst"


def pack(m: Manifest) -> bytes:
    """The manifest as published: its JSON, zstd-compressed."""
    import zstandard

    return zstandard.ZstdCompressor(level=9).compress(m.to_bytes())


def unpack(blob: bytes) -> bytes:
    """A published manifest's JSON (at most ``MAX_MANIFEST_BYTES``; ``ManifestError`` otherwise)."""
    import zstandard

    try:
        if zstandard.frame_content_size(blob) > MAX_MANIFEST_BYTES:
            raise ManifestError(f"manifest larger than {MAX_MANIFEST_BYTES} bytes")
        return zstandard.ZstdDecompressor().decompress(blob, max_output_size=MAX_MANIFEST_BYTES)
    except zstandard.ZstdError:
        raise ManifestError("manifest is not zstd-compressed JSON") from None


def chunk_path(sha: str) -> str:
    return f"{CHUNKS_DIR}/{sha[:2]}/{sha}"


def check_path(path: object) -> str:
    """``path`` when it is a plain relative path a snapshot may hold (no '..', no absolute path,
    nothing outside the store, index, vectors and reports)."""
    if not isinstance(path, str) or len(path) > 400:
        raise ManifestError("a file path is not a short string")
    parts = path.split("/")
    ok = all(_SEGMENT.fullmatch(p) and p not in (".", "..") for p in parts) and len(parts) <= 6
    if not ok or not (path == STORE_PATH or (parts[0] in TOP_LEVEL and len(parts) > 1)):
        raise ManifestError(f"file path {path[:80]!r} is not one a snapshot holds")
    return path


def _file(f: object) -> FileEntry:
    if not isinstance(f, dict):
        raise ManifestError("a file entry is not an object")
    path, size, sha, chunks = check_path(f.get("path")), f.get("size"), f.get("sha256"), f.get("chunks")
    if not _is_size(size, MAX_FILE_BYTES) or not _is_sha(sha):
        raise ManifestError(f"{path}: no valid size and sha256")
    if not isinstance(chunks, list) or len(chunks) > 4_000_000:
        raise ManifestError(f"{path}: 'chunks' is not a list")
    out = []
    for c in chunks:
        if not (isinstance(c, list) and len(c) == 3 and _is_sha(c[0]) and _is_size(c[1], 1 << 30)
                and _is_size(c[2], 2 << 30) and c[1] > 0 and c[2] > 0):
            raise ManifestError(f"{path}: a chunk is not [sha256, size, stored size]")
        out.append(Chunk(c[0], c[1], c[2]))
    if sum(c.size for c in out) != size:
        raise ManifestError(f"{path}: its chunks do not add up to its size")
    assert isinstance(sha, str) and isinstance(size, int)
    return FileEntry(path=path, size=size, sha256=sha, chunks=tuple(out))


def _object(data: bytes, what: str) -> dict[str, Any]:
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError:
        raise ManifestError(f"{what} is not JSON") from None
    if not isinstance(doc, dict):
        raise ManifestError(f"{what} is not a JSON object")
    return doc


def _is_sha(v: object) -> bool:
    return isinstance(v, str) and bool(_SHA.fullmatch(v))


def _is_size(v: object, most: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= most
