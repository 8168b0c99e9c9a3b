"""What a walk through the site as a researcher found (issue 20), each guarded where its cause
lives: the page over a real store and index."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paperlist.store import Store
from tests.webdata import _rec, build_store, paper_id

DUP = "Two Sources Give This Paper Two Different PDFs"


@pytest.fixture(scope="module")
def dup_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A home where two sources list one paper, each with its own PDF and page."""
    from starlette.testclient import TestClient

    from paperlist.web.app import Settings, create_app

    home = tmp_path_factory.mktemp("dup")
    extra = [
        _rec("test:a", "dup-a", "iclr", 2024, DUP, ["Edsger Dijkstra"], status="poster",
             ids={"openreview": "DUP1"},
             links={"pdf": "https://openreview.net/pdf?id=DUP1", "site": "https://iclr.cc/virtual/2024/poster/9"}),
        _rec("test:b", "dup-b", "iclr", 2024, DUP, ["Edsger Dijkstra"], status="poster",
             ids={"openreview": "DUP1"},
             links={"pdf": "https://www.example.org/dup.pdf", "site": "https://iclr.cc/virtual/2024/poster/9"}),
    ]
    build_store(home, index=False, extra=extra).close()
    store = Store(home / "paperlist.db", readonly=True)
    with TestClient(create_app(Settings(home=home, store=store)), follow_redirects=False) as c:
        yield c, paper_id(store, "dup-a")


@pytest.mark.parametrize("prefix", ["", "/en"])
def test_no_two_link_buttons_read_alike(dup_client: tuple[Any, str], prefix: str) -> None:
    """Item 10: "PDF PDF" when two sources give a PDF: each repeated kind names its site."""
    from tests.webdata import html_tags

    client, pid = dup_client
    t = client.get(f"{prefix}/papers/{pid}").text
    start = t.index('<ul class="links">')
    block = t[start:t.index("</ul>", start)]
    buttons = [a for tag, a in html_tags(block) if tag == "a"]
    assert {b["href"] for b in buttons} == {"https://openreview.net/pdf?id=DUP1", "https://www.example.org/dup.pdf",
                                            "https://iclr.cc/virtual/2024/poster/9"}
    assert '<span class="link-host">openreview.net</span>' in block
    assert '<span class="link-host">example.org</span>' in block
    assert block.count('class="link-host"') == 2           # the one site link needs no host
    api = client.get(f"/api/v1/papers/{pid}").json()
    assert [x["kind"] for x in api["links"]].count("pdf") == 2   # the API keeps every link


@pytest.mark.parametrize("v", [1, 3, 7, 10, 99, 101, 1250, 4955, 5000, 11677, 123456])
def test_axes_have_round_evenly_spaced_ticks(v: int) -> None:
    """Item 6: ticks at quarters of 5,000 read 0/1K/2K/4K/5K; every tick is now a multiple of one
    1/2/5 × 10^k step, the top at or just above the largest bar."""
    from paperlist.web.charts import axis

    top, ticks = axis(v)
    step = ticks[1] - ticks[0]
    assert ticks[0] == 0 and ticks[-1] == top >= v and len(ticks) <= 6
    assert all(b - a == step for a, b in zip(ticks, ticks[1:], strict=False))
    assert str(step).strip("0") in ("1", "2", "5") and top - step < v


def test_the_current_year_is_marked_partial(client: Any) -> None:
    """Item 6: the year in progress is drawn lighter and marked, with a note saying so."""
    import datetime as dt

    from paperlist.web.charts import is_partial

    assert is_partial(2026, dt.date(2026, 12, 1)) and not is_partial(2025, dt.date(2026, 12, 1))
    t = client.get("/en/conferences/neurips").text
    if is_partial(2026):                     # the fixture's newest NeurIPS year is 2026
        assert 'class="bar-link partial"' in t and ">2026*</text>" in t
        assert "2026 is not over: its bar counts the papers published so far." in t
    else:
        assert "partial" not in t and "is not over" not in t
    ticks = [int(x.replace(",", "")) for x in re.findall(r'<text class="tick" x="[\d.]+" y="[\d.]+" '
                                                         r'text-anchor="end">([\d,]+)</text>', t)]
    assert ticks and ticks[0] == 0 and len(set(b - a for a, b in zip(ticks, ticks[1:], strict=False))) == 1


@pytest.mark.parametrize(("q", "kind", "page_text"), [
    ("venue:neurips year:2026 status:rejected", "no-decision",
     "Our sources give no such decision for NeurIPS 2026; its papers are: Poster, Oral, Spotlight."),
    ("venue:neurips year:2019", "no-papers", "We have no NeurIPS papers from 2019."),
    ("venue:neurips year:2023 rating:>=5", "no-ratings",
     "No source we read gives review ratings for NeurIPS 2023."),
])
def test_an_empty_result_says_what_the_data_lacks(client: Any, q: str, kind: str, page_text: str) -> None:
    """Item 5: "check your spelling" misleads when the filters ask for what our sources do not hold."""
    api = client.get("/api/v1/search", params={"q": q}).json()
    assert api["total"] == 0 and [x["kind"] for x in api["nothing_found"]] == [kind]
    t = client.get("/en/search", params={"q": q}).text
    assert page_text in t and "Check the spelling" not in t
    zh = client.get("/search", params={"q": q}).text
    assert "Check the spelling" not in zh and 'class="nothing-found"' in zh


def test_words_that_match_nothing_still_get_the_spelling_hint(client: Any) -> None:
    api = client.get("/api/v1/search", params={"q": "venue:neurips year:2024 qqzzxxnonword"}).json()
    assert api["total"] == 0 and api["nothing_found"] == []
    t = client.get("/en/search", params={"q": "venue:neurips year:2024 qqzzxxnonword"}).text
    assert "Check the spelling" in t
    assert client.get("/api/v1/search", params={"q": "graph"}).json()["nothing_found"] == []


MORE_2025 = ["colt", "alt", "corl", "l4dc", "rss", "3dv", "chil", "clear", "cpal", "log", "mlhc", "automl",
             "iccv", "ijcai", "coling", "naacl", "emnlp"]


def test_latest_proceedings_newest_then_largest_with_counts(tmp_path: Path) -> None:
    """Item 9: the home page's newest row ordered by year, then by the month the conference meets
    (issue 43: NeurIPS in December is newer than ICML in July), then by that year's proceedings (not a
    venue's all-time total, not the alphabet), with paper counts, and not cut at 16."""
    from paperlist.service import Home
    from paperlist.service.venues import latest_proceedings

    def papers(venue: str, year: int, n: int) -> list[Any]:
        return [_rec(f"test:{venue}{year}", f"{venue}{year}-{i}", venue, year, f"{venue} {year} paper {i}",
                     ["Edsger Dijkstra"], status="poster") for i in range(n)]

    extra = (papers("uai", 2024, 30) + papers("uai", 2026, 1) + papers("wacv", 2026, 3)
             + papers("icml", 2026, 2)
             + papers("aistats", 2025, 5) + papers("isipta", 2025, 1)
             + [p for v in MORE_2025 for p in papers(v, 2025, 1)])
    home = tmp_path / "h"
    build_store(home, index=False, extra=extra).close()
    rows = latest_proceedings(Home(home))
    got = [(r["key"], r["year"], r["papers"]) for r in rows]
    assert got[0] == ("neurips", 2026, 20)                       # the seed's 20 NeurIPS 2026 papers
    assert got.index(("uai", 2026, 1)) < got.index(("wacv", 2026, 3))   # July's before February's
    # one month (ICML and UAI in July): the larger that year first, not by all-time size (UAI 2024: 30)
    assert got.index(("icml", 2026, 2)) < got.index(("uai", 2026, 1))
    assert [y for _, y, _ in got] == sorted((y for _, y, _ in got), reverse=True)
    assert len(got) == 6 + len(MORE_2025) > 16                          # every one, not the first 16


@pytest.mark.parametrize(("prefix", "newest", "every", "last"), [
    ("/en", "NeurIPS 2026, its newest year", "Every year of NeurIPS", "The last page (1)"),
    ("", "NeurIPS 2026（最新一届）", "NeurIPS 的所有年份", "最后一页（第 1 页）")])
def test_error_pages_point_the_way(client: Any, prefix: str, newest: str, every: str, last: str) -> None:
    """Item 15: an unknown venue-year links to the venue and its newest year; a page past the
    last links to the last page."""
    r = client.get(f"{prefix}/conferences/neurips/2019")
    assert r.status_code == 404
    assert f'<a href="{prefix}/conferences/neurips/2026">{newest}</a>' in r.text
    assert f'<a href="{prefix}/conferences/neurips">{every}</a>' in r.text
    stats = client.get(f"{prefix}/conferences/neurips/2019/stats")
    assert stats.status_code == 404 and f'href="{prefix}/conferences/neurips/2026/stats"' in stats.text
    past = client.get(f"{prefix}/conferences/neurips/2026?page=9")
    assert past.status_code == 400 and f'<a href="{prefix}/conferences/neurips/2026">{last}</a>' in past.text


@pytest.mark.parametrize(("prefix", "main", "label"), [("/en", "Main track", "Track"), ("", "主会", "类别")])
def test_tracks_read_as_names(client: Any, prefix: str, main: str, label: str) -> None:
    """Item 16: track slugs were raw in both languages, and "Track" read 分会场 (a session)."""
    from paperlist.web.tracks import track_label

    assert track_label("late-papers") == "Late papers" and track_label(None) == ""
    t = client.get(f"{prefix}/conferences/neurips/2024").text
    assert f">{main} <span" in t and ">main <span" not in t
    assert "分会场" not in client.get("/conferences/neurips/2024").text
    assert label in t


def test_home_speaks_each_language_with_real_counts(client: Any, web_store: Store) -> None:
    """Item 16: Chinese example queries on the Chinese home page, "N 届会议" (not 个会议年份), and a
    meta description with the library's real counts (not "30+")."""
    zh, en = client.get("/").text, client.get("/en/").text
    assert "?q=%E6%89%A9%E6%95%A3%E8%AF%AD%E8%A8%80%E6%A8%A1%E5%9E%8B" in zh and "扩散语言模型" in zh
    assert "diffusion language model" in en and "扩散语言模型" not in en
    assert "届会议" in zh and "个会议年份" not in zh
    papers, venue_years = web_store.db.execute(
        "SELECT count(*), count(DISTINCT venue || year) FROM papers").fetchone()
    desc = re.search(r'<meta name="description" content="([^"]+)"', en)
    assert desc and f"{papers} papers" in desc.group(1)
    assert f"({venue_years} conference-years)" in desc.group(1)
    assert "30+" not in en and "30+" not in client.get("/en/conferences").text


def test_a_conference_year_lists_its_accepted_papers_first(client: Any, web_store: Store) -> None:
    """Item 8: ICLR 2025's list opened on 11,677 "papers", 7,966 of them rejected or withdrawn. The
    list (page, API, MCP) now shows the accepted papers; the others are one click away, counted."""
    acc, rest = web_store.db.execute(
        "SELECT sum(accepted), sum(1 - accepted) FROM papers WHERE venue='iclr' AND year=2024").fetchone()
    assert acc and rest                                       # the fixture year lists both
    d = client.get("/api/v1/conferences/iclr/2024").json()
    assert d["total"] == acc and all(p["accepted"] for p in d["papers"])
    assert {x["value"]: x["count"] for x in d["decision_counts"]} == {"accepted": acc, "not-accepted": rest,
                                                                    "all": acc + rest}
    others = client.get("/api/v1/conferences/iclr/2024?decision=not-accepted").json()
    assert others["total"] == rest and not any(p["accepted"] for p in others["papers"])
    assert client.get("/api/v1/conferences/iclr/2024?decision=all").json()["total"] == acc + rest
    rejected = client.get("/api/v1/conferences/iclr/2024?status=rejected").json()    # statuses decide
    assert rejected["total"] >= 1
    assert client.get("/api/v1/conferences/iclr/2024?decision=maybe").status_code == 422
    page = client.get("/en/conferences/iclr/2024").text
    assert "Rejected or withdrawn" in page
    assert 'href="/en/conferences/iclr/2024?decision=not-accepted"' in page
    # a year without rejections has no decision switch
    assert "decision_counts" in (n := client.get("/api/v1/conferences/neurips/2026").json())
    assert n["decision_counts"] == []
    csv = client.get("/api/v1/conferences/iclr/2024?format=csv&decision=all").text
    assert len(csv.strip().splitlines()) == 1 + acc + rest


def test_topic_trends_count_published_papers(client: Any, web_store: Store) -> None:
    """Item 7: rejected and withdrawn submissions are listed for some years only, so counting them
    made a topic's trend (and a venue's bars) jump; topics count accepted papers."""
    rejected = web_store.db.execute(
        "SELECT t.topic, count(DISTINCT t.paper_id) FROM paper_topics t JOIN papers p ON p.id = t.paper_id"
        " WHERE p.accepted = 0 GROUP BY t.topic").fetchall()
    assert rejected, "the fixture has rejected papers with topics"
    for slug, _ in rejected:
        want = dict(web_store.db.execute(
            "SELECT t.year, count(DISTINCT t.paper_id) FROM paper_topics t JOIN papers p ON p.id = t.paper_id"
            " WHERE p.accepted = 1 AND t.topic = ? GROUP BY t.year", (slug,)).fetchall())
        d = client.get(f"/api/v1/topics/{slug}").json()
        assert {int(y): n for y, n in d["years"].items()} == want
        assert d["papers"] == sum(want.values()) and all(p["accepted"] for p in d["list"])


@pytest.mark.parametrize("prefix", ["", "/en"])
def test_venue_pages_do_not_mix_submissions_and_accepted(client: Any, web_store: Store, prefix: str) -> None:
    """Item 7: the bars counted every listed submission where a year lists rejections and only
    accepted papers elsewhere; they now count accepted papers, and submissions are a column of
    their own where a source lists them."""
    d = client.get(f"{prefix}/conferences/iclr?format=json").json()
    acc = dict(web_store.db.execute(
        "SELECT year, sum(accepted) FROM papers WHERE venue='iclr' GROUP BY year").fetchall())
    bars = {b["year"]: b["total"] for b in d["chart"]["bars"] if b["total"]}
    assert bars == {y: n for y, n in acc.items() if n}
    assert all(s["name"] != "rejected" for b in d["chart"]["bars"] for s in b["segments"])
    t = client.get(f"{prefix}/conferences/iclr").text
    assert ("Submissions listed" if prefix else "收录的投稿") in t


def test_conference_year_lists_sort_page_and_count_what_they_show(client: Any, web_store: Store) -> None:
    """Item 12: sorting by title or rating, page numbers to jump to, status counts that follow
    the text filter, and an "all" view without abstracts."""
    by_title = client.get("/api/v1/conferences/neurips/2026?sort=title").json()["papers"]
    titles = [p["title_plain"].lower() for p in by_title]
    assert titles == sorted(titles)
    rated = client.get("/api/v1/conferences/iclr/2024?sort=rating&decision=all").json()["papers"]
    ratings = [p["rating"] for p in rated]
    known = [r for r in ratings if r is not None]
    assert known == sorted(known, reverse=True) and ratings[:len(known)] == known     # unrated last
    assert client.get("/api/v1/conferences/iclr/2024?sort=size").status_code == 422
    # the text filter narrows the status counts too
    word = by_title[0]["title_plain"].split()[0]
    d = client.get("/api/v1/conferences/neurips/2026", params={"q": word}).json()
    assert sum(s["count"] for s in d["status_counts"]) == d["total"] < len(web_store.db.execute(
        "SELECT id FROM papers WHERE venue='neurips' AND year=2026").fetchall())
    # page numbers
    t = client.get("/en/conferences/neurips/2026?per_page=100").text
    assert 'class="pager-numbers"' not in t                          # one page: no pager
    from paperlist.web.views.venues import page_numbers

    assert page_numbers(1, 1) == [] and page_numbers(1, 3) == [1, 2, 3]
    assert page_numbers(10, 30) == [1, 0, 8, 9, 10, 11, 12, 0, 30]
    page = client.get("/en/conferences/neurips/2026?sort=title").text
    assert "<strong>Title</strong>" in page and 'name="sort" value="title"' in page
    full = client.get("/en/conferences/neurips/2026?per_page=all").text
    assert 'class="card-abstract"' not in full and 'class="card-abstract"' in page


def test_author_pages_are_paged_and_venue_chips_narrow_them(client: Any, web_store: Store) -> None:
    """Item 11: "Yang Liu" was 685 papers on one 718 KB page, and the venue chips left the page.
    The page shows a hundred papers at a time; a venue chip narrows the list to that venue."""
    from paperlist.service import Home
    from paperlist.service.authors import author

    key = "ada-lovelace"
    mine = web_store.db.execute(
        "SELECT p.venue, count(*) FROM paper_authors a JOIN papers p ON p.id = a.paper_id"
        " WHERE a.author_key = ? GROUP BY p.venue", (key,)).fetchall()
    total = sum(n for _, n in mine)
    home = Home(web_store.path.parent, store=web_store)
    paged = author(home, key, per_page=1)
    assert paged["pagination"]["pages"] == total and len(paged["papers"]) == 1 and paged["total"] == total
    second = author(home, key, page=2, per_page=1)
    assert second["papers"][0]["id"] != paged["papers"][0]["id"]
    venue, n = mine[0]
    d = client.get(f"/api/v1/authors/{key}", params={"venue": venue}).json()
    assert d["venue"] == venue and d["matching"] == n == len(d["papers"]) and d["total"] == total
    assert all(p["venue"] == venue for p in d["papers"])
    assert len(client.get(f"/api/v1/authors/{key}").json()["papers"]) == total    # the API: all at once
    page = client.get(f"/en/authors/{key}").text
    assert f'href="/en/authors/{key}?venue={venue}"' in page            # chips narrow, not leave
    assert client.get(f"/en/authors/{key}?page=99").status_code == 400


def test_a_conference_year_list_narrows_to_a_topic(client: Any, web_store: Store) -> None:
    """Item 12: a topic filter on the list itself, its busiest topics as chips."""
    rows = web_store.db.execute(
        "SELECT t.topic, count(DISTINCT t.paper_id) FROM paper_topics t JOIN papers p ON p.id = t.paper_id"
        " WHERE p.venue = 'neurips' AND p.year = 2026 AND p.accepted = 1 GROUP BY t.topic"
        " ORDER BY 2 DESC, 1").fetchall()
    slug, n = rows[0]
    d = client.get("/api/v1/conferences/neurips/2026").json()
    assert d["topic_counts"][0]["value"] == slug and d["topic_counts"][0]["count"] >= n
    f = client.get("/api/v1/conferences/neurips/2026", params={"topic": slug}).json()
    assert f["total"] == n and f["filters"]["topic"] == slug
    ids = {r[0] for r in web_store.db.execute("SELECT paper_id FROM paper_topics WHERE topic = ?", (slug,))}
    assert {p["id"] for p in f["papers"]} <= ids
    assert client.get("/api/v1/conferences/neurips/2026?topic=no-such-topic").status_code == 422
    page = client.get(f"/en/conferences/neurips/2026?topic={slug}").text
    assert 'class="chip topic active"' in page and f'name="topic" value="{slug}"' in page
