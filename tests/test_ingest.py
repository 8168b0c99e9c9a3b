"""Ingest into a real SQLite store: counts, idempotence, updates in place, stable ids, bad input."""

from __future__ import annotations

import gzip
import json
import shutil
import time
from pathlib import Path

import pytest

from paperlist.ingest import ingest, merge_pending
from paperlist.sources import detect, load_path
from paperlist.store import Store, encode_record

from .conftest import PAPERCOPILOT, run_cli, snapshot

N_FIXTURE_PAPERS = 16   # records in tests/fixtures/papercopilot minus 2 skipped


def copy_fixtures(tmp_path: Path) -> Path:
    d = tmp_path / "src"
    shutil.copytree(PAPERCOPILOT, d)
    return d


def test_ingest_counts_and_idempotence(store: Store, tmp_path: Path) -> None:
    src = copy_fixtures(tmp_path)
    rep = ingest(store, [str(src)], jobs=1)
    assert rep.failed == 0 and len(rep.files) == 8
    t = rep.totals()
    assert (t.new, t.updated, t.unchanged, t.removed, t.skipped) == (N_FIXTURE_PAPERS, 0, 0, 0, 2)
    assert rep.papers.new == N_FIXTURE_PAPERS
    before = snapshot(store.path)
    again = ingest(store, [str(src)], jobs=1)
    t2 = again.totals()
    assert (t2.new, t2.updated, t2.unchanged, t2.skipped) == (0, 0, N_FIXTURE_PAPERS, 2)
    assert all(f.status == "unchanged" for f in again.files)
    assert snapshot(store.path) == before
    time.sleep(1.1)              # a rewritten ingested_at (seconds) would now show in the snapshot
    forced = ingest(store, [str(src)], force=True, jobs=1)            # re-parsed, still nothing changes
    assert forced.totals().unchanged == N_FIXTURE_PAPERS and forced.papers.new == 0
    assert snapshot(store.path) == before


def test_parallel_workers_give_the_same_store(tmp_path: Path) -> None:
    a, b = Store(tmp_path / "a.db"), Store(tmp_path / "b.db")
    ingest(a, [str(PAPERCOPILOT)], jobs=1)
    ingest(b, [str(PAPERCOPILOT)], jobs=2)
    assert [r for r in a.db.execute("SELECT id, hash FROM papers ORDER BY id")] == \
        [r for r in b.db.execute("SELECT id, hash FROM papers ORDER BY id")]


def test_stats_and_shared_author_keys(pc_store: Store) -> None:
    s = pc_store.stats()
    assert s["papers"] == N_FIXTURE_PAPERS and s["files"] == 8
    assert s["accepted"] == N_FIXTURE_PAPERS - 3          # withdrawn, rejected, desk-rejected
    assert s["venues"] == 8 and s["venue_keys"] == 9       # Findings of ACL is a sub-venue of ACL
    # "Lijun Zhang" at NeurIPS 2018 and CVPR 2023 is one author key with two papers
    papers = pc_store.get_papers(pc_store.author_papers("lijun-zhang"))
    assert sorted((p.venue, p.year) for p in papers) == [("cvpr", 2023), ("neurips", 2018)]
    # "Zhi-Hua Zhou" and "Zhou, Zhi-Hua" too
    assert len(pc_store.author_papers("zhihua-zhou")) == 2


def test_paper_ids_are_stable_across_stores_and_found_by_source_id(tmp_path: Path, pc_store: Store) -> None:
    other = Store(tmp_path / "other.db")
    ingest(other, [str(PAPERCOPILOT / "nips")], jobs=1)
    (pid,) = pc_store.resolve_id("11127")
    assert other.resolve_id("11127") == [pid] and pid.startswith("neurips2018-")
    p = pc_store.get_paper(pid)
    assert p is not None and [a.name for a in p.authors] == ["Lijun Zhang", "Zhi-Hua Zhou"]
    assert p.provenance["title"] == "papercopilot:nips2018"
    (cvpr,) = pc_store.resolve_id("2211.12018")               # arXiv ids resolve too
    assert cvpr.startswith("cvpr2023-")


def test_changed_record_is_updated_in_place_and_removed_record_goes(store: Store, tmp_path: Path) -> None:
    src = copy_fixtures(tmp_path)
    ingest(store, [str(src)], jobs=1)
    (pid,) = store.resolve_id("11127")
    f = src / "nips" / "nips2018.json"
    data = json.loads(f.read_text())
    data[0]["abstract"] = "A corrected abstract that is long enough to be kept."
    del data[2]
    f.write_text(json.dumps(data))
    rep = ingest(store, [str(src)], jobs=1)
    nips = next(fr for fr in rep.files if fr.key == "papercopilot:nips2018")
    assert (nips.counts.new, nips.counts.updated, nips.counts.unchanged, nips.counts.removed) == (0, 1, 1, 1)
    assert (rep.papers.new, rep.papers.updated, rep.papers.removed) == (0, 1, 1)
    assert store.resolve_id("11127") == [pid]
    paper = store.get_paper(pid)
    assert paper is not None and paper.abstract == "A corrected abstract that is long enough to be kept."
    assert store.resolve_id("11129") == []
    assert store.stats()["papers"] == N_FIXTURE_PAPERS - 1


def test_interrupted_merge_is_finished_later(store: Store) -> None:
    src = load_path(PAPERCOPILOT / "nips" / "nips2018.json")
    reader = detect(src)
    parsed = reader.parse(src)
    # the file stage committed, the merge never ran (as after Ctrl-C)
    store.replace_file_records(reader.file_key(src), reader.name, "x", src.sha256, reader.version,
                               [encode_record(r) for r in parsed.records], 0)
    assert store.stats()["pending_merge"] == 1 and store.stats()["papers"] == 0
    counts = merge_pending(store)
    assert counts.new == 3 and store.stats()["pending_merge"] == 0


BAD_FILES = [
    ("nips2020.json", b"{not json", "not valid JSON"),
    ("nips2020.json.gz", gzip.compress(b'[{"title": "A"}]' * 50)[:40], "truncated or corrupt gzip data"),
    ("nips2020.json", b'{"title": "an object"}', "expected a JSON list of papers, found an object"),
    ("nips.json", b'[{"title": "A"}]', "file name 'nips.json' has no year"),
    ("nips2020.json", b"\xff\xfe[]", "not valid JSON"),
]


@pytest.mark.parametrize("name, content, message", BAD_FILES)
def test_bad_files_fail_cleanly_and_leave_the_store_unchanged(home: Path, tmp_path: Path, name: str,
                                                              content: bytes, message: str) -> None:
    assert run_cli(home, "ingest", "-q", str(PAPERCOPILOT / "nips")).exit_code == 0
    before = snapshot(home / "paperlist.db")
    bad = tmp_path / name
    bad.write_bytes(content)
    result = run_cli(home, "ingest", "-q", str(bad))
    assert result.exit_code == 1
    lines = [ln for ln in result.stderr.splitlines() if ln.startswith("failed")]
    assert len(lines) == 1 and str(bad) in lines[0] and message in lines[0]
    assert "Traceback" not in result.stderr + result.stdout
    assert snapshot(home / "paperlist.db") == before


def test_a_bad_file_does_not_stop_the_good_ones(home: Path, tmp_path: Path) -> None:
    bad = tmp_path / "nips2020.json"
    bad.write_bytes(b"[{]")
    result = run_cli(home, "ingest", "-q", str(bad), str(PAPERCOPILOT / "kdd"))
    assert result.exit_code == 1
    assert Store(home / "paperlist.db").stats()["papers"] == 1


def test_record_level_problems_are_counted_and_named(home: Path, tmp_path: Path) -> None:
    f = tmp_path / "icml2020.json"
    f.write_text(json.dumps([{"title": "Good One", "author": "A B"}, {"author": "No Title"},
                             {"title": ["not", "text"]}, {"title": "Good Two", "author": 7}]))
    result = run_cli(home, "ingest", "-q", str(f))
    assert result.exit_code == 0
    assert "skipped 3" in result.stdout                       # counted in the summary ...
    reports = list((home / "reports").glob("ingest-*.jsonl"))  # ... and named in the report it names
    assert len(reports) == 1 and str(reports[0]) in result.stdout
    reasons = [json.loads(line)["reason"] for line in reports[0].read_text().splitlines()]
    assert "record 1: record has no title" in reasons
    assert "record 2: 'title' should be text, found a list" in reasons and len(reasons) == 3
    # --verbose names them as the file is read, after its per-file line
    verbose = run_cli(home, "ingest", "-q", "--verbose", "--force", str(f))
    assert "skipped    3" in verbose.stdout
    assert f"skipped {f}: record 1: record has no title" in verbose.stderr
    assert f"skipped {f}: record 2: 'title' should be text, found a list" in verbose.stderr
    assert Store(home / "paperlist.db").stats()["papers"] == 1


def test_missing_path_and_unknown_files(home: Path, tmp_path: Path) -> None:
    d = tmp_path / "mixed"
    d.mkdir()
    (d / "README.md").write_text("not data")
    (d / "notes.json").write_text('{"what": "not a paper list"}')
    shutil.copy(PAPERCOPILOT / "kdd" / "kdd2024.json", d)
    result = run_cli(home, "ingest", "-q", str(d), str(tmp_path / "nope.json"))
    assert result.exit_code == 1
    assert "ignored   " in result.stdout and "notes.json: unrecognized file format" in result.stdout
    assert f"failed    {tmp_path / 'nope.json'}: no such file or directory" in result.stderr
    assert Store(home / "paperlist.db").stats()["papers"] == 1


def test_files_that_describe_a_folder_are_passed_by_quietly(home: Path, tmp_path: Path) -> None:
    """A data folder's PROVENANCE.txt, a programme's conference.json and a file of counts hold no
    papers: the summary does not ask the user to act on them. A paper list named like one is read."""
    d = tmp_path / "folder"
    d.mkdir()
    (d / "PROVENANCE.txt").write_text("repository: x/y @ abc123\nlicense: none\n")
    (d / "conference.json").write_text(json.dumps({"id": "ijcai-2026", "name": "IJCAI-ECAI 2026",
                                                    "source": {"adapter": "ijcai_html", "url": "https://x"}}))
    (d / "meta.json").write_text(json.dumps({"generated_at": "2026-06-26", "paper_count": 6341,
                                             "venue_counts": {"regular": 5805, "spotlight": 536}}))
    (d / "notes.json").write_text('{"what": "not a paper list"}')
    shutil.copy(PAPERCOPILOT / "kdd" / "kdd2024.json", d / "kdd2024.json")
    result = run_cli(home, "ingest", "-q", "--no-index", str(d))
    assert result.exit_code == 0, result.stderr
    assert "notes.json: unrecognized file format" in result.stdout
    for name in ("PROVENANCE.txt", "conference.json", "meta.json"):
        assert name not in result.stdout + result.stderr
    assert Store(home / "paperlist.db").stats()["papers"] == 1


def test_ingest_from_url_matches_local_file(home: Path, http_root: str, tmp_path: Path) -> None:
    result = run_cli(home, "ingest", "-q", f"{http_root}/nips/nips2018.json",
                     f"{http_root}/nips/nips2099.json")
    assert result.exit_code == 1
    assert "download failed: HTTP 404" in result.stderr
    local = Store(tmp_path / "local.db")
    ingest(local, [str(PAPERCOPILOT / "nips" / "nips2018.json")], jobs=1)
    remote = Store(home / "paperlist.db")
    assert [tuple(r) for r in remote.db.execute("SELECT id, hash FROM papers ORDER BY id")] == \
        [tuple(r) for r in local.db.execute("SELECT id, hash FROM papers ORDER BY id")]
    # the same file from a URL and from disk is one file (keyed by name, not location)
    again = run_cli(home, "ingest", "-q", str(PAPERCOPILOT / "nips" / "nips2018.json"))
    assert "unchanged" in again.stdout


def _indexes(store: Store) -> set[str]:
    return {r[0] for r in store.db.execute("SELECT name FROM sqlite_master "
                                           "WHERE type='index' AND sql IS NOT NULL")}


def test_bulk_load_rebuilds_indexes_even_when_interrupted(store: Store) -> None:
    full = _indexes(store)
    assert {"papers_venue_year", "paper_authors_author", "records_block"} <= full
    with pytest.raises(KeyboardInterrupt):
        with store.bulk_load():
            during = _indexes(store)
            assert ("paper_authors_author" not in during and "papers_block" in during
                    and "records_block" in during)
            raise KeyboardInterrupt
    assert _indexes(store) == full
    store.db.execute("DROP INDEX papers_status")          # as if a process died inside bulk_load
    reopened = Store(store.path)
    assert _indexes(reopened) == full


def test_bulk_load_keeps_the_indexes_a_re_merge_deletes_by(store: Store) -> None:
    """Re-merging a changed paper deletes its child rows by paper id; during a bulk load each of
    those deletes must still use an index (without one, a re-ingest of 200 changed blocks scanned
    paper_ids once per paper and took an hour)."""
    tables = ("paper_authors", "links", "keywords", "paper_ids", "paper_reviews")
    with store.bulk_load():
        for table in tables:
            plan = " ".join(str(r[-1]) for r in store.db.execute(
                f"EXPLAIN QUERY PLAN DELETE FROM {table} WHERE paper_id=?", ("x",)))
            assert "USING" in plan and not plan.startswith("SCAN"), (table, plan)
