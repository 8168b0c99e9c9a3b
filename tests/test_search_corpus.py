"""Known-item searches on the real corpus (skipped when ../shared/data is absent)."""

from __future__ import annotations

import pytest

from paperlist.index import fulltext
from paperlist.ingest import ingest
from paperlist.search import Searcher, SearchRequest
from paperlist.store import Store

from .conftest import shared_data

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    root = shared_data("papercopilot")
    home = tmp_path_factory.mktemp("corpus-search")
    store = Store(home / "paperlist.db")
    assert ingest(store, [str(root)]).failed == 0
    fulltext.build(store, home)
    return Searcher.open(home)


@pytest.mark.parametrize("q, title, venue, year", [
    ("attention is all you need", "Attention is All you Need", "neurips", 2017),
    ("deep residual learning for image recognition", "Deep Residual Learning for Image Recognition", "cvpr", 2016),
    ("generative adversarial nets", "Generative Adversarial Nets", "neurips", 2014),
    ("denoising difusion probabilistic models", "Denoising Diffusion Probabilistic Models", "neurips", 2020),
    ("Kaiming He mask r-cnn", "Mask R-CNN", "iccv", 2017),
    ("vaswani attention", "Attention is All you Need", "neurips", 2017),
    ("representing scenes as neural radiance fields view synthesis",
     "NeRF: Representing Scenes as Neural Radiance Fields for View Synthesis", "eccv", 2020),
])
def test_known_items_come_first(corpus: Searcher, q: str, title: str, venue: str, year: int) -> None:
    h = corpus.search(SearchRequest(q=q, per_page=5)).hits[0]
    assert (h.title, h.venue, h.year) == (title, venue, year)


def test_filters_and_facets_on_the_corpus(corpus: Searcher) -> None:
    res = corpus.search(SearchRequest(q="diffusion venue:iclr year:2023", per_page=5))
    assert res.total > 50 and all(h.venue == "iclr" and h.year == 2023 for h in res.hits)
    acl = corpus.search(SearchRequest(q="venue:acl", per_page=1)).total
    findings = corpus.search(SearchRequest(q="venue:findings-acl", per_page=1)).total
    assert corpus.search(SearchRequest(q="family:acl", per_page=1)).total == acl + findings > acl
    assert corpus.search(SearchRequest(q="", per_page=1)).total > 150_000


def test_typo_suggestion_on_the_corpus(corpus: Searcher) -> None:
    res = corpus.search(SearchRequest(q="reinforcment lerning"))
    assert res.total > 1000 and res.suggestion == "reinforcement learning"
