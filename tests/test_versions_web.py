"""A work with versions (issue 18) on the site and in the API: a search shows it once, as its
published version, with the others listed; a filter finds each version; the paper page links
them; more-by-authors and similar papers do not repeat the paper's own versions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from paperlist.store import Store
from tests.webdata import _rec, build_store, paper_id

TITLE = "Versioned Routing of Sparse Experts Across Venues"


@pytest.fixture(scope="module")
def versions_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str, str]]:
    from starlette.testclient import TestClient

    from paperlist.web.app import Settings, create_app

    home = tmp_path_factory.mktemp("versions")
    abstract = "We route tokens to sparse experts across venues and measure quality."
    extra = [
        # the anonymous OpenReview submission (no authors), rejected, a year before the venue paper
        _rec("test:iclr2023", "v-sub", "iclr", 2023, TITLE, [], status="rejected", abstract=abstract,
             ids={"openreview": "VSUB1"}),
        _rec("test:neurips2024", "v-pub", "neurips", 2024, TITLE, ["Edsger Dijkstra", "Barbara Liskov"],
             status="poster"),                   # the venue's record has no abstract: it borrows one
        _rec("test:neurips2024", "v-other", "neurips", 2024, "Another Paper by Edsger Dijkstra on Routing",
             ["Edsger Dijkstra"], status="poster", abstract="Routing again, differently."),
    ]
    build_store(home, extra=extra).close()
    store = Store(home / "paperlist.db", readonly=True)
    with TestClient(create_app(Settings(home=home, store=store)), follow_redirects=False,
                    client=("127.0.0.1", 50002)) as c:
        yield c, paper_id(store, "v-pub"), paper_id(store, "v-sub")


def test_a_search_shows_the_work_once_as_its_published_version(versions_client: tuple[Any, str, str]) -> None:
    c, pub, sub = versions_client
    d = c.get("/api/v1/search", params={"q": TITLE.lower()}).json()
    ids = [h["id"] for h in d["hits"]]
    assert ids[0] == pub and sub not in ids
    assert [(v["id"], v["venue"], v["status"], v["published"]) for v in d["hits"][0]["versions"]] == \
        [(sub, "iclr", "rejected", False)]
    # the published record had no abstract: its submission's makes it findable by the abstract
    found = c.get("/api/v1/search", params={"q": "sparse experts quality"}).json()["hits"]
    assert [h["id"] for h in found][:1] == [pub]
    # a filter finds each version, which names the published one
    f = c.get("/api/v1/search", params={"q": TITLE.lower(), "venue": "iclr"}).json()
    assert [h["id"] for h in f["hits"]] == [sub] and f["hits"][0]["versions"][0] == {
        "id": pub, "href": f"/papers/{pub}", "venue": "neurips", "venue_short": "NeurIPS", "year": 2024,
        "status": "poster", "published": True}
    page = c.get("/en/search", params={"q": TITLE.lower()}).text
    assert "Also:" in page and f'href="/en/papers/{sub}"' in page


def test_the_paper_page_lists_its_versions_and_never_as_more_by_its_authors(
        versions_client: tuple[Any, str, str]) -> None:
    c, pub, sub = versions_client
    d = c.get(f"/api/v1/papers/{pub}").json()
    assert [v["id"] for v in d["versions"]] == [sub]
    assert sub not in [p["id"] for p in d["more_by_authors"] + d["similar"]]
    assert [v["published"] for v in c.get(f"/api/v1/papers/{sub}").json()["versions"]] == [True]
    page = c.get(f"/papers/{sub}").text
    assert 'class="paper-versions"' in page and f'href="/papers/{pub}"' in page
