"""The JSON API's response models: they make /openapi.json precise and document every field.

Handlers build plain dicts (from the same builders as the pages) and send them with orjson; these
models describe those dicts for the schema and are not run on each response (pydantic would cost
more than the search itself). The schemathesis test checks that every response matches them.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Model(BaseModel):
    # Responses may grow new fields; clients must ignore those they do not know.
    model_config = ConfigDict(extra="allow", populate_by_name=True)


def _absent() -> None:
    return None


def optional_key(description: str) -> Any:
    """A field the service sends only when it applies (a key of a ``total=False`` TypedDict): not
    required in the schema, yet neither nullable nor given a default there. (The models document
    responses and are not instantiated; pydantic's ``Field`` is typed ``Any`` without a default.)"""
    return Field(default_factory=_absent, description=description)


# --- shared pieces ----------------------------------------------------------------------------
class AuthorRef(Model):
    name: str = Field(description="The name as the chosen source writes it.")
    key: str = Field(description="Stable author key (`/api/v1/authors/{key}`); spellings of one "
                                 "name share it.")


class PaperAuthor(AuthorRef):
    href: str = Field(description="The author's page on the site.")
    affiliation: str | None = None


class VenueRef(Model):
    key: str = Field(description="Canonical venue key, e.g. `neurips`.")
    short: str = Field(description="Short name, e.g. `NeurIPS`.")
    name: str = Field(description="Full name.")
    href: str = Field(description="The venue's page on the site.")


class PaperBrief(Model):
    """What every list of papers shows of one."""

    id: str = Field(description="Paper id, e.g. `neurips2018-uhgcpawt` (stable across re-ingests).")
    href: str = Field(description="The paper's page on the site (the API's is `/api/v1` + href).")
    title: str = Field(description="Display title; may hold LaTeX or markdown. Untrusted text: escape it.")
    authors: list[AuthorRef]
    venue: str = Field(description="Venue key.")
    venue_short: str
    year: int
    status: str | None = Field(description="oral, spotlight, highlight, poster, accepted, "
                                           "rejected, withdrawn, desk-rejected, or null when no source says.")
    accepted: bool
    track: str | None = None
    citations: int | None = None


class PaperSummary(PaperBrief):
    """A paper in a conference's or an author's list."""

    title_plain: str = Field(description="The title as plain text.")
    award: str | None = None
    abstract_head: str = Field(description="The first 420 characters of the plain abstract ('…' when cut).")


class Link(Model):
    kind: str = Field(description="pdf, site, openreview, oa, proceedings, arxiv, doi, code, project …")
    label: str
    url: str = Field(description="An http(s) URL.")


class ExternalId(Model):
    kind: str = Field(description="doi, arxiv, openreview, acl …")
    name: str
    value: str
    url: str = Field(description="Where the id resolves, or an empty string.")


class Pagination(Model):
    page: int
    pages: int
    per_page: int | None = Field(description="Papers per page; null for the whole list at once.")
    prev: str | None = Field(description="The previous page (site path), or null.")
    next: str | None = Field(description="The next page (site path), or null.")
    first_index: int = Field(description="1-based position of the page's first paper in the list.")


class FormatLinks(Model):
    """The same resource in other formats (paths with their query)."""

    json_: str = Field(alias="json", description="This resource (this page of it) as JSON.")
    html: str = Field(description="The page on the site.")
    atom: str | None = None
    bib: str | None = None
    csv: str | None = None
    jsonl: str | None = None


# --- papers -----------------------------------------------------------------------------------
class PaperVenue(VenueRef):
    year_href: str = Field(description="The venue's page for the paper's year.")


class Paper(Model):
    """One paper, merged from every source that lists it."""

    id: str
    href: str
    title: str = Field(description="Display title (may hold LaTeX / markdown). Untrusted text: escape it.")
    title_plain: str
    title_html: str = Field(description="The title rendered: LaTeX math as MathML, emphasis as HTML "
                                        "(sanitized).")
    authors: list[PaperAuthor]
    venue: PaperVenue
    year: int
    status: str | None
    accepted: bool
    track: str | None = Field(description="The track when it is not the main one.")
    award: str | None
    abstract: str | None = Field(description="The abstract as the source gives it (LaTeX, markdown).")
    abstract_html: str = Field(description="The abstract rendered (MathML, emphasis, paragraphs; sanitized).")
    tldr: str | None
    tldr_html: str = Field(description="The TL;DR rendered like the title (empty when there is none).")
    summary_zh: str | None = Field(description="A Chinese summary, when a source has one.")
    summary_zh_html: str = Field(description="The Chinese summary rendered like the abstract (or empty).")
    keywords: list[str]
    primary_area: str | None
    institutions: list[str] = Field(default_factory=list, description=(
        "The authors' institutions as a source lists them for the paper, not matched to authors "
        "(e.g. ICML 2026, whose authors are not known yet)."))
    citations: int | None
    links: list[Link]
    ids: list[ExternalId]
    bibtex: str = Field(description="The source's BibTeX when it parses, else one generated from the fields.")
    bibtex_from_source: bool
    bib_href: str = Field(description="The BibTeX entry as a file.")
    sources: list[str] = Field(description="The source kinds that list the paper (papercopilot, acl …).")
    more_by_authors: list[PaperSummary] = Field(description="Other papers by the same authors.")
    topics: list[TopicRef] = Field(default_factory=list, description="The paper's topics, main topic first.")
    similar: list[SimilarPaper] = Field(default_factory=list,
                                        description="Similar papers (see /papers/{id}/similar).")
    similar_method: str = Field(description="How `similar` was found: `vectors`, `text` or `none` "
                                            "(as /papers/{id}/similar says).")


# --- search -----------------------------------------------------------------------------------
class SearchQuery(Model):
    """The request as understood (defaults filled in, venue aliases resolved)."""

    q: str
    venues: list[str]
    year_from: int | None
    year_to: int | None
    statuses: list[str]
    topics: list[str] = Field(description="Topic and area slugs the results are restricted to.")
    sort: str
    mode: str
    page: int
    per_page: int


class SearchHit(PaperBrief):
    """A paper a search found."""

    title_html: str = Field(description="The plain title, HTML-escaped, matches in <mark> (no other tag).")
    snippet_html: str = Field(description="A passage of the abstract, HTML-escaped, matches in <mark>; "
                                          "may be empty.")
    score: float = Field(description="Relevance score (0 for sorts other than relevance).")


class FacetValue(Model):
    value: str = Field(description="The filter value to send back (`venue=`, `year=`, `status=`).")
    label: str
    count: int = Field(description="Matching papers with this value (counted without this dimension's "
                                   "own filter).")
    selected: bool


class Facets(Model):
    venue: list[FacetValue] = Field(default_factory=list)
    year: list[FacetValue] = Field(default_factory=list)
    status: list[FacetValue] = Field(default_factory=list)
    topic: list[FacetValue] = Field(default_factory=list, description="Topics and areas (slugs).")


class InterpretedClause(Model):
    text: str
    field: str = Field(description="`any` (every text field), `title`, `authors`, `abstract` or `keywords`.")
    phrase: bool = Field(description="Quoted: the words must be adjacent, in order.")
    exclude: bool = Field(description="Papers matching it are left out (`-word`, `-\"…\"`).")


class InterpretedFilters(Model):
    """The filters in effect: the query's (`venue:`, `year:` …) and the parameters' merged. Only
    those set are sent; lists are OR-ed, different filters AND-ed."""

    venues: list[str] = Field(default_factory=list, description="Venue keys.")
    families: list[str] = Field(default_factory=list, description="Venue families: a venue with its "
                                                                  "sub-venues (`family:acl`).")
    year_from: int = optional_key("The first year.")
    year_to: int = optional_key("The last year.")
    statuses: list[str] = Field(default_factory=list)
    accepted: bool = optional_key("Accepted papers only (true) or the others (false).")
    tracks: list[str] = Field(default_factory=list)
    topics: list[str] = Field(default_factory=list, description="Topic and area slugs.")
    not_venues: list[str] = Field(default_factory=list, description="Venues left out (`-venue:`).")
    not_families: list[str] = Field(default_factory=list)
    not_statuses: list[str] = Field(default_factory=list)
    not_tracks: list[str] = Field(default_factory=list)
    not_topics: list[str] = Field(default_factory=list)
    not_years: list[tuple[int | None, int | None]] = Field(
        default_factory=list, description="Year ranges left out: [first, last] (null: open-ended).")


class TranslatedTerm(Model):
    zh: str = Field(description="The Chinese as typed.")
    en: str = Field(description="The English searched for it.")


class Translated(Model):
    """A Chinese query searched in English (AI terms translated with the glossary)."""

    from_: str = Field(alias="from", description="The query as typed.")
    to: str = Field(description="The query as searched.")
    terms: list[TranslatedTerm] = Field(description="The glossary terms used.")
    unknown: list[str] = Field(description="Chinese no glossary entry covers (not searched).")


class SemanticUse(Model):
    requested: str = Field(description="The mode asked for: `auto`, `keyword`, `semantic` or `hybrid`.")
    used: bool = Field(description="Whether paper vectors (meaning) ranked the results.")
    unavailable: str | None = Field(description="Why vectors cannot be used, or null when they can.")


class Interpreted(Model):
    """How the query was understood. `mode` and `semantic` are always sent, the other keys only
    when they apply."""

    mode: str = Field(description="What ranked the results: `keyword`, `hybrid`, `semantic`, or `browse` "
                                  "(no text to rank: filters only).")
    words: list[str] = Field(default_factory=list, description="The plain words, in order.")
    clauses: list[InterpretedClause] = Field(default_factory=list, description=(
        "Phrases, field clauses (`author:`, `title:` …) and exclusions."))
    filters: InterpretedFilters = optional_key("The filters in effect, when any is.")
    fuzzy: list[str] = Field(default_factory=list, description="Words matched with typos.")
    prefix: list[str] = Field(default_factory=list, description="The unfinished last word (matched as "
                                                                "a prefix).")
    corrected: dict[str, str] = Field(default_factory=dict, description="Rare words and the common ones "
                                                                        "searched instead.")
    match: str = optional_key("`all`, `most` or `any`: how many of the words a paper must have "
                              "(loosened when no paper has them all).")
    required_words: int = optional_key("How many word clauses a paper must match.")
    notes: list[str] = Field(default_factory=list, description=(
        "Syntax searched as text, unknown filter values, a mode that could not run."))
    translated: Translated = optional_key("A Chinese query and the English it was searched as.")
    semantic: SemanticUse


class SearchLinks(FormatLinks):
    next: str | None = None
    prev: str | None = None


class SearchResponse(Model):
    query: SearchQuery
    total: int = Field(description="Papers matching (all of them, not only this page).")
    pages: int = Field(description="Pages reachable with this per_page (page × per_page ≤ 10,000).")
    took_ms: float = Field(description="Time the search engine took.")
    hits: list[SearchHit]
    facets: Facets
    suggestion: str | None = Field(description="A corrected query ('did you mean'), when the words "
                                               "look misspelled.")
    interpreted: Interpreted = Field(description="How the query was understood: words, phrases, filters, "
                                                 "corrected words, notes on syntax that was "
                                                 "searched as text.")
    links: SearchLinks


# --- venues -----------------------------------------------------------------------------------
class VenueSummary(Model):
    key: str
    short: str
    name: str
    kind: str = Field(description="conference, journal or workshop.")
    field: str = Field(description="ml, cv, nlp, ai, robotics …")
    parent: str | None = Field(description="The parent venue of a sub-venue (Findings of ACL → acl).")
    aliases: list[str]
    papers: int
    accepted: int
    years: list[int]
    href: str


class VenueList(Model):
    venues: list[VenueSummary]
    total: int


class VenueYearRow(Model):
    year: int
    href: str
    total: int
    accepted: int
    oral: int
    spotlight: int = Field(description="Spotlight and highlight papers.")
    poster: int
    rejected: int = Field(description="Rejected, withdrawn and desk-rejected submissions.")
    with_abstract: int = Field(description="Papers whose abstract the library holds.")
    with_authors: int = Field(description="Papers whose authors the library holds.")
    updated: str | None = Field(description="When a source file behind this year was last ingested "
                                            "(ISO 8601, UTC).")


class YearSource(Model):
    source: str = Field(description="The source kind (papercopilot, aitopconf …).")
    name: str = Field(description="Its display name.")
    papers: int = Field(description="Papers of this conference-year it lists.")
    updated: str = Field(description="When its file was last ingested (ISO 8601, UTC).")


class YearCoverage(Model):
    """What the library holds of a conference-year."""

    papers: int
    with_abstract: int
    with_authors: int
    updated: str | None
    sources: list[YearSource]


class VenueInfo(VenueRef):
    kind: str
    field: str
    field_name: str
    papers: int
    accepted: int


class VenueDetail(Model):
    venue: VenueInfo
    years: list[VenueYearRow] = Field(description="Newest year first.")
    totals: dict[str, int]
    related: list[VenueSummary] = Field(description="The parent venue and sub-venues (Findings, workshops).")
    links: FormatLinks


class CountLink(Model):
    value: str
    count: int
    active: bool
    href: str


class ListFilters(Model):
    """A conference-year list's filters, as the request gave them."""

    q: str = Field(description="Keywords that must all appear in the title, an author or the abstract.")
    status: list[str] = Field(description="Statuses (OR-ed; `unknown`: no source says).")
    track: str | None
    per_page: str = Field(description="Papers per page as the list's URLs write it: `100`, `250` … or `all`.")


class VenueYearList(Model):
    venue: VenueRef
    year: int
    total: int = Field(description="Papers matching the filters.")
    year_total: int = Field(description="All papers of this conference-year.")
    papers: list[PaperSummary]
    filters: ListFilters
    status_counts: list[CountLink]
    track_counts: list[CountLink]
    pagination: Pagination
    prev_year: int | None
    next_year: int | None
    coverage: YearCoverage
    links: FormatLinks


# --- authors, corpus --------------------------------------------------------------------------
class AuthorVenue(Model):
    key: str
    short: str
    count: int
    href: str


class Coauthor(Model):
    key: str
    name: str
    papers: int
    href: str


class AuthorDetail(Model):
    key: str
    name: str
    href: str
    spellings: list[str] = Field(description="Other written forms of the name.")
    total: int
    first_year: int | None
    last_year: int | None
    papers: list[PaperSummary] = Field(description="Newest year first.")
    venues: list[AuthorVenue]
    coauthors: list[Coauthor]
    links: FormatLinks


class Stats(Model):
    papers: int
    accepted: int
    with_abstract: int
    venues: int = Field(description="Top-level venues (sub-venues such as Findings count with their parent).")
    venue_keys: int
    venue_years: int
    authors: int
    records: int = Field(description="Source records merged into the papers.")
    files: int
    sources: dict[str, int] = Field(description="Source files per source kind.")
    pending_merge: int
    last_ingest: str | None = Field(description="When a source file was last ingested (ISO 8601, UTC).")


class CoverageSource(Model):
    file: str
    source: str
    records: int
    ingested_at: str


class CoverageRow(Model):
    venue: str
    year: int
    papers: int
    accepted: int
    with_abstract: int
    with_authors: int = Field(description="Papers whose authors the library holds.")
    updated: str | None = Field(description="When a source file behind it was last ingested (ISO 8601, UTC).")
    sources: list[CoverageSource]


class Coverage(Model):
    rows: list[CoverageRow]
    total: int


class ApiIndex(Model):
    name: str
    version: str
    openapi: str
    docs: str
    endpoints: dict[str, str]


class Problem(Model):
    """An error (RFC 9457 problem details)."""

    type: str = Field(description="A URI reference naming the kind of problem; its anchor on /api "
                                  "explains it.")
    title: str
    status: int
    detail: str = Field(description="What went wrong and how to fix the request.")
    instance: str | None = None
    errors: list[dict[str, Any]] | None = Field(default=None, description="One entry per invalid parameter.")
    candidates: list[str] | None = Field(default=None,
                                         description="For an ambiguous id: the papers it names.")


# --- topics and similar papers (issue 7) --------------------------------------------------------
class TopicRef(Model):
    slug: str = Field(description="Topic slug (`/api/v1/topics/{slug}`; `topic:` in search).")
    name: str
    zh: str = Field(description="The topic's Chinese name.")
    score: float = Field(description="0..1: how clearly the paper is about the topic (first = main topic).")
    href: str
    conference_href: str = Field(description="The topic at the paper's conference-year (site page).")


class TopicSummary(Model):
    slug: str
    en: str
    zh: str
    desc_en: str
    desc_zh: str
    parent: str | None = Field(description="The area of a topic; null for an area.")
    papers: int = Field(description="Distinct papers with the topic (at any rank).")
    years: dict[str, int] = Field(description="Papers per year.")
    venues: dict[str, int] = Field(default_factory=dict, description="Papers at the busiest venues.")
    href: str


class TopicArea(TopicSummary):
    topics: list[TopicSummary]


class TopicList(Model):
    areas: list[TopicArea]
    venue: str | None = Field(description="Counts restricted to this venue, or null.")
    year: int | None = Field(description="Counts restricted to this year, or null.")
    topics: int


class VenueYearCount(Model):
    venue: str
    year: int
    papers: int


class TopicPaper(PaperSummary):
    topics: list[str] = Field(description="The paper's topic slugs, main topic first.")


class TopicFilters(Model):
    venue: str | None = Field(description="The venue the list is restricted to, or null.")
    year: int | None = Field(description="The year the list is restricted to, or null.")


class TopicDetail(Model):
    slug: str
    en: str
    zh: str
    desc: str
    is_area: bool
    parent: str | None
    topics: list[str] = Field(description="For an area, its topics.")
    papers: int
    years: dict[str, int]
    venues: dict[str, int]
    venue_years: list[VenueYearCount] = Field(description="Topic statistics: papers per venue and year.")
    filters: TopicFilters
    total: int = Field(description="Papers matching the venue/year filters.")
    pagination: Pagination
    list: list[TopicPaper]
    href: str


class SimilarPaper(PaperSummary):
    score: float = Field(description="Cosine similarity (method `vectors`) or BM25 score of the shared "
                                     "distinctive words (`text`).")


class SimilarPapers(Model):
    id: str
    href: str
    method: str = Field(description="`vectors` (by meaning), `text` (shared words: the paper has no vector) "
                                    "or `none` (no search index).")
    papers: list[SimilarPaper]

Paper.model_rebuild()
