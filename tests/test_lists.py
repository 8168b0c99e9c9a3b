"""Reading lists through the JSON API, against each backend (SQLite file, real PostgreSQL): a
private link and its lists, papers, notes, seen marks, exports and imports that round-trip, the
read-only share link, ids a merge retired, and the limits (409, 422) — all over real HTTP
requests to the app, a real paper store and search index from the site's fixtures."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import rispy
from starlette.testclient import TestClient

from paperlist.lists import limits, open_lists, tokens
from paperlist.store import Store
from paperlist.web.app import Settings, create_app
from paperlist.web.limits import RateLimit
from tests.webdata import paper_id

API = "/api/v1"


def make_client(home: Path, store: Store, lists_url: str, rate: RateLimit | None = None) -> TestClient:
    app = create_app(
        Settings(
            home=home,
            store=store,
            lists_url=lists_url,
            warm_pages=False,
            rate_limit=rate or RateLimit(rate=0),
        )
    )
    return TestClient(app, follow_redirects=False, client=("127.0.0.1", 50000))


@pytest.fixture
def api(web_home: Path, web_store: Store, lists_url: str) -> Iterator[TestClient]:
    with make_client(web_home, web_store, lists_url) as c:
        yield c


def new_shelf(c: TestClient) -> tuple[str, str]:
    r = c.post(f"{API}/lists", json={"name": "Reading"})
    assert r.status_code == 201, r.text
    s = r.json()
    return s["token"], s["lists"][0]["id"]


def papers(c: TestClient, token: str, list_id: str) -> list[str]:
    return [e["id"] for e in c.get(f"{API}/lists/{token}/lists/{list_id}").json()["entries"]]


def test_a_private_link_with_lists_papers_and_notes(api: TestClient, web_store: Store) -> None:
    token, lid = new_shelf(api)
    assert len(token) == 32 and tokens.TOKEN_BYTES * 8 >= 128
    spec, acl = paper_id(web_store, "spec"), paper_id(web_store, "acl")
    r = api.put(f"{API}/lists/{token}/lists/{lid}/papers/{spec}", json={"note": "read §3 first"})
    assert r.status_code == 200 and r.json()["note"] == "read §3 first" and r.json()["paper"]["id"] == spec
    assert r.headers["cache-control"] == "no-store" and r.headers["referrer-policy"] == "no-referrer"
    api.put(f"{API}/lists/{token}/lists/{lid}/papers/{acl}")
    api.put(f"{API}/lists/{token}/lists/{lid}/papers/{spec}")  # again: idempotent, note kept
    d = api.get(f"{API}/lists/{token}/lists/{lid}").json()
    assert [e["id"] for e in d["entries"]] == [spec, acl] and d["entries"][0]["note"] == "read §3 first"
    # a DOI names the paper too; a second list; rename; remove; delete
    acl_paper = web_store.get_paper(acl)
    doi = acl_paper.ids.get("doi") if acl_paper else None
    second = api.post(f"{API}/lists/{token}/lists", json={"name": "Later"}).json()["id"]
    api.put(f"{API}/lists/{token}/lists/{second}/papers/{doi or acl}")
    assert papers(api, token, second) == [acl]
    assert (
        api.put(f"{API}/lists/{token}/lists/{second}", json={"name": "Much later"}).json()["name"]
        == "Much later"
    )
    assert api.delete(f"{API}/lists/{token}/lists/{lid}/papers/{acl}").json()["count"] == 1
    shelf = api.get(f"{API}/lists/{token}").json()
    assert [(x["name"], x["count"]) for x in shelf["lists"]] == [("Reading", 1), ("Much later", 1)]
    assert [x["name"] for x in api.delete(f"{API}/lists/{token}/lists/{second}").json()["lists"]] == [
        "Reading"
    ]
    assert api.get(f"{API}/lists/{token}/starred").json()["papers"] == {spec: [lid]}


def test_the_share_link_reads_but_cannot_write(api: TestClient, web_store: Store) -> None:
    token, lid = new_shelf(api)
    spec = paper_id(web_store, "spec")
    api.put(f"{API}/lists/{token}/lists/{lid}/papers/{spec}", json={"note": "n"})
    share = api.get(f"{API}/lists/{token}").json()["lists"][0]["share_api_href"]
    d = api.get(share).json()
    assert d["read_only"] and [e["id"] for e in d["entries"]] == [spec] and token not in json.dumps(d)
    share_token = share.rsplit("/", 1)[1]
    assert share_token != token
    for method in ("put", "delete", "post"):
        assert getattr(api, method)(f"{API}/lists/{share_token}/lists/{lid}/papers/{spec}").status_code in (
            404,
            405,
        )
    assert api.get(f"{API}/lists/{share_token}").status_code == 404  # a share token is no private link


def test_exports_carry_notes_and_import_back(api: TestClient, web_store: Store) -> None:
    token, lid = new_shelf(api)
    keys = ("spec", "know", "jour", "acl")
    for k in keys:
        api.put(
            f"{API}/lists/{token}/lists/{lid}/papers/{paper_id(web_store, k)}", json={"note": f"note {k}"}
        )
    base = f"{API}/lists/{token}/lists/{lid}"
    bib = api.get(f"{base}?format=bib")
    assert (
        bib.headers["content-type"].startswith("application/x-bibtex") and "annote = {note spec}" in bib.text
    )
    ris = api.get(f"{base}?format=ris")
    recs = rispy.loads(ris.text)
    assert [r["id"] for r in recs] == [paper_id(web_store, k) for k in keys] and recs[0]["notes"] == [
        "note spec"
    ]
    rows = list(csv.DictReader(io.StringIO(api.get(f"{base}?format=csv").text)))
    assert [r["note"] for r in rows] == [f"note {k}" for k in keys]
    lines = [json.loads(x) for x in api.get(f"{base}?format=jsonl").text.splitlines()]
    assert [x["note"] for x in lines] == [f"note {k}" for k in keys] and lines[0]["title"]
    ieee = api.get(f"{base}?format=ieee").text
    assert ieee.startswith("[1] ") and "[4] " in ieee
    for fmt, text in (("bib", bib.text), ("ris", ris.text)):
        target = api.post(f"{API}/lists/{token}/lists", json={"name": fmt}).json()["id"]
        rep = api.post(
            f"{API}/lists/{token}/lists/{target}/import",
            content=text.encode(),
            headers={"content-type": "text/plain"},
        ).json()
        assert rep == {"entries": 4, "added": 4, "already": 0, "unresolved": []}, (fmt, rep)
        d = api.get(f"{API}/lists/{token}/lists/{target}").json()
        assert [(e["id"], e["note"]) for e in d["entries"]] == [
            (paper_id(web_store, k), f"note {k}") for k in keys
        ]


def test_import_by_exact_title_and_reports_the_rest(api: TestClient, web_store: Store) -> None:
    token, lid = new_shelf(api)
    p = web_store.get_paper(paper_id(web_store, "mom"))
    assert p is not None
    text = (
        f"@article{{a, title = {{{p.title_plain.upper()}}}, year = {{{p.year}}}}}\n"
        "@article{b, title = {A Paper Nobody Wrote About Anything}, year = {1999}}\n"
    )
    rep = api.post(f"{API}/lists/{token}/lists/{lid}/import", content=text.encode()).json()
    assert rep["added"] == 1 and rep["unresolved"] == ["A Paper Nobody Wrote About Anything"]
    bad = api.post(f"{API}/lists/{token}/lists/{lid}/import", content=b"@@@ not a file {")
    assert bad.status_code == 422 and papers(api, token, lid) == [p.id]


def test_seen_marks_and_hide_seen_are_kept(api: TestClient, web_store: Store) -> None:
    token, _lid = new_shelf(api)
    spec, know, jour = (paper_id(web_store, k) for k in ("spec", "know", "jour"))
    assert api.get(f"{API}/lists/{token}").json()["hide_seen"] is True
    api.put(f"{API}/lists/{token}/seen/{spec}")
    marks = api.put(f"{API}/lists/{token}/seen/{know}").json()
    assert (marks["venue"], marks["year"], marks["count"]) == ("neurips", 2024, 2)
    api.put(f"{API}/lists/{token}/seen/{jour}")
    assert api.get(f"{API}/lists/{token}/seen?venue=neurips&year=2024").json()["ids"] == [spec, know]
    assert api.delete(f"{API}/lists/{token}/seen/{spec}").json()["ids"] == [know]
    assert api.put(f"{API}/lists/{token}", json={"hide_seen": False}).json()["hide_seen"] is False
    assert api.get(f"{API}/lists/{token}").json() | {} and api.get(f"{API}/lists/{token}").json()["seen"] == 2


def test_seen_marks_are_counted_among_the_papers_a_list_shows(api: TestClient, web_store: Store) -> None:
    """Issue 46 item 8: ICLR 2025's triage counter said "1 of 11,677 seen" beside a list of its 3,711
    accepted papers. The counter's total is the list's, and its seen marks are those the list shows."""
    token, _lid = new_shelf(api)
    rej = paper_id(web_store, "rej")
    accepted = [r[0] for r in web_store.db.execute(
        "SELECT id FROM papers WHERE venue='iclr' AND year=2024 AND accepted=1 ORDER BY id LIMIT 2")]
    for pid in (rej, *accepted):
        api.put(f"{API}/lists/{token}/seen/{pid}")
    every = api.get(f"{API}/lists/{token}/seen?venue=iclr&year=2024").json()
    assert every["count"] == 3 and every["listed"] is None
    shown = api.get(f"{API}/lists/{token}/seen?venue=iclr&year=2024&decision=accepted").json()
    assert shown["count"] == 3 and shown["listed"] == 2 and set(shown["ids"]) == {rej, *accepted}
    others = api.get(f"{API}/lists/{token}/seen?venue=iclr&year=2024&decision=not-accepted").json()
    assert others["listed"] == 1
    assert api.delete(f"{API}/lists/{token}/seen/{rej}?decision=accepted").json()["listed"] == 2
    # a filter the list does not understand is refused as the list itself refuses it
    assert api.get(f"{API}/lists/{token}/seen?venue=iclr&year=2024&topic=no-such-topic").status_code \
        == api.get(f"{API}/conferences/iclr/2024?topic=no-such-topic").status_code == 422
    # the page's counter counts against its own list: accepted papers by default
    page = api.get("/en/conferences/iclr/2024").text
    n_accepted = web_store.db.execute("SELECT count(*) FROM papers WHERE venue='iclr' AND year=2024"
                                      " AND accepted=1").fetchone()[0]
    assert f'data-total="{n_accepted}" data-view="decision=accepted"' in page


def test_unknown_and_malformed_links_are_404(api: TestClient) -> None:
    token, lid = new_shelf(api)
    guess = token[:-1] + ("A" if token[-1] != "A" else "B")
    for path in (f"/lists/{guess}", f"/lists/{'x' * 32}", f"/lists/{guess}/lists/{lid}", f"/shared/{guess}"):
        assert api.get(API + path).status_code == 404, path
    assert api.get(f"{API}/lists/short").status_code == 422
    assert api.put(f"{API}/lists/{token}/lists/{lid}/papers/no-such-paper").status_code == 404


def test_limits_are_clear_4xx_and_change_nothing(
    api: TestClient, web_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    token, lid = new_shelf(api)
    spec, know, acl = (paper_id(web_store, k) for k in ("spec", "know", "acl"))
    monkeypatch.setattr(limits, "MAX_ITEMS", 2)
    monkeypatch.setattr(limits, "MAX_LISTS", 2)
    api.put(f"{API}/lists/{token}/lists/{lid}/papers/{spec}")
    api.put(f"{API}/lists/{token}/lists/{lid}/papers/{know}")
    full = api.put(f"{API}/lists/{token}/lists/{lid}/papers/{acl}")
    assert full.status_code == 409 and "at most 2" in full.json()["detail"]
    # an import that would overfill the list adds nothing at all (one transaction)
    bib = f"@misc{{x, title = {{t}}, doi = {{{web_store.get_paper(acl).ids.get('doi', acl)}}}}}"  # type: ignore[union-attr]
    assert api.post(f"{API}/lists/{token}/lists/{lid}/import", content=bib.encode()).status_code == 409
    assert papers(api, token, lid) == [spec, know]
    api.post(f"{API}/lists/{token}/lists", json={"name": "two"})
    assert api.post(f"{API}/lists/{token}/lists", json={"name": "three"}).status_code == 409
    long_note = api.put(
        f"{API}/lists/{token}/lists/{lid}/papers/{spec}", json={"note": "x" * (limits.MAX_NOTE + 1)}
    )
    assert long_note.status_code == 422
    assert api.post(f"{API}/lists", json={"name": " " * 3}).status_code == 422
    assert api.post(f"{API}/lists", json={"name": "n" * (limits.MAX_NAME + 1)}).status_code == 422


def test_a_retired_id_resolves_through_its_alias(web_home: Path, tmp_path: Path, lists_url: str) -> None:
    """A re-ingest that merges a paper into another retires its id; a list holding the old id
    shows the paper under its current id."""
    import shutil
    import sqlite3

    home = tmp_path / "home"
    shutil.copytree(web_home, home)
    store = Store(home / "paperlist.db", readonly=True)
    spec = paper_id(store, "spec")
    lists = open_lists(lists_url)
    token, lid = lists.create_shelf("L")
    lists.add(token, lid, "neurips2024-retired1", "kept note")  # the id it had before a merge
    lists.close()
    conn = sqlite3.connect(home / "paperlist.db")
    conn.execute("INSERT INTO paper_aliases (old_id, paper_id) VALUES (?, ?)", ("neurips2024-retired1", spec))
    conn.commit()
    conn.close()
    with make_client(home, Store(home / "paperlist.db", readonly=True), lists_url) as c:
        e = c.get(f"{API}/lists/{token}/lists/{lid}").json()["entries"][0]
        assert (e["id"], e["stored_id"], e["note"], e["paper"]["id"]) == (
            spec,
            "neurips2024-retired1",
            "kept note",
            spec,
        )
        assert "kept note" in c.get(f"{API}/lists/{token}/lists/{lid}?format=ris").text
        # removing it by its current id removes the stored one
        assert c.delete(f"{API}/lists/{token}/lists/{lid}/papers/{spec}").json()["count"] == 0


def test_schema_is_migrated_once_and_versioned(lists_url: str) -> None:
    a = open_lists(lists_url)
    b = open_lists(lists_url)  # a second server opening the same store
    from paperlist.lists.schema import MIGRATIONS

    assert a.version() == b.version() == len(MIGRATIONS) == 2        # 2: the shared write budgets
    a.close()
    b.close()


def test_the_paper_store_is_never_written(api: TestClient, web_home: Path, web_store: Store) -> None:
    before = (web_home / "paperlist.db").stat().st_mtime_ns
    token, lid = new_shelf(api)
    api.put(f"{API}/lists/{token}/lists/{lid}/papers/{paper_id(web_store, 'spec')}")
    assert (web_home / "paperlist.db").stat().st_mtime_ns == before


def test_import_resolves_a_misspelled_title_with_its_authors(api: TestClient, web_store: Store) -> None:
    """The import uses the bibliography resolver (issue 19): a typo in a cited title, its authors
    and year agreeing, still finds the paper; a wrong year and strangers as authors do not."""
    token, lid = new_shelf(api)
    p = web_store.get_paper(paper_id(web_store, "spec"))
    assert p is not None
    typo = p.title_plain.replace("Speculative", "Speculatve", 1)
    authors = " and ".join(a.name for a in p.authors)
    text = (f"@inproceedings{{a, title = {{{typo}}}, author = {{{authors}}}, year = {{{p.year}}}}}\n"
            f"@inproceedings{{b, title = {{{typo} Revisited Again}}, author = {{Nobody Known}},"
            " year = {1990}}\n")
    rep = api.post(f"{API}/lists/{token}/lists/{lid}/import", content=text.encode()).json()
    assert rep["added"] == 1 and papers(api, token, lid) == [p.id] and len(rep["unresolved"]) == 1
