"""The real corpus in ../shared/data, all sources merged (skipped with a reason when absent)."""

from __future__ import annotations

import json
import zlib
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from paperlist.ingest import ingest
from paperlist.store import Store
from paperlist.text import title_key

from .conftest import shared_data

pytestmark = pytest.mark.corpus

# The only (title, venue family, year) shared by more than one paper, each checked by hand:
# different papers that really carry the same title.
TRUE_SAME_TITLE = {
    ("iclr:2018", "withdrawn"): "placeholder title of withdrawn submissions",
    ("iclr:2019", "na"): "placeholder title ('NA', 'N/A') of withdrawn submissions",
    ("iclr:2021", "blank"): "placeholder title of withdrawn submissions",
    ("iclr:2021", "withdraw"): "placeholder title of withdrawn submissions",
    ("jmlr:2013", "bayesiancanonicalcorrelationanalysis"): "Klami et al. and Wang & Blei: two papers",
    ("jmlr:2013", "usingsymmetryandevolutionarysearchtominimizesortingnetworks"): "Liu & Ihler; Valsalam & "
                                                                                   "Miikkulainen",
    ("mlj:2007", "statisticalpropertiesofkernelprincipalcomponentanalysis"): "Blanchard et al.; Zwald",
    ("neurips:2024", "reproducibilitystudyofrobustfairclusteringanovelfairnessattackanddefenseframework"):
        "two reproducibility studies by different teams",
    ("tmlr:2024", "reproducibilitystudyofrobustfairclusteringanovelfairnessattackanddefenseframework"):
        "the same two studies in TMLR",
    ("wacv:2014", "carmakeandmodelrecognitionusing3dcurvealignment"): "Hsiao et al.; Ramnath et al.",
    # AAAI's proceedings list a paper and its student abstract (or doctoral-consortium paper) under
    # one title: two publications with two article pages
    ("aaai:2017", "groundedactiontransformationforrobotlearninginsimulation"):
        "technical track; student abstract",
    ("aaai:2018", "propositionentailmentineducationalapplicationsusingdeepneuralnetworks"):
        "main track; student abstract",
    ("aaai:2018", "balancinglexicographicfairnessandautilitarianobjectivewithapplicationtokidneyexchange"):
        "technical track; student abstract",
    ("aaai:2019", "parameterizedheuristicsforincompleteweightedcsps"):
        "doctoral consortium; student abstract",
    ("aaai:2019", "emergencydepartmentonlinepatientcaregiverscheduling"):
        "AI for social impact; student abstract",
}


def test_issue_3_figures(corpus_store: Store) -> None:
    """Papers with an abstract: at least 90% of the accepted papers of the sources that carry
    abstracts (the title lists of issue 15 add papers whose abstracts are elsewhere)."""
    acc, with_abstract = corpus_store.db.execute(
        "SELECT count(*), count(abstract) FROM papers WHERE accepted=1 AND sources NOT LIKE '[\"aitopconf:%'"
        " AND venue NOT IN ('iros', 'icra', 'www', 'wwww')").fetchone()
    assert with_abstract / acc >= 0.90


# Issue 15: this year's proceedings. The smallest paper count of each new venue-year.
NEW_VENUE_YEARS = {("icml", 2026): 6300, ("cvpr", 2026): 4000, ("aaai", 2026): 4100, ("acl", 2026): 2200,
                   ("www", 2026): 900, ("iros", 2026): 1900, ("icra", 2026): 2900, ("acl", 2025): 1650,
                   ("emnlp", 2025): 1800}


def test_issue_15_figures(corpus_store: Store) -> None:
    s = corpus_store.stats()
    assert s["papers"] >= 290_000 and s["venues"] >= 58
    assert set(s["sources"]) == {"papercopilot", "mlanthology", "acl", "openreview", "aitopconf", "orgroups",
                                 "webconf", "explorer", "papercept", "highlights", "navigator",
                                 "openreview-api", "scores", "atlas"}
    counts = {(v, y): n for v, y, n in corpus_store.db.execute(
        "SELECT venue, year, count(*) FROM papers GROUP BY venue, year")}
    for vy, least in NEW_VENUE_YEARS.items():
        assert counts.get(vy, 0) >= least, (vy, counts.get(vy))
    for journal in ("tpami", "ijcv", "tip"):
        assert all(counts.get((journal, y), 0) > 50 for y in range(2016, 2026)), journal
    # ICML 2026: the categories and institutions reached the papers the list names
    n, kw, inst = corpus_store.db.execute(
        "SELECT count(*), sum(EXISTS (SELECT 1 FROM keywords k WHERE k.paper_id = p.id)),"
        " count(institutions) FROM papers p WHERE venue='icml' AND year=2026").fetchone()
    assert n >= 6300 and kw >= 0.99 * n and inst >= 0.9 * n


def test_issue_43_this_years_programmes(corpus_store: Store) -> None:
    """NeurIPS 2026's orals and spotlights, IJCAI-ECAI 2026 and EACL 2026 (Findings its own venue),
    and ICLR 2026's API notes, which add its rejected and withdrawn submissions and no copies."""
    db = corpus_store.db

    def one(sql: str) -> tuple[int, ...]:
        return tuple(db.execute(sql).fetchone())

    n, authored, linked = one("SELECT count(*), sum(n_authors > 0),"
                              " sum(json_extract(ids, '$.openreview') IS NOT NULL)"
                              " FROM papers WHERE venue='neurips' AND year=2026")
    assert n >= 400 and authored == n and linked == n
    statuses = db.execute("SELECT DISTINCT status FROM papers WHERE venue='neurips' AND year=2026")
    assert {s for (s,) in statuses} == {"oral", "spotlight"}
    assert one("SELECT count(*), count(abstract) FROM papers WHERE venue='ijcai' AND year=2026") >= (980, 980)
    eacl = dict(db.execute("SELECT venue, count(*) FROM papers WHERE venue IN ('eacl', 'findings-eacl')"
                           " AND year=2026 GROUP BY venue").fetchall())
    assert eacl["findings-eacl"] >= 200 and eacl["eacl"] + eacl["findings-eacl"] >= 700
    # the 77 student papers' abstracts are the placeholder "Need": 626 real ones, never the placeholder
    assert one("SELECT count(abstract) FROM papers WHERE venue IN ('eacl', 'findings-eacl')"
               " AND year=2026")[0] >= 620
    # ICLR 2026: the API's 1,000 notes join the papers we had, one paper each, none accepted twice
    api = Counter(status for status, sources in db.execute(
        "SELECT status, sources FROM papers WHERE venue='iclr' AND year=2026")
        if any(x.startswith("openreview-api:") for x in json.loads(sources)))
    assert sum(api.values()) == 1000 and api["rejected"] >= 460 and api["oral"] + api["poster"] == 186


def test_no_duplicate_titles_except_true_ones(corpus_store: Store) -> None:
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for pid, block, title in corpus_store.db.execute("SELECT id, block, title FROM papers"):
        groups[(block, title_key(title))].append(pid)
    dups = {k for k, v in groups.items() if len(v) > 1}
    assert dups == set(TRUE_SAME_TITLE)


def test_every_papercopilot_manifest_record_is_stored_or_skipped(corpus_store: Store) -> None:
    manifest = json.loads((shared_data("papercopilot") / "MANIFEST.json").read_text())
    stored = {k: (n, s) for k, n, s in corpus_store.db.execute("SELECT key, records, skipped FROM files")}
    for f in manifest["files"]:
        key = "papercopilot:" + Path(f["file"]).name.removesuffix(".json.gz")
        records, skipped = stored[key]
        assert records + skipped == f["records"], key


def test_known_papers(corpus_store: Store) -> None:
    (pid,) = corpus_store.resolve_id("11127")
    p = corpus_store.get_paper(pid)
    assert p is not None and (p.venue, p.year) == ("neurips", 2018)
    assert [a.name for a in p.authors] == ["Lijun Zhang", "Zhi-Hua Zhou"]
    assert p.abstract and p.status == "poster"
    venues = {p.venue for p in corpus_store.get_papers(corpus_store.author_papers("zhihua-zhou"))}
    assert {"neurips", "icml", "aaai", "ijcai"} <= venues


def test_coverage_lists_every_venue_year_with_its_sources(corpus_store: Store) -> None:
    rows = {(r["venue"], r["year"]): r for r in corpus_store.coverage()}
    iclr25 = rows[("iclr", 2025)]
    assert {s["source"] for s in iclr25["sources"]} == {"openreview", "mlanthology", "aitopconf"}
    assert iclr25["papers"] >= 11_600 and 3_600 <= iclr25["accepted"] <= 3_800
    assert sum(r["papers"] for r in rows.values()) == corpus_store.stats()["papers"]


def test_reingest_changes_nothing(corpus_store: Store) -> None:
    before = corpus_store.stats()
    rep = ingest(corpus_store, [str(shared_data())])
    assert rep.totals().new == 0 and rep.totals().updated == 0 and rep.papers.new == 0
    assert corpus_store.stats() == before


def test_title_lists_add_no_copies_to_the_venue_years_we_had(corpus_store: Store) -> None:
    """A paper of a venue-year we already held that the title lists bring again would stand alone
    (only the list as its source): at most 1% of such a venue-year. (ICLR 2026's export held 4,343
    of its 5,351 accepted papers and the list added the other 1,008 alone, until the accepted papers'
    scores, openreview-exports/iclr2026-accepted-ratings, brought every one.)"""
    older: dict[tuple[str, int], int] = defaultdict(int)
    alone: dict[tuple[str, int], int] = defaultdict(int)
    for venue, year, sources in corpus_store.db.execute("SELECT venue, year, sources FROM papers"):
        kinds = {s.split(":")[0] for s in json.loads(sources)}
        if kinds <= {"aitopconf", "orgroups"}:
            alone[(venue, year)] += 1
        else:
            older[(venue, year)] += 1
    grown = {vy: n for vy, n in alone.items() if vy in older and n > 0.01 * older[vy]}
    assert grown == {}


def test_every_track_has_a_display_name(corpus_store: Store) -> None:
    """Issue 20 item 16: track slugs were shown raw ("srw", "applied-data-science") in both
    languages; every track of the corpus has a name, translated in the Chinese catalog."""
    from paperlist.web import i18n
    from paperlist.web.tracks import TRACKS

    rows = corpus_store.db.execute("SELECT DISTINCT track FROM papers WHERE track IS NOT NULL")
    tracks = {t for (t,) in rows}
    assert tracks - set(TRACKS) == set()
    zh = i18n.translations("zh")
    assert all(zh.gettext(TRACKS[t]) != TRACKS[t] for t in tracks)


def test_every_bibtex_can_be_pasted(corpus_store: Store) -> None:
    """Issue 44 item 2: every paper's BibTeX parses with bibtexparser as one entry, with no empty field,
    no unbalanced braces and no LaTeX escaped as text. One paper in ten, and every one whose source gave
    an entry (the whole corpus takes a minute: its figure is in BENCHMARKS.md)."""
    from paperlist.citation import bibtex, problems

    rows = corpus_store.db.execute("SELECT id, bibtex IS NOT NULL FROM papers ORDER BY id")
    ids = [pid for pid, has_source in rows if has_source or zlib.crc32(pid.encode()) % 10 == 0]
    bad = []
    for i in range(0, len(ids), 2000):
        for p in corpus_store.get_papers(ids[i:i + 2000]):
            if found := problems(bibtex(p)):
                bad.append((p.id, found))
    assert len(ids) > 60_000 and bad == []


def test_one_group_for_one_person_at_one_institution(corpus_store: Store) -> None:
    """Issue 44 item 4: Yang Liu of UC Santa Cruz was three author groups, Wei Wang two for UCLA."""
    from paperlist.service.namesakes import groups

    for key, where in (("yang-liu", "University of California, Santa Cruz"),
                       ("wei-wang", "University of California, Los Angeles")):
        found = [g for g in groups(corpus_store.authorships(key)) if g["affiliation"] == where]
        assert len(found) == 1 and len(found[0]["ids"]) >= 50, (key, [len(g["ids"]) for g in found])
