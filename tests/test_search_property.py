"""Any string a user can type returns results or an empty result, never an exception."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperlist.search import MAX_QUERY_CHARS, Searcher, SearchRequest, SearchResult

FRAGMENTS = [
    '"', "'", "-", "--", ":", "author:", 'author:"', "venue:", "venue:nips", "venue:,,", "year:", "year:..",
    "year:2020..", "year:9999", "status:", "status:oral", "accepted:", "title:", "-title:x", "family:acl",
    "AND", "OR", "NOT", "*", "?", "~", "^2", "(", ")", "[", "]", "{", "}", "\\", "/", "\x00", "\u200b",
    "'; DROP TABLE papers; --", "1=1", "<script>", "&amp;", "😀", "图神经网络", "ℓ_1", "the", "of", "a",
    "graph", "neural", "netw", "atention", "Bengio", "Zhi-Hua",
]

queries = st.one_of(
    st.text(max_size=300),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=100),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=12)), max_size=25).map(" ".join),
    st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join),
)


@pytest.fixture(scope="module")
def searcher(search_home: Path) -> Searcher:
    return Searcher.open(search_home)


def check(res: SearchResult, per_page: int) -> None:
    assert isinstance(res.total, int) and res.total >= 0
    assert len(res.hits) <= per_page and len(res.hits) <= res.total
    for h in res.hits:
        assert "<" not in h.title_html.replace("<mark>", "").replace("</mark>", "")
        assert "<" not in h.abstract_html.replace("<mark>", "").replace("</mark>", "")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=queries, sort=st.sampled_from(["relevance", "newest", "oldest", "title", "citations"]))
def test_any_query_answers(searcher: Searcher, q: str, sort: str) -> None:
    check(searcher.search(SearchRequest(q=q, sort=sort, per_page=7)), 7)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=queries, venues=st.lists(st.text(max_size=10), max_size=3),
       statuses=st.lists(st.text(max_size=10), max_size=3),
       years=st.tuples(st.none() | st.integers(-10**6, 10**6), st.none() | st.integers(-10**6, 10**6)),
       tracks=st.lists(st.text(max_size=8), max_size=2), accepted=st.none() | st.booleans())
def test_any_filters_answer(searcher: Searcher, q: str, venues: list[str], statuses: list[str],
                            years: tuple[int | None, int | None], tracks: list[str],
                            accepted: bool | None) -> None:
    req = SearchRequest(q=q, venues=venues, statuses=statuses, year_from=years[0], year_to=years[1],
                        tracks=tracks, accepted=accepted, per_page=5)
    check(searcher.search(req), 5)


@pytest.mark.parametrize("q", [
    "", " ", "the of and a", "the", "!!!!" * 2500, "." * 10_000, "a " * 5000, "😀" * 2000, "图" * 3000,
    "'; DROP TABLE papers; --", '"' * 999, "-" * 1000, "author:" * 200, "venue:nips " * 150,
    "x" * 5000, "supercalifragilisticexpialidocious" * 40, "\x00\x01\x02", "year:2020.." * 90,
])
def test_hostile_queries(searcher: Searcher, q: str) -> None:
    res = searcher.search(SearchRequest(q=q))
    check(res, 20)
    assert len(res.request.q) == len(q)          # the request is kept as given; the query used is cut
    assert len(res.interpreted.get("words", [])) <= MAX_QUERY_CHARS


def test_only_stop_words_still_search(searcher: Searcher) -> None:
    res = searcher.search(SearchRequest(q="all you"))
    assert res.total > 0
