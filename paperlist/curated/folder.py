"""A folder of reading lists as ``../shared/data/curated-lists`` lays it out: ``MANIFEST.tsv`` (repo,
commit, commit_date, license, files_copied), ``TOPICS.tsv`` (repo, topic), and
``<owner>+<repo>/<path>`` for each list file, markdown, gzip-compressed or not. ``paperlist corpus``
downloads the same files from GitHub at the commits of our catalog (``catalog.tsv``, the lists and
files we read) into ``sources/curated-lists/``, which has no manifest: the catalog stands for it.

A few lists are not curation but whole-conference dumps ("all CVPR 2024 papers with code"): their
``kind`` is "dump", and they weigh little (paperlist/curated/signal.py)."""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MANIFEST = "MANIFEST.tsv"
TOPICS = "TOPICS.tsv"
SUFFIXES = (".md", ".markdown")
MAX_BYTES = 32 * 1024 * 1024          # a list's file, decompressed
# Part of every list's digest: a new reading of the markdown (markdown.py) rereads every list.
READER_VERSION = 7
# Named by the data's README as whole-conference dumps rather than curation.
DUMPS = frozenset({"MLNLP-World/Top-AI-Conferences-Paper-with-Code", "amusi/CVPR2024-Papers-with-Code",
                   "extreme-assistant/CVPR2024-Paper-Code-Interpretation"})


class ListsError(Exception):
    """A lists folder or file cannot be read; one line."""


@dataclass(slots=True)
class ListFiles:
    """One list: its description and its markdown files (relative path -> text)."""

    name: str                                   # owner/repo
    data: dict[str, Any]
    files: dict[str, str] = field(default_factory=dict)
    digest: str = ""
    problems: list[str] = field(default_factory=list)


CATALOG = Path(__file__).with_name("catalog.tsv")
FOLDER = "curated-lists"


def is_lists_folder(path: Path) -> bool:
    """A folder of reading lists: it has the manifest with its columns, or it is a downloaded one."""
    try:
        with (path / MANIFEST).open(encoding="utf-8") as f:
            head = f.readline().rstrip("\n").split("\t")
    except OSError:
        return path.name == FOLDER and path.is_dir() and any("+" in p.name for p in path.iterdir())
    return head[:2] == ["repo", "commit"]


def catalog() -> list[dict[str, str]]:
    """Our catalog of lists: repo, commit, commit_date, license, topic, files (comma-separated)."""
    return _tsv(CATALOG)


def find(targets: list[str]) -> list[Path]:
    """The lists folders among ingest targets: a target that is one, or its ``curated-lists``."""
    out: list[Path] = []
    for t in targets:
        p = Path(t)
        for cand in (p, p / "curated-lists"):
            if cand.is_dir() and is_lists_folder(cand) and cand not in out:
                out.append(cand)
    return out


def _tsv(path: Path) -> list[dict[str, str]]:
    try:
        with path.open(encoding="utf-8", newline="") as f:
            return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise ListsError(f"{path}: cannot read ({e})") from None


def read(folder: Path) -> Iterator[ListFiles]:
    """Every list of the folder with its files read (a file that cannot be read is a problem of
    its list, named; the others are still read)."""
    known = catalog()
    tagged = _tsv(folder / TOPICS) if (folder / TOPICS).exists() else known
    topics = {r.get("repo", ""): r.get("topic", "") for r in tagged}
    for row in _tsv(folder / MANIFEST) if (folder / MANIFEST).exists() else known:
        name = (row.get("repo") or "").strip()
        if name.count("/") != 1 or ".." in name:
            continue
        data: dict[str, Any] = {"commit": row.get("commit") or "", "date": row.get("commit_date") or "",
                "license": row.get("license") or "", "topic": topics.get(name, ""),
                "kind": "dump" if name in DUMPS else "curated", "url": f"https://github.com/{name}"}
        base = folder / name.replace("/", "+", 1)
        if not base.is_dir():
            continue                        # not (yet) downloaded
        lf = ListFiles(name, data)
        h = hashlib.sha256(f"v{READER_VERSION}".encode())
        for path in sorted(_files(base)):
            rel = path.relative_to(base).as_posix().removesuffix(".gz")
            try:
                text = _text(path)
            except ListsError as e:
                lf.problems.append(str(e))
                continue
            lf.files[rel] = text
            h.update(rel.encode() + b"\0" + text.encode() + b"\0")
        data["files"] = sorted(lf.files)
        h.update(repr(sorted(data.items())).encode())
        lf.digest = h.hexdigest()
        yield lf


def _files(base: Path) -> Iterator[Path]:
    if not base.is_dir():
        return
    for p in base.rglob("*"):
        n = p.name.lower().removesuffix(".gz")
        if p.is_file() and n.endswith(SUFFIXES):
            yield p


def _text(path: Path) -> str:
    cap = MAX_BYTES
    try:
        raw = path.read_bytes()
        if path.name.endswith(".gz"):
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as g:
                raw = g.read(cap + 1)
    except (OSError, EOFError, zlib.error, gzip.BadGzipFile) as e:
        raise ListsError(f"{path}: cannot read ({e})") from None
    if len(raw) > cap:
        raise ListsError(f"{path}: larger than {cap:,} bytes")
    return raw.decode("utf-8", "replace")
