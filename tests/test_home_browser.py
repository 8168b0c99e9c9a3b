"""The home page leads with this year's papers (issue 43 item 4), in Debian's Chromium: a home made of
the real 2026 files (NeurIPS 2026's orals and spotlights, IJCAI-ECAI 2026, ICML 2026's title list),
in Chinese and English, on a 390 px phone and a 1366 px desktop."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from paperlist.index import fulltext
from paperlist.ingest import ingest
from paperlist.store import Store

from .conftest import serve_site, shared_data
from .test_web_browser import BROWSER_MARKS, CHROMIUM, Watch, shot

pytestmark = [*BROWSER_MARKS, pytest.mark.corpus]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("home2026")
    store = Store(home / "paperlist.db")
    files = [shared_data(p) for p in ("neurips2026/highlights.json", "conference-navigator/ijcai-2026",
                                      "ai-top-conf-jsons/ICML/icml_2026.json.gz")]
    assert ingest(store, [str(f) for f in files], jobs=1).failed == 0
    fulltext.build(store, home, force=True)
    store.close()
    with serve_site(home) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield b
        b.close()


@pytest.mark.parametrize("width", [390, 1366])
@pytest.mark.parametrize(("lang", "heading", "full_list"), [("", "NeurIPS 2026", "完整列表"),
                                                             ("/en", "NeurIPS 2026", "The full list")])
def test_the_home_page_leads_with_neurips_2026_papers(browser: Any, site: str, width: int, lang: str,
                                                       heading: str, full_list: str) -> None:
    ctx = browser.new_context(base_url=site, viewport={"width": width, "height": 900})
    pg = ctx.new_page()
    watch = Watch(pg)
    pg.goto(f"{lang}/")
    featured = pg.locator("section.featured")
    assert featured.locator("h2 a").inner_text() == heading
    cards = featured.locator("li.card")
    assert cards.count() == 10
    for i in range(cards.count()):
        card = cards.nth(i)
        assert card.locator(".card-authors a").count() >= 1                 # every paper with its authors
        assert card.locator(".badge.st-oral, .badge.st-spotlight").count() == 1
        assert card.locator("h3.card-title a").get_attribute("href").startswith(f"{lang}/papers/neurips2026-")
    # the papers lead: the featured list comes before the figures and the rows of venues
    assert pg.evaluate("document.querySelector('section.featured').compareDocumentPosition("
                       "document.querySelector('section.figures')) & Node.DOCUMENT_POSITION_FOLLOWING") > 0
    links = [featured.locator("a", has_text=full_list), featured.locator("a[href$='/stats']")]
    assert all(x.count() >= 1 for x in links)
    assert links[0].first.get_attribute("href") == f"{lang}/conferences/neurips/2026"
    # the newest row of venue-years keeps what we hold of each: ICML 2026 is titles only
    chips = pg.locator(".recent .chip").all_inner_texts()
    assert chips[0].startswith("NeurIPS 2026"), chips
    icml = next(c for c in chips if c.startswith("ICML 2026"))
    assert ("仅标题" if lang == "" else "titles only") in icml
    assert not any(("仅标题" if lang == "" else "titles only") in c for c in chips if c.startswith("IJCAI"))
    assert pg.evaluate("document.documentElement.scrollWidth") <= width
    shot(pg, f"home-2026{lang.replace('/', '-') or '-zh'}-{width}", full=False)
    assert not watch.dialogs and not watch.errors, watch.errors
    ctx.close()


def test_the_featured_papers_open(browser: Any, site: str) -> None:
    ctx = browser.new_context(base_url=site, viewport={"width": 1366, "height": 900})
    pg = ctx.new_page()
    pg.goto("/en/")
    first = pg.locator("section.featured li.card h3 a").first
    title = first.inner_text()
    first.click()
    pg.wait_for_load_state("load")
    assert pg.locator("h1.paper-title").inner_text() == title
    assert "NeurIPS 2026" in pg.locator("body").inner_text()
    ctx.close()
