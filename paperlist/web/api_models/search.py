"""A search (`/search`): the request as understood, the hits, facets and how the query was read."""

from __future__ import annotations

from pydantic import Field

from .common import FormatLinks, Model, PaperBrief, optional_key


class SearchQuery(Model):
    """The request as understood (defaults filled in, venue aliases resolved)."""

    q: str
    venues: list[str]
    year_from: int | None
    year_to: int | None
    statuses: list[str]
    topics: list[str] = Field(description="Topic and area slugs the results are restricted to.")
    rating_min: float | None = Field(description="The lowest mean review rating (inclusive; the query's "
                                                 "`rating:` filter is in `interpreted.filters`).")
    rating_max: float | None = Field(description="The highest mean review rating (inclusive).")
    sort: str
    mode: str
    page: int
    per_page: int


class OtherVersion(Model):
    """Another version of the same work: a submission, a workshop paper, a journal version."""

    id: str
    href: str
    venue: str
    venue_short: str
    year: int
    status: str | None
    published: bool = Field(description="This is the work's published version (the one searches show).")


class SearchHit(PaperBrief):
    """A paper a search found."""

    title_html: str = Field(description="The plain title, HTML-escaped, matches in <mark> (no other tag).")
    snippet_html: str = Field(description="A passage of the abstract, HTML-escaped, matches in <mark>; "
                                          "may be empty.")
    score: float = Field(description="Relevance score (0 for sorts other than relevance).")
    versions: list[OtherVersion] = Field(default_factory=list, description=(
        "The work's other versions (same title, a shared author, at most 3 years apart). A search "
        "without filters shows each work once, as its published version; filters find every version."))
    landmark: bool = Field(False, description=(
        "One of the topic's landmarks: among the library's most important papers (1,000+ citations "
        "or a name later papers write) and near the topic's centre by meaning, it is on the first "
        "page whether or not it has the query's words (with paper vectors, auto mode)."))
    lists: int = optional_key(
        "How many curated reading lists (the field's \"awesome\" lists on GitHub) include the paper; "
        "sent only when at least one does (see the paper's `lists`, and `sort=listed`).")


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
    rating_min: float = optional_key("The lowest mean review rating (`rating:>=6`); papers without "
                                     "ratings never match a rating filter.")
    rating_max: float = optional_key("The highest mean review rating (`rating:<=5.5`).")
    rating_min_exclusive: bool = optional_key("Sent (true) when `rating_min` itself is left out "
                                              "(`rating:>6`).")
    rating_max_exclusive: bool = optional_key("Sent (true) when `rating_max` itself is left out "
                                              "(`rating:<5`).")


class TranslatedTerm(Model):
    zh: str = Field(description="The Chinese as typed.")
    en: str = Field(description="The English searched for it.")
    learned: bool = Field(description="A guess learned from papers' Chinese summaries (the glossary "
                                      "lacks the word), not a glossary entry.")
    summaries: int = Field(description="How many papers' Chinese summaries have the word (0 for a "
                                       "glossary entry).")


class Translated(Model):
    """A Chinese query searched in English (AI terms translated with the glossary)."""

    from_: str = Field(alias="from", description="The query as typed.")
    to: str = Field(description="The query as searched.")
    terms: list[TranslatedTerm] = Field(description="The terms used: glossary entries and learned words.")
    unknown: list[str] = Field(description="Chinese that neither the glossary nor the summaries cover "
                                           "(not searched).")
    seeded: int = Field(description="When only such Chinese was typed: how many papers whose Chinese "
                                    "summary has it lead the results, followed by the papers nearest them.")


class SemanticUse(Model):
    requested: str = Field(description="The mode asked for: `auto`, `keyword`, `semantic` or `hybrid`.")
    used: bool = Field(description="Whether paper vectors (meaning) ranked the results.")
    unavailable: str | None = Field(description="Why vectors cannot be used, or null when they can.")


class UnderstoodCitation(Model):
    kind: str = Field(description="`reference` (a line of a reference list) or `bibtex` (an entry).")
    title: str = Field(description="The title it cites: what was searched.")
    authors: list[str] = Field(description="The authors as written.")
    year: int | None = Field(description="The year, when it gives one.")
    venue: str = Field(description="The venue as written (\"\" when none).")


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
    citation: UnderstoodCitation = optional_key(
        "The query is a pasted reference or BibTeX entry: it was searched on its title and the hits "
        "ordered by how well title, authors, year and venue match.")
    semantic: SemanticUse


class SearchLinks(FormatLinks):
    next: str | None = None
    prev: str | None = None


class EmptyReason(Model):
    """Why a filtered venue cannot give a hit: the data, not the words."""

    kind: str = Field(description="no-papers (none in the filtered years), no-decision (none with the "
                                  "asked statuses: `have` lists those there are), no-ratings (no rated "
                                  "papers for a rating filter).")
    venue: str
    venue_short: str
    years: str = Field(description="The filtered years: 2025, 2020–2024, or empty for any year.")
    href: str = Field(description="The venue-year's page (or the venue's).")
    have: list[str] = Field(description="With no-decision: the statuses its papers do have, most first.")


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
    nothing_found: list[EmptyReason] = Field(default_factory=list, description=(
        "With no hits: the filters the data cannot answer (a venue-year we have no papers or no such "
        "decisions from). Empty otherwise."))
    links: SearchLinks
