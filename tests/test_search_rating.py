"""Mean review ratings in search: the ``rating:`` filter of the query language (and its bad
values), ``rating_min`` / ``rating_max`` parameters, the ``rating`` sort (highest first, unrated
last), ``rating`` on hits, and an index that follows rating changes. A real store and a real
index built from tests/fixtures/rating (means 8, 7, 6.25, 6, 6, 5.5, 5, 3 and two unrated)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from paperlist.index import fulltext
from paperlist.search import Searcher, SearchRequest
from paperlist.search.query import RatingRange, parse, parse_ratings
from paperlist.service import Home, ingest
from paperlist.service.derived import stale
from paperlist.store import Store
from tests.conftest import FIXTURES, run_cli

RATING = FIXTURES / "rating"
MEANS = {  # title -> mean rating, as the fixture's lists give them
    "Calibrated Reviewers Agree on Sparse Attention": 8.0,
    "Spotlight Scores for Graph Diffusion": 7.0,
    "Mean Ratings Above Six With Four Reviews": 6.25,
    "Exactly Six: A Poster on Contrastive Rating": 6.0,
    "Another Paper Rated Exactly Six": 6.0,
    "Borderline Diffusion Papers Rated Five and a Half": 5.5,
    "Five Out of Ten for Sparse Attention": 5.0,
    "A Low Rated Withdrawn Submission": 3.0,
    "An Unreviewed Paper on Sparse Attention": None,
    "Another Unreviewed Diffusion Paper": None,
}


@pytest.fixture(scope="module")
def rating_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("rating")
    rep, derived = ingest(Home(home), [str(RATING)], jobs=1)
    assert rep.failed == 0 and derived is not None and derived.index.papers == len(MEANS)
    return home


@pytest.fixture(scope="module")
def searcher(rating_home: Path) -> Searcher:
    return Searcher.open(rating_home)


def titles(s: Searcher, q: str = "", **kw: Any) -> list[str]:
    return [h.title for h in s.search(SearchRequest(q=q, per_page=50, **kw)).hits]


def rated(pred: Any) -> set[str]:
    return {t for t, m in MEANS.items() if m is not None and pred(m)}


# --- the query language ---------------------------------------------------------------------
@pytest.mark.parametrize("value,want", [
    ("6", RatingRange(6.0)),                           # a bare number is a minimum
    (">=6", RatingRange(6.0)),
    (">6", RatingRange(6.0, lo_exclusive=True)),
    ("<=5.5", RatingRange(None, 5.5)),
    ("<5", RatingRange(None, 5.0, hi_exclusive=True)),
    ("=6", RatingRange(6.0, 6.0)),
    ("5..6", RatingRange(5.0, 6.0)),
    ("5.5..", RatingRange(5.5)),
    ("..5", RatingRange(None, 5.0)),
    (".5", RatingRange(0.5)),
    ("6..6", RatingRange(6.0, 6.0)),
])
def test_parse_ratings(value: str, want: RatingRange) -> None:
    assert parse_ratings(value) == want


@pytest.mark.parametrize("value", ["abc", ">=", "9..3", "nan", "inf", "-inf", "1e9", "101", "1000000",
                                   "9" * 400, "6,7", "-3", "6.", "..", ">=>6", "5..6..7", ""])
def test_parse_ratings_refuses_bad_values(value: str) -> None:
    assert parse_ratings(value) is None


def test_bad_rating_is_searched_as_text_with_a_note() -> None:
    pq = parse("diffusion rating:abc rating:9..3")
    assert pq.filters.rating_range() is None
    assert pq.words == ["diffusion", "rating abc", "rating 9..3"]
    assert pq.notes == ["bad rating 'abc' searched as text", "bad rating '9..3' searched as text"]


def test_ratings_intersect_and_negation_is_refused() -> None:
    pq = parse("rating:>=5 rating:<7 rating:>5 -rating:6")
    assert pq.filters.rating_range() == RatingRange(5.0, 7.0, lo_exclusive=True, hi_exclusive=True)
    assert pq.notes == ["-rating: is not supported (use rating:<6 or rating:>6); ignored"]
    assert pq.filters.to_dict() == {"rating_min": 5.0, "rating_max": 7.0, "rating_min_exclusive": True,
                                    "rating_max_exclusive": True}


# --- filters --------------------------------------------------------------------------------
@pytest.mark.parametrize("q,pred", [
    ("rating:>=6", lambda m: m >= 6),
    ("rating:6", lambda m: m >= 6),                    # the same: at least 6
    ("rating:>6", lambda m: m > 6),
    ("rating:<=5.5", lambda m: m <= 5.5),
    ("rating:<5", lambda m: m < 5),
    ("rating:=6", lambda m: m == 6),
    ("rating:5..6", lambda m: 5 <= m <= 6),
    ("rating:5.5..", lambda m: m >= 5.5),
    ("rating:..5", lambda m: m <= 5),
    ("rating:0..", lambda m: True),                    # every rated paper, no unrated one
    ("rating:>=5 rating:<7", lambda m: 5 <= m < 7),
    ("rating:>=9", lambda m: False),
])
def test_rating_filters(searcher: Searcher, q: str, pred: Any) -> None:
    res = searcher.search(SearchRequest(q=q, per_page=50))
    assert {h.title for h in res.hits} == rated(pred)
    assert res.total == len(rated(pred))
    assert "notes" not in res.interpreted


def test_rating_filter_with_words_and_other_filters(searcher: Searcher) -> None:
    assert set(titles(searcher, "sparse attention rating:>=5")) == {
        "Calibrated Reviewers Agree on Sparse Attention", "Five Out of Ten for Sparse Attention"}
    assert set(titles(searcher, "rating:>=6 status:poster")) == {
        "Mean Ratings Above Six With Four Reviews", "Exactly Six: A Poster on Contrastive Rating",
        "Another Paper Rated Exactly Six"}
    assert titles(searcher, "rating:>=6 year:2020") == []


def test_request_bounds_and_query_filter_intersect(searcher: Searcher) -> None:
    res = searcher.search(SearchRequest(q="rating:>6", rating_max=7.0, per_page=50))
    assert {h.title for h in res.hits} == rated(lambda m: 6 < m <= 7)
    assert res.interpreted["filters"] == {"rating_min": 6.0, "rating_max": 7.0, "rating_min_exclusive": True}
    assert titles(searcher, rating_min=5.0, rating_max=5.5) == sorted(
        rated(lambda m: 5 <= m <= 5.5), key=lambda t: -(MEANS[t] or 0))


# --- the sort -------------------------------------------------------------------------------
def test_sort_rating_highest_first_unrated_last(searcher: Searcher) -> None:
    got = titles(searcher, sort="rating")
    assert got == [
        "Calibrated Reviewers Agree on Sparse Attention",          # 8
        "Spotlight Scores for Graph Diffusion",                    # 7
        "Mean Ratings Above Six With Four Reviews",                # 6.25
        "Another Paper Rated Exactly Six",                         # 6, tie: browse order (title A-Z)
        "Exactly Six: A Poster on Contrastive Rating",             # 6
        "Borderline Diffusion Papers Rated Five and a Half",       # 5.5
        "Five Out of Ten for Sparse Attention",                    # 5
        "A Low Rated Withdrawn Submission",                        # 3
        "An Unreviewed Paper on Sparse Attention",                 # unrated: poster before rejected
        "Another Unreviewed Diffusion Paper",
    ]
    # pages of the sort join up to the same order
    pages = [h.title for p in (1, 2, 3) for h in searcher.search(
        SearchRequest(sort="rating", page=p, per_page=4)).hits]
    assert pages == got


def test_sort_rating_with_words(searcher: Searcher) -> None:
    assert titles(searcher, "sparse attention", sort="rating") == [
        "Calibrated Reviewers Agree on Sparse Attention", "Five Out of Ten for Sparse Attention",
        "An Unreviewed Paper on Sparse Attention"]


def test_hits_carry_the_mean_rating(searcher: Searcher) -> None:
    hits = searcher.search(SearchRequest(per_page=50)).hits
    assert {h.title: h.rating for h in hits} == MEANS


# --- the API ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def api(rating_home: Path) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from paperlist.web.app import Settings, create_app

    store = Store(rating_home / "paperlist.db", readonly=True)
    with TestClient(create_app(Settings(home=rating_home, store=store, warm_pages=False)),
                    follow_redirects=False) as c:
        yield c


def test_api_rating_filter_sort_and_hits(api: Any) -> None:
    d = api.get("/api/v1/search", params={"q": "rating:>=6", "sort": "rating", "per_page": 50}).json()
    assert d["total"] == 5 and d["query"]["sort"] == "rating"
    assert [h["rating"] for h in d["hits"]] == [8.0, 7.0, 6.25, 6.0, 6.0]
    assert d["interpreted"]["filters"] == {"rating_min": 6.0}
    every = api.get("/api/v1/search", params={"sort": "rating", "per_page": 50}).json()
    assert [h["rating"] for h in every["hits"]][-2:] == [None, None]
    assert "rating" in every["hits"][-1]


def test_api_rating_parameters(api: Any) -> None:
    d = api.get("/api/v1/search", params={"rating_min": "5.5", "rating_max": "6", "per_page": 50}).json()
    assert {h["title"] for h in d["hits"]} == rated(lambda m: 5.5 <= m <= 6)
    assert (d["query"]["rating_min"], d["query"]["rating_max"]) == (5.5, 6.0)
    assert d["interpreted"]["filters"] == {"rating_min": 5.5, "rating_max": 6.0}
    # the links keep the bounds
    nxt = api.get("/api/v1/search", params={"rating_min": "5", "per_page": 2}).json()["links"]["next"]
    assert "rating_min=5" in nxt and api.get(nxt).json()["query"]["rating_min"] == 5.0


@pytest.mark.parametrize("query,param", [
    ("rating_min=abc", "rating_min"), ("rating_min=nan", "rating_min"), ("rating_max=inf", "rating_max"),
    ("rating_min=-1", "rating_min"), ("rating_max=1e9", "rating_max"), ("sort=ratings", "sort"),
])
def test_api_bad_rating_parameters(api: Any, query: str, param: str) -> None:
    r = api.get(f"/api/v1/search?q=x&{query}")
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert param in body["detail"] and [e["parameter"] for e in body["errors"]] == [param]


def test_api_reversed_rating_bounds(api: Any) -> None:
    r = api.get("/api/v1/search?q=x&rating_min=7&rating_max=3")
    assert r.status_code == 422 and "rating_min=7 > rating_max=3" in r.json()["detail"]


def test_api_bad_rating_in_the_query_is_a_note(api: Any) -> None:
    d = api.get("/api/v1/search", params={"q": "rating:>= diffusion"}).json()
    assert d["interpreted"]["notes"] == ["bad rating '>=' searched as text"]
    assert "filters" not in d["interpreted"]


def test_search_page_sorts_by_rating(api: Any) -> None:
    r = api.get("/en/search", params={"q": "", "venue": "iclr", "sort": "rating", "rating_min": "6"})
    assert r.status_code == 200
    page = r.text
    order = [page.index(t) for t in ("Calibrated Reviewers", "Spotlight Scores", "Another Paper Rated")]
    assert order == sorted(order)
    assert "Unreviewed" not in page


# --- the CLI ----------------------------------------------------------------------------------
def test_cli_rating_option_and_sort(rating_home: Path) -> None:
    r = run_cli(rating_home, "search", "--rating", ">6", "--sort", "rating", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert [h["rating"] for h in d["hits"]] == [8.0, 7.0, 6.25]
    assert d["interpreted"]["filters"] == {"rating_min": 6.0, "rating_min_exclusive": True}
    text = run_cli(rating_home, "search", "rating:=6", "--sort", "rating")
    assert text.exit_code == 0 and "2 results" in text.stdout and "rating 6.00" in text.stdout


@pytest.mark.parametrize("value", ["abc", ">=", "9..3", "nan", "1e9"])
def test_cli_bad_rating_option(rating_home: Path, value: str) -> None:
    r = run_cli(rating_home, "search", "diffusion", "--rating", value)
    assert r.exit_code == 2 and "bad --rating=" in r.stderr, (r.stdout, r.stderr)


def test_cli_help_documents_rating(rating_home: Path) -> None:
    out = run_cli(rating_home, "search", "--help").stdout
    assert "rating:>=6" in out and "--rating" in out and "rating" in out.split("--sort")[1]


# --- the index follows ratings ------------------------------------------------------------------
def test_index_follows_a_changed_rating(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(RATING, src)
    home = Home(tmp_path / "home")
    ingest(home, [str(src)], jobs=1)
    s = Searcher.open(home.path)
    assert titles(s, "rating:>=9") == []
    # only the reviews of one paper change: its other fields are the same
    f = src / "iclr2021.json"
    records = orjson.loads(f.read_bytes())
    low = next(r for r in records if r["title"] == "A Low Rated Withdrawn Submission")
    low["rating"], low["rating_avg"] = "9;10", 9.5
    f.write_bytes(orjson.dumps(records))
    rep, derived = ingest(home, [str(src)], jobs=1)
    assert rep.papers.updated == 1 and derived is not None and not derived.index.skipped
    assert titles(s, "rating:>=9") == ["A Low Rated Withdrawn Submission"]
    assert titles(s, sort="rating")[0] == "A Low Rated Withdrawn Submission"
    assert not stale(home, home.store)


def test_an_index_of_the_previous_version_is_stale(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    ingest(home, [str(RATING)], jobs=1)
    store = home.writable_store()
    assert not stale(home, store)
    root = fulltext.index_root(home.path)
    gen = fulltext.current_generation(root)
    assert gen is not None
    info = root / gen / fulltext.INFO_FILE
    info.write_bytes(orjson.dumps(orjson.loads(info.read_bytes()) | {"version": fulltext.INDEX_VERSION - 1}))
    assert stale(home, store)
    r = run_cli(home.path, "index", "--if-stale", "-q")
    assert r.exit_code == 0, r.output
    assert not stale(home, store)
    best = titles(Searcher.open(home.path), "rating:>=8")
    assert best == ["Calibrated Reviewers Agree on Sparse Attention"]
