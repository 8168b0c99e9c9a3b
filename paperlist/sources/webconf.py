"""The Web Conference's accepted-paper lists: ``www<year>-<track>.csv``, one CSV per track, as
the conference site's repository publishes them. Four layouts, told apart by the first non-empty row:

* ``id ,Track,Title,Authors`` (the research track): ``Track`` is the research area; authors are
  "A, B and C" with line breaks where the export wrapped the cell ("Zhangang\\nLin"); no affiliations.
* ``id ,Title,Authors`` (short, industry, Web4Good): authors are ``Name:Affiliation;Name:Affiliation``,
  each part split at its first ':' (an affiliation may hold commas: "MYBank, Ant Group").
* no header, ``wk<NN><MM>[suffix],Title,Authors`` (workshop papers, the same author form, a few plain
  comma lists): ``wkNN00`` (usually ``wkNN00i``) is workshop NN's own entry (its name and
  organizers), not a paper; it names the workshop of the papers ``wkNNxx``. The other suffixes
  (``s``, ``k``, ``L``) are kept in ``extra["id_suffix"]``.
* two empty rows, then ``Paper Title,Author,Supervisor(s),Affiliation`` (PhD symposium, no ids):
  the student is the author; the supervisors ("A and B") go to ``extra["supervisors"]``.

Every list is of accepted papers, except titles "WITHDRAWN <note> -- <title>". The chairs' tags
("(wk-s)", "wk - ") and placeholder affiliations ("Need Affiliation") are dropped. Venue ``www``
(workshop papers: ``wwww``), year and track come from the file name.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from ..models import Record
from ..names import make_authors, split_author_string
from ..text import clean, title_key
from . import normalize as nz
from .base import Collector, Parsed, SourceError, SourceFile

NAME_RE = re.compile(r"^www((?:19|20)\d{2})-([a-z0-9][a-z0-9-]*)$", re.IGNORECASE)
# Track slugs by the file name's track part; other parts are slugged as they are ("web4good").
_TRACKS = {"main-research-track---rfp": "research", "short-papers": "short", "workshops-papers": "workshop"}
# Layouts by their header (lower case, trimmed); the workshop file has none.
_HEADERS: dict[tuple[str, ...], str] = {
    ("id", "track", "title", "authors"): "research",
    ("id", "title", "authors"): "affiliated",
    ("paper title", "author", "supervisor(s)", "affiliation"): "phd",
}
_WORKSHOP_COLUMNS = ("id", "title", "authors")
_MODELED = {"id", "track", "title", "authors", "paper title", "author", "supervisor(s)", "affiliation"}
_WORKSHOP_ID = re.compile(r"wk(\d{2})(\d{2})([a-z]?)", re.IGNORECASE)
_WITHDRAWN = re.compile(r"WITHDRAWN\b(?P<note>.*?)--\s*")          # "WITHDRAWN 2/2 by chairs -- Title"
# "(wk-s)", "(wt) ", "wk-i - "
_TAG = re.compile(r"\((?:wt|wk(?:-[a-z])?)\)\s*|wk(?:-[a-z])?\s+-\s+", re.IGNORECASE)
_NO_AFFILIATION = re.compile(r"need(?:s|ed)? affiliation|affiliation required|researcher|n/?a|none|tbd|-+",
                             re.IGNORECASE)
_EXPECTED = ("'id,Title,Authors', 'id,Track,Title,Authors', 'Paper Title,Author,Supervisor(s),Affiliation' "
             "or 'wk0100i,…'")

Row = tuple[str, dict[str, str] | str]        # (where, cells by column name, or why the row is skipped)


class WebconfReader:
    name = "webconf"
    version = 1

    def sniff(self, src: SourceFile) -> bool:
        if not _name_match(src):
            return False
        head = src.data[:8192].decode("utf-8-sig", "replace")
        try:
            first = next((c for c in csv.reader(io.StringIO(head, newline=""))
                          if any(x.strip() for x in c)), None)
        except csv.Error:
            return False
        return first is not None and _layout(first) is not None

    def file_key(self, src: SourceFile) -> str:
        return f"webconf:{src.stem}"

    def parse(self, src: SourceFile) -> Parsed:
        m = _name_match(src)
        if not m:
            raise SourceError(f"file name {src.basename!r} has no year (expected www<year>-<track>.csv, "
                              "e.g. www2026-industry.csv)")
        year, part = int(m.group(1)), m.group(2).lower()
        track = _TRACKS.get(part) or nz.track(re.sub(r"-papers$", "", part))
        layout, header, lines = _read(src)
        fields = {"source": self.name, "file": self.file_key(src), "year": year, "track": track}
        rows = _rows(lines, header)
        if layout == "workshop" or (layout == "affiliated" and track == "workshop"):
            return _workshop_papers(rows, fields)
        build = {"research": _research, "affiliated": _affiliated, "phd": _phd}[layout]
        return _collect(rows, lambda r: build(r, fields))


# --- reading ----------------------------------------------------------------------------------

def _name_match(src: SourceFile) -> re.Match[str] | None:
    return NAME_RE.match(src.stem) if src.basename.lower().removesuffix(".gz").endswith(".csv") else None


def _header(cells: list[str]) -> tuple[str, ...]:
    norm = [c.strip().lower() for c in cells]
    while norm and not norm[-1]:
        norm.pop()
    return tuple(norm)


def _layout(cells: list[str]) -> str | None:
    """The layout a file's first non-empty row announces (a known header, possibly with more
    columns after it, or a workshop row), or None."""
    head = _header(cells)
    for known, layout in _HEADERS.items():
        if head[: len(known)] == known:
            return layout
    return "workshop" if _WORKSHOP_ID.fullmatch(cells[0].strip()) and len(cells) == 3 else None


def _read(src: SourceFile) -> tuple[str, tuple[str, ...], list[tuple[int, list[str]]]]:
    """(layout, column names, (first line, cells) of each non-empty data row)."""
    reader = csv.reader(io.StringIO(src.text(), newline=""))
    layout: str | None = None
    header: tuple[str, ...] = _WORKSHOP_COLUMNS
    lines: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for cells in reader:
            line, start = start, reader.line_num + 1
            if not any(c.strip() for c in cells):
                continue
            if layout is None:
                layout = _layout(cells)
                if layout is None:
                    raise SourceError(f"not a Web Conference list: the first row is {','.join(cells)[:80]!r} "
                                      f"(expected {_EXPECTED})")
                if layout != "workshop":
                    header = _header(cells)
                    continue
            lines.append((line, cells))
    except csv.Error as e:
        raise SourceError(f"not valid CSV at line {reader.line_num}: {e}") from None
    if layout is None:
        raise SourceError("the file is empty")
    return layout, header, lines


def _rows(lines: list[tuple[int, list[str]]], header: tuple[str, ...]) -> list[Row]:
    out: list[Row] = []
    for line, cells in lines:
        while len(cells) > len(header) and not cells[-1].strip():
            cells = cells[:-1]                    # a trailing comma
        where = f"line {line}"
        if len(cells) != len(header):
            out.append((where, f"expected {len(header)} columns, found {len(cells)}"))
        else:
            out.append((where, dict(zip(header, cells, strict=True))))
    if out and all(isinstance(r, str) for _, r in out):
        raise SourceError(f"no row has the {len(header)} columns of the header")
    return out


def _collect(rows: Iterable[Row], build: Callable[[dict[str, str]], Record]) -> Parsed:
    col = Collector()
    for where, row in rows:
        if isinstance(row, str):
            col.skip(where, row)
        else:
            col.add(where, partial(build, row))
    return col.out


# --- layouts ----------------------------------------------------------------------------------

def _research(r: dict[str, str], fields: dict[str, Any]) -> Record:
    return _record(r, fields, r["title"], _and_names(r["authors"]), primary_area=nz.text_or_none(r["track"]))


def _affiliated(r: dict[str, str], fields: dict[str, Any]) -> Record:
    names, affs = _names_with_affiliations(r["authors"])
    return _record(r, fields, r["title"], names, affs)


def _phd(r: dict[str, str], fields: dict[str, Any]) -> Record:
    extra = {"supervisors": s} if (s := _and_names(r["supervisor(s)"])) else {}
    return _record(r, fields, r["paper title"], [clean(r["author"])], [_affiliation(r["affiliation"])],
                   extra=extra)


def _workshop_papers(rows: list[Row], fields: dict[str, Any]) -> Parsed:
    """Workshop papers: the entries (``wkNN00``, ``wkNNxxi``) are skipped, and name the workshop of
    the papers ``wkNNxx`` wherever they stand in the file."""
    entries = {m.group(1): _title(r["title"])[0] for _, r in rows if isinstance(r, dict)
               and (m := _entry(r["id"]))}
    fields = {**fields, "venue": "wwww"}

    def build(r: dict[str, str]) -> Record:
        m = _WORKSHOP_ID.fullmatch(r["id"].strip())
        workshop = entries.get(m.group(1)) if m else None
        extra: dict[str, Any] = {"workshop": workshop} if workshop else {}
        if m and m.group(3):
            extra["id_suffix"] = m.group(3)
        names, affs = _names_with_affiliations(r["authors"])
        return _record(r, fields, r["title"], names, affs, extra=extra,
                       biblio={"booktitle": workshop} if workshop else {})

    def entry_or_paper(row: dict[str, str] | str) -> dict[str, str] | str:
        if isinstance(row, dict) and (m := _entry(row["id"])):
            return f"the entry of workshop {entries[m.group(1)]!r} ({row['id'].strip()}), not a paper"
        return row

    return _collect([(where, entry_or_paper(row)) for where, row in rows], build)


def _entry(ident: str) -> re.Match[str] | None:
    m = _WORKSHOP_ID.fullmatch(ident.strip())
    return m if m and (m.group(3).lower() == "i" or m.group(2) == "00") else None


# --- fields -----------------------------------------------------------------------------------

def _record(r: dict[str, str], fields: dict[str, Any], raw_title: str, names: list[str],
            affiliations: list[str] | None = None, *, primary_area: str | None = None,
            extra: dict[str, Any] | None = None, biblio: dict[str, str] | None = None) -> Record:
    title, status_raw = _title(raw_title)
    extra = {**{k: clean(v) for k, v in r.items() if k not in _MODELED and clean(v)}, **(extra or {})}
    if title != clean(raw_title):
        extra["title_raw"] = clean(raw_title)
    if status_raw:
        extra["status_raw"] = status_raw
    authors = make_authors(names, affiliations)
    if not authors:
        raise nz.RecordError("row has no authors")
    key = clean(r.get("id")) or f"t:{title_key(title)[:120]}"
    return nz.record(**{"venue": "www", **fields}, key=key, title=title, authors=authors,
                     status="withdrawn" if status_raw else "accepted", primary_area=primary_area,
                     biblio=biblio or {}, extra=extra)


def _title(value: str) -> tuple[str, str | None]:
    """The title without the chairs' tags, and "WITHDRAWN <note>" when it was withdrawn."""
    s, status_raw = clean(value), None
    if m := _WITHDRAWN.match(s):
        status_raw, s = s[: m.end("note")].rstrip(" ,"), s[m.end():]
    if m := _TAG.match(s):
        s = s[m.end():]
    return s, status_raw


def _and_names(value: str) -> list[str]:
    """"A, B and C" (line breaks inside names are spaces: clean() folds them)."""
    head, sep, last = clean(value).rpartition(" and ")
    parts = [*head.split(","), last] if sep else last.split(",")
    return [n for p in parts if (n := clean(p))]


def _names_with_affiliations(value: str) -> tuple[list[str], list[str]]:
    """Names and affiliations from "Name:Affiliation;Name:Affiliation"; a cell with neither ':'
    nor ';' is a plain comma-separated list of names."""
    if ":" not in value and ";" not in value:
        names = split_author_string(value)
        return names, [""] * len(names)
    names, affs = [], []
    for part in value.split(";"):
        name, _, aff = part.partition(":")
        if n := clean(name):
            names.append(n)
            affs.append(_affiliation(aff))
    return names, affs


def _affiliation(value: str) -> str:
    """An affiliation as written: "" for placeholders ("Need Affiliation", "Researcher"), once when
    it is written twice; "\\&" is "&"."""
    s = clean(value).replace("\\&", "&")
    if len(parts := {p.strip() for p in s.split(",")}) == 1 and "," in s:
        s = parts.pop()                           # "BUPT, BUPT": one affiliation written twice
    return "" if _NO_AFFILIATION.fullmatch(s) else s
