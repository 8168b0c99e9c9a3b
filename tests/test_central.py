"""Topic centrality (search/central.py): with paper vectors, the first page of a topic query puts
the papers at the topic's centre before niche variants whose titles name the topic as well."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperlist.search import Searcher, SearchRequest, central

from .conftest import publish_vectors

pytest.importorskip("numpy", reason="topic centrality needs numpy (pip install 'paperlist[semantic]')")
pytest.importorskip("usearch", reason="paper vectors need usearch (pip install 'paperlist[semantic]')")

# the niche variant has the shortest title, so keyword search alone ranks it first
NICHE = "Self-Supervised Learning of Motion Capture"
CENTRAL = [f"Self-Supervised Learning of {w} Visual Representations by {v}" for w, v in [
    ("Robust", "Contrast"), ("General", "Clustering"), ("Transferable", "Rotation"),
    ("Scalable", "Masking"), ("Dense", "Distillation"), ("Compact", "Bootstrapping"),
    ("Sparse", "Jigsaws"), ("Invariant", "Redundancy Reduction")]]


def test_order_prefers_the_centre_among_close_scores_and_keeps_ties() -> None:
    assert central.order([10.0, 9.9, 9.8], [0.2, 0.9, 0.9]) == [1, 2, 0]
    # a clear keyword winner stays first: 0.4 x a cosine gap of 0.5 is less than its lead
    assert central.order([10.0, 5.0], [0.3, 0.8])[0] == 0
    assert central.order([3.0, 3.0], [0.5, 0.5]) == [0, 1]
    # a paper without a vector counts the window's mean
    assert central.order([10.0, 9.9, 9.8], [0.2, None, 0.9]) == [2, 1, 0]
    assert central.order([], []) == [] and central.order([1.0, 0.5], [None, None]) == [0, 1]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from paperlist.index import fulltext
    from paperlist.ingest import ingest
    from paperlist.store import Store

    home = tmp_path_factory.mktemp("central")
    src = home / "src" / "iclr"
    src.mkdir(parents=True)
    papers = [{"id": f"c{i}", "title": t, "status": "Poster", "track": "main", "author": f"Ann Author{i}",
               "abstract": "We study self-supervised learning."} for i, t in enumerate([NICHE, *CENTRAL])]
    (src / "iclr2023.json").write_text(json.dumps(papers))
    store = Store(home / "paperlist.db")
    assert ingest(store, [str(home / "src")], jobs=1).failed == 0
    fulltext.build(store, home)
    store.close()
    publish_vectors(home, lambda title: title != NICHE, 4, seed=1)
    return home


def titles(s: Searcher, q: str, mode: str = "auto", page: int = 1, per_page: int = 20) -> list[str]:
    return [h.title for h in s.search(SearchRequest(q=q, mode=mode, page=page, per_page=per_page)).hits]


def test_a_niche_variant_comes_after_the_topics_centre(home: Path) -> None:
    s = Searcher.open(home)
    keyword = titles(s, "self-supervised learning", mode="keyword")
    assert keyword[0] == NICHE                      # words alone cannot tell it apart
    auto = titles(s, "self-supervised learning")
    assert sorted(auto) == sorted(keyword) and auto[-1] == NICHE
    # every page of the window agrees with the others
    pages = [t for p in (1, 2, 3) for t in titles(s, "self-supervised learning", page=p, per_page=3)]
    assert pages == auto


def test_pages_after_the_window_keep_keyword_order(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(central, "WINDOW", 4)
    s = Searcher.open(home)
    keyword = titles(s, "self-supervised learning", mode="keyword")
    auto = titles(s, "self-supervised learning")
    assert auto[4:] == keyword[4:] and sorted(auto[:4]) == sorted(keyword[:4]) and auto[:4] != keyword[:4]
    assert [t for p in (1, 2, 3) for t in titles(s, "self-supervised learning", page=p, per_page=3)] == auto


def test_a_typed_title_keeps_its_paper_first(home: Path) -> None:
    s = Searcher.open(home)
    assert titles(s, NICHE.lower())[0] == NICHE


def test_a_query_with_an_authors_name_keeps_keyword_order(home: Path) -> None:
    s = Searcher.open(home)
    q = "ann self-supervised learning"                  # every paper here is by an Ann
    assert titles(s, q) == titles(s, q, mode="keyword") and titles(s, q)[0] == NICHE
