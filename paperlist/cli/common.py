"""What every command shares: the data directory, opening the store, one-line errors, JSON."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
import orjson

from ..service import BadRequest, Home, ServiceError
from ..store import Store, StoreError

F = TypeVar("F", bound=Callable[..., Any])


def _set_home(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    if value:
        ctx.ensure_object(dict)["home"] = value
    return value


home_option = click.option(
    "--home", metavar="DIR", expose_value=False, is_eager=True, callback=_set_home,
    help="Data directory (store, index). Default: $PAPERLIST_HOME or ./data.")


def home_dir() -> Path:
    ctx = click.get_current_context(silent=True)
    home = None
    while ctx is not None and home is None:
        home = (ctx.obj or {}).get("home") if isinstance(ctx.obj, dict) else None
        ctx = ctx.parent
    return Path(home or os.environ.get("PAPERLIST_HOME") or "data")


def current_home(must_exist: bool = True) -> Home:
    """The home the command works on (``--home``, ``$PAPERLIST_HOME``, ``./data``); with
    ``must_exist``, a home without a store is a one-line error."""
    home = Home(home_dir())
    if must_exist and not home.store_path.exists():
        fail(f"no store in {home.path} (run 'paperlist ingest PATH' first, or set --home)")
    return home


def open_store(readonly: bool = True) -> Store:
    home = current_home(must_exist=readonly)
    try:
        return home.store if readonly else home.writable_store()
    except StoreError as e:
        fail(str(e))
        raise  # unreachable


def fail_service(e: ServiceError) -> None:
    """A service error as a command's one-line error: a bad option value names the option."""
    if isinstance(e, BadRequest) and e.detail:
        fail(f"bad --{e.detail.replace('_', '-')}")
    fail(f"{e.message} {e.detail}".strip())


def fail(message: str, code: int = 2) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def echo_json(obj: Any) -> None:
    click.echo(orjson.dumps(obj, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS).decode())


def with_home(f: F) -> F:
    """Let --home also be given after the command name."""
    return home_option(f)


def catch_store_errors(f: F) -> F:
    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return f(*args, **kwargs)
        except StoreError as e:
            fail(str(e))
    return wrapper  # type: ignore[return-value]


def output_format(*extra: str) -> Callable[[F], F]:
    """``--format text|json|EXTRA…`` and its shorthand ``--json`` on a command that prints data
    (search, show, stats, venues, coverage). The command receives ``as_json`` and ``fmt``; its
    signature keeps ``fmt`` only when it has formats beyond text and json."""
    choices = ("text", "json", *extra)

    def deco(f: F) -> F:
        @functools.wraps(f)
        def wrapper(*args: Any, fmt: str, as_json: bool, **kwargs: Any) -> Any:
            fmt = "json" if as_json else fmt
            if extra:
                kwargs["fmt"] = fmt
            return f(*args, as_json=fmt == "json", **kwargs)

        wrapper = click.option("--json", "as_json", is_flag=True, help="Same as --format json.")(wrapper)
        wrapper = click.option("--format", "fmt", type=click.Choice(choices), default="text",
                               show_default=True, help="Output format.")(wrapper)
        return wrapper  # type: ignore[return-value]
    return deco
