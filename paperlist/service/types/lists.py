"""Reading lists: what one private link opens (a shelf of named lists), one list with its papers
and notes, an import's report, the papers marked seen while triaging."""

from __future__ import annotations

from typing import TypedDict

from .common import PaperSummary


class ListLimits(TypedDict):
    lists: int
    papers: int
    note: int
    name: int


class ReadingListInfo(TypedDict):
    id: str
    name: str
    count: int
    created: str                 # ISO 8601, UTC
    updated: str
    href: str                    # the list's private page (holds the private link: do not share it)
    api_href: str
    share_href: str              # the read-only page anyone with this link may open
    share_api_href: str


class ListEntry(TypedDict):
    id: str                      # the paper's current id (an id a merge retired resolves through its alias)
    stored_id: str               # the id the list holds
    note: str
    added: str
    paper: PaperSummary | None   # None: no paper has this id any more


class ReadingList(TypedDict):
    id: str
    name: str
    count: int
    created: str
    updated: str
    read_only: bool
    href: str
    share_href: str
    entries: list[ListEntry]
    exports: dict[str, str]      # format -> address of the whole list in it


class ListShelf(TypedDict):
    token: str
    href: str
    api_href: str
    hide_seen: bool
    seen: int
    lists: list[ReadingListInfo]
    limits: ListLimits


class ImportReport(TypedDict):
    entries: int                 # entries read from the file
    added: int                   # papers newly in the list
    already: int                 # papers it held already (their notes updated when the file has one)
    unresolved: list[str]        # entries no paper was found for (their titles or keys)


class SeenMarks(TypedDict):
    venue: str | None
    year: int | None
    count: int
    listed: int | None          # of them, those the conference-year's list shows as filtered
    ids: list[str]


class StarredPapers(TypedDict):
    papers: dict[str, list[str]]
