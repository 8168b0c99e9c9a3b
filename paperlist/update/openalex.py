"""OpenAlex through pyalex: authors, DOI, abstract and citation count for papers that lack them.

A paper we know only by its title (ICML, CVPR, AAAI 2026 from the proceedings lists) is looked up
by the surest key it has: its DOI, else its arXiv id (as arXiv's DOI, ``10.48550/arXiv.…``), both
asked fifty at a time; else its title, one request each, within a year of ours. A work is taken only
where the match is certain: the same DOI, or the same title (letters and digits, case and accents
folded), the same year give or take one, and, when OpenAlex names the venue, our venue. Two works
that fit equally are no match.

pyalex builds the queries and parses the answers. Its version 0.21 writes ``api.openalex.org`` into
every URL it builds (``config.openalex_url`` is read only for n-grams), so the origin of each URL is
replaced by ``PAPERLIST_OPENALEX_URL`` and the request goes through pyalex's ``_get_from_url`` with
our polite session (polite.py).

An answer holding more works than one page (``meta.count`` above the page size) is followed page by
page (``page=2``…): fifty DOIs ask for a page of fifty, and OpenAlex still keeps a few works that
share one DOI (duplicates not yet merged), so such a batch has a second page. A title search reads
only its first page (the best-ranked works): it is a search, not a list to exhaust.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import requests

from .. import venues
from ..text import clean, title_key
from .polite import Meter, Policy, Unreachable, UpdateError, mount

DEFAULT_URL = "https://api.openalex.org"
BATCH = 50  # DOIs per request (OpenAlex takes up to 100 OR-ed values)
RETRY_MISS_DAYS = 30  # a paper OpenAlex did not have is asked again after this long
MAX_PAGES = 10  # pages followed for one batch (OpenAlex's basic paging stops at 10,000 results)
_DOI = re.compile(r"^10\.\d{4,9}/\S+$")


def base_url() -> str:
    return (os.environ.get("PAPERLIST_OPENALEX_URL") or DEFAULT_URL).rstrip("/")


@dataclass(slots=True)
class Wanted:
    """A paper to look up: what we know of it."""

    paper_id: str
    venue: str
    year: int
    title: str
    doi: str | None = None
    arxiv: str | None = None
    ids: dict[str, str] = field(default_factory=dict)  # every id the paper has


class OpenAlex:
    """``select``: the only fields of a work to ask for (None: the whole work)."""

    def __init__(self, url: str, policy: Policy, meter: Meter, email: str | None = None,
                 select: Sequence[str] | None = None) -> None:
        try:
            import pyalex
        except ImportError:
            raise UpdateError("pyalex is not installed (pip install pyalex)") from None
        self.url = url
        self.pyalex = pyalex
        pyalex.config.email = email or os.environ.get("PAPERLIST_OPENALEX_EMAIL") or None
        pyalex.config.user_agent = "paperlist (+https://github.com/)"
        self.session = requests.Session()
        mount(self.session, policy, meter)
        self.select = list(select) if select else None

    def _works(self) -> Any:
        works = self.pyalex.Works()
        return works.select(self.select) if self.select else works

    def by_doi(self, dois: list[str]) -> dict[str, dict[str, Any]]:
        """Works by DOI (lower case, without https://doi.org/), fifty per request. Two works with
        one DOI (an OpenAlex duplicate) are one paper: the one cited most speaks for it."""
        out: dict[str, dict[str, Any]] = {}
        for i in range(0, len(dois), BATCH):
            chunk = dois[i : i + BATCH]
            query = self._works().filter(doi="|".join(chunk))
            for w in self._get(query, per_page=len(chunk), pages=MAX_PAGES):
                if (d := _doi(w.get("doi"))) and (d not in out or _cited(w) > _cited(out[d])):
                    out[d] = w
        return out

    def by_title(self, want: Wanted) -> dict[str, Any] | None:
        """The one work whose title and year are ours (and venue, where OpenAlex names one)."""
        words = " ".join(re.findall(r"[^\W_]+", clean(want.title)))[:300]
        if not words:
            return None
        query = (
            self._works()
            .search_filter(title=words)
            .filter(publication_year=f"{want.year - 1}-{want.year + 1}")
        )
        return certain(want, self._get(query, per_page=10))

    def _get(self, query: Any, per_page: int, pages: int = 1) -> list[dict[str, Any]]:
        """The works of ``query``: its first page, and while ``meta.count`` says there are more, the
        next ones, up to ``pages``."""
        url = _rebase(query.url, self.url)
        sep = "&" if "?" in url else "?"
        out: list[dict[str, Any]] = []
        for page in range(1, pages + 1):
            res = self._page(query, f"{url}{sep}per-page={per_page}" + (f"&page={page}" if page > 1 else ""))
            out.extend(dict(w) for w in res)
            count = (getattr(res, "meta", None) or {}).get("count")
            if not res or not isinstance(count, int) or len(out) >= count:
                break
        return out

    def _page(self, query: Any, url: str) -> Any:
        try:
            return query._get_from_url(url, session=self.session)
        except requests.HTTPError as e:
            code = e.response.status_code if e.response is not None else "?"
            raise Unreachable(f"{self.url} answered HTTP {code}") from None
        except (ValueError, KeyError) as e:
            raise Unreachable(
                f"{self.url} answered with something that is not OpenAlex's JSON ({e})"
            ) from None


def certain(want: Wanted, works: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    """The work that is surely ``want``, or None (no candidate, or more than one)."""
    key = title_key(want.title)
    # a work that does not name our venue (a preprint) is taken only for a title too long to be
    # another paper's
    long_title = len(re.findall(r"[^\W_]+", want.title)) >= 6
    fits = []
    for w in works:
        if title_key(clean(w.get("display_name") or w.get("title") or "")) != key:
            continue
        year = w.get("publication_year")
        if not isinstance(year, int) or abs(year - want.year) > 1:
            continue
        source = _source_name(w)
        ours = bool(source) and _names_venue(source, want.venue)
        if not ours and not (long_title and (not source or _is_preprint(source))):
            continue
        fits.append((0 if ours else 1, w))
    if not fits:
        return None
    fits.sort(key=lambda f: f[0])
    if len(fits) > 1 and fits[0][0] == fits[1][0]:
        return None  # two works fit equally: not certain
    return fits[0][1]


def work_fields(w: dict[str, Any]) -> dict[str, Any]:
    """What a work brings: authors (with their first institution), DOI, abstract, citations, ids."""
    from pyalex import invert_abstract

    names, affs = [], []
    for a in w.get("authorships") or []:
        if not isinstance(a, dict):
            continue
        name = clean((a.get("author") or {}).get("display_name") or a.get("raw_author_name"))
        if name:
            names.append(name)
            insts = a.get("institutions") or []
            affs.append(clean(insts[0].get("display_name")) if insts and isinstance(insts[0], dict) else "")
    inverted = w.get("abstract_inverted_index")
    abstract = invert_abstract(inverted) if isinstance(inverted, dict) and inverted else None
    ids = {"doi": d} if (d := _doi(w.get("doi"))) else {}
    if isinstance(w.get("id"), str):
        ids["openalex"] = w["id"].rsplit("/", 1)[-1]
    return {
        "title": clean(w.get("display_name") or w.get("title")),
        "names": names,
        "affiliations": affs,
        "abstract": abstract,
        "citations": cited_by(w),
        "ids": ids,
    }


def cited_by(w: dict[str, Any]) -> int | None:
    """The work's citation count, or None when OpenAlex gives none."""
    n = w.get("cited_by_count")
    return n if isinstance(n, int) and not isinstance(n, bool) and n >= 0 else None


def _cited(w: dict[str, Any]) -> int:
    return cited_by(w) or 0


def _doi(value: object) -> str | None:
    s = clean(value).lower().removeprefix("https://doi.org/").removeprefix("http://doi.org/")
    return s if _DOI.match(s) else None


def _source_name(w: dict[str, Any]) -> str:
    loc = w.get("primary_location") or {}
    src = loc.get("source") if isinstance(loc, dict) else None
    return clean(src.get("display_name")) if isinstance(src, dict) else ""


def _names_venue(source: str, venue: str) -> bool:
    v = venues.get(venues.family(venue))
    s = source.lower()
    return (
        bool(re.search(rf"\b{re.escape(v.short.lower())}\b", s))
        or v.name.lower() in s
        or any(re.search(rf"\b{re.escape(a.lower())}\b", s) for a in v.aliases if len(a) >= 3)
    )


def _is_preprint(source: str) -> bool:
    return bool(re.search(r"arxiv|biorxiv|medrxiv|ssrn|research square|preprint", source, re.I))


def _rebase(url: str, base: str) -> str:
    """pyalex's URL with the scheme, host and path prefix of ``base``."""
    u, b = urlsplit(url), urlsplit(base)
    return urlunsplit((b.scheme, b.netloc, b.path.rstrip("/") + u.path, u.query, ""))
