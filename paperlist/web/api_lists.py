"""Reading lists over the JSON API: create a private link, its lists, add and remove papers, notes,
seen marks, import a BibTeX or RIS file, export a list (BibTeX, RIS, CSV, JSON Lines, or a
bibliography in a citation style); a list's read-only share link.

Tokens are capabilities: every response here is ``no-store`` with ``Referrer-Policy: no-referrer``
(the middleware adds it to every list path), tokens never reach the logs (web/privacy.py), and
state changes need POST, PUT or DELETE from this site or from a client that is no browser
(web/csrf.py). Writes run in a worker thread: a write waits for the store's lock, never the loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

import anyio
import orjson
from fastapi import APIRouter, Body, Depends, Path, Query
from pydantic import BaseModel, Field
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from .. import exports
from ..cite.ris import MEDIA_TYPE as RIS_MEDIA_TYPE
from ..lists import limits
from ..models import STATUSES
from ..service import list_import as li
from ..service import lists as sl
from ..service.errors import N_, BadRequest
from ..service.paths import paper_path
from ..service.requests import YEAR_MAX, YEAR_MIN, ListRequest, list_request
from . import api_models as m
from .incoming import home, read_limited

router = APIRouter(tags=["lists"])          # included in web/api.py's router, under its /api/v1
T = TypeVar("T")
MAX_IMPORT_BYTES = 2_000_000
ExportFormat = Literal["json", "bib", "ris", "csv", "jsonl", "apa", "mla", "chicago", "ieee", "gbt7714"]
_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": m.Problem, "description": desc}
    for code, desc in ((400, "The body is not valid JSON."),
                       (403, "A state-changing request from another site's page."),
                       (404, "No list at this link (a malformed link answers the same)."),
                       (409, "A limit reached: lists per link, papers per list, seen marks."),
                       (413, "The body is larger than accepted."),
                       (422, "A parameter or the body is invalid."),
                       (429, "Too many requests, or too many writes, from this client (see Retry-After)."))}
Token = Annotated[str, Path(min_length=32, max_length=32, description="The private link's token.")]
ListId = Annotated[str, Path(pattern="^[0-9a-f]{16}$", description="A list's id.")]
Share = Annotated[str, Path(min_length=32, max_length=32, description="A list's share token.")]
PaperRef = Annotated[str, Path(max_length=200, description="A paper id (or a DOI, arXiv id …).")]
_EXPORT_CONTENT = {t.split(";")[0]: {"schema": {"type": "string"}}
                   for t in (*(exports.MEDIA_TYPES[f] for f in ("bib", "csv", "jsonl")), RIS_MEDIA_TYPE,
                             "text/plain")}
FormatQuery = Annotated[ExportFormat, Query(alias="format", description=(
    "`json` (default); the whole list as `bib`, `ris`, `csv`, `jsonl` (notes included: BibTeX `annote`, "
    "RIS `N1`, a `note` column or field), or a bibliography in `apa`, `mla`, `chicago`, `ieee`, `gbt7714`."))]


class NameBody(BaseModel):
    name: str = Field(min_length=1, max_length=limits.MAX_NAME)


class NoteBody(BaseModel):
    note: str | None = Field(default=None, max_length=limits.MAX_NOTE,
                             description="The note (omit to keep the note a paper already has).")


class SettingsBody(BaseModel):
    hide_seen: bool


def private(request: Request, data: Any, status: int = 200) -> Response:
    """A list's JSON: never stored by a cache (no ETag either: nothing to revalidate)."""
    return Response(orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS), status_code=status,
                    media_type="application/json", headers={"cache-control": "no-store"})


async def run(f: Callable[..., T], *args: Any) -> T:
    return await anyio.to_thread.run_sync(f, *args)


@router.post("/lists", response_model=m.ListShelf, status_code=201, summary="Create a private link",
             responses=_ERRORS)
async def create(request: Request, body: Annotated[NameBody | None, Body()] = None) -> Response:
    """A new private link holding one list (named `name`, or "Reading list"). Keep its `token`: it
    is the only way back to these lists, and whoever has it may change them."""
    shelf = await run(sl.create_shelf, home(request), body.name if body else sl.DEFAULT_NAME)
    return private(request, shelf, 201)


@router.get("/lists/{token}", response_model=m.ListShelf, summary="A private link's lists", responses=_ERRORS)
async def shelf(request: Request, token: Token) -> Response:
    return private(request, await run(sl.shelf, home(request), token))


@router.put("/lists/{token}", response_model=m.ListShelf, summary="Hide seen papers or show them",
            responses=_ERRORS)
async def settings(request: Request, token: Token, body: SettingsBody) -> Response:
    return private(request, await run(sl.set_hide_seen, home(request), token, body.hide_seen))


ListStatus = Literal[STATUSES + ("unknown",)]            # type: ignore[valid-type]


def _list_view(
    decision: Annotated[Literal["accepted", "not-accepted", "all"] | None, Query(description=(
        "With these list parameters (as `GET /conferences/{venue}/{year}` takes them), `listed` counts "
        "the seen marks that conference-year's list shows: accepted papers by default."))] = None,
    status: Annotated[list[ListStatus], Query(max_length=20)] = [],  # type: ignore[valid-type]  # noqa: B006
    track: Annotated[str | None, Query(max_length=100)] = None,
    q: Annotated[str, Query(max_length=200)] = "",
    topic: Annotated[str | None, Query(max_length=100)] = None,
) -> ListRequest | None:
    """The conference-year list a triage counter counts against, when the request names one."""
    if decision is None and not status and not track and not q and not topic:
        return None
    return list_request(statuses=status, track=track, q=q, decision=decision or "accepted", topic=topic)


ListView = Annotated[ListRequest | None, Depends(_list_view)]


@router.get("/lists/{token}/seen", response_model=m.SeenMarks, summary="Papers marked seen",
            responses=_ERRORS)
async def seen(request: Request, token: Token, view: ListView,
               venue: Annotated[str | None, Query(max_length=100)] = None,
               year: Annotated[int | None, Query(ge=YEAR_MIN, le=YEAR_MAX)] = None) -> Response:
    """The papers marked seen with this link (at one venue and year when given), in marking order."""
    return private(request, await run(sl.seen_marks, home(request), token, venue, year, view))


@router.put("/lists/{token}/seen/{ref:path}", response_model=m.SeenMarks, summary="Mark a paper seen",
            responses=_ERRORS)
async def mark_seen(request: Request, token: Token, ref: PaperRef, view: ListView) -> Response:
    """Mark seen (idempotent); answers the seen marks of the paper's conference-year."""
    return private(request, await run(sl.mark_seen, home(request), token, ref, True, view))


@router.delete("/lists/{token}/seen/{ref:path}", response_model=m.SeenMarks, summary="Unmark a paper seen",
               responses=_ERRORS)
async def unmark_seen(request: Request, token: Token, ref: PaperRef, view: ListView) -> Response:
    return private(request, await run(sl.mark_seen, home(request), token, ref, False, view))


@router.get("/lists/{token}/starred", response_model=m.StarredPapers,
            summary="Which papers are in which list", responses=_ERRORS)
async def starred(request: Request, token: Token) -> Response:
    return private(request, await run(sl.starred, home(request), token))


@router.post("/lists/{token}/lists", response_model=m.ReadingListInfo, status_code=201,
             summary="Add a list", responses=_ERRORS)
async def create_list(request: Request, token: Token, body: NameBody) -> Response:
    return private(request, await run(sl.create_list, home(request), token, body.name), 201)


def _export(request: Request, row_name: str, chunks: Any, fmt: str) -> Response:
    media = exports.MEDIA_TYPES.get(fmt) or "text/plain; charset=utf-8"
    ext = exports.EXTENSIONS.get(fmt, "txt")
    name = "".join(c if c.isalnum() else "-" for c in row_name.lower()).strip("-")[:60] or "list"

    async def body() -> Any:
        for chunk in chunks:
            yield chunk.encode()
            await anyio.sleep(0)

    return StreamingResponse(body(), media_type=media, headers={
        "content-disposition": f'attachment; filename="{name}-{fmt}.{ext}"', "cache-control": "no-store"})


def _paper_url(request: Request) -> Callable[[str], str]:
    base = str(request.app.state.settings.base_url) + request.scope.get("root_path", "")
    return lambda pid: base + paper_path(pid)


@router.get("/lists/{token}/lists/{list_id}", response_model=m.ReadingList, summary="One list, or its export",
            responses={**_ERRORS, 200: {"content": _EXPORT_CONTENT}})
async def reading_list(request: Request, token: Token, list_id: ListId,
                       fmt: FormatQuery = "json") -> Response:
    """A list's papers with their notes (oldest first), or the whole list in one format."""
    if fmt == "json":
        return private(request, await run(sl.reading_list, home(request), token, list_id))
    row, chunks = await run(sl.list_export, home(request), token, list_id, fmt, _paper_url(request))
    return _export(request, row.name, chunks, fmt)


@router.put("/lists/{token}/lists/{list_id}", response_model=m.ReadingListInfo, summary="Rename a list",
            responses=_ERRORS)
async def rename(request: Request, token: Token, list_id: ListId, body: NameBody) -> Response:
    return private(request, await run(sl.rename_list, home(request), token, list_id, body.name))


@router.delete("/lists/{token}/lists/{list_id}", response_model=m.ListShelf, summary="Delete a list",
               responses=_ERRORS)
async def delete(request: Request, token: Token, list_id: ListId) -> Response:
    return private(request, await run(sl.delete_list, home(request), token, list_id))


@router.put("/lists/{token}/lists/{list_id}/papers/{ref:path}", response_model=m.ListEntry,
            summary="Add a paper (or set its note)", responses=_ERRORS)
async def add(request: Request, token: Token, list_id: ListId, ref: PaperRef,
              body: Annotated[NoteBody | None, Body()] = None) -> Response:
    """Add a paper to the list (idempotent: adding it again keeps it once), with a note when given."""
    note = body.note if body else None
    return private(request, await run(sl.add_paper, home(request), token, list_id, ref, note))


@router.delete("/lists/{token}/lists/{list_id}/papers/{ref:path}", response_model=m.ReadingListInfo,
               summary="Remove a paper", responses=_ERRORS)
async def remove(request: Request, token: Token, list_id: ListId, ref: PaperRef) -> Response:
    return private(request, await run(sl.remove_paper, home(request), token, list_id, ref))


# documented as text/plain; any media type is read the same (application/x-bibtex, …/x-research-info-systems)
_IMPORT_BODY = {"requestBody": {"required": True, "content": {"text/plain": {"schema": {"type": "string"}}}}}


async def read_body(request: Request, limit: int) -> str:
    body = await read_limited(request, limit)
    if body is None:
        raise BadRequest(N_("This file is too large."), f"at most {limit:,} bytes")
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise BadRequest(N_("This file is not UTF-8 text."), str(e)[:100]) from e


@router.post("/lists/{token}/lists/{list_id}/import", response_model=m.ImportReport,
             summary="Import BibTeX or RIS", responses=_ERRORS, openapi_extra=_IMPORT_BODY)
async def import_file(request: Request, token: Token, list_id: ListId) -> Response:
    """Add the papers a BibTeX or RIS file names (the body, at most 2 MB and 2,000 entries): each
    entry is found by its ids (our id, DOI, arXiv, OpenReview, ACL Anthology) or its exact title;
    the others are listed in `unresolved`. All found papers are added at once, or none."""
    text = await read_body(request, MAX_IMPORT_BYTES)
    return private(request, await run(li.import_file, home(request), token, list_id, text))


@router.get("/shared/{share}", response_model=m.ReadingList, summary="A list by its share link",
            responses={**_ERRORS, 200: {"content": _EXPORT_CONTENT}})
async def shared(request: Request, share: Share, fmt: FormatQuery = "json") -> Response:
    """A list, read-only, as whoever has its share link sees it; or its export."""
    if fmt == "json":
        return private(request, await run(sl.shared_list, home(request), share))
    row, chunks = await run(sl.list_export, home(request), None, share, fmt, _paper_url(request))
    return _export(request, row.name, chunks, fmt)
