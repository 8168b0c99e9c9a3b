"""The papercopilot reader: every field variant found in the real files, on small fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperlist.models import Record
from paperlist.sources import SourceError, detect, load_path
from paperlist.sources.papercopilot import PapercopilotReader

from .conftest import PAPERCOPILOT


def parse(rel: str) -> tuple[list[Record], list[str]]:
    src = load_path(PAPERCOPILOT / rel)
    reader = detect(src)
    assert reader.name == "papercopilot"
    p = reader.parse(src)
    return p.records, p.skipped


def by_title(recs: list[Record], title: str) -> Record:
    return next(r for r in recs if r.title == title)


def test_semicolon_authors_display_title_links_and_extra() -> None:
    recs, skipped = parse("nips/nips2018.json")
    assert skipped == []
    r = by_title(recs, r"$\ell_1$-regression with Heavy-tailed Distributions")
    assert r.venue == "neurips" and r.year == 2018 and r.key == "11127" and r.file == "papercopilot:nips2018"
    assert [a.name for a in r.authors] == ["Lijun Zhang", "Zhi-Hua Zhou"]
    assert [a.key for a in r.authors] == ["lijun-zhang", "zhihua-zhou"]
    assert [a.affiliation for a in r.authors] == ["Nanjing University", "Nanjing University"]
    assert r.status == "poster" and r.track == "main" and r.citations == 36
    assert r.links["site"] == "https://nips.cc/virtual/2018/poster/11127"
    # relative -> absolute
    assert r.links["poster"] == "https://neurips.cc/media/PosterPDFs/NeurIPS%202018/11127.png"
    assert "supplementary" not in r.links                                       # "" is no link
    assert r.bibtex and r.bibtex.startswith("@inproceedings{NEURIPS2018_8b16ebc0")
    assert r.extra["pdf_size"] == 358099 and r.extra["author_site"] == "Lijun Zhang, Zhi-Hua Zhou"
    assert "metareview" not in r.extra                                          # empty values dropped


def test_entities_comma_names_unknown_citations_and_unsafe_links() -> None:
    recs, _ = parse("nips/nips2018.json")
    r = by_title(recs, "Learning with D'Oro & Friends")
    assert [a.name for a in r.authors] == ["Pierluca D'Oro", "Zhi-Hua Zhou", "Jérémy Scheurer"]
    assert r.authors[1].key == "zhihua-zhou"
    assert r.citations is None                          # -1 means unknown, not -1 citations
    assert r.abstract is None
    assert r.status == "oral"
    assert r.links["code"] == "https://github.com/example/doro"
    assert "project" not in r.links                     # javascript: is never a link
    empty = by_title(recs, "A Paper Without Authors")
    assert empty.authors == [] and empty.citations == 12 and empty.status == "spotlight"


def test_comma_separated_authors_arxiv_and_no_ids() -> None:
    recs, _ = parse("cvpr/cvpr2023.json")
    r = recs[0]
    assert [a.name for a in r.authors] == ["Yuxi Xiao", "Nan Xue", "Tianfu Wu", "Gui-Song Xia"]
    assert r.ids == {"arxiv": "2211.12018"}
    assert r.links["arxiv"] == "https://arxiv.org/abs/2211.12018"
    assert r.links["video"] == "https://youtu.be/yK8nt--Nl64"
    assert r.key.startswith("t:")                       # no id in the file: keyed by title
    second = recs[1]
    assert ([a.name for a in second.authors] == ["Lijun Zhang", "Moreno D'Incà"]
            and second.status == "highlight")


@pytest.mark.parametrize("title, status", [
    ("Controllable Concept Transfer of Intermediate Representations", "withdrawn"),
    ("A Notable Paper", "oral"),            # ICLR "Top-5%"
    ("A Spotlight Paper", "spotlight"),     # ICLR "Top-25%"
    ("A Rejected Paper", "rejected"),
    ("A Desk Rejected Paper", "desk-rejected"),
])
def test_iclr_statuses_and_openreview_ids(title: str, status: str) -> None:
    recs, _ = parse("iclr/iclr2023.json")
    r = by_title(recs, title)
    assert r.status == status
    assert r.ids["openreview"] == r.key
    assert r.links["openreview"] == f"https://openreview.net/forum?id={r.key}"


def test_authors_field_keywords_and_primary_area() -> None:
    recs, _ = parse("iclr/iclr2023.json")
    w = by_title(recs, "Controllable Concept Transfer of Intermediate Representations")
    assert (w.authors == []
            and w.keywords == ["concept transfer", "transfer learning"])   # case-insensitive dedupe
    assert w.extra["status_raw"] == "Withdraw" and "rating" not in w.extra      # modelled now:
    assert w.review is not None and w.review.ratings == [3, 3, 5, 5] and w.review.mean == 4.0
    n = by_title(recs, "A Notable Paper")
    assert [a.name for a in n.authors] == ["Ada Lovelace", "Alan Turing"] and n.primary_area == "optimization"


def test_acl_tracks_findings_and_ids() -> None:
    recs, _ = parse("acl/acl2022.json")
    main, findings = recs
    assert main.venue == "acl" and main.track == "long" and main.status == "accepted"
    assert main.ids == {"acl": "2022.acl-long.39"} and main.award is None
    assert findings.venue == "findings-acl" and findings.track == "long" and findings.award == "award"


def test_empty_status_and_affs() -> None:
    (r,), _ = parse("kdd/kdd2024.json")
    assert r.status is None and r.extra["session"] == "Deep Learning II"
    assert [a.affiliation for a in r.authors] == ["Georgia Institute of Technology", "Google Deepmind"]


def test_duplicates_and_untitled_records_are_skipped_with_their_index() -> None:
    recs, skipped = parse("siggraph/siggraph2025.json")
    assert len(recs) == 1
    assert recs[0].ids == {"doi": "10.1145/3658127"} and recs[0].keywords == ["Displays", "Optics"]
    assert skipped == ["record 1: repeats an earlier record (549a18ffaa)", "record 2: record has no title"]


def test_repeated_author_list_and_last_first_names() -> None:
    (r,), _ = parse("icra/icra2006.json")
    assert [a.name for a in r.authors] == ["S. Rodriguez", "Xinyu Tang", "Jyh-Ming Lien", "N.M. Amato"]


def test_unknown_venue_keeps_a_derived_key() -> None:
    (r,), _ = parse("misc/foobar2024.json")
    assert r.venue == "foobar" and r.year == 2024


def test_gzip_and_plain_json_give_the_same_records(tmp_path: Path) -> None:
    import gzip

    gz = tmp_path / "cvpr2023.json.gz"
    gz.write_bytes(gzip.compress((PAPERCOPILOT / "cvpr/cvpr2023.json").read_bytes()))
    src = load_path(gz)
    assert PapercopilotReader().file_key(src) == "papercopilot:cvpr2023"
    assert ([r.to_dict() for r in PapercopilotReader().parse(src).records]
            == [r.to_dict() for r in parse("cvpr/cvpr2023.json")[0]])


@pytest.mark.parametrize("name, content, message", [
    ("nips2020.json", b"{not json", "not valid JSON"),
    ("nips2020.json", b'{"title": "x"}', "expected a JSON list of papers, found an object"),
    ("nips.json", b'[{"title": "x"}]', "file name 'nips.json' has no year"),
])
def test_file_level_errors(tmp_path: Path, name: str, content: bytes, message: str) -> None:
    f = tmp_path / name
    f.write_bytes(content)
    with pytest.raises(SourceError, match=message):
        PapercopilotReader().parse(load_path(f))


@pytest.mark.parametrize("record, message", [
    ({"status": "Poster"}, "record 0: record has no title"),
    ({"title": 42}, "record 0: 'title' should be text, found a number"),
    ({"title": "T", "author": {"a": 1}},
     "record 0: 'author' should be text or a list of names, found an object"),
    ({"title": "T", "abstract": ["x"]}, "record 0: 'abstract' should be text, found a list"),
    ("just a string", "record 0: expected an object, found text"),
])
def test_record_level_problems_skip_the_record(tmp_path: Path, record: object, message: str) -> None:
    import json

    f = tmp_path / "nips2020.json"
    f.write_text(json.dumps([record, {"title": "Fine", "author": "A B"}]))
    p = PapercopilotReader().parse(load_path(f))
    assert p.skipped == [message]
    assert [r.title for r in p.records] == ["Fine"]
