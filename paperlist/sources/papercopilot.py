"""papercopilot/paperlists: one JSON list per conference-year, ``<conf>/<conf><year>.json``.

Fields differ by conference and year: ``author`` or ``authors``, separated by ';' or ',';
empty strings and -1 for unknown values; relative links; HTML entities in names. Venue and year
come from the file name; everything we do not model is kept in ``extra``.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import orjson

from .. import venues
from ..models import Record
from ..names import make_authors, split_author_string
from ..text import clean, title_key
from . import normalize as nz
from . import reviews
from .base import Collector, Parsed, SourceError, SourceFile
from .highlights import HighlightsReader
from .openreview_api import OpenReviewApiReader

# Readers of other JSON lists of papers, which a list without a <conf><year> name may be instead
_NARROWER = (HighlightsReader(), OpenReviewApiReader())
NAME_RE = re.compile(r"^([a-z][a-z0-9]*?|\d[a-z][a-z0-9]*?)(\d{4})$", re.I)
_OTHER_LIST_NAME = re.compile(r"^[a-z][a-z0-9]*_\d{4}$", re.I)

# Hosts that relative links ("/media/PosterPDFs/...") hang off, by papercopilot's directory name.
_HOSTS = {"nips": "https://neurips.cc", "icml": "https://icml.cc", "iclr": "https://iclr.cc",
          "cvpr": "https://cvpr.thecvf.com", "iccv": "https://iccv.thecvf.com",
          "eccv": "https://eccv.ecva.net"}
_OPENREVIEW_PATHS = ("/attachment", "/pdf", "/forum", "/notes")

_LINK_FIELDS: tuple[tuple[str, str], ...] = (
    ("pdf", "pdf"), ("site", "site"), ("openreview", "openreview"), ("openreview", "or"),
    ("oa", "oa"), ("proceedings", "proceeding"), ("code", "github"), ("project", "project"),
    ("supplementary", "supp"), ("supplementary", "supplementary_material"), ("video", "youtube"),
    ("video", "video"), ("slides", "slides"), ("poster", "poster"), ("reviews", "review"),
    ("site", "url_paper"),
)
_MODELED = {
    "id", "title", "author", "authors", "aff", "affs", "abstract", "track", "status", "keywords",
    "primary_area", "doi", "arxiv", "gs_citation", "bibtex", "tldr", "award", "aff_country_unique",
} | {f for _, f in _LINK_FIELDS}
_ACL_FAMILY = {"acl", "emnlp", "naacl", "eacl", "aacl"}


def _is_score_field(k: str, r: dict[str, Any]) -> bool:
    """A review-score field the Review now holds (the list, its _avg twin, a corr_ figure)."""
    return k.startswith("corr_") or k.endswith("_avg") or f"{k}_avg" in r


class PapercopilotReader:
    name = "papercopilot"
    version = 3                   # 2: review scores and countries; 3: names glued with "and", LaTeX

    def sniff(self, src: SourceFile) -> bool:
        if NAME_RE.match(src.stem) and src.basename.lower().split(".")[1:2] == ["json"]:
            return True
        # any other name (so that parse says what the name lacks): a JSON list of papers, unless
        # the name is ai-top-conf-jsons' <conf>_<year> (that reader's lists, checked first)
        head = src.data[:4096].lstrip()
        return head.startswith(b"[") and b'"title"' in head and not _OTHER_LIST_NAME.match(src.stem) \
            and not any(r.sniff(src) for r in _NARROWER)

    def file_key(self, src: SourceFile) -> str:
        return f"papercopilot:{src.stem}"

    def parse(self, src: SourceFile) -> Parsed:
        m = NAME_RE.match(src.stem)
        if not m:
            raise SourceError(f"file name {src.basename!r} has no year (expected <conf><year>.json, e.g. "
                              "nips2024.json)")
        conf, year = m.group(1).lower(), nz.year(m.group(2))
        try:
            data = orjson.loads(src.data)
        except orjson.JSONDecodeError as e:
            raise SourceError(f"not valid JSON: {str(e).splitlines()[0]}") from None
        if not isinstance(data, list):
            raise SourceError(f"expected a JSON list of papers, found {_kind(data)}")
        venue = venues.canonical(conf)
        col = Collector()
        for i, raw in enumerate(data):
            col.add(f"record {i}", partial(self._record, raw, src, conf, venue, year))
        return col.out

    def _record(self, r: Any, src: SourceFile, conf: str, venue: str, year: int) -> Record:
        if not isinstance(r, dict):
            raise nz.RecordError(f"expected an object, found {_kind(r)}")
        title = r.get("title")
        if not isinstance(title, str) or not clean(title):
            raise nz.RecordError("record has no title" if not title
                                 else f"'title' should be text, found {_kind(title)}")
        _check_text(r, "abstract", "status", "track", "keywords", "primary_area", "bibtex")
        names = _author_names(r)
        aff_raw = r.get("aff") if isinstance(r.get("aff"), str) else r.get("affs")
        affs = [clean(a) for a in aff_raw.split(";")] if isinstance(aff_raw, str) else None
        raw_status = clean(r.get("status"))
        status = nz.status(raw_status)
        track = nz.track(r.get("track"))
        rv = venue
        low = raw_status.lower()
        if conf in _ACL_FAMILY or venue in _ACL_FAMILY:
            if "findings" in low:
                rv = f"findings-{venue}"
            if track in (None, "main"):
                for word, t in (("long", "long"), ("short", "short"), ("industry", "industry"),
                                ("demonstration", "demo"), ("workshop", "workshop")):
                    if word in low:
                        track = t
                        break
        links, ids = self._links_ids(r, conf, venue)
        rid = r.get("id")
        key = clean(rid) if isinstance(rid, (str, int)) and not isinstance(rid, bool) else ""
        review = reviews.from_lists(r)
        extra = {k: v for k, v in r.items() if k not in _MODELED and v not in ("", None, [], -1)
                 and not (review is not None and _is_score_field(k, r))}
        if raw_status and raw_status.lower() != (status or ""):
            extra["status_raw"] = raw_status
        award = r.get("award")
        return nz.record(
            source=self.name, file=self.file_key(src), key=key or f"t:{title_key(title)[:120]}",
            venue=rv, year=year, title=title, authors=make_authors(names, affs),
            abstract=nz.abstract(r.get("abstract")), track=track, status=status,
            keywords=nz.keywords(r.get("keywords")), primary_area=nz.text_or_none(r.get("primary_area")),
            links=links, ids=ids, citations=nz.count(r.get("gs_citation")),
            bibtex=(r.get("bibtex") or "").strip() or None, tldr=nz.text_or_none(r.get("tldr")),
            award=(clean(award) if isinstance(award, str) else ("award" if award is True else None)) or None,
            review=review, countries=reviews.countries(r.get("aff_country_unique")), extra=extra,
        )

    def _links_ids(self, r: dict[str, Any], conf: str, venue: str) -> tuple[dict[str, str], dict[str, str]]:
        host = _HOSTS.get(conf) or f"https://{venue}.cc"
        links: dict[str, str] = {}
        for kind, f in _LINK_FIELDS:
            v = r.get(f)
            if kind in links or not isinstance(v, str) or not v.strip():
                continue
            base = "https://openreview.net" if v.strip().startswith(_OPENREVIEW_PATHS) else host
            u = nz.url(v, base)
            if u:
                links[kind] = u
        ids: dict[str, str] = {}
        if d := nz.doi(r.get("doi")):
            ids["doi"] = d
        if a := nz.arxiv_id(r.get("arxiv")):
            ids["arxiv"] = a
        for kind in ("openreview", "site", "pdf"):
            if kind in links and (o := nz.openreview_id(links[kind])):
                ids["openreview"] = o
                break
        rid = r.get("id")
        if "openreview" not in ids and isinstance(rid, str) and re.fullmatch(r"[A-Za-z0-9_-]{8,12}", rid) \
                and not rid.isdigit() and (venue in ("iclr", "colm") or _has_openreview_profiles(r)):
            ids["openreview"] = rid
        if isinstance(rid, str) and re.fullmatch(r"\d{4}\.[a-z]+-[a-z]+\.\d+", rid):
            ids["acl"] = rid
        return links, ids


def _has_openreview_profiles(r: dict[str, Any]) -> bool:
    a = r.get("authorids")
    return bool(r.get("or_profile")) or (isinstance(a, str) and a.startswith("~"))


def _author_names(r: dict[str, Any]) -> list[str]:
    for f in ("author", "authors"):
        v = r.get(f)
        if v in (None, ""):
            continue
        if isinstance(v, str):
            return split_author_string(v)
        if isinstance(v, list) and all(isinstance(x, str) for x in v):
            return [n for x in v for n in split_author_string(x.replace(";", ","))]
        raise nz.RecordError(f"'{f}' should be text or a list of names, found {_kind(v)}")
    if isinstance(r.get("author_site"), str):
        return split_author_string(r["author_site"])
    return []


def _check_text(r: dict[str, Any], *fields: str) -> None:
    for f in fields:
        v = r.get(f)
        if v is not None and not isinstance(v, str) and not (f == "keywords" and isinstance(v, list)):
            raise nz.RecordError(f"'{f}' should be text, found {_kind(v)}")


def _kind(v: object) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "a boolean", int: "a number",
            float: "a number", type(None): "null"}.get(type(v), type(v).__name__)
