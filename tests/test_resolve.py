"""Resolving bibliographies and pasted citations on a real store and index (the site's fixture corpus
plus the papers a citation test needs): the service, `paperlist resolve`, POST /api/v1/resolve,
the /resolve page, the search hook (plain queries unchanged), bad input, and a real bibliography
written by researchers (../shared/data/bib, when present)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import bibtexparser
import pytest

from paperlist.models import Record
from paperlist.names import make_authors
from paperlist.service import Home, search_request
from paperlist.service.errors import BadRequest, TooLarge
from paperlist.service.resolve import MAX_BYTES, MAX_ENTRIES, decode_upload, resolve
from paperlist.service.search import run_search
from paperlist.store import Store
from tests.conftest import run_cli
from tests.webdata import build_store, html_tags, paper_id

LSTM_LINE = ("Sepp Hochreiter and Jürgen Schmidhuber. 1997. Long short-term memory. Neural Computation, "
             "9(8):1735–1780.")
SHARED_BIB = Path(__file__).resolve().parents[2] / "shared" / "data" / "bib" / "tuw_nlp.bib"


def _rec(key: str, venue: str, year: int, title: str, authors: list[str], **kw: Any) -> Record:
    return Record(source="test", file=f"test:cited-{venue}{year}", key=key, venue=venue, year=year,
                  title=title, authors=make_authors(authors), **kw)


CITED = [
    _rec("lstm", "neco", 1997, "Long Short-Term Memory", ["Sepp Hochreiter", "Jürgen Schmidhuber"],
         ids={"doi": "10.1162/neco.1997.9.8.1735"}, biblio={"volume": "9", "pages": "1735-1780"}),
    _rec("gating", "neurips", 2018,
         "Gating out sensory noise in a spike-based Long Short-Term Memory network",
         ["Davide Zambrano", "Isabella Pozzi", "Roeland Nusselder", "Sander Bohte"]),
    _rec("grid", "iclr", 2016, "Grid Long Short-Term Memory", ["Nal Kalchbrenner", "Ivo Danihelka"]),
    _rec("attn", "neurips", 2017, "Attention is All you Need",
         ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar"], ids={"arxiv": "1706.03762"},
         links={"proceedings": "https://papers.nips.cc/paper/7181"}),
    _rec("notnot", "emnlp", 2019, "Attention is not not Explanation", ["Sarah Wiegreffe", "Yuval Pinter"],
         ids={"acl": "D19-1002"}),
    _rec("roberta", "iclr", 2020, "RoBERTa: A Robustly Optimized BERT Pretraining Approach",
         ["Yinhan Liu", "Myle Ott"], status="rejected"),
    _rec("twin1", "icml", 2021, "A Simple Baseline for Everything", ["Alice Alpha"]),
    _rec("twin2", "cvpr", 2022, "A Simple Baseline for Everything", ["Bob Beta"]),
    _rec("owlqn", "icml", 2007, "Scalable training of L1-regularized log-linear models",
         ["Galen Andrew", "Jianfeng Gao"]),
    _rec("markovl1", "neurips", 2006,
         "Efficient Structure Learning of Markov Networks using $L_1$-Regularization",
         ["Su-In Lee", "Varun Ganapathi", "Daphne Koller"]),
]


@pytest.fixture(scope="module")
def cited_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("cited")
    build_store(home, extra=CITED).close()
    return home


@pytest.fixture(scope="module")
def home(cited_home: Path) -> Home:
    return Home(cited_home, store=Store(cited_home / "paperlist.db", readonly=True))


@pytest.fixture(scope="module")
def client(cited_home: Path) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from paperlist.web.app import Settings, create_app

    app = create_app(Settings(home=cited_home, store=Store(cited_home / "paperlist.db", readonly=True)))
    with TestClient(app, follow_redirects=False, client=("127.0.0.1", 50000)) as c:
        yield c


BIB = r"""@article{hochreiter1997,
  title = {Long short-term memory},
  author = {Hochreiter, Sepp and Schmidhuber, J{\"u}rgen},
  journal = {Neural Computation},
  year = {1997},
  note = {The original {LSTM}}
}

@article{vaswani2017attention,
  title={Attention is all you need},
  author={Vaswani, Ashish and Shazeer, Noam and Parmar, Niki},
  journal={arXiv preprint arXiv:1706.03762},
  year={2017}
}

@inproceedings{same_again,
  title={Attention Is All You Need},
  author={Vaswani, A. and others},
  booktitle={NIPS},
  year={2017}
}

@inproceedings{jain2019,
  title={Attention is not {E}xplanation},
  author={Jain, Sarthak and Wallace, Byron C.},
  booktitle={NAACL},
  year={2019}
}

@misc{liu2019roberta,
  title={RoBERTa: A Robustly Optimized {BERT} Pretraining Approach},
  author={Liu, Yinhan and Ott, Myle},
  year={2019},
  eprint={1907.11692},
  archivePrefix={arXiv}
}

@article{baseline, title={A simple baseline for everything}, year={2021}}

@article{broken, title = {An unclosed entry, year = 2020

@book{unknown, title = {A Book The Library Does Not Hold}, author = {Nobody, N.}, year = {1990}}
"""


def _entries(report: Any) -> dict[str, Any]:
    return {e["key"]: e for e in report["entries"]}


def test_a_subscript_as_the_acl_template_writes_it(home: Home) -> None:
    """Issue 44 item 6, a real miss: every ACL template's custom.bib cites Andrew and Gao (2007) as
    "{$L_1$}-regularized"; plain, that is "L_1", which found nothing where the library says "L1".
    The title is also searched with the subscript joined, by the resolver and by a pasted line (a
    paper whose title does say "$L_1$" stands by, as in the real library)."""
    bib = ("@inproceedings{andrew2007scalable, title={Scalable training of {$L_1$}-regularized log-linear "
           "models}, author={Andrew, Galen and Gao, Jianfeng}, booktitle={Proceedings of the 24th "
           "International Conference on Machine Learning}, pages={33--40}, year={2007}}")
    e = _entries(resolve(home, bib))["andrew2007scalable"]
    assert e["status"] == "matched" and e["paper"]["title"].startswith("Scalable training of L1")
    line = ("Galen Andrew and Jianfeng Gao. 2007. Scalable training of L_1-regularized log-linear models. "
            "In Proceedings of the 24th International Conference on Machine Learning, pages 33–40.")
    hits = run_search(home, search_request(q=line, per_page=5)).hits
    assert hits and hits[0].title.startswith("Scalable training of L1")


def test_resolve_matches_precision_first(home: Home) -> None:
    report = resolve(home, BIB)
    e = _entries(report)
    store = home.store
    assert e["hochreiter1997"]["status"] == "matched"
    assert e["hochreiter1997"]["paper"]["id"] == paper_id(store, "lstm")        # not "Gating out … LSTM"
    assert e["vaswani2017attention"]["paper"]["id"] == paper_id(store, "attn")
    assert e["same_again"]["paper"]["id"] == paper_id(store, "attn")
    assert sorted(e["vaswani2017attention"]["duplicate_of"] + ["vaswani2017attention"]) == [
        "same_again", "vaswani2017attention"]
    assert report["duplicates"] == [{"paper_id": paper_id(store, "attn"),
                                     "keys": ["vaswani2017attention", "same_again"]}]
    assert e["jain2019"]["status"] != "matched"          # "Attention is not not Explanation" is another
    assert e["liu2019roberta"]["status"] == "matched" and not e["liu2019roberta"]["rewritten"]   # rejected
    assert e["baseline"]["status"] == "ambiguous" and len(e["baseline"]["candidates"]) == 2
    assert e["broken"]["status"] == "error" and e["broken"]["error"]
    assert e["unknown"]["status"] == "not_found"
    c = report["counts"]
    assert (c["entries"], c["matched"], c["ambiguous"], c["errors"], c["duplicates"]) == (8, 4, 1, 1, 1)
    assert c["not_found"] == 8 - 4 - 1 - 1
    why = e["hochreiter1997"]["paper"]
    assert why["title_similarity"] == 1.0 and why["authors_agree"] == 1.0 and why["year_agrees"] is True
    assert why["venue_agrees"] is True and 0.9 <= why["confidence"] <= 1.0


def test_the_cleaned_bibliography(home: Home) -> None:
    out = resolve(home, BIB)["bibtex"]
    lib = bibtexparser.parse_string(out)
    by_key = {x.key: x for x in lib.entries}
    lstm = by_key["hochreiter1997"]
    assert lstm["doi"] == "10.1162/neco.1997.9.8.1735" and lstm["pages"] == "1735--1780"
    assert lstm["author"] == r'Hochreiter, Sepp and Schmidhuber, J{\"u}rgen'     # accents as typed
    assert lstm["note"] == "The original {LSTM}"                                  # braces as typed
    v = by_key["vaswani2017attention"]                 # the arXiv entry upgraded to the published paper
    assert v.entry_type == "inproceedings" and "NeurIPS" in v["booktitle"] and "journal" not in v.fields_dict
    assert v["year"] == "2017" and v["url"] == "https://papers.nips.cc/paper/7181"
    for key in ("jain2019", "liu2019roberta", "baseline", "unknown"):       # left exactly as written
        raw = next(b for b in BIB.split("\n\n") if "{" + key + "," in b).strip()
        assert raw in out, key
    assert "@article{broken, title = {An unclosed entry, year = 2020" in out   # kept, not dropped
    assert len(lib.entries) + len(lib.failed_blocks) >= 8


def test_a_list_of_references(home: Home) -> None:
    text = ("References\n\n"
            "[1] S. Hochreiter and J. Schmidhuber, \"Long short-term memory,\" Neural Computation, vol. 9, "
            "no. 8, pp. 1735-1780, 1997.\n"
            "Vaswani, A., Shazeer, N., & Parmar, N. (2017). Attention is all you need. In Advances in Neural "
            "Information Processing Systems (pp. 5998-6008).\n"
            "Nobody, N. (1990). A book the library does not hold. Nowhere Press.\n")
    report = resolve(home, text)
    assert [e["status"] for e in report["entries"]] == ["matched", "matched", "not_found"]
    lib = bibtexparser.parse_string(report["bibtex"])
    assert len(lib.entries) == 2 and not lib.failed_blocks


@pytest.mark.parametrize(("data", "error"), [
    (b"", BadRequest), (b"   \n\n", BadRequest), (b"\x00\x01\x02binary", BadRequest),
    (b"@" * (MAX_BYTES + 1), TooLarge),
])
def test_bad_uploads_are_refused_with_a_reason(data: bytes, error: type[Exception]) -> None:
    with pytest.raises(error):
        decode_upload(data)


def test_too_many_entries(home: Home) -> None:
    text = "".join(f"@misc{{k{i}, title={{T{i}}}}}\n" for i in range(MAX_ENTRIES + 1))
    with pytest.raises(TooLarge):
        resolve(home, text)


def test_latin1_files_are_read() -> None:
    assert decode_upload("@misc{x, title={Über}}".encode("latin-1")) == "@misc{x, title={Über}}"


# --- the search hook ----------------------------------------------------------------------------
PLAIN = ["attention", "long short-term memory", "attention is all you need", "speculative decoding",
         "graph", 'author:"Alan Turing"', "venue:neurips year:2024", "transformers -attention",
         "simple baseline", "Hochreiter", "投机解码", "bandits momentum", ""]


@pytest.mark.parametrize("q", PLAIN)
def test_plain_queries_are_unchanged_by_the_hook(home: Home, q: str) -> None:
    """The service's search (with the citation step) and the engine alone give the same answer."""
    for r in (search_request(q=q), search_request(q=q, page=2, per_page=2),
              search_request(q=q, sort="newest"), search_request(q=q, venues=["neurips"])):
        a = run_search(home, r)
        assert home.searcher is not None
        b = home.searcher.search(r)
        assert [h.id for h in a.hits] == [h.id for h in b.hits] and a.total == b.total
        assert a.facets == b.facets and a.suggestion == b.suggestion
        assert "citation" not in a.interpreted


@pytest.mark.parametrize("q", [
    LSTM_LINE,
    "Hochreiter, S., & Schmidhuber, J. (1997). Long short-term memory. Neural Computation, 9(8), 1735–1780.",
    '[7] S. Hochreiter and J. Schmidhuber, "Long short-term memory," Neural Comput., vol. 9, '
    "pp. 1735–1780, 1997.",
    "@article{h, title={Long short-term memory}, author={Hochreiter, Sepp}, journal={Neural Computation}, "
    "year={1997}}",
])
def test_a_pasted_reference_finds_its_paper_first(home: Home, q: str) -> None:
    res = run_search(home, search_request(q=q))
    assert res.hits[0].id == paper_id(home.store, "lstm")
    assert res.interpreted["citation"]["title"].lower() == "long short-term memory"
    assert res.interpreted["citation"]["year"] == 1997


def test_the_search_page_says_what_it_understood(client: Any, home: Home) -> None:
    q = LSTM_LINE
    for prefix in ("", "/en"):
        page = client.get(prefix + "/search", params={"q": q}).text
        assert "citation-note" in page and "Hochreiter" in page
        first = page.index('class="card')
        assert paper_id(home.store, "lstm") in page[first:first + 3000]
    api = client.get("/api/v1/search", params={"q": q}).json()
    assert api["interpreted"]["citation"]["year"] == 1997
    assert api["hits"][0]["id"] == paper_id(home.store, "lstm")


# --- CLI ----------------------------------------------------------------------------------------
def test_cli_search_understands_a_pasted_reference(cited_home: Path) -> None:
    r = run_cli(cited_home, "search", "-n", "2", LSTM_LINE)
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[1].startswith("understood as a citation: Long short-term memory · Sepp Hochreiter")
    assert lines[2].strip() == "1. Long Short-Term Memory"
    plain = run_cli(cited_home, "search", "-n", "2", "long short-term memory")
    assert "understood as a citation" not in plain.stdout



def test_cli_resolve(cited_home: Path, tmp_path: Path) -> None:
    src = tmp_path / "refs.bib"
    src.write_text(BIB, encoding="utf-8")
    out = tmp_path / "clean.bib"
    r = run_cli(cited_home, "resolve", str(src), "-o", str(out))
    assert r.exit_code == 0, r.stderr
    assert "8 entries: 4 matched" in r.stdout and "1 ambiguous" in r.stdout and "1 duplicates" in r.stdout
    assert "= hochreiter1997 -> Neural Computation 1997" in r.stdout
    lib = bibtexparser.parse_string(out.read_text("utf-8"))
    assert "hochreiter1997" in {e.key for e in lib.entries}
    j = run_cli(cited_home, "resolve", str(src), "--json")
    assert j.exit_code == 0 and json.loads(j.stdout)["counts"]["matched"] == 4


@pytest.mark.parametrize(("content", "message"), [
    (b"", "empty"), (b"\x00\xff\x00binary", "not text"), (b"just words, no entry", "not in the library"),
])
def test_cli_resolve_bad_input(cited_home: Path, tmp_path: Path, content: bytes, message: str) -> None:
    src = tmp_path / "bad.bib"
    src.write_bytes(content)
    r = run_cli(cited_home, "resolve", str(src), "-o", str(tmp_path / "o.bib"))
    if message == "not in the library":        # a line of text is a reference that matches nothing
        assert r.exit_code == 0 and "1 not found" in r.stdout
        return
    assert r.exit_code == 2 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1


# --- API ----------------------------------------------------------------------------------------
def test_api_resolve(client: Any, home: Home) -> None:
    r = client.post("/api/v1/resolve", content=BIB.encode(), headers={"content-type": "application/x-bibtex"})
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    d = r.json()
    assert d["counts"]["matched"] == 4
    assert _entries(d)["hochreiter1997"]["paper"]["id"] == paper_id(home.store, "lstm")
    j = client.post("/api/v1/resolve", json={"bibtex": BIB})
    assert j.json()["counts"] == d["counts"]
    refs = client.post("/api/v1/resolve", json={"references": [
        "Sepp Hochreiter and Jürgen Schmidhuber. 1997. Long short-term memory. Neural Computation."]})
    assert refs.json()["entries"][0]["status"] == "matched"
    bib = client.post("/api/v1/resolve?format=bib", content=BIB.encode())
    assert bib.headers["content-type"].startswith("application/x-bibtex")
    assert bibtexparser.parse_string(bib.text).entries


@pytest.mark.parametrize(("body", "headers", "status"), [
    (b"", {}, 422), (b"\x00\x01\x02", {}, 422), (b"{not json", {"content-type": "application/json"}, 422),
    (b'{"bibtex": 3}', {"content-type": "application/json"}, 422),
    (b"@" * (MAX_BYTES + 1), {}, 413),
])
def test_api_resolve_refuses_bad_bodies(client: Any, body: bytes, headers: dict[str, str],
                                        status: int) -> None:
    r = client.post("/api/v1/resolve", content=body, headers=headers)
    assert r.status_code == status
    assert r.headers["content-type"].startswith("application/problem+json") and r.json()["detail"]


def test_api_resolve_refuses_a_long_chunked_body(client: Any) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(MAX_BYTES // 65536 + 2):
            yield b"@" * 65536

    assert client.post("/api/v1/resolve", content=chunks()).status_code == 413


# --- the page -----------------------------------------------------------------------------------
@pytest.mark.parametrize("prefix", ["", "/en"])
def test_resolve_page(client: Any, home: Home, prefix: str) -> None:
    form = client.get(prefix + "/resolve")
    assert form.status_code == 200 and 'enctype="multipart/form-data"' in form.text
    r = client.post(prefix + "/resolve", files={"file": ("refs.bib", BIB.encode(), "application/x-bibtex")})
    assert r.status_code == 200
    assert "resolve-matched" in r.text and "resolve-ambiguous" in r.text and "resolve-error" in r.text
    assert paper_id(home.store, "lstm") in r.text
    dl = client.post(prefix + "/resolve?format=bib", data={"text": BIB})
    assert dl.headers["content-disposition"].startswith("attachment")
    assert "hochreiter1997" in {e.key for e in bibtexparser.parse_string(dl.text).entries}


@pytest.mark.parametrize(("files", "data", "status", "message"), [
    (None, {"text": ""}, 400, {"": "书目为空", "/en": "The bibliography is empty."}),
    ({"file": ("x.bib", b"\x00\x01\x02\x03", "application/octet-stream")}, None, 400,
     {"": "不是文本", "/en": "This file is not text"}),
])
def test_resolve_page_bad_input(client: Any, files: Any, data: Any, status: int,
                                message: dict[str, str]) -> None:
    for prefix in ("", "/en"):
        r = client.post(prefix + "/resolve", files=files, data=data)
        assert r.status_code == status and message[prefix] in r.text


HOSTILE = ('@misc{x"><script>alert(1)</script>, title={<script>alert("bib")</script> Attack '
           '<img src=x onerror=alert(2)>}, author={<svg onload=alert(3)>}, year={2024}}\n'
           '@article{xss, title={' + "<script>alert('title')</script> Attack" + '}, year={2024}}\n')


@pytest.mark.parametrize("prefix", ["", "/en"])
def test_hostile_bibliographies_are_escaped(client: Any, prefix: str) -> None:
    r = client.post(prefix + "/resolve", data={"text": HOSTILE})
    assert r.status_code == 200
    for tag, attrs in html_tags(r.text):
        assert tag not in ("img", "svg", "iframe"), (tag, attrs)
        if tag == "script":
            assert (attrs.get("src") or "").startswith("/static/"), attrs
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
    assert "&lt;script&gt;alert(" in r.text


# --- a real bibliography --------------------------------------------------------------------------
@pytest.mark.skipif(not SHARED_BIB.exists(), reason="../shared/data/bib/tuw_nlp.bib is not here")
def test_a_real_bibliography_round_trips(home: Home) -> None:
    text = SHARED_BIB.read_text("utf-8")
    report = resolve(home, text)
    c = report["counts"]
    assert c["entries"] == 498 and c["errors"] == 0
    assert c["matched"] + c["ambiguous"] + c["not_found"] == c["entries"]
    out = bibtexparser.parse_string(report["bibtex"])
    assert len(out.entries) == 498 and not out.failed_blocks
    before = {e.key: e for e in bibtexparser.parse_string(text).entries}
    for e in out.entries:           # entries not rewritten come back exactly as they were
        if not any(x["key"] == e.key and x["rewritten"] for x in report["entries"]):
            assert [(f.key, f.value) for f in e.fields] == [(f.key, f.value) for f in before[e.key].fields]
