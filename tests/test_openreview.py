"""The OpenReview exports reader: each layout on real rows copied from the shared files
(tests/fixtures/openreview), plus broken copies of them for the error paths."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from paperlist.models import Record
from paperlist.sources import READERS, SourceError, detect, load_path
from paperlist.sources.openreview import multiline, split_keywords

from .conftest import FIXTURES

OR = FIXTURES / "openreview"
TSV = OR / "iclr2024-icml2024-corl"


def parse(path: Path) -> tuple[list[Record], list[str], str]:
    src = load_path(path)
    reader = detect(src)
    assert reader.name == "openreview"
    p = reader.parse(src)
    return p.records, p.skipped, reader.file_key(src)


def by_title(recs: list[Record], start: str) -> Record:
    return next(r for r in recs if r.title.startswith(start))


def write_gz(path: Path, text: str) -> Path:
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    return path


def test_iclr2024_tsv_nine_columns() -> None:
    recs, skipped, key = parse(TSV / "ICLR_cc_2024_Conference.csv")
    assert skipped == [] and key == "openreview:ICLR_cc_2024_Conference" and len(recs) == 5
    assert {(r.venue, r.year) for r in recs} == {("iclr", 2024)}
    assert sorted(r.status or "" for r in recs) == ["oral", "oral", "poster", "poster", "spotlight"]
    r = by_title(recs, "On the generalization capacity")
    assert (r.ids == {}
            and r.key == "t:onthegeneralizationcapacityofneuralnetworksduringgenericmultimodalreasoning")
    assert [a.name for a in r.authors][:2] == ["Takuya Ito", "Soham Dan"]
    assert r.keywords[:2] == ["compositional generalization", "compositionality"]
    assert r.primary_area == "applications to neuroscience & cognitive science"
    assert r.tldr and r.tldr.startswith("We introduce a flexible multimodal")
    assert r.links == {"pdf": "https://openreview.net/pdf/f7a706bf2f572d8c1e6ff6efe2079660ea9674b2.pdf",
                       "supplementary": "https://openreview.net/attachment/a1d3114f70fe359e19150d56c76803648d2fee27.zip"}
    assert r.abstract and r.abstract.startswith("The advent of the Transformer")
    quoted = by_title(recs, '"What Data Benefits My Classifier?"')          # a quote is text, not CSV quoting
    assert quoted.title.endswith("Influence-Based Data Selection") and quoted.status == "oral"


def test_icml_and_corl_tsv_eleven_columns() -> None:
    recs, skipped, _ = parse(TSV / "ICML_cc_2024_Conference.csv")
    assert skipped == [] and len(recs) == 3
    r = by_title(recs, "On Discrete Prompt Optimization")
    assert (r.key, r.ids, r.venue, r.year, r.status) == ("Fw4fBE2rqW", {"openreview": "Fw4fBE2rqW"},
                                                         "icml", 2024, "poster")
    assert r.links["openreview"] == "https://openreview.net/forum?id=Fw4fBE2rqW"
    assert r.keywords == [] and r.primary_area is None
    corl24, _, _ = parse(TSV / "robot-learning_org_CoRL_2024_Conference.csv")
    assert {r.venue for r in corl24} == {"corl"}
    assert [r.status for r in corl24] == ["accepted", "accepted", "rejected"]  # "CoRL 2024", "Submitted to …"
    assert corl24[2].extra["status_raw"] == "Submitted to CoRL 2024"
    corl25, _, _ = parse(TSV / "robot-learning_org_CoRL_2025_Conference.csv")
    clone = by_title(corl25, "CLONE")
    assert (clone.year == 2025 and clone.status == "poster"
            and clone.tldr == "Holistic Closed-Loop Whole-Body Teleoperation")
    assert clone.extra["attachment"].endswith(".mp4")        # the unlabelled second upload
    assert by_title(corl25, "ScrewSplat").status == "oral"


def test_tsv_rows_that_do_not_fit_are_skipped_by_line(tmp_path: Path) -> None:
    lines = (TSV / "ICML_cc_2024_Conference.csv").read_bytes().decode().split("\n")
    first = lines[0].split("\t")
    first[1] = first[1].replace(" ", "\t", 1)                # a tab inside the title
    second = lines[1].split("\t")
    second[1] = second[1].replace(" ", "\n", 1)              # a line break inside the title
    third = lines[2].split("\t")
    abstract = third[-1]
    third[-1] = abstract[:50] + "\n" + abstract[50:]         # a line break inside the abstract: joined back
    p = write_gz(tmp_path / "ICML_cc_2024_Conference.csv.gz",
                 "\n".join("\t".join(c) for c in (first, second, third)))
    recs, skipped, _ = parse(p)
    assert [r.key for r in recs] == ["frA0NNBS1n"]
    assert recs[0].abstract == abstract
    assert skipped == ["line 1: expected 11 tab-separated columns, found 12",
                       "line 2: expected 11 tab-separated columns, found 2",
                       "line 3: expected 11 tab-separated columns, found 10"]


def test_tsv_with_wrong_column_count_everywhere_is_a_file_error(tmp_path: Path) -> None:
    lines = (TSV / "ICML_cc_2024_Conference.csv").read_bytes().decode().split("\n")
    p = write_gz(tmp_path / "ICML_cc_2024_Conference.csv.gz",
                 "\n".join("\t".join(line.split("\t")[:7]) for line in lines))
    src = load_path(p)
    with pytest.raises(SourceError) as e:
        detect(src).parse(src)
    assert str(e.value) == "no line has 9 or 11 tab-separated columns (found 7 on 3 of 3 lines)"


@pytest.mark.parametrize("title, status", [
    ("Neuroacoustic Patterns", "withdrawn"),           # ICLR 2025 Conference Withdrawn Submission
    ("Synergistic Approach", "rejected"),              # Submitted to ICLR 2025: no acceptance after decisions
    ("Beyond Random Masking", "poster"),
    ("BanglaGITI", "desk-rejected"),                   # ICLR 2025 Conference Desk Rejected Submission
    ("DarkBench", "oral"),
    ("How new data permeates", "spotlight"),
])
def test_iclr2025_decisions(title: str, status: str) -> None:
    recs, skipped, key = parse(OR / "iclr2025" / "iclr2025-decisions.csv")
    assert skipped == [] and key == "openreview:iclr2025-decisions" and len(recs) == 7
    r = by_title(recs, title)
    assert (r.venue, r.year, r.status, r.abstract, r.ids) == ("iclr", 2025, status, None, {})
    assert r.key.startswith("t:")


def test_decision_authors_and_affiliations() -> None:
    recs, _, _ = parse(OR / "iclr2025" / "iclr2025-decisions.csv")
    r = by_title(recs, "Synergistic Approach for Simultaneous Optimization of Monolingual, Cross-lingual")
    assert [a.name for a in r.authors] == ["Adel Elmahdy", "Amin Ahmad", "Sheng-Chieh Lin"]
    assert all(a.affiliation is None for a in r.authors)      # the list is not one per author
    assert r.extra["affiliations"].startswith("Research, Google")
    assert r.extra["status_raw"] == "Submitted to ICLR 2025"


def test_decisions_row_with_wrong_cells_is_skipped(tmp_path: Path) -> None:
    text = (OR / "iclr2025" / "iclr2025-decisions.csv").read_bytes().decode()
    lines = text.split("\n")
    lines[3] = lines[3] + ",extra cell"
    recs, skipped, _ = parse(write_gz(tmp_path / "iclr2025-decisions.csv.gz", "\n".join(lines)))
    assert len(recs) == 6 and skipped == ["line 4: expected 4 columns, found 5"]


def test_iclr2026_accepted_csv_with_bom_summary_zh_and_extra() -> None:
    raw = (OR / "iclr2026" / "accepted-optimization.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    recs, skipped, key = parse(OR / "iclr2026" / "accepted-optimization.csv")
    assert skipped == [] and key == "openreview:iclr2026-accepted-optimization" and len(recs) == 3
    r = by_title(recs, "The Polar Express")
    assert (r.key, r.ids, r.venue, r.year, r.status, r.authors) == \
        ("yRtgZ1K8hO", {"openreview": "yRtgZ1K8hO"}, "iclr", 2026, "oral", [])
    assert r.primary_area == "optimization"
    assert r.summary_zh and r.summary_zh.startswith("- 解决的问题是什么？（一句话）\n"
                                                    "  - 快速高效地计算矩阵极分解")
    assert "\n\n- 动机是什么？" in r.summary_zh                     # line breaks and indentation kept
    assert r.extra == {"cluster_id": 54, "cluster_label": r.extra["cluster_label"],
                       "status_raw": "ICLR 2026 Oral"}
    # the means are the source's (no list of reviews to compute them from), and say so
    assert r.review is not None and (r.review.mean, r.review.confidence_mean, r.review.count) == (8.0, 3.5, 4)
    assert r.review.from_mean and r.review.ratings == []
    poster = by_title(recs, "Special Unitary")
    assert poster.status == "poster" and "$SU(2)$" in (poster.summary_zh or "")
    assert poster.keywords[-1] == "Wahba's Problem"


def test_iclr2026_accepted_csv_keyword_separators_and_extra_column() -> None:
    recs, _, _ = parse(OR / "iclr2026" / "accepted-optimization.csv")
    r = by_title(recs, "A Block Coordinate Descent")                     # keywords separated by ";"
    assert r.keywords == ["Orthogonality Constraints", "Nonconvex Optimization",
                          "Nonsmooth Composite Optimization", "Block Coordinate Descent",
                          "Convergence Analysis"]
    gen, _, key = parse(OR / "iclr2026" / "accepted-generative-models.csv")
    assert key == "openreview:iclr2026-accepted-generative-models"
    assert gen[0].extra["haiku_category"] == "3D生成与重建"                # the 13th column some files have


def test_iclr2026_orals_json() -> None:
    recs, skipped, key = parse(OR / "iclr2026" / "orals-with-authors.json")
    assert skipped == [] and key == "openreview:iclr2026-orals" and len(recs) == 4
    assert {(r.venue, r.year, r.status) for r in recs} == {("iclr", 2026, "oral")}
    r = by_title(recs, "The Polar Express")
    assert [a.name for a in r.authors] == ["Noah Amsel", "David Persson", "Christopher Musco",
                                           "Robert M. Gower"]
    assert r.ids == {"openreview": "yRtgZ1K8hO", "arxiv": "2505.16932"}
    assert r.links == {"site": "https://iclr.cc/virtual/2026/oral/10006554",
                       "pdf": "https://openreview.net/pdf/8d86cd45a9a80361f3f379cb84cdf9e11d312043.pdf",
                       "arxiv": "https://arxiv.org/abs/2505.16932",
                       "openreview": "https://openreview.net/forum?id=yRtgZ1K8hO"}
    assert r.tldr and r.tldr.startswith("We introduce a GPU-friendly")
    assert (r.extra["room"], r.extra["session_date"]) == ("204 A/B", "2026-04-24")
    orals = json.loads((OR / "iclr2026" / "orals-with-authors.json").read_bytes())["papers"]
    raw = {p["title"][:20]: p for p in orals}
    for rec in recs:                        # the orals' mean ratings, kept as the source's means
        src = raw[rec.title[:20]]
        assert rec.review is not None and rec.review.from_mean and rec.review.ratings == []
        assert (rec.review.mean, rec.review.count) == (src["ratings_avg"], src["ratings_n"])
    no_arxiv = by_title(recs, "Benchmarking Empirical Privacy")
    assert "arxiv" not in no_arxiv.ids and "arxiv" not in no_arxiv.links
    assert "site" not in by_title(recs, "Premise Selection").links           # no iclr.cc page for this one


def test_orals_keyword_items_joined_by_semicolons_are_split() -> None:
    raw = json.loads((OR / "iclr2026" / "orals-with-authors.json").read_bytes())
    joined = next(p for p in raw["papers"] if any(";" in k for k in p["keywords"]))
    recs, _, _ = parse(OR / "iclr2026" / "orals-with-authors.json")
    r = next(r for r in recs if r.key == joined["id"])
    assert not any(";" in k for k in r.keywords) and len(r.keywords) > len(joined["keywords"])


@pytest.mark.parametrize("content, message", [
    (b'{"generated_at": "2026", "papers": [{"openreview_url": "https://openreview.net/forum?id=abcdefgh"',
     "not valid JSON"),
    (b'{"generated_at": "2026", "papers": {"x": "openreview"}}', "expected an object with a 'papers' list"),
])
def test_orals_file_errors(tmp_path: Path, content: bytes, message: str) -> None:
    p = tmp_path / "iclr2026" / "orals-with-authors.json"
    p.parent.mkdir()
    p.write_bytes(content)
    src = load_path(p)
    assert detect(src).name == "openreview"
    with pytest.raises(SourceError) as e:
        detect(src).parse(src)
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_orals_paper_without_title_is_skipped(tmp_path: Path) -> None:
    raw = json.loads((OR / "iclr2026" / "orals-with-authors.json").read_bytes())
    raw["papers"][1]["title"] = None
    raw["papers"][2] = "not a paper"
    p = tmp_path / "orals.json"
    p.write_text(json.dumps(raw))
    recs, skipped, _ = parse(p)
    assert len(recs) == 2 and skipped == ["paper 1: record has no title",
                                          "paper 2: expected an object, found str"]


@pytest.mark.parametrize("raw, expected", [
    ("LLM Fine-tuning (SFT, DPO, SimPO); Data selection",
     ["LLM Fine-tuning (SFT, DPO, SimPO)", "Data selection"]),
    ("LLM Reasoning, Test-Time Scaling;Textual Optimization",
     ["LLM Reasoning", "Test-Time Scaling", "Textual Optimization"]),
    ("Video Generation, Human Motion Generation;", ["Video Generation", "Human Motion Generation"]),
    ("Noisy correspondence; Multi-modal entity alignment.",
     ["Noisy correspondence", "Multi-modal entity alignment"]),
    ("", []),
])
def test_split_keywords(raw: str, expected: list[str]) -> None:
    assert split_keywords(raw) == expected


def test_multiline_keeps_line_breaks_and_indentation() -> None:
    assert multiline("- a\r\n  - b  \n\n\n\n- c\x07\n") == "- a\n  - b\n\n- c"
    assert multiline(None) == ""


def test_sniff_routes_each_layout_and_claims_nothing_else(tmp_path: Path) -> None:
    reader = READERS["openreview"]
    for p in [*OR.rglob("*.csv"), *OR.rglob("*.json")]:
        assert detect(load_path(p)).name == "openreview", p
    for other in [*(FIXTURES / "papercopilot").rglob("*.json"), *(FIXTURES / "acl").rglob("*.xml")]:
        assert not reader.sniff(load_path(other)), other
    mlanthology = tmp_path / "iclr-2025.json"
    mlanthology.write_text('{"venue": "iclr", "year": "2025", "papers": [{"title": "T", "venue_url": '
                           '"https://openreview.net/forum?id=abc"}]}')
    assert not reader.sniff(load_path(mlanthology))
    plain_tsv = tmp_path / "notes_2024_Conference_summary.tsv"
    plain_tsv.write_text("a\tb\n")
    assert not reader.sniff(load_path(plain_tsv))


def test_csv_with_wrong_column_count_everywhere_is_a_file_error(tmp_path: Path) -> None:
    text = (OR / "iclr2025" / "iclr2025-decisions.csv").read_bytes().decode()
    lines = text.rstrip("\n").split("\n")
    broken = "\n".join([lines[0]] + [line + ",x" for line in lines[1:]])
    src = load_path(write_gz(tmp_path / "iclr2025-decisions.csv.gz", broken))
    with pytest.raises(SourceError) as e:
        detect(src).parse(src)
    assert str(e.value) == "no row has the 4 columns of the header"


@pytest.mark.parametrize("rel", ["iclr2026/orals-with-authors.json", "iclr2026/accepted-optimization.csv",
                                 "iclr2024-icml2024-corl/ICLR_cc_2024_Conference.csv"])
def test_truncated_gzip_is_a_file_error(tmp_path: Path, rel: str) -> None:
    raw = gzip.compress((OR / rel).read_bytes())
    p = tmp_path / (Path(rel).name + ".gz")
    p.write_bytes(raw[: len(raw) * 2 // 3])
    with pytest.raises(SourceError, match="^truncated or corrupt gzip data$"):
        load_path(p)
