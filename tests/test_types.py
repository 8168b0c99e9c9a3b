"""The API's documented models (web/api_models.py) and the service's TypedDicts (service/types.py)
describe the same dicts: the service builds them, the API documents them in /openapi.json. These
tests keep the two from drifting: every field the service returns is documented with the same
type, and no documented field is one the service never sends.

The schemathesis test checks responses against the models, but the models allow extra fields
(clients must ignore new ones), so an undocumented field would pass it; this test would not.
"""

from __future__ import annotations

import types
import typing
from typing import Any

import pytest
from fastapi.routing import APIRoute
from pydantic import BaseModel

from paperlist.service import types as st
from paperlist.web import api_models as m
from paperlist.web.api import router

# Each response model of the API and the service type its handler sends.
ROOTS: dict[type[BaseModel], Any] = {
    m.SearchResponse: st.SearchResponse,
    m.Paper: st.PaperDetail,
    m.SimilarPapers: st.SimilarPapers,
    m.AuthorDetail: st.AuthorDetail,
    m.VenueList: st.VenueList,
    m.VenueDetail: st.VenueDetail,
    m.VenueYearList: st.VenueYearList,
    m.Coverage: st.Coverage,
    m.TopicList: st.TopicList,
    m.TopicDetail: st.TopicDetail,
    m.ConferenceStats: st.ConferenceStats,
    m.Stats: st.Stats,
    m.ResolveReport: st.ResolveReport,
    m.ListShelf: st.ListShelf,
    m.ReadingListInfo: st.ReadingListInfo,
    m.ReadingList: st.ReadingList,
    m.ListEntry: st.ListEntry,
    m.ImportReport: st.ImportReport,
    m.SeenMarks: st.SeenMarks,
    m.StarredPapers: st.StarredPapers,
    m.SemanticStatus: st.SemanticStatus,
}
# Response models whose dicts the service builds untyped (store figures, the API index, errors).
UNTYPED = {m.ApiIndex, m.Problem}


def is_typeddict(t: Any) -> bool:
    return isinstance(t, type) and issubclass(t, dict) and hasattr(t, "__required_keys__")


def is_model(t: Any) -> bool:
    return isinstance(t, type) and issubclass(t, BaseModel)


def model_fields(model: type[BaseModel]) -> dict[str, Any]:
    return {f.alias or name: f.annotation for name, f in model.model_fields.items()}


def compare(model_t: Any, td_t: Any, where: str, seen: set[Any], problems: list[str]) -> None:
    """Walk a model annotation and a TypedDict annotation side by side."""
    if model_t is Any or td_t is Any:
        return
    if is_model(model_t) or is_typeddict(td_t):
        if is_model(model_t) and is_typeddict(td_t):
            compare_dicts(model_t, td_t, where, seen, problems)
        elif is_model(model_t) and td_t in (dict[str, str | None], dict[str, Any]):
            pass  # link maps and filters: a model documents the keys of a plain dict
        else:
            problems.append(f"{where}: documented as {model_t!r}, the service sends {td_t!r}")
        return
    m_origin, t_origin = typing.get_origin(model_t), typing.get_origin(td_t)
    if m_origin in (list, dict) and m_origin is t_origin:
        for i, (a, b) in enumerate(zip(typing.get_args(model_t), typing.get_args(td_t), strict=True)):
            compare(a, b, f"{where}[{i}]" if m_origin is dict else f"{where}[]", seen, problems)
        return
    if m_origin in (types.UnionType, typing.Union) and t_origin in (types.UnionType, typing.Union):
        a, b = typing.get_args(model_t), typing.get_args(td_t)
        if len(a) == len(b):
            for x, y in zip(a, b, strict=True):
                compare(x, y, where, seen, problems)
            return
    if model_t != td_t:
        problems.append(f"{where}: documented as {model_t!r}, the service sends {td_t!r}")


def compare_dicts(model: type[BaseModel], td: Any, where: str, seen: set[Any], problems: list[str]) -> None:
    if (model, td) in seen:
        return
    seen.add((model, td))
    seen.add(td)
    documented = model_fields(model)
    sent = typing.get_type_hints(td)
    where = where or model.__name__
    for key in sorted(sent.keys() - documented.keys()):
        problems.append(f"{where}.{key}: the service sends it ({td.__name__}), "
                        f"{model.__name__} does not document it")
    for key in sorted(documented.keys() - sent.keys()):
        problems.append(f"{where}.{key}: {model.__name__} documents it, "
                        f"the service ({td.__name__}) never sends it")
    for key in sorted(documented.keys() & sent.keys()):
        compare(documented[key], sent[key], f"{where}.{key}", seen, problems)


def walk_all() -> tuple[list[str], set[Any]]:
    problems: list[str] = []
    seen: set[Any] = set()
    for model, td in ROOTS.items():
        compare_dicts(model, td, model.__name__, seen, problems)
    return problems, seen


def test_documented_models_match_the_service_types() -> None:
    problems, _ = walk_all()
    assert not problems, "\n".join(problems)


def test_every_service_type_is_documented() -> None:
    """A TypedDict no response reaches is dead code or a response the API forgot to document."""
    _, seen = walk_all()
    declared = {v for v in vars(st).values() if is_typeddict(v) and v.__module__.startswith(st.__name__)}
    # Building blocks the service extends rather than sends as such.
    bases = {st.PaperFields}
    # Page-only shapes (the home page's newest-proceedings row and its featured papers), not API responses.
    page_only = {st.LatestProceedings, st.FeaturedProceedings}
    missing = sorted(t.__name__ for t in declared - seen - bases - page_only)
    assert not missing, f"service types no API model documents: {missing}"


def test_every_response_model_is_checked() -> None:
    """A new endpoint must add its model to ROOTS (or say why its dict is untyped)."""
    models = {r.response_model for r in router.routes if isinstance(r, APIRoute) and r.response_model}
    unchecked = sorted(x.__name__ for x in models - ROOTS.keys() - UNTYPED)
    assert not unchecked, f"response models with no service type to check against: {unchecked}"


def _name(model: type[BaseModel]) -> str:
    return model.__name__


ROOT_MODELS = sorted(ROOTS, key=_name)


@pytest.mark.parametrize("model", ROOT_MODELS, ids=_name)
def test_a_drift_is_caught(model: type[BaseModel]) -> None:
    """The comparison itself can fail: a service type with one key more than its model is reported."""
    td = ROOTS[model]
    # mypy accepts the TypedDict(...) call only with a literal name; this one is built at run time
    make_typeddict: Any = typing.TypedDict
    grown = make_typeddict(td.__name__, {**typing.get_type_hints(td), "brand_new_field": int})
    problems: list[str] = []
    compare_dicts(model, grown, model.__name__, set(), problems)
    assert any("brand_new_field" in p for p in problems)


def test_interpreted_filters_name_the_filter_fields() -> None:
    """Filters.to_dict sends its field names as keys; InterpretedFilters must name the same ones."""
    from paperlist.search.model import InterpretedFilters
    from paperlist.search.query import Filters

    assert list(Filters.__slots__) == list(typing.get_type_hints(InterpretedFilters))
    f = Filters(venues=["iclr"], accepted=False, year_from=2020)
    assert f.to_dict() == {"venues": ["iclr"], "year_from": 2020, "accepted": False}
