"""Canonical forms that every source reader shares: status, track, links, external ids,
keywords, numbers. Source modules map their own fields and call these, so that "Top-5%",
"ICLR 2024 oral" and "Oral" all become ``oral`` in one place."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin, urlsplit

from .. import venues
from ..models import Author, Record
from ..text import clean, clean_multiline, slugify


class RecordError(ValueError):
    """A record that cannot become a Record (no title, wrong types ...). It is skipped and counted."""


# --- status -----------------------------------------------------------------------------------

_STATUS_RULES: tuple[tuple[str, str | None], ...] = (
    (r"desk[\s_-]*reject", "desk-rejected"),
    (r"withdr[ae]w", "withdrawn"),
    (r"reject", "rejected"),
    (r"^submitted to\b", "rejected"),     # OpenReview: still "submitted" after decisions = not accepted
    (r"top[\s-]*5\s*%|notable[\s-]*top[\s-]*5", "oral"),
    (r"conditional\s*oral", "oral"),          # ICLR 2026's "ConditionalOral" (one word)
    (r"top[\s-]*25\s*%|notable[\s-]*top[\s-]*25", "spotlight"),
    (r"\boral\b|\btalk\b|contributed talk", "oral"),
    (r"spotlight", "spotlight"),
    (r"highlight", "highlight"),
    (r"poster", "poster"),
    (r"accept|\bmain\b|\blong\b|\bshort\b|findings|technical|industry|demo|workshop|tog paper|journal",
     "accepted"),
    (r"^active$|under review|^pending", None),
)


def status(raw: object) -> str | None:
    """Canonical status for a source's status text; None when it does not tell."""
    s = clean(raw).lower()
    if not s:
        return None
    for pattern, value in _STATUS_RULES:
        if re.search(pattern, s):
            return value
    # "CoRL 2024" and the like: the name of the venue alone means the paper was accepted.
    if re.fullmatch(r"[a-z0-9 ]+ \d{4}", s) or s in {"yes", "true"}:
        return "accepted"
    return None


# --- track ------------------------------------------------------------------------------------

_TRACK_ALIASES = {
    "datasets-benchmarks": "datasets-and-benchmarks",
    "datasets-and-benchmarks-track": "datasets-and-benchmarks",
    # NeurIPS 2026 renamed its Datasets & Benchmarks track "Evaluations & Datasets": one track
    "evaluations-and-datasets": "datasets-and-benchmarks",
    "evaluations-and-datasets-track": "datasets-and-benchmarks",
    "demos": "demo", "system-demonstrations": "demo", "demo-track": "demo", "demonstrations": "demo",
    "survey-track": "survey", "journal-track": "journal", "tutorials": "tutorial",
    "student-research-workshop": "srw",
}


def track(raw: object) -> str | None:
    """A slug for the track ("Datasets & Benchmarks" -> "datasets-and-benchmarks"); None if empty."""
    s = clean(raw).replace("&", " and ")
    slug = slugify(s, 60)
    if not slug:
        return None
    return _TRACK_ALIASES.get(slug, slug)


# --- links and ids ----------------------------------------------------------------------------

def url(value: object, base: str | None = None) -> str | None:
    """An absolute http(s) URL or None: relative paths are resolved against ``base`` when one
    is known; every other scheme (javascript:, data:, ...) is dropped."""
    s = clean(value)
    if not s or " " in s:
        return None
    if s.startswith("//"):
        s = "https:" + s
    elif not re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", s):
        if base and s.startswith("/"):
            s = urljoin(base, s)
        elif re.match(r"(www\.|[a-z0-9-]+\.(com|org|net|io|edu|cc)/)", s):
            s = "https://" + s
        else:
            return None
    parts = urlsplit(s)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return _one_slash(s)


_HOST_SLASHES = re.compile(r"^(https?://[^/?#]+)//+")


def _one_slash(url: str) -> str:
    """"https://proceedings.neurips.cc//paper_files/…" -> one slash after the host (a scraper's join)."""
    return _HOST_SLASHES.sub(r"\1/", url)


_ARXIV_NEW = re.compile(r"(?<![\d.])(\d{4}\.\d{4,5})(?:v\d+)?(?![\d])")
_ARXIV_OLD = re.compile(r"\b([a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?\b")


def arxiv_id(value: object) -> str | None:
    """"1612.00496v2", "arXiv:1612.00496", "https://arxiv.org/abs/1612.00496" -> "1612.00496"."""
    s = clean(value)
    if not s:
        return None
    if "/" in s and "arxiv" not in s.lower() and not _ARXIV_OLD.fullmatch(s):
        return None
    m = _ARXIV_NEW.search(s)
    if m:
        return m.group(1)
    m = _ARXIV_OLD.search(s)
    return m.group(1) if m else None


def doi(value: object) -> str | None:
    """"https://doi.org/10.1145/3658127" -> "10.1145/3658127" (lower case)."""
    s = clean(value)
    m = re.search(r"(10\.\d{4,9}/\S+)", s)
    return m.group(1).rstrip(".").lower() if m else None


def openreview_id(value: object) -> str | None:
    """The forum id from an OpenReview URL ("...forum?id=B12Js_yRb" -> "B12Js_yRb")."""
    s = clean(value)
    m = re.search(r"openreview\.net/(?:forum|pdf)\?id=([A-Za-z0-9_-]+)", s)
    return m.group(1) if m else None


# Publishers' paper pages whose address names one paper: (kind, pattern of its id). The merge
# joins records through them as through ids (normalize.link_id); they are not shown as ids.
_LINK_IDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("cvf", re.compile(r"openaccess\.thecvf\.com/content[_/][^/]+/(?:html|papers)/"
                       r"([^/?#]+?)(?:\.html|\.pdf)$", re.I)),
    ("ecva", re.compile(r"ecva\.net/papers/eccv_\d{4}/papers_ECCV/(?:html|papers)/"
                        r"([^/?#]+?)(?:\.php|\.pdf)$", re.I)),
    ("pmlr", re.compile(r"proceedings\.mlr\.press/"
                        r"(v\d+/[a-z0-9-]+?\d{2}[a-z]*)(?:\.html|/[^/]+\.pdf|/)?$", re.I)),
    ("nips", re.compile(r"(?:papers\.nips\.cc|proceedings\.neurips\.cc)/paper(?:_files/paper)?/"
                        r"\d{4}/(?:hash|file)/([0-9a-f]{32})-", re.I)),
    ("aaai", re.compile(r"ojs\.aaai\.org/index\.php/AAAI/article/(?:view|download)/(\d+)", re.I)),
    ("ijcai", re.compile(r"ijcai\.org/proceedings/(\d{4})/0*(\d+)(?:\.pdf)?/?$", re.I)),
    ("acl", re.compile(r"aclanthology\.org/+"
                       r"(\d{4}\.[a-z0-9-]+\.\d+|[A-Z]\d{2}-\d{4})(?:\.pdf|\.bib)?/?$", re.I)),
)


def link_id(value: object) -> tuple[str, str] | None:
    """(kind, id) for the address of a paper's page at a publisher: the CVF, ECVA, PMLR, NeurIPS,
    AAAI, IJCAI and ACL Anthology pages (and their PDFs) of one paper share it."""
    s = clean(value)
    if not s.startswith("http"):
        return None
    for kind, rx in _LINK_IDS:
        m = rx.search(s)
        if m:
            return kind, "/".join(m.groups()).lower()
    return None


# Hosts that serve the same paths: NeurIPS's proceedings moved from papers.nips.cc to
# proceedings.neurips.cc with the same /paper_files/ paths (the old host redirects there).
_SAME_HOSTS = (("papers.nips.cc/paper_files/", "proceedings.neurips.cc/paper_files/"),
               ("papers.neurips.cc/paper_files/", "proceedings.neurips.cc/paper_files/"))


def current_url(url: str) -> str:
    """The address a link redirects to where we know it moved (papers.nips.cc/paper_files/… ->
    proceedings.neurips.cc/paper_files/…), https where the host serves it, else the link itself."""
    url = _one_slash(url)
    for old, new in _SAME_HOSTS:
        for scheme in ("https://", "http://"):
            if url.startswith(scheme + old):
                return "https://" + new + url[len(scheme + old):]
    return url


def link_key(url: str) -> str:
    """What makes two links the same place: the current address without scheme, "www." and a
    trailing slash, case folded (two sources linking one PDF by two hosts are one link)."""
    u = current_url(url)
    u = re.sub(r"^https?://(www\.)?", "", u, flags=re.IGNORECASE)
    return u.rstrip("/").lower()


# --- values -----------------------------------------------------------------------------------

def keywords(value: object, sep: str = ";") -> list[str]:
    """Split and clean keywords, dropping duplicates (case-insensitively) but keeping order."""
    if isinstance(value, list):
        items = [clean(v) for v in value]
    else:
        items = [clean(v) for v in clean(value).split(sep)]
    seen: set[str] = set()
    out = []
    for k in items:
        k = k.strip(" .")
        if k and k.lower() not in seen and len(k) <= 200:
            seen.add(k.lower())
            out.append(k)
    return out


def count(value: object) -> int | None:
    """A non-negative count, or None (sources write -1 or "" for unknown)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and value >= 0:
        return value
    return None


def text_or_none(value: object) -> str | None:
    return clean(value) or None


_NO_ABSTRACT = re.compile(r"(abstract\s+)?(unavailable|missing|not\s+available|n/?a|none|tbd)\.?|-+", re.I)
_PDF_CID = re.compile(r"\(cid:\d+\)\s*")


def abstract(value: object) -> str | None:
    """The abstract, or None for placeholders ("Abstract Unavailable") and scraps under 20
    characters; PDF-extraction artifacts such as "(cid:173)" are removed."""
    s = clean_multiline(value)
    if "(cid:" in s:
        s = _PDF_CID.sub("", s)
    if len(s) < 20 or _NO_ABSTRACT.fullmatch(s):
        return None
    return s


def year(value: object) -> int:
    try:
        y = int(str(value).strip())
    except (TypeError, ValueError):
        raise RecordError(f"year {value!r} is not a number") from None
    if not 1950 <= y <= 2100:
        raise RecordError(f"year {y} is out of range")
    return y


# --- record -----------------------------------------------------------------------------------

# A title not given yet ("Title TBD": a programme's talk announced before its paper): no paper yet.
_PLACEHOLDER_TITLE = re.compile(r"(title\s*[:-]?\s*)?(tbd|tba|to be (announced|determined|confirmed))\.?",
                                re.IGNORECASE)


def record(
    *, source: str, file: str, key: str, venue: str, year: int, title: object,
    authors: list[Author], **fields: Any,
) -> Record:
    """Build a validated Record; raises RecordError when it has no usable title (an annotation,
    which only adds facts to the paper its ids name, needs none but must have an id)."""
    t = clean(title)
    if fields.get("annotation"):
        if not fields.get("ids"):
            raise RecordError("an annotation needs an id to find its paper")
    elif not t:
        raise RecordError("record has no title")
    elif _PLACEHOLDER_TITLE.fullmatch(t):
        raise RecordError(f"the title is a placeholder ({t!r}): no paper yet")
    if len(t) > 1000:
        raise RecordError("title is longer than 1,000 characters")
    links = {k: v for k, v in (fields.pop("links", None) or {}).items() if v}
    ids = {k: v for k, v in (fields.pop("ids", None) or {}).items() if v}
    if "arxiv" in ids and "arxiv" not in links:
        links["arxiv"] = f"https://arxiv.org/abs/{ids['arxiv']}"
    if "doi" in ids and "doi" not in links:
        links["doi"] = f"https://doi.org/{ids['doi']}"
    if "openreview" in ids and "openreview" not in links:
        links["openreview"] = f"https://openreview.net/forum?id={ids['openreview']}"
    return Record(
        source=source, file=file, key=key, venue=venues.canonical(venue), year=year, title=t,
        authors=authors, links=links, ids=ids, **fields,
    )
