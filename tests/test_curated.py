"""Curated reading lists: the markdown read as entries, links as ids, entries matched to papers,
the folder read into the store (and again only where it changed), and the signal that ranks."""

from __future__ import annotations

import gzip
import json
import sqlite3
from pathlib import Path

import pytest

from paperlist.curated.links import ids_of
from paperlist.curated.markdown import entries
from paperlist.curated.signal import Signal, held_out, name_words, weight
from paperlist.search import Searcher, SearchRequest
from paperlist.store import Store

from .conftest import PAPERCOPILOT, run_cli
from .curated_util import FIXTURE_LISTS, write_lists


@pytest.mark.parametrize(("url", "want"), [
    ("https://arxiv.org/pdf/1602.05629.pdf", [("arxiv", "1602.05629")]),
    ("http://arxiv.org/abs/2306.12929v2", [("arxiv", "2306.12929")]),
    ("https://arxiv.org/abs/cs/0101001", [("arxiv", "cs/0101001")]),
    ("https://openreview.net/forum?id=UvziTI2JGP7", [("openreview", "UvziTI2JGP7")]),
    ("https://openreview.net/pdf?id=H1gL-2A9Ym", [("openreview", "H1gL-2A9Ym")]),
    ("https://doi.org/10.1109/CVPR.2016.90", [("doi", "10.1109/cvpr.2016.90")]),
    ("https://dl.acm.org/doi/abs/10.1145/3292500.3330701", [("doi", "10.1145/3292500.3330701")]),
    ("https://aclanthology.org/2022.acl-long.39.pdf", [("acl", "2022.acl-long.39")]),
    ("https://www.aclweb.org/anthology/P19-1001/", [("acl", "P19-1001")]),
    ("https://papers.nips.cc/paper/2017/hash/3f5ee243547dee91fbd053c1c4a845aa-Abstract.html",
     [("page", "neurips:3f5ee243547dee91fbd053c1c4a845aa")]),
    ("https://proceedings.neurips.cc/paper_files/paper/2017/file/3f5ee243547dee91fbd053c1c4a845aa-Paper.pdf",
     []),
    ("http://proceedings.mlr.press/v97/ma19a/ma19a.pdf", [("page", "pmlr:v97/ma19a")]),
    ("https://proceedings.mlr.press/v97/ma19a.html", [("page", "pmlr:v97/ma19a")]),
    ("https://openaccess.thecvf.com/content_CVPR_2019/papers/Li_X_CVPR_2019_paper.pdf",
     [("page", "cvf:li_x_cvpr_2019_paper")]),
    ("https://github.com/x/y", []),
    ("javascript:alert(1)", []),
    ("http://[::1", []),
])
def test_a_link_names_the_ids_our_papers_carry(url: str, want: list[tuple[str, str]]) -> None:
    assert ids_of(url) == want


def test_the_two_sides_of_a_proceedings_page_give_one_key() -> None:
    a = "https://openaccess.thecvf.com/content_CVPR_2019/html/Li_X_CVPR_2019_paper.html"
    b = "http://openaccess.thecvf.com/content_CVPR_2019/papers/Li_X_CVPR_2019_paper.pdf"
    assert ids_of(a) == ids_of(b) != []


def test_entries_in_the_shapes_lists_write_them() -> None:
    md = """# Awesome Things

## Table of Contents
- [Models](#models)

## Models

### Basic Models

1. **Semi-Supervised Classification with Graph Convolutional Networks.** ICLR 2017. [paper](https://arxiv.org/pdf/1609.02907.pdf)
- [Graph Attention Networks](https://openreview.net/forum?id=rJXMpikCZ) ICLR 2018
- Learning to learn by gradient descent by gradient descent. Andrychowicz et al. NeurIPS 2016 [code](https://github.com/x/y)

## Tables

| Title | Venue | Link |
|---|---|---|
| Inductive Representation Learning on Large Graphs | NIPS 2017 | [pdf](https://arxiv.org/abs/1706.02216) |

#### Read-ME: Refactorizing LLMs as Router-Decoupled Mixture of Experts

- 论文链接：[https://openreview.net/forum?id=i8JaxY7tDI](https://openreview.net/forum?id=i8JaxY7tDI)

Some prose with a [link](https://example.org) is no entry.
"""
    got = entries(md)
    by_title = {e.title: e for e in got}
    gcn = by_title["Semi-Supervised Classification with Graph Convolutional Networks"]
    assert gcn.ids == [("arxiv", "1609.02907")] and gcn.year == 2017
    assert gcn.headings == ["Awesome Things", "Models", "Basic Models"]       # "Contents" is no topic
    assert by_title["Graph Attention Networks"].ids == [("openreview", "rJXMpikCZ")]
    l2l = next(e for e in got if "Learning to learn by gradient descent by gradient descent" in
               [e.title, *e.alternatives])
    assert l2l.year == 2016 and l2l.ids == []
    row = by_title["Inductive Representation Learning on Large Graphs"]
    assert row.ids == [("arxiv", "1706.02216")] and row.headings == ["Awesome Things", "Tables"]
    readme = next(e for e in got if ("openreview", "i8JaxY7tDI") in e.ids)
    assert readme.headings[-1].startswith("Read-ME")       # the paper's own heading: match.py drops it
    assert not any(e.title.startswith("Some prose") for e in got)
    assert [e.position for e in got] == list(range(len(got)))


def test_html_in_a_list_is_read_with_lxml() -> None:
    """Eight lists write HTML tables or lists. A regex read them before: entities stayed as text
    ("&check;"), cells ran together ("ClosedSource"), and a table of contents became an entry."""
    md = """# Agents

<table>
<tr><th>Model</th><th>Kind</th><th>Paper</th></tr>
<tr><td>Voyager</td><td>Closed</td><td>Environment Simulation &check; &amp; more</td>
<td><a href="https://arxiv.org/abs/2305.16291">paper</a></td></tr>
<tr><td colspan="3"><table><tr><td><b>Deep Sets</b> NeurIPS 2017</td>
<td><a href='https://papers.nips.cc/paper/2017/hash/f22e4747da1aa27e363d86d40ff442fe-Abstract.html'>pdf</a>
</td></tr></table></td></tr>
</table>

<ul><li><a href="#contents">Table of Contents</a></li>
<li>Graph Attention Networks <a href="https://openreview.net/forum?id=rJXMpikCZ">[paper]</a></li></ul>
"""
    got = entries(md)
    voyager = next(e for e in got if ("arxiv", "2305.16291") in e.ids)
    assert voyager.title.startswith("Voyager Closed Environment Simulation ✓ & more")
    sets = next(e for e in got if e.ids and e.ids[0][0] == "page")
    assert "Deep Sets NeurIPS 2017" in sets.title and sets.year == 2017
    gat = next(e for e in got if ("openreview", "rJXMpikCZ") in e.ids)
    assert gat.title == "Graph Attention Networks" and gat.headings == ["Agents"]
    assert not any("Contents" in e.title for e in got) and len(got) == 3


def test_hostile_markdown_is_text_and_never_stops_the_reader() -> None:
    md = ("# <script>alert(1)</script> GANs &lt;b&gt;\n\n"
          "- **<img src=x onerror=alert(1)> Generative Adversarial Nets**"
          " [p](https://arxiv.org/abs/1406.2661)\n" + "[" * 5000 + "\n" + "- " * 3000 + "\n\0\ud800".encode(
              "utf-8", "surrogatepass").decode("utf-8", "replace"))
    got = entries(md)
    assert got[0].ids == [("arxiv", "1406.2661")]
    # markup is dropped, an escaped tag is text (which pages escape again)
    assert got[0].headings == ["alert(1) GANs <b>"]


def test_a_list_counts_less_when_large_and_little_when_a_dump() -> None:
    assert weight({"entries": 300, "kind": "curated"}) == 1.0
    assert weight({"entries": 6000, "kind": "curated"}) == pytest.approx(0.5)
    assert weight({"entries": 100, "kind": "dump"}) == pytest.approx(0.1)
    assert name_words("chaoyanghe/Awesome-Federated-Learning") == "Federated Learning"
    assert name_words("thunlp/GNNPapers") == "GNN"


def test_held_out_lists_are_one_in_five_and_left_out_of_the_signal() -> None:
    names = [f"owner{i}/list{i}" for i in range(1000)]
    out = [n for n in names if held_out(n)]
    assert 150 < len(out) < 250
    rows = [(out[0], {"headings": [["Held Out Topic"]]}), (next(n for n in names if not held_out(n)),
                                                            {"headings": [["Kept Topic"]]})]
    lists = {n: {"entries": 10, "kind": "curated", "topic": ""} for n, _ in rows}
    assert Signal(lists, "all").of(rows).lists == 2
    held = Signal(lists, "heldout").of(rows)
    assert held.lists == 1 and "Kept Topic" in held.headings[0] and "Held Out" not in " ".join(held.headings)
    assert Signal(lists, "off").of(rows).lists == 0


def _rows(home: Path) -> dict[tuple[str, str], dict[str, object]]:
    db = sqlite3.connect(home / "paperlist.db")
    try:
        rows = db.execute("SELECT paper_id, list, data FROM paper_lists")
        return {(p, n): json.loads(d) for p, n, d in rows}
    finally:
        db.close()


def test_ingest_reads_the_lists_and_keeps_only_certain_matches(tmp_path: Path) -> None:
    folder = write_lists(tmp_path)
    home = tmp_path / "home"
    r = run_cli(home, "ingest", str(PAPERCOPILOT), str(folder))
    assert r.exit_code == 0, r.output
    rows = _rows(home)
    assert rows[("acl2022-epepalh4", "someone/awesome-zero-shot")] == {
        "entries": [0], "by": "id",
        "headings": [["Awesome Zero-Shot Learning", "Zero-Shot Text Classification"]]}
    assert rows[("acl2022-epepalh4", "other/robust-regression-papers")]["by"] == "title"
    assert rows[("iclr2023-6eytbhem", "someone/awesome-zero-shot")]["by"] == "id"
    assert rows[("neurips2018-uhgcpawt", "other/robust-regression-papers")]["by"] == "title"   # LaTeX title
    assert len(rows) == 4                   # the arXiv-only entry names none of our papers
    report = Store(home / "paperlist.db", readonly=True).curated_report()
    assert report["entries"] == 5 and report["matched"] == 4
    assert report["lists"]["other/robust-regression-papers"] == {"entries": 2, "matched": 2}


def test_a_short_title_needs_the_year_and_a_title_alone_is_never_a_prefix(tmp_path: Path) -> None:
    lists = {"x/short": "# S\n\n- **A Notable Paper** 2019 [code](https://github.com/a/b)\n"
                        "- **A Spotlight Paper** 2023 [code](https://github.com/a/c)\n"
                        "- **Roadmap-Based Path Planning and More** [code](https://github.com/a/d)\n"}
    home = tmp_path / "home"
    assert run_cli(home, "ingest", str(PAPERCOPILOT), str(write_lists(tmp_path, lists))).exit_code == 0
    db = sqlite3.connect(home / "paperlist.db")
    spotlight = {pid for pid, in db.execute("SELECT id FROM papers WHERE title = 'A Spotlight Paper'")}
    db.close()
    assert spotlight and {p for p, _ in _rows(home)} == spotlight


def test_a_changed_list_is_read_again_and_a_removed_one_removed(tmp_path: Path) -> None:
    folder = write_lists(tmp_path)
    home = tmp_path / "home"
    run_cli(home, "ingest", str(PAPERCOPILOT), str(folder))
    before = _rows(home)
    again = run_cli(home, "ingest", "--json", str(folder))
    rep = json.loads(again.stdout)
    assert rep["lists"]["read"] == 0 and rep["lists"]["unchanged"] == 2
    assert _rows(home) == before
    lists = dict(FIXTURE_LISTS)
    del lists["other/robust-regression-papers"]
    lists["someone/awesome-zero-shot"] += \
        "\n## New Heading\n\n- [Knowledge Distillation with Perturbed Loss](x)\n"
    (folder / "other+robust-regression-papers" / "README.md.gz").unlink()
    write_lists(tmp_path, lists)
    rep = json.loads(run_cli(home, "ingest", "--json", str(folder)).stdout)
    assert rep["lists"]["read"] == 1 and rep["lists"]["removed"] == 1
    rows = _rows(home)
    assert {n for _, n in rows} == {"someone/awesome-zero-shot"}
    kdd = next(v for (p, _), v in rows.items() if p.startswith("kdd2024"))
    assert kdd["headings"] == [["Awesome Zero-Shot Learning", "New Heading"]]


def test_a_broken_list_file_fails_the_run_in_one_line_and_the_others_are_read(tmp_path: Path) -> None:
    folder = write_lists(tmp_path)
    (folder / "other+robust-regression-papers" / "README.md.gz").write_bytes(
        gzip.compress(b"# fine")[:12])
    home = tmp_path / "home"
    r = run_cli(home, "ingest", "--json", str(PAPERCOPILOT), str(folder))
    assert r.exit_code == 1
    rep = json.loads(r.stdout)
    failed = [f for f in rep["files"] if f["status"] == "failed"]
    assert len(failed) == 1 and "README.md.gz" in failed[0]["name"] and "\n" not in failed[0]["error"]
    assert {n for _, n in _rows(home)} == {"someone/awesome-zero-shot"}


def test_the_match_converges_after_an_interruption(tmp_path: Path) -> None:
    folder = write_lists(tmp_path)
    home = tmp_path / "home"
    run_cli(home, "ingest", str(PAPERCOPILOT), str(folder))
    before = _rows(home)
    db = sqlite3.connect(home / "paperlist.db")
    with db:                                  # as if killed between the lists' read and the match
        db.execute("DELETE FROM paper_lists WHERE paper_id LIKE 'acl%'")
        db.execute("UPDATE meta SET value = 'interrupted' WHERE key = 'curated_matched'")
    db.close()
    r = run_cli(home, "ingest", str(PAPERCOPILOT))
    assert r.exit_code == 0, r.output
    assert _rows(home) == before
    hits = Searcher(home).search(SearchRequest(q="generalized zero-shot text classification")).hits
    assert hits[0].id == "acl2022-epepalh4" and hits[0].lists == 2
