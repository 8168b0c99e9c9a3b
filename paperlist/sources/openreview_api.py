"""OpenReview API v2 notes -> Records: one mapping for a file of notes and for ``paperlist update``.

A note is the JSON that ``GET /notes`` returns (and that openreview-py's ``Note.to_json()`` gives):
``{id, forum, number, domain, invitations, cdate, pdate, mdate, content: {title: {value}, authors:
{value: [...]}, abstract, keywords, primary_area, TLDR, pdf, supplementary_material, venue,
venueid, _bibtex, …}}``. Every content field is wrapped in ``{"value": …}`` (API v1 notes, still
served for old venues, have bare values: both are read); a field may be missing, and fields this
module does not know are ignored.

Where a note belongs comes from its ids: the venue and year from the group (``NeurIPS.cc/2026/
Conference``: NeurIPS 2026; ``robot-learning.org/CoRL/2025/Conference``: CoRL 2025), a track from
the group's tail (``…/Datasets_and_Benchmarks_Track``). The decision is the final ``venueid`` and
``venue``: the conference's own id is an acceptance, whose kind the venue text names ("ICLR 2026
Oral"); ``…/Rejected_Submission``, ``…/Withdrawn_Submission`` and ``…/Desk_Rejected_Submission``
say the rest; ``…/Submission`` means still under review (status "under-review").

Reviews are the forum's replies whose invitation ends in ``/-/Official_Review``: each reviewer's
rating and confidence, and the other numeric dimensions (soundness, presentation, contribution …),
as issue 17 stores them for the other sources.

The file reader takes three layouts: a JSON list of notes, ``{"notes": [...]}`` (a saved ``GET
/notes`` answer), and a "cleaned" list of papers with their reviews flattened (``{id, title,
authors, venueid, reviews: [{rating, confidence, …}], decision}``, zhuanxv-G/ICLR-2025-Analysis).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime
from functools import partial
from typing import Any

import orjson

from .. import venues
from ..models import Record, Review
from ..names import make_authors
from ..text import clean
from . import normalize as nz
from . import reviews as rv
from .base import Collector, Parsed, SourceError, SourceFile

SOURCE = "openreview-api"
SITE = "https://openreview.net"
_YEAR = re.compile(r"(?:19|20)\d{2}")
_FORUM_ID = re.compile(r"[A-Za-z0-9_-]{5,30}")
_REJECTED_TAILS = {
    "rejected_submission": "rejected",
    "withdrawn_submission": "withdrawn",
    "desk_rejected_submission": "desk-rejected",
}
_DOMAIN_PARTS = {"cc", "org", "net", "com", "io", "ai"}
# Review fields that are text, dates or flags, never a score dimension.
_NOT_DIMS = {
    "rating",
    "confidence",
    "title",
    "summary",
    "strengths",
    "weaknesses",
    "questions",
    "limitations",
    "review",
    "flag_for_ethics_review",
    "code_of_conduct",
    "details_of_ethics_concerns",
    "first_time_reviewer",
    "ethics_review",
    "rebuttal",
    "justification",
}


def value(content: dict[str, Any], field: str) -> Any:
    """A content field's value: ``{"value": x}`` (API v2) or ``x`` (API v1); None when missing."""
    v = content.get(field)
    if isinstance(v, dict) and "value" in v:
        return v["value"]
    return v


def group_place(group: object) -> tuple[str, int | None, str | None] | None:
    """(venue, year, track) for a group id: ``NeurIPS.cc/2026/Conference`` -> ("neurips", 2026,
    None); ``NeurIPS.cc/2025/Datasets_and_Benchmarks_Track`` -> (…, "datasets-and-benchmarks");
    ``ICLR.cc/2025/Workshop/…`` -> the venue's workshops ("iclrw"); ``TMLR`` -> ("tmlr", None, None)."""
    parts = [p for p in clean(group).split("/") if p]
    if not parts:
        return None
    at = next((i for i, p in enumerate(parts) if _YEAR.fullmatch(p)), None)
    head = parts[at - 1] if at else parts[0]
    name = ".".join(p for p in head.split(".") if p.lower() not in _DOMAIN_PARTS) or head
    venue = venues.canonical(name)
    if not venue:
        return None
    if at is None:
        return venue, None, None
    tail = [p for p in parts[at + 1 :] if p.lower() not in _REJECTED_TAILS and p.lower() != "submission"]
    if tail and tail[0].lower() == "workshop":
        venue = venues.resolve(f"{venue}w") or f"{venue}w"
        return venue, int(parts[at]), nz.track(tail[1]) if len(tail) > 1 else None
    track = nz.track(tail[0].replace("_", " ")) if tail and tail[0].lower() != "conference" else None
    return venue, int(parts[at]), track


def decision(venue_text: object, venueid: object, domain: object = None) -> tuple[str | None, str]:
    """(canonical status, the raw text it came from) of a note's final ``venueid`` and ``venue``."""
    vid = clean(venueid)
    text = clean(venue_text)
    tail = vid.rsplit("/", 1)[-1].lower() if vid else ""
    if tail in _REJECTED_TAILS:
        return _REJECTED_TAILS[tail], text or vid
    if tail == "submission" or text.lower().startswith("submitted to") and not tail:
        return "under-review", text or vid  # no decision yet
    if vid and (not domain or vid == clean(domain) or vid.startswith(clean(domain) + "/")):
        return nz.status(text) or "accepted", text or vid
    return nz.status(text), text or vid


def note_place(note: dict[str, Any]) -> tuple[str, int, str | None]:
    """Venue, year and track of a note, from its venueid, then its domain and invitations; a group
    without a year (TMLR) takes the year the note was published."""
    raw = note.get("content")
    content: dict[str, Any] = raw if isinstance(raw, dict) else {}
    candidates = [value(content, "venueid"), note.get("domain"), *(note.get("invitations") or [])[:1]]
    for group in candidates:
        place = group_place(group) if isinstance(group, str) else None
        if place and place[1]:
            return place[0], place[1], place[2]
    for group in candidates:
        place = group_place(group) if isinstance(group, str) else None
        if place:
            stamp = note.get("pdate") or note.get("odate") or note.get("cdate")
            if isinstance(stamp, int) and stamp > 0:
                return place[0], datetime.fromtimestamp(stamp / 1000, UTC).year, place[2]
    raise nz.RecordError("the note names no venue and year (no venueid, domain or invitation)")


def note_record(note: object, file: str, source: str = SOURCE, review: Review | None = None) -> Record:
    """The Record of one API v2 note (a submission); raises RecordError when it cannot be one."""
    if not isinstance(note, dict) or not isinstance(note.get("content"), dict):
        raise nz.RecordError("expected a note: an object with 'content'")
    content: dict[str, Any] = note["content"]
    forum = note.get("forum") or note.get("id")
    if not isinstance(forum, str) or not _FORUM_ID.fullmatch(forum):
        raise nz.RecordError(f"note id {forum!r} is not an OpenReview id")
    venue, year, track = note_place(note)
    status, raw = decision(value(content, "venue"), value(content, "venueid"), note.get("domain"))
    extra: dict[str, Any] = {}
    if raw and clean(raw).lower() != (status or ""):
        extra["status_raw"] = raw
    if isinstance(note.get("number"), int):
        extra["number"] = note["number"]
    links = {"openreview": f"{SITE}/forum?id={forum}"}
    for kind, field in (("pdf", "pdf"), ("supplementary", "supplementary_material")):
        if u := nz.url(value(content, field), SITE):
            links[kind] = u
    return nz.record(
        source=source,
        file=file,
        key=forum,
        venue=venue,
        year=year,
        title=value(content, "title"),
        authors=make_authors(_names(value(content, "authors"))),
        abstract=nz.abstract(value(content, "abstract")),
        status=status,
        track=track,
        ids={"openreview": forum},
        links=links,
        keywords=_keywords(value(content, "keywords")),
        primary_area=nz.text_or_none(value(content, "primary_area")),
        tldr=nz.text_or_none(value(content, "TLDR") or value(content, "tldr")),
        bibtex=nz.text_or_none(value(content, "_bibtex")),
        review=review,
        extra=extra,
    )


def review_of(scores: Iterable[dict[str, Any]]) -> Review | None:
    """Each review's scores ({rating, confidence, soundness, …}; a value may be a number or text such
    as "6: marginally above the acceptance threshold") -> one Review; None when no review has a score."""
    ratings: list[float] = []
    confidences: list[float] = []
    dims: dict[str, list[float]] = {}
    for s in scores:
        for k, v in s.items():
            got = rv.scores(v) if isinstance(v, (int, float, str)) else []
            if not got:
                continue
            if k == "rating":
                ratings.append(got[0])
            elif k == "confidence":
                confidences.append(got[0])
            elif k not in _NOT_DIMS and isinstance(k, str) and len(k) <= 40:
                dims.setdefault(k, []).append(got[0])
    return rv.review_of_lists(ratings, confidences, dims)


def replies_review(replies: Iterable[object]) -> Review | None:
    """The Review of a forum's replies: the notes whose invitation is an Official_Review."""
    scores = []
    for r in replies:
        if not isinstance(r, dict) or not isinstance(r.get("content"), dict):
            continue
        if any(isinstance(i, str) and i.endswith("/-/Official_Review") for i in r.get("invitations") or []):
            scores.append({k: value(r["content"], k) for k in r["content"]})
    return review_of(scores)


def _names(v: object) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(n, str) for n in v):
        if v in (None, ""):
            return []
        raise nz.RecordError("'authors' should be a list of names")
    return [n for n in map(clean, v) if n]


def _keywords(v: object) -> list[str]:
    """Keywords are a list, but authors often type several into one box, separated by ';'."""
    items = v if isinstance(v, list) else [v] if isinstance(v, str) else []
    return nz.keywords([k for item in items if isinstance(item, str) for k in item.split(";")])


# --- the file reader ------------------------------------------------------------------------------


class OpenReviewApiReader:
    name = SOURCE
    version = 1

    def sniff(self, src: SourceFile) -> bool:
        return self._layout(src) is not None

    def file_key(self, src: SourceFile) -> str:
        layout, items = self._items(src)
        venue, year = _majority(items, layout)
        return f"{SOURCE}:{venue}{year}-{src.stem}"

    def parse(self, src: SourceFile) -> Parsed:
        layout, items = self._items(src)
        venue, year = _majority(items, layout)
        fkey = f"{SOURCE}:{venue}{year}-{src.stem}"
        make = note_record if layout == "notes" else _cleaned_record
        col = Collector()
        for i, item in enumerate(items):
            col.add(f"note {i}", partial(make, item, fkey))
        return col.out

    @staticmethod
    def _layout(src: SourceFile) -> str | None:
        head = src.data[:8192].removeprefix(b"\xef\xbb\xbf").lstrip()
        # a list, or a saved GET /notes answer; one note alone (a tracker's per-paper file) is not a list
        if not (head.startswith(b"[") or (head.startswith(b"{") and b'"notes"' in head[:512])):
            return None
        if b'"content"' in head and b'"forum"' in head and (b'"venueid"' in head or b'"invitations"' in head):
            return "notes"
        if b'"venueid"' in head and b'"reviews"' in head and b'"authorids"' in head:
            return "cleaned"
        return None

    def _items(self, src: SourceFile) -> tuple[str, list[Any]]:
        layout = self._layout(src)
        if layout is None:
            raise SourceError(
                'not OpenReview API v2 notes (a list of notes, {"notes": [...]}, or '
                "papers with their reviews)"
            )
        try:
            data = orjson.loads(src.data)
        except orjson.JSONDecodeError as e:
            raise SourceError(f"not valid JSON: {str(e).splitlines()[0]}") from None
        if isinstance(data, dict) and isinstance(data.get("notes"), list):
            data = data["notes"]
        if not isinstance(data, list) or not data:
            raise SourceError("expected a non-empty list of notes")
        return layout, data


def _majority(items: list[Any], layout: str) -> tuple[str, int]:
    found: Counter[tuple[str, int]] = Counter()
    for it in items[:2000]:
        if not isinstance(it, dict):
            continue
        try:
            venue, year, _ = note_place(it if layout == "notes" else {"content": it})
        except nz.RecordError:
            continue
        found[(venue, year)] += 1
    if not found:
        raise SourceError("no note names a venue and year (venueid such as 'ICLR.cc/2026/Conference')")
    return found.most_common(1)[0][0]


def _cleaned_record(p: object, fkey: str) -> Record:
    """A paper of the cleaned layout: the note's fields flattened, with its reviews' scores."""
    if not isinstance(p, dict):
        raise nz.RecordError(f"expected an object, found {type(p).__name__}")
    revs = p.get("reviews")
    if revs is not None and not (isinstance(revs, list) and all(isinstance(r, dict) for r in revs)):
        raise nz.RecordError("'reviews' should be a list of objects")
    content = {k: v for k, v in p.items() if k not in ("id", "number", "reviews", "meta_review", "decision")}
    note = {"id": p.get("id"), "forum": p.get("id"), "number": p.get("number"), "content": content}
    rec = note_record(note, fkey, review=review_of(revs or []))
    if rec.status is None and (d := nz.status(p.get("decision"))):
        rec.status = d  # the decision note's text where the venueid does not say
    return rec
