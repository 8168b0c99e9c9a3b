"""The rating filter and sort on the real corpus (skipped when ../shared/data is absent): ICLR
2023's papers rated 6 or more, counted straight from papercopilot's file with plain json + gzip
(not our parser), are exactly what ``rating:>=6 venue:iclr year:2023`` finds, best first."""

from __future__ import annotations

import gzip
import json
import math
import re
from pathlib import Path

import pytest

from paperlist.search import Searcher, SearchRequest
from paperlist.search.model import MAX_PER_PAGE
from tests.conftest import shared_data

pytestmark = pytest.mark.corpus

_LEADING_NUMBER = re.compile(r"\s*(\d+(?:\.\d+)?)")


def file_means(path: Path) -> list[float]:
    """The mean of each record's ``rating`` list ("8;6;6;5"), for the records that have one."""
    out = []
    for rec in json.loads(gzip.decompress(path.read_bytes())):
        scores = [float(m.group(1)) for piece in str(rec.get("rating") or "").split(";")
                  if (m := _LEADING_NUMBER.match(piece))]
        if scores:
            out.append(sum(scores) / len(scores))
    return out


@pytest.fixture(scope="module")
def corpus(corpus_home: Path) -> Searcher:
    return Searcher.open(corpus_home)


def test_iclr_2023_rated_six_or_more(corpus: Searcher) -> None:
    want = sorted((m for m in file_means(shared_data("papercopilot/iclr/iclr2023.json.gz")) if m >= 6),
                  reverse=True)
    assert len(want) > 1000                     # 1,524 of 4,919 rated submissions in this file
    q = "rating:>=6 venue:iclr year:2023"
    first = corpus.search(SearchRequest(q=q, sort="rating", per_page=MAX_PER_PAGE))
    assert first.total == len(want)
    assert first.interpreted["filters"] == {"venues": ["iclr"], "year_from": 2023, "year_to": 2023,
                                            "rating_min": 6.0}
    got = [h.rating for h in first.hits]
    for page in range(2, first.pages + 1):
        got += [h.rating for h in corpus.search(SearchRequest(q=q, sort="rating", page=page,
                                                              per_page=MAX_PER_PAGE)).hits]
    assert len(got) == len(want) and all(r is not None for r in got)
    ratings = [float(r) for r in got if r is not None]
    assert all(a >= b for a, b in zip(ratings, ratings[1:], strict=False))        # non-increasing
    assert all(math.isclose(a, b) for a, b in zip(ratings, want, strict=True))    # the same means
    assert all(h.venue == "iclr" and h.year == 2023 for h in first.hits)


def test_rating_sort_puts_unrated_papers_last(corpus: Searcher) -> None:
    res = corpus.search(SearchRequest(q="venue:iclr year:2023", sort="rating", per_page=MAX_PER_PAGE))
    rated = corpus.search(SearchRequest(q="venue:iclr year:2023 rating:0..", per_page=1)).total
    assert 0 < rated < res.total
    best = max(file_means(shared_data("papercopilot/iclr/iclr2023.json.gz")))
    assert res.hits[0].rating is not None and math.isclose(res.hits[0].rating, best)
    last_page = (res.total + MAX_PER_PAGE - 1) // MAX_PER_PAGE
    tail = corpus.search(SearchRequest(q="venue:iclr year:2023", sort="rating", page=last_page,
                                       per_page=MAX_PER_PAGE)).hits
    assert tail[-1].rating is None
