"""Every UI string has a Chinese and an English translation; catalogs compile from the .po files
alone (a fresh clone needs no build step); numbers and dates follow the language."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from paperlist.web import i18n
from paperlist.web.i18n.catalog import extract, read, untranslated

TEMPLATES = Path(i18n.__file__).resolve().parent.parent / "templates"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_string_is_translated(lang: str) -> None:
    assert untranslated(lang) == []


def test_catalogs_have_no_stale_entries() -> None:
    used = {m.id if isinstance(m.id, str) else m.id[0] for m in extract() if m.id}
    for lang in i18n.LANGS:
        have = {m.id if isinstance(m.id, str) else m.id[0] for m in read(lang) if m.id}
        assert have == used, (lang, have ^ used)


def test_chinese_catalog_is_chinese() -> None:
    cat = read("zh")
    terms = {"Oral", "Spotlight", "Poster", "Highlight", "PDF", "DOI", "arXiv", "OpenReview",
             "Spotlight / highlight"}
    for m in cat:
        if not m.id or (m.id if isinstance(m.id, str) else m.id[0]) in terms:
            continue
        assert m.string is not None, m.id
        s = m.string if isinstance(m.string, str) else m.string[0]
        assert re.search(r"[\u4e00-\u9fff]", s), (m.id, s)


def test_placeholders_survive_translation() -> None:
    for m in read("zh"):
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        assert m.string is not None, m.id
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        want = set(re.findall(r"%\(\w+\)s", ids[0]))
        for s in strings:
            assert set(re.findall(r"%\(\w+\)s", s)) == want, (m.id, s)


def test_templates_have_no_untranslated_text() -> None:
    """Visible text in templates is inside {{ _() }} / ngettext, or is not words at all."""
    allowed = {"paperlist", "中文", "EN", "¶", "TL;DR"}
    for path in TEMPLATES.glob("*.html"):
        src = path.read_text("utf-8")
        src = re.sub(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", " ", src, flags=re.DOTALL)
        src = re.sub(r"<(script|style)\b.*?</\1>", " ", src, flags=re.DOTALL)
        text = re.sub(r"<[^>]+>", " ", src)
        for word in re.findall(r"[A-Za-z\u4e00-\u9fff][A-Za-z\u4e00-\u9fff'.-]+", text):
            assert word in allowed, (path.name, word)


@pytest.mark.parametrize("lang,n,compact,date", [
    ("zh", "167,843", "17万", "2026年11月30日"),
    ("en", "167,843", "168K", "November 30, 2026"),
])
def test_numbers_and_dates(lang: str, n: str, compact: str, date: str) -> None:
    assert i18n.number(167843, lang) == n
    assert i18n.compact(167843, lang) == compact
    assert i18n.date("2026-11-30T07:20:03Z", lang) == date


@pytest.mark.parametrize(("lang", "ticks", "labels"), [
    ("en", [0, 500, 1000, 1500, 2000, 2500], ["0", "500", "1K", "1.5K", "2K", "2.5K"]),
    ("zh", [0, 5000, 10000, 15000, 20000], ["0", "5000", "1万", "1.5万", "2万"]),
    ("en", [0, 250_000, 500_000, 750_000], ["0", "250K", "500K", "750K"]),
])
def test_axis_ticks_are_never_rounded(lang: str, ticks: list[int], labels: list[str]) -> None:
    """Issue 46 item 9: the topic chart's axis read "0, 500, 1K, 2K, 2K" (1,500 rounded to 2K)."""
    assert [i18n.tick(t, lang) for t in ticks] == labels


def test_split_lang() -> None:
    assert i18n.split_lang("/en/papers/x") == ("en", "/papers/x")
    assert i18n.split_lang("/en") == ("en", "/")
    assert i18n.split_lang("/english") == ("zh", "/english")
    assert i18n.split_lang("/papers/x") == ("zh", "/papers/x")


def test_dates_and_numbers_on_pages(client: Any) -> None:
    zh, en = client.get("/").text, client.get("/en/").text
    assert re.search(r"\d{4}年\d{1,2}月\d{1,2}日", zh)
    assert re.search(r"(January|February|March|April|May|June|July|August|September|October|November|"
                     r"December) \d{1,2}, \d{4}", en)
