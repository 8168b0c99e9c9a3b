"""Tiered ranking (paperlist/search/tiers.py) gives exactly the pages of ranking every match, and
no paper outside a tier scores above its bound. The fixture corpus is tiny, so the size
thresholds are lowered to make every eligible query use tiers."""

from __future__ import annotations

from pathlib import Path

import pytest
from tantivy import Occur

from paperlist.search import Searcher, SearchRequest, paging, rank
from paperlist.search.filters import combine

QUERIES = ["learning", "neural networks", "large language models", "graph neural networks molecule",
           "diffusion", "robust learning evaluation", "transformers", "contrastive learning visual",
           "learning year:2023..2024", "models -survey", "language venue:iclr"]


@pytest.fixture
def searcher(search_home: Path) -> Searcher:
    return Searcher.open(search_home)


def _ids(s: Searcher, q: str, page: int, per_page: int) -> list[str]:
    return [h.id for h in s.search(SearchRequest(q=q, page=page, per_page=per_page, snippets=False)).hits]


@pytest.mark.parametrize("parallel", [True, False])
@pytest.mark.parametrize("q", QUERIES)
def test_tiered_pages_equal_full_ranking(searcher: Searcher, q: str, parallel: bool,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Both ways to the page: counting first (then the tier if the matches are many) and ranking
    on a second thread while counting (the tier if the query looks broad)."""
    pages = [(1, 1), (1, 2), (2, 2), (1, 3), (3, 3), (1, 10)]
    full = {p: _ids(searcher, q, *p) for p in pages}
    searcher.parallel = parallel
    monkeypatch.setattr(searcher.spare, "require_idle", False)
    monkeypatch.setattr(rank, "TIER_MIN_MATCHES", 0)
    monkeypatch.setattr(paging, "TIER_MIN_MATCHES", 0)
    monkeypatch.setattr(paging, "BROAD", 0)
    tiers = []
    run = paging.run
    monkeypatch.setattr(paging, "run", lambda s, todo, *a: tiers.append(len(todo) > 1) or run(s, todo, *a))
    assert {p: _ids(searcher, q, *p) for p in pages} == full
    assert all(tiers) and tiers


def test_tiers_are_used_and_their_bounds_hold(searcher: Searcher, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rank, "TIER_MIN_MATCHES", 0)
    gen = searcher._generation()
    answered = 0
    for q in QUERIES:
        plan = searcher._plan(gen, SearchRequest(q=q))
        assert plan.text.tiering is not None, q
        levels = plan.text.tiering()
        assert levels, q
        for tier in levels:
            outside = gen.searcher.search(combine(plan.query(), [(Occur.MustNot, tier.query)]), 1,
                                          weight_by_field="prior").hits
            assert not outside or outside[0][0] <= tier.bound, (q, outside[0][0], tier.bound)
        top = gen.searcher.search(combine(plan.query(), [(Occur.Must, levels[0].query)]), 1,
                                  weight_by_field="prior").hits
        answered += bool(top and top[0][0] > levels[0].bound)
    assert answered >= len(QUERIES) // 2       # most first pages come from the first tier level


def test_queries_with_typos_prefixes_or_phrases_rank_everything(searcher: Searcher,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rank, "TIER_MIN_MATCHES", 0)
    gen = searcher._generation()
    for q in ["difusion policies", "graph neur", '"large language models"', "contrastive lerning"]:
        assert searcher._plan(gen, SearchRequest(q=q)).text.tiering is None, q
