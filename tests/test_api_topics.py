"""The API's topics, topic statistics and similar papers (/api/v1/topics, /topics/{slug},
/papers/{id}/similar), and the topic filter and facet on /api/v1/search."""

from __future__ import annotations

from typing import Any

from paperlist.store import Store
from tests.webdata import paper_id


def test_topics_list_and_scoped_statistics(client: Any) -> None:
    d = client.get("/api/v1/topics").json()
    assert d["topics"] >= 40 and len(d["areas"]) >= 8
    t = d["areas"][0]["topics"][0]
    assert set(t) >= {"slug", "en", "zh", "papers", "years", "venues", "href", "parent"}
    assert sum(a["papers"] for a in d["areas"]) > 0
    s = client.get("/api/v1/topics?venue=nips&year=2024").json()
    assert s["venue"] == "neurips" and s["year"] == 2024
    assert client.get("/api/v1/topics?venue=nosuchvenue").status_code == 404
    assert client.get("/api/v1/topics?year=3000").status_code == 422


def test_one_topic_with_counts_per_venue_and_year(client: Any, web_store: Store) -> None:
    spec = paper_id(web_store, "spec")
    slug = web_store.paper_topics(spec)[0][0]
    d = client.get(f"/api/v1/topics/{slug}").json()
    assert d["slug"] == slug and d["papers"] >= 1 and d["venue_years"]
    assert all(set(v) == {"venue", "year", "papers"} for v in d["venue_years"])
    assert spec in [p["id"] for p in d["list"]]
    f = client.get(f"/api/v1/topics/{slug}?venue=neurips&year=2024").json()
    assert all(p["venue"] == "neurips" and p["year"] == 2024 for p in f["list"])
    area = client.get("/api/v1/topics/ml").json()
    assert area["is_area"] and area["topics"]
    assert client.get("/api/v1/topics/no-such-topic").status_code == 404


def test_similar_papers(client: Any, web_store: Store) -> None:
    spec = paper_id(web_store, "spec")
    d = client.get(f"/api/v1/papers/{spec}/similar?limit=3").json()
    assert d["id"] == spec and d["method"] in ("vectors", "text") and 1 <= len(d["papers"]) <= 3
    assert spec not in [p["id"] for p in d["papers"]] and all("score" in p for p in d["papers"])
    assert client.get("/api/v1/papers/no-such-paper/similar").status_code == 404
    paper = client.get(f"/api/v1/papers/{spec}").json()
    assert paper["topics"] and paper["topics"][0]["slug"] and "similar" in paper
    assert client.get("/api/v1").json()["endpoints"]["similar"] == "/api/v1/papers/{id}/similar"


def test_search_topic_filter_facet_and_translation(client: Any, web_store: Store) -> None:
    spec = paper_id(web_store, "spec")
    slug = web_store.paper_topics(spec)[0][0]
    d = client.get(f"/api/v1/search?q=decoding&topic={slug}").json()
    assert d["total"] >= 1 and d["query"]["topics"] == [slug] and d["facets"]["topic"]
    zh = client.get("/api/v1/search?q=投机解码").json()
    assert zh["interpreted"]["translated"]["to"] == "speculative decoding" and zh["hits"]
    sem = client.get("/api/v1/search?q=speculative+decoding&mode=semantic").json()
    assert sem["interpreted"]["mode"] == "keyword" and "unavailable" in sem["interpreted"]["notes"][-1]
