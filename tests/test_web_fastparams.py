"""The fast query-parameter reader (web/fastparams.py) against FastAPI's own: on random requests
to every API route it compiles, whenever the fast reader answers, its values are FastAPI's, value
for value and type for type; it leaves to FastAPI every request that FastAPI rejects. And the
reader really answers plainly written requests (else the speed-up would be gone unseen)."""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import urlencode

import pytest
from fastapi.dependencies.utils import request_params_to_args
from fastapi.routing import APIRoute
from starlette.datastructures import QueryParams

from paperlist.web.api import router
from paperlist.web.fastparams import query_reader

ROUTES = [r for r in router.routes if isinstance(r, APIRoute) and query_reader(r) is not None]

# values that read plainly, and spellings that only FastAPI should judge
SAMPLES = ["", "0", "1", "2", "5", "20", "007", "1e3", " 5", "5 ", "+5", "-1", "1.5", "6.25", "nan", "inf",
           "1_000", "１２", "99999999999999999999", "100", "101", "1899", "1900", "2024", "2100", "2101",
           "10000", "10001", "500", "501", "true", "false", "True", "FALSE", "on", "off", "yes", "no", "t",
           "relevance", "newest", "rating", "Relevance", "auto", "keyword", "hybrid", "json", "bib", "atom",
           "oral", "poster", "spotlight", "Oral", "diffusion models", "图神经网络", "<script>", "a" * 1000,
           "a" * 1001, "neurips,icml", "cv"]


def _typed(values: dict[str, Any]) -> dict[str, Any]:
    return {k: (type(v), [(type(x), x) for x in v] if isinstance(v, list) else v) for k, v in values.items()}


def _random_params(route: Any, rng: random.Random) -> list[tuple[str, str]]:
    names = [f.alias for f in route.dependant.query_params] + ["unknown"]
    out = []
    for name in rng.sample(names, rng.randint(0, len(names))):
        for _ in range(rng.choice([1, 1, 1, 1, 2, 3]) if rng.random() < 0.9 else rng.randint(20, 60)):
            out.append((name, rng.choice(SAMPLES)))
    return out


@pytest.mark.parametrize("route", ROUTES, ids=[r.path for r in ROUTES])
def test_fast_values_are_fastapis(route: Any) -> None:
    rng = random.Random(route.path)
    read = query_reader(route)
    assert read is not None
    answered = deferred = 0
    for _ in range(3000):
        params = QueryParams(urlencode(_random_params(route, rng)))
        fast = read(params)
        values, errors = request_params_to_args(route.dependant.query_params, params)
        if fast is None:
            deferred += 1
            continue
        answered += 1
        assert not errors, (str(params), errors)
        assert _typed(fast) == _typed(values), str(params)
    assert answered > 100, answered
    assert deferred > 100 or not route.dependant.query_params, deferred


def test_search_requests_as_the_site_writes_them_are_read_fast() -> None:
    route = next(r for r in ROUTES if r.path.endswith("/search"))
    read = query_reader(route)
    assert read is not None
    for qs in ("q=graph+attention", "q=diffusion&venue=neurips&venue=iclr&year=2024&status=oral&page=2",
               "q=%E5%9B%BE%E7%A5%9E%E7%BB%8F&sort=newest&per_page=50&facets=false&snippets=false",
               "q=&topic=cv&rating_min=5.5&rating_max=8&mode=keyword&format=bib&limit=100"):
        values = read(QueryParams(qs))
        expected, errors = request_params_to_args(route.dependant.query_params, QueryParams(qs))
        assert values is not None and not errors
        assert _typed(values) == _typed(expected)


def test_routes_with_path_parameters_keep_fastapis_reader() -> None:
    paper = next(r for r in router.routes if getattr(r, "path", "") == "/api/v1/papers/{ref:path}")
    assert isinstance(paper, APIRoute)
    assert query_reader(paper) is None
