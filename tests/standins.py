"""Local stand-ins for OpenReview's API v2 and OpenAlex, on pytest-httpserver: they answer as each
service documents (``GET /notes`` -> ``{"notes": [...], "count": N}``, paged by ``offset``/``limit``,
filtered by ``content.venueid``, with the forums' replies under ``details.replies`` when asked;
``GET /works?filter=…`` -> ``{"meta": {...}, "results": [...]}``), fed with the real notes of
../shared/data/openreview-exports/iclr2026-apiv2. They can also misbehave on purpose: answer 429
with Retry-After, fail with 500 from the n-th request, or answer slowly. OpenAlex's answers are paged
as documented (``per-page``, ``page``; ``meta.count`` the number of works that match)."""

from __future__ import annotations

import copy
import gzip
import json
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from .conftest import shared_data

APIV2 = "openreview-exports/iclr2026-apiv2"
MAX_LIMIT = 1000  # OpenReview's largest page


def real_notes() -> list[dict[str, Any]]:
    """ICLR 2026's first 1,000 submissions as the API returned them, with the reviews of the 100 the
    second file has, attached as the API attaches replies (``details.replies``)."""
    notes: list[dict[str, Any]] = json.loads(
        gzip.decompress(shared_data(f"{APIV2}/paper_info_api_response.json.gz").read_bytes())
    )
    cleaned = json.loads(
        gzip.decompress(shared_data(f"{APIV2}/paper_info_cleaned_reviews.json.gz").read_bytes())
    )
    reviews = {p["id"]: p["reviews"] for p in cleaned}
    for n in notes:
        n["details"] = {"replies": [_review(n, i, r) for i, r in enumerate(reviews.get(n["id"], []))]}
    return notes


def _review(note: dict[str, Any], i: int, scores: dict[str, Any]) -> dict[str, Any]:
    group = f"{note['domain']}/Submission{note['number']}"
    return {
        "id": f"{note['id']}r{i}",
        "forum": note["id"],
        "replyto": note["id"],
        "invitations": [f"{group}/-/Official_Review"],
        "signatures": [f"{group}/Reviewer_{i}"],
        "content": {k: {"value": v} for k, v in scores.items()},
    }


def rehome(notes: list[dict[str, Any]], domain: str, label: str) -> list[dict[str, Any]]:
    """The same submissions as another venue's (``NeurIPS.cc/2026/Conference``): venueid, venue text,
    domain and invitations rewritten, the decision kept ("ICLR 2026 Oral" -> "NeurIPS 2026 oral")."""
    out = []
    for n in copy.deepcopy(notes):
        c = n["content"]
        tail = c["venueid"]["value"].removeprefix(n["domain"])
        c["venueid"]["value"] = domain + tail
        venue = c["venue"]["value"]
        kind = venue.rsplit(" ", 1)[-1].lower() if venue.startswith("ICLR 2026 ") and not tail else ""
        c["venue"]["value"] = f"{label} {kind}".strip() if not tail else venue.replace("ICLR 2026", label)
        n["domain"] = domain
        n["invitations"] = [i.replace(n["invitations"][0].split("/-/")[0], domain) for i in n["invitations"]]
        out.append(n)
    return out


def copies(notes: list[dict[str, Any]], n: int, start: int) -> list[dict[str, Any]]:
    """``n`` more submissions made from real ones (new ids and numbers, same text): a venue larger
    than one page."""
    out = []
    for i in range(n):
        x = copy.deepcopy(notes[i % len(notes)])
        x["id"] = x["forum"] = f"{x['id'][:8]}C{start + i:05d}"
        x["number"] = 100_000 + start + i
        x["details"] = {"replies": []}
        out.append(x)
    return out


@dataclass
class OpenReviewStandIn:
    """``GET /notes`` over a list of notes. ``fail_from``/``fail_count``: answer 500 to that many
    requests from the n-th on (1-based); ``throttle``: answer 429 with ``Retry-After: 1`` to the n-th;
    ``delay``: seconds before each answer."""

    notes: list[dict[str, Any]]
    requests: int = 0
    fail_from: int | None = None
    fail_count: int = 10**9
    throttle: int | None = None
    delay: float = 0.0
    seen: list[dict[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def install(self, server: HTTPServer) -> str:
        server.expect_request("/notes", method="GET").respond_with_handler(self.handle)
        return server.url_for("").rstrip("/")

    def handle(self, request: Request) -> Response:
        with self.lock:
            self.requests += 1
            n = self.requests
        params = {k: v[-1] for k, v in parse_qs(request.query_string.decode()).items()}
        self.seen.append(params)
        if self.delay:
            time.sleep(self.delay)
        if self.throttle == n:
            return Response(
                json.dumps({"name": "RateLimitError", "message": "Too many requests"}),
                429,
                {"Retry-After": "1"},
                content_type="application/json",
            )
        if self.fail_from is not None and self.fail_from <= n < self.fail_from + self.fail_count:
            return Response(
                json.dumps({"name": "Error", "message": "Internal server error"}),
                500,
                content_type="application/json",
            )
        venueid = params.get("content.venueid")
        match = [x for x in self.notes if venueid is None or x["content"]["venueid"]["value"] == venueid]
        if params.get("sort", "").startswith("tmdate"):
            match.sort(key=lambda x: -x.get("tmdate", 0))
        else:
            match.sort(key=lambda x: x.get("number", 0))
        offset = int(params.get("offset", 0))
        limit = min(int(params.get("limit", MAX_LIMIT)), MAX_LIMIT)
        page = copy.deepcopy(match[offset : offset + limit])
        if params.get("details") != "replies":
            for x in page:
                x.pop("details", None)
        return Response(
            json.dumps({"notes": page, "count": len(match)}), 200, content_type="application/json"
        )


def openalex_work(
    wid: str,
    title: str,
    year: int,
    authors: list[tuple[str, str | None]],
    abstract: str | None,
    doi: str | None = None,
    source: str | None = None,
    cited: int = 0,
) -> dict[str, Any]:
    """A work as OpenAlex documents it (https://docs.openalex.org/api-entities/works/work-object)."""
    inverted: dict[str, list[int]] | None = None
    if abstract:
        inverted = {}
        for i, w in enumerate(abstract.split()):
            inverted.setdefault(w, []).append(i)
    return {
        "id": f"https://openalex.org/{wid}",
        "doi": f"https://doi.org/{doi}" if doi else None,
        "ids": {"openalex": f"https://openalex.org/{wid}",
                **({"doi": f"https://doi.org/{doi}"} if doi else {})},
        "display_name": title,
        "title": title,
        "publication_year": year,
        "cited_by_count": cited,
        "abstract_inverted_index": inverted,
        "authorships": [
            {
                "author_position": "first" if i == 0 else "middle",
                "author": {"id": f"https://openalex.org/A{i}", "display_name": name},
                "institutions": [{"display_name": inst}] if inst else [],
                "raw_author_name": name,
            }
            for i, (name, inst) in enumerate(authors)
        ],
        "primary_location": {"source": {"display_name": source}} if source else {"source": None},
    }


@dataclass
class OpenAlexStandIn:
    """``GET /works`` with ``filter=doi:a|b`` or ``filter=title.search:…,publication_year:A-B`` (the
    works whose titles hold every word, closest in length first, as a relevance order would put
    them). ``throttle``: answer 429 with ``Retry-After: 1`` to the n-th request; ``delay``: seconds
    before each answer; ``seen``: each request's parameters."""

    works: list[dict[str, Any]]
    requests: int = 0
    throttle: int | None = None
    delay: float = 0.0
    seen: list[dict[str, str]] = field(default_factory=list)

    def install(self, server: HTTPServer) -> str:
        server.expect_request("/works", method="GET").respond_with_handler(self.handle)
        return server.url_for("").rstrip("/")

    def handle(self, request: Request) -> Response:
        self.requests += 1
        params = {k: v[-1] for k, v in parse_qs(request.query_string.decode()).items()}
        self.seen.append(params)
        if self.delay:
            time.sleep(self.delay)
        if self.throttle == self.requests:
            return Response("{}", 429, {"Retry-After": "1"}, content_type="application/json")
        filt = params.get("filter", "")
        conds = dict(part.split(":", 1) for part in _split_filter(filt))
        found = self.works
        if "doi" in conds:
            wanted = {d.lower().removeprefix("https://doi.org/") for d in conds["doi"].split("|")}
            found = [
                w for w in found if w["doi"] and w["doi"].removeprefix("https://doi.org/").lower() in wanted
            ]
        if "title.search" in conds:
            words = set(re.findall(r"[^\W_]+", conds["title.search"].lower()))
            found = [w for w in found if words <= set(re.findall(r"[^\W_]+", w["display_name"].lower()))]
            found.sort(key=lambda w: len(re.findall(r"[^\W_]+", w["display_name"])) - len(words))
        if "publication_year" in conds:
            lo, _, hi = conds["publication_year"].partition("-")
            found = [w for w in found if int(lo) <= w["publication_year"] <= int(hi or lo)]
        per_page = min(int(params.get("per-page", 25)), 200)
        page = int(params.get("page", 1))
        body = {
            "meta": {"count": len(found), "db_response_time_ms": 1, "page": page, "per_page": per_page},
            "results": found[(page - 1) * per_page : page * per_page],
            "group_by": [],
        }
        return Response(json.dumps(body), 200, content_type="application/json")


def _split_filter(s: str) -> list[str]:
    """OpenAlex's filter is comma-separated key:value pairs (a value may hold '|' for OR)."""
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0 and ":" in cur:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        parts.append(cur)
    return [p for p in parts if ":" in p]
