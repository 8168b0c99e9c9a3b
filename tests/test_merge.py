"""Merging records of several sources into one paper: real records from the shared sources
(copied into tests/fixtures/merge), ingested into real stores."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from paperlist.ingest import ingest
from paperlist.models import Paper
from paperlist.store import Store

from .conftest import FIXTURES

MERGE = FIXTURES / "merge"
PC, ML, OR = MERGE / "papercopilot", MERGE / "mlanthology", MERGE / "openreview"


def by_title(store: Store, start: str) -> Paper:
    rows = store.db.execute("SELECT id FROM papers WHERE title LIKE ?", (start + "%",)).fetchall()
    assert len(rows) == 1, (start, rows)
    paper = store.get_paper(rows[0][0])
    assert paper is not None
    return paper


def state(store: Store) -> list[tuple[object, ...]]:
    """Everything a user sees of the merged papers (not the history of retired ids)."""
    out: list[tuple[object, ...]] = []
    for table, cols in (
        ("papers", "id, hash, title, venue, year, status, abstract, provenance, sources"),
        ("paper_authors", "paper_id, position, author_key, name, affiliation"),
        ("links", "paper_id, kind, url"),
        ("keywords", "paper_id, position, keyword"),
        ("paper_ids", "kind, value, paper_id"),
        ("authors", "key, name, papers"),
    ):
        out.extend(tuple(r) for r in store.db.execute(f"SELECT {cols} FROM {table} ORDER BY 1, 2, 3"))
    return out


@pytest.fixture(scope="module")
def merged(tmp_path_factory: pytest.TempPathFactory) -> Store:
    st = Store(tmp_path_factory.mktemp("merge") / "paperlist.db")
    rep = ingest(st, [str(PC), str(ML), str(OR)], jobs=1)
    assert rep.failed == 0
    return st


def test_neurips_2024_status_from_papercopilot_abstract_from_mlanthology(merged: Store) -> None:
    p = by_title(merged, "MeshFormer")
    assert p.status == "oral" and p.provenance["status"].startswith("papercopilot:")
    assert p.abstract and p.provenance["abstract"].startswith("mlanthology:")
    assert len(p.sources) == 2
    kinds = {k for k, _ in p.links}
    assert {"site", "pdf"} <= kinds  # virtual-site page from one, PDF from the other


def test_renamed_title_is_matched_by_its_authors(merged: Store) -> None:
    p = by_title(merged, "Bit2Bit")
    assert sorted(s.split(":")[0] for s in p.sources) == ["mlanthology", "papercopilot"]
    assert p.status == "poster" and p.abstract
    assert p.title.startswith("Bit2Bit: 1-Bit Quanta")  # the published wording, not the submitted one


def test_records_of_one_source_only_stay_single(merged: Store) -> None:
    assert len(by_title(merged, "Towards Explainable Evaluation Metrics").sources) == 1
    only_ml = by_title(merged, "Fine-grained Analysis of In-context Linear Estimation")
    assert only_ml.status is None and only_ml.accepted and only_ml.abstract


def test_same_person_one_key_across_sources(merged: Store) -> None:
    p = by_title(merged, "Interaction-Force Transport Gradient Flows")
    # papercopilot writes "Pavel Dvurechenskii", mlanthology "Pavel Dvurechensky": different people to us;
    # the merged paper keeps one list (mlanthology's structured names win on ties)
    assert [a.name for a in p.authors][0] == "Egor Gladin"
    assert merged.author_papers("egor-gladin") == [p.id]


def test_duplicate_listings_within_a_file_become_one_paper(merged: Store) -> None:
    rows = merged.db.execute("SELECT title FROM papers WHERE venue='icmlw' ORDER BY title").fetchall()
    assert [r[0][:24] for r in rows] == [
        "DigiRL: Training In-The-",
        "Reinforcement learning w",
        "xLSTM: Extended Long Sho",
    ]
    rl = by_title(merged, "Reinforcement learning with Human Feedback")
    assert len(rl.authors) == 3  # the fuller of the two listings


def test_different_papers_with_one_title_stay_apart(merged: Store) -> None:
    rows = merged.db.execute("SELECT id FROM papers WHERE venue='jmlr' AND year=2013").fetchall()
    assert len(rows) == 2
    firsts = sorted(p.authors[0].name for p in merged.get_papers([r[0] for r in rows]))
    assert firsts == ["Arto Klami", "Chong Wang"]


def test_order_of_ingest_does_not_change_the_result(tmp_path: Path, merged: Store) -> None:
    reverse = Store(tmp_path / "reverse.db")
    files = [f for d in (OR, ML, PC) for f in sorted(d.rglob("*.*"), reverse=True) if f.suffix != ".md"]
    for f in files:  # other order, one file at a time
        ingest(reverse, [str(f)], jobs=1)
    assert state(reverse) == state(merged)


def test_updating_one_source_updates_only_its_papers(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(MERGE, src, ignore=shutil.ignore_patterns("openreview"))
    store = Store(tmp_path / "p.db")
    ingest(store, [str(src / "papercopilot"), str(src / "mlanthology")], jobs=1)
    before = {r[0]: r[1] for r in store.db.execute("SELECT id, hash FROM papers")}
    f = src / "mlanthology" / "papers" / "neurips-2024.json"
    doc = json.loads(f.read_text())
    doc["papers"][0]["abstract"] = "A corrected abstract, long enough to count as one."
    f.write_text(json.dumps(doc))
    rep = ingest(store, [str(src / "papercopilot"), str(src / "mlanthology")], jobs=1)
    assert (rep.papers.new, rep.papers.updated, rep.papers.removed) == (0, 1, 0)
    after = {r[0]: r[1] for r in store.db.execute("SELECT id, hash FROM papers")}
    changed = [pid for pid in after if after[pid] != before.get(pid)]
    assert len(changed) == 1
    p = store.get_paper(changed[0])
    assert p is not None and p.abstract == "A corrected abstract, long enough to count as one."


def test_title_keeps_the_latex_of_the_source_that_has_it(merged: Store) -> None:
    p = by_title(merged, "ReLU Network with Width")
    assert p.title == r"ReLU Network with Width $d+\mathcal{O}(1)$ Can Achieve Optimal Approximation Rate"
    assert p.provenance["title"].startswith("papercopilot:") and len(p.sources) == 2


def test_iclr_2025_decision_from_the_csv_abstract_from_mlanthology(merged: Store) -> None:
    p = by_title(merged, "DarkBench: Benchmarking Dark Patterns")
    assert (p.venue, p.year, p.status, p.accepted) == ("iclr", 2025, "oral", True)
    assert p.provenance["status"] == "openreview:iclr2025-decisions"
    assert p.abstract and p.provenance["abstract"] == "mlanthology:iclr-2025"
    assert p.ids["openreview"]  # mlanthology knows the forum id
    rejected = merged.db.execute(
        "SELECT status, accepted FROM papers WHERE year=2025 AND venue='iclr'"
        " AND status IN ('rejected', 'withdrawn') ORDER BY status"
    ).fetchall()
    assert [tuple(r) for r in rejected] == [("rejected", 0), ("withdrawn", 0)]


def test_iclr_2024_status_and_keywords_from_the_openreview_export(merged: Store) -> None:
    p = by_title(merged, "Nemesis: Normalizing the Soft-prompt Vectors")
    assert p.status == "spotlight" and p.provenance["status"] == "openreview:ICLR_cc_2024_Conference"
    assert "Soft-prompt tuning" in p.keywords and p.primary_area
    assert p.abstract and len(p.sources) == 2


def test_icml_2024_three_sources_joined_by_openreview_id(merged: Store) -> None:
    p = by_title(merged, "DiJiang")
    assert sorted(s.split(":")[0] for s in p.sources) == ["mlanthology", "openreview", "papercopilot"]
    assert p.status == "oral" and p.ids["openreview"] == "0uUHfhXdnH"
    assert p.links and len({u for _, u in p.links}) == len(p.links)  # links unioned without repeats


@pytest.mark.parametrize(
    ("urls", "kept"),
    [
        # the same PDF at NeurIPS's old and new proceedings hosts (issue 46 item 6: two PDF buttons)
        (
            [
                ("pdf", "https://papers.nips.cc/paper_files/paper/2018/file/8b16-Paper.pdf"),
                ("pdf", "https://proceedings.neurips.cc/paper_files/paper/2018/file/8b16-Paper.pdf"),
            ],
            [("pdf", "https://proceedings.neurips.cc/paper_files/paper/2018/file/8b16-Paper.pdf")],
        ),
        # the same page by http and https, with "www." and a trailing slash
        (
            [("site", "http://www.example.org/paper/1/"), ("site", "https://example.org/paper/1")],
            [("site", "http://www.example.org/paper/1/")],
        ),
        # old-style NeurIPS pages live under other paths at the new host: not rewritten
        (
            [("site", "https://papers.nips.cc/paper/7181-attention-is-all-you-need")],
            [("site", "https://papers.nips.cc/paper/7181-attention-is-all-you-need")],
        ),
        # a scraper's double slash after the host (the resolver wrote "neurips.cc//paper_files")
        (
            [("site", "https://proceedings.neurips.cc//paper_files/paper/2020/hash/609a-Abstract.html")],
            [("site", "https://proceedings.neurips.cc/paper_files/paper/2020/hash/609a-Abstract.html")],
        ),
        # two different places stay two links
        (
            [("pdf", "https://a.org/1.pdf"), ("pdf", "https://b.org/1.pdf")],
            [("pdf", "https://a.org/1.pdf"), ("pdf", "https://b.org/1.pdf")],
        ),
    ],
)
def test_one_place_linked_by_two_hosts_is_one_link(
    urls: list[tuple[str, str]], kept: list[tuple[str, str]]
) -> None:
    from paperlist.merge import paper_from_records
    from paperlist.models import Record

    recs = [
        Record(
            source=src,
            file=f"{src}:f",
            key="k",
            venue="neurips",
            year=2018,
            title="A Paper",
            links={kind: url},
        )
        for src, (kind, url) in zip(("papercopilot", "mlanthology", "acl", "x"), urls, strict=False)
    ]
    assert paper_from_records(recs, "neurips2018-x").links == kept


ATTENTION = (
    "The dominant sequence transduction models are based on complex recurrent or convolutional neural "
    "networks in an encoder and decoder configuration. The best performing models also connect the "
    "encoder and decoder through an attention mechanism."
)


@pytest.mark.parametrize(
    ("copies", "chosen"),
    [
        # issue 44 item 3: papercopilot's extraction glued words ("orconvolutional", "attentionm echanisms")
        (
            {
                "papercopilot": ATTENTION.replace(
                    "recurrent or convolutional", "recurrent orconvolutional"
                ).replace("attention mechanism", "attentionm echanism"),
                "mlanthology": ATTENTION,
            },
            "mlanthology",
        ),
        # line-end hyphenation left in the text
        (
            {"papercopilot": ATTENTION.replace("transduction", "trans- duction"), "mlanthology": ATTENTION},
            "mlanthology",
        ),
        # markup is not damage: the trusted source keeps its emphasis
        (
            {"papercopilot": ATTENTION.replace("attention", "**attention**"), "mlanthology": ATTENTION},
            "papercopilot",
        ),
        # another version of the abstract (a camera-ready rewrite) is not a copy: the trusted source's stays
        (
            {
                "papercopilot": ATTENTION.replace("recurrent or convolutional", "recurrent orconvolutional"),
                "mlanthology": "We propose a new simple network architecture, the Transformer, based "
                "solely on attention mechanisms, dispensing with recurrence and convolutions entirely.",
            },
            "papercopilot",
        ),
    ],
)
def test_the_cleanest_copy_of_an_abstract_wins(copies: dict[str, str], chosen: str) -> None:
    from paperlist.merge import paper_from_records
    from paperlist.models import Record

    recs = [
        Record(
            source=src,
            file=f"{src}:f",
            key="k",
            venue="neurips",
            year=2017,
            title="Attention Is All You Need",
            abstract=text,
        )
        for src, text in copies.items()
    ]
    p = paper_from_records(recs, "neurips2017-x")
    assert p.abstract == copies[chosen] and p.provenance["abstract"] == f"{chosen}:f"
