"""The Web Conference 2026 reader: each layout on real rows copied from the shared files
(tests/fixtures/webconf), broken copies of them for the error paths, and the real files."""

from __future__ import annotations

import gzip
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperlist.models import Record
from paperlist.sources import READERS, Parsed, SourceError, SourceFile, detect, expand, load_path
from paperlist.sources.webconf import WebconfReader

from .conftest import FIXTURES, shared_data

WC = FIXTURES / "webconf"
RESEARCH = WC / "www2026-main-research-track---rfp.csv"
WORKSHOPS = WC / "www2026-workshops-papers.csv"


def parse(path: Path) -> Parsed:
    src = load_path(path)
    assert detect(src).name == "webconf"
    return WebconfReader().parse(src)


def by_key(recs: list[Record]) -> dict[str, Record]:
    return {r.key: r for r in recs}


def people(rec: Record) -> list[tuple[str, str | None]]:
    return [(a.name, a.affiliation) for a in rec.authors]


def copy(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def test_research_track_authors_and_areas() -> None:
    out = parse(RESEARCH)
    assert out.skipped == [] and len(out.records) == 5
    assert {(r.venue, r.year, r.track, r.status, r.source, r.file) for r in out.records} == {
        ("www", 2026, "research", "accepted", "webconf", "webconf:www2026-main-research-track---rfp")}
    recs = by_key(out.records)
    assert list(recs) == ["rfp0110", "rfp0366", "rfp0434", "rfp0730", "rfp4488"]
    assert [a.name for a in recs["rfp0110"].authors] == ["Akhil Jalan", "Marios Papachristou"]
    broken_in_name = recs["rfp0366"]                 # "Zhangang\nLin" is one name
    assert [a.name for a in broken_in_name.authors] == ["Jiale Han", "Chun Gan", "Chengcheng Zhang", "Jie He",
                                                        "Zhangang Lin", "Ching Law", "Xiaowu Dai"]
    assert broken_in_name.authors[4].key == "zhangang-lin"
    broken_after_comma = recs["rfp0730"]
    assert [a.name for a in broken_after_comma.authors][4:] == ["Anran Li", "Shaojie Tang", "Changjie Fan",
                                                                 "Xiang-Yang Li"]
    assert people(recs["rfp0434"]) == [("Yotam Gafni", None)]
    assert broken_in_name.primary_area == "Economics, Online Markets and Human Computation"
    assert recs["rfp4488"].primary_area == "Social Networks and Social Media"
    assert recs["rfp4488"].title.startswith("LLMs Killed Q&A Stars?")
    assert all(r.extra == {} and r.biblio == {} for r in out.records)


def test_short_papers_affiliations_and_withdrawn() -> None:
    out = parse(WC / "www2026-short-papers.csv")
    assert out.skipped == [] and {(r.venue, r.track) for r in out.records} == {("www", "short")}
    recs = by_key(out.records)
    # a comma inside the affiliation
    assert people(recs["srp035"])[0] == ("Siwei Qiang", "MYBank, Ant Group")
    assert people(recs["srp035"])[3] == ("Mengyao Sun", "Beijing Jiaotong University")
    assert people(recs["srp640"])[2] == ("Yuriy Dorn",
                                         "AI Center & IAI MSU, Lomonosov Moscow State University")
    assert people(recs["srp640"])[1] == ("Alexander D'yakonov", "VK AI")
    withdrawn = recs["srp163"]
    assert withdrawn.status == "withdrawn"
    assert withdrawn.title == "Exploring Latent Preference with Interest-Guided Collaborative Expansion " \
                              "for Multimodal Recommendation"
    assert withdrawn.extra["status_raw"] == "WITHDRAWN 1/29/26, email from chairs"
    assert withdrawn.extra["title_raw"].startswith("WITHDRAWN 1/29/26, email from chairs -- Exploring")
    assert recs["srp003"].status == "accepted" and recs["srp003"].extra == {}


def test_industry_placeholders_and_joined_affiliations() -> None:
    out = parse(WC / "www2026-industry.csv")
    assert out.skipped == [] and [r.key for r in out.records] == ["ind0019", "ind0051", "ind0154"]
    recs = by_key(out.records)
    assert {r.track for r in out.records} == {"industry"}
    assert people(recs["ind0051"])[:3] == [
        ("Jiazheng Kang", "Beijing University of Posts and Telecommunications"),  # written twice in the cell
        ("Le Huang", "Beijing University of Posts and Telecommunications"),
        ("Cheng Hou", None)]                                                  # "Researcher" is no affiliation
    assert people(recs["ind0154"])[0] == ("Jianhui Yang",
                                          "Tsinghua University,Taobao & Tmall Group of Alibaba")
    assert len(recs["ind0019"].authors) == 7


def test_web4good_titles_keep_their_parentheses_and_quotes() -> None:
    recs = by_key(parse(WC / "www2026-web4good.csv").records)
    assert (recs["web1102"].title.startswith("(Mis-)Informed Consent:")
            and "title_raw" not in recs["web1102"].extra)
    assert recs["web1398"].title.startswith("'They've Stolen My GPL-Licensed Model!':")
    assert (recs["web0019"].title
            == "The Chatbot Knows It’s You: Dialogue Attribution in Unauthenticated Human–LLM Sessions")
    assert {r.track for r in recs.values()} == {"web4good"}


def entry(line: int, ident: str, workshop: str) -> str:
    return f"line {line}: the entry of workshop {workshop!r} ({ident}), not a paper"


def test_workshop_entries_name_their_papers() -> None:
    out = parse(WORKSHOPS)
    assert out.skipped == [
        entry(1, "wk0000i", "Workshops at the ACM Web Conference 2026"),
        entry(2, "wk0100i", "1st Workshop on Applied AI and Multimodal Visualization Technologies"),
        entry(5, "wk0200i", "AiOfAi: 4th Workshop on Adverse Impacts and Collateral Effects of Artificial "
                            "Intelligence Technologies"),
        "line 9: lists the same paper as an earlier record (kept the first)",             # wk0295s = wk0295
        entry(10, "wk0500", "DHOW-MiLLA: Joint Workshop on Diffusion of Harmful Content on Online Web and "
                            "Countering Misinformation in the Age of LLMs and Agents"),
        "line 13: repeats an earlier record (wk0654s)",
        entry(14, "wk1700", "Trustworthy Foundation Models for Web Intelligence: Causal Perspectives and "
                            "Challenges"),
        entry(18, "wk1900", "International Workshop on Trustworthy Multimodal Learning for Social Media "
                            "Analysis"),
    ]
    recs = by_key(out.records)
    assert list(recs) == ["wk0104", "wk0169", "wk0201", "wk0202s", "wk0295", "wk0541", "wk0654s", "wk1706",
                          "wk1707", "wk1714s", "wk1928"]
    assert {(r.venue, r.year, r.track) for r in recs.values()} == {("wwww", 2026, "workshop")}
    first = recs["wk0104"]
    assert first.extra == {"workshop": "1st Workshop on Applied AI and Multimodal Visualization Technologies"}
    assert first.biblio == {"booktitle": first.extra["workshop"]}
    assert people(first)[0] == ("Kushal Pokhrel",
                                "Business Information Systems, Australian Institute of Higher Education")
    assert recs["wk0202s"].extra["id_suffix"] == "s"
    assert recs["wk0202s"].extra["workshop"].startswith("AiOfAi: 4th Workshop")
    assert recs["wk0541"].extra["workshop"].startswith("DHOW-MiLLA")            # an entry without the "i"
    assert [a.name for a in recs["wk0295"].authors] == ["Jyotibha R Chinchankar", "Gautham P Kini",
                                                        "Rakshitha M M", "Shreya Rao", "Niranjan J H"]
    assert all(a.affiliation is None for a in recs["wk0295"].authors)
    withdrawn = recs["wk1706"]
    assert withdrawn.status == "withdrawn" and withdrawn.title.startswith("UniLGT: A Unified Low-Label")
    assert people(withdrawn) == [("Jingyu He", None)]                                 # "Need Affiliation"
    assert people(recs["wk1707"]) == [("Djallel Bouneffouf", None)]                   # "Affiliation Required"
    assert recs["wk1714s"].title.startswith("From Fiction to Referential Harm")       # "(wk-s)" dropped
    assert recs["wk1714s"].extra["title_raw"].startswith("(wk-s)From Fiction")
    tagged = recs["wk1928"]
    assert tagged.title.startswith("Sparse Causal Latent Features") and tagged.status == "accepted"
    assert (tagged.extra["workshop"]
            == "International Workshop on Trustworthy Multimodal Learning for Social Media Analysis")


def test_phd_symposium_students_and_supervisors() -> None:
    out = parse(WC / "www2026-phd-symposium.csv")
    assert out.skipped == [] and len(out.records) == 3
    assert {(r.venue, r.track, r.status) for r in out.records} == {("www", "phd-symposium", "accepted")}
    gan, zid, shen = out.records
    assert gan.key == "t:towardsconversationaldatasetdiscoveryontheweb"
    assert people(gan) == [("Lisa-Yao Gan", "Technical University of Munich")]
    assert gan.extra == {"supervisors": ["Klaus Diepold", "Elena Simperl"]}
    assert people(zid) == [("Čeněk Žid", "Czech Technical University in Prague")]
    assert zid.extra["supervisors"] == ["Pavel Kordík", "Rodrigo Alves"]
    assert people(shen) == [("An Ning Shen",
                             "School of Electronics and Computer Science, University of Southampton")]


def test_sniff_claims_the_fixtures_and_gzipped_copies(tmp_path: Path) -> None:
    reader = WebconfReader()
    for path in sorted(WC.glob("*.csv")):
        src = load_path(path)
        assert reader.sniff(src) and detect(src).name == "webconf", path.name
        assert reader.file_key(src) == f"webconf:{path.stem}"
        gz = copy(tmp_path, path.name + ".gz", gzip.compress(path.read_bytes()))
        assert reader.sniff(load_path(gz)) and reader.file_key(load_path(gz)) == f"webconf:{path.stem}"
        assert len(parse(gz).records) == len(parse(path).records)


@pytest.mark.parametrize("name, text", [
    ("industry.csv", "id ,Title,Authors\r\nind1,A title,A B:X\r\n"),           # no www<year>- in the name
    ("www-industry.csv", "id ,Title,Authors\r\nind1,A title,A B:X\r\n"),
    ("www2026-industry.json", "id ,Title,Authors\r\nind1,A title,A B:X\r\n"),  # not a .csv
    ("www2026-industry.csv", "Title,Authors,Decision\r\nA title,A B,Accept\r\n"),
    ("www2026-industry.csv", "paper1,A title,A B:X\r\n"),                       # not a workshop id
    ("www2026-industry.csv", ""),
    ("www2026-industry.csv", b"\xff\xfe\x00\x01"),
])
def test_sniff_refuses_other_files(tmp_path: Path, name: str, text: str | bytes) -> None:
    assert not WebconfReader().sniff(load_path(copy(tmp_path, name, text)))


def test_sniff_claims_nothing_of_the_other_fixtures() -> None:
    reader = WebconfReader()
    others = [p for name, p in expand(str(FIXTURES)) if p is not None and p.parent != WC]
    assert others and not [p for p in others if reader.sniff(load_path(p))]


@pytest.mark.parametrize("name, data, message", [
    ("www2026-industry.csv", b"id ,Title,Authors\r\nind1,Caf\xe9,A B:X\r\n", "not UTF-8 text (byte 27)"),
    ("www2026-industry.csv", b"", "the file is empty"),
    ("www2026-phd-symposium.csv", b",,,\r\n,,,\r\n", "the file is empty"),
    ("www2026-industry.csv", b'{"papers": []}',
     "not a Web Conference list: the first row is '{\"papers\": []}'"),
    ("www2026-industry.csv", b"Title,Authors\r\nA,B\r\n",
     "not a Web Conference list: the first row is 'Title,Authors'"),
    ("www2026-industry.csv", b"id ,Title,Authors\r\nind1,A title\r\nind2,Another\r\n",
     "no row has the 3 columns of the header"),
    ("www2026-industry.csv", b"id ,Title,Authors\r\nind1,A title," + b"x" * 200_000 + b"\r\n",
     "not valid CSV at line 2: field larger than field limit (131072)"),
    ("industry.csv", b"id ,Title,Authors\r\nind1,A title,A B:X\r\n",
     "file name 'industry.csv' has no year (expected www<year>-<track>.csv, e.g. www2026-industry.csv)"),
    ("www2026-industry.csv.gz", gzip.compress(b"id ,Title,Authors\r\n" * 50)[:-12],
     "truncated or corrupt gzip data"),
])
def test_broken_files_raise_one_line_errors(tmp_path: Path, name: str, data: bytes, message: str) -> None:
    with pytest.raises(SourceError) as e:
        WebconfReader().parse(load_path(copy(tmp_path, name, data)))
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_bad_rows_are_skipped_with_their_line(tmp_path: Path) -> None:
    lines = RESEARCH.read_bytes().decode("utf-8").split("\r\n")
    broken = "\r\n".join([*lines[:2],
                          'rfp9001,Security and Privacy,"",Ann Lee and Bo Li',      # no title
                          "rfp9002,Security and Privacy,A Title Without Authors,",    # no authors
                          "rfp9003,Security and Privacy,Too Few Cells",
                          "", ",,,",                                                # blank rows are not rows
                          *lines[2:]])
    out = WebconfReader().parse(load_path(copy(tmp_path, RESEARCH.name, broken)))
    assert out.skipped == ["line 3: record has no title", "line 4: row has no authors",
                           "line 5: expected 4 columns, found 3"]
    assert [r.key for r in out.records] == ["rfp0110", "rfp0366", "rfp0434", "rfp0730", "rfp4488"]


def test_workshop_paper_without_an_entry_and_extra_columns(tmp_path: Path) -> None:
    text = WORKSHOPS.read_bytes().decode("utf-8").split("\r\n")
    orphan = copy(tmp_path, WORKSHOPS.name, "\r\n".join(text[2:4]))      # wk0104, wk0169 without wk0100i
    recs = WebconfReader().parse(load_path(orphan)).records
    assert ([r.key for r in recs] == ["wk0104", "wk0169"]
            and all(r.extra == {} and r.biblio == {} for r in recs))
    wider = copy(tmp_path, "www2026-demo.csv",
                 "id ,Title,Authors,Session\r\nd1,A Demo Paper,Ann Lee:Acme,Hall 3\r\n")
    (rec,) = WebconfReader().parse(load_path(wider)).records
    assert rec.track == "demo" and rec.extra == {"session": "Hall 3"} and people(rec) == [("Ann Lee", "Acme")]
    with_header = copy(tmp_path, WORKSHOPS.name, "id ,Title,Authors\r\n" + "\r\n".join(text[1:4]))
    out = WebconfReader().parse(load_path(with_header))          # a header does not make entries papers
    assert ([r.key for r in out.records] == ["wk0104", "wk0169"]
            and out.skipped[0].startswith("line 2: the entry"))
    assert {r.venue for r in out.records} == {"wwww"}


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(WC.glob("*.csv"))), st.integers(0, 3000), st.binary(max_size=12))
def test_hostile_bytes_never_raise_anything_but_source_error(path: Path, at: int, junk: bytes) -> None:
    data = path.read_bytes()
    data = data[:at] + junk + data[at + len(junk):]
    src = SourceFile(path.name, path.name, data, "x")
    reader = WebconfReader()
    reader.sniff(src)
    try:
        out = reader.parse(src)
    except SourceError as e:
        assert "\n" not in str(e)
    else:
        assert all(r.title and r.authors for r in out.records)


# --- the real files ---------------------------------------------------------------------------

REAL_COUNTS = {"main-research-track---rfp": 676, "short-papers": 124, "industry": 57, "web4good": 95,
               "workshops-papers": 194, "phd-symposium": 9}


@pytest.mark.corpus
def test_real_files_parse_with_their_counts() -> None:
    root = shared_data("www2026")
    parsed = {}
    for path in sorted(root.iterdir()):
        src = load_path(path)
        assert detect(src).name == "webconf", path.name
        parsed[src.stem.removeprefix("www2026-")] = WebconfReader().parse(src)
    assert {k: len(p.records) for k, p in parsed.items()} == REAL_COUNTS
    for key, p in parsed.items():
        if key != "workshops-papers":
            assert p.skipped == [], key
    skipped = parsed["workshops-papers"].skipped
    entries = [s for s in skipped if "the entry of workshop" in s]
    assert len(entries) == 22 and sorted(set(skipped) - set(entries)) == [
        "line 15: lists the same paper as an earlier record (kept the first)",     # wk0295s repeats wk0295
        "line 52: repeats an earlier record (wk0654s)",
        "line 66: repeats an earlier record (wk0954s)"]
    workshops = parsed["workshops-papers"].records
    assert all(r.venue == "wwww" and r.extra.get("workshop") == r.biblio.get("booktitle") for r in workshops)
    assert len({r.extra["workshop"] for r in workshops}) == 20    # 22 entries: wk0000i and FIIR have none
    statuses = Counter(r.status for p in parsed.values() for r in p.records)
    assert statuses == {"accepted": 1152, "withdrawn": 3}
    research = parsed["main-research-track---rfp"].records
    assert (len({r.primary_area for r in research}) == 10
            and all(r.authors and r.primary_area for r in research))
    assert sum(len(r.authors) for r in research) == 4043
    assert not any("\n" in a.name or ":" in a.name
                   for p in parsed.values() for r in p.records for a in r.authors)


@pytest.mark.corpus
def test_no_other_corpus_file_is_claimed() -> None:
    root = shared_data()
    reader = READERS["webconf"]
    claimed = [name for name, path in expand(str(root))
               if path is not None and path.parent.name != "www2026" and reader.sniff(load_path(path))]
    assert claimed == []
