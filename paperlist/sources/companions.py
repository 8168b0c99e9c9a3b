"""Files that come with a paper list but hold no papers: the ingest passes them by without a word.

A data folder holds, beside its paper lists, the files that describe them: a PROVENANCE or LICENSE
text, a conference's description (``conference.json`` of the programme navigator), a file of counts
(``meta.json`` of the ICML 2026 categories). Reporting each as "ignored: unrecognized file format"
asks a new user to act on files that need nothing. A file is a companion only when its content
says so, not its name alone: a paper list named ``meta.json`` is still read.
"""

from __future__ import annotations

import re

import orjson

from .base import SourceFile

_TEXT_NAMES = re.compile(r"^(provenance|license|licence|notice|changelog|citation)([._-].*)?$", re.I)


def companion(src: SourceFile) -> str | None:
    """What a companion file is ("provenance notes", "counts only"), or None for anything else."""
    if _TEXT_NAMES.match(src.basename):
        return "notes about the data, not a paper list"
    head = src.data[:4096].removeprefix(b"\xef\xbb\xbf").lstrip()
    if not head.startswith(b"{") or len(src.data) > 1 << 20:
        return None
    try:
        data = orjson.loads(src.data)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(data, dict) or "papers" in data:
        return None
    if {"id", "name", "source"} <= data.keys() and isinstance(data.get("source"), dict):
        return "a conference's description, not a paper list"
    if _counts_only(data):
        return "counts only, not a paper list"
    return None


def _counts_only(data: dict[str, object]) -> bool:
    """An object of counts (``{"paper_count": 6341, "venue_counts": {"spotlight": 536}, …}``): no
    lists anywhere, every value a number, a short text or such an object, and a count among them."""
    counted = False

    def leaves(d: dict[str, object], depth: int) -> bool:
        nonlocal counted
        for k, v in d.items():
            if isinstance(v, dict):
                if depth >= 3 or not leaves(v, depth + 1):
                    return False
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                counted = counted or bool(re.search(r"count|total|number", k, re.I))
            elif not (isinstance(v, str) and len(v) <= 80):
                return False
        return True

    return leaves(data, 0) and counted
