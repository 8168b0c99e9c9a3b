"""Chunks: each piece of a file named by its sha256 and stored zstd-compressed.

An SQLite file is cut into fixed blocks of whole pages (``DB_BLOCK``): the store is copied page
for page, an update rewrites some pages in place and appends others, so an unchanged page stays at
its offset and block. Other files are cut where their content says (FastCDC, ``AVG_BYTES`` on
average), which finds the same pieces again after bytes were inserted earlier in a file. The sizes
trade the bytes a small change costs against the number of chunks (requests, manifest size):
measured in BENCHMARKS.md.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import zstandard
from pyfastcdc import FastCDC

AVG_BYTES = 1 << 20
DB_BLOCK = 32 << 10
SQLITE_MAGIC = b"SQLite format 3\x00"
LEVEL = 3                   # zstd: ~300 MB/s on one core, about a third of the store's size


class ChunkError(ValueError):
    """A chunk whose bytes are not what its name says; the message is one line."""


def cut(path: Path, avg: int = AVG_BYTES, block: int = DB_BLOCK) -> Iterator[tuple[str, bytes | memoryview]]:
    """(sha256, bytes) of each chunk of ``path``, in order (an empty file has none): blocks of
    ``block`` bytes for an SQLite file, else chunks of ``avg`` bytes on average (256 B to 4 MB)."""
    if path.stat().st_size == 0:
        return
    with open(path, "rb") as f:
        sqlite = f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    if sqlite:
        with open(path, "rb") as f:
            while data := f.read(block):
                yield hashlib.sha256(data).hexdigest(), data
        return
    for c in FastCDC(avg).cut_file(str(path)):
        yield hashlib.sha256(c.data).hexdigest(), c.data


def pack(data: bytes | memoryview) -> bytes:
    return zstandard.ZstdCompressor(level=LEVEL).compress(data)


def unpack(blob: bytes, sha: str, size: int) -> bytes:
    """The plain bytes of a stored chunk, checked against its name and size."""
    try:
        # the frame's own size first: with one in its header, zstd ignores max_output_size, and a
        # hostile chunk could ask for any amount of memory
        declared = zstandard.frame_content_size(blob)
        if declared > size:
            raise ChunkError(f"chunk {sha[:12]}… says it holds {declared} bytes, not {size}")
        data = zstandard.ZstdDecompressor().decompress(blob, max_output_size=size)
    except zstandard.ZstdError as e:
        raise ChunkError(f"chunk {sha[:12]}… does not decompress ({e})") from None
    check(data, sha, size)
    return data


def check(data: bytes | memoryview, sha: str, size: int) -> None:
    if len(data) != size or hashlib.sha256(data).hexdigest() != sha:
        raise ChunkError(f"chunk {sha[:12]}… does not match its sha256")
