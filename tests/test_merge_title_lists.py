"""Records that carry only a title and a link (ai-top-conf-jsons) and annotations that carry only an
OpenReview id (ICML 2026 categories and institutions) join the papers the other sources list: real
overlapping records copied into tests/fixtures/merge, ingested into real stores."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from paperlist.ingest import ingest
from paperlist.merge.match import strong_keys
from paperlist.models import Paper, Record
from paperlist.store import Store

from .conftest import FIXTURES

MERGE = FIXTURES / "merge"
OTHERS = [MERGE / "papercopilot", MERGE / "mlanthology", MERGE / "openreview"]
LISTS, GROUPS = MERGE / "aitopconf", MERGE / "orgroups"


def counts(store: Store) -> Counter[tuple[str, int]]:
    return Counter({(v, y): n for v, y, n in store.db.execute(
        "SELECT venue, year, count(*) FROM papers GROUP BY venue, year")})


def by_title(store: Store, start: str) -> Paper:
    rows = store.db.execute("SELECT id FROM papers WHERE title LIKE ?", (start + "%",)).fetchall()
    assert len(rows) == 1, (start, rows)
    p = store.get_paper(rows[0][0])
    assert p is not None
    return p


@pytest.fixture(scope="module")
def before(tmp_path_factory: pytest.TempPathFactory) -> Store:
    st = Store(tmp_path_factory.mktemp("before") / "paperlist.db")
    assert ingest(st, [str(p) for p in OTHERS], jobs=1).failed == 0
    return st


@pytest.fixture(scope="module")
def after(tmp_path_factory: pytest.TempPathFactory) -> Store:
    st = Store(tmp_path_factory.mktemp("after") / "paperlist.db")
    assert ingest(st, [str(p) for p in [*OTHERS, LISTS, GROUPS]], jobs=1).failed == 0
    return st


def listed_alone(store: Store) -> Counter[tuple[str, int]]:
    """Papers that only a title list (and the annotations of its papers) knows, per venue-year."""
    out: Counter[tuple[str, int]] = Counter()
    for v, y, sources in store.db.execute("SELECT venue, year, sources FROM papers"):
        if {s.split(":")[0] for s in json.loads(sources)} <= {"aitopconf", "orgroups"}:
            out[(v, y)] += 1
    return out


def test_title_lists_add_no_copy_of_a_paper_we_have(before: Store, after: Store) -> None:
    grown = counts(after) - counts(before)
    alone = listed_alone(after)
    # every venue-year grows by exactly the papers only the list has (one per fixture file)
    assert grown == alone
    assert alone == Counter({("iclr", 2025): 1, ("icml", 2024): 1, ("neurips", 2024): 1, ("icml", 2026): 3})


def test_an_iclr_2025_paper_in_mlanthology_and_the_list_is_one_paper_with_both_links(after: Store) -> None:
    p = by_title(after, "DarkBench")
    assert sorted(s.split(":")[0] for s in p.sources) == ["aitopconf", "mlanthology", "openreview"]
    urls = {u for _, u in p.links}
    assert "https://openreview.net/forum?id=odjMSBSWRt" in urls and any(u.endswith(".pdf") for u in urls)
    assert p.abstract and p.provenance["abstract"].startswith("mlanthology:")
    assert p.provenance["title"].split(":")[0] != "aitopconf"          # the list's title comes last
    assert p.primary_area                                              # ... its area is kept


def test_neurips_and_icml_papers_join_by_their_proceedings_pages(after: Store) -> None:
    for title in ("Interaction-Force Transport Gradient Flows", "MeshFormer", "Pseudo-Private Data",
                  "DiJiang", "ReLU Network with Width"):
        p = by_title(after, title)
        assert any(s.startswith("aitopconf:") for s in p.sources) and len(p.sources) >= 2, (title, p.sources)


def test_a_page_link_joins_records_whose_titles_were_reworded(tmp_path: Path) -> None:
    """The NeurIPS proceedings page names one paper: a list entry with a reworded title still
    joins the paper whose record links the same page; a title that shares nothing does not."""
    ml = json.loads((MERGE / "mlanthology" / "papers" / "neurips-2024.json").read_text())
    paper = next(p for p in ml["papers"] if p["title"].startswith("Interaction-Force"))
    page = next(iter(v for k, v in paper.items() if isinstance(v, str) and "neurips.cc" in v), None)
    assert page, "the fixture's NeurIPS record links its proceedings page"
    (tmp_path / "ml" / "papers").mkdir(parents=True)
    (tmp_path / "ml" / "papers" / "neurips-2024.json").write_text(json.dumps({**ml, "papers": [paper]}))
    (tmp_path / "NeurIPS").mkdir()
    (tmp_path / "NeurIPS" / "neurips_2024.json").write_text(json.dumps([
        {"title": "Interaction Force Transport: Gradient Flows", "url": page},
        {"title": "Something Else Entirely About Robots", "url": page}]))
    st = Store(tmp_path / "home" / "paperlist.db")
    assert ingest(st, [str(tmp_path / "ml"), str(tmp_path / "NeurIPS")], jobs=1).failed == 0
    joined = by_title(st, "Interaction-Force")
    assert sorted(s.split(":")[0] for s in joined.sources) == ["aitopconf", "mlanthology"]
    assert st.db.execute("SELECT count(*) FROM papers").fetchone()[0] == 2


def test_icml_2026_categories_and_institutions_attach_to_the_listed_papers(after: Store) -> None:
    rows = after.db.execute("SELECT id FROM papers WHERE venue='icml' AND year=2026 ORDER BY id").fetchall()
    assert len(rows) == 3
    papers = after.get_papers([r[0] for r in rows])
    for p in papers:
        assert p.title and not p.authors and p.ids.get("openreview")
        assert p.institutions and p.keywords, p.id
        assert {s.split(":")[0] for s in p.sources} == {"aitopconf", "orgroups"}
        assert p.provenance["title"].startswith("aitopconf:") and p.status == "accepted"
    # the id that no list names made no paper: its annotations wait, unattached
    orphans = after.db.execute("SELECT count(*) FROM records "
                               "WHERE source='orgroups' AND paper_id IS NULL").fetchone()[0]
    assert orphans >= 1
    assert after.resolve_id("yZAbtq7Srt") == []


def test_an_annotation_never_makes_a_paper_of_its_own(tmp_path: Path) -> None:
    st = Store(tmp_path / "home" / "paperlist.db")
    assert ingest(st, [str(GROUPS)], jobs=1).failed == 0
    assert st.db.execute("SELECT count(*) FROM papers").fetchone()[0] == 0
    assert st.db.execute("SELECT count(*) FROM records").fetchone()[0] > 0
    # ... and the paper it names, when a list brings it later, gets its facts
    assert ingest(st, [str(LISTS / "ICML")], jobs=1).failed == 0
    p = st.get_paper(st.resolve_id("BZfkxSasd3")[0])
    assert p is not None and p.institutions
    # the list's sub-area and the category (in English) are both keywords
    assert "Selfsupervised Learning" in p.keywords and len(p.keywords) >= 2


def test_order_of_ingest_does_not_change_the_result(tmp_path: Path, after: Store) -> None:
    st = Store(tmp_path / "home" / "paperlist.db")
    for target in [GROUPS, LISTS, *reversed(OTHERS)]:
        assert ingest(st, [str(target)], jobs=1).failed == 0
    q = "SELECT id, hash FROM papers ORDER BY id"
    assert st.db.execute(q).fetchall() == after.db.execute(q).fetchall()


@pytest.mark.parametrize(("links", "expected"), [
    ({"site": "https://openaccess.thecvf.com/content/CVPR2025/html/Li_X_CVPR_2025_paper.html",
      "pdf": "https://openaccess.thecvf.com/content/CVPR2025/papers/Li_X_CVPR_2025_paper.pdf"},
     {("cvf", "li_x_cvpr_2025_paper")}),
    ({"site": "https://proceedings.mlr.press/v235/liu24g.html"}, {("pmlr", "v235/liu24g")}),
    ({"pdf": "http://proceedings.mlr.press/v13/li10a/li10a.pdf"}, {("pmlr", "v13/li10a")}),
    ({"site": "https://ojs.aaai.org/index.php/AAAI/article/view/16071"}, {("aaai", "16071")}),
    ({"pdf": "https://ojs.aaai.org/index.php/AAAI/article/download/9963/9822"}, {("aaai", "9963")}),
    ({"pdf": "https://www.ijcai.org/proceedings/2017/0235.pdf"}, {("ijcai", "2017/235")}),
    ({"site": "https://www.ecva.net/papers/eccv_2024/papers_ECCV/html/4_ECCV_2024_paper.php"},
     {("ecva", "4_eccv_2024_paper")}),
    ({"site": "https://aclanthology.org/2023.acl-long.48/"}, {("acl", "2023.acl-long.48")}),
    # pages that list many papers, or name none, give no key
    ({"site": "https://icml.cc/virtual/2024/poster/35174",
      "pdf": "https://papers.nips.cc/paper/2169-x.pdf"}, set()),
    ({"site": "javascript:alert(1)"}, set()),
])
def test_publisher_pages_that_name_one_paper(links: dict[str, str], expected: set[tuple[str, str]]) -> None:
    rec = Record(source="x", file="x:f", key="k", venue="cvpr", year=2025, title="T", links=links)
    assert strong_keys(rec) == expected


def test_corpus_layout_copy_ingests_unchanged_in_seconds(tmp_path: Path, after: Store) -> None:
    """Re-ingesting the same lists and groups changes nothing (their records keep their hashes)."""
    shutil.copytree(LISTS, tmp_path / "lists")
    rep = ingest(after, [str(tmp_path / "lists"), str(GROUPS)], jobs=1)
    assert rep.papers.new == rep.papers.updated == rep.papers.removed == 0
    assert all(f.status == "unchanged" for f in rep.files)
