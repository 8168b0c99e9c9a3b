"""Reading lists end to end in Debian's Chromium: star papers by keyboard on a conference-year page,
reload, open the private link in a new browser context and see the same list, triage with x / u
(the progress line and "hide seen" survive a reload), export BibTeX and RIS from the list page and
import both files back into new lists through the page's forms."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paperlist.store import Store
from tests.conftest import serve_site
from tests.test_web_browser import BROWSER_MARKS, Watch, browser, shot

__all__ = ["browser"]          # the Chromium fixture, shared with the site's browser tests
pytestmark = BROWSER_MARKS


@pytest.fixture(scope="module")
def server(web_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve_site(web_home, lists_url=str(tmp_path_factory.mktemp("blists") / "lists.db")) as url:
        yield url


def context(browser: Any, server: str) -> Any:
    ctx = browser.new_context(base_url=server, viewport={"width": 1280, "height": 900}, accept_downloads=True)
    pg = ctx.new_page()
    pg.watch = Watch(pg)
    return ctx, pg


def visible_ids(page: Any) -> list[str]:
    return page.eval_on_selector_all("[data-triage] li[data-paper]:not([hidden])",
                                     "els => els.map(e => e.getAttribute('data-paper'))")


def entries(page: Any) -> list[str]:
    return page.eval_on_selector_all(".list-entries li[data-paper]", "els => els.map(e => e.dataset.paper)")


def test_star_reload_share_triage_export_import(browser: Any, server: str, web_store: Store,
                                                tmp_path: Path) -> None:
    year_page = "/en/conferences/neurips/2024"
    ctx1, page = context(browser, server)
    page.goto(year_page)
    ids = visible_ids(page)
    assert len(ids) >= 3
    page.keyboard.press("j")
    page.keyboard.press("s")                      # the first star starts a list (POST /api/v1/lists)
    page.wait_for_selector(f'li[data-paper="{ids[0]}"] .star-btn[aria-pressed="true"]')
    page.keyboard.press("j")
    page.keyboard.press("s")
    page.wait_for_selector(f'li[data-paper="{ids[1]}"] .star-btn[aria-pressed="true"]')
    page.wait_for_function("() => document.getElementById('live').textContent.includes('Starred')")
    page.reload()
    page.wait_for_selector(f'li[data-paper="{ids[1]}"] .star-btn[aria-pressed="true"]')
    assert page.get_attribute(f'li[data-paper="{ids[2]}"] .star-btn', "aria-pressed") == "false"
    link = page.evaluate("JSON.parse(localStorage.getItem('paperlist.lists'))[0]")
    private = f"/en/lists/{link['token']}/{link['list']}"
    shot(page, "lists-starred")

    # the private link in another browser (no shared storage): the same list
    ctx2, other = context(browser, server)
    resp = other.goto(private)
    assert resp.headers["cache-control"] == "no-store" and resp.headers["referrer-policy"] == "no-referrer"
    assert entries(other) == ids[:2]
    shot(other, "lists-private-link")

    # triage in the other browser: x marks seen and hides, u undoes, the progress line counts
    other.goto(year_page)
    other.wait_for_selector(".triage-progress")
    other.wait_for_function("() => document.querySelector('.triage-progress').textContent.startsWith('0 of')")
    total = other.get_attribute("[data-triage]", "data-total")
    other.keyboard.press("j")
    other.keyboard.press("x")
    other.wait_for_selector(f'li[data-paper="{ids[0]}"][hidden]', state="attached")
    other.wait_for_function(f"() => document.querySelector('.triage-progress').textContent"
                            f" === '1 of {total} seen'")
    assert other.evaluate("document.activeElement.closest('li').dataset.paper") == ids[1]
    other.keyboard.press("u")
    other.wait_for_selector(f'li[data-paper="{ids[0]}"]:not([hidden])')
    other.wait_for_function("() => document.querySelector('.triage-progress').textContent.startsWith('0 of')")
    other.keyboard.press("x")                                      # the undone card is current again
    other.wait_for_function("() => document.querySelector('.triage-progress').textContent.startsWith('1 of')")
    other.get_by_role("button", name=re.compile("^Mark seen: ")).nth(0).click()   # the mouse marks too
    other.wait_for_function("() => document.querySelector('.triage-progress').textContent.startsWith('2 of')")
    other.reload()
    other.wait_for_function("() => document.querySelector('.triage-progress').textContent.startsWith('2 of')")
    assert ids[0] not in visible_ids(other) and ids[1] not in visible_ids(other)
    other.uncheck("input.hide-seen")                               # seen papers come back, dimmed
    assert ids[0] in visible_ids(other)
    other.reload()
    other.wait_for_function("() => document.querySelector('.triage-progress').textContent.startsWith('2 of')")
    assert ids[0] in visible_ids(other) and not other.is_checked("input.hide-seen")
    assert "seen" in (other.get_attribute(f'li[data-paper="{ids[0]}"]', "class") or "")

    # export BibTeX and RIS from the list page, import each back into a new list
    page.goto(private)
    files = {}
    for label, ext in (("BibTeX file", "bib"), ("RIS file", "ris")):
        with page.expect_download() as dl:
            page.get_by_role("link", name=label).click()
        path = tmp_path / f"list.{ext}"
        dl.value.save_as(path)
        files[ext] = path
    assert files["bib"].read_text().count("@") == 2 and files["ris"].read_text().count("TY  - ") == 2
    for ext, path in files.items():
        page.goto(private)
        page.click("details.list-manage summary")
        page.fill("#new-list", f"Imported {ext}")
        page.get_by_role("button", name="Create").click()
        page.wait_for_url(re.compile(r"/en/lists/[\w-]{32}/[0-9a-f]{16}$"))
        assert page.url != server + private
        page.click("details.list-manage summary")
        page.set_input_files("#import-file", str(path))
        page.get_by_role("button", name="Import", exact=True).click()
        page.wait_for_selector(".list-entries")
        assert entries(page) == ids[:2], ext
    shot(page, "lists-imported")

    # the list pages are accessible too: axe-core finds nothing serious, in both languages
    from axe_playwright_python.sync_playwright import Axe

    share = page.get_attribute("#share-link", "href")
    found = []
    for url in (private, private.replace("/en/", "/", 1), share, "/en/lists", "/lists"):
        page.goto(url)
        for v in Axe().run(page).response["violations"]:
            if v["impact"] in ("serious", "critical"):
                found.append((url, v["id"], [n["target"] for n in v["nodes"][:3]]))
    assert found == []
    for pg in (page, other):
        assert pg.watch.errors == [] and pg.watch.dialogs == []
    ctx1.close()
    ctx2.close()


@pytest.mark.parametrize("lang", ["/en", ""])
def test_triage_on_the_whole_list(browser: Any, server: str, lang: str) -> None:
    """Issue 46 item 2: "all" is a compact row per paper with no buttons in its HTML; site.js builds
    real star and seen buttons from each row's link (one delegated listener), and the keyboard
    triages as on the cards: j moves, x marks seen and hides, u undoes, a click marks too."""
    ctx, page = context(browser, server)
    page.goto(f"{lang}/conferences/neurips/2024?per_page=all")
    page.wait_for_selector(".rows li[data-paper] .seen-btn")
    ids = visible_ids(page)
    total = page.get_attribute("[data-triage]", "data-total")
    assert len(ids) == len(set(ids)) == int(total or 0) == 5
    assert page.locator(".rows .star-btn").count() == 5 and page.locator(".rows .seen-btn").count() == 5
    # only the blocks skip layout off screen: content-visibility on each row cost an observer and an
    # event per row (NeurIPS 2025's load event ~500 ms, ~260 ms in blocks)
    cv = page.evaluate("() => [getComputedStyle(document.querySelector('.rows > ol')).contentVisibility,"
                       " getComputedStyle(document.querySelector('.rows > ol > li')).contentVisibility]")
    assert cv == ["auto", "visible"]
    title = page.text_content(f'li[data-paper="{ids[0]}"] > a') or ""
    seen = "Mark seen" if lang else "标为已看"
    label = page.get_attribute(f'li[data-paper="{ids[0]}"] .seen-btn', "aria-label")
    assert label == f"{seen}: {title.strip()}"
    page.wait_for_function("() => /(^|\\s)0\\s/.test(document.querySelector('.triage-progress').textContent)")
    page.keyboard.press("j")
    assert page.evaluate("document.activeElement.closest('li').dataset.paper") == ids[0]
    page.keyboard.press("x")
    page.wait_for_selector(f'li[data-paper="{ids[0]}"][hidden]', state="attached")
    assert not page.is_visible(f'li[data-paper="{ids[0]}"]')                 # hidden means not shown
    page.wait_for_function("() => /(^|\\s)1\\s/.test(document.querySelector('.triage-progress').textContent)")
    assert page.evaluate("document.activeElement.closest('li').dataset.paper") == ids[1]
    page.keyboard.press("u")
    page.wait_for_selector(f'li[data-paper="{ids[0]}"]:not([hidden])')
    page.wait_for_function("() => /(^|\\s)0\\s/.test(document.querySelector('.triage-progress').textContent)")
    page.click(f'li[data-paper="{ids[2]}"] .seen-btn')                     # the mouse marks too
    page.wait_for_selector(f'li[data-paper="{ids[2]}"][hidden]', state="attached")
    page.keyboard.press("s")                                                 # and s stars the current row
    page.wait_for_selector('.rows .star-btn[aria-pressed="true"]')
    # without script the rows still read and link
    assert page.watch.errors == [] and page.watch.dialogs == []
    ctx.close()
    bare = browser.new_context(base_url=server, java_script_enabled=False)
    pg = bare.new_page()
    pg.goto(f"{lang}/conferences/neurips/2024?per_page=all")
    assert pg.locator(".rows button").count() == 0
    links = pg.eval_on_selector_all(".rows > ol > li > a", "as => as.map(a => a.getAttribute('href'))")
    assert sorted(h.rsplit("/", 1)[1] for h in links) == sorted(ids)
    bare.close()
    # on a phone: nothing serious for axe, no sideways scrolling, buttons big enough to tap
    from axe_playwright_python.sync_playwright import Axe

    phone = browser.new_context(base_url=server, viewport={"width": 390, "height": 844})
    pg = phone.new_page()
    pg.goto(f"{lang}/conferences/neurips/2024?per_page=all")
    pg.wait_for_selector(".rows .seen-btn")
    serious = [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in Axe().run(pg).response["violations"]
               if v["impact"] in ("serious", "critical")]
    assert serious == []
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    for b in pg.locator(".rows button").all():
        box = b.bounding_box()
        assert box and box["width"] >= 32 and box["height"] >= 32, box
    phone.close()
