"""Review scores of every submission (sources/scores.py): ICLR 2024's SQLite snapshots, ICLR 2026's
tracker (JSON lines and per-paper files) and its accepted papers' final scores (parquet), read from
../shared/data; hand-written rows for the corner cases; and the merge's inferred decisions."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from paperlist.ingest import ingest
from paperlist.merge import paper_from_records
from paperlist.models import Record, Review
from paperlist.sources import SourceError, detect, load_path
from paperlist.sources.scores import ScoresReader
from paperlist.store import Store

from .conftest import shared_data

READER = ScoresReader()


def db_file(tmp_path: Path, rows: list[tuple[str, str, str, str]], name: str = "iclr2024.db") -> Path:
    """An SQLite file in the tracker's layout: (url_id, title, r_0, r_2)."""
    path = tmp_path / name
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE submissions (url_id text PRIMARY KEY, title text, authors text, keywords text,"
        " pdf text, r_0 text, r_1 text, r_2 text, decision text, withdraw int)"
    )
    conn.executemany("INSERT INTO submissions VALUES (?,?,'','a, b','',?,'',?,'',0)", rows)
    conn.commit()
    conn.close()
    return path


def test_the_newest_snapshot_is_the_score_with_its_date(tmp_path: Path) -> None:
    src = load_path(
        db_file(
            tmp_path,
            [
                ("abcdefgh12", "A Paper", "3, 3", "5, 6, 8"),
                ("bcdefghi12", "Only Early", "4, 4", ""),
                ("cdefghij12", "No Scores", "", ""),
            ],
        )
    )
    assert detect(src).name == "scores"
    parsed = READER.parse(src)
    recs = {r.key: r for r in parsed.records}
    assert parsed.skipped == [] and set(recs) == {"abcdefgh12", "bcdefghi12", "cdefghij12"}
    a = recs["abcdefgh12"]
    assert (a.venue, a.year, a.status, a.census) == ("iclr", 2024, None, True)
    assert a.review is not None and a.review.ratings == [5.0, 6.0, 8.0] and a.review.as_of == "2023-12-03"
    assert a.keywords == ["a", "b"] and a.ids == {"openreview": "abcdefgh12"}
    early = recs["bcdefghi12"].review
    assert early is not None and early.ratings == [4.0, 4.0] and early.as_of == "2023-11-11"
    assert recs["cdefghij12"].review is None


def test_a_census_makes_the_papers_no_source_accepted_rejected() -> None:
    census = Record(
        source="scores",
        file="scores:iclr2024",
        key="k",
        venue="iclr",
        year=2024,
        title="A Paper",
        census=True,
        review=Review(ratings=[3.0, 5.0], mean=4.0, count=2, as_of="2023-12-03"),
    )
    accepted = Record(
        source="openreview",
        file="openreview:x",
        key="k",
        venue="iclr",
        year=2024,
        title="A Paper",
        status="poster",
        review=Review(ratings=[6.0, 8.0], mean=7.0, count=2),
    )
    alone = paper_from_records([census], "p")
    assert (alone.status, alone.accepted, alone.provenance["status"]) == (
        "rejected",
        False,
        "inferred:scores:iclr2024",
    )
    both = paper_from_records([census, accepted], "p")
    assert (both.status, both.provenance["status"]) == ("poster", "openreview:x")
    # final scores beat a snapshot taken before decisions, even with as many ratings
    assert both.review is not None and both.review.as_of is None and both.review.mean == 7.0


def test_the_newer_of_two_snapshots_wins() -> None:
    def rec(file: str, as_of: str) -> Record:
        return Record(
            source="scores",
            file=file,
            key="k",
            venue="iclr",
            year=2026,
            title="A Paper",
            census=True,
            review=Review(ratings=[4.0, 6.0], mean=5.0, count=2, as_of=as_of),
        )

    p = paper_from_records([rec("scores:a", "2025-11-12"), rec("scores:b", "2025-11-22")], "p")
    assert p.review is not None and p.review.as_of == "2025-11-22"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            b'{"forum": "abcdefgh12", "title": "T", "venue": "Somewhere", "ratings": [6]}',
            "names no venue and year",
        ),
        (
            b'{"forum": "x", "title": "T", "venue": "ICLR 2026 Conference Submission", "ratings": [6]}',
            "is not one",
        ),
        (
            b'{"forum": "abcdefgh12", "title": "", "venue": "ICLR 2026 Conference Submission", '
            b'"ratings": [6]}',
            "record has no title",
        ),
        (b'{"forum": "abcdefgh12", "title": "T", "venue": "ICLR 2026", "ratings": [6]', "not valid JSON"),
    ],
)
def test_bad_lines_are_skipped_with_a_reason(tmp_path: Path, line: bytes, message: str) -> None:
    good = (
        b'{"forum": "goodgood12", "title": "Good", "venue": "ICLR 2026 Conference Submission", '
        b'"withdrawn": true, "ratings": [6, 4], "confidences": [3, 2], "soundness": [3, 2], '
        b'"paper_mdate": 1763778951444}'
    )
    path = tmp_path / "tracker.jsonl"
    path.write_bytes(good + b"\n" + line + b"\n")
    parsed = READER.parse(load_path(path))
    (rec,) = parsed.records
    assert (rec.key, rec.status, rec.census) == ("goodgood12", "withdrawn", False)
    assert rec.review is not None and rec.review.dims == {"soundness": [3.0, 2.0]}
    assert rec.review.as_of == "2025-11-22"  # the newest paper_mdate in the file
    assert len(parsed.skipped) == 1 and message in parsed.skipped[0], parsed.skipped


@pytest.mark.corpus
def test_the_real_files() -> None:
    def parse(rel: str) -> list[Record]:
        src = load_path(shared_data(rel))
        assert detect(src).name == "scores"
        parsed = READER.parse(src)
        assert parsed.skipped == [], parsed.skipped[:3]
        return parsed.records

    iclr24 = parse("openreview-exports/iclr2024-ratings/iclr2024.db")
    assert len(iclr24) == 7215 and all(r.review and r.review.as_of == "2023-12-03" for r in iclr24)
    assert sum(len(r.review.ratings) for r in iclr24 if r.review) == 27824
    lines = parse("openreview-exports/iclr2026-reviews/iclr2026_submissions_ratings.jsonl.gz")
    assert len(lines) == 19630 and Counter(r.status for r in lines) == {None: 17279, "withdrawn": 2351}
    assert sum(len(r.review.ratings) for r in lines if r.review) == 76816
    assert {r.review.as_of for r in lines if r.review} == {"2025-11-22"}
    sample = parse("openreview-exports/iclr2026-reviews/raw_samples/00F7BfXLYJ.json.gz")
    (same,) = [r for r in lines if r.key == "00F7BfXLYJ"]
    assert sample[0].review is not None and same.review is not None
    assert sample[0].review.ratings == same.review.ratings  # the per-paper file, the same scores
    accepted = parse("openreview-exports/iclr2026-accepted-ratings/iclr_2026_accepted.parquet")
    assert len(accepted) == 5358 and Counter(r.status for r in accepted) == {"poster": 5134, "oral": 224}
    assert all(r.review and r.review.as_of is None and r.review.ratings for r in accepted)


@pytest.mark.corpus
def test_iclr_2024_every_submission_and_its_decision(tmp_path: Path) -> None:
    store = Store(tmp_path / "paperlist.db")
    rep = ingest(
        store,
        [
            str(shared_data("openreview-exports/iclr2024-ratings")),
            str(shared_data("ai-top-conf-jsons/ICLR/iclr_2024.json.gz")),
        ],
        jobs=1,
    )
    assert rep.failed == 0
    counts = dict(store.db.execute("SELECT accepted, count(*) FROM papers GROUP BY accepted").fetchall())
    assert counts == {1: 2260, 0: 4955}  # every accepted one is among the 7,215
    inferred = store.db.execute(
        "SELECT count(*) FROM papers WHERE json_extract(provenance, '$.status') LIKE 'inferred:%'"
    ).fetchone()[0]
    assert inferred == 4955


def test_a_truncated_database_fails_in_one_line(tmp_path: Path) -> None:
    path = db_file(tmp_path, [("abcdefgh12", "A Paper", "3", "5")])
    broken = tmp_path / "iclr2025.db"
    broken.write_bytes(path.read_bytes()[:5000])
    src = load_path(broken)
    with pytest.raises(SourceError):  # not a readable database, or no longer one at all
        detect(src).parse(src)
