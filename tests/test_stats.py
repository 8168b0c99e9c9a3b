"""Review scores and conference-year statistics on a hand-made papercopilot file
(tests/fixtures/reviews): the figures recomputed here from the file itself, name folding, the
review parsers, and the CLI and MCP over the same service function as the API."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import orjson
import pytest

from paperlist.mcp import ToolFailure, Tools
from paperlist.service import Home
from paperlist.service.conference_stats import conference_stats
from paperlist.sources import reviews
from paperlist.stats import build_stats, is_current
from paperlist.stats.names import country, institution_key
from paperlist.store import Store
from tests.conftest import FIXTURES, run_cli

REVIEWS = FIXTURES / "reviews"
RAW: list[dict[str, Any]] = json.loads((REVIEWS / "iclr2022.json").read_text())
ACCEPTED = {"Oral", "Spotlight", "Poster"}
STATUS = {"Oral": "oral", "Spotlight": "spotlight", "Poster": "poster", "Reject": "rejected",
          "Withdraw": "withdrawn", "Desk Reject": "desk-rejected"}


def _ratings(r: dict[str, Any]) -> list[float]:
    return [float(x) for x in r["rating"].split(";") if x]


@pytest.fixture(scope="module")
def rhome(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("reviews")
    res = run_cli(home, "ingest", str(REVIEWS))
    assert res.exit_code == 0, res.output
    return home


@pytest.fixture(scope="module")
def figures(rhome: Path) -> dict[str, Any]:
    return dict(conference_stats(Home(rhome), "iclr", "2022"))


# --- the parsers ----------------------------------------------------------------------------
def test_scores_read_what_sources_write() -> None:
    assert reviews.scores("5;6;;8: strong accept") == [5.0, 6.0, 8.0]
    assert reviews.scores("") == [] and reviews.scores(None) == [] and reviews.scores(True) == []
    assert reviews.scores("nan;inf;1e9;7") == [7.0]          # junk and garbage scales are dropped
    assert reviews.source_mean([6.25, 1.1]) == 6.25 and reviews.source_mean("[5.5, 1.2]") == 5.5
    assert reviews.source_mean(0) is None and reviews.source_mean("x") is None  # 0 = no reviews


def test_the_mean_is_computed_from_the_list_never_the_sources() -> None:
    rv = reviews.from_lists({"rating": "8;8;6", "rating_avg": 99, "confidence": "4;3;4", "confidence_avg": 1})
    assert rv is not None and rv.ratings == [8.0, 8.0, 6.0] and not rv.from_mean
    assert rv.mean == pytest.approx(22 / 3) and rv.confidence_mean == pytest.approx(11 / 3) and rv.count == 3
    assert reviews.from_lists({"rating": "", "rating_avg": 0}) is None        # unknown, not 0
    alone = reviews.from_means("5.5", 3.2, 4)
    assert alone is not None and alone.from_mean and alone.mean == 5.5 and alone.count == 4
    assert reviews.from_means(0, 0, 0) is None


def test_countries_are_split_and_deduplicated() -> None:
    assert reviews.countries("China;United States;China; ;") == ["China", "United States"]
    assert reviews.countries(None) == []


def test_institution_variants_fold_and_others_stay_apart() -> None:
    same = ["MIT", "Massachusetts Institute of Technology", "CSAIL, Massachusetts Institute of Technology",
            "MIT CSAIL", "CSAIL, MIT"]
    assert len({institution_key(n)[0] for n in same}) == 1
    assert institution_key("Stanford University, USA")[0] == institution_key("Stanford University")[0]
    assert institution_key("Google Research")[0] == institution_key("Google")[0]
    assert institution_key("Google DeepMind")[0] != institution_key("Google")[0]
    assert institution_key("MIT-IBM Watson AI Lab")[0] != institution_key("MIT")[0]     # a joint lab
    assert institution_key("University of California, Berkeley")[0] != \
        institution_key("University of California, Los Angeles")[0]
    assert institution_key("") == ("", "", False)
    assert country("USA") == country("United States") == "United States"


# --- the figures, recomputed from the file -------------------------------------------------
def test_decision_counts_and_rate_match_the_file(figures: dict[str, Any]) -> None:
    assert figures["papers"] == len(RAW)
    accepted = sum(r["status"] in ACCEPTED for r in RAW)
    assert figures["accepted"] == accepted
    assert figures["acceptance_rate"] == pytest.approx(accepted / len(RAW), abs=1e-4)
    assert figures["listing"] == "all-submissions"
    want = {STATUS[s]: sum(r["status"] == s for r in RAW) for s in STATUS}
    assert {k: v for k, v in figures["by_status"].items() if v} == want


def test_rating_figures_match_the_file(figures: dict[str, Any]) -> None:
    rated = [r for r in RAW if _ratings(r)]
    means = [statistics.mean(_ratings(r)) for r in rated]
    r = figures["ratings"]
    assert r["papers"] == len(rated) and r["without"] == len(RAW) - len(rated)
    assert r["reviews"] == sum(len(_ratings(x)) for x in rated)
    assert r["mean"] == pytest.approx(statistics.mean(means), abs=1e-3)
    assert r["median"] == pytest.approx(statistics.median(means), abs=1e-3)
    acc = [statistics.mean(_ratings(x)) for x in rated if x["status"] in ACCEPTED]
    assert r["accepted_mean"] == pytest.approx(statistics.mean(acc), abs=1e-3)
    for raw_status, key in STATUS.items():
        ms = [statistics.mean(_ratings(x)) for x in rated if x["status"] == raw_status]
        assert r["mean_by_status"].get(key) == (pytest.approx(statistics.mean(ms), abs=1e-3) if ms else None)
    pairs = [(float(a), float(b)) for x in rated
             for a, b in zip(x["rating"].split(";"), x["confidence"].split(";"), strict=True)]
    assert r["rating_confidence_pairs"] == len(pairs)
    want_r = statistics.correlation(*zip(*pairs, strict=True))
    assert r["rating_confidence_r"] == pytest.approx(want_r, abs=1e-3)
    assert figures["dimensions"]["correctness"]["papers"] == sum(bool(x["correctness"]) for x in rated)


def test_histogram_bins_hold_every_rated_paper_once(figures: dict[str, Any]) -> None:
    bins = figures["ratings"]["histogram"]
    assert all(b["to"] - b["from"] == pytest.approx(0.5) for b in bins)
    assert sum(b["papers"] for b in bins) == figures["ratings"]["papers"]
    for x in RAW:
        if not _ratings(x):
            continue
        m = statistics.mean(_ratings(x))
        b = next(b for b in bins if b["from"] <= m < b["to"] or (b is bins[-1] and m == b["to"]))
        assert b["by_status"].get(STATUS[x["status"]], 0) >= 1, (x["title"], m)
    for b in bins:
        assert sum(b["by_status"].values()) == b["papers"]
        rate = pytest.approx(b["accepted"] / b["papers"], abs=1e-4) if b["papers"] else None
        assert b["acceptance_rate"] == rate


def test_institutions_and_countries_fold_variants(figures: dict[str, Any]) -> None:
    inst = {x["name"]: (x["accepted"], x["papers"]) for x in figures["institutions"]}
    # "MIT" and "Massachusetts Institute of Technology": one institution, a paper counted once
    assert inst["Massachusetts Institute of Technology"] == (2, 2) and "MIT" not in inst
    assert inst["Stanford University"] == (2, 2)                # "Stanford University, USA" too
    assert inst["Google"] == (1, 2) and inst["Google DeepMind"] == (1, 1)
    countries = {x["name"]: (x["accepted"], x["papers"]) for x in figures["countries"]}
    assert countries["United States"] == (5, 6) and "USA" not in countries
    assert figures["institutions_papers"] == sum(bool(r["aff"]) for r in RAW)


def test_a_paper_shows_its_scores_and_its_place(rhome: Path) -> None:
    from paperlist.service.papers import paper

    store = Store(rhome / "paperlist.db", readonly=True)
    home = Home(rhome, store=store)
    p = paper(home, store.resolve_id("rv002")[0])
    assert p["review"] is not None and p["review"]["ratings"] == [8.0, 6.0, 6.0, 5.0]
    assert p["review"]["mean"] == 6.25 and p["review"]["confidence_mean"] == 3.75
    rated = sorted((statistics.mean(_ratings(r)) for r in RAW if _ratings(r)), reverse=True)
    place = p["review_place"]
    assert place is not None and place["rated"] == len(rated)
    assert place["rank"] == rated.index(6.25) + 1 and place["scope"] == "submissions"
    desk = paper(home, store.resolve_id("rv008")[0])
    assert desk["review"] is None and desk["review_place"] is None     # unknown stays unknown


# --- derived, and convergent --------------------------------------------------------------
def test_statistics_converge_after_an_interrupted_build(tmp_path: Path) -> None:
    src, home = tmp_path / "src", tmp_path / "home"
    src.mkdir()
    raw = [dict(r) for r in RAW]
    (src / "iclr2022.json").write_text(json.dumps(raw))
    assert run_cli(home, "ingest", str(src)).exit_code == 0
    raw[5]["rating"] = "9;9"                              # "Two Harsh Reviews" is re-reviewed
    (src / "iclr2022.json").write_text(json.dumps(raw))
    assert run_cli(home, "ingest", "--no-index", str(src)).exit_code == 0
    st = Store(home / "paperlist.db")
    before = st.venue_year_stats("iclr", 2022)
    assert not is_current(st)

    def dies(rows: Any) -> Any:                          # the build is killed after one row
        yield next(iter(rows))
        raise KeyboardInterrupt

    real = st.replace_stats
    st.replace_stats = lambda rows, ranks, fingerprint: real(dies(rows), ranks, fingerprint)  # type: ignore[method-assign]
    with pytest.raises(KeyboardInterrupt):
        build_stats(st)
    assert st.venue_year_stats("iclr", 2022) == before and not is_current(st)   # nothing half-written
    st.close()
    res = run_cli(home, "ingest", str(src))                 # nothing new: the stale figures are rebuilt
    assert res.exit_code == 0 and "stats:" in res.output, res.output
    h = Home(home)
    assert is_current(h.store)
    r = conference_stats(h, "iclr", "2022")["ratings"]
    assert r is not None and r["mean_by_status"]["rejected"] == pytest.approx(
        statistics.mean([statistics.mean(_ratings(x)) for x in raw if x["status"] == "Reject"]), abs=1e-3)


# --- the CLI and MCP answer with the same figures ---------------------------------------------
def test_cli_prints_the_same_figures(rhome: Path, figures: dict[str, Any]) -> None:
    res = run_cli(rhome, "stats", "--venue", "ICLR", "--year", "2022", "--json")
    assert res.exit_code == 0, res.output
    assert orjson.loads(res.output) == orjson.loads(orjson.dumps(figures))
    text = run_cli(rhome, "stats", "--venue", "iclr", "--year", "2022").output
    assert f"accepted               {figures['accepted']}" in text
    assert "acceptance rate 50.0%" in text and "Massachusetts Institute of Technology" in text
    series = orjson.loads(run_cli(rhome, "stats", "--venue", "iclr", "--json").output)
    assert series[0]["year"] == 2022 and series[0]["acceptance_rate"] == figures["acceptance_rate"]


@pytest.mark.parametrize(("args", "message"), [
    (("--venue", "iclr", "--year", "1999"), "no papers from this venue in this year"),
    (("--venue", "nosuchvenue", "--year", "2022"), "no papers from this venue"),
    (("--venue", "iclr", "--year", "20x2"), "no such year"),
    (("--year", "2022"), "--year needs --venue"),
])
def test_cli_errors_are_one_line(rhome: Path, args: tuple[str, ...], message: str) -> None:
    res = run_cli(rhome, "stats", *args)
    assert res.exit_code == 2
    assert message in res.output and len(res.output.strip().splitlines()) == 1


def test_mcp_tool_gives_the_api_figures(rhome: Path, figures: dict[str, Any]) -> None:
    t = Tools(rhome)
    d = t.get_conference_stats("iclr", 2022)
    for k in ("papers", "accepted", "acceptance_rate", "by_status", "ratings", "listing"):
        assert d[k] == figures[k], k
    with pytest.raises(ToolFailure, match="no papers from this venue in this year"):
        t.get_conference_stats("iclr", 1999)
    hit = t.get_paper(Store(rhome / "paperlist.db", readonly=True).resolve_id("rv001")[0])
    assert hit["review"]["ratings"] == [8.0, 8.0, 6.0] and hit["review_place"]["rank"] == 1


def test_papers_of_unknown_status_are_not_counted_as_accepted() -> None:
    """Issue 44 item 5: NeurIPS 2025's statistics counted its 2 papers of unknown status as accepted."""
    from paperlist.stats.figures import decisions

    def paper(i: int, status: str | None) -> Any:
        return {"id": str(i), "venue": "neurips", "year": 2025, "status": status,
                "accepted": status not in ("rejected", "withdrawn"), "institutions": [], "countries": [],
                "review": None, "review_source": None}

    only = decisions([paper(i, "accepted") for i in range(5822)] + [paper(9000, None), paper(9001, None)])
    assert (only["papers"], only["accepted"], only["by_status"]["unknown"]) == (5824, 5822, 2)
    assert only["listing"] == "accepted-only" and only["acceptance_rate"] is None
    mixed = decisions([paper(0, "poster"), paper(1, "rejected"), paper(2, None), paper(3, "under-review")])
    assert mixed["accepted"] == 1 and mixed["acceptance_rate"] == 0.5          # over the decided two
