"""A user's entry rewritten as the published version of the paper it cites.

The published entry is the paper's own BibTeX (``citation.bibtex``: the source's entry, else one
generated from the merged fields), read with bibtexparser. The result keeps the user's citation
key, the user's title and authors when they are the same (their braces and accents as typed; a
title that lost its capitals, "an image is worth 16x16 words", takes the paper's), and every field
the published entry does not replace (notes, abstracts, keywords, files …). A field left empty
(``pages = {}``) is dropped, whoever wrote it. Fields
that describe where an arXiv preprint or another venue published it are dropped when the venue
changes, so an upgraded preprint does not keep ``journal = {arXiv preprint …}``.
"""

from __future__ import annotations

import re

from .bib import BibBlock, entry_fields, value_plain, write_entry
from .match import author_agreement, title_key

# Fields that say where and how a paper was published: the published entry's replace the user's.
VENUE_FIELDS = frozenset({
    "journal", "booktitle", "howpublished", "series", "volume", "number", "pages", "publisher", "address",
    "organization", "school", "institution", "eprinttype", "archiveprefix", "primaryclass", "eprint", "month",
    "edition", "chapter", "location", "venue", "editor", "doi", "url", "issn", "isbn", "numpages",
    "type", "year", "date", "journaltitle", "eventtitle", "urldate"})
_PREPRINT = re.compile(r"arxiv|preprint|\bcorr\b|under review|submitted", re.IGNORECASE)
# Of those, the ones kept from the user when the venue is the same and the published entry lacks them.
SAME_VENUE_KEEP = frozenset({"address", "editor", "month", "publisher", "series", "isbn", "issn", "location",
                             "pages", "volume", "number", "numpages", "organization", "note", "urldate"})


def published(block: BibBlock, paper_bibtex: str, same_venue: bool) -> tuple[str, list[str]]:
    """The entry rewritten from the paper's published BibTeX, and the names of the fields it
    changes, adds or drops."""
    parsed = entry_fields(paper_bibtex)
    if parsed is None:
        return block.raw.strip(), []
    entry_type, pub_fields = parsed
    pub = {k.lower(): (k, v) for k, v in pub_fields}
    mine = {k.lower(): (k, v) for k, v in block.fields}
    out: list[tuple[str, str]] = []
    for low, (name, value) in pub.items():
        if low == "title" and "title" in mine and _same_title(mine["title"][1], value):
            out.append(mine["title"])          # the same title: the user's braces and accents
        elif low == "author" and "author" in mine and _same_authors(mine["author"][1], value):
            out.append(mine["author"])
        else:
            out.append((name, value))
    for low, (name, value) in mine.items():
        if low in pub:
            continue
        if low in VENUE_FIELDS and not (same_venue and low in SAME_VENUE_KEEP):
            continue
        if low == "note" and _PREPRINT.search(value) and not same_venue:
            continue                           # "arXiv preprint …": the published version replaces it
        out.append((name, value))
    out = [(k, v) for k, v in out if value_plain(v).strip()]
    now = {k.lower(): v for k, v in out}
    changed = sorted(k for k in set(now) | set(mine) if now.get(k) != mine.get(k, ("", None))[1])
    if entry_type.lower() != block.entry_type.lower():
        changed.insert(0, "entry type")
    return write_entry(entry_type, block.key, out), changed


def _same_title(mine: str, pub: str) -> bool:
    """The user's title is the paper's, with no capital lost (a lower-cased "vit" is not "ViT")."""
    a, b = value_plain(mine), value_plain(pub)
    return title_key(a) == title_key(b) and sum(c.isupper() for c in a) >= sum(c.isupper() for c in b)


def _same_authors(mine: str, pub: str) -> bool:
    """The user's author list names the same people, in full (no "and others")."""
    a, b = value_plain(mine).split(" and "), value_plain(pub).split(" and ")
    if len(a) != len(b) or any(x.strip().lower() == "others" for x in a):
        return False
    return author_agreement(a, b) == 1.0
