"""The curated reading lists as users see them (issue 47, item 4): the paper page (en and zh), the
paper resource of the API and MCP, a search hit's ``lists``, ``sort=listed`` everywhere, exports.

One home for the module: the papercopilot fixtures and reading lists ingested by the CLI (real
SQLite, a real tantivy index), served by a real uvicorn; MCP through its stdio server."""

from __future__ import annotations

import csv
import io
import json
import re
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import orjson
import pytest

from tests.conftest import PAPERCOPILOT, run_cli, serve_site
from tests.curated_util import FIXTURE_LISTS, write_lists

ACL = "acl2022-epepalh4"          # in someone/awesome-zero-shot and other/robust-regression-papers
ICLR = "iclr2023-6eytbhem"        # in someone/awesome-zero-shot
ELL1 = "neurips2018-uhgcpawt"     # in other/robust-regression-papers ("ℓ1-regression …")
DORO = "neurips2018-amho3z46"     # "Learning with D'Oro & Friends": the hostile lists and a dump

HOSTILE = "evil/awesome-gans"
HOSTILE_NAME = 'evil/q"onmouseover="alert(3)'      # a name no GitHub repository has: its URL is quoted
DUMP = "amusi/CVPR2024-Papers-with-Code"          # a whole-conference dump (curated/folder.py DUMPS)
SCRIPT = "<script>alert(1)</script>"
LISTS = {
    **FIXTURE_LISTS,
    # the heading's HTML is markdown code, so the reader keeps it as text: "<script>alert(1)</script> GANs"
    HOSTILE: "# Awesome GANs\n\n## `<script>alert(1)</script>` GANs\n\n"
             "- [Learning with D'Oro & Friends](https://example.org/doro) NeurIPS 2018\n",
    HOSTILE_NAME: "# Q\n\n- [Learning with D'Oro & Friends](https://example.org/doro) NeurIPS 2018\n",
    DUMP: "# CVPR 2024\n\n## NeurIPS 2018\n\n- [Learning with D'Oro & Friends](https://example.org/doro) "
          "NeurIPS 2018\n",
}
TOPICS = {HOSTILE: '<img src=x onerror="alert(2)"> generative models', DUMP: "computer vision"}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("curated-display")
    folder = write_lists(root, LISTS, TOPICS)
    home = root / "home"
    r = run_cli(home, "ingest", str(PAPERCOPILOT), str(folder))
    assert r.exit_code == 0, r.output
    return home


@pytest.fixture(scope="module")
def site(home: Path) -> Iterator[str]:
    with serve_site(home) as base:
        yield base


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as r:        # noqa: S310 - our own test server
        return r.status, r.read().decode()


def get_json(url: str) -> Any:
    return json.loads(get(url)[1])


def section(page: str) -> str:
    """The paper page's reading-lists section."""
    m = re.search(r'<section class="paper-lists".*?</section>', page, re.S)
    assert m, "no reading-lists section"
    return m.group(0)


# --- the paper page ----------------------------------------------------------------------------
@pytest.mark.parametrize("lang,title,dated", [
    ("en", "In 2 curated reading lists", "list as of January 2, 2026"),
    ("zh", "收录于 2 个精选论文列表", "列表版本：2026年1月2日"),
])
def test_paper_page_names_its_lists(site: str, lang: str, title: str, dated: str) -> None:
    status, page = get(site + ("/en" if lang == "en" else "") + f"/papers/{ACL}")
    assert status == 200
    s = section(page)
    assert f'<h2 id="lists-h">{title}</h2>' in s
    # both lists, linked to GitHub, in name order, with the headings the paper sits under
    links = re.findall(r'<a class="list-name" href="([^"]+)"[^>]*>([^<]+)</a>', s)
    assert links == [("https://github.com/other/robust-regression-papers", "other/robust-regression-papers"),
                     ("https://github.com/someone/awesome-zero-shot", "someone/awesome-zero-shot")]
    assert ('<span class="list-headings">Awesome Zero-Shot Learning › Zero-Shot Text Classification</span>'
            in s)
    assert '<span class="list-headings">Robust Regression</span>' in s
    assert s.count('<span class="list-topic">testing</span>') == 2
    assert s.count(dated) == 2
    assert "whole-conference" not in s and "整届会议" not in s
    # the citation count says where it comes from
    assert re.search(r'<dd class="citations">22 <span class="cite-note citations-source">· Paper Copilot '
                     r'\(Google Scholar\)</span></dd>', page)


def test_a_paper_in_no_list_has_no_section(site: str) -> None:
    page = get(site + "/en/papers/kdd2024-33qdd3nr")[1]
    assert 'class="paper-lists"' not in page and "curated reading list" not in page


@pytest.mark.parametrize("lang,marker", [("en", "whole-conference list"), ("zh", "整届会议论文列表")])
def test_hostile_list_text_is_escaped_and_dumps_come_last(site: str, lang: str, marker: str) -> None:
    page = get(site + ("/en" if lang == "en" else "") + f"/papers/{DORO}")[1]
    s = section(page)
    assert SCRIPT not in page and "<img src=x" not in page and 'onmouseover="alert' not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; GANs" in s                      # the heading, as text
    assert '&lt;img src=x onerror=&#34;alert(2)&#34;&gt; generative models' in s  # the topic, as text
    names = re.findall(r'<a class="list-name" href="([^"]+)"[^>]*>(.*?)</a>', s)
    # curated lists by name; the dump last although its name sorts first
    assert [n for _, n in names] == ["evil/awesome-gans", "evil/q&#34;onmouseover=&#34;alert(3)", DUMP]
    assert names[1][0] == "https://github.com/evil/q%22onmouseover%3D%22alert%283%29"
    dump_item = s[s.index(DUMP):]
    assert marker in dump_item and s.count(marker) == 1
    assert '<li class="curated-list dump">' in s


# --- the API and MCP -----------------------------------------------------------------------------
def _mcp(home: Path, calls: dict[str, tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "paperlist", "--home", str(home), "mcp"],
                                   cwd=str(Path(__file__).resolve().parent.parent))

    async def main() -> dict[str, Any]:
        with anyio.fail_after(60):
            async with Client(params) as client:
                out = {}
                for name, (tool, args) in calls.items():
                    r = await client.call_tool(tool, args)
                    assert not r.is_error, r
                    out[name] = r.structured_content
                return out

    return anyio.run(main)


@pytest.fixture(scope="module")
def mcp_answers(home: Path) -> dict[str, Any]:
    return _mcp(home, {
        "acl": ("get_paper", {"paper_id": ACL}),
        "doro": ("get_paper", {"paper_id": DORO}),
        "listed": ("search_papers", {"query": "learning", "sort": "listed", "limit": 10}),
        "browse": ("search_papers", {"query": "year:1900..2100", "limit": 50}),
    })


def test_api_and_mcp_give_the_same_lists(site: str, mcp_answers: dict[str, Any]) -> None:
    api = get_json(site + f"/api/v1/papers/{ACL}")
    assert api["lists"] == [
        {"name": "other/robust-regression-papers", "url": "https://github.com/other/robust-regression-papers",
         "topic": "testing", "kind": "curated", "headings": [["Robust Regression"]],
         "date": "2026-01-02T03:04:05+00:00", "commit": "a" * 40},
        {"name": "someone/awesome-zero-shot", "url": "https://github.com/someone/awesome-zero-shot",
         "topic": "testing", "kind": "curated",
         "headings": [["Awesome Zero-Shot Learning", "Zero-Shot Text Classification"]],
         "date": "2026-01-02T03:04:05+00:00", "commit": "a" * 40}]
    assert api["citations"] == 22 and api["citations_source"] == "papercopilot"
    assert "citations_as_of" not in api                   # Paper Copilot gives no date
    assert mcp_answers["acl"]["lists"] == api["lists"]
    assert mcp_answers["acl"]["citations_source"] == "papercopilot"
    doro = get_json(site + f"/api/v1/papers/{DORO}")
    assert [x["kind"] for x in doro["lists"]] == ["curated", "curated", "dump"]
    assert doro["lists"][0]["headings"] == [["Awesome GANs", SCRIPT + " GANs"]]   # data, as it is
    assert mcp_answers["doro"]["lists"] == doro["lists"]
    none = get_json(site + "/api/v1/papers/kdd2024-33qdd3nr")
    assert none["lists"] == []


# --- search: hits and sort=listed ----------------------------------------------------------------
def _search(site: str, **params: Any) -> dict[str, Any]:
    return get_json(site + "/api/v1/search?" + urllib.parse.urlencode(params))


def test_sort_listed_orders_by_lists(site: str, home: Path, mcp_answers: dict[str, Any]) -> None:
    d = _search(site, q="", year_from=1900, sort="listed", per_page=50)
    ids = [h["id"] for h in d["hits"]]
    counts = [h.get("lists", 0) for h in d["hits"]]
    # D'Oro (3 lists) before ACL (2) before ICLR and ℓ1 (1), papers in no list after every listed one
    assert ids[:2] == [DORO, ACL] and set(ids[2:4]) == {ICLR, ELL1} and counts[:5] == [3, 2, 1, 1, 0]
    assert counts == sorted(counts, reverse=True) and len(ids) == d["total"] == 16
    # the browse order is another: the sort is what put them first
    assert [h["id"] for h in _search(site, q="", year_from=1900, per_page=50)["hits"]][:4] != ids[:4]
    # with words, only the papers that have them
    d = _search(site, q="learning", sort="listed")
    ids = [h["id"] for h in d["hits"]]
    assert ids == [DORO, ACL, ICLR] and ELL1 not in ids            # ℓ1 is in a list, without the word
    # MCP and the CLI sort alike
    assert [h["id"] for h in mcp_answers["listed"]["hits"]] == ids
    assert [h.get("lists") for h in mcp_answers["listed"]["hits"]] == [3, 2, 1]
    r = run_cli(home, "search", "--year", "1900..2100", "--sort", "listed", "--json", "-n", "5")
    assert r.exit_code == 0, r.output
    cli = orjson.loads(r.stdout)
    assert [h["id"] for h in cli["hits"]][:2] == [DORO, ACL]
    assert [h["lists"] for h in cli["hits"]] == [3, 2, 1, 1, 0]
    assert "· 2 lists" in run_cli(home, "search", "learning", "--sort", "listed").stdout


def test_sort_listed_keeps_to_close_matches(site: str) -> None:
    """Like citations: a paper needs every word (no looser match fills a sorted list)."""
    words = "adapt controllable"       # ACL has one, ICLR the other: no paper has both
    assert _search(site, q=words)["total"] > 0                     # relevance loosens the match
    assert _search(site, q=words, sort="citations")["total"] == 0
    assert _search(site, q=words, sort="listed")["total"] == 0
    d = _search(site, q="", venue="neurips", year=2018, sort="listed")
    assert [h["id"] for h in d["hits"]][:2] == [DORO, ELL1]        # browse with filters: sorted too


def test_hits_carry_their_lists(site: str, mcp_answers: dict[str, Any]) -> None:
    hits = {h["id"]: h for h in _search(site, q="", year_from=1900, per_page=50)["hits"]}
    assert hits[ACL]["lists"] == 2 and hits[DORO]["lists"] == 3 and hits[ICLR]["lists"] == 1
    unlisted = [h for pid, h in hits.items() if pid not in (ACL, DORO, ICLR, ELL1)]
    assert len(unlisted) == 12 and all("lists" not in h for h in unlisted)     # absent, not 0
    mcp_hits = {h["id"]: h for h in mcp_answers["browse"]["hits"]}
    assert mcp_hits[ACL]["lists"] == 2 and mcp_hits[ELL1]["lists"] == 1
    assert all("lists" not in h for pid, h in mcp_hits.items() if pid not in (ACL, DORO, ICLR, ELL1))


@pytest.mark.parametrize("lang,label", [("en", "Most listed"), ("zh", "收录最多")])
def test_search_page_sorts_by_lists(site: str, lang: str, label: str) -> None:
    prefix = "/en" if lang == "en" else ""
    page = get(site + prefix + "/search?q=learning")[1]
    assert f'<a href="{prefix}/search?q=learning&amp;sort=listed">{label}</a>' in page
    page = get(site + prefix + "/search?q=learning&sort=listed")[1]
    assert f"<strong>{label}</strong>" in page
    order = [m for m in re.findall(r'href="[^"]*/papers/([a-z0-9-]+)"', page) if m in (DORO, ACL, ICLR)]
    assert list(dict.fromkeys(order))[:3] == [DORO, ACL, ICLR]


# --- exports ---------------------------------------------------------------------------------------
def test_exports_carry_lists(site: str) -> None:
    _, text = get(site + "/api/v1/search?" + urllib.parse.urlencode({"q": "", "year_from": 1900,
                                                                      "sort": "listed", "format": "csv"}))
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(text))}
    assert rows[DORO]["lists"] == "3" and rows[ACL]["lists"] == "2" and rows[ICLR]["lists"] == "1"
    assert list(rows)[:2] == [DORO, ACL]
    assert [r["lists"] for pid, r in rows.items() if pid not in (DORO, ACL, ICLR, ELL1)] == ["0"] * 12
    _, text = get(site + "/api/v1/search?" + urllib.parse.urlencode({"q": "", "year_from": 1900,
                                                                      "format": "jsonl"}))
    lines = {x["id"]: x for x in map(orjson.loads, text.splitlines())}
    api = get_json(site + f"/api/v1/papers/{ACL}")
    assert lines[ACL]["lists"] == api["lists"] and len(lines[ACL]["lists"]) == 2
    assert lines[DORO]["lists"] == get_json(site + f"/api/v1/papers/{DORO}")["lists"]
    assert lines["kdd2024-33qdd3nr"]["lists"] == []
    assert all(set(x) <= set(api) for x in lines.values())        # the API's paper, without HTML
