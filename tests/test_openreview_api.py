"""OpenReview API v2 notes -> records (sources/openreview_api.py): the mapping `paperlist update` uses,
read here from the real notes of ../shared/data/openreview-exports/iclr2026-apiv2 and from notes
written by hand in the API's documented shape for its corner cases."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from paperlist.ingest import ingest
from paperlist.sources import detect, load_path
from paperlist.sources.normalize import RecordError
from paperlist.sources.openreview_api import (
    OpenReviewApiReader,
    decision,
    group_place,
    note_record,
    replies_review,
)
from paperlist.store import Store

from .conftest import shared_data

READER = OpenReviewApiReader()
APIV2 = "openreview-exports/iclr2026-apiv2"


def note(
    forum: str = "db0FP1G7V7",
    venueid: str = "NeurIPS.cc/2026/Conference",
    venue: str = "NeurIPS 2026 oral",
    **content: Any,
) -> dict[str, Any]:
    c: dict[str, Any] = {
        "title": {"value": "A Paper"},
        "authors": {"value": ["Ann Lee", "Bo Li"]},
        "abstract": {"value": "An abstract long enough to be kept as one."},
        "venue": {"value": venue},
        "venueid": {"value": venueid},
        "pdf": {"value": "/pdf/0123abcd.pdf"},
    }
    c.update({k: {"value": v} for k, v in content.items()})
    return {
        "id": forum,
        "forum": forum,
        "number": 7,
        "domain": venueid.split("/Rejected")[0].split("/Withdrawn")[0],
        "invitations": [f"{venueid.split('/')[0]}/{venueid.split('/')[1]}/Conference/-/Submission"],
        "cdate": 1758370688811,
        "content": c,
    }


@pytest.mark.parametrize(
    ("group", "place"),
    [
        ("NeurIPS.cc/2026/Conference", ("neurips", 2026, None)),
        ("ICLR.cc/2026/Conference/Rejected_Submission", ("iclr", 2026, None)),
        ("NeurIPS.cc/2025/Datasets_and_Benchmarks_Track", ("neurips", 2025, "datasets-and-benchmarks")),
        ("robot-learning.org/CoRL/2025/Conference", ("corl", 2025, None)),
        ("colmweb.org/COLM/2024/Conference", ("colm", 2024, None)),
        ("ICML.cc/2026/Conference", ("icml", 2026, None)),
        ("TMLR", ("tmlr", None, None)),
    ],
)
def test_groups_name_venue_year_and_track(group: str, place: tuple[str, int | None, str | None]) -> None:
    assert group_place(group) == place


@pytest.mark.parametrize(
    ("venue", "venueid", "status"),
    [
        ("ICLR 2026 Oral", "ICLR.cc/2026/Conference", "oral"),
        ("ICLR 2026 Poster", "ICLR.cc/2026/Conference", "poster"),
        ("ICLR 2026 ConditionalPoster", "ICLR.cc/2026/Conference", "poster"),
        ("NeurIPS 2026 spotlight", "NeurIPS.cc/2026/Conference", "spotlight"),
        ("NeurIPS 2026", "NeurIPS.cc/2026/Conference", "accepted"),
        ("Submitted to ICLR 2026", "ICLR.cc/2026/Conference/Rejected_Submission", "rejected"),
        (
            "ICLR 2026 Conference Withdrawn Submission",
            "ICLR.cc/2026/Conference/Withdrawn_Submission",
            "withdrawn",
        ),
        (
            "ICLR 2026 Conference Desk Rejected Submission",
            "ICLR.cc/2026/Conference/Desk_Rejected_Submission",
            "desk-rejected",
        ),
        ("ICLR 2027 Conference Submission", "ICLR.cc/2027/Conference/Submission", "under-review"),
    ],
)
def test_decisions_from_the_final_venue(venue: str, venueid: str, status: str | None) -> None:
    assert decision(venue, venueid, "/".join(venueid.split("/")[:3]))[0] == status


def test_a_note_becomes_a_record() -> None:
    r = note_record(
        note(
            keywords=["Graphs; Trees", "Sheaves"],
            TLDR="Short.",
            primary_area="theory",
            supplementary_material="/attachment/f42e.zip",
            _bibtex="@inproceedings{lee2026a, x}",
        ),
        "openreview-api:neurips2026-live",
    )
    assert (r.source, r.key, r.venue, r.year, r.status) == (
        "openreview-api",
        "db0FP1G7V7",
        "neurips",
        2026,
        "oral",
    )
    assert [a.name for a in r.authors] == ["Ann Lee", "Bo Li"]
    assert r.keywords == ["Graphs", "Trees", "Sheaves"]  # several typed into one box
    assert r.links == {
        "openreview": "https://openreview.net/forum?id=db0FP1G7V7",
        "pdf": "https://openreview.net/pdf/0123abcd.pdf",
        "supplementary": "https://openreview.net/attachment/f42e.zip",
    }
    assert (r.tldr, r.primary_area, r.bibtex) == ("Short.", "theory", "@inproceedings{lee2026a, x}")
    assert r.extra == {"status_raw": "NeurIPS 2026 oral", "number": 7}


def test_unknown_fields_and_a_missing_abstract_are_fine() -> None:
    n = note(brand_new_field="whatever")
    del n["content"]["abstract"]
    n["brand_new_top_level"] = {"x": 1}
    r = note_record(n, "f")
    assert r.abstract is None and r.title == "A Paper"


def test_api_v1_bare_values_are_read_too() -> None:
    n = note()
    n["content"] = {k: v["value"] for k, v in n["content"].items()}
    assert note_record(n, "f").authors[1].name == "Bo Li"


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda n: n.pop("content"), "expected a note"),
        (lambda n: n.update(id="../../etc", forum="../../etc"), "is not an OpenReview id"),
        (lambda n: n["content"].update(authors={"value": "Ann Lee"}), "'authors' should be a list"),
        (lambda n: n["content"].update(title={"value": ""}), "record has no title"),
    ],
)
def test_broken_notes_raise_a_record_error(mutate: Any, message: str) -> None:
    n = note()
    mutate(n)
    with pytest.raises(RecordError, match=message):
        note_record(n, "f")


def test_reviews_from_a_forums_replies() -> None:
    def reply(inv: str, **content: Any) -> dict[str, Any]:
        return {
            "id": "r",
            "forum": "f",
            "invitations": [f"ICLR.cc/2026/Conference/Submission7/-/{inv}"],
            "content": {k: {"value": v} for k, v in content.items()},
        }

    review = replies_review(
        [
            reply(
                "Official_Review", rating=6, confidence=4, soundness=3, summary="Fine.", code_of_conduct="Yes"
            ),
            reply(
                "Official_Review",
                rating="8: accept, good paper",
                confidence="3: fairly confident",
                soundness=2,
            ),
            reply("Official_Comment", rating=1),  # not a review
            reply("Decision", decision="Accept (Poster)"),
            "not a note",
        ]
    )
    assert review is not None
    assert (review.ratings, review.confidences, review.dims) == (
        [6.0, 8.0],
        [4.0, 3.0],
        {"soundness": [3.0, 2.0]},
    )
    assert review.mean == 7.0 and review.count == 2
    assert replies_review([reply("Official_Comment", rating=1)]) is None


def _real_notes() -> list[dict[str, Any]]:
    path = shared_data(f"{APIV2}/paper_info_api_response.json.gz")
    notes: list[dict[str, Any]] = json.loads(gzip.decompress(path.read_bytes()))
    return notes


@pytest.mark.corpus
def test_the_real_notes() -> None:
    src = load_path(shared_data(f"{APIV2}/paper_info_api_response.json.gz"))
    assert detect(src).name == "openreview-api"
    assert READER.file_key(src) == "openreview-api:iclr2026-paper_info_api_response"
    parsed = READER.parse(src)
    assert parsed.skipped == [] and len(parsed.records) == 1000
    statuses = Counter(r.status for r in parsed.records)
    assert statuses == {"rejected": 460, "withdrawn": 287, "poster": 178, "desk-rejected": 67, "oral": 8}
    assert all(r.authors and r.abstract and r.ids["openreview"] == r.key for r in parsed.records)
    assert {(r.venue, r.year) for r in parsed.records} == {("iclr", 2026)}


@pytest.mark.corpus
def test_the_real_reviews_and_the_notes_merge(tmp_path: Path) -> None:
    path = shared_data(f"{APIV2}/paper_info_cleaned_reviews.json.gz")
    parsed = READER.parse(load_path(path))
    assert parsed.skipped == [] and len(parsed.records) == 100
    r = {x.key: x for x in parsed.records}["FPLNSx1jmL"]
    assert r.review is not None and r.review.ratings == [2.0, 4.0, 4.0, 4.0]
    assert r.review.confidences == [4.0, 3.0, 3.0, 4.0]
    assert set(r.review.dims) == {"soundness", "presentation", "contribution"}
    assert r.status == "rejected"
    store = Store(tmp_path / "paperlist.db")
    rep = ingest(store, [str(shared_data(APIV2))], jobs=1)
    assert rep.failed == 0 and rep.papers.new == 1000
    (pid,) = store.resolve_id("FPLNSx1jmL")
    p = store.get_paper(pid)
    assert p is not None and p.review is not None and p.review.count == 4
    assert sorted(s.split(":")[0] for s in p.sources) == ["openreview-api", "openreview-api"]
