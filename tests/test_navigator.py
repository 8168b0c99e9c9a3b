"""Conference programmes (sources/navigator.py): IJCAI-ECAI 2026 and EACL 2026 from the real files in
../shared/data, and hand-written programmes for tracks, Python-repr lists and the error paths."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from paperlist.sources import SourceError, detect, load_path
from paperlist.sources.navigator import NavigatorReader

from .conftest import shared_data

READER = NavigatorReader()


def programme(conference: str, papers: list[Any]) -> dict[str, Any]:
    return {
        "schema_version": 1,
        "conference_id": conference,
        "source_url": "https://example.org/",
        "papers": papers,
        "source_metadata": None,
    }


def paper(pid: str, track: str = "", **over: Any) -> dict[str, Any]:
    p: dict[str, Any] = {
        "id": pid,
        "title": f"Paper {pid}",
        "abstract": "An abstract long enough to be one, about graphs.",
        "authors": ["Ann Lee", "Bo Li"],
        "presenter": "",
        "track": track,
        "primary_category": "",
        "secondary_category": "",
        "keywords": [],
        "source_url": "https://example.org/",
        "presentations": [
            {
                "type": "poster",
                "session": "",
                "date": "Aug 19",
                "time": "16:30",
                "location": "Hall",
                "order": "",
                "attendance_type": "In-person",
            }
        ],
    }
    p.update(over)
    return p


def parse(tmp_path: Path, data: object) -> tuple[dict[str, Any], list[str]]:
    path = tmp_path / "papers.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    src = load_path(path)
    assert detect(src).name == "navigator"
    parsed = READER.parse(src)
    return {r.key: r for r in parsed.records}, parsed.skipped


@pytest.mark.parametrize(
    ("track", "slug"),
    [
        ("Main Track", "main"),
        ("Special Track on AI and Social Good", "ai-and-social-good"),
        ("Special Track on Human-Centred AI", "human-centred-ai"),
        ("Special Track on AI4Tech: AI Enabling Critical Technologies", "ai4tech-ai-enabling-technologies"),
        ("Special Track on AI and Health", "ai-and-health"),
        ("Demonstrations Track", "demo"),
        ("Survey Track", "survey"),
        ("Journal Track", "journal"),
        ("Early Career Spotlight", "early-career"),
        ("Sister Conferences Best Papers Track", "sister-conferences-best-papers"),
    ],
)
def test_ijcai_tracks_keep_the_names_other_years_use(tmp_path: Path, track: str, slug: str) -> None:
    recs, _ = parse(tmp_path, programme("ijcai-2026", [paper("29", track)]))
    r = recs["29"]
    assert (r.venue, r.year, r.track, r.status) == ("ijcai", 2026, slug, "accepted")


def test_ijcai_topics_are_keywords_and_slots_are_not_decisions(tmp_path: Path) -> None:
    slots = [
        {"type": "oral", "session": "", "date": "Aug 19", "time": "15:00", "location": "Roselius"},
        {"type": "poster", "session": "", "date": "Aug 19", "time": "16:30", "location": "Poster area"},
    ]
    topics = [
        {"area": "Data Mining", "label": "Mining spatial and/or temporal data"},
        {"area": "Machine Learning", "label": "Self-supervised Learning"},
    ]
    recs, _ = parse(
        tmp_path,
        programme(
            "ijcai-2026",
            [
                paper(
                    "29",
                    "Main Track",
                    topics=topics,
                    presentations=slots,
                    primary_category="Data Mining",
                    keywords=["Mining spatial and/or temporal data"],
                )
            ],
        ),
    )
    r = recs["29"]
    assert r.status == "accepted"  # every IJCAI paper has an oral slot: not a decision
    assert r.keywords == ["Mining spatial and/or temporal data", "Self-supervised Learning"]
    assert r.primary_area == "Data Mining"
    assert [s["type"] for s in r.extra["presentations"]] == ["oral", "poster"]


@pytest.mark.parametrize(
    ("pid", "venue", "track", "status"),
    [
        ("1-MAIN", "eacl", "main", "oral"),
        ("2-FIND", "findings-eacl", "main", "poster"),
        ("3-SRW", "eacl", "srw", "poster"),
        ("4-IND", "eacl", "industry", "poster"),
        ("5-DEMO", "eacl", "demo", "accepted"),
        ("6-TACL", "eacl", "journal", "poster"),
        ("7-CL", "eacl", "journal", "poster"),
    ],
)
def test_eacl_ids_say_the_venue_and_track(
    tmp_path: Path, pid: str, venue: str, track: str, status: str
) -> None:
    kind = {"1-MAIN": "oral", "5-DEMO": "demo"}.get(pid, "poster")
    recs, _ = parse(
        tmp_path,
        programme(
            "eacl-2026",
            [paper(pid, presentations=[{"type": kind}], keywords=["remains underexplored investigate"])],
        ),
    )
    r = recs[pid]
    assert (r.venue, r.year, r.track, r.status) == (venue, 2026, track, status)
    # EACL's keywords are the navigator's extracted terms, not the authors'
    assert r.keywords == [] and r.extra["terms"] == ["remains underexplored investigate"]


def test_python_repr_lists_are_read_like_json_lists(tmp_path: Path) -> None:
    recs, skipped = parse(
        tmp_path,
        programme(
            "ijcai-2026",
            [
                paper(
                    "1",
                    "Main Track",
                    authors="['Ann Lee', \"Bo O'Neil\"]",
                    keywords="['Graphs', 'Trees']",
                    presentations="[{'type': 'oral', 'location': 'Hall 1'}]",
                ),
                paper("2", "Main Track", authors="Ann Lee and Bo Li"),
                paper("3", "Main Track", authors="[__import__('os')]"),
            ],
        ),
    )
    assert [a.name for a in recs["1"].authors] == ["Ann Lee", "Bo O'Neil"]
    assert recs["1"].keywords == ["Graphs", "Trees"]
    assert recs["1"].extra["presentations"] == [{"type": "oral", "location": "Hall 1"}]
    assert set(recs) == {"1"} and len(skipped) == 2
    assert all("'authors' is text that is not a list" in s for s in skipped), skipped


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ([paper("9-XYZ")], "does not end in a known track"),
        ([paper("9-MAIN", title="")], "record has no title"),
        ([paper("9-MAIN", authors=[1, 2])], "'authors' should be a list of text"),
        (["text"], "expected an object"),
    ],
)
def test_bad_eacl_records_are_skipped(tmp_path: Path, records: list[Any], message: str) -> None:
    recs, skipped = parse(tmp_path, programme("eacl-2026", [*records, paper("1-MAIN")]))
    assert set(recs) == {"1-MAIN"} and len(skipped) == 1 and message in skipped[0], skipped


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (programme("the-conference", [paper("1")]), "names no venue and year"),
        (programme("ijcai-2026", []), "the 'papers' list is empty"),
    ],
)
def test_bad_files_fail_in_one_line(tmp_path: Path, data: object, message: str) -> None:
    path = tmp_path / "papers.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SourceError, match=message):
        READER.parse(load_path(path))


def _real(conference: str) -> tuple[list[Any], list[str], dict[str, Any]]:
    path = shared_data(f"conference-navigator/{conference}/papers.json.gz")
    parsed = READER.parse(load_path(path))
    return parsed.records, parsed.skipped, json.loads(gzip.decompress(path.read_bytes()))


@pytest.mark.corpus
def test_the_real_ijcai_programme() -> None:
    recs, skipped, raw = _real("ijcai-2026")
    # eight Early Career talks are "Title TBD" and no paper yet
    assert len(raw["papers"]) == 990 and len(recs) == 982 and len(skipped) == 8
    assert all("the title is a placeholder ('Title TBD')" in s for s in skipped)
    assert {(r.venue, r.year, r.status) for r in recs} == {("ijcai", 2026, "accepted")}
    # "Not ready yet" and empty abstracts are no abstracts
    assert sum(r.abstract is not None for r in recs) == 981
    tracks = Counter(r.track for r in recs)
    assert tracks["main"] == 713 and tracks["ai-and-social-good"] == 52 and tracks["demo"] == 50
    assert all(r.authors for r in recs)


@pytest.mark.corpus
def test_the_real_eacl_programme() -> None:
    recs, skipped, _ = _real("eacl-2026")
    assert skipped == [] and len(recs) == 703
    venues = Counter(r.venue for r in recs)
    assert venues == {"eacl": 496, "findings-eacl": 207}
    # the 77 student papers' "abstracts" are the placeholder "Need"
    assert sum(r.abstract is not None for r in recs) == 626
    assert {r.abstract for r in recs if r.track == "srw"} == {None}
    assert Counter(r.status for r in recs if r.venue == "eacl" and r.track == "main") == {
        "oral": 187,
        "poster": 132,
    }
