"""What every source reader shares: loading bytes from a file, a directory or a URL,
decompression, file-level errors, and the small Reader protocol.

A reader turns one file into Records. File-level problems (not JSON, a truncated gzip, the
wrong shape, no year in the file name) raise SourceError and the file is not ingested at all;
record-level problems skip the record and are reported with its index.
"""

from __future__ import annotations

import hashlib
import os
import re
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import unquote, urlsplit

from ..curated.folder import is_lists_folder
from ..models import Record
from ..text import title_key
from .bounded import decompress, max_file_bytes, read_capped, read_regular, too_large
from .errors import SourceError
from .normalize import RecordError

DATA_SUFFIXES = (".json", ".jsonl", ".xml", ".csv", ".tsv", ".txt", ".html", ".db", ".parquet", ".xlsx")


@dataclass(slots=True)
class SourceFile:
    """One input file, decompressed in memory."""

    name: str            # the path or URL as the user gave it (for messages)
    basename: str        # file name without directories, e.g. "nips2018.json.gz"
    data: bytes          # decompressed content
    sha256: str          # of the decompressed content

    @property
    def stem(self) -> str:
        """The file name without compression and data suffixes ("nips2018")."""
        s = self.basename
        for suf in (".gz", *DATA_SUFFIXES):
            if s.endswith(suf):
                s = s[: -len(suf)]
        return s

    def text(self) -> str:
        try:
            return self.data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise SourceError(f"not UTF-8 text (byte {e.start})") from None


@dataclass(slots=True)
class Parsed:
    """A reader's output for one file."""

    records: list[Record] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)     # one message per skipped record


class Reader(Protocol):
    name: str            # "papercopilot"
    version: int         # bump to re-parse files whose bytes did not change

    def sniff(self, src: SourceFile) -> bool: ...
    def file_key(self, src: SourceFile) -> str: ...
    def parse(self, src: SourceFile) -> Parsed: ...


class Duplicates:
    """Spots a paper a file lists twice: the same title and mostly the same authors (a poster
    shown in two sessions, a workshop paper in two workshops with co-first authors swapped, an
    author list once truncated). Different papers that share a generic title have different
    authors and stay apart."""

    def __init__(self) -> None:
        self._seen: dict[str, list[tuple[int, str, set[str]]]] = {}

    def check(self, rec: Record, position: int) -> int | None:
        """The position of an earlier record this one repeats, or None (and remember it at
        ``position``)."""
        tk = title_key(rec.title)
        if not tk or not rec.authors:
            return None
        surnames = {a.key.rsplit("-", 1)[-1] for a in rec.authors}
        first = rec.authors[0].key.rsplit("-", 1)[-1]
        for pos, other_first, other in self._seen.get(tk, []):
            common = len(surnames & other)
            if (first == other_first and common >= 0.5 * min(len(surnames), len(other))) \
                    or common >= 0.75 * max(len(surnames), len(other)):
                return pos
        self._seen.setdefault(tk, []).append((position, first, surnames))
        return None


def json_with_papers(src: SourceFile) -> dict[str, Any]:
    """A JSON object holding a 'papers' list (mlanthology's and the OpenReview orals' layout)."""
    import orjson

    try:
        data = orjson.loads(src.data)
    except orjson.JSONDecodeError as e:
        raise SourceError(f"not valid JSON: {str(e).splitlines()[0]}") from None
    if not isinstance(data, dict) or not isinstance(data.get("papers"), list):
        raise SourceError("expected an object with a 'papers' list")
    return data


class Collector:
    """Builds a file's Parsed, the same way for every reader: a record that cannot be built is
    skipped with its message; a key seen before with the same title is the same row twice (skipped),
    with another title it is made unique; a paper the file lists twice keeps its fuller listing."""

    def __init__(self) -> None:
        self.out = Parsed()
        self._at: dict[str, int] = {}
        self._dups = Duplicates()

    def skip(self, where: str, message: str) -> None:
        self.out.skipped.append(f"{where}: {message}")

    def add(self, where: str, make: Callable[[], Record]) -> None:
        """Build a record with ``make`` (which may raise RecordError) and keep it if it is new.
        ``where`` names the record in messages ("record 12", "line 40")."""
        try:
            rec = make()
        except RecordError as e:
            self.skip(where, str(e))
            return
        records = self.out.records
        if rec.key in self._at:
            if title_key(records[self._at[rec.key]].title) == title_key(rec.title):
                self.skip(where, f"repeats an earlier record ({rec.key})")
                return
            rec.key = f"{rec.key}#{where.rsplit(' ', 1)[-1]}"
        pos = self._dups.check(rec, len(records))
        if pos is not None:
            old = records[pos]
            fuller = (len(rec.authors), bool(rec.abstract)) > (len(old.authors), bool(old.abstract))
            if fuller:
                records[pos] = rec
                self._at[rec.key] = pos
            self.skip(where, "lists the same paper as an earlier record"
                             f" (kept {'this one' if fuller else 'the first'})")
            return
        self._at[rec.key] = len(records)
        records.append(rec)


def load_path(path: Path, display: str | None = None) -> SourceFile:
    """A regular file's content (decompressed), within ``max_file_bytes()`` (bounded.py)."""
    cap = max_file_bytes()
    data = decompress(read_regular(path, cap), cap)
    return SourceFile(display or str(path), path.name, data, hashlib.sha256(data).hexdigest())


def load_url(url: str, timeout: float = 60.0) -> SourceFile:
    name = unquote(urlsplit(url).path.rsplit("/", 1)[-1]) or "download"
    req = urllib.request.Request(url, headers={"User-Agent": "paperlist/0.1 (+https://github.com/)"})
    cap = max_file_bytes()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - http(s) checked by caller
            if resp.length is not None and resp.length > cap:
                raise too_large(cap, " to download")
            raw = read_capped(resp, cap, " to download")
    except urllib.error.HTTPError as e:
        raise SourceError(f"download failed: HTTP {e.code} {e.reason}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise SourceError(f"download failed: {reason}") from None
    data = decompress(raw, cap)
    return SourceFile(url, name, data, hashlib.sha256(data).hexdigest())


def is_url(s: str) -> bool:
    return bool(re.match(r"https?://", s, re.I))


def is_data_file(path: Path) -> bool:
    n = path.name.lower()
    if n.endswith(".gz"):
        n = n[:-3]
    return n.endswith(DATA_SUFFIXES) and not n.startswith(("manifest", "readme", "."))


def expand(target: str) -> Iterator[tuple[str, Path | None]]:
    """The inputs a command-line target names: (display name, path or None for a URL).
    Directories are walked in sorted order; only data files are yielded."""
    if is_url(target):
        yield target, None
        return
    p = Path(target)
    if p.is_dir():
        for root, dirs, files in os.walk(p):
            if is_lists_folder(Path(root)):
                dirs.clear()             # reading lists, not papers: paperlist/curated reads them
                continue
            dirs.sort()
            for f in sorted(files):
                fp = Path(root) / f
                if is_data_file(fp):
                    yield str(fp), fp
    else:
        yield target, p
