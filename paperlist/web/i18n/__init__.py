"""Languages of the site: Chinese at ``/``, English under ``/en/``.

UI strings live in gettext catalogs beside this file (``<lang>/LC_MESSAGES/messages.po``). The
.po files are the source of truth and are compiled in memory when the app starts, so a fresh clone
needs no build step. ``python -m paperlist.web.i18n`` re-extracts the strings from the templates
and Python code and merges them into the catalogs (see catalog.py).
"""

from __future__ import annotations

import datetime as dt
from functools import cache, lru_cache
from io import BytesIO
from pathlib import Path

from babel import Locale
from babel.dates import format_date
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_compact_decimal, format_decimal, format_percent
from babel.support import Translations

from ...service.errors import N_

__all__ = ["N_"]          # marks strings for extraction (defined with the service's messages)

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"
CATALOG_DIR = Path(__file__).parent
# The BCP 47 tag for <html lang> and the Babel locale for numbers and dates.
HTML_LANG = {"zh": "zh-CN", "en": "en"}
_BABEL_LOCALE = {"zh": "zh_Hans_CN", "en": "en"}


def po_path(lang: str) -> Path:
    return CATALOG_DIR / lang / "LC_MESSAGES" / "messages.po"


@cache
def translations(lang: str) -> Translations:
    """The compiled catalog of a language (compiled from its .po in memory, once)."""
    with po_path(lang).open("rb") as f:
        catalog = read_po(f, locale=_BABEL_LOCALE[lang])
    buf = BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return Translations(buf, domain="messages")


def prefix(lang: str) -> str:
    """The URL prefix of a language: "" for Chinese, "/en" for English."""
    return "" if lang == DEFAULT_LANG else f"/{lang}"


def split_lang(path: str) -> tuple[str, str]:
    """("en", "/papers/x") for "/en/papers/x"; (DEFAULT_LANG, path) for paths without a prefix."""
    for lang in LANGS:
        if lang != DEFAULT_LANG and (path == f"/{lang}" or path.startswith(f"/{lang}/")):
            return lang, path[len(lang) + 1:] or "/"
    return DEFAULT_LANG, path


@cache
def locale(lang: str) -> Locale:
    return Locale.parse(_BABEL_LOCALE[lang])


@lru_cache(maxsize=8192)
def number(n: float | None, lang: str) -> str:
    """167843 -> "167,843" per the language's conventions (cached: pages format many counts)."""
    return "" if n is None else format_decimal(n, locale=locale(lang))


@lru_cache(maxsize=8192)
def decimal(x: float | None, lang: str, digits: int = 2) -> str:
    """5.1604 -> "5.16": a mean rating or a correlation with a fixed number of decimals ("" for
    None; cached: list pages format a rating per card)."""
    if x is None:
        return ""
    return str(format_decimal(x, format="#,##0." + "0" * digits if digits else "#,##0", locale=locale(lang)))


def percent(x: float | None, lang: str, digits: int = 1) -> str:
    """A rate as a percentage with ``digits`` decimals: 0.3179 -> "31.8%" ("" for None)."""
    if x is None:
        return ""
    pattern = "#,##0." + "0" * digits + "%" if digits else "#,##0%"
    return str(format_percent(x, format=pattern, locale=locale(lang)))


def share(part: int, total: int, lang: str) -> str:
    """``part`` of ``total`` as a whole percentage ("85%" / "85%"), never rounded to a false 0% or
    100%: 1 of 1,000 is "<1%", 999 of 1,000 is "99%"; "–" when there is nothing to count."""
    if not total:
        return "–"
    pct = round(100 * part / total)
    if part and pct == 0:
        return "<" + format_percent(0.01, locale=locale(lang))
    if part < total and pct == 100:
        pct = 99
    return str(format_percent(pct / 100, locale=locale(lang)))


def compact(n: int | None, lang: str) -> str:
    """167843 -> "17万" / "168K"."""
    return "" if n is None else format_compact_decimal(n, locale=locale(lang), fraction_digits=0)


def tick(n: int | None, lang: str) -> str:
    """An axis label: compact, with the fewest fraction digits that do not round the value
    (2000 -> "2K", 1500 -> "1.5K", 15000 -> "1.5万"); with none, 1,500 read "2K" beside 2,000."""
    if n is None:
        return ""
    loc = locale(lang)
    exact = str(format_compact_decimal(n, locale=loc, fraction_digits=3))
    return next((label for d in (0, 1, 2)
                 if (label := str(format_compact_decimal(n, locale=loc, fraction_digits=d))) == exact), exact)


def date(value: str | dt.date | None, lang: str) -> str:
    """An ISO date or timestamp as a long date: "2026年11月30日" / "November 30, 2026"."""
    if not value:
        return ""
    if isinstance(value, str):
        try:
            day = dt.datetime.fromisoformat(value).date()
        except ValueError:
            return value
    else:
        day = value
    return str(format_date(day, "long", locale=locale(lang)))
