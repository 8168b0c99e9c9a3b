"""Venues and conference-years: the venue directory, one venue's years, one conference-year's
complete list, what the library holds of each (coverage), and the corpus figures.

Language-neutral data: names are the registry's English ones (``field`` is a key the site
translates), paths carry no language prefix. The site, the API, MCP and the CLI all read these.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypedDict

from .. import venues as venue_registry
from ..models import ACCEPTED_STATUSES
from ..sources import SOURCE_TITLES
from ..store import ListFilter
from ..store.rows import CorpusStats, VenueRow, VenueYear, YearSourceFile
from ..taxonomy import taxonomy
from .errors import N_, BadRequest, Moved, NotFound
from .home import Home
from .papers import summary
from .paths import format_links, href, venue_feed, venue_path
from .requests import ListRequest, list_request
from .reviews import stats_path, venue_series
from .types import (
    CountLink,
    Coverage,
    CoverageRow,
    FeaturedProceedings,
    LatestProceedings,
    PaperSummary,
    Stats,
    VenueDetail,
    VenueList,
    VenueSummary,
    VenueYearList,
    VenueYearRow,
    YearCoverage,
    YearSource,
)

KIND_ORDER = ("conference", "journal", "workshop")
FIELD_ORDER = ("ml", "cv", "nlp", "ai", "robotics", "data-mining", "web", "graphics", "multimedia", "theory",
               "science", "health")


class CoverageTableRow(TypedDict):
    """A venue-year in the site's coverage table (``coverage_table``)."""

    venue: str
    short: str
    kind: str
    year: int
    href: str
    papers: int
    with_abstract: int
    with_authors: int
    updated: str | None
    sources: list[str]          # the sources' display names


# --- the corpus -----------------------------------------------------------------------------
def venue_rows(home: Home) -> dict[str, VenueRow]:
    """Every venue with papers, keyed by venue key (``store.venue_rows``, cached)."""
    rows: dict[str, VenueRow] = home.cache.get(
        "venue_rows", lambda: {r["key"]: r for r in home.store.venue_rows() if r["papers"]})
    return rows


def corpus_stats(home: Home) -> CorpusStats:
    stats: CorpusStats = home.cache.get("stats", home.store.stats)
    return stats


def stats(home: Home) -> Stats:
    """The corpus figures and when a source file was last ingested."""
    return {**corpus_stats(home), "last_ingest": home.cache.get("last_ingest", home.store.last_ingest)}


def venue_summary(row: VenueRow) -> VenueSummary:
    """A venue row as a list shows it."""
    return {"key": row["key"], "short": row["short"], "name": row["name"], "kind": row["kind"],
            "field": row["field"], "parent": row["parent"], "aliases": row["aliases"],
            "papers": row["papers"], "accepted": row["accepted"], "years": row["years"],
            "href": venue_path(row["key"])}


def conferences(home: Home) -> VenueList:
    """Every venue with papers: conferences first, then journals and workshops; busiest first."""
    order = {k: i for i, k in enumerate(KIND_ORDER)}
    rows = sorted(venue_rows(home).values(), key=lambda r: (order.get(r["kind"], 3), -r["papers"], r["key"]))
    return {"venues": [venue_summary(r) for r in rows], "total": len(rows)}


def by_field(home: Home, kinds: tuple[str, ...], top_level: bool) -> list[tuple[str, list[VenueSummary]]]:
    """(field key, venues) of the venues of these kinds, fields in a fixed order, venues by paper
    count with each sub-venue (Findings of ACL) right after its parent."""
    groups: dict[str, list[VenueSummary]] = {}
    for row in venue_rows(home).values():
        if row["kind"] in kinds and not (top_level and row["parent"]):
            groups.setdefault(row["field"], []).append(venue_summary(row))
    order = {f: i for i, f in enumerate(FIELD_ORDER)}
    return [(f, _parents_first(vs))
            for f, vs in sorted(groups.items(), key=lambda kv: (order.get(kv[0], 99), kv[0]))]


def _parents_first(vs: list[VenueSummary]) -> list[VenueSummary]:
    by_key = {v["key"]: v for v in vs}

    def head(v: VenueSummary) -> VenueSummary:
        return by_key.get(v["parent"] or "", v)

    return sorted(vs, key=lambda v: (-head(v)["papers"], head(v)["short"], v["key"] != head(v)["key"],
                                     -v["papers"], v["short"]))


def latest_proceedings(home: Home, limit: int = 40) -> list[LatestProceedings]:
    """Each conference's newest year, this year's and last year's only: the newest year first, and
    within a year the largest proceedings first (that year's accepted papers, not the venue's all-
    time total), each with its paper count."""
    rows = venue_rows(home)
    newest = max((r["years"][-1] for r in rows.values() if r["kind"] == "conference" and r["years"]),
                 default=None)
    if newest is None:
        return []
    out: list[LatestProceedings] = []
    for r in rows.values():
        if r["kind"] != "conference" or r["parent"] or not r["years"] or r["years"][-1] < newest - 1:
            continue
        y = r["years"][-1]
        c = next(c for c in year_rows(home, r["key"]) if c["year"] == y)
        out.append({"key": r["key"], "short": r["short"], "year": y, "href": venue_path(r["key"], y),
                    "papers": c["accepted"] or c["total"], "with_authors": c["with_authors"],
                    "with_abstract": c["with_abstract"], "listed": c["total"],
                    "titles_only": max(c["with_authors"], c["with_abstract"]) < 0.05 * c["total"]})
    # newest first: the year, then the month the conference meets (NeurIPS in December after ICML)
    out.sort(key=lambda x: (-x["year"], -venue_registry.month(x["key"]), -x["papers"], x["short"].lower()))
    return out[:limit]


FEATURED_PAPERS = 10


def featured_proceedings(home: Home, per: int = FEATURED_PAPERS) -> FeaturedProceedings | None:
    """The newest proceedings (latest_proceedings' order) whose papers mostly have their authors,
    with the first papers of its list: what a researcher opening the site wants to see first."""
    for r in latest_proceedings(home):
        if r["with_authors"] < 0.8 * r["listed"]:
            continue
        d = conference_year(home, r["key"], str(r["year"]), list_request(per_page=per))
        statuses = [s["value"] for s in d["status_counts"] if s["value"] in ACCEPTED_STATUSES]
        return {"venue": d["venue"], "year": r["year"], "href": r["href"],
                "stats_href": stats_path(r["key"], r["year"]), "papers": d["papers"], "total": r["papers"],
                "statuses": statuses, "with_abstract": r["with_abstract"]}
    return None


# --- one venue ------------------------------------------------------------------------------
def canonical_venue(home: Home, name: str, rest: str = "") -> str:
    """The venue key for a URL segment; aliases and other spellings move, unknown ones are 404."""
    key = venue_registry.resolve(name) or name.lower()
    if key not in venue_rows(home):
        raise NotFound(N_("We have no papers from this venue."), name[:120])
    if key != name:
        raise Moved(venue_path(key) + rest)
    return key


def year_rows(home: Home, key: str) -> list[VenueYear]:
    """``store.venue_year_counts`` of a venue (cached)."""
    rows: list[VenueYear] = home.cache.get(("venue_years", key), lambda: home.store.venue_year_counts(key))
    return rows


def venue(home: Home, name: str) -> VenueDetail:
    """A venue: its years with paper, status and coverage counts (newest first), related venues."""
    key = canonical_venue(home, name)
    v = venue_registry.get(key)
    rows = venue_rows(home)
    years: list[VenueYearRow] = [
        {"year": r["year"], "href": venue_path(key, r["year"]), "total": r["total"],
         "accepted": r["accepted"], "oral": r["statuses"].get("oral", 0),
         "spotlight": r["statuses"].get("spotlight", 0) + r["statuses"].get("highlight", 0),
         "poster": r["statuses"].get("poster", 0),
         "rejected": sum(r["statuses"].get(s, 0) for s in ("rejected", "withdrawn", "desk-rejected")),
         "with_abstract": r["with_abstract"], "with_authors": r["with_authors"], "updated": r["updated"]}
        for r in reversed(year_rows(home, key))]
    related = [venue_summary(rows[k]) for k in venue_registry.children(key) if k in rows]
    if v.parent and v.parent in rows:
        related.insert(0, venue_summary(rows[v.parent]))
    return {"venue": {"key": key, "short": v.short, "name": v.name, "kind": v.kind, "field": v.field,
                      "field_name": venue_registry.FIELDS.get(v.field, (v.field,))[0],
                      "href": venue_path(key), "papers": rows[key]["papers"],
                      "accepted": rows[key]["accepted"]},
            "years": years, "related": related, "stats": venue_series(home, key),
            "totals": {k: sum(y[k] for y in years) for k in ("oral", "spotlight", "poster", "rejected")},
            "links": format_links(venue_path(key), [], exports=False, atom=venue_feed(key))}


# --- one conference-year ----------------------------------------------------------------------
def venue_year(home: Home, name: str, year_s: str, rest: str = "") -> tuple[str, int, VenueRow]:
    """(venue key, year, venue row) of a conference-year: unknown venues and years are 404s,
    aliases move (to the same resource: ``rest`` is the path after the year)."""
    if not year_s.isdigit() or len(year_s) != 4:
        raise NotFound(N_("There is no such year."), year_s[:20])
    year = int(year_s)
    key = canonical_venue(home, name, f"/{year}{rest}")
    row = venue_rows(home)[key]
    if year not in row["years"]:
        newest, short = row["years"][-1], row["short"]
        raise NotFound(N_("We have no papers from this venue in this year."), f"{short} {year}", hints=[
            {"label": N_("%(venue)s %(year)s, its newest year"), "args": {"venue": short, "year": newest},
             "href": venue_path(key, newest) + rest},
            {"label": N_("Every year of %(venue)s"), "args": {"venue": short}, "href": venue_path(key)}])
    return key, year, row


def list_filter(lr: ListRequest) -> ListFilter:
    """The store's filter: statuses when given, else the decision (accepted papers by default)."""
    accepted = None if lr.statuses or lr.decision == "all" else lr.decision == "accepted"
    return ListFilter(statuses=lr.statuses, track=lr.track, words=lr.words, accepted=accepted, sort=lr.sort,
                      topics=taxonomy().leaves(lr.topic) if lr.topic else [])


def _topic_links(home: Home, key: str, year: int, lr: ListRequest, top: int = 12) -> list[CountLink]:
    """The conference-year's busiest topics (accepted papers), each a link that narrows the list
    to it (or, when it is the filter, widens it again)."""
    counts: dict[str, int] = {}
    for (slug, _y, _v), n in home.cache.get(("topic_counts", key, year),
                                            lambda: home.store.topic_counts(venue=key, year=year)).items():
        counts[slug] = counts.get(slug, 0) + n
    best = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    if lr.topic and lr.topic not in dict(best):
        best.append((lr.topic, counts.get(lr.topic, 0)))
    return [{"value": s, "count": n, "active": s == lr.topic,
             "href": list_href(key, year, lr, topic=None if s == lr.topic else s, page=None)}
            for s, n in best]


def list_params(lr: ListRequest) -> list[tuple[str, Any]]:
    """A list's filters as URL parameters (its exports hold the whole filtered list)."""
    return ([("q", lr.q)] + [("status", s) for s in lr.statuses] + [("track", lr.track)]
            + [("decision", lr.decision if lr.decision != "accepted" else None),
               ("sort", lr.sort if lr.sort != "decision" else None), ("topic", lr.topic)])


def list_ids(home: Home, name: str, year_s: str, lr: ListRequest, limit: int) -> tuple[str, int, list[str]]:
    """(venue key, year, ids) of a conference-year's (filtered) list in its order, at most ``limit``."""
    key, year, _ = venue_year(home, name, year_s)
    return key, year, [r["id"] for r in home.store.list_papers(key, year, list_filter(lr), limit=limit)[1]]


def year_coverage(home: Home, key: str, year: int) -> YearCoverage:
    """What the library holds of a conference-year: how many papers have an abstract and authors,
    and which sources gave them, when each was last ingested."""
    row = next((r for r in year_rows(home, key) if r["year"] == year), None)
    files: list[YearSourceFile] = home.cache.get(("year_sources", key, year),
                                                 lambda: home.store.venue_year_sources(key, year))
    papers: dict[str, int] = home.cache.get(("year_source_papers", key, year),
                                            lambda: home.store.venue_year_source_papers(key, year))
    by_source: dict[str, YearSource] = {}
    for f in files:
        s = by_source.setdefault(f["source"], {"source": f["source"],
                                               "name": SOURCE_TITLES.get(f["source"], f["source"]),
                                               "papers": papers.get(f["source"], 0),
                                               "updated": f["ingested_at"]})
        s["updated"] = max(s["updated"], f["ingested_at"])
    return {"papers": row["total"] if row else 0, "with_abstract": row["with_abstract"] if row else 0,
            "with_authors": row["with_authors"] if row else 0, "updated": row["updated"] if row else None,
            "sources": sorted(by_source.values(), key=lambda s: -s["papers"])}


def per_page_value(lr: ListRequest) -> str:
    """``per_page`` as the list's URLs write it ("100", "250" …, "all")."""
    return "all" if lr.per_page is None else str(lr.per_page)


def list_href(key: str, year: int, lr: ListRequest, **change: Any) -> str:
    """The address of a conference-year's list with some of its parameters changed (``status``,
    ``track``, ``q``, ``per_page``, ``page``; None drops one)."""
    per_raw = per_page_value(lr)
    state: dict[str, Any] = {"q": lr.q, "status": lr.statuses, "track": lr.track,
                             "per_page": per_raw if per_raw != "100" else None, "decision": lr.decision,
                             "sort": lr.sort, "topic": lr.topic}
    state.update(change)
    decision = state["decision"] if state["decision"] != "accepted" else None
    sort = state["sort"] if state["sort"] != "decision" else None
    return href(venue_path(key, year), [("q", state["q"])] + [("status", s) for s in state["status"] or []]
                + [("track", state["track"]), ("topic", state["topic"]), ("decision", decision),
                   ("sort", sort), ("per_page", state["per_page"]), ("page", state.get("page"))])


# Whole conference-year lists ("all", the triage view of a proceedings: 5,800 papers for NeurIPS
# 2025, ~0.3 s to read from the store) kept for the few most recently asked, until the store changes.
FULL_LISTS = 6


def _full_list(home: Home, key: str, year: int, flt: ListFilter) -> tuple[int, list[PaperSummary]]:
    lists: OrderedDict[Any, tuple[int, list[PaperSummary]]] = home.cache.get(("full_lists",), OrderedDict)
    k = (key, year, repr(flt))            # every field of the filter (a dataclass)
    got = lists.get(k)
    if got is None:
        total, cards = home.store.list_papers(key, year, flt, limit=None)
        got = lists[k] = (total, [summary(c) for c in cards])
        while len(lists) > FULL_LISTS:
            lists.popitem(last=False)
    else:
        lists.move_to_end(k)
    return got[0], list(got[1])


def conference_year(home: Home, name: str, year_s: str, lr: ListRequest) -> VenueYearList:
    """One page of a conference-year's complete list (best status first, then by title), with its
    filters, the counts of each status and track, and its coverage."""
    key, year, row = venue_year(home, name, year_s)
    per_page = lr.per_page
    total, papers, pages = _list_page(home, key, year, lr)
    whole = home.cache.get(("list_facets", key, year), lambda: home.store.list_facets(key, year))
    facets = home.store.list_facets(key, year, lr.words) if lr.words else whole   # counts follow the words
    base = venue_path(key, year)
    per_raw = per_page_value(lr)

    def link(**change: Any) -> str:
        return list_href(key, year, lr, **change)

    status_counts, decision_counts, track_counts = _count_links(facets, lr, link)
    years = sorted(row["years"])
    i = years.index(year)
    return {
        "venue": {"key": key, "short": row["short"], "name": row["name"], "href": venue_path(key)},
        "year": year, "total": total, "year_total": sum(whole["status"].values()),
        "papers": papers,
        "filters": {"q": lr.q, "status": lr.statuses, "track": lr.track, "per_page": per_raw,
                    "decision": lr.decision, "sort": lr.sort, "topic": lr.topic},
        "topic_counts": _topic_links(home, key, year, lr),
        "status_counts": status_counts, "decision_counts": decision_counts,
        "track_counts": track_counts if len(track_counts) > 1 or lr.track else [],
        "pagination": {"page": lr.page, "pages": pages, "per_page": per_page,
                       "prev": link(page=lr.page - 1 if lr.page > 2 else None) if lr.page > 1 else None,
                       "next": link(page=lr.page + 1) if lr.page < pages else None,
                       "first_index": (lr.page - 1) * (per_page or 0) + 1},
        "coverage": year_coverage(home, key, year),
        "prev_year": years[i - 1] if i > 0 else None,
        "next_year": years[i + 1] if i + 1 < len(years) else None,
        "links": format_links(base, list_params(lr), [("per_page", per_raw if per_raw != "100" else None),
                                                      ("page", lr.page if lr.page != 1 else None)],
                              atom=venue_feed(key)),
    }


def _list_page(home: Home, key: str, year: int, lr: ListRequest) -> tuple[int, list[PaperSummary], int]:
    """(papers matching, the page's papers, pages) of a conference-year's list; a page past the
    last is a BadRequest that links the last."""
    flt = list_filter(lr)
    per_page = lr.per_page
    if per_page is None:
        total, papers = _full_list(home, key, year, flt)
    else:
        total, cards = home.store.list_papers(key, year, flt, offset=(lr.page - 1) * per_page, limit=per_page)
        papers = [summary(c) for c in cards]
    pages = 1 if per_page is None else max(1, -(-total // per_page))
    if lr.page > pages:
        raise BadRequest(N_("This page number is past the last page."), f"page={lr.page} (1–{pages})",
                         hints=[{"label": N_("The last page (%(page)s)"), "args": {"page": pages},
                                 "href": list_href(key, year, lr, page=pages if pages > 1 else None)}])
    return total, papers, pages


def _count_links(facets: dict[str, dict[str | None, int]], lr: ListRequest,
                 link: Callable[..., str]) -> tuple[list[CountLink], list[CountLink], list[CountLink]]:
    """The list's status, decision and track counts, each a link that adds or removes its filter
    (decisions only where rejected papers are listed)."""
    status_counts: list[CountLink] = [
        {"value": s or "unknown", "count": n, "active": (s or "unknown") in lr.statuses,
         "href": link(status=[x for x in lr.statuses if x != (s or "unknown")]
                      if (s or "unknown") in lr.statuses else lr.statuses + [s or "unknown"])}
        for s, n in facets["status"].items()]
    track_counts: list[CountLink] = [{"value": t, "count": n, "active": t == lr.track,
                                      "href": link(track=None if t == lr.track else t)}
                                     for t, n in facets["track"].items() if t]
    by_decision = {d: facets["decision"].get(d, 0) for d in ("accepted", "not-accepted")}
    decision_counts: list[CountLink] = [
        {"value": d, "count": n, "active": not lr.statuses and lr.decision == d,
         "href": link(decision=d, status=[], page=None)}
        for d, n in (*by_decision.items(), ("all", sum(by_decision.values())))
    ] if by_decision["not-accepted"] else []
    return status_counts, decision_counts, track_counts


# --- coverage -------------------------------------------------------------------------------
def coverage(home: Home, venue_name: str | None = None) -> Coverage:
    """Per venue and year: papers, accepted, with abstract and authors, and the source files behind
    them (every venue-year, or one venue's)."""
    key = None
    if venue_name:
        key = venue_registry.resolve(venue_name) or venue_name.lower()
        if key not in venue_rows(home):
            raise NotFound(N_("We have no papers from this venue."), venue_name[:120])
    rows: list[CoverageRow] = home.cache.get(("coverage", key), lambda: home.store.coverage(key))
    return {"rows": rows, "total": len(rows)}


def coverage_table(home: Home) -> list[CoverageTableRow]:
    """Every venue-year, newest years first, then the largest: its papers, how many have an
    abstract and authors, when its sources were last ingested, which they are ("titles only" at a
    glance)."""
    rows = venue_rows(home)
    out: list[CoverageTableRow] = [
        {"venue": r["venue"], "short": rows[r["venue"]]["short"] if r["venue"] in rows else r["venue"],
         "kind": rows[r["venue"]]["kind"] if r["venue"] in rows else "conference", "year": r["year"],
         "href": venue_path(r["venue"], r["year"]), "papers": r["papers"],
         "with_abstract": r["with_abstract"], "with_authors": r["with_authors"], "updated": r["updated"],
         "sources": sorted({SOURCE_TITLES.get(s["source"], s["source"]) for s in r["sources"]})}
        for r in coverage(home)["rows"]]
    out.sort(key=lambda r: (-r["year"], -r["papers"], r["venue"]))
    return out
