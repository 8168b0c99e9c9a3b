"""Pasted citations and bibliographies in Debian's Chromium (never a downloaded browser): a reference
pasted into the home page's search box finds its paper first, and a .bib pasted on /resolve comes
back as a cleaned file to download; hostile entries never run."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import bibtexparser
import pytest

from paperlist.store import Store
from tests.conftest import serve_site
from tests.test_resolve import BIB, CITED, HOSTILE, LSTM_LINE
from tests.test_web_browser import BROWSER_MARKS, Watch, browser, shot
from tests.webdata import build_store, paper_id

__all__ = ["browser"]          # the Chromium fixture, shared with the site's browser tests
pytestmark = BROWSER_MARKS


@pytest.fixture(scope="module")
def cited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    home = tmp_path_factory.mktemp("cited-browser")
    build_store(home, extra=CITED).close()
    with serve_site(home) as url:
        yield url, Store(home / "paperlist.db", readonly=True)


@pytest.fixture
def page(browser: Any, cited: tuple[str, Store]) -> Iterator[Any]:
    ctx = browser.new_context(base_url=cited[0], viewport={"width": 1280, "height": 900},
                              accept_downloads=True)
    pg = ctx.new_page()
    pg.watch = Watch(pg)
    yield pg
    ctx.close()


@pytest.mark.parametrize("lang", ["", "/en"])
def test_paste_a_reference_on_the_home_page(page: Any, cited: tuple[str, Store], lang: str) -> None:
    page.goto(lang + "/")
    page.fill(".hero-search [data-search-input]", LSTM_LINE)
    page.press(".hero-search [data-search-input]", "Enter")
    page.wait_for_url("**/search?q=**")
    first = page.locator(".hits .card").first
    first.wait_for()
    assert paper_id(cited[1], "lstm") in (first.locator(".card-title a").get_attribute("href") or "")
    assert "Long Short-Term Memory" in first.inner_text() and "Gating" not in first.inner_text()
    assert "Hochreiter" in page.locator(".citation-note").inner_text()
    shot(page, f"resolve-search{lang.replace('/', '-')}")
    assert not page.watch.dialogs and not page.watch.errors


@pytest.mark.parametrize("lang", ["", "/en"])
def test_paste_a_bib_and_download_the_cleaned_file(page: Any, tmp_path: Path, lang: str) -> None:
    page.goto(lang + "/resolve")
    page.fill("#resolve-text", BIB)
    page.click(".resolve-form button[type=submit]")
    page.locator(".resolve-report").wait_for()
    assert page.locator("tr.resolve-matched").count() == 4
    assert page.locator("tr.resolve-ambiguous").count() == 1 and page.locator("tr.resolve-error").count() == 1
    shot(page, f"resolve-page{lang.replace('/', '-')}")
    with page.expect_download() as info:
        page.click("#resolve-download")
    path = tmp_path / "resolved.bib"
    info.value.save_as(str(path))
    lib = bibtexparser.parse_string(path.read_text("utf-8"))
    by_key = {e.key: e for e in lib.entries}
    assert by_key["vaswani2017attention"].entry_type == "inproceedings"
    assert by_key["hochreiter1997"]["doi"] == "10.1162/neco.1997.9.8.1735"
    assert not page.watch.dialogs and not page.watch.errors


def test_hostile_entries_never_run(page: Any) -> None:
    page.goto("/resolve")
    page.fill("#resolve-text", HOSTILE)
    page.click(".resolve-form button[type=submit]")
    page.locator(".resolve-report").wait_for()
    page.mouse.move(200, 300)
    assert "<script>" in page.locator(".resolve-table").inner_text()       # shown as text
    assert not page.watch.dialogs and not page.watch.errors


@pytest.mark.parametrize("width", [390, 1366])
def test_the_bibliography_box_is_big_enough_to_paste_into(browser: Any, cited: tuple[str, Store],
                                                          width: int) -> None:
    """Issue 46 item 3: the box was 182×156 px (171 px wide on a phone), inline beside its label."""
    ctx = browser.new_context(base_url=cited[0], viewport={"width": width, "height": 900})
    pg = ctx.new_page()
    pg.goto("/en/resolve")
    box = pg.locator("#resolve-text").bounding_box()
    form = pg.locator("form.resolve-form").bounding_box()
    label = pg.locator("label[for=resolve-text]").bounding_box()
    assert box and form and label
    assert box["width"] >= 0.95 * form["width"] and box["height"] >= 240, (box, form)
    assert label["y"] + label["height"] <= box["y"] + 1            # the label above the box, not beside it
    assert pg.evaluate("document.documentElement.scrollWidth") <= width
    ctx.close()
