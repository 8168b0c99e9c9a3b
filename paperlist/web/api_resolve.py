"""The JSON API's bibliography resolver: ``POST /api/v1/resolve`` (its routes join web/api.py's
router)."""

from __future__ import annotations

from typing import Annotated, Literal

import anyio
import orjson
from fastapi import APIRouter, Query
from starlette.requests import Request
from starlette.responses import Response

from .. import exports
from ..service import resolve as sr
from ..service.errors import N_, BadRequest, TooLarge
from . import api_models as m
from .fastparams import FastQueryRoute
from .incoming import home, read_limited

router = APIRouter(route_class=FastQueryRoute)



_RESOLVE_BODY = {"required": True, "content": {
    "application/x-bibtex": {"schema": {"type": "string"}, "example": (
        "@inproceedings{vaswani2017, title={Attention is all you need}, author={Vaswani, Ashish and Shazeer, "
        "Noam}, year={2017}}")},
    "text/plain": {"schema": {"type": "string",
                              "description": "BibTeX, or a list of references one per line."}},
    "application/json": {"schema": {"type": "object", "properties": {
        "bibtex": {"type": "string", "description": "A BibTeX bibliography."},
        "references": {"type": "array", "items": {"type": "string"},
                       "description": "Reference-list lines (one reference each)."}}}}}}


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused (413) past ``limit`` bytes."""
    body = await read_limited(request, limit)
    if body is None:
        raise TooLarge(N_("This bibliography is too large."), f"at most {limit:,} bytes")
    return body


def resolve_text(request: Request, body: bytes) -> str:
    """The bibliography a request sends: BibTeX or reference lines as text, or JSON with either."""
    if request.headers.get("content-type", "").split(";")[0].strip() == "application/json":
        try:
            data = orjson.loads(body)
        except orjson.JSONDecodeError:
            raise BadRequest(N_("The request body is not valid JSON."), "body") from None
        if isinstance(data, dict) and isinstance(data.get("bibtex"), str):
            return sr.decode_upload(data["bibtex"].encode())
        refs = data.get("references") if isinstance(data, dict) else None
        if isinstance(refs, list) and all(isinstance(x, str) for x in refs):
            return sr.decode_upload("\n".join(x.replace("\n", " ") for x in refs).encode())
        raise BadRequest(N_("Send {\"bibtex\": \"...\"} or {\"references\": [\"...\"]}."), "body")
    return sr.decode_upload(body)


@router.post("/resolve", response_model=m.ResolveReport, tags=["resolve"], summary="Resolve a bibliography",
             openapi_extra={"requestBody": _RESOLVE_BODY},
             responses={413: {"model": m.Problem, "description": (
                 f"More than {sr.MAX_BYTES:,} bytes or {sr.MAX_ENTRIES:,} entries.")},
                        422: {"model": m.Problem, "description": "Empty, binary or unreadable input."},
                        503: {"model": m.Problem, "description": "No search index yet."},
                        200: {"content": {"application/x-bibtex": {"schema": {"type": "string"}}}}})
async def resolve(request: Request, fmt: Annotated[Literal["json", "bib"], Query(alias="format", description=(
        "`json` (default): the report; `bib`: only the cleaned bibliography."))] = "json") -> Response:
    """Each entry of a bibliography (BibTeX, or reference-list lines) matched to the library: the
    paper with a confidence and why (title similarity, authors, year, venue), or `ambiguous` with
    its candidates, or `not_found`; entries citing one paper under two keys; and the cleaned
    bibliography, each matched entry rewritten as the published version with its key kept.
    Malformed entries are reported one by one (`status: error`) and the rest resolved. At most
    2,000,000 bytes and 2,000 entries (413 beyond)."""
    text = resolve_text(request, await read_body(request, sr.MAX_BYTES))
    h = home(request)
    report = await anyio.to_thread.run_sync(sr.resolve, h, text)
    if fmt == "bib":
        return Response(report["bibtex"], media_type=exports.MEDIA_TYPES["bib"],
                        headers={"cache-control": "no-store",
                                 "content-disposition": 'attachment; filename="resolved.bib"'})
    return Response(orjson.dumps(report), media_type="application/json",
                    headers={"cache-control": "no-store"})
