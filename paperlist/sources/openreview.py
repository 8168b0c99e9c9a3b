"""OpenReview exports: four layouts that community scrapers published, one reader.

* ``<Group>_<year>_Conference.csv`` (an OpenReview venue id with "/" and "." as "_", e.g.
  ``ICLR_cc_2024_Conference``, ``robot-learning_org_CoRL_2024_Conference``): tab-separated, no
  header. 9 columns (title, authors, keywords, primary area, status, pdf, supplementary, TL;DR,
  abstract) or 11 (forum url, title, authors, keywords, primary area, status, pdf, supplementary,
  TL;DR, a second attachment, abstract). Values are not quoted: a quote is text.
* ``Title,Authors,Affiliations,Decision``: a CSV of every submission and its decision.
* ``openreview_url,venue,title,abstract,explain_zh,…``: a CSV of accepted papers (UTF-8 with BOM)
  with a Chinese explanation of each paper.
* ``{generated_at, papers: […]}``: a JSON list of orals with authors, arXiv ids and sessions.

Venue and year come from the file name (TSV) or from the status text ("ICLR 2025 Poster").
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any

from .. import venues
from ..models import Record, Review
from ..names import make_authors, split_author_string
from ..text import clean, title_key
from . import normalize as nz
from . import reviews, summary_zh
from .base import Collector, Parsed, SourceError, SourceFile, json_with_papers

_TSV_NAME = re.compile(r"^(?P<group>[A-Za-z0-9.-]+(?:_[A-Za-z0-9.-]+)*?)_(?P<year>\d{4})_Conference$")
_DOMAIN_PARTS = {"cc", "org", "net", "com", "io", "ai"}
_DECISIONS_HEADER = ["title", "authors", "affiliations", "decision"]
_ACCEPTED_HEADER = ["openreview_url", "venue", "title", "abstract", "explain_zh"]
_VENUE_YEAR = re.compile(r"\b([A-Za-z][A-Za-z-]*)\s+((?:19|20)\d{2})\b")
_FORUM_ID = re.compile(r"[A-Za-z0-9_-]{6,20}")

# Column names of the two tab-separated layouts, by column count.
TSV_COLUMNS: dict[int, tuple[str, ...]] = {
    9: ("title", "authors", "keywords", "primary_area", "status", "pdf", "supplementary", "tldr", "abstract"),
    11: ("forum", "title", "authors", "keywords", "primary_area", "status", "pdf", "supplementary", "tldr",
         "attachment", "abstract"),
}


class OpenReviewReader:
    name = "openreview"
    version = 5                   # 2: ICLR 2026 mean ratings; 3: the orals' too; 4: summaries cleaned;
    # 5: the decisions CSV's author lists are alphabetical

    def sniff(self, src: SourceFile) -> bool:
        return self._layout(src) is not None

    def file_key(self, src: SourceFile) -> str:
        layout = self._layout(src)
        if layout == "accepted":
            venue, year = _accepted_venue_year(src)
            return f"openreview:{venue}{year}-{src.stem}"
        if layout == "orals":
            venue, year = _orals_venue_year(src, _load_json(src))
            return f"openreview:{venue}{year}-orals"
        return f"openreview:{src.stem}"

    def parse(self, src: SourceFile) -> Parsed:
        layout = self._layout(src)
        if layout is not None:
            fkey = self.file_key(src)        # once: the accepted and orals keys read the content
            parsed: Parsed = getattr(self, f"_{layout}")(src, fkey)
            return parsed
        raise SourceError("not an OpenReview export this reader knows (TSV, decisions CSV, accepted "
                          "CSV, orals JSON)")

    @staticmethod
    def _layout(src: SourceFile) -> str | None:
        """Which layout a file is in, from its name and its first bytes only (sniffing is cheap)."""
        head = src.data[:4096]
        if head.startswith(b"\xef\xbb\xbf"):
            head = head[3:]
        first = head.split(b"\n", 1)[0].rstrip(b"\r").decode("utf-8", "replace")
        if _TSV_NAME.match(src.stem) and "\t" in first:
            return "tsv"
        cols = [c.strip().lower() for c in first.split(",")]
        if cols == _DECISIONS_HEADER:
            return "decisions"
        if cols[: len(_ACCEPTED_HEADER)] == _ACCEPTED_HEADER:
            return "accepted"
        if head.lstrip().startswith(b"{") and b'"generated_at"' in head[:512] and b'"papers"' in head \
                and b"openreview" in src.data[:65536]:
            return "orals"
        return None

    # --- tab-separated, no header ------------------------------------------------------------

    def _tsv(self, src: SourceFile, fkey: str) -> Parsed:
        m = _TSV_NAME.match(src.stem)
        assert m is not None
        group = [p for p in m.group("group").split("_") if p.lower() not in _DOMAIN_PARTS]
        venue, year = venues.canonical(group[-1] if group else m.group("group")), nz.year(m.group("year"))
        lines = _logical_lines(src.text())
        if not lines:
            raise SourceError("the file is empty")
        counts = Counter(line.count("\t") + 1 for _, line in lines)
        fitting = [(n, c) for c, n in counts.items() if c in TSV_COLUMNS]
        if not fitting:
            found, n = counts.most_common(1)[0]
            raise SourceError(f"no line has 9 or 11 tab-separated columns (found {found} on {n} of "
                              f"{len(lines)} lines)")
        ncols = max(fitting)[1]            # the layout most lines fit; the others are skipped below
        names = TSV_COLUMNS[ncols]

        def rows() -> Iterator[tuple[str, dict[str, str] | str]]:
            for n, line in lines:
                cells = line.split("\t")
                where = f"line {n}"
                if len(cells) != ncols:
                    # a tab or a line break inside a value: the row cannot be split reliably
                    yield where, f"expected {ncols} tab-separated columns, found {len(cells)}"
                else:
                    yield where, dict(zip(names, cells, strict=True))

        def build(r: dict[str, str]) -> Record:
            links = {k: u for k in ("pdf", "supplementary") if (u := nz.url(r[k]))}
            ids = {}
            if oid := nz.openreview_id(r.get("forum")):
                ids["openreview"] = oid
                links["openreview"] = f"https://openreview.net/forum?id={oid}"
            extra: dict[str, Any] = {}
            att = r.get("attachment", "")
            if att:
                # an unlabelled second upload (video or extra material); we do not know its kind
                extra["attachment"] = nz.url(att) or clean(att)
            return self._record(fkey, venue, year, r["title"], split_author_string(r["authors"]),
                                raw_status=r["status"], abstract=r["abstract"], ids=ids, links=links,
                                keywords=nz.keywords(r["keywords"], ";"), primary_area=r["primary_area"],
                                tldr=r["tldr"], extra=extra)

        return _collect(rows(), build)

    # --- decisions CSV -------------------------------------------------------------------------

    def _decisions(self, src: SourceFile, fkey: str) -> Parsed:
        table = _csv_rows(src)
        decisions = Counter(vy for _, r in table
                            if isinstance(r, dict) and (vy := _venue_year(r.get("decision", ""))))
        if not decisions:
            raise SourceError("no decision names a venue and year (e.g. 'ICLR 2025 Poster')")
        (venue, year), _ = decisions.most_common(1)[0]

        def build(r: dict[str, str]) -> Record:
            extra: dict[str, Any] = {}
            if aff := clean(r.get("affiliations")):
                # the distinct affiliations of all authors, not one per author: kept as written
                extra["affiliations"] = aff
            rec = self._record(fkey, venue, year, r["title"], split_author_string(r["authors"]),
                               raw_status=r["decision"], extra=extra)
            rec.authors_sorted = True       # this export sorts each paper's authors by name
            return rec

        return _collect(table, build)

    # --- accepted-papers CSV ---------------------------------------------------------------------

    def _accepted(self, src: SourceFile, fkey: str) -> Parsed:
        file_venue, file_year = _accepted_venue_year(src)
        modeled = {"openreview_url", "venue", "title", "abstract", "explain_zh", "keywords", "primary_area",
                   "avg_rating", "avg_confidence", "n_ratings"}

        def build(r: dict[str, str]) -> Record:
            venue, year = _venue_year(r["venue"]) or (file_venue, file_year)
            oid = nz.openreview_id(r["openreview_url"])
            extra = {k: _number(v) for k, v in r.items() if k not in modeled and clean(v)}
            return self._record(fkey, venue, year, r["title"], [], raw_status=r["venue"],
                                abstract=r["abstract"], ids={"openreview": oid} if oid else {},
                                keywords=split_keywords(r["keywords"]), primary_area=r["primary_area"],
                                summary_zh=summary_zh.clean(multiline(r["explain_zh"])), extra=extra,
                                review=reviews.from_means(r.get("avg_rating"), r.get("avg_confidence"),
                                                          r.get("n_ratings")))

        return _collect(_csv_rows(src), build)

    # --- orals JSON ----------------------------------------------------------------------------

    def _orals(self, src: SourceFile, fkey: str) -> Parsed:
        data = _load_json(src)
        venue, year = _orals_venue_year(src, data)
        modeled = {"abstract", "arxiv_id", "arxiv_url", "authors", "forum", "id", "iclrcc_url", "keywords",
                   "openreview_url", "pdf_url", "primary_area", "title", "tldr", "ratings_avg", "ratings_n"}

        def rows() -> Iterator[tuple[str, dict[str, Any] | str]]:
            for i, p in enumerate(data["papers"]):
                yield f"paper {i}", (p if isinstance(p, dict)
                                     else f"expected an object, found {type(p).__name__}")

        def build(p: dict[str, Any]) -> Record:
            title = p.get("title")
            if not isinstance(title, str):
                raise nz.RecordError("record has no title")
            names = p.get("authors") or []
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise nz.RecordError("'authors' should be a list of names")
            oid = next((x for x in (nz.openreview_id(p.get("openreview_url")), p.get("forum"), p.get("id"))
                        if isinstance(x, str) and _FORUM_ID.fullmatch(x)), None)
            ids = {"openreview": oid} if oid else {}
            if a := nz.arxiv_id(p.get("arxiv_id")):
                ids["arxiv"] = a
            links = {k: u for k, f in (("site", "iclrcc_url"), ("pdf", "pdf_url")) if (u := nz.url(p.get(f)))}
            kw = p.get("keywords")
            keywords = [k for item in kw if isinstance(item, str)
                        for k in split_keywords(item, commas=False)] \
                if isinstance(kw, list) else split_keywords(kw if isinstance(kw, str) else "")
            extra = {k: v for k, v in p.items() if k not in modeled and v not in (None, "", [])}
            return self._record(fkey, venue, year, title, [clean(n) for n in names if clean(n)],
                                raw_status="oral", abstract=p.get("abstract"), ids=ids, links=links,
                                keywords=keywords, primary_area=p.get("primary_area"), tldr=p.get("tldr"),
                                extra=extra, review=reviews.from_means(p.get("ratings_avg"), None,
                                                                       p.get("ratings_n")))

        return _collect(rows(), build)

    # --- shared --------------------------------------------------------------------------------

    def _record(self, fkey: str, venue: str, year: int, title: object, names: list[str], *,
                raw_status: str, abstract: object = None, ids: dict[str, str] | None = None,
                links: dict[str, str] | None = None, keywords: list[str] | None = None,
                primary_area: object = None, tldr: object = None, summary_zh: str | None = None,
                extra: dict[str, Any] | None = None, review: Review | None = None) -> Record:
        ids = ids or {}
        extra = dict(extra or {})
        status = nz.status(raw_status)
        if clean(raw_status).lower() != (status or ""):
            extra["status_raw"] = clean(raw_status)
        key = ids.get("openreview") or f"t:{title_key(clean(title))[:120]}"
        return nz.record(
            source=self.name, file=fkey, key=key, venue=venue, year=year, title=title,
            authors=make_authors(names), abstract=nz.abstract(abstract), status=status, ids=ids,
            links=links or {}, keywords=keywords or [], primary_area=nz.text_or_none(primary_area),
            tldr=nz.text_or_none(tldr), summary_zh=summary_zh, review=review, extra=extra,
        )


# --- helpers --------------------------------------------------------------------------------------

def _collect(rows: Iterable[tuple[str, Any]], build: Callable[[Any], Record]) -> Parsed:
    """Records from (where, row) pairs; a row that is a str is an error message for that row."""
    col = Collector()
    for where, row in rows:
        if isinstance(row, str):
            col.skip(where, row)
        else:
            col.add(where, partial(build, row))
    return col.out


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, row) for a tab-separated file. A line without any tab cannot be a row
    of 9 or 11 columns: it is the rest of the previous row's last value (an abstract with a line
    break) and is joined back to it."""
    out: list[tuple[int, str]] = []
    for n, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        if not line.strip():
            continue
        if "\t" not in line and out and out[-1][1].count("\t") in (8, 10):
            out[-1] = (out[-1][0], out[-1][1] + "\n" + line)
        else:
            out.append((n, line))
    return out


def _csv_rows(src: SourceFile) -> list[tuple[str, dict[str, str] | str]]:
    """(line, row) pairs of a CSV with a header; rows with the wrong number of cells become messages."""
    reader = csv.reader(io.StringIO(src.text(), newline=""))
    try:
        header = [h.strip().lower() for h in next(reader, [])]
        out: list[tuple[str, dict[str, str] | str]] = []
        start = reader.line_num + 1
        for cells in reader:
            where = f"line {start}"
            start = reader.line_num + 1
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(header):
                out.append((where, f"expected {len(header)} columns, found {len(cells)}"))
            else:
                out.append((where, dict(zip(header, cells, strict=True))))
    except csv.Error as e:
        raise SourceError(f"not valid CSV at line {reader.line_num}: {e}") from None
    if out and all(isinstance(r, str) for _, r in out):
        raise SourceError(f"no row has the {len(header)} columns of the header")
    return out


def _load_json(src: SourceFile) -> dict[str, Any]:
    return json_with_papers(src)


def _venue_year(text: str) -> tuple[str, int] | None:
    """("iclr", 2025) from "ICLR 2025 Poster", "Submitted to ICLR 2025", "CoRL 2024"."""
    m = _VENUE_YEAR.search(clean(text))
    return (venues.canonical(m.group(1)), int(m.group(2))) if m else None


def _accepted_venue_year(src: SourceFile) -> tuple[str, int]:
    """The venue and year of an accepted-papers CSV, from the first row's ``venue`` cell."""
    reader = csv.reader(io.StringIO(src.text(), newline=""))
    try:
        header = [h.strip().lower() for h in next(reader, [])]
        col = header.index("venue")
        for cells in itertools.islice(reader, 50):
            if len(cells) > col and (vy := _venue_year(cells[col])):
                return vy
    except (csv.Error, ValueError):
        pass
    raise SourceError("no 'venue' cell names a venue and year (e.g. 'ICLR 2026 Poster')")


def _orals_venue_year(src: SourceFile, data: dict[str, Any]) -> tuple[str, int]:
    """From the conference site links (iclr.cc/virtual/2026/...), else from the folder name."""
    found: Counter[tuple[str, int]] = Counter()
    for p in data["papers"]:
        m = re.search(r"https?://(?:www\.)?([a-z]+)\.cc/virtual/(\d{4})/", str(p.get("iclrcc_url") or "")) \
            if isinstance(p, dict) else None
        if m:
            found[(venues.canonical(m.group(1)), int(m.group(2)))] += 1
    if found:
        return found.most_common(1)[0][0]
    m = re.search(r"([a-z]+)[-_]?((?:19|20)\d{2})[/\\][^/\\]*$", src.name, re.IGNORECASE)
    if m:
        return venues.canonical(m.group(1)), int(m.group(2))
    raise SourceError("cannot tell the venue and year (no iclr.cc links and no <venue><year> folder)")


def split_keywords(value: str, commas: bool = True) -> list[str]:
    """Keywords typed into one box: separated by ';' and (unless ``commas`` is False) ',', but
    never inside parentheses ("LLM Fine-tuning (SFT, DPO, SimPO); Data selection")."""
    parts: list[str] = []
    depth = 0
    cur: list[str] = []
    for ch in value or "":
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        if depth == 0 and (ch == ";" or (commas and ch == ",")):
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return nz.keywords(parts)


def multiline(value: object) -> str:
    """Text whose line breaks matter (markdown bullet lists): each line cleaned of control
    characters and trailing spaces, indentation kept, runs of blank lines folded to one."""
    if not isinstance(value, str):
        return ""
    lines = []
    for line in value.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        body = clean(line)
        indent = len(line) - len(line.lstrip(" \t")) if body else 0
        lines.append(" " * indent + body)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")


def _number(v: str) -> Any:
    """"7.5" -> 7.5, "4" -> 4; any other text is kept (cleaned)."""
    s = clean(v)
    if re.fullmatch(r"-?\d+", s):
        return int(s)
    if re.fullmatch(r"-?\d+\.\d+", s):
        return float(s)
    return s
