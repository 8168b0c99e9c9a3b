"""The ai-top-conf-jsons reader (titles, links and tracks of proceedings lists) and the ICML 2026
categories and institutions (annotations by OpenReview id), on real rows copied from the shared
files (tests/fixtures/aitopconf, tests/fixtures/merge/orgroups), plus broken copies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperlist.models import Record
from paperlist.sources import READERS, SourceError, detect, load_path
from paperlist.sources.aitopconf import GluedNames

from .conftest import FIXTURES, shared_data

ATC = FIXTURES / "aitopconf"
GROUPS = FIXTURES / "merge" / "orgroups" / "icml2026"


def parse(path: Path) -> tuple[list[Record], list[str]]:
    src = load_path(path)
    reader = detect(src)
    assert reader.name == path.parent.parent.name.lower() or reader.name in ("aitopconf", "orgroups")
    p = reader.parse(src)
    return p.records, p.skipped


def by_key(recs: list[Record], key: str) -> Record:
    return next(r for r in recs if r.key == key)


def test_acl_front_matter_is_skipped_and_ids_come_from_the_anthology_link() -> None:
    recs, skipped = parse(ATC / "ACL" / "acl_2023.json")
    assert skipped == ["record 0: front matter of a volume, not a paper",
                       "record 4: front matter of a volume, not a paper"]
    r = by_key(recs, "2023.acl-long.48")
    assert (r.venue, r.year, r.track, r.status, r.authors) == ("acl", 2023, "long", "accepted", [])
    assert r.ids == {"acl": "2023.acl-long.48"}
    assert r.links == {"site": "https://aclanthology.org/2023.acl-long.48/"}
    assert r.file == "aitopconf:acl_2023"


def test_glued_first_names_are_cut_where_the_scraper_left_its_sign() -> None:
    recs, _ = parse(ATC / "ACL" / "acl_2023.json")
    titles = {r.key: r.title for r in recs}
    assert titles["2023.acl-long.48"] == "Multi-CLS BERT: An Efficient Alternative to Traditional Ensembling"
    assert titles["2023.acl-long.59"] == "Being Right for Whose Right Reasons?"
    assert titles["2023.acl-long.102"] == "Few-shot Adaptation Works with UnpredicTable Data"
    assert by_key(recs, "2023.acl-long.48").extra["title_raw"].endswith("EnsemblingHaw-")
    # real CamelCase at the end of a title is kept
    assert titles["2023.acl-long.1"].endswith("Task-oriented Dialogue Systems")
    assert any(t.endswith("Events extrAcTion") for t in titles.values())


@pytest.mark.parametrize(("title", "others", "expected"), [
    # the trailing sign (space, hyphen, parenthesis) confirms the glued name
    ("Reward Gaming in Conditional Text GenerationRichard ", [],
     "Reward Gaming in Conditional Text Generation"),
    ("Towards Tool Use Alignment of Large Language ModelsZhi-", [],
     "Towards Tool Use Alignment of Large Language Models"),
    ("Classist Tools: Social Class Correlates with Performance in NLPAmanda ", [],
     "Classist Tools: Social Class Correlates with Performance in NLP"),
    ("Python Code Generation by Asking Clarification QuestionsHaau-Sing (", [],
     "Python Code Generation by Asking Clarification Questions"),
    ("Multilingual Language Models Encode Script Over Linguistic StructureAastha A ", [],
     "Multilingual Language Models Encode Script Over Linguistic Structure"),
    ("Vicinal Risk Minimization for Abusive Language DetectionGretel De la ", [],
     "Vicinal Risk Minimization for Abusive Language Detection"),
    ("REDFM: a Filtered and Multilingual Relation Extraction Dataset\u202aPere-Lluís ", [],
     "REDFM: a Filtered and Multilingual Relation Extraction Dataset"),
    # a truncated title with a trailing space has nothing glued: left alone
    ("BiasWipe: Mitigating Unintended Bias in Text Classifiers through ", [],
     "BiasWipe: Mitigating Unintended Bias in Text Classifiers through "),
    # without the sign: a one-syllable given name glued to a word other titles use
    ("ERNIE-Doc: A Retrospective Long-Document Modeling TransformerSi", ["A Transformer for Parsing"],
     "ERNIE-Doc: A Retrospective Long-Document Modeling Transformer"),
    ("Knowledge Graph Compression Enhances Diverse Commonsense GenerationEun", ["Question Generation"],
     "Knowledge Graph Compression Enhances Diverse Commonsense Generation"),
    # ... but never an English word, a name another title uses as a word, or an unknown stem
    ("Dependency Parsing Using Code-Mixed TreeBank", ["A Tree for Parsing"],
     "Dependency Parsing Using Code-Mixed TreeBank"),
    ("Enhanced Decoding in LLM for NameGuess", ["A Name for All"], "Enhanced Decoding in LLM for NameGuess"),
    ("Lexical Semantics with WordNet", ["Word Embeddings"], "Lexical Semantics with WordNet"),
    ("A Study of Homonymy and Synonymy", ["Synonym Detection"], "A Study of Homonymy and Synonymy"),
    ("Cross-lingual Transfer for TransformerSi", ["Si and Hu", "A Transformer"],
     "Cross-lingual Transfer for TransformerSi"),
    ("Modeling TransformerSi", [], "Modeling TransformerSi"),
])
def test_glued_name_repair(title: str, others: list[str], expected: str) -> None:
    assert GluedNames([title, *others]).strip(title) == expected


def test_old_style_anthology_ids_and_their_tracks() -> None:
    recs, skipped = parse(ATC / "ACL" / "acl_2016.json")
    assert skipped == ["record 0: front matter of a volume, not a paper"]             # P16-1000
    assert [(r.key, r.track) for r in recs] == [("P16-1001", "long"), ("P16-2001", "short")]


def test_a_relative_anthology_link_is_resolved() -> None:
    recs, _ = parse(ATC / "EMNLP" / "emnlp_2022.json")
    r = by_key(recs, "2022.emnlp-main.804")
    assert r.links["site"] == "https://aclanthology.org/2022.emnlp-main.804/" and r.track == "main"


def test_aaai_tracks_areas_and_retractions() -> None:
    recs, _ = parse(ATC / "AAAI" / "aaai_2021.json")
    retracted = next(r for r in recs if "retracted" in r.extra)
    assert not retracted.title.startswith("RETRACTED") and retracted.title[0].isupper()
    main = recs[-1]
    assert (main.track, main.primary_area) == ("main", "Application Domains")
    assert retracted.primary_area == "Speech and Natural Language Processing"      # "… III" dropped
    assert all(r.links["site"].startswith("https://ojs.aaai.org/") and r.key == r.links["site"] for r in recs)
    older, _ = parse(ATC / "AAAI" / "aaai_2019.json")
    assert [(r.track, r.primary_area) for r in older][0] == ("student-abstract-track", None)


def test_ijcai_main_track_area_and_special_tracks() -> None:
    recs, _ = parse(ATC / "IJCAI" / "ijcai_2025.json")
    assert (recs[0].track, recs[0].primary_area) == ("main", "Agent-based and Multi-agent Systems")
    assert [r.track for r in recs[2:]] == ["survey", "ai-and-social-good"]
    assert recs[0].key == "https://www.ijcai.org/proceedings/2025/1"


def test_primary_areas_and_datasets_track_of_the_ml_conferences() -> None:
    recs, _ = parse(ATC / "NeurIPS" / "neurips_2025.json")
    assert [r.track for r in recs] == ["main", "main", "datasets-and-benchmarks"]
    assert recs[0].primary_area and recs[0].primary_area.startswith("Machine Learning for Sciences")
    icml, _ = parse(ATC / "ICML" / "icml_2026.json")
    r = icml[0]
    assert (r.venue, r.year, r.key, r.ids) == ("icml", 2026, "BZfkxSasd3", {"openreview": "BZfkxSasd3"})
    assert r.primary_area == "Deep Learning" and r.keywords == ["Selfsupervised Learning"]
    assert icml[-1].keywords == []                       # an empty subtrack is no keyword


def test_journals_get_their_doi_and_journal_name() -> None:
    recs, _ = parse(ATC / "TPAMI" / "tpami_2025.json")
    r = recs[0]
    assert r.venue == "tpami" and r.track == "journal" and r.ids["doi"].startswith("10.1109/tpami.")
    assert r.biblio == {"entrytype": "article",
                        "journal": "IEEE Transactions on Pattern Analysis and Machine Intelligence"}
    assert r.key == r.ids["doi"]


def test_cvf_pages_stay_links() -> None:
    recs, _ = parse(ATC / "CVPR" / "cvpr_2026.json")
    assert recs[0].links["site"].startswith("https://openaccess.thecvf.com/content/CVPR2026/html/")
    assert recs[0].ids == {} and recs[0].key == recs[0].links["site"]


def test_broken_files_fail_in_one_line(tmp_path: Path) -> None:
    reader = READERS["aitopconf"]
    bad = tmp_path / "icml_2026.json"
    bad.write_text('[{"title": "A", "url": "https://x"}, ')
    with pytest.raises(SourceError, match="^not valid JSON"):
        reader.parse(load_path(bad))
    obj = tmp_path / "icml_2025.json"
    obj.write_text('{"title": "A", "url": "u"}')
    with pytest.raises(SourceError, match="expected a JSON list"):
        reader.parse(load_path(obj))
    noyear = tmp_path / "icml.json"
    noyear.write_text('[{"title": "A", "url": "https://x.org/a"}]')
    with pytest.raises(SourceError, match="has no year"):
        reader.parse(load_path(noyear))


def test_odd_records_are_skipped_with_their_reason(tmp_path: Path) -> None:
    f = tmp_path / "cvpr_2026.json"
    f.write_text(json.dumps([
        {"title": "A Good Paper on Vision", "url": "https://openaccess.thecvf.com/content/CVPR2026/html/A_CVPR_2026_paper.html"},
        {"title": "", "url": "https://x.org/b"}, {"title": 5}, "a string", {"title": "T", "track": ["x"]},
        {"title": "Javascript Link", "url": "javascript:alert(1)"}]))
    p = READERS["aitopconf"].parse(load_path(f))
    assert [r.title for r in p.records] == ["A Good Paper on Vision", "Javascript Link"]
    assert p.records[1].links == {}                      # never a javascript: link
    assert p.skipped == ["record 1: record has no title", "record 2: record has no title",
                         "record 3: expected an object", "record 4: 'track' should be text"]


def test_sniff_claims_its_lists_and_nothing_else(tmp_path: Path) -> None:
    reader = READERS["aitopconf"]
    assert all(reader.sniff(load_path(p)) for p in ATC.rglob("*.json"))
    pc = FIXTURES / "papercopilot" / "nips" / "nips2018.json"
    assert not reader.sniff(load_path(pc)) and detect(load_path(pc)).name == "papercopilot"
    assert not reader.sniff(load_path(GROUPS / "categories.json"))


def test_categories_and_institutions_are_annotations_by_openreview_id() -> None:
    cats, skipped = parse(GROUPS / "categories.json")
    assert skipped == [] and all(r.annotation and r.title == "" and r.file == "orgroups:icml2026-categories"
                                 for r in cats)
    r = by_key(cats, "BZfkxSasd3")
    assert r.ids == {"openreview": "BZfkxSasd3"} and (r.venue, r.year) == ("icml", 2026)
    assert r.keywords and all(k.isascii() for k in r.keywords)          # English, for search and topics
    assert r.extra["categories_zh"] and not r.extra["categories_zh"][0].isascii()
    orgs, _ = parse(GROUPS / "orgs.json")
    o = by_key(orgs, "BZfkxSasd3")
    assert o.institutions and o.institutions[0] == o.extra.get("lead_institution", o.institutions[0])


def test_groups_outside_a_venue_year_folder_fail(tmp_path: Path) -> None:
    f = tmp_path / "categories.json"
    f.write_bytes((GROUPS / "categories.json").read_bytes())
    with pytest.raises(SourceError, match="venue and year"):
        READERS["orgroups"].parse(load_path(f))


@pytest.mark.corpus
def test_every_real_list_parses_with_only_front_matter_skipped() -> None:
    root = shared_data() / "ai-top-conf-jsons"
    reader = READERS["aitopconf"]
    total, skipped = 0, []
    for path in sorted(root.rglob("*.json.gz")):
        src = load_path(path)
        assert reader.sniff(src), path
        p = reader.parse(src)
        total += len(p.records)
        skipped += [f"{path.name} {m}" for m in p.skipped if "front matter" not in m]
    manifest = json.loads((root / "MANIFEST.json").read_text())
    listed = sum(f["records"] for f in manifest["files"])
    # the lists that name a paper twice (the same title in the same track): kept once
    assert len(skipped) == 5 and all("again in the same track" in m or "repeats an earlier" in m
                                     for m in skipped)
    assert listed - 40 <= total < listed                 # every volume's front matter, nothing else


def test_a_title_listed_twice_in_one_track_is_one_paper(tmp_path: Path) -> None:
    """IJCAI 2020 lists #215 and #216 with one title in one track: one paper. AAAI 2017 lists a
    paper and its student abstract under one title: two publications, kept apart."""
    f = tmp_path / "aaai_2017.json"
    page = "https://ojs.aaai.org/index.php/AAAI/article/view/"
    f.write_text(json.dumps([
        {"title": "Grounded Action Transformation for Robot Learning in Simulation", "url": page + "11044",
         "track": "AAAI Technical Track: Robotics"},
        {"title": "Grounded Action Transformation for Robot Learning in Simulation", "url": page + "11124",
         "track": "Student Abstract Track"},
        {"title": "Grounded action transformation for robot learning in simulation", "url": page + "11125",
         "track": "Student Abstract Track"}]))
    p = READERS["aitopconf"].parse(load_path(f))
    assert [r.track for r in p.records] == ["main", "student-abstract-track"]
    assert p.skipped == ["record 2: lists the same title again in the same track (kept the first)"]
