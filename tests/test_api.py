"""The JSON API (/api/v1): each endpoint's success shape and its errors (problem+json, 422 for bad
parameters, 404 for unknown ids, 301 for aliases), and that it answers from the same builders as
the pages."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from paperlist.store import Store
from tests.webdata import paper_id

PROBLEM = "application/problem+json"


def problem(r: Any, status: int) -> dict[str, Any]:
    """The response's problem details, checked against RFC 9457's members."""
    assert r.status_code == status, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith(PROBLEM)
    body = r.json()
    assert body["status"] == status and body["title"] and body["detail"]
    assert body["type"].startswith("/api#problem-")
    return body


# --- search ---------------------------------------------------------------------------------------
def test_search_shape(client: Any) -> None:
    r = client.get("/api/v1/search?q=speculative+decoding&per_page=5")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    d = r.json()
    assert set(d) >= {"query", "total", "pages", "took_ms", "hits", "facets", "suggestion", "interpreted",
                      "links"}
    assert d["total"] >= 1 and d["took_ms"] >= 0
    hit = d["hits"][0]
    assert hit["title"].startswith("Attention Drift in Speculative Decoding")
    assert "<mark>" in hit["title_html"] and "<mark>" in hit["snippet_html"]
    assert hit["authors"][0] == {"name": "Ada Lovelace", "key": "ada-lovelace"}
    assert hit["href"] == f"/papers/{hit['id']}" and hit["venue"] == "neurips" and hit["year"] == 2024
    assert set(d["facets"]) == {"venue", "year", "status", "topic"}
    assert {"value", "label", "count", "selected"} <= set(d["facets"]["venue"][0])
    assert d["query"]["q"] == "speculative decoding" and d["query"]["per_page"] == 5
    assert d["links"]["bib"].endswith("format=bib") and "format=atom" in d["links"]["atom"]


def test_search_filters_and_paging(client: Any) -> None:
    d = client.get("/api/v1/search?q=&venue=nips&year=2024&status=poster&per_page=2").json()
    assert d["query"]["venues"] == ["neurips"] and d["query"]["year_from"] == d["query"]["year_to"] == 2024
    assert d["total"] >= 3 and len(d["hits"]) == 2
    assert all(h["status"] == "poster" and h["year"] == 2024 for h in d["hits"])
    assert d["links"]["next"] and "page=2" in d["links"]["next"] and d["links"]["prev"] is None
    nxt = client.get(d["links"]["next"]).json()
    assert (nxt["query"]["page"] == 2
            and {h["id"] for h in nxt["hits"]}.isdisjoint({h["id"] for h in d["hits"]}))
    bare = client.get("/api/v1/search?q=transformers&facets=false&snippets=false").json()
    assert bare["facets"] == {"venue": [], "year": [], "status": [], "topic": []}
    assert all("<mark>" not in h["snippet_html"] for h in bare["hits"])


def test_search_is_the_page_search(client: Any) -> None:
    """The same parameters give the same hits as the /search page's JSON twin."""
    q = "/search?q=transformers&sort=newest&per_page=5"
    page = client.get(q + "&format=json").json()
    api = client.get("/api/v1" + q).json()
    assert [h["id"] for h in api["hits"]] == [h["id"] for h in page["hits"]]
    assert api["total"] == page["total"]


def test_search_cache(client: Any) -> None:
    r1 = client.get("/api/v1/search?q=momentum+bandits&per_page=3")
    r2 = client.get("/api/v1/search?q=momentum+bandits&per_page=3")
    assert r1.headers["x-cache"] == "miss" and r2.headers["x-cache"] == "hit" and r2.content == r1.content


@pytest.mark.parametrize("query,param", [
    ("year=abc", "year"), ("per_page=1000", "per_page"), ("page=-1", "page"), ("page=0", "page"),
    ("sort=best", "sort"), ("status=maybe", "status"), ("mode=psychic", "mode"),
    ("facet_size=0", "facet_size"),
    ("format=pdf", "format"), ("limit=20000", "limit"), ("year_from=1800", "year_from"),
    ("q=" + "x" * 1001, "q"), ("facets=perhaps", "facets"),
])
def test_search_bad_parameters(client: Any, query: str, param: str) -> None:
    body = problem(client.get(f"/api/v1/search?q=graphs&{query}"), 422)
    assert body["type"] == "/api#problem-invalid-parameter"
    assert param in body["detail"] and [e["parameter"] for e in body["errors"]] == [param]


@pytest.mark.parametrize("query,words", [
    ("page=101&per_page=100", "past the last page"),          # page x per_page > 10,000
    ("year_from=2024&year_to=2020", "out of range"),
])
def test_search_limits_across_parameters(client: Any, query: str, words: str) -> None:
    assert words in problem(client.get(f"/api/v1/search?q=graphs&{query}"), 422)["detail"]


def test_search_without_index(web_home: Any, web_store: Store) -> None:
    from starlette.testclient import TestClient

    from paperlist.web.app import Settings, create_app

    app = create_app(Settings(home=web_home, store=web_store, open_searcher=False))
    with TestClient(app) as c:
        assert "paperlist index" in problem(c.get("/api/v1/search?q=x"), 503)["detail"]


# --- papers and authors ------------------------------------------------------------------------------
def test_paper(client: Any, web_store: Store) -> None:
    pid = paper_id(web_store, "spec")
    d = client.get(f"/api/v1/papers/{pid}").json()
    assert d["id"] == pid and d["venue"]["key"] == "neurips" and d["status"] == "oral"
    assert d["abstract"].startswith("Speculative decoding") and "<math" in d["abstract_html"]
    assert [a["name"] for a in d["authors"]] == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]
    assert {x["kind"] for x in d["links"]} >= {"pdf", "openreview", "code"}
    assert {x["kind"]: x["value"] for x in d["ids"]}["arxiv"] == "2401.00001"
    assert d["bibtex"].startswith("@inproceedings{") and d["more_by_authors"]
    assert {"page", "status_key"}.isdisjoint(d)
    bib = client.get(f"/api/v1/papers/{pid}?format=bib")
    assert bib.headers["content-type"].startswith("application/x-bibtex") and bib.text == d["bibtex"] + "\n"


def test_paper_errors_and_aliases(client: Any, web_store: Store) -> None:
    assert "nope" in problem(client.get("/api/v1/papers/nope"), 404)["detail"]
    r = client.get("/api/v1/papers/SPEC123")                  # an OpenReview id
    assert r.status_code == 301 and r.headers["location"] == f"/api/v1/papers/{paper_id(web_store, 'spec')}"
    r = client.get("/api/v1/papers/" + quote("10.18653/v1/x", safe="/"))      # a DOI, slashes and all
    assert r.status_code == 301 and r.headers["location"] == f"/api/v1/papers/{paper_id(web_store, 'acl')}"
    body = problem(client.get("/api/v1/papers/10.1234/tmlr.2023_1"), 300)   # a DOI two papers share
    assert body["type"] == "/api#problem-ambiguous-id" and len(body["candidates"]) == 2
    problem(client.get("/api/v1/papers/x?format=pdf"), 422)


def test_author(client: Any) -> None:
    d = client.get("/api/v1/authors/ada-lovelace").json()
    assert d["name"] == "Ada Lovelace" and d["total"] == len(d["papers"]) >= 4
    assert [p["year"] for p in d["papers"]] == sorted((p["year"] for p in d["papers"]), reverse=True)
    assert {c["key"] for c in d["coauthors"]} >= {"grace-hopper", "alan-turing"}
    assert d["links"]["bib"] == "/api/v1/authors/ada-lovelace?format=bib"
    r = client.get("/api/v1/authors/Ada-Lovelace")
    assert r.status_code == 301 and r.headers["location"] == "/api/v1/authors/ada-lovelace"
    problem(client.get("/api/v1/authors/nobody-at-all"), 404)


# --- conferences ----------------------------------------------------------------------------------
def test_conferences(client: Any) -> None:
    d = client.get("/api/v1/conferences").json()
    keys = [v["key"] for v in d["venues"]]
    assert d["total"] == len(keys) and keys[0] == "neurips" and {"iclr", "acl", "tmlr"} <= set(keys)
    nips = d["venues"][0]
    assert nips["years"] == [2023, 2024, 2026] and nips["kind"] == "conference" and "nips" in nips["aliases"]
    v = client.get("/api/v1/conferences/neurips").json()
    assert v["venue"]["key"] == "neurips" and [y["year"] for y in v["years"]] == [2026, 2024, 2023]
    assert v["links"]["atom"] == "/api/v1/conferences/neurips?format=atom" and "chart" not in v
    r = client.get("/api/v1/conferences/nips")
    assert r.status_code == 301 and r.headers["location"] == "/api/v1/conferences/neurips"
    problem(client.get("/api/v1/conferences/nosuchconf"), 404)


def test_conference_year(client: Any) -> None:
    d = client.get("/api/v1/conferences/neurips/2024?per_page=2").json()
    assert d["year_total"] == d["total"] == 5 and len(d["papers"]) == 2
    assert d["papers"][0]["status"] == "oral"                        # best status first
    assert d["pagination"] == {**d["pagination"], "page": 1, "pages": 3, "per_page": 2}
    assert {c["value"]: c["count"] for c in d["status_counts"]} == {"oral": 1, "spotlight": 1, "poster": 3}
    assert d["prev_year"] == 2023 and d["next_year"] == 2026
    f = client.get("/api/v1/conferences/neurips/2024?status=poster&q=collaboration").json()
    assert [p["title"] for p in f["papers"]] == ["A Large Collaboration"] and f["year_total"] == 5
    r = client.get("/api/v1/conferences/NIPS/2024?per_page=2")
    assert r.status_code == 301 and r.headers["location"] == "/api/v1/conferences/neurips/2024?per_page=2"


@pytest.mark.parametrize("path,status", [
    ("/api/v1/conferences/neurips/1999", 404), ("/api/v1/conferences/neurips/20x4", 422),
    ("/api/v1/conferences/neurips/2024?page=0", 422), ("/api/v1/conferences/neurips/2024?page=9", 422),
    ("/api/v1/conferences/neurips/2024?per_page=1001", 422),
    ("/api/v1/conferences/neurips/2024?status=maybe", 422),
    ("/api/v1/conferences/neurips/2024?format=atom", 422), ("/api/v1/conferences/nosuch/2024", 404),
])
def test_conference_year_errors(client: Any, path: str, status: int) -> None:
    problem(client.get(path), status)


# --- corpus, index, schema, routing ---------------------------------------------------------------
def test_stats_and_coverage(client: Any) -> None:
    s = client.get("/api/v1/stats").json()
    assert s["papers"] == 34 and s["venues"] >= 4 and s["last_ingest"]
    c = client.get("/api/v1/coverage").json()
    assert c["total"] == len(c["rows"]) and {"venue", "year", "papers", "sources"} <= set(c["rows"][0])
    n = client.get("/api/v1/coverage?venue=nips").json()
    assert {r["venue"] for r in n["rows"]} == {"neurips"} and sum(r["papers"] for r in n["rows"]) == 26
    problem(client.get("/api/v1/coverage?venue=nosuchconf"), 404)


def test_index_schema_and_routing(client: Any) -> None:
    idx = client.get("/api/v1").json()
    assert idx["openapi"] == "/openapi.json" and idx["endpoints"]["search"].startswith("/api/v1/search")
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.") and "/api/v1/search" in doc["paths"]
    assert "servers" not in client.get("/en/openapi.json").json()
    err = doc["paths"]["/api/v1/papers/{ref}"]["get"]["responses"]["404"]["content"]
    assert list(err) == [PROBLEM]
    assert "/search" not in doc["paths"] and "/papers/{ref}" not in doc["paths"]     # pages stay out
    problem(client.get("/api/v1/nothing/here"), 404)
    r = client.post("/api/v1/search", content=b"{}")
    assert problem(r, 405)["type"] == "/api#problem-method-not-allowed" and "GET" in r.headers["allow"]
    head = client.head("/api/v1/stats")
    assert head.status_code == 200 and head.content == b"" and int(head.headers["content-length"]) > 10
    assert client.get("/API/v1/stats").headers["location"] == "/api/v1/stats"
    assert client.get("/api/v1/stats").headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-origin" not in client.get("/en/").headers          # pages: same origin only


def test_etag(client: Any) -> None:
    r = client.get("/api/v1/conferences")
    again = client.get("/api/v1/conferences", headers={"if-none-match": r.headers["etag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("lang", ["", "/en"])
def test_reference_page(client: Any, lang: str) -> None:
    r = client.get(lang + "/api")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    for words in ("/api/v1/search", "/api/v1/conferences/{venue}/{year}", 'id="problem-invalid-parameter"',
                  'id="model-SearchResponse"', "search_papers", "mcpServers"):
        assert words in r.text, words
    assert ("API 参考" if not lang else "API reference") in r.text
    assert "<script>" not in r.text and "cdn" not in r.text.lower()
