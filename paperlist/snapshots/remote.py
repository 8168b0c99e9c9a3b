"""Reading a published directory: over HTTP(S) from any static file server or object store, or
from a local path (``file://`` or a plain path: a shared disk).

Every read is bounded by the size the manifest (or LATEST) announces, so a hostile or broken
server cannot make a follower read more than it expects; connection errors and 5xx answers are
retried with a growing pause, other answers fail at once with a one-line ``RemoteError``.
"""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import urlparse

import requests

from .manifest import LATEST_FILE, Latest, Manifest, chunk_path

TIMEOUT = (5.0, 30.0)            # connect, read (seconds)
TRIES = 4


class RemoteError(Exception):
    """The published directory cannot be read; the message is one line."""


class Remote:
    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        parsed = urlparse(url)
        self.local: Path | None = None
        if parsed.scheme in ("http", "https"):
            self.session = requests.Session()
            self.session.headers["user-agent"] = "paperlist-follower"
        elif parsed.scheme in ("", "file"):
            self.local = Path(parsed.path if parsed.scheme == "file" else url)
        else:
            raise RemoteError(f"{url!r}: not an http(s) URL or a path")

    def latest(self) -> Latest:
        return Latest.parse(self.read(LATEST_FILE, 4096))

    def manifest(self, latest: Latest) -> Manifest:
        """The manifest LATEST names, checked against LATEST's sha256 (``ManifestError`` if not)."""
        return latest.check(self.read(latest.manifest, latest.size))

    def chunk(self, sha: str, stored: int) -> bytes:
        return self.read(chunk_path(sha), stored)

    def read(self, rel: str, most: int) -> bytes:
        """The file ``rel`` of the published directory, at most ``most`` bytes."""
        if self.local is not None:
            try:
                with open(self.local / rel, "rb") as f:
                    data = f.read(most + 1)
            except OSError as e:
                raise RemoteError(f"{self.local / rel}: {e.strerror}") from None
            return _bounded(data, most, rel)
        url = f"{self.url}/{rel}"
        for attempt in range(TRIES):
            try:
                with self.session.get(url, timeout=TIMEOUT, stream=True) as r:
                    if r.status_code < 500:
                        if r.status_code != 200:
                            raise RemoteError(f"{url}: HTTP {r.status_code}")
                        return _bounded(_take(r, most), most, rel)
                    failure = f"HTTP {r.status_code}"
            except requests.RequestException as e:
                failure = type(e).__name__
            if attempt + 1 < TRIES:
                time.sleep(0.5 * 2 ** attempt)
        raise RemoteError(f"{url}: {failure} after {TRIES} tries")


def _take(r: requests.Response, most: int) -> bytes:
    buf = bytearray()
    for block in r.iter_content(65536):
        buf += block
        if len(buf) > most:
            break
    return bytes(buf)


def _bounded(data: bytes, most: int, rel: str) -> bytes:
    if len(data) > most:
        raise RemoteError(f"{rel}: larger than the {most} bytes announced")
    return data
