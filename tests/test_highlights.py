"""The NeurIPS 2026 orals and spotlights (sources/highlights.py): the real file in ../shared/data,
and hand-written records for the author strings' corner cases and the error paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperlist.sources import READERS, SourceError, detect, load_path
from paperlist.sources.highlights import HighlightsReader, split_authors

from .conftest import shared_data

READER = HighlightsReader()


def write(tmp_path: Path, records: object, name: str = "highlights.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    return path


def paper(**over: object) -> dict[str, object]:
    p: dict[str, object] = {
        "id": "151014",
        "title": "Catch-Only-One: Non-Transferable Examples",
        "authors": "Zihan Wang (University of Adelaide), Minhui Xue (Data61, CSIRO)",
        "url": "https://neurips.cc/virtual/2026/poster/151014",
        "openreview": "https://openreview.net/forum?id=db0FP1G7V7",
        "decision": "Oral",
        "track": "Main",
        "area": "Alignment, safety & interpretability",
        "summary_ko": "요약",
        "in_scope": [],
    }
    p.update(over)
    return p


@pytest.mark.parametrize(
    ("authors", "expected"),
    [
        # commas inside an affiliation do not split authors
        (
            "Bohan Lyu (University of California, Berkeley), Yucheng Yang (Tsinghua University)",
            [("Bohan Lyu", "University of California, Berkeley"), ("Yucheng Yang", "Tsinghua University")],
        ),
        # an author without an affiliation between two with one
        (
            "Yunchan Jeon (Chung-Ang University), SOO GON KIM, Seungwook Kim (POSTECH)",
            [("Yunchan Jeon", "Chung-Ang University"), ("SOO GON KIM", None), ("Seungwook Kim", "POSTECH")],
        ),
        # parentheses inside an affiliation
        (
            "Xiaoran Zhao (China University of Petroleum (East China)), Wei Li",
            [("Xiaoran Zhao", "China University of Petroleum (East China)"), ("Wei Li", None)],
        ),
        # a nickname in parentheses inside the name
        (
            "Yun-Nung (Vivian) Chen (National Taiwan University)",
            [("Yun-Nung Chen", "National Taiwan University")],
        ),
        # entities escaped once and twice, and quotes around an affiliation
        (
            "Federico D&amp;#x27;Agostino (University of T&#252;bingen), "
            "Carlos Guestrin (Apple &amp;amp; UW), "
            "Ling Chen (&quot; University of Technology, Sydney&quot;)",
            [
                ("Federico D'Agostino", "University of Tübingen"),
                ("Carlos Guestrin", "Apple & UW"),
                ("Ling Chen", "University of Technology, Sydney"),
            ],
        ),
        ("", []),
    ],
)
def test_author_strings(authors: str, expected: list[tuple[str, str | None]]) -> None:
    assert [(a.name, a.affiliation) for a in split_authors(authors)] == expected


def test_a_record_with_its_decision_track_ids_and_links(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        [
            paper(),
            paper(
                id="2",
                title="An Evaluation",
                decision="Spotlight",
                track="Evaluations & Datasets",
                authors="Ann Lee",
                openreview="https://openreview.net/forum?id=SYResv1L06",
                url="https://neurips.cc/virtual/2026/poster/2",
            ),
        ],
    )
    src = load_path(path)
    assert detect(src).name == "highlights"
    assert READER.file_key(src) == "highlights:neurips2026-highlights"
    parsed = READER.parse(src)
    assert parsed.skipped == []
    a, b = parsed.records
    assert (a.venue, a.year, a.status, a.track, a.key) == ("neurips", 2026, "oral", "main", "db0FP1G7V7")
    assert a.ids == {"openreview": "db0FP1G7V7"}
    assert a.links == {
        "site": "https://neurips.cc/virtual/2026/poster/151014",
        "openreview": "https://openreview.net/forum?id=db0FP1G7V7",
    }
    assert a.extra == {"area": "Alignment, safety & interpretability"}  # summary_ko is not paper data
    assert a.abstract is None
    # "Evaluations & Datasets" is the track NeurIPS called Datasets & Benchmarks until 2025
    assert (b.status, b.track) == ("spotlight", "datasets-and-benchmarks")


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ([paper(decision="Reject")], "is not an acceptance"),
        ([paper(authors=["Ann Lee"])], "'authors' should be one string"),
        ([paper(title="")], "record has no title"),
        (["not an object"], "expected an object"),
    ],
)
def test_bad_records_are_skipped_with_a_reason(tmp_path: Path, records: list[object], message: str) -> None:
    good = paper(id="9", title="Another paper", openreview="not a forum link")
    parsed = READER.parse(load_path(write(tmp_path, [*records, good])))
    assert [r.title for r in parsed.records] == ["Another paper"]
    assert parsed.records[0].key == "site:9" and parsed.records[0].ids == {}
    assert len(parsed.skipped) == 1 and message in parsed.skipped[0], parsed.skipped


def test_a_file_without_virtual_site_links_fails_in_one_line(tmp_path: Path) -> None:
    records = [paper(url="https://example.org/1")]
    path = write(tmp_path, records)
    # the sniffer does not claim it; named explicitly with --format it fails with the reason
    assert not READER.sniff(load_path(path))
    with pytest.raises(SourceError, match="venue and year are unknown"):
        READERS["highlights"].parse(load_path(path))


@pytest.mark.corpus
def test_the_real_file() -> None:
    src = load_path(shared_data("neurips2026/highlights.json"))
    assert detect(src).name == "highlights"
    parsed = READER.parse(src)
    recs = parsed.records
    assert parsed.skipped == [] and len(recs) == 405
    assert {(r.venue, r.year) for r in recs} == {("neurips", 2026)}
    assert sum(r.status == "oral" for r in recs) == 118 and sum(r.status == "spotlight" for r in recs) == 287
    assert sum(r.track == "datasets-and-benchmarks" for r in recs) == 42
    assert all(r.authors and "openreview" in r.ids for r in recs)
    names = [a.name for r in recs for a in r.authors]
    affs = [a.affiliation or "" for r in recs for a in r.authors]
    assert not [n for n in names if "(" in n or ")" in n or "&" in n or "," in n]
    assert not [a for a in affs if "&amp;" in a or "&#" in a or a.startswith(('"', "'"))]
    assert sum(bool(a) for a in affs) > 0.9 * len(affs)
