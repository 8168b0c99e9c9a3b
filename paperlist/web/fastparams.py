"""Query parameters read without FastAPI's per-request validation, for plainly written requests.

FastAPI checks each query parameter through pydantic on every request: ~0.4 ms for the 18
parameters of ``/api/v1/search``, a fifth of a distinct search's whole time (issue 24). A route of
``FastQueryRoute`` compiles once a reader for the parameters it can check exactly (``str``,
``int``, ``float``, ``bool``, string ``Literal`` choices, lists of strings or choices, optional
ones; with ``ge``/``le``/``gt``/``lt``, ``max_length``/``min_length``, ``allow_inf_nan``). A request
whose values all read plainly (decimal digits for numbers, ``true``/``false``/``1``/``0`` for a
flag, one of the choices, each single-valued parameter given once, limits kept) is answered from
those values; any other — an error, or a spelling that pydantic may read leniently (``1e3``,
``on``, ``" 5"``) — goes through FastAPI as before, so its errors (the 422 problem documents) and
its lenient readings stay exactly what they were. Routes with anything else (path or body
parameters, dependencies) are left to FastAPI. tests/test_web_fastparams.py checks the reader
against FastAPI's own on random requests.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable, Coroutine
from typing import Any

import annotated_types as at
from fastapi.routing import APIRoute
from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import Response

_INT = re.compile(r"(?:0|[1-9][0-9]{0,17})\Z")
_FLOAT = re.compile(r"(?:0|[1-9][0-9]{0,17})(?:\.[0-9]{1,17})?\Z")
_BOOL = {"true": True, "false": False, "1": True, "0": False}
_SKIP = object()             # "not plain: ask FastAPI"

Convert = Callable[[str], Any]          # a value as FastAPI would give it, or _SKIP
Reader = Callable[[QueryParams], dict[str, Any] | None]


def _bounds(metadata: list[Any], convert: Convert) -> Convert | None:
    """``convert`` with the numeric limits of ``metadata`` (None: a constraint not handled here)."""
    limits: list[tuple[str, Any]] = []
    for m in metadata:
        for kind in ("ge", "le", "gt", "lt"):
            if isinstance(m, getattr(at, kind.title())):
                limits.append((kind, getattr(m, kind)))
                break
        else:
            if type(m).__name__ != "AllowInfNan":      # (the plain spellings are finite numbers)
                return None

    def within(v: Any) -> bool:
        for kind, b in limits:
            if not (v >= b if kind == "ge" else v <= b if kind == "le" else v > b if kind == "gt" else v < b):
                return False
        return True

    def read(raw: str) -> Any:
        v = convert(raw)
        return v if v is _SKIP or within(v) else _SKIP
    return read


def _scalar(tp: Any) -> Convert | None:
    if tp is str:
        return lambda raw: raw
    if tp is bool:
        return lambda raw: _BOOL.get(raw, _SKIP)
    if tp is int:
        return lambda raw: int(raw) if _INT.match(raw) else _SKIP
    if tp is float:
        return lambda raw: float(raw) if _FLOAT.match(raw) else _SKIP
    if typing.get_origin(tp) is typing.Literal:
        choices = frozenset(typing.get_args(tp))
        if all(isinstance(c, str) for c in choices):
            return lambda raw: raw if raw in choices else _SKIP
    return None


def _length(lo: int, hi: int | None) -> Convert:
    def read(raw: str) -> Any:
        return raw if lo <= len(raw) and (hi is None or len(raw) <= hi) else _SKIP
    return read


def _lengths(metadata: list[Any]) -> tuple[int, int | None] | None:
    lo, hi = 0, None
    for m in metadata:
        if isinstance(m, at.MaxLen):
            hi = m.max_length
        elif isinstance(m, at.MinLen):
            lo = m.min_length
        elif not isinstance(m, (at.Ge, at.Le, at.Gt, at.Lt)) and type(m).__name__ != "AllowInfNan":
            return None
    return lo, hi


def _list_reader(tp: Any, default: Any, alias: str, lo: int,
                 hi: int | None) -> Callable[[QueryParams], Any] | None:
    """A reader of a repeatable parameter (a list of strings or choices, ``lo``..``hi`` values)."""
    item = _scalar(typing.get_args(tp)[0]) if typing.get_args(tp) else None
    if item is None or not isinstance(default, list):
        return None
    base = list(default)

    def many(params: QueryParams) -> Any:
        raw = params.getlist(alias)
        if not raw:
            return list(base)
        if len(raw) < lo or (hi is not None and len(raw) > hi):
            return _SKIP
        out = [item(r) for r in raw]
        return _SKIP if any(v is _SKIP for v in out) else out
    return many


def _field_reader(field: Any) -> Callable[[QueryParams], Any] | None:
    """A reader of one parameter: its value, ``_SKIP``, or the default when absent."""
    info = field.field_info
    tp, meta, alias = info.annotation, list(info.metadata), field.alias
    if info.validation_alias not in (None, alias) or info.is_required():
        return None
    default = info.default
    args = typing.get_args(tp)
    optional = typing.get_origin(tp) in (typing.Union, types.UnionType) and type(None) in args
    if optional:
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            return None
        tp = rest[0]
    lengths = _lengths(meta)
    if lengths is None:
        return None
    lo, hi = lengths
    if typing.get_origin(tp) is list and not optional:
        return _list_reader(tp, default, alias, lo, hi)
    one = _scalar(tp)
    if one is None:
        return None
    check: Convert | None
    if tp is str:
        check = _length(lo, hi) if all(isinstance(m, (at.MaxLen, at.MinLen)) for m in meta) else None
    else:
        check = None if any(isinstance(m, (at.MaxLen, at.MinLen)) for m in meta) else _bounds(meta, one)
    if check is None:
        return None
    read = check

    def single(params: QueryParams) -> Any:
        raw = params.getlist(alias)
        if not raw:
            return default
        return read(raw[0]) if len(raw) == 1 else _SKIP
    return single


def query_reader(route: APIRoute) -> Reader | None:
    """The fast reader of a route's query parameters (None: the route needs FastAPI's path)."""
    d = route.dependant
    call = d.call
    if (call is None or not inspect.iscoroutinefunction(call) or d.path_params or d.header_params
            or d.cookie_params or d.body_params or d.dependencies or d.background_tasks_param_name
            or d.response_param_name or d.websocket_param_name or d.http_connection_param_name
            or d.security_scopes_param_name):
        return None
    try:
        ret = inspect.signature(call, eval_str=True).return_annotation
    except (NameError, TypeError):
        return None
    if not (inspect.isclass(ret) and issubclass(ret, Response)):
        return None     # FastAPI would serialize what it returns
    readers = []
    for f in d.query_params:
        r = _field_reader(f)
        if r is None:
            return None
        readers.append((f.name, r))

    def read(params: QueryParams) -> dict[str, Any] | None:
        values = {}
        for name, r in readers:
            v = r(params)
            if v is _SKIP:
                return None
            values[name] = v
        return values
    return read


class FastQueryRoute(APIRoute):
    """An API route whose plainly written requests skip FastAPI's parameter validation (above)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        full = super().get_route_handler()
        reader = query_reader(self)
        call = self.dependant.call
        request_name = self.dependant.request_param_name
        if reader is None or call is None:
            return full

        async def handler(request: Request) -> Response:
            values = reader(request.query_params)
            if values is None:
                return await full(request)
            if request_name:
                values[request_name] = request
            response: Response = await call(**values)
            return response
        return handler
