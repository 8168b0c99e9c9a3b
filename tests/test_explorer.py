"""The IROS paper index reader (explorer): real papers copied from the shared file
(tests/fixtures/explorer), broken copies of them for the error paths, and the real file."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from paperlist.models import Record
from paperlist.sources import READERS, SourceError, detect, expand, load_path
from paperlist.sources.explorer import ExplorerReader, award_name

from .conftest import FIXTURES, shared_data

FIXTURE = FIXTURES / "explorer" / "iros2026-papers.json"
READER = ExplorerReader()


def parse(path: Path) -> tuple[dict[str, Record], list[str]]:
    src = load_path(path)
    assert detect(src).name == "explorer"
    p = READER.parse(src)
    return {r.key: r for r in p.records}, p.skipped


def fixture() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def write(tmp_path: Path, name: str, data: object) -> Path:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data, ensure_ascii=False).encode())
    return path


def test_papers_with_authors_affiliations_keywords_and_sessions() -> None:
    recs, skipped = parse(FIXTURE)
    assert skipped == [] and len(recs) == 9
    assert READER.file_key(load_path(FIXTURE)) == "explorer:iros2026-papers"
    assert ({(r.source, r.venue, r.year, r.status) for r in recs.values()}
            == {("explorer", "iros", 2026, "accepted")})
    r = recs["IROS26-4559"]
    assert r.title.startswith("Novelty Adaptation through Hybrid Large Language Model (LLM)-Symbolic "
                              "Planning")
    assert [(a.name, a.affiliation) for a in r.authors][:3] == [
        ("Hong Lu", "Tufts University"),
        ("Pierrick Lorang", "AIT Austrian Institute of Technology GmbH - Tufts University"),
        ("Timothy R. Duggan", "Tufts University")]
    assert r.keywords == ["Task and Motion Planning", "Reinforcement Learning",
                          "Hybrid Logical/Dynamical Planning and Verification"]
    assert r.abstract is None and r.award is None and r.links == {}    # abstracts are empty in the file
    assert r.extra == {"day": "Wednesday", "time": "15:27", "session": "4d5505",
                       "session_title": "AI-Driven Advances in Task and Motion Planning",
                       "session_type": "Focused Sessions", "room": "321", "code": "W2FB03 · #4559",
                       "paper_number": "4559"}
    assert [a.name for a in recs["IROS26-4323"].authors] == ["Jorge Mendez-Mendez"]
    assert recs["IROS26-4733"].authors[2].name == "Alin Albu-Schäffer"
    assert recs["IROS26-85"].title.startswith("Shallow-π: Knowledge Distillation")


def test_names_with_a_second_comma() -> None:
    recs, _ = parse(FIXTURE)
    names = {a.name for r in recs.values() for a in r.authors}
    assert {"Rushiil Nakka", "Ryan C DuToit"} <= names    # "Nakka, Rushiil, Rushiil Nakka", "DuToit, Ryan, C"
    assert not [n for n in names if "," in n]


def test_award_candidates_name_their_award() -> None:
    recs, _ = parse(FIXTURE)
    assert recs["IROS26-85"].award == "Best Paper / Best Student Paper Award candidate"      # "… Award - II"
    assert recs["IROS26-748"].award == "IROS Best Entertainment and Amusement Paper Award candidate"
    assert {k for k, r in recs.items() if r.award} == {"IROS26-85", "IROS26-748"}
    assert recs["IROS26-85"].extra["session_type"] == "Award Candidates"
    assert award_name("Award Candidates", "Session 3") == "award candidate"
    assert award_name("Lightning Talks", "Best Paper Award") is None


def test_gzip_and_year_from_source_when_the_name_has_none(tmp_path: Path) -> None:
    gz = tmp_path / "iros2026-papers.json.gz"
    gz.write_bytes(gzip.compress(FIXTURE.read_bytes()))
    assert parse(gz)[0].keys() == parse(FIXTURE)[0].keys()
    upstream = write(tmp_path, "papers.json", fixture())                 # the repository's own name
    recs, _ = parse(upstream)
    assert {(r.venue, r.year) for r in recs.values()} == {("iros", 2026)}
    assert READER.file_key(load_path(upstream)) == "explorer:papers"


def test_bad_papers_are_skipped_with_where_and_why(tmp_path: Path) -> None:
    data = fixture()
    good = data["papers"]
    data["papers"] = [good[0], 7, {**good[1], "title": ""}, {**good[2], "authors": "Lu, Hong"},
                      {**good[3], "keywords": [1, 2]}, {**good[4], "authors": [{"aff": "MIT"}]},
                      {**good[5], "abstract": 3}, {**good[6], "title": ["a"]}, good[7], good[7]]
    p = READER.parse(load_path(write(tmp_path, "iros2026-papers.json", data)))
    assert [r.key for r in p.records] == ["IROS26-4323", "IROS26-4494"]
    assert p.skipped == [
        "paper 1: expected an object, found int",
        "paper 2: record has no title",
        "paper 3: 'authors' should be a list, found str",
        "paper 4: 'keywords' should be a list of text",
        "paper 5: each author should be an object with a 'name'",
        "paper 6: 'abstract' should be text, found int",
        "paper 7: record has no title",
        "paper 9: repeats an earlier record (IROS26-4494)",
    ]


@pytest.mark.parametrize("name, data, message", [
    ("iros2026-papers.json", b"{\"papers\": [", "not valid JSON"),
    ("iros2026-papers.json", b"\xff\xfe{}", "not valid JSON"),
    ("iros2026-papers.json", b"[]", "expected an object with a 'papers' list"),
    ("iros2026-papers.json", b'{"papers": {"a": 1}}', "expected an object with a 'papers' list"),
    ("iros2026-papers.json", b'{"papers": [], "source": "IROS 2026"}', "the 'papers' list is empty"),
    ("papers.json", b'{"papers": [{"title": "A"}], "source": "Paper Index"}',
     "no venue and year in 'source'"),
    ("papers.json", b'{"papers": [{"title": "A"}]}', "no venue and year in 'source'"),
])
def test_file_errors_are_one_line(tmp_path: Path, name: str, data: bytes, message: str) -> None:
    with pytest.raises(SourceError) as e:
        READER.parse(load_path(write(tmp_path, name, data)))
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_truncated_copies_raise_only_source_errors(tmp_path: Path) -> None:
    raw = FIXTURE.read_bytes()
    for n in range(0, len(raw), 97):
        path = write(tmp_path, "iros2026-papers.json", raw[:n])
        with pytest.raises(SourceError):
            READER.parse(load_path(path))
        assert not READER.sniff(load_path(path))


@pytest.mark.parametrize("name, data", [
    ("neurips-2024.json", {"venue": "neurips", "year": "2024", "papers": [{"title": "A", "authors": []}]}),
    ("orals.json", {"generated_at": "2026-01-01",
                    "papers": [{"title": "A", "authors": ["B"], "session": "Oral 1"}]}),
    ("iros2026-papers.json", [{"title": "A", "code": "x", "session_title": "y"}]),
    ("iros2026-papers.json", {"papers": [{"title": "A", "authors": []}], "note": "session_title code"}),
    ("iros2026-papers.json", b'{"papers": [{"code": "x", "session_title": "y", "title": "A", "authors": []}'),
])
def test_sniff_refuses_other_layouts(tmp_path: Path, name: str, data: object) -> None:
    assert not READER.sniff(load_path(write(tmp_path, name, data)))


def test_sniff_claims_only_its_fixture() -> None:
    claimed = [p.relative_to(FIXTURES).as_posix() for _, p in expand(str(FIXTURES))
               if p is not None and READER.sniff(load_path(p))]
    assert claimed == ["explorer/iros2026-papers.json"]
    assert READERS["explorer"] is not None and detect(load_path(FIXTURE)).name == "explorer"


@pytest.mark.corpus
def test_the_real_index() -> None:
    path = shared_data("iros2026") / "iros2026-papers.json.gz"
    recs, skipped = parse(path)
    assert skipped == [] and len(recs) == 1933
    assert all(r.authors and r.keywords and r.abstract is None for r in recs.values())
    assert all(a.affiliation for r in recs.values() for a in r.authors)
    assert sum(r.award is not None for r in recs.values()) == 32
    assert {r.extra["session_type"] for r in recs.values()} == {"Lightning Talks", "Focused Sessions",
                                                                "Award Candidates", "Special Sessions"}
    assert not [a.name for r in recs.values() for a in r.authors if "," in a.name]


@pytest.mark.corpus
def test_sniff_claims_only_the_iros_file_of_the_corpus() -> None:
    root = shared_data()
    claimed = [p.relative_to(root).as_posix() for _, p in expand(str(root))
               if p is not None and READER.sniff(load_path(p))]
    assert claimed == ["iros2026/iros2026-papers.json.gz"]
