"""The real corpus in ../shared/data, all sources merged (skipped with a reason when absent)."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from paperlist.ingest import ingest
from paperlist.store import Store
from paperlist.text import title_key

from .conftest import shared_data

pytestmark = pytest.mark.corpus

# The only (title, venue family, year) shared by more than one paper, each checked by hand:
# different papers that really carry the same title.
TRUE_SAME_TITLE = {
    ("iclr:2018", "withdrawn"): "placeholder title of withdrawn submissions",
    ("iclr:2019", "na"): "placeholder title ('NA', 'N/A') of withdrawn submissions",
    ("iclr:2021", "blank"): "placeholder title of withdrawn submissions",
    ("iclr:2021", "withdraw"): "placeholder title of withdrawn submissions",
    ("jmlr:2013", "bayesiancanonicalcorrelationanalysis"): "Klami et al. and Wang & Blei: two papers",
    ("jmlr:2013", "usingsymmetryandevolutionarysearchtominimizesortingnetworks"): "Liu & Ihler; Valsalam & "
                                                                                   "Miikkulainen",
    ("mlj:2007", "statisticalpropertiesofkernelprincipalcomponentanalysis"): "Blanchard et al.; Zwald",
    ("neurips:2024", "reproducibilitystudyofrobustfairclusteringanovelfairnessattackanddefenseframework"):
        "two reproducibility studies by different teams",
    ("tmlr:2024", "reproducibilitystudyofrobustfairclusteringanovelfairnessattackanddefenseframework"):
        "the same two studies in TMLR",
    ("wacv:2014", "carmakeandmodelrecognitionusing3dcurvealignment"): "Hsiao et al.; Ramnath et al.",
}


def test_issue_3_figures(corpus_store: Store) -> None:
    s = corpus_store.stats()
    assert s["papers"] >= 245_000 and s["venues"] >= 45
    acc, with_abstract = corpus_store.db.execute(
        "SELECT count(*), count(abstract) FROM papers WHERE accepted=1").fetchone()
    assert with_abstract / acc >= 0.90
    assert set(s["sources"]) == {"papercopilot", "mlanthology", "acl", "openreview"}


def test_no_duplicate_titles_except_true_ones(corpus_store: Store) -> None:
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for pid, block, title in corpus_store.db.execute("SELECT id, block, title FROM papers"):
        groups[(block, title_key(title))].append(pid)
    dups = {k for k, v in groups.items() if len(v) > 1}
    assert dups == set(TRUE_SAME_TITLE)


def test_every_papercopilot_manifest_record_is_stored_or_skipped(corpus_store: Store) -> None:
    manifest = json.loads((shared_data("papercopilot") / "MANIFEST.json").read_text())
    stored = {k: (n, s) for k, n, s in corpus_store.db.execute("SELECT key, records, skipped FROM files")}
    for f in manifest["files"]:
        key = "papercopilot:" + Path(f["file"]).name.removesuffix(".json.gz")
        records, skipped = stored[key]
        assert records + skipped == f["records"], key


def test_known_papers(corpus_store: Store) -> None:
    (pid,) = corpus_store.resolve_id("11127")
    p = corpus_store.get_paper(pid)
    assert p is not None and (p.venue, p.year) == ("neurips", 2018)
    assert [a.name for a in p.authors] == ["Lijun Zhang", "Zhi-Hua Zhou"]
    assert p.abstract and p.status == "poster"
    venues = {p.venue for p in corpus_store.get_papers(corpus_store.author_papers("zhihua-zhou"))}
    assert {"neurips", "icml", "aaai", "ijcai"} <= venues


def test_coverage_lists_every_venue_year_with_its_sources(corpus_store: Store) -> None:
    rows = {(r["venue"], r["year"]): r for r in corpus_store.coverage()}
    iclr25 = rows[("iclr", 2025)]
    assert {s["source"] for s in iclr25["sources"]} == {"openreview", "mlanthology"}
    assert iclr25["papers"] >= 11_600 and 3_600 <= iclr25["accepted"] <= 3_800
    assert sum(r["papers"] for r in rows.values()) == corpus_store.stats()["papers"]


def test_reingest_changes_nothing(corpus_store: Store) -> None:
    before = corpus_store.stats()
    rep = ingest(corpus_store, [str(shared_data())])
    assert rep.totals().new == 0 and rep.totals().updated == 0 and rep.papers.new == 0
    assert corpus_store.stats() == before
