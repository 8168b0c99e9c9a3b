"""rbnyng/mlanthology: ``papers/<venue>-<year>.json`` ({venue, year, papers: [...]}) and
``legacy/<venue>-legacy.jsonl`` (one paper per line, many years).

Authors come as {given, family, slug}; there is no oral/poster status; ids hide in
``source_id``, ``venue_url`` and ``openreview_url``. Metadata gathered from DBLP, Semantic
Scholar, OpenAlex, OpenReview, PMLR and CVF (Apache-2.0).
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import orjson

from ..models import Author, Record
from ..names import display_name, make_authors
from ..text import clean
from . import normalize as nz
from .base import Collector, Parsed, SourceError, SourceFile, json_with_papers

PAPERS_RE = re.compile(r"^([a-z][a-z0-9]*)-(\d{4})$")
LEGACY_RE = re.compile(r"^([a-z][a-z0-9]*)-legacy$")
_MODELED = {"bibtex_key", "title", "authors", "year", "venue", "venue_type", "volume", "pages", "abstract",
            "pdf_url", "venue_url", "doi", "openreview_url", "code_url", "source_id", "venue_name", "number"}


class MlanthologyReader:
    name = "mlanthology"
    version = 2                   # 2: names glued with "and" split, LaTeX in names decoded

    def sniff(self, src: SourceFile) -> bool:
        stem = src.stem
        head = src.data[:2048].lstrip()
        if LEGACY_RE.match(stem) and head.startswith(b"{") and b'"bibtex_key"' in head:
            return True
        return bool(PAPERS_RE.match(stem)) and head.startswith(b"{") and b'"papers"' in src.data[:200000] \
            and b'"bibtex_key"' in src.data[:200000]

    def file_key(self, src: SourceFile) -> str:
        return f"mlanthology:{src.stem}"

    def parse(self, src: SourceFile) -> Parsed:
        if LEGACY_RE.match(src.stem):
            items = self._lines(src)
        else:
            items = list(enumerate(json_with_papers(src)["papers"]))
        col = Collector()
        for i, raw in items:
            col.add(f"record {i}", partial(self._record, raw, src))
        return col.out

    def _lines(self, src: SourceFile) -> list[tuple[int, Any]]:
        items: list[tuple[int, Any]] = []
        bad = 0
        lines = src.data.splitlines()
        for i, line in enumerate(lines):
            if not line.strip():
                continue
            try:
                items.append((i + 1, orjson.loads(line)))
            except orjson.JSONDecodeError:
                bad += 1
                items.append((i + 1, None))
        if lines and bad == len([ln for ln in lines if ln.strip()]):
            raise SourceError("not JSON Lines: no line is a JSON object")
        return items

    def _record(self, p: Any, src: SourceFile) -> Record:
        if not isinstance(p, dict):
            raise nz.RecordError("not a JSON object")
        title = p.get("title")
        if not isinstance(title, str):
            raise nz.RecordError("record has no title")
        authors = _authors(p.get("authors"))
        venue = clean(p.get("venue")) or src.stem.split("-")[0]
        ids: dict[str, str] = {}
        links: dict[str, str] = {}
        if d := nz.doi(p.get("doi")):
            ids["doi"] = d
        for field in ("openreview_url", "venue_url", "pdf_url"):
            if (o := nz.openreview_id(p.get(field))) and "openreview" not in ids:
                ids["openreview"] = o
        sid = clean(p.get("source_id"))
        if ("openreview" not in ids and "openreview" in clean(p.get("source"))
                and re.fullmatch(r"[A-Za-z0-9_-]{8,14}", sid)):
            ids["openreview"] = sid
        for field in ("venue_url", "pdf_url"):
            v = clean(p.get(field))
            if "arxiv.org" in v and (a := nz.arxiv_id(v)):
                ids.setdefault("arxiv", a)
        site = nz.url(p.get("venue_url"))
        if site and not re.search(r"doi\.org/|openreview\.net/forum|arxiv\.org/abs", site):
            links["site"] = site
        if pdf := nz.url(p.get("pdf_url")):
            links["pdf"] = pdf
        if code := nz.url(p.get("code_url")):
            links["code"] = code
        biblio = {k: clean(p.get(src_k)) for k, src_k in (("bibkey", "bibtex_key"), ("volume", "volume"),
                                                             ("number", "number"), ("pages", "pages"))}
        vname = clean(p.get("venue_name"))
        if vname:
            biblio["journal" if p.get("venue_type") == "journal" else "booktitle"] = vname
        extra = {k: v for k, v in p.items() if k not in _MODELED and v not in ("", None, [])}
        return nz.record(
            source=self.name, file=self.file_key(src), key=clean(p.get("bibtex_key")) or sid or title[:100],
            venue=venue, year=nz.year(p.get("year")), title=title, authors=authors,
            abstract=nz.abstract(p.get("abstract")), links=links, ids=ids,
            biblio={k: v for k, v in biblio.items() if v}, extra=extra,
        )


def _authors(value: Any) -> list[Author]:
    if value in (None, ""):
        return []
    if not isinstance(value, list):
        raise nz.RecordError("'authors' should be a list")
    names = []
    for a in value:
        if isinstance(a, dict):
            names.append(display_name(a.get("given") if isinstance(a.get("given"), str) else None,
                                      a.get("family") if isinstance(a.get("family"), str) else None))
        elif isinstance(a, str):
            names.append(clean(a))
    return make_authors(names)          # glued "A and B" split, LaTeX in names decoded
