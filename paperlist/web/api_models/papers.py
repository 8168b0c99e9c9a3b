"""One paper (`/papers/{id}`) and the papers similar to it (`/papers/{id}/similar`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .common import ExternalId, Link, Model, PaperAuthor, PaperSummary, VenueRef, optional_key
from .reviews import ReviewPlace, ReviewScores
from .search import OtherVersion
from .topics import TopicRef


class PaperVenue(VenueRef):
    year_href: str = Field(description="The venue's page for the paper's year.")


class CiteText(Model):
    style: str = Field(description="The `format=` that gives this text alone: `apa`, `mla`, `chicago`, "
                                   "`ieee`, `gbt7714` (GB/T 7714-2015).")
    label: str
    text: str = Field(description="The reference in this style, plain text, rendered by citeproc-py from the "
                                  "style's CSL file. Untrusted text: escape it.")
    href: str = Field(description="The reference alone (`/papers/{id}?format=…`, text/plain).")


class CuratedList(Model):
    """A curated reading list (one of the field's "awesome" lists on GitHub) whose entries name the
    paper. Every field but `url` is the list's own text: untrusted, escape it."""

    name: str = Field(description="The list's repository, `owner/repo`.")
    url: str = Field(description="The repository on GitHub (`https://github.com/owner/repo`).")
    topic: str = Field(description="What the list is about, as the data describes it (may be empty).")
    kind: Literal["curated", "dump"] = Field(description=(
        "`curated`: a list someone chose papers for; `dump`: every paper of some conferences (weighs "
        "little; listed last)."))
    headings: list[list[str]] = Field(description=(
        "The headings above the paper's entries in the list, outermost first (at most 3 chains)."))
    date: str = Field(description="The date of the list's commit that was read (ISO 8601; may be empty).")
    commit: str = Field(description="That commit's hash.")


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
    status_inferred: bool = Field(default=False, description=(
        "The status is inferred, not a source's: the paper is among every public submission a source lists "
        "(ICLR 2024, 2026) and no source lists it as accepted, so it reads `rejected`."))
    author_order: Literal["known", "unknown"] = Field(default="known", description=(
        "`unknown` when the only author list is a source's alphabetical one (ICLR 2025's rejected and "
        "withdrawn submissions): `authors` is then not the paper's order, and no key or 'first author' "
        "is derived from it."))
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
    citations_source: str | None = Field(description=(
        "The source kind that gave `citations` (`papercopilot`: Google Scholar's count as Paper "
        "Copilot lists it; `openalex`), or null when there is no count."))
    citations_as_of: str = optional_key("The date of the citation count (ISO 8601), when its source "
                                        "gives one.")
    countries: list[str] = Field(description="The authors' countries as a source lists them.")
    review: ReviewScores | None = Field(description="Review scores, where a source gives them.")
    links: list[Link]
    ids: list[ExternalId]
    bibtex: str = Field(description=(
        "The source's BibTeX when it can be pasted as it is (one entry that parses, no empty field, "
        "balanced braces, no LaTeX escaped as text) and the author order is known; else one generated "
        "from the fields."))
    bibtex_from_source: bool
    bib_href: str = Field(description="The BibTeX entry as a file.")
    sources: list[str] = Field(description="The source kinds that list the paper (papercopilot, acl …).")
    lists: list[CuratedList] = Field(default_factory=list, description=(
        "The curated reading lists that include the paper: curated lists by name, then whole-conference "
        "dumps. Their number is a search hit's `lists`, and `sort=listed` orders by it."))
    more_by_authors: list[PaperSummary] = Field(description="Other papers by the same authors.")
    versions: list[OtherVersion] = Field(default_factory=list, description=(
        "Other versions of this work (same title, a shared author, at most 3 years apart), the "
        "published version first: the one searches show and exports cite."))
    topics: list[TopicRef] = Field(default_factory=list, description="The paper's topics, main topic first.")
    similar: list[SimilarPaper] = Field(default_factory=list,
                                        description="Similar papers (see /papers/{id}/similar).")
    similar_method: str = Field(description="How `similar` was found: `vectors`, `text` or `none` "
                                            "(as /papers/{id}/similar says).")
    review_place: ReviewPlace | None = Field(description="Where its mean rating sits in its conference-year.")
    cite: list[CiteText] = Field(description="The paper in APA, MLA, Chicago, IEEE and GB/T 7714-2015.")
    ris_href: str = Field(description="Its RIS record (`format=ris`), for EndNote, Zotero, Mendeley.")


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
