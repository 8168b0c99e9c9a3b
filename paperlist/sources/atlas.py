"""The CV+ML Paper Atlas's per-venue workbooks (gisbi-kim/cvmlpaper-atlas ``by_venue/<VENUE>.xlsx``):
DBLP's lists of a venue's papers with Semantic Scholar's citation counts and some abstracts.

One sheet, ``papers``, with the header ``venue, year, title, authors, abstract, cited_by_count, doi,
ee, pages, dblp_key, openalex_id, venues_all``: ``authors`` is one string separated by "; ",
``cited_by_count`` a number or a number as text (empty where Semantic Scholar had no match),
``openalex_id`` in fact a Semantic Scholar paper id (not kept). Rows whose DBLP key names a
proceedings volume (``conf/eccv/2022-w1``: "Computer Vision – ECCV 2022 Workshops") are no papers.

Every row is an *annotation* (``Record.annotation``): DBLP lists what was published, with no
status or track, so a row adds its count, DOI, DBLP key, pages and (where no other source has
one) abstract to the paper another source lists, matched by DOI or title within the venue-year;
a row that matches no paper makes none.

The counts are dated by the workbook's own "last modified" time (``docProps/core.xml``, UTC): the
counts were read before the workbook was written. ECCV.xlsx and 3DV.xlsx of the 2026-04-28 snapshot
say 2026-04-27T16:17Z, which is 2026-04-28 01:17 in Korea, where the repository's commit is dated.
A workbook without that date gives undated counts.
"""

from __future__ import annotations

import io
import re
import warnings
import zipfile
from datetime import UTC, datetime
from functools import partial
from typing import Any

from .. import venues
from ..models import Record
from ..names import make_authors
from ..text import clean
from . import normalize as nz
from .base import Collector, Parsed, SourceError, SourceFile
from .bounded import human, max_file_bytes

SOURCE = "atlas"
SHEET = "papers"
REQUIRED = ("venue", "year", "title", "authors", "cited_by_count")
_ZIP = b"PK\x03\x04"
_SHEET_NAME = re.compile(rb"<sheet\b[^>]*\bname=\"" + SHEET.encode() + rb"\"")
_MODIFIED = re.compile(rb"<dcterms:modified\b[^>]*>\s*([^<]+?)\s*</dcterms:modified>")
_SNIFF_BYTES = 65536
# A DBLP key whose last part is a year and a lower-case suffix ("2022-w1", "2018w1", "2024-77") names
# a proceedings volume, not a paper (a paper's names its authors: "LiuHLKWPC24", "0003WBCR20").
_VOLUME_KEY = re.compile(r"^[a-z]+/[^/]+/(?:19|20)\d{2}[a-z0-9-]*$")


class AtlasReader:
    name = SOURCE
    version = 1

    def sniff(self, src: SourceFile) -> bool:
        """An xlsx workbook with a sheet named ``papers`` whose first strings hold the header's
        ``cited_by_count`` (the header row is the first thing written)."""
        if not src.data.startswith(_ZIP):
            return False
        try:
            with zipfile.ZipFile(io.BytesIO(src.data)) as zf:
                names = set(zf.namelist())
                if "xl/workbook.xml" not in names or not _SHEET_NAME.search(_head(zf, "xl/workbook.xml")):
                    return False
                parts = [n for n in ("xl/sharedStrings.xml", "xl/worksheets/sheet1.xml") if n in names]
                return any(b"cited_by_count" in _head(zf, n) for n in parts)
        except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError):
            return False

    def file_key(self, src: SourceFile) -> str:
        return f"{SOURCE}:{src.stem}"

    def parse(self, src: SourceFile) -> Parsed:
        fkey = self.file_key(src)
        as_of = _modified_day(src.data)
        col = Collector()
        for where, row in _rows(src.data):
            col.add(where, partial(self._record, row, fkey, as_of))
        if not col.out.records and not col.out.skipped:
            raise SourceError(f"the '{SHEET}' sheet has a header but no rows")
        return col.out

    def _record(self, row: dict[str, Any], fkey: str, as_of: str | None) -> Record:
        dblp = _text(row.get("dblp_key"))
        if dblp and _VOLUME_KEY.match(dblp):
            raise nz.RecordError(f"a proceedings volume ({dblp}), not a paper")
        title = _text(row.get("title"))
        if not title:
            raise nz.RecordError("record has no title")
        year_cell = _text(row.get("year"))
        if not year_cell:
            raise nz.RecordError("record has no year")
        year = nz.year(year_cell)
        venue = _text(row.get("venue"))
        if not venue:
            raise nz.RecordError("record has no venue")
        ids: dict[str, str] = {}
        if d := nz.doi(row.get("doi")):
            ids["doi"] = d
        if dblp:
            ids["dblp"] = dblp
        if not ids:
            raise nz.RecordError("record has neither a DOI nor a DBLP key to find its paper by")
        names = [n for n in map(clean, _text(row.get("authors")).split(";")) if n]
        citations = nz.count(row.get("cited_by_count"))
        pages = _text(row.get("pages"))
        return nz.record(
            source=SOURCE,
            file=fkey,
            key=dblp or ids["doi"],
            venue=venues.canonical(venue),
            year=year,
            title=title,
            authors=make_authors(names),
            abstract=nz.abstract(row.get("abstract")),
            ids=ids,
            citations=citations,
            citations_as_of=as_of if citations is not None else None,
            biblio={"pages": pages} if pages else {},
            annotation=True,
        )


def _text(value: object) -> str:
    """A cell as text: numbers as they read (a year 2024, a float 2024.0 -> "2024")."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    return clean(value)


def _head(zf: zipfile.ZipFile, name: str) -> bytes:
    with zf.open(name) as f:
        return f.read(_SNIFF_BYTES)


def _rows(data: bytes) -> list[tuple[str, dict[str, Any]]]:
    """("row N", {column: value}) for every row under the header of the ``papers`` sheet."""
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    broken = (zipfile.BadZipFile, InvalidFileException, KeyError, ValueError, TypeError, OSError, EOFError,
              SyntaxError)     # xml.etree's ParseError is a SyntaxError
    _check_size(data)
    out: list[tuple[str, dict[str, Any]]] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # openpyxl warns about styles and extensions it ignores
            wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
            try:
                if SHEET not in wb.sheetnames:
                    raise SourceError(f"no sheet named '{SHEET}' (found: {', '.join(wb.sheetnames)})")
                rows = wb[SHEET].iter_rows(values_only=True)
                header = [clean(str(h)).lower() if h is not None else "" for h in next(rows, ())]
                missing = [c for c in REQUIRED if c not in header]
                if missing:
                    raise SourceError(f"the '{SHEET}' sheet's header lacks {', '.join(missing)} "
                                      "(not a CV+ML Paper Atlas workbook)")
                for n, values in enumerate(rows, 2):
                    if values and any(v not in (None, "") for v in values):
                        out.append((f"row {n}", dict(zip(header, values, strict=False))))
            finally:
                wb.close()
    except broken as e:
        msg = " ".join(str(e).split()) or type(e).__name__
        raise SourceError(f"not a readable xlsx workbook: {msg[:200]}") from None
    return out


def _check_size(data: bytes) -> None:
    """The workbook's parts, unzipped, within the cap on one file (a zip bomb fails here)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            total = sum(i.file_size for i in zf.infolist())
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as e:
        raise SourceError(f"not an xlsx workbook (not a zip file: {' '.join(str(e).split())})") from None
    cap = max_file_bytes()
    if total > cap:
        raise SourceError(f"larger than {human(cap)} once unzipped (the limit is PAPERLIST_MAX_FILE_BYTES)")


def _modified_day(data: bytes) -> str | None:
    """The UTC day of the workbook's "last modified" time (docProps/core.xml), or None."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            m = _MODIFIED.search(_head(zf, "docProps/core.xml"))
    except (zipfile.BadZipFile, KeyError, OSError, EOFError, ValueError):
        return None
    if not m:
        return None
    try:
        when = datetime.fromisoformat(m.group(1).decode("ascii", "replace").replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is not None:
        when = when.astimezone(UTC)
    return when.date().isoformat()
