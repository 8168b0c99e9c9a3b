"""Exports (BibTeX, CSV, JSON Lines) and Atom feeds, through the API and the CLI: BibTeX parses back
with bibtexparser with unique keys and the papers' fields; CSV cells cannot run as spreadsheet
formulas; feeds are well-formed Atom with every required element and untrusted text escaped."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import bibtexparser
import orjson
import pytest

from paperlist import exports
from paperlist.models import Author, Paper
from paperlist.web.app import DEFAULT_BASE_URL
from tests.conftest import run_cli
from tests.webdata import XSS_TITLE, _rec, build_store

ATOM = "{http://www.w3.org/2005/Atom}"
FORMULA = '=HYPERLINK("http://evil.example","click")'
NASTY_ABSTRACT = '-2+3 starts with minus; "quoted", comma,\nsecond line \x07bell \x00nul \x0bvtab end'


def extra_records() -> list[Any]:
    return [
        _rec("test:icml2025", "dup1", "icml", 2025, "Duplicate Keys Everywhere", ["Ada Lovelace"],
             status="poster", abstract="One."),
        _rec("test:cvpr2025", "dup2", "cvpr", 2025, "Duplicate Keys Again", ["Ada Lovelace"], status="poster",
             abstract="Two."),
        _rec("test:icml2025", "inj", "icml", 2025, FORMULA, ["@SUM(A1) Person", "+Plus Person"],
             status="oral", abstract=NASTY_ABSTRACT, keywords=["=1+1"]),
    ]


@pytest.fixture(scope="module")
def export_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("exports")
    build_store(home, extra=extra_records()).close()
    return home


@pytest.fixture(scope="module")
def ec(export_home: Path) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from paperlist.web.app import Settings, create_app
    from paperlist.web.limits import RateLimit

    with TestClient(create_app(Settings(home=export_home, rate_limit=RateLimit(rate=0))),
                    follow_redirects=False) as c:
        yield c


EVERYTHING = "/api/v1/search?q=&year_from=1900&sort=title"


def all_ids(ec: Any) -> list[str]:
    ids: list[str] = []
    page = 1
    while True:
        d = ec.get(f"{EVERYTHING}&per_page=100&page={page}").json()
        ids += [h["id"] for h in d["hits"]]
        if page >= d["pages"]:
            return ids
        page += 1


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


# --- BibTeX ---------------------------------------------------------------------------------------
def test_bibtex_round_trip(ec: Any) -> None:
    r = ec.get(EVERYTHING + "&format=bib")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-bibtex")
    assert r.headers["content-disposition"].startswith("attachment; filename=\"paperlist-")
    lib = bibtexparser.parse_string(r.text)
    assert not lib.failed_blocks
    ids = all_ids(ec)
    assert len(lib.entries) == len(ids) == int(r.headers["x-total-count"])
    keys = [e.key.lower() for e in lib.entries]
    assert len(set(keys)) == len(keys)                                     # unique, as BibTeX compares them
    assert {"lovelace2025duplicate", "lovelace2025duplicatea"} <= set(keys)
    for entry, pid in zip(lib.entries, ids, strict=True):
        paper = ec.get(f"/api/v1/papers/{pid}").json()
        fields = {k.lower(): v for k, v in entry.fields_dict.items()}
        if paper["bibtex_from_source"]:                  # the source's own entry, as the paper page shows it
            assert (bibtexparser.parse_string(paper["bibtex"]).entries[0].fields_dict.keys()
                    == entry.fields_dict.keys())
            continue
        assert fields["year"].value == str(paper["year"]), pid
        if "$" not in paper["title"]:                                          # math stays LaTeX in BibTeX
            assert _norm(fields["title"].value.replace("\\", "")) == _norm(paper["title_plain"]), pid
        names = [a["name"] for a in paper["authors"]]
        if names and all(re.fullmatch(r"[A-Za-z .'-]+", n) for n in names):
            assert fields["author"].value.split(" and ") == names, pid


def test_bibtex_keys_unit() -> None:
    keys = exports.BibKeys()
    assert [keys.unique("smith2020") for _ in range(4)] == ["smith2020", "smith2020a", "smith2020b",
                                                            "smith2020c"]
    assert keys.unique("SMITH2020") == "SMITH2020d"
    assert exports._suffix(27) == "aa"
    text = "@string{x = {y}}\n@article{ key ,\n title={T}}"
    assert exports._BIB_KEY.search(text).group(3) == "key"          # type: ignore[union-attr]


# --- CSV ------------------------------------------------------------------------------------------
def test_csv(ec: Any) -> None:
    r = ec.get(EVERYTHING + "&format=csv")
    assert r.headers["content-type"].startswith("text/csv")
    assert "\r\n" in r.text
    rows = list(csv.reader(io.StringIO(r.text)))
    assert tuple(rows[0]) == exports.CSV_COLUMNS and len(rows) - 1 == len(all_ids(ec))
    by_id = {row[0]: dict(zip(rows[0], row, strict=True)) for row in rows[1:]}
    for row in rows[1:]:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
            assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", cell)
    inj = next(v for v in by_id.values() if "HYPERLINK" in v["title"])
    assert inj["title"] == "'" + FORMULA and inj["authors"] == "'@SUM(A1) Person; +Plus Person"
    assert inj["abstract"] == ("'" + "-2+3 starts with minus; \"quoted\", comma,\n"
                               "second line bell nul vtab end")
    assert inj["keywords"] == "'=1+1" and inj["url"].startswith(DEFAULT_BASE_URL + "/papers/")
    xss = next(v for v in by_id.values() if "Attack" in v["title"])
    assert "<script>" in xss["title"] and xss["pdf"] == ""          # text stays text; no javascript: link


@pytest.mark.parametrize("value,cell", [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@x", "'@x"), ("\tx", "'\tx"), ("a=b", "a=b"),
    ("x\x00y", "xy"), (None, ""), (True, "true"), (12, 12), ("", ""),
])
def test_safe_cell(value: Any, cell: Any) -> None:
    assert exports.safe_cell(value) == cell


# --- JSON Lines and lists -------------------------------------------------------------------------
def test_jsonl(ec: Any) -> None:
    r = ec.get(EVERYTHING + "&format=jsonl")
    assert r.headers["content-type"].startswith("application/x-ndjson")
    lines = [orjson.loads(x) for x in r.text.splitlines()]
    assert [x["id"] for x in lines] == all_ids(ec)
    one = next(x for x in lines if x["title"] == FORMULA)
    assert one["abstract"] == NASTY_ABSTRACT and one["bibtex"].startswith("@")
    api = ec.get(f"/api/v1/papers/{one['id']}").json()
    assert set(one) <= set(api) and {k: api[k] for k in one} == one       # the API's paper, without HTML


def test_list_exports_and_limit(ec: Any) -> None:
    r = ec.get("/api/v1/conferences/neurips/2024?status=poster&format=csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert len(rows) == 3 and {x["status"] for x in rows} == {"poster"} and r.headers["x-total-count"] == "3"
    lines = ec.get("/api/v1/authors/ada-lovelace?format=jsonl").text.splitlines()
    assert len(lines) == ec.get("/api/v1/authors/ada-lovelace").json()["total"]
    assert len(bibtexparser.parse_string(ec.get(EVERYTHING + "&format=bib&limit=2").text).entries) == 2
    assert ec.get(EVERYTHING + "&format=bib&limit=10001").status_code == 422


# --- Atom -----------------------------------------------------------------------------------------
def _atom(text: str) -> ET.Element:
    root = ET.fromstring(text.encode())
    assert root.tag == ATOM + "feed"
    for tag in ("id", "title", "updated"):
        assert (root.findtext(ATOM + tag) or "").strip(), tag
    assert any(x.get("rel") == "self" for x in root.findall(ATOM + "link"))
    assert root.find(f"{ATOM}author/{ATOM}name") is not None
    for e in root.findall(ATOM + "entry"):
        for tag in ("id", "title", "updated"):
            assert (e.findtext(ATOM + tag) or "").strip(), tag
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", e.findtext(ATOM + "updated") or "")
        assert any(x.get("rel") == "alternate" and x.get("href", "").startswith("http")
                   for x in e.findall(ATOM + "link"))
    return root


def test_search_feed(ec: Any) -> None:
    r = ec.get("/api/v1/search?q=&year_from=1900&sort=newest&per_page=50&format=atom")
    assert r.headers["content-type"].startswith("application/atom+xml")
    root = _atom(r.text)
    entries = root.findall(ATOM + "entry")
    assert len(entries) == 37
    titles = {e.findtext(ATOM + "title") for e in entries}
    xss_plain = next(t for t in titles if t and "Attack" in t)
    assert "<script>" in xss_plain and "<script>" not in r.text            # escaped in the document
    nasty = next(e for e in entries if e.findtext(ATOM + "title") == FORMULA)
    assert nasty.findtext(ATOM + "summary") == ("-2+3 starts with minus; \"quoted\", comma,\n"
                                                "second line bell nul vtab end")
    assert XSS_TITLE.split()[0] not in r.text


def test_venue_feed(ec: Any) -> None:
    root = _atom(ec.get("/api/v1/conferences/neurips?format=atom").text)
    entries = root.findall(ATOM + "entry")
    assert entries and all(c.get("term") for e in entries for c in e.findall(ATOM + "category"))
    assert {c.get("term") for e in entries for c in e.findall(ATOM + "category")} >= {"neurips"}
    spec = next(e for e in entries if (e.findtext(ATOM + "title") or "").startswith("Attention Drift"))
    assert ([a.findtext(ATOM + "name") for a in spec.findall(ATOM + "author")]
            == ["Ada Lovelace", "Alan Turing", "Grace Hopper"])
    assert any(x.get("rel") == "related" and x.get("href") == "https://example.org/spec.pdf"
               for x in spec.findall(ATOM + "link"))


@pytest.mark.parametrize("lang", ["", "/en"])
def test_pages_link_feeds_and_downloads(ec: Any, lang: str) -> None:
    for path, feed in [("/search?q=transformers", "/api/v1/search?q=transformers&amp;sort=newest"),
                       ("/conferences/neurips", "/api/v1/conferences/neurips?format=atom"),
                       ("/conferences/neurips/2024", "/api/v1/conferences/neurips?format=atom")]:
        html = ec.get(lang + path).text
        assert re.search(r'<link rel="alternate" type="application/atom\+xml" title="[^"]+" href="'
                         + re.escape(feed), html), path
    for path, bib in [("/search?q=transformers", "/api/v1/search?q=transformers&amp;format=bib"),
                      ("/conferences/neurips/2024?status=poster",
                       "/api/v1/conferences/neurips/2024?status=poster&amp;format=bib")]:
        html = ec.get(lang + path).text
        assert f'href="{bib}"' in html and "format=csv" in html and "format=jsonl" in html, path
        assert ("下载列表" if not lang else "Download the list") in html


# --- the CLI ----------------------------------------------------------------------------------------
def test_cli_export(export_home: Path, tmp_path: Path) -> None:
    out = tmp_path / "iclr.bib"
    r = run_cli(export_home, "export", "--venue", "neurips", "--year", "2024", "--format", "bib", "-o",
                str(out))
    assert r.exit_code == 0 and "exported 5 of 5" in r.stderr
    assert len(bibtexparser.parse_string(out.read_text("utf-8")).entries) == 5
    r = run_cli(export_home, "export", "duplicate", "keys", "--format", "csv", "--base-url", "https://p.example/")
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert len(rows) == 2 and rows[0]["url"].startswith("https://p.example/papers/")
    r = run_cli(export_home, "export", "--year", "2024..2026", "--format", "jsonl", "-n", "3")
    assert len(r.stdout.splitlines()) == 3 and "(--limit 3" in r.stderr
    assert run_cli(export_home, "export", "--format", "bib").exit_code == 2          # nothing to export
    assert run_cli(export_home, "export", "x", "--year", "soon").exit_code == 2


def test_cli_output_formats(export_home: Path) -> None:
    stats = run_cli(export_home, "stats", "--format", "json")
    assert stats.exit_code == 0 and orjson.loads(stats.stdout) == orjson.loads(
        run_cli(export_home, "stats", "--json").stdout)
    pid = orjson.loads(run_cli(export_home, "search", "momentum", "--format", "json").stdout)["hits"][0]["id"]
    bib = run_cli(export_home, "show", pid, "--format", "bib").stdout
    assert bibtexparser.parse_string(bib).entries[0].fields_dict["title"].value
    for cmd in (["venues"], ["coverage"], ["search", "x"], ["show", pid]):
        assert "--format" in run_cli(export_home, *cmd, "--help").stdout


def test_feed_entries_unit() -> None:
    p = Paper(id="x", venue="neurips", year=2024, title="T\x0b", title_plain="T\x0b",
              authors=[Author("A & B", "a")], abstract="<b>\x1f", links=[("pdf", "javascript:x")])
    body = exports.atom_feed("urn:x", "F", "http://s/f", "http://s/", "2026-01-01T00:00:00Z",
                             exports.feed_entries([p], {}, lambda i: "http://s/papers/" + i,
                                                  "2026-01-01T00:00:00Z"))
    root = ET.fromstring(body)
    e = root.find(ATOM + "entry")
    assert e is not None and e.findtext(ATOM + "title") == "T" and e.findtext(ATOM + "summary") == "<b>"
    assert b"&lt;b&gt;" in body and not [x for x in e.findall(ATOM + "link") if x.get("rel") == "related"]
