"""Reading and writing a user's BibTeX with bibtexparser (v2), keeping it as written.

Values are read without bibtexparser's middlewares, so each one keeps its exact source form (its
braces or quotes, LaTeX accents, ``#`` concatenations, bare ``jan`` macros) and is written back
byte for byte; only the matching works on a plain copy (``value_plain``). Blocks bibtexparser could
not read come back as ``BibBlock``s with an error, so one broken entry never stops the rest.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

import bibtexparser
from bibtexparser import Library
from bibtexparser.model import DuplicateBlockKeyBlock, Entry, Field, ParsingFailedBlock

from ..text import latex_plain
from .parse import Citation, find_ids

logging.getLogger("bibtexparser").setLevel(logging.ERROR)

_YEAR = re.compile(r"(?:19|20)\d\d")
_KEY = re.compile(r"@\s*\w+\s*[{(]\s*([^,\s{}()]+)\s*,")
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)


@dataclass(slots=True)
class BibBlock:
    """One block of a .bib file in its order: an entry (``key`` set), a block bibtexparser could not
    read (``error`` set), or anything else (@string, @comment, text between entries) kept as is."""

    raw: str
    key: str = ""
    entry_type: str = ""
    fields: list[tuple[str, str]] = field(default_factory=list)    # (name as written, raw value)
    error: str | None = None
    line: int = 0

    @property
    def is_entry(self) -> bool:
        return bool(self.key) and self.error is None

    def get(self, name: str) -> str:
        """A field's raw value (case-insensitive name), "" when absent."""
        low = name.lower()
        return next((v for k, v in self.fields if k.lower() == low), "")

    def plain(self, name: str) -> str:
        return value_plain(self.get(name))


def read_bib(text: str) -> list[BibBlock]:
    """The blocks of a BibTeX text, in order (entries, failures, the rest)."""
    lib = bibtexparser.parse_string(text, parse_stack=[])
    out: list[BibBlock] = []
    for b in lib.blocks:
        line = (b.start_line or 0) + 1
        raw = b.raw or ""
        if isinstance(b, DuplicateBlockKeyBlock):
            out.append(BibBlock(raw=raw, key=b.key, error=f"the key {b.key!r} is used twice", line=line))
        elif isinstance(b, ParsingFailedBlock):
            head = raw.strip().splitlines()[0][:80] if raw.strip() else ""
            m = _KEY.match(raw.strip())
            out.append(BibBlock(raw=raw, key=m.group(1) if m else "", error=f"not valid BibTeX: {head}",
                                line=line))
        elif isinstance(b, Entry):
            out.append(BibBlock(raw=raw, key=b.key, entry_type=b.entry_type,
                                fields=[(f.key, str(f.value)) for f in b.fields], line=line))
        else:
            out.append(BibBlock(raw=raw, line=line))
    return out


def value_plain(raw: str) -> str:
    """A raw BibTeX value as plain text: its enclosing braces or quotes and LaTeX removed."""
    v = raw.strip()
    if "#" in v and not v.startswith("{"):
        v = " ".join(p.strip().strip('"{}') for p in v.split("#"))
    elif len(v) >= 2 and ((v[0] == "{" and v[-1] == "}") or (v[0] == '"' and v[-1] == '"')):
        v = v[1:-1]
    return latex_plain(v)


def entry_citation(b: BibBlock) -> Citation:
    """What an entry says, as the matcher reads it."""
    authors = [a.strip() for a in _AND.split(b.plain("author")) if a.strip()]
    m = _YEAR.search(b.plain("year") or b.plain("date"))
    venue = b.plain("booktitle") or b.plain("journal") or b.plain("howpublished") or b.plain("series")
    text = " ".join(b.plain(k) for k in ("doi", "url", "eprint", "journal", "note", "howpublished", "volume"))
    ids = find_ids(text)
    if b.get("doi"):
        doi = b.plain("doi").removeprefix("https://doi.org/").removeprefix("http://dx.doi.org/")
        if doi.lower().startswith("10.48550/arxiv."):
            ids.setdefault("arxiv", doi[len("10.48550/arxiv."):])
        else:
            ids["doi"] = doi
    eprint = b.plain("eprint")
    new_style = re.fullmatch(r"\d{4}\.\d{4,5}(v\d+)?", eprint) is not None
    if eprint and (b.plain("archiveprefix").lower() == "arxiv" or new_style):
        ids["arxiv"] = re.sub(r"v\d+$", "", eprint)
    return Citation(title=b.plain("title"), authors=authors, year=int(m.group(0)) if m else None,
                    venue=venue, kind="bibtex", ids=ids)


def first_entry_citation(text: str) -> Citation | None:
    """The citation of the first entry of a pasted BibTeX text, or None when it has none with a title."""
    try:
        blocks = read_bib(text)
    except Exception:  # noqa: BLE001 - a paste that bibtexparser cannot read is searched as text
        return None
    entry = next((b for b in blocks if b.is_entry), None)
    if entry is None:
        return None
    c = entry_citation(entry)
    return c if len(c.title) >= 4 else None


def write_entry(entry_type: str, key: str, fields: list[tuple[str, str]]) -> str:
    """An entry written by bibtexparser, each raw value as given (so it round-trips exactly)."""
    fmt = bibtexparser.BibtexFormat()
    fmt.indent = "  "
    lib = Library([Entry(entry_type, key, [Field(k, v) for k, v in fields])])
    return bibtexparser.write_string(lib, unparse_stack=[], bibtex_format=fmt).strip()


def entry_fields(text: str) -> tuple[str, list[tuple[str, str]]] | None:
    """The type and raw fields of the one entry of a BibTeX text (a paper's published entry)."""
    entry = next((b for b in read_bib(text) if b.is_entry), None)
    return (entry.entry_type, entry.fields) if entry else None
