"""Issue 44 item 1: a source that sorts each paper's authors by name (ICLR 2025's decisions CSV) says so;
the paper keeps the authors but says its order is not known, its BibTeX key and 'first author' do not
pretend otherwise, any source with the real order wins, and it links to an OpenReview search."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from paperlist.citation import citation_key
from paperlist.ingest import ingest
from paperlist.merge import paper_from_records
from paperlist.models import Record
from paperlist.names import make_authors
from paperlist.store import Store

from .conftest import shared_data

CSV = """Title,Authors,Affiliations,Decision
Consistency Models Made Easy,"Bin CUI, Chenlin Meng, Zhengyang Geng","CMU; Stanford; Peking",Reject
A Second Paper,"Ada Lovelace, Grace Hopper","A; B",ICLR 2025 Poster
"""


def sorted_rec() -> Record:
    return Record(
        source="openreview",
        file="openreview:iclr2025-decisions",
        key="t:consistency",
        venue="iclr",
        year=2025,
        title="Consistency Models Made Easy",
        authors_sorted=True,
        status="rejected",
        authors=make_authors(["Bin CUI", "Chenlin Meng", "Zhengyang Geng"]),
    )


def test_an_alphabetical_list_says_so_and_keys_no_first_author() -> None:
    p = paper_from_records([sorted_rec()], "iclr2025-x")
    assert p.provenance["author_order"] == "alphabetical" and not p.author_order_known
    assert [a.name for a in p.authors] == ["Bin CUI", "Chenlin Meng", "Zhengyang Geng"]
    assert citation_key(p) == "iclr2025consistency"  # not cui2025consistency


def test_a_source_with_the_real_order_wins_even_shorter() -> None:
    real = Record(
        source="mlanthology",
        file="mlanthology:iclr-2025",
        key="k",
        venue="iclr",
        year=2025,
        title="Consistency Models Made Easy",
        authors=make_authors(["Zhengyang Geng", "Bin Cui"]),
    )
    p = paper_from_records([sorted_rec(), real], "iclr2025-x")
    assert [a.name for a in p.authors] == ["Zhengyang Geng", "Bin Cui"] and p.author_order_known
    assert "author_order" not in p.provenance and citation_key(p).startswith("geng2025")


def test_the_api_and_the_page_say_the_order_is_unknown(tmp_path: Path) -> None:
    from paperlist.web.app import Settings, create_app

    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "iclr2025-decisions.csv").write_text(CSV, encoding="utf-8")
    home = tmp_path / "home"
    store = Store(home / "paperlist.db")
    assert ingest(store, [str(folder)], jobs=1).failed == 0
    (pid,) = [r[0] for r in store.db.execute("SELECT id FROM papers WHERE title LIKE 'Consistency%'")]
    store.close()
    client = TestClient(
        create_app(Settings(home=home, store=Store(home / "paperlist.db", readonly=True))),
        client=("127.0.0.1", 50000),
    )
    d = client.get(f"/api/v1/papers/{pid}").json()
    assert d["author_order"] == "unknown"
    assert "@misc{iclr2025consistency" in d["bibtex"] or "iclr2025consistency," in d["bibtex"]
    search = [link for link in d["links"] if link["kind"] == "openreview-search"]
    assert len(search) == 1 and search[0]["url"].startswith("https://openreview.net/search?term=Consistency")
    assert "group=ICLR.cc%2F2025%2FConference" in search[0]["url"]
    assert "Author order not known" in client.get(f"/en/papers/{pid}").text
    assert "作者顺序未知" in client.get(f"/papers/{pid}").text
    # a poster of the same file: its authors are alphabetical too (the source's, not the decision's)
    (poster,) = [r[0] for r in Store(home / "paperlist.db", readonly=True).db.execute(
        "SELECT id FROM papers WHERE title = 'A Second Paper'")]
    assert client.get(f"/api/v1/papers/{poster}").json()["author_order"] == "unknown"


def test_the_real_iclr_2025_file_is_alphabetical() -> None:
    from paperlist.sources import load_path
    from paperlist.sources.openreview import OpenReviewReader

    path = shared_data("openreview-exports/iclr2025/iclr2025-decisions.csv.gz")
    recs = OpenReviewReader().parse(load_path(path)).records
    assert recs and all(r.authors_sorted for r in recs)
