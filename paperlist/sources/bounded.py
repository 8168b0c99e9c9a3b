"""Reading input within bounds: regular files only, and at most ``max_file_bytes()`` bytes of
content per file or download, decompressed as a stream so that a gzip bomb fails after the
cap's worth of output (not after filling memory).

Every problem is a ``SourceError`` with a one-line message that says what the input is ("a FIFO
(named pipe), not a regular file", "a symbolic link loop", "larger than 256 MiB once
decompressed").
"""

from __future__ import annotations

import errno
import os
import stat
import zlib
from pathlib import Path
from typing import Protocol

from .errors import SourceError

DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024     # the largest source file today is 16 MB decompressed
MAX_FILE_ENV = "PAPERLIST_MAX_FILE_BYTES"
_CHUNK = 1 << 20
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


class Readable(Protocol):
    def read(self, n: int = -1, /) -> bytes: ...


def max_file_bytes() -> int:
    """The cap on one file's (decompressed) content: $PAPERLIST_MAX_FILE_BYTES, else 256 MiB."""
    raw = os.environ.get(MAX_FILE_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_FILE_BYTES
    try:
        value = int(raw)
    except ValueError:
        raise SourceError(f"{MAX_FILE_ENV}={raw!r} is not a number of bytes") from None
    if value <= 0:
        raise SourceError(f"{MAX_FILE_ENV} must be positive (got {value})")
    return value


def human(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} bytes"


def too_large(cap: int, what: str = "") -> SourceError:
    return SourceError(f"larger than {human(cap)}{what} (the limit is {MAX_FILE_ENV})")


def _os_error(e: OSError) -> SourceError:
    if e.errno == errno.ELOOP:
        return SourceError("a symbolic link loop, not a file")
    if e.errno == errno.ENOENT:
        return SourceError("no such file or directory")
    return SourceError(f"cannot read file: {e.strerror or e}")


def file_kind(mode: int) -> str | None:
    """What a non-regular file is ("a FIFO (named pipe)"), or None for a regular file."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return None if stat.S_ISREG(mode) else "not a regular file"


def read_regular(path: Path, cap: int | None = None) -> bytes:
    """The bytes of a regular file of at most ``cap`` bytes. A FIFO, a device, a socket or a
    directory is refused without reading (opening never waits for a FIFO's writer)."""
    cap = max_file_bytes() if cap is None else cap
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        if e.errno == errno.EISDIR:
            raise SourceError("a directory, not a regular file") from None
        raise _os_error(e) from None
    try:
        st = os.fstat(fd)
        kind = file_kind(st.st_mode)
        if kind is not None:
            raise SourceError(f"{kind}, not a regular file")
        if st.st_size > cap:
            raise too_large(cap)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as f:
            return read_capped(f, cap)
    except OSError as e:
        raise _os_error(e) from None
    finally:
        os.close(fd)


def read_capped(stream: Readable, cap: int, what: str = "") -> bytes:
    """Everything ``stream`` holds, or SourceError once it passes ``cap`` bytes."""
    chunks, size = [], 0
    while chunk := stream.read(_CHUNK):
        size += len(chunk)
        if size > cap:
            raise too_large(cap, what)
        chunks.append(chunk)
    return b"".join(chunks)


def decompress(raw: bytes, cap: int | None = None) -> bytes:
    """``raw`` itself, or its gzip content (every member) when it is gzip data, at most ``cap``
    bytes: decompressed a chunk at a time, so a bomb stops at the cap."""
    if raw[:2] != b"\x1f\x8b":
        return raw
    cap = max_file_bytes() if cap is None else cap
    out: list[bytes] = []
    size = 0
    data = raw
    try:
        while data:
            d = zlib.decompressobj(wbits=31)       # one gzip member
            buf = data
            while True:
                piece = d.decompress(buf, _CHUNK)
                size += len(piece)
                if size > cap:
                    raise too_large(cap, " once decompressed")
                out.append(piece)
                buf = d.unconsumed_tail
                if d.eof or (not buf and not piece):
                    break
            if not d.eof:
                raise SourceError("truncated or corrupt gzip data")
            data = d.unused_data
            if data and data[:2] != b"\x1f\x8b":
                if data.strip(b"\x00"):
                    raise SourceError("truncated or corrupt gzip data (trailing bytes)")
                break                              # zero padding after the last member
    except zlib.error:
        raise SourceError("truncated or corrupt gzip data") from None
    return b"".join(out)
