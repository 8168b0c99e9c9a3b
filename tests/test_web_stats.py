"""A conference-year's statistics page (issue 17), the review block of a paper, ratings on cards and
the venue page's year-over-year figures: what the pages say equals what the JSON API serves, in
Chinese and in English, in process and over a real HTTP server."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import orjson
import pytest

from paperlist.store import Store
from paperlist.web import i18n
from tests.conftest import serve_site
from tests.webdata import build_store, paper_id
from tests.webdata import html_tags as tags

LANGS = [("", "zh"), ("/en", "en")]
ICLR = "/conferences/iclr/2024/stats"          # every submission listed, rated, rejected, withdrawn
NEURIPS = "/conferences/neurips/2024/stats"    # accepted papers only


def figs(html: str) -> dict[str, str]:
    """The headline figures of a stats page by their data-fig name, as text."""
    out = {}
    for m in re.finditer(r'data-fig="(\w+)">(.*?)</(?:span|li)>', html, re.S):
        out[m.group(1)] = re.sub(r"<[^>]+>", "", m.group(2)).strip()
    return out


def cells(html: str, attr: str) -> list[str]:
    return re.findall(rf"<td class=\"num\" {attr}>([^<]*)</td>", html)


def as_int(s: str) -> int:
    return int(s.replace(",", ""))


@pytest.fixture(scope="module")
def api(client: Any) -> dict[str, Any]:
    r = client.get(f"/api/v1{ICLR}")
    assert r.status_code == 200
    d: dict[str, Any] = r.json()
    return d


@pytest.mark.parametrize("prefix,lang", LANGS)
def test_figures_on_the_page_are_the_apis(client: Any, api: dict[str, Any], prefix: str, lang: str) -> None:
    r = client.get(prefix + ICLR)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    t = r.text
    assert f'<html lang="{i18n.HTML_LANG[lang]}"' in t
    rt = api["ratings"]
    assert api["listing"] == "all-submissions" and rt["from_source_mean"] == 1 and rt["without"] == 1
    f = figs(t)
    assert f["papers"] == i18n.number(api["papers"], lang)
    assert f["accepted"] == i18n.number(api["accepted"], lang)
    assert f["acceptance_rate"] == i18n.percent(api["acceptance_rate"], lang) == "50.0%"
    assert f["rated"] == i18n.number(rt["papers"], lang)
    assert f["mean"] == i18n.decimal(rt["mean"], lang)
    assert f["accepted_mean"] == i18n.decimal(rt["accepted_mean"], lang)
    assert f["reviews_per_paper"] == i18n.decimal(rt["reviews_per_paper"], lang)
    assert i18n.number(rt["without"], lang) in f["without"]
    assert i18n.number(rt["from_source_mean"], lang) in f["from_source_mean"]
    assert i18n.decimal(rt["rating_confidence_r"], lang) in f["rating_confidence_r"]
    assert i18n.number(rt["rating_confidence_pairs"], lang) in f["rating_confidence_r"]
    # the decisions: every status with papers, none without
    shown = re.findall(r'<tr data-status="([\w-]+)"><th scope="row"><span class="badge[^"]*">[^<]*'
                       r'</span></th><td class="num">([\d,]+)</td>', t)
    assert dict(shown) == {s: str(n) for s, n in api["by_status"].items() if n}
    # the histogram's table alternative adds up to the rated papers, bin by bin as the API has them
    bins = [as_int(x) for x in cells(t, "data-bin-papers")]
    assert bins == [b["papers"] for b in rt["histogram"]] and sum(bins) == rt["papers"]
    assert [as_int(x) for x in cells(t, "data-total-papers")] == [rt["papers"]]
    # every source the figures count is named, with its papers
    for file, n in api["review_sources"].items():
        assert f"<code>{file}</code> <span class=\"count\">{n}</span>" in t
    hrefs = [a.get("href") for tag, a in tags(t) if tag == "a"]
    assert f"/api/v1{ICLR}" in hrefs                                   # the JSON
    assert f"{prefix}/conferences/iclr/2024" in hrefs                   # the conference-year's list
    assert f"{prefix}/authors/hedy-lamarr" in hrefs                     # a prolific author


@pytest.mark.parametrize("prefix,lang", LANGS)
def test_the_page_has_a_json_twin(client: Any, api: dict[str, Any], prefix: str, lang: str) -> None:
    twin = client.get(f"{prefix}{ICLR}?format=json").json()
    assert twin["page"] == "stats"
    for k in ("papers", "accepted", "acceptance_rate", "by_status", "listing", "review_sources", "countries",
              "institutions", "authors", "dimensions", "prev_year", "next_year"):
        assert twin[k] == api[k], k
    assert orjson.dumps(twin["ratings"]) == orjson.dumps(api["ratings"])


@pytest.mark.parametrize("prefix,lang", LANGS)
def test_charts_are_accessible_svg_with_tables(client: Any, prefix: str, lang: str) -> None:
    t = client.get(prefix + ICLR).text
    svgs = [a for tag, a in tags(t) if tag == "svg" and a.get("role") == "img"]
    assert len(svgs) == 2                                    # the histogram and the acceptance curve
    for a in svgs:
        assert (a.get("viewbox") or "").startswith("0 0 ")
        for ref in ("aria-labelledby", "aria-describedby"):
            target = a[ref]
            assert target and re.search(rf'<(title|desc) id="{target}">[^<]+</\1>', t), (ref, target)
    assert t.count('<details class="chart-table">') == 2
    assert t.count('<rect class="h-') >= 5 and "<polyline" in t and 'class="overall"' in t
    assert "<script>" not in re.sub(r"<script src=\"/static/[^\"]+\" defer></script>", "", t)


@pytest.mark.parametrize("prefix,lang,note", [
    ("", "zh", "仅含已接收论文"), ("/en", "en", "Accepted papers only")])
def test_accepted_only_years_show_no_acceptance_rate(client: Any, prefix: str, lang: str, note: str) -> None:
    api = client.get(f"/api/v1{NEURIPS}").json()
    assert api["listing"] == "accepted-only" and api["acceptance_rate"] is None
    t = client.get(prefix + NEURIPS).text
    f = figs(t)
    assert "acceptance_rate" not in f and "papers" not in f
    assert f["accepted"] == i18n.number(api["accepted"], lang)
    assert note in t
    assert 'class="bars curve"' not in t                     # no acceptance rate per bin either
    assert sum(as_int(x) for x in cells(t, "data-bin-papers")) == api["ratings"]["papers"]


def test_public_rejections_are_an_upper_bound(tmp_path: Path) -> None:
    """A listing of the rejections authors made public (NeurIPS on OpenReview) gives an upper bound."""
    from paperlist.models import Record
    from paperlist.names import make_authors

    extra = [Record(source="test", file="test:neurips2023", key=f"n23-{i}", venue="neurips", year=2023,
                    title=f"Paper Number {i} on Bandits", authors=make_authors(["Ann Example"]),
                    status="rejected" if i == 0 else "poster") for i in range(6)]
    store = build_store(tmp_path, index=False, extra=extra)
    from starlette.testclient import TestClient

    from paperlist.web.app import Settings, create_app

    with TestClient(create_app(Settings(home=tmp_path, store=store, open_searcher=False))) as c:
        api = c.get("/api/v1/conferences/neurips/2023/stats").json()
        assert api["listing"] == "public-rejections"
        en = c.get("/en/conferences/neurips/2023/stats").text
        assert figs(en)["acceptance_rate"] == "≤ " + i18n.percent(api["acceptance_rate"], "en")
        assert "Acceptance rate (upper bound)" in en and "upper bound" in en
        assert "接收率（上限）" in c.get("/conferences/neurips/2023/stats").text


@pytest.mark.parametrize("prefix,word", [("", "没有"), ("/en", "We have no papers from this venue")])
def test_unknown_venue_or_year_is_a_404(client: Any, prefix: str, word: str) -> None:
    for path in ("/conferences/iclr/1999/stats", "/conferences/nosuchconf/2024/stats"):
        r = client.get(prefix + path)
        assert r.status_code == 404, path
        assert word in r.text and '<html lang="' in r.text
        assert client.get(f"/api/v1{path}").status_code == 404


def test_an_alias_moves_to_the_stats_page(client: Any) -> None:
    r = client.get("/en/conferences/nips/2024/stats")
    assert r.status_code == 301 and r.headers["location"] == "/en/conferences/neurips/2024/stats"


def test_stats_not_computed_yet_is_a_503(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from paperlist.web.app import Settings, create_app

    store = build_store(tmp_path, index=False)
    store.replace_stats([], [], "not-derived")
    with TestClient(create_app(Settings(home=tmp_path, store=store, open_searcher=False))) as c:
        zh, en = c.get(ICLR), c.get("/en" + ICLR)
        assert zh.status_code == en.status_code == 503
        assert "该会议年份的统计尚未计算" in zh.text
        assert "The statistics for this conference-year are not computed yet" in en.text
        assert c.get(f"/api/v1{ICLR}").status_code == 503
        assert c.get("/en/conferences/iclr").status_code == 200          # the venue page still works


@pytest.mark.parametrize("prefix,lang", LANGS)
def test_paper_review_block(client: Any, web_store: Store, prefix: str, lang: str) -> None:
    pid = paper_id(web_store, "iclr-oral")
    t = client.get(f"{prefix}/papers/{pid}").text
    block = t[t.index('<section class="review"'):]
    block = block[:block.index("</section>")]
    assert '<dd class="review-ratings">8 · 8 · 6 · 8</dd>' in block
    assert '<span class="review-mean">7.50</span>' in block
    assert '<dd class="review-confidences">4 · 3 · 4 · 5</dd>' in block and "<dd>4.00</dd>" in block
    assert '<dd class="review-dim">3 · 4 · 3 · 4</dd>' in block            # soundness
    assert "<code>test:iclr2024</code>" in block
    place = client.get(f"/api/v1/papers/{pid}").json()["review_place"]
    assert place["scope"] == "submissions" and place["rank"] == 1
    top = i18n.percent(place["top_percent"] / 100, lang, 0)
    assert (f"Top {top} of ICLR 2024 submissions by mean rating" if lang == "en"
            else f"平均评分位列 ICLR 2024 全部投稿前 {top}") in block
    assert f'href="{prefix}{ICLR}"' in block
    assert ("Soundness" if lang == "en" else "可靠性") in block


@pytest.mark.parametrize("prefix,text", [("", "数据源给出的 4 份审稿的平均分"),
                                         ("/en", "from the source's mean of 4 reviews")])
def test_a_mean_only_review_says_so(client: Any, web_store: Store, prefix: str, text: str) -> None:
    t = client.get(f"{prefix}/papers/{paper_id(web_store, 'iclr-mean')}").text
    assert text in t and 'class="review-ratings"' not in t and '<span class="review-mean">5.50</span>' in t


def test_accepted_only_papers_rank_among_accepted(client: Any, web_store: Store) -> None:
    t = client.get(f"/en/papers/{paper_id(web_store, 'spec')}").text
    assert "Top 50% of NeurIPS 2024 accepted papers by mean rating" in t
    assert 'class="review"' not in client.get(f"/en/papers/{paper_id(web_store, 'mom')}").text


@pytest.mark.parametrize("prefix,label", [("", "评分"), ("/en", "Rating")])
def test_cards_show_the_mean_rating(client: Any, prefix: str, label: str) -> None:
    for path in ("/conferences/iclr/2024", "/search?q=graph"):
        t = client.get(prefix + path).text
        assert f'<span class="star" aria-hidden="true">★</span> {label} 7.50</span>' in t, path
        assert f"{label} 5.50" in t
    # a paper without reviews has no rating on its card
    t = client.get(prefix + "/conferences/iclr/2024?q=Unreviewed").text
    assert "Unreviewed" in t and 'class="rating"' not in t


@pytest.mark.parametrize("prefix,label", [("", "评分"), ("/en", "Rating")])
def test_search_by_rating_shows_a_removable_filter(client: Any, prefix: str, label: str) -> None:
    api = client.get("/api/v1/search?venue=iclr&rating_min=6&sort=rating").json()
    assert api["total"] >= 1 and all(h["rating"] >= 6 for h in api["hits"])
    ratings = [h["rating"] for h in api["hits"]]
    assert ratings == sorted(ratings, reverse=True)
    t = client.get(f"{prefix}/search?venue=iclr&rating_min=6&sort=rating").text
    assert f"{label} ≥ 6 ×" in t                       # the filter chip, whose link removes it
    assert 'name="rating_min" value="6"' in t          # kept when the query is changed
    chip = re.search(r'<a class="chip active" href="([^"]+)"[^>]*>' + label + " ≥ 6", t)
    assert chip is not None and "rating_min" not in chip.group(1)
    assert client.get("/api/v1/search?q=x&rating_min=nan").status_code == 422


@pytest.mark.parametrize("prefix,lang", LANGS)
def test_venue_and_year_pages_link_to_the_stats(client: Any, prefix: str, lang: str) -> None:
    t = client.get(f"{prefix}/conferences/iclr").text
    hrefs = [a.get("href") for tag, a in tags(t) if tag == "a"]
    assert hrefs.count(f"{prefix}{ICLR}") >= 2              # the year row and the year-over-year table
    assert 'class="year-table stats-table venue-stats"' in t and "50.0%" in t
    v = client.get(f"{prefix}/conferences/neurips").text
    assert ("仅已接收" if lang == "zh" else "accepted only") in v
    y = client.get(f"{prefix}/conferences/iclr/2024").text
    assert f'href="{prefix}{ICLR}"' in y


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_over_http(web_home: Path) -> None:
    with serve_site(web_home) as base:
        status, body = _get(f"{base}/api/v1{ICLR}")
        assert status == 200
        api = orjson.loads(body)
        for prefix, lang in LANGS:
            status, t = _get(base + prefix + ICLR)
            assert status == 200
            f = figs(t)
            assert (f["papers"], f["accepted"], f["acceptance_rate"], f["mean"]) == (
                i18n.number(api["papers"], lang), i18n.number(api["accepted"], lang),
                i18n.percent(api["acceptance_rate"], lang), i18n.decimal(api["ratings"]["mean"], lang))
            assert sum(as_int(x) for x in cells(t, "data-bin-papers")) == api["ratings"]["papers"]
        assert _get(f"{base}/en/conferences/iclr/1999/stats")[0] == 404
