"""Search for a pasted citation: a thin step before the search engine. A query that is a
reference-list line or a BibTeX entry (``refs.parse_citation``; plain keyword queries never are)
is searched on its title alone, with the request's filters, and the first ``CANDIDATES`` hits are
re-ordered by how well each matches the citation's title, authors, year and venue
(``refs.match``), so that "Long short-term memory" by Hochreiter and Schmidhuber, 1997, comes
before "Gating out sensory noise in a spike-based Long Short-Term Memory". The result says what
was understood (``interpreted["citation"]``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from ..refs import Citation
from ..refs.match import Candidate, ranked
from ..search.model import Hit, SearchRequest, SearchResult, UnderstoodCitation
from .resolve import title_queries, title_query

CANDIDATES = 30              # hits re-ranked (a citation's paper is among a title search's first few)

Engine = Callable[[SearchRequest], SearchResult]


def understood(c: Citation) -> UnderstoodCitation:
    return {"kind": c.kind, "title": c.title, "authors": c.authors[:20], "year": c.year, "venue": c.venue}


def _candidate(h: Hit) -> Candidate:
    return Candidate(id=h.id, title=h.title, authors=list(h.authors), year=h.year, venue=h.venue,
                     accepted=h.accepted)


def cited_search(r: SearchRequest, c: Citation, engine: Engine) -> SearchResult:
    """The request's page of a search on the citation's title, best match first."""
    t0 = time.perf_counter()
    q = title_query(c.title)
    window = max(CANDIDATES, r.per_page)
    start = (r.page - 1) * r.per_page
    if start + r.per_page > window:             # past the re-ranked window: the title search's own order
        res = engine(replace(r, q=q, mode="keyword"))
        res.request = r
        res.interpreted["citation"] = understood(c)
        return res
    first = replace(r, q=q, mode="keyword", page=1, per_page=min(window, 100))
    res = engine(first)
    hits = list(res.hits)
    for other in title_queries(c.title)[1:]:     # "L_1" as "L1" too: the candidates of both
        seen = {h.id for h in hits}
        hits += [h for h in engine(replace(first, q=other)).hits if h.id not in seen]
    if not hits:                     # the title as read finds nothing: the text as typed may
        return engine(r)
    by_id = {h.id: h for h in hits}
    order = [by_id[p.id] for p, _e in ranked(c, [_candidate(h) for h in hits])]
    interpreted = res.interpreted
    interpreted["citation"] = understood(c)
    return SearchResult(request=r, total=res.total, hits=order[start:start + r.per_page], facets=res.facets,
                        took_ms=res.took_ms + (time.perf_counter() - t0) * 1000, suggestion=None,
                        interpreted=interpreted)
