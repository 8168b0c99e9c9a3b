"""Pieces every resource's models share: the base model, references to authors and venues, the
brief and summary forms of a paper in a list, links, pagination, and the API index and errors.
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
    rating: float | None = Field(None, description="Mean review rating (the mean of the reviewers' "
                                                   "ratings), null where no source gives reviews.")


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
