"""Papers and authors: one paper by any of its ids, its plain fields, its renderings and related
papers; an author's papers, venues and co-authors; papers similar to one; a paper in a list.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import quote, urlencode

from .. import venues as venue_registry
from .. import versions
from ..citation import bibtex
from ..cite import STYLES, cite
from ..cite import ris as ris_writer
from ..models import LINK_KINDS, Paper
from ..richtext import render_block, render_inline, render_markdown
from ..search.similar import similar_papers
from ..store import Store
from ..store.rows import Card
from ..taxonomy import taxonomy
from .errors import N_, Ambiguous, Moved, NotFound
from .home import Home
from .paths import author_path, paper_path, topic_path, venue_path
from .reviews import review_place, review_scores
from .types import (
    CiteText,
    CuratedList,
    ExternalId,
    Link,
    OtherVersion,
    PaperDetail,
    PaperFields,
    PaperSummary,
    SimilarPaper,
    SimilarPapers,
    TopicRef,
)

_HTTP = re.compile(r"^https?://[^\s<>\"'`\\]+$", re.IGNORECASE)
# External ids and where they lead.
_ID_URLS = {
    "doi": ("DOI", "https://doi.org/{}"),
    "arxiv": ("arXiv", "https://arxiv.org/abs/{}"),
    "openreview": ("OpenReview", "https://openreview.net/forum?id={}"),
    "acl": ("ACL Anthology", "https://aclanthology.org/{}"),
    "dblp": ("DBLP", "https://dblp.org/rec/{}"),
}
# What each link kind is called (the site translates these).
LINK_LABELS = {
    "pdf": N_("PDF"), "site": N_("Paper page"), "openreview": N_("OpenReview"), "oa": N_("Open access"),
    "proceedings": N_("Proceedings"), "arxiv": N_("arXiv"), "doi": N_("DOI"), "code": N_("Code"),
    "project": N_("Project page"), "supplementary": N_("Supplementary"), "video": N_("Video"),
    "slides": N_("Slides"), "poster": N_("Poster"), "reviews": N_("Reviews"),
    "openreview-search": N_("Find on OpenReview"),
}
ABSTRACT_HEAD = 420          # characters of the abstract a list shows (store cards cut it in SQL)
_GITHUB = re.compile(r"^https://github\.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


def find_paper(home: Home, ref: str) -> Paper:
    """The paper for an id. A retired id, an external id (DOI, arXiv …) or another case moves to
    the current id; an id several papers share is ``Ambiguous``; nothing is ``NotFound``."""
    store = home.store
    paper = store.get_paper(ref)
    if paper is not None:
        return paper
    hits = store.resolve_id(ref) or (store.resolve_id(ref.lower()) if ref != ref.lower() else [])
    if len(hits) == 1:
        raise Moved(paper_path(hits[0]))
    if hits:
        raise Ambiguous(hits)
    raise NotFound(N_("There is no paper with this id."), ref[:120])


def summary(c: Card) -> PaperSummary:
    """A store card (``store.cards``: what a list reads) as a paper in a list."""
    abstract = (c.get("abstract_head") or "").strip()
    return {"id": c["id"], "href": paper_path(c["id"]), "title": c["title"],
            "title_plain": c.get("title_plain") or c["title"],
            "authors": [{"name": a["name"], "key": a["key"]} for a in c["authors"]],
            "venue": c["venue"], "venue_short": venue_registry.get(c["venue"]).short, "year": c["year"],
            "status": c.get("status"), "accepted": bool(c.get("accepted", True)), "track": c.get("track"),
            "award": c.get("award"), "citations": c.get("citations"),
            "rating": c.get("rating"),
            "abstract_head": abstract + ("…" if len(abstract) >= ABSTRACT_HEAD else "")}


def summaries(home: Home, ids: list[str]) -> list[PaperSummary]:
    return [summary(c) for c in home.store.cards(ids)]


def _links(p: Paper) -> list[Link]:
    order = {k: i for i, k in enumerate(LINK_KINDS)}
    seen: set[str] = set()
    out: list[Link] = []
    for kind, url in sorted(p.links, key=lambda kv: (order.get(kv[0], 99), kv[1])):
        if url in seen or not _HTTP.match(url):
            continue
        seen.add(url)
        out.append({"kind": kind, "label": LINK_LABELS.get(kind, kind), "url": url})
    group = venue_registry.OPENREVIEW_GROUPS.get(p.venue)
    linked = any(k in ("openreview", "pdf", "site") for k, _ in p.links)
    if group and "openreview" not in p.ids and not linked:
        # a submission we know by title alone (ICLR 2025's rejected ones): OpenReview's search finds it
        out.append({"kind": "openreview-search", "label": LINK_LABELS["openreview-search"],
                    "url": "https://openreview.net/search?" + urlencode(
                        {"term": p.title_plain or p.title, "group": group.format(y=p.year),
                         "content": "all", "source": "forum"})})
    return out


def _ids(p: Paper) -> list[ExternalId]:
    out: list[ExternalId] = []
    for kind, value in sorted(p.ids.items()):
        name, pattern = _ID_URLS.get(kind, (kind, ""))
        url = pattern.format(quote(value, safe="/:.()-_~")) if pattern else ""
        out.append({"kind": kind, "name": name, "value": value, "url": url if _HTTP.match(url) else ""})
    return out


def paper_fields(p: Paper, lists: list[CuratedList]) -> PaperFields:
    """A paper's plain data: no HTML, no query. The paper resource adds its renderings to it, and
    the JSON Lines export writes it as is (so a line there and the API's paper have the same fields).
    ``lists``: the curated reading lists that include it (``curated_lists``)."""
    v = venue_registry.get(p.venue)
    cite = bibtex(p)
    return {
        "id": p.id, "href": paper_path(p.id), "title": p.title, "title_plain": p.title_plain,
        "authors": [{"name": a.name, "key": a.key, "href": author_path(a.key), "affiliation": a.affiliation}
                    for a in p.authors],
        "venue": {"key": p.venue, "short": v.short, "name": v.name, "href": venue_path(p.venue),
                  "year_href": venue_path(p.venue, p.year)},
        "year": p.year, "status": p.status, "accepted": p.accepted,
        "status_inferred": p.provenance.get("status", "").startswith("inferred:"),
        "author_order": "known" if p.author_order_known else "unknown",
        "track": p.track if p.track and p.track != "main" else None, "award": p.award,
        "abstract": p.abstract, "tldr": p.tldr, "summary_zh": p.summary_zh,
        "keywords": p.keywords, "primary_area": p.primary_area, "citations": p.citations,
        "institutions": p.institutions, "countries": p.countries, "review": review_scores(p),
        "links": _links(p), "ids": _ids(p),
        "bibtex": cite, "bibtex_from_source": bool(p.bibtex and cite == p.bibtex.strip()),
        "bib_href": paper_path(p.id) + ".bib",
        "sources": sorted({s.split(":", 1)[0] for s in p.sources}),
        "lists": lists,
    }


def curated_lists(store: Store, paper_id: str) -> list[CuratedList]:
    """The curated reading lists that include a paper (paperlist/curated): curated lists by name,
    then whole-conference dumps."""
    out: list[CuratedList] = []
    for name, row, info in store.paper_lists(paper_id):
        url = str(info.get("url") or "")
        if not _GITHUB.match(url):
            url = "https://github.com/" + quote(name, safe="/")
        chains = row.get("headings")
        chains = chains if isinstance(chains, list) else []
        out.append({"name": name, "url": url, "topic": str(info.get("topic") or ""),
                    "kind": "dump" if info.get("kind") == "dump" else "curated",
                    "headings": [[str(h) for h in c] for c in chains if isinstance(c, list)],
                    "date": str(info.get("date") or ""), "commit": str(info.get("commit") or "")})
    out.sort(key=lambda x: (x["kind"] == "dump", x["name"].lower(), x["name"]))
    return out


def export_record(store: Store) -> Callable[[Paper], PaperFields]:
    """What an export writes of a paper (its plain fields, with its curated lists)."""
    return lambda p: paper_fields(p, curated_lists(store, p.id))


def citation_source(p: Paper) -> tuple[str | None, str | None]:
    """The source that gave the paper's citation count and the day it was read, where known: the
    merge records both in the provenance (``citations``: the count's file, ``citations_as_of``;
    a store merged before merge version 7 is merged again by its next ingest)."""
    given = p.provenance.get("citations") if p.citations is not None else None
    if not given:
        return None, None
    when = p.provenance.get("citations_as_of")
    return given.split(":", 1)[0], when[:10] if isinstance(when, str) and _ISO_DATE.match(when) else None


def paper(home: Home, ref: str) -> PaperDetail:
    """One paper: its fields, their renderings, its topics, more by its authors, similar papers,
    the curated reading lists that include it and where its citation count comes from."""
    p = find_paper(home, ref)
    others = other_versions(home, p.id)
    twins = {v["id"] for v in others}
    more = summaries(home, [i for i in home.store.same_author_ids(p.id, limit=12 + len(twins))
                            if i not in twins][:12])
    found, method = similar_papers(home.searcher, p, limit=10)
    found = [(i, s) for i, s in found if i not in twins]
    source, as_of = citation_source(p)
    out: PaperDetail = {
        **paper_fields(p, curated_lists(home.store, p.id)),
        "title_html": render_inline(p.title), "abstract_html": render_block(p.abstract),
        "tldr_html": render_inline(p.tldr), "summary_zh_html": render_markdown(p.summary_zh),
        "more_by_authors": more, "versions": others, "topics": paper_topics(home, p),
        "similar": _scored(home, found),
        "similar_method": method, "review_place": review_place(home, p),
        "cite": cite_texts(p), "ris_href": paper_path(p.id) + ".ris",
        "citations_source": source,
    }
    if as_of:
        out["citations_as_of"] = as_of
    return out


def other_versions(home: Home, paper_id: str) -> list[OtherVersion]:
    """The other versions of a paper's work (versions.py), the published one first."""
    for work in versions.works(home.store.version_candidates([paper_id])):
        if any(v.id == paper_id for v in work):
            return [{"id": v.id, "href": paper_path(v.id), "venue": v.venue,
                     "venue_short": venue_registry.get(v.venue).short, "year": v.year, "status": v.status,
                     "published": i == 0} for i, v in enumerate(work) if v.id != paper_id]
    return []


def cite_texts(p: Paper) -> list[CiteText]:
    """The paper in every CSL style (APA, MLA, Chicago, IEEE, GB/T 7714-2015)."""
    return [{"style": k, "label": s.label, "text": cite(p, k), "href": f"{paper_path(p.id)}?format={k}"}
            for k, s in STYLES.items() if s.csl]


def citation(home: Home, ref: str, style: str) -> str:
    """A paper's reference in one style (``bibtex`` or a CSL style key), or its RIS record (``ris``)."""
    p = find_paper(home, ref)
    if style == "ris":
        return ris_writer.dumps([p])
    return cite(p, style) + "\n"


def _scored(home: Home, found: list[tuple[str, float]]) -> list[SimilarPaper]:
    by_id = {s["id"]: s for s in summaries(home, [pid for pid, _ in found])}
    return [{**by_id[pid], "score": round(score, 4)} for pid, score in found if pid in by_id]


def paper_topics(home: Home, p: Paper) -> list[TopicRef]:
    """The paper's topics, main first, with links to the topic and to it at this conference-year."""
    tax = taxonomy()
    out: list[TopicRef] = []
    for slug, score in home.store.paper_topics(p.id):
        t = tax.get(slug)
        if t is not None:
            out.append({"slug": slug, "name": t.en, "zh": t.zh, "score": score, "href": topic_path(slug),
                        "conference_href": topic_path(slug, p.venue, p.year)})
    return out


def bibtex_entry(home: Home, ref: str) -> str:
    """A paper's BibTeX entry alone (the .bib download)."""
    return bibtex(find_paper(home, ref)) + "\n"


def similar(home: Home, ref: str, limit: int = 10) -> SimilarPapers:
    """Papers similar to one paper: by vector when it has one, else by shared words."""
    p = find_paper(home, ref)
    found, method = similar_papers(home.searcher, p, limit)
    return {"id": p.id, "href": paper_path(p.id), "method": method, "papers": _scored(home, found)}
