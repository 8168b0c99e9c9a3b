"""The MCP server, driven by the official SDK's own client over stdio: `paperlist mcp` runs as a
subprocess on the site's fixture home; every tool answers, and mistakes come back as tool errors
that say what to fix."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from paperlist.mcp import TOOL_NAMES, html_to_text
from paperlist.store import Store
from tests.webdata import paper_id


def _run(home: Path, script: Any, env: dict[str, str] | None = None) -> Any:
    """Start `python -m paperlist --home HOME mcp`, connect the SDK's client, run ``script(client)``."""
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "paperlist", "--home", str(home), "mcp"],
                                   cwd=str(Path(__file__).resolve().parent.parent),
                                   env={**os.environ, **env} if env else None)

    async def main() -> Any:
        with anyio.fail_after(60):
            async with Client(params) as client:
                return await script(client)

    return anyio.run(main)


RESOLVE_BIB = ("@inproceedings{mine, title={Knowing without saying: contextual evidence in transformers},\n"
               "  author={Jin, Ruochen and Pang, Tianyu}, booktitle={NeurIPS}, year={2024}}\n"
               "@article{other, title={A Paper The Library Does Not Hold At All}, author={Nobody, Anne},"
               " year={2001}}\n@article{broken, title={unclosed\n")


@pytest.fixture(scope="module")
def answers(web_home: Path, web_store: Store) -> dict[str, Any]:
    """One server process answers every call of this module (starting one takes ~1-2 s)."""
    spec = paper_id(web_store, "spec")

    async def script(c: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"tools": (await c.list_tools()).tools}
        calls = {
            "search": ("search_papers", {"query": "speculative decoding", "limit": 3}),
            "filtered": ("search_papers", {"query": "", "venues": ["nips"], "year_from": 2024,
                                            "year_to": 2024, "statuses": ["poster"], "sort": "title",
                                            "limit": 2}),
            "paper": ("get_paper", {"paper_id": spec}),
            "alias": ("get_paper", {"paper_id": "SPEC123"}),
            "ambiguous": ("get_paper", {"paper_id": "10.1234/tmlr.2023_1"}),
            "missing": ("get_paper", {"paper_id": "no-such-paper"}),
            "venues": ("list_conferences", {}),
            "journals": ("list_conferences", {"kind": "journal"}),
            "list": ("list_conference_papers", {"venue": "NIPS", "year": 2024, "per_page": 2}),
            "list_bad_year": ("list_conference_papers", {"venue": "neurips", "year": 1999}),
            "list_bad_page": ("list_conference_papers", {"venue": "neurips", "year": 2024, "page": 99}),
            "bad_limit": ("search_papers", {"query": "x", "limit": 500}),
            "bad_status": ("search_papers", {"query": "x", "statuses": ["maybe"]}),
            "similar": ("find_similar_papers", {"paper_id": spec, "limit": 3}),
            "similar_missing": ("find_similar_papers", {"paper_id": "no-such-paper"}),
            "topics": ("get_topic_stats", {}),
            "topics_venue": ("get_topic_stats", {"venue": "nips", "year": 2024}),
            "topic": ("get_topic_stats", {"topic": "ML"}),
            "topic_missing": ("get_topic_stats", {"topic": "no-such-topic"}),
            "zh_search": ("search_papers", {"query": "投机解码", "limit": 3}),
            "conf_stats": ("get_conference_stats", {"venue": "nips", "year": 2024}),
            "conf_stats_missing": ("get_conference_stats", {"venue": "neurips", "year": 1901}),
            "resolve": ("resolve_bibliography", {"bibtex": RESOLVE_BIB}),
            "resolve_empty": ("resolve_bibliography", {"bibtex": "   "}),
        }
        for name, (tool, args) in calls.items():
            out[name] = await c.call_tool(tool, args)
        return out

    return _run(web_home, script)


def test_tools_are_listed(answers: dict[str, Any]) -> None:
    tools = {t.name: t for t in answers["tools"]}
    assert set(tools) == set(TOOL_NAMES) == {"search_papers", "get_paper", "list_conferences",
                                             "list_conference_papers", "find_similar_papers",
                                             "get_topic_stats", "get_conference_stats",
                                             "resolve_bibliography", "export_list"}
    search = tools["search_papers"]
    assert "query" in search.input_schema["properties"] and search.description
    assert search.annotations.read_only_hint is True


def test_search_papers(answers: dict[str, Any]) -> None:
    r = answers["search"]
    assert not r.is_error
    d = r.structured_content
    assert d["total"] >= 1 and d["hits"][0]["title"].startswith("Attention Drift")
    hit = d["hits"][0]
    assert hit["authors"] == ["Ada Lovelace", "Alan Turing", "Grace Hopper"] and hit["venue"] == "NeurIPS"
    assert "<mark>" not in hit["snippet"] and "speculative" in hit["snippet"].lower()
    assert set(d["facets"]) == {"venue", "year", "status", "topic"}
    f = answers["filtered"].structured_content
    assert len(f["hits"]) == 2 and all(h["status"] == "poster" and h["year"] == 2024 for h in f["hits"])
    assert [h["title"] for h in f["hits"]] == sorted(h["title"] for h in f["hits"])


def test_get_paper(answers: dict[str, Any]) -> None:
    d = answers["paper"].structured_content
    assert d["abstract"].startswith("Speculative decoding") and d["ids"]["arxiv"] == "2401.00001"
    assert d["bibtex"].startswith("@") and d["venue"]["short"] == "NeurIPS"
    assert not any(k.endswith("_html") for k in d)
    assert answers["alias"].structured_content["id"] == d["id"]                 # an OpenReview id is followed
    amb = answers["ambiguous"]
    assert amb.is_error and "Candidates:" in amb.content[0].text
    miss = answers["missing"]
    assert (miss.is_error and "no paper with this id" in miss.content[0].text
            and "no-such-paper" in miss.content[0].text)


def test_conferences(answers: dict[str, Any]) -> None:
    v = answers["venues"].structured_content
    assert v["total"] == len(v["venues"]) and v["venues"][0]["key"] == "neurips"
    assert {x["kind"] for x in answers["journals"].structured_content["venues"]} == {"journal"}
    lst = answers["list"].structured_content
    assert (lst["venue_key"] == "neurips" and lst["total"] == 5 and lst["pages"] == 3
            and len(lst["papers"]) == 2)
    assert lst["status_counts"] == {"oral": 1, "spotlight": 1, "poster": 3}


@pytest.mark.parametrize("name,words", [
    ("list_bad_year", "no papers from this venue in this year"), ("list_bad_page", "past the last page"),
    ("bad_limit", "less than or equal to 50"), ("bad_status", "statuses"),
])
def test_errors_say_what_to_fix(answers: dict[str, Any], name: str, words: str) -> None:
    r = answers[name]
    assert r.is_error and words in r.content[0].text, r.content[0].text


def test_html_to_text() -> None:
    assert html_to_text("a <mark>b</mark> &amp; c &lt;x&gt;") == "a b & c <x>"


def test_similar_papers_and_topic_stats(answers: dict[str, Any]) -> None:
    import json

    def data(name: str) -> Any:
        r = answers[name]
        assert not r.is_error, r
        return r.structured_content if r.structured_content is not None else json.loads(r.content[0].text)

    sim = data("similar")
    assert (sim["method"] in ("vectors", "text") and sim["papers"]
            and sim["id"] not in [p["id"] for p in sim["papers"]])
    assert answers["similar_missing"].is_error
    areas = data("topics")["areas"]
    assert len(areas) >= 8 and all(a["topics"] for a in areas) and sum(a["papers"] for a in areas) > 0
    scoped = data("topics_venue")
    assert scoped["venue"] == "neurips" and scoped["year"] == 2024
    ml = data("topic")
    assert ml["slug"] == "ml" and ml["topics"] and "venue_years" in ml
    assert answers["topic_missing"].is_error
    zh = data("zh_search")
    assert zh["translated"] == "speculative decoding" and zh["hits"]


def test_conference_stats_over_the_protocol(answers: dict[str, Any], web_store: Store) -> None:
    r = answers["conf_stats"]
    assert not r.is_error, r
    d = r.structured_content
    n = web_store.db.execute("SELECT count(*), sum(accepted) FROM papers WHERE venue='neurips' AND year=2024")
    papers, accepted = n.fetchone()
    assert (d["venue"]["key"], d["year"], d["papers"], d["accepted"]) == ("neurips", 2024, papers, accepted)
    assert sum(d["by_status"].values()) == papers and "links" not in d
    missing = answers["conf_stats_missing"]
    assert missing.is_error and "no papers from this venue in this year" in missing.content[0].text


def test_resolve_bibliography_over_the_protocol(answers: dict[str, Any], web_store: Store) -> None:
    r = answers["resolve"]
    assert not r.is_error, r
    d = r.structured_content
    by_key = {e["key"]: e for e in d["entries"]}
    assert by_key["mine"]["status"] == "matched"
    assert by_key["mine"]["paper"]["id"] == paper_id(web_store, "know")
    assert by_key["other"]["status"] == "not_found"
    assert d["counts"]["matched"] == 1 and d["counts"]["errors"] == 1
    assert "@inproceedings{mine," in d["bibtex"]
    empty = answers["resolve_empty"]
    assert empty.is_error and "empty" in empty.content[0].text


def test_export_list_by_its_links(web_home: Path, web_store: Store, tmp_path: Path) -> None:
    """A reading list exported over MCP by its share link and by its private link, in RIS and APA;
    a link that is none is a tool error."""
    import rispy

    from paperlist.lists import open_lists

    url = str(tmp_path / "lists.db")
    lists = open_lists(url)
    token, lid = lists.create_shelf("For the review")
    for k in ("spec", "acl"):
        lists.add(token, lid, paper_id(web_store, k), f"why {k}")
    share = lists.shelf(token).lists[0].share
    lists.close()

    async def script(c: Any) -> dict[str, Any]:
        shared = f"https://x.org/en/shared/{share}"
        return {"ris": await c.call_tool("export_list", {"link": shared, "format": "ris"}),
                "apa": await c.call_tool("export_list", {"link": f"/lists/{token}/{lid}", "format": "apa"}),
                "bad": await c.call_tool("export_list", {"link": "https://x.org/papers/" + "a" * 40})}

    out = _run(web_home, script, env={"PAPERLIST_LISTS_URL": url})
    ris = out["ris"].structured_content
    assert ris["name"] == "For the review" and ris["papers"] == 2
    recs = rispy.loads(ris["text"])
    assert [r["id"] for r in recs] == [paper_id(web_store, "spec"), paper_id(web_store, "acl")]
    assert recs[1]["notes"] == ["why acl"]
    apa = out["apa"].structured_content["text"]
    assert "(2024)" in apa and "(2023)" in apa
    assert out["bad"].is_error and "Not a reading-list link" in out["bad"].content[0].text
