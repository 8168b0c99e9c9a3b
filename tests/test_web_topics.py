"""Topic pages in both languages, topics and similar papers on paper pages, and the search page's
topic facet, mode switch and translated queries."""

from __future__ import annotations

import re
from typing import Any

import pytest

from paperlist.store import Store
from tests.webdata import paper_id

LANGS = [("", "zh-CN"), ("/en", "en")]


@pytest.fixture(scope="module")
def spec(web_store: Store) -> str:
    return paper_id(web_store, "spec")


def _main_topic(web_store: Store, pid: str) -> str:
    return web_store.paper_topics(pid)[0][0]


@pytest.mark.parametrize("prefix,lang", LANGS)
def test_topic_pages_render_in_both_languages(client: Any, web_store: Store, spec: str, prefix: str,
                                              lang: str) -> None:
    slug = _main_topic(web_store, spec)
    for path in ("/topics", f"/topics/{slug}", "/topics/ml", f"/topics/{slug}?venue=neurips&year=2024",
                 "/conferences/neurips/2024/topics", f"/conferences/neurips/2024/topics/{slug}"):
        r = client.get(prefix + path)
        assert r.status_code == 200, (path, r.status_code)
        assert f'<html lang="{lang}"' in r.text
        assert "<script>" not in r.text.split("</head>")[1]          # no inline script
    zh = client.get("/topics").text
    en = client.get("/en/topics").text
    assert "计算机视觉" in zh and "扩散模型与流匹配" in zh
    assert "Computer vision" in en and "Diffusion and flow-matching models" in en
    assert '<svg class="spark"' in en and "<polyline" in en


def test_topic_page_lists_its_papers_with_filters_and_statistics(client: Any, web_store: Store,
                                                                 spec: str) -> None:
    slug = _main_topic(web_store, spec)
    d = client.get(f"/en/topics/{slug}?format=json").json()
    assert d["page"] == "topic" and d["slug"] == slug and d["total"] >= 1
    assert spec in [p["id"] for p in d["papers"]]
    assert d["venue_links"] and d["table"]["rows"] and d["chart"]["bars"]
    filtered = client.get(f"/en/topics/{slug}?venue=neurips&year=2024&format=json").json()
    assert filtered["filters"] == {"venue": "neurips", "year": 2024}
    assert all(p["venue"] == "neurips" and p["year"] == 2024 for p in filtered["papers"])
    area = client.get("/en/topics/ml?format=json").json()
    assert area["is_area"] and area["children"]
    conf = client.get(f"/en/conferences/neurips/2024/topics/{slug}?format=json").json()
    assert conf["conference"]["key"] == "neurips" and all(p["year"] == 2024 for p in conf["papers"])
    listing = client.get("/en/conferences/neurips/2024/topics?format=json").json()
    assert listing["areas"] and any(t["papers"] for a in listing["areas"] for t in a["topics"])


@pytest.mark.parametrize("path, status", [
    ("/topics/no-such-topic", 404), ("/conferences/neurips/1999/topics", 404),
    ("/conferences/nosuchvenue/2024/topics/ml", 404), ("/topics/ml?page=999", 400),
    ("/topics/ml?venue=nosuchvenue", 400), ("/topics/ML", 301), ("/conferences/nips/2024/topics", 301),
])
def test_topic_errors_and_redirects(client: Any, path: str, status: int) -> None:
    assert client.get(path).status_code == status


def test_paper_page_shows_topics_and_similar_papers(client: Any, web_store: Store, spec: str) -> None:
    html = client.get(f"/en/papers/{spec}").text
    slug = _main_topic(web_store, spec)
    assert f'href="/en/topics/{slug}"' in html and "Similar papers" in html
    d = client.get(f"/en/papers/{spec}?format=json").json()
    assert d["topics"][0]["slug"] == slug and d["similar"] and d["similar_method"] in ("vectors", "text")
    assert spec not in [p["id"] for p in d["similar"]]
    assert "相似论文" in client.get(f"/papers/{spec}").text


def test_search_page_topic_facet_modes_and_translation(client: Any, web_store: Store, spec: str) -> None:
    d = client.get("/en/search?q=decoding&format=json").json()
    topic_facet = next(g for g in d["facets"] if g["name"] == "topic")
    assert topic_facet["options"] and all("href" in o and "topic=" in o["href"]
                                          for o in topic_facet["options"])
    slug = _main_topic(web_store, spec)
    f = client.get(f"/en/search?q=decoding&topic={slug}&format=json").json()
    assert f["total"] >= 1 and f["request"]["topics"] == [slug]
    assert any(a["href"] for a in f["active_filters"])
    # no vectors here: only the modes that run are offered (issue 20 item 3)
    assert d["modes"]["unavailable"] in ("setup", "vectors")
    assert [m["value"] for m in d["modes"]["links"]] == ["auto", "keyword"]
    # asked for meaning anyway: keyword results, and the page says so once, in plain words
    for prefix, plain in (("/en", "Search by meaning is unavailable here"), ("", "语义")):
        html = client.get(f"{prefix}/search?q=speculative+decoding&mode=semantic").text
        assert plain in html and html.count('class="notice"') == 1
        assert "pip install" not in html and "usearch" not in html and "paperlist embed" not in html
        assert "search is unavailable:" not in html          # not among the "searched as text" notes
    zh = client.get("/search?q=投机解码").text
    assert "已译为英文搜索" in zh and "speculative decoding" in zh
    assert "Speculative Decoding" in re.sub(r"<[^>]+>", "", zh)
