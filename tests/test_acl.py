"""The ACL Anthology reader, on real papers copied from the Anthology's XML (tests/fixtures/acl)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from lxml import etree

from paperlist.models import Record
from paperlist.sources import READERS, SourceError, detect, load_path
from paperlist.sources.acl import inline
from paperlist.text import clean, plain

from .conftest import FIXTURES

ACL = FIXTURES / "acl"


def records(name: str) -> list[Record]:
    src = load_path(ACL / name)
    reader = detect(src)
    assert reader.name == "acl"
    parsed = reader.parse(src)
    assert parsed.skipped == []
    return parsed.records


def paper(aid: str) -> Record:
    collection = aid.split("-")[0]
    return next(r for r in records(f"{collection}.xml") if r.key == aid)


@pytest.mark.parametrize("aid, venue, track", [
    ("2022.acl-long.1", "acl", "long"),
    ("2022.acl-short.1", "acl", "short"),
    ("2022.acl-srw.1", "acl", "srw"),
    ("2022.acl-demo.1", "acl", "demo"),
    ("2022.acl-tutorials.1", "acl", "tutorial"),
    ("2022.coling-1.42", "coling", "main"),                 # numeric volume id
    ("2022.emnlp-main.804", "emnlp", "main"),
    ("2022.emnlp-demos.1", "emnlp", "demo"),
    ("2022.emnlp-tutorials.1", "emnlp", "tutorial"),
    ("2022.emnlp-industry.1", "emnlp", "industry"),
    ("2023.emnlp-tutorial.1", "emnlp", "tutorial"),
    ("2023.emnlp-demo.1", "emnlp", "demo"),
    ("2022.findings-aacl.1", "findings-aacl", "main"),
    ("2022.findings-naacl.1", "findings-naacl", "main"),
    ("2023.findings-acl.817", "findings-acl", "main"),
    ("2023.findings-emnlp.903", "findings-emnlp", "main"),
    ("2023.findings-eacl.1", "findings-eacl", "main"),
    ("2023.tacl-1.1", "tacl", "journal"),
    ("2024.lrec-main.1", "lrec-coling", "main"),
    ("2024.lrec-tutorials.1", "lrec-coling", "tutorial"),
])
def test_every_volume_kind_maps_to_venue_and_track(aid: str, venue: str, track: str) -> None:
    r = paper(aid)
    assert (r.venue, r.track, r.status, r.source) == (venue, track, "accepted", "acl")
    assert r.year == int(aid[:4]) and r.file == f"acl:{aid.split('-')[0]}"


@pytest.mark.parametrize("aid, field, display, plain_text", [
    ("2022.acl-long.247", "title",
     "Upstream Mitigation Is *Not* All You Need: Testing the Bias Transfer Hypothesis "
     "in Pre-Trained Language Models",
     "Upstream Mitigation Is Not All You Need: Testing the Bias Transfer Hypothesis "
     "in Pre-Trained Language Models"),
    ("2022.acl-long.112", "title",
     "Summ$^N$: A Multi-Stage Summarization Framework for Long Input Dialogues and Documents",
     "Summ^N: A Multi-Stage Summarization Framework for Long Input Dialogues and Documents"),
    ("2022.acl-long.1", "title",                               # <fixed-case> keeps its text
     "AdapLeR: Speeding up Inference by Adaptive Length Reduction",
     "AdapLeR: Speeding up Inference by Adaptive Length Reduction"),
])
def test_title_markup(aid: str, field: str, display: str, plain_text: str) -> None:
    value = getattr(paper(aid), field)
    assert value == display
    assert plain(value) == plain_text


@pytest.mark.parametrize("aid, display_part, plain_part", [
    ("2022.acl-long.10", "novel **D**ynamic **S**chema **G**raph **F**usion **Net**work (**DSGFNet**), which",
     "novel Dynamic Schema Graph Fusion Network (DSGFNet), which"),
    ("2022.acl-long.247", "We investigate the *bias transfer hypothesis*: the theory",
     "We investigate the bias transfer hypothesis: the theory"),
    ("2022.acl-long.88", "commonsense knowledge ($think$) and", "commonsense knowledge (think) and"),
    ("2022.acl-long.1", "freely available at https://github.com/amodaresi/AdapLeR.",     # <url> is plain text
     "freely available at https://github.com/amodaresi/AdapLeR."),
    ("2023.findings-emnlp.244", "framework called ***MixPi***, which",                   # <b><i>…</i></b>
     "framework called MixPi, which"),
    ("2023.findings-emnlp.903", "Classification Model (*k*NN-CM)—that",                  # intra-word emphasis
     "Classification Model (kNN-CM)—that"),
    ("2022.acl-long.196", "transfer: (1) *text knowledge transfer using image captions",  # <i> nested in <i>
     "transfer: (1) text knowledge transfer using image captions"),
])
def test_abstract_markup_display_and_plain(aid: str, display_part: str, plain_part: str) -> None:
    abstract = paper(aid).abstract
    assert abstract is not None
    assert display_part in abstract
    assert plain_part in plain(abstract)
    assert "*" not in plain(abstract) and "<" not in abstract


@pytest.mark.parametrize("xml, display", [
    ("<title>x<sup>2</sup> and H<sub>2</sub>O</title>", r"x$^{\text{2}}$ and H$_{\text{2}}$O"),
    ("<title>A <i> </i>gap</title>", "A gap"),                                 # empty emphasis vanishes
    ("<title>A <b>\n   bold </b> word</title>", "A **bold** word"),
    ("<title>T<tex-math/>x</title>", "Tx"),
])
def test_inline_conversion_edge_cases(xml: str, display: str) -> None:
    assert clean(inline(etree.fromstring(xml))) == display


def test_authors_orcid_affiliation_person_ids_and_missing_first_name() -> None:
    r = paper("2022.acl-long.21")
    assert [(a.name, a.orcid) for a in r.authors][:2] == [("Yuwei Zhang", "0000-0001-6910-8130"),
                                                          ("Haode Zhang", None)]
    assert r.authors[4].orcid == "0000-0002-6887-9301"
    mausam = paper("2023.emnlp-main.274").authors[-1]          # <author><last>Mausam</last></author>
    assert (mausam.name, mausam.key) == ("Mausam", "mausam")
    emnlp = paper("2022.emnlp-main.804")
    assert (emnlp.authors[0].name, emnlp.authors[0].affiliation) == ("Mikel Artetxe", "Meta AI")
    assert emnlp.authors[20].affiliation == "University of Washington; Meta"
    assert paper("2022.acl-long.88").extra["anthology_person_ids"] == {"Yang Liu": "yang-liu-icsi"}


def test_editors_are_not_authors_but_biblio() -> None:
    r = paper("2022.acl-long.1")
    assert [a.name for a in r.authors] == ["Ali Modarressi", "Hosein Mohebbi", "Mohammad Taher Pilehvar"]
    assert r.biblio == {
        "entrytype": "inproceedings", "bibkey": "modarressi-etal-2022-adapler",
        "booktitle": "Proceedings of the 60th Annual Meeting of the Association for Computational "
                     "Linguistics (Volume 1: Long Papers)",
        "editor": "Smaranda Muresan, Preslav Nakov, Aline Villavicencio",
        "publisher": "Association for Computational Linguistics", "address": "Dublin, Ireland",
        "month": "May", "pages": "1--15",
    }


def test_tacl_biblio_is_a_journal_article() -> None:
    r = paper("2023.tacl-1.1")
    assert r.biblio == {
        "entrytype": "article", "bibkey": "siriwardhana-etal-2023-improving",
        "journal": "Transactions of the Association for Computational Linguistics", "volume": "11",
        "publisher": "MIT Press", "address": "Cambridge, MA", "pages": "1--17",           # "1–17" in the XML
    }
    assert r.ids == {"acl": "2023.tacl-1.1", "doi": "10.1162/tacl_a_00530"}


def test_ids_and_links() -> None:
    r = paper("2022.acl-long.1")
    assert r.key == "2022.acl-long.1"
    assert r.ids == {"acl": "2022.acl-long.1", "doi": "10.18653/v1/2022.acl-long.1"}
    assert r.links == {
        "pdf": "https://aclanthology.org/2022.acl-long.1.pdf",
        "site": "https://aclanthology.org/2022.acl-long.1/",
        "video": "https://aclanthology.org/2022.acl-long.1.mp4",
        "supplementary": "https://aclanthology.org/attachments/2022.acl-long.1.software.zip",
        "doi": "https://doi.org/10.18653/v1/2022.acl-long.1",
    }
    assert r.extra["attachments"] == {"software": "https://aclanthology.org/attachments/2022.acl-long.1.software.zip"}
    assert paper("2023.findings-acl.817").links["code"] == "https://github.com/LWL-cpu/SCPRG-master"
    assert paper("2022.acl-long.21").extra["revisions"] == 2


def test_paper_without_url_gets_its_id_from_the_collection() -> None:
    r = paper("2022.emnlp-main.804")                   # this paper has no <url> in the Anthology XML
    assert r.key == r.ids["acl"] == "2022.emnlp-main.804"
    assert r.links["pdf"] == "https://aclanthology.org/2022.emnlp-main.804.pdf"


def test_award_retraction_and_missing_abstract() -> None:
    assert paper("2022.acl-long.110").award == "Outstanding Paper"
    assert paper("2022.acl-long.1").award is None
    retracted = paper("2022.coling-1.306")
    assert retracted.status == "accepted"
    assert retracted.extra["retracted"] == {"date": "2024-05-21",
                                            "note": "Retracted by the COLING 2022 PC chairs."}
    assert paper("2022.coling-1.42").abstract is None


def test_frontmatter_and_event_are_not_papers() -> None:
    recs = records("2022.acl.xml")
    assert len(recs) == 13 and not any(r.key.endswith(".0") for r in recs)


def _collection(tmp_path: Path, body: str, cid: str = "2023.repl4nlp") -> Path:
    p = tmp_path / f"{cid}.xml"
    p.write_text(f'<?xml version="1.0" encoding="UTF-8"?>\n<collection id="{cid}">{body}</collection>\n')
    return p


def test_workshop_and_unknown_volumes(tmp_path: Path) -> None:
    body = ('<volume id="1" type="proceedings"><meta><booktitle>Proceedings of the 8th Workshop on '
            'Representation Learning for NLP (RepL4NLP 2023)</booktitle><venue>repl4nlp</venue>'
            '<year>2023</year></meta>'
            '<paper id="1"><title>A Workshop Paper</title><author><first>A</first><last>Person</last>'
            '</author><url>2023.repl4nlp-1.1</url></paper></volume>')
    src = load_path(_collection(tmp_path, body))
    (r,) = READERS["acl"].parse(src).records
    assert (r.venue, r.track, r.year) == ("repl4nlp", "workshop", 2023)
    body = ('<volume id="findings-like"><meta><booktitle>Proceedings of Something New</booktitle></meta>'
            '<paper id="1"><title>A Paper</title></paper></volume>')
    (r,) = READERS["acl"].parse(load_path(_collection(tmp_path, body, "2023.acl"))).records
    assert (r.venue, r.track, r.key) == ("acl", "findings-like", "2023.acl-findings-like.1")


def test_untitled_paper_is_skipped_with_its_id(tmp_path: Path) -> None:
    body = ('<volume id="long"><meta><booktitle>B</booktitle></meta>'
            '<paper id="1"><title> </title><url>2023.acl-long.1</url></paper>'
            '<paper id="2"><title>Kept</title><url>2023.acl-long.2</url></paper></volume>')
    parsed = READERS["acl"].parse(load_path(_collection(tmp_path, body, "2023.acl")))
    assert [r.key for r in parsed.records] == ["2023.acl-long.2"]
    assert parsed.skipped == ["paper 2023.acl-long.1: record has no title"]


def test_broken_xml_is_a_file_error(tmp_path: Path) -> None:
    data = (ACL / "2022.coling.xml").read_bytes()
    p = tmp_path / "2022.coling.xml"
    p.write_bytes(data[: len(data) // 2])
    src = load_path(p)
    assert detect(src).name == "acl"
    with pytest.raises(SourceError) as e:
        detect(src).parse(src)
    assert str(e.value).startswith("not valid XML") and "\n" not in str(e.value)


def test_truncated_gzip_is_a_file_error(tmp_path: Path) -> None:
    raw = gzip.compress((ACL / "2022.coling.xml").read_bytes())
    p = tmp_path / "2022.coling.xml.gz"
    p.write_bytes(raw[: len(raw) // 2])
    with pytest.raises(SourceError, match="truncated or corrupt gzip data"):
        load_path(p)


def test_collection_without_volumes_is_a_file_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="has no <volume>"):
        READERS["acl"].parse(load_path(_collection(tmp_path, "", "2023.acl")))


def test_sniff_claims_only_anthology_xml(tmp_path: Path) -> None:
    acl = READERS["acl"]
    assert acl.sniff(load_path(ACL / "2023.tacl.xml"))
    for other in [*(FIXTURES / "papercopilot").rglob("*.json"), *(FIXTURES / "openreview").rglob("*.csv"),
                  *(FIXTURES / "openreview").rglob("*.json")]:
        assert not acl.sniff(load_path(other)), other
    rss = tmp_path / "feed.xml"
    rss.write_text('<?xml version="1.0"?><rss><channel><title>x</title></channel></rss>')
    assert not acl.sniff(load_path(rss))


def test_gzipped_collection_reads_like_the_plain_one(tmp_path: Path) -> None:
    p = tmp_path / "2022.coling.xml.gz"
    p.write_bytes(gzip.compress((ACL / "2022.coling.xml").read_bytes()))
    src = load_path(p)
    assert detect(src).name == "acl"
    plain = [(r.key, r.title, r.abstract) for r in records("2022.coling.xml")]
    assert [(r.key, r.title, r.abstract) for r in detect(src).parse(src).records] == plain and plain
