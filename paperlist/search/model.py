"""The search contract every interface (pages, API, CLI, MCP) shares.

A ``SearchRequest`` is what a user asked (free text in the query language plus explicit filters);
a ``SearchResult`` is what they get. The engine behind it lives in paperlist/search and
paperlist/index; callers only see these types and ``Searcher.search(request)``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, TypedDict

# rating: highest mean review rating first, unrated papers last; listed: in the most curated reading
# lists first (paperlist/curated), papers in none last
SORTS = ("relevance", "newest", "oldest", "title", "citations", "rating", "listed")
# auto: hybrid for natural-language queries when vectors exist
MODES = ("auto", "keyword", "semantic", "hybrid")
MAX_PER_PAGE = 100
MAX_WINDOW = 10_000          # page * per_page may not pass this
MAX_QUERY_CHARS = 1_000      # longer queries are cut, not refused


@dataclass(slots=True)
class SearchRequest:
    q: str = ""                                       # query language: words, "phrases", -x, field:value
    venues: list[str] = field(default_factory=list)   # venue keys or aliases ("nips" ok); OR-ed
    year_from: int | None = None
    year_to: int | None = None
    statuses: list[str] = field(default_factory=list)  # canonical statuses; OR-ed
    accepted: bool | None = None
    tracks: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)    # topic slugs (once topics exist)
    rating_min: float | None = None                    # mean review rating bounds; unrated papers never match
    rating_max: float | None = None
    rating_min_exclusive: bool = False                 # > rather than >= (the query language's rating:>6)
    rating_max_exclusive: bool = False
    sort: str = "relevance"                            # one of SORTS; browse mode defaults to status, title
    page: int = 1
    per_page: int = 20
    mode: str = "auto"                                 # one of MODES
    facets: bool = True                                # compute facet counts over the whole match set
    snippets: bool = True                              # highlighted title and abstract snippet


@dataclass(slots=True)
class Hit:
    id: str
    title: str                      # display form (may hold LaTeX / markdown), NOT escaped
    title_html: str                 # plain title, HTML-escaped, matches wrapped in <mark>
    authors: list[str]              # display names, in order
    author_keys: list[str]
    venue: str                      # canonical key
    venue_short: str                # "NeurIPS"
    year: int
    status: str | None
    accepted: bool
    track: str | None
    citations: int | None
    # snippet of the plain abstract, HTML-escaped, <mark> on matches; "" if none
    abstract_html: str
    score: float
    rating: float | None = None     # mean review rating, None when no source gives reviews
    # the work's other versions (versions.py): id, venue, year, status, published (the one shown)
    versions: list[dict[str, Any]] = field(default_factory=list)
    # one of the topic's landmarks (search.landmarks): shown for its importance and meaning, and
    # it may not have the query's words
    landmark: bool = False
    lists: int = 0                  # the curated reading lists that include it (paperlist/curated)


@dataclass(slots=True)
class FacetValue:
    value: str                      # the filter value ("neurips", "2024", "oral")
    label: str                      # what to show ("NeurIPS", "2024", "oral")
    count: int
    selected: bool = False          # this value is one of the request's filters


class InterpretedClause(TypedDict):
    """A phrase, a field clause or an exclusion of the query."""

    text: str
    field: str                  # "any", "title", "authors", "abstract", "keywords"
    phrase: bool
    exclude: bool


class InterpretedFilters(TypedDict, total=False):
    """The filters in effect (the query's and the request's merged; only those set)."""

    venues: list[str]
    families: list[str]
    year_from: int
    year_to: int
    statuses: list[str]
    accepted: bool
    tracks: list[str]
    topics: list[str]
    not_venues: list[str]
    not_families: list[str]
    not_statuses: list[str]
    not_tracks: list[str]
    not_topics: list[str]
    not_years: list[tuple[int | None, int | None]]
    rating_min: float
    rating_max: float
    rating_min_exclusive: bool
    rating_max_exclusive: bool


class TranslatedTerm(TypedDict):
    zh: str
    en: str
    learned: bool               # guessed from papers' Chinese summaries, not a glossary entry
    summaries: int              # how many summaries have the Chinese (0 for a glossary entry)


# A Chinese query translated to English: as typed ("from"), as searched ("to"), the terms used
# (glossary entries and words learned from summaries), the Chinese neither covered, and how many
# papers whose summary has that Chinese led the results when nothing else was left to search.
# ("from" is a keyword: the functional form.)
Translated = TypedDict("Translated", {"from": str, "to": str, "terms": list[TranslatedTerm],
                                      "unknown": list[str], "seeded": int})


class SemanticUse(TypedDict):
    requested: str              # the request's mode
    used: bool                  # vectors ranked the results
    unavailable: str | None     # why vectors cannot be used, or None


class UnderstoodCitation(TypedDict):
    """A pasted reference or BibTeX entry, as understood (``service.cited``)."""

    kind: str                   # "reference" (a reference-list line) or "bibtex"
    title: str
    authors: list[str]
    year: int | None
    venue: str


class Interpreted(TypedDict, total=False):
    """How a query was understood (``SearchResult.interpreted``): only the keys that apply are set.
    A search always sets ``mode`` and ``semantic`` (an empty SearchResult has none)."""

    mode: str                   # browse, keyword, hybrid or semantic: what ranked the results
    words: list[str]
    clauses: list[InterpretedClause]
    filters: InterpretedFilters
    fuzzy: list[str]            # words matched with typos
    prefix: list[str]           # the unfinished last word
    corrected: dict[str, str]   # rare word -> the common one searched instead
    match: str                  # all, most or any: how many words a paper must have
    required_words: int
    notes: list[str]            # syntax searched as text, unknown filter values, unavailable modes
    translated: Translated
    semantic: SemanticUse
    citation: UnderstoodCitation   # the query is a pasted citation: searched on its title, re-ranked


@dataclass(slots=True)
class SearchResult:
    request: SearchRequest
    total: int
    hits: list[Hit]
    facets: dict[str, list[FacetValue]]   # "venue", "year", "status", "topic"
    took_ms: float
    suggestion: str | None = None          # "did you mean" query, when matches are poor
    interpreted: Interpreted = field(default_factory=Interpreted)  # parsed filters, translated terms, notes

    @property
    def pages(self) -> int:
        per = max(1, self.request.per_page)
        return min((self.total + per - 1) // per, max(1, MAX_WINDOW // per))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (the API's response body)."""
        d = asdict(self)
        d["pages"] = self.pages
        d["took_ms"] = round(self.took_ms, 3)
        return d


def unavailable_note(mode: str, reason: str) -> str:
    """The note a search carries when the mode asked for could not run (``Interpreted.notes``)."""
    return f"{mode} search is unavailable: {reason}; keyword results"
