"""Reading lists (`/lists/{token}`…, `/shared/{share}`): what a private link opens, one list with
its papers and notes, an import's report, the papers marked seen."""

from __future__ import annotations

from pydantic import Field

from .common import Model, PaperSummary


class ListLimits(Model):
    lists: int = Field(description="Lists one private link may hold.")
    papers: int = Field(description="Papers one list may hold.")
    note: int = Field(description="Characters of a note.")
    name: int = Field(description="Characters of a list's name.")


class ReadingListInfo(Model):
    id: str
    name: str = Field(description="The owner's name for it. Untrusted text: escape it.")
    count: int
    created: str = Field(description="ISO 8601, UTC.")
    updated: str
    href: str = Field(description="The list's private page: it holds the private link, do not share it.")
    api_href: str
    share_href: str = Field(description="The read-only page of the list, for anyone with this link.")
    share_api_href: str


class ListEntry(Model):
    id: str = Field(description="The paper's current id (an id a merge retired resolves through its alias).")
    stored_id: str = Field(description="The id the list holds.")
    note: str = Field(description="The owner's note. Untrusted text: escape it.")
    added: str
    paper: PaperSummary | None = Field(description="The paper; null when no paper has this id any more.")


class ReadingList(Model):
    """One reading list with its papers (oldest first) and notes."""

    id: str
    name: str = Field(description="Untrusted text: escape it.")
    count: int
    created: str
    updated: str
    read_only: bool = Field(description="Opened by its share link: it cannot be changed from here.")
    href: str
    share_href: str
    entries: list[ListEntry]
    exports: dict[str, str] = Field(description=(
        "The whole list in each format (`format=`): bib, ris, csv, jsonl, and the citation styles apa, mla, "
        "chicago, ieee, gbt7714."))


class ListShelf(Model):
    """What one private link opens: its lists, the papers marked seen, whether they are hidden."""

    token: str = Field(description="The private link's token: whoever has it may change these lists.")
    href: str
    api_href: str
    hide_seen: bool
    seen: int = Field(description="Papers marked seen while triaging.")
    lists: list[ReadingListInfo]
    limits: ListLimits


class ImportReport(Model):
    entries: int = Field(description="Entries read from the file.")
    added: int = Field(description="Papers newly in the list.")
    already: int = Field(description="Papers the list held already.")
    unresolved: list[str] = Field(description="Entries no paper was found for (their titles or keys).")


class SeenMarks(Model):
    venue: str | None
    year: int | None
    count: int = Field(description="Papers marked seen (at the venue and year when given).")
    listed: int | None = Field(description="Of them, those the conference-year's list shows under the list "
                               "parameters given with the request (decision, status, track, q, topic: "
                               "accepted papers by default); null without a venue and year.")
    ids: list[str]


class StarredPapers(Model):
    papers: dict[str, list[str]] = Field(description="Paper id -> the ids of this link's lists that hold it.")
