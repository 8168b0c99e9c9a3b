"""The real corpus in ../shared/data (skipped with a reason when it is absent)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperlist.ingest import ingest
from paperlist.store import Store

from .conftest import shared_data

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module")
def papercopilot_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, Path]:
    root = shared_data("papercopilot")
    store = Store(tmp_path_factory.mktemp("corpus") / "paperlist.db")
    rep = ingest(store, [str(root)])
    assert rep.failed == 0, [f.error for f in rep.files if f.status == "failed"]
    return store, root


def test_every_manifest_record_is_stored_or_skipped_with_a_reason(papercopilot_store: tuple[Store, Path]) -> None:
    store, root = papercopilot_store
    manifest = json.loads((root / "MANIFEST.json").read_text())
    stored = {k: (n, s) for k, n, s in store.db.execute("SELECT key, records, skipped FROM files")}
    assert len(stored) == len(manifest["files"]) == 277
    for f in manifest["files"]:
        key = "papercopilot:" + Path(f["file"]).name.removesuffix(".json.gz")
        records, skipped = stored[key]
        assert records + skipped == f["records"], key
    stats = store.stats()
    total = sum(f["records"] for f in manifest["files"])
    # the only records not stored are untitled entries and repeated listings of the same paper
    assert stats["papers"] == stats["records"] >= total - 450
    assert stats["venues"] == 31 and stats["venue_years"] == 281


def test_known_papers(papercopilot_store: tuple[Store, Path]) -> None:
    store, _ = papercopilot_store
    (pid,) = store.resolve_id("11127")
    p = store.get_paper(pid)
    assert p is not None and (p.venue, p.year) == ("neurips", 2018)
    assert [a.name for a in p.authors] == ["Lijun Zhang", "Zhi-Hua Zhou"]
    # one author key across venues and years
    venues = {store.get_paper(x).venue for x in store.author_papers("zhihua-zhou")}  # type: ignore[union-attr]
    assert {"neurips", "icml", "aaai", "ijcai"} <= venues


def test_reingest_changes_nothing(papercopilot_store: tuple[Store, Path]) -> None:
    store, root = papercopilot_store
    before = store.stats()
    rep = ingest(store, [str(root)])
    assert rep.totals().new == 0 and rep.totals().updated == 0 and rep.papers.new == 0
    assert store.stats() == before
