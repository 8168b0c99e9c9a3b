"""Every fixture source ingested together into a real store: routing, merging across sources,
idempotence."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperlist.ingest import ingest
from paperlist.store import Store
from paperlist.text import plain

from .conftest import FIXTURES, PAPERCOPILOT

ACL = FIXTURES / "acl"
OPENREVIEW = FIXTURES / "openreview"


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Store:
    store = Store(tmp_path_factory.mktemp("mixed") / "paperlist.db")
    rep = ingest(store, [str(PAPERCOPILOT), str(ACL), str(OPENREVIEW)], jobs=1)
    assert rep.failed == 0, [(f.name, f.error) for f in rep.files if f.status == "failed"]
    assert all(f.status == "ingested" for f in rep.files)
    return store


def test_every_file_goes_to_its_reader(mixed: Store) -> None:
    rows = mixed.db.execute("SELECT key, source, location FROM files").fetchall()
    assert len(rows) == 8 + 8 + 8
    for key, source, location in rows:
        assert key.split(":", 1)[0] == source
        assert Path(location).is_relative_to({"papercopilot": PAPERCOPILOT, "acl": ACL,
                                              "openreview": OPENREVIEW}[source])
    keys = {r[0] for r in rows}
    assert {"acl:2023.tacl", "openreview:iclr2026-orals", "openreview:iclr2026-accepted-optimization",
            "openreview:iclr2025-decisions", "openreview:robot-learning_org_CoRL_2025_Conference"} <= keys


def test_acl_and_papercopilot_records_of_one_paper_merge(mixed: Store) -> None:
    (pid,) = mixed.resolve_id("2022.acl-long.39")
    p = mixed.get_paper(pid)
    assert p is not None
    assert sorted(s.split(":")[0] for s in p.sources) == ["acl", "papercopilot"]
    assert (p.venue, p.year, p.track, p.status) == ("acl", 2022, "long", "accepted")
    assert p.provenance["title"] == "acl:2022.acl"
    assert p.biblio["bibkey"] == "zhang-etal-2022-learn" and p.biblio["pages"] == "517--527"
    assert ("pdf", "https://aclanthology.org/2022.acl-long.39.pdf") in p.links


def test_iclr2026_csv_and_orals_merge_by_openreview_id(mixed: Store) -> None:
    (pid,) = mixed.resolve_id("yRtgZ1K8hO")
    p = mixed.get_paper(pid)
    assert p is not None and (p.venue, p.year, p.status) == ("iclr", 2026, "oral")
    assert sorted(p.sources) == ["openreview:iclr2026-accepted-optimization#yRtgZ1K8hO",
                                 "openreview:iclr2026-orals#yRtgZ1K8hO"]
    assert p.authors[0].name == "Noah Amsel"          # only the orals file has authors
    assert p.summary_zh and "\n" in p.summary_zh                        # only the CSV has explain_zh
    assert p.ids["arxiv"] == "2505.16932"


def test_display_and_plain_forms_are_stored(mixed: Store) -> None:
    (pid,) = mixed.resolve_id("2022.acl-long.247")
    p = mixed.get_paper(pid)
    assert p is not None
    assert "*Not*" in p.title and p.title_plain == plain(p.title) and "*" not in p.title_plain
    assert p.abstract_plain and "*" not in p.abstract_plain


def test_reingest_changes_nothing(mixed: Store) -> None:
    before = mixed.stats()
    rep = ingest(mixed, [str(PAPERCOPILOT), str(ACL), str(OPENREVIEW)], jobs=1)
    assert all(f.status == "unchanged" for f in rep.files)
    assert rep.totals().new == 0 and rep.papers.new == 0 and mixed.stats() == before
