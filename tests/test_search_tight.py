"""Tight matches (issue 47): a hyphenated query word is one word, its parts adjacent or joined,
never apart; and a list sorted by a number (citations, rating) holds only the papers that have
every word, never the loose "most words" fill that a relevance list may fall back to."""

from __future__ import annotations

import pytest

from paperlist.index import fulltext
from paperlist.ingest import ingest
from paperlist.search import Searcher, SearchRequest
from paperlist.store import Store

from .conftest import FIXTURES


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    home = tmp_path_factory.mktemp("tight")
    store = Store(home / "paperlist.db")
    assert ingest(store, [str(FIXTURES / "tight")], jobs=1).failed == 0
    fulltext.build(store, home)
    store.close()
    return Searcher.open(home)


def ids(s: Searcher, q: str, sort: str = "relevance") -> list[str]:
    return [h.title for h in s.search(SearchRequest(q=q, sort=sort, per_page=20)).hits]


@pytest.mark.parametrize("sort", ["relevance", "citations"])
def test_a_hyphenated_word_matches_hyphenated_spaced_or_joined_never_apart(searcher: Searcher,
                                                                            sort: str) -> None:
    found = ids(searcher, "in-context learning", sort)
    assert sorted(found) == sorted(["In-Context Learning of Linear Functions",
                                    "Learning in Context: Prompts as Training Sets",
                                    "Incontext Learning Generalizes"])
    if sort == "citations":
        assert found[0] == "In-Context Learning of Linear Functions"   # 5 citations, then 3, then 2
    # the much-cited paper with "learning", "in" and "context" apart is not an in-context paper
    assert "Context Models for Scene Understanding" not in found
    # three parts: "text" and "image" apart do not make a text-to-image paper
    assert ids(searcher, "text-to-image", sort) == ["Text-to-Image Diffusion with Layout Control"]


def test_a_spaced_query_is_not_tightened(searcher: Searcher) -> None:
    """Only the hyphen makes a compound: "in context learning" may still match the words apart."""
    assert "Context Models for Scene Understanding" in ids(searcher, "context learning")


def test_a_hyphenated_name_is_one_name(searcher: Searcher) -> None:
    found = ids(searcher, "Zhi-Hua ensemble")
    assert "Ensemble Pruning by Margins" in found           # Zhi-Hua Zhou
    assert "Ensemble Methods Revisited" in found            # Zhihua Zhang: the name written as one
    assert "Hua and Zhi: Ensemble Distillation" not in found   # Zhi Chen and Hua Wang


def test_a_list_sorted_by_a_number_is_never_filled_with_loose_matches(searcher: Searcher) -> None:
    q = "in-context learning quantum"      # no paper has every word
    loose = searcher.search(SearchRequest(q=q))
    assert loose.total > 0 and loose.interpreted["match"] != "all"   # relevance falls back to most words
    for sort in ("citations", "rating"):
        res = searcher.search(SearchRequest(q=q, sort=sort))
        assert res.total == 0 and res.hits == []
