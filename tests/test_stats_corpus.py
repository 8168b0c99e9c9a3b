"""Issue 17 on the real corpus: the statistics the API serves, recomputed straight from the raw
source files with plain json/csv (not our parsers), and every ICLR 2023 paper the source rates
showing its ratings in the API, on its page and over MCP."""

from __future__ import annotations

import csv
import gzip
import json
import random
import re
import statistics
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from paperlist.mcp import Tools
from paperlist.service.home import Home
from paperlist.service.papers import find_paper
from paperlist.service.reviews import review_place, review_scores
from paperlist.stats import build_stats
from paperlist.store import Store

from .conftest import shared_data

pytestmark = pytest.mark.corpus

NOT_ACCEPTED = {"Reject", "Withdraw", "Desk Reject", "Withdrawn", "Rejected"}


def _raw(venue: str, name: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(gzip.decompress((shared_data("papercopilot") / venue / name)
                                                            .read_bytes()))
    return data


def _ratings(r: dict[str, Any]) -> list[float]:
    return [float(x) for x in str(r.get("rating") or "").split(";") if x.strip()]


@pytest.fixture(scope="module")
def api(corpus_store: Store, corpus_home: Path) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from paperlist.web.app import Settings, create_app

    build_stats(corpus_store)                    # derived after an ingest, as the CLI does
    ro = Store(corpus_store.path, readonly=True)
    # a loopback client: the rate limit exempts it (the tests read many papers)
    with TestClient(create_app(Settings(home=corpus_home, store=ro)), follow_redirects=False,
                    client=("127.0.0.1", 50000)) as c:
        yield c


def _stats(api: Any, venue: str, year: int) -> dict[str, Any]:
    r = api.get(f"/api/v1/conferences/{venue}/{year}/stats")
    assert r.status_code == 200, r.text
    d: dict[str, Any] = r.json()
    return d


def test_iclr_2023_figures_match_the_raw_file(api: Any) -> None:
    raw = _raw("iclr", "iclr2023.json.gz")
    d = _stats(api, "iclr", 2023)
    accepted = [r for r in raw if r["status"] not in NOT_ACCEPTED]
    assert d["papers"] == len(raw) and d["listing"] == "all-submissions"
    assert d["accepted"] == len(accepted)
    assert d["acceptance_rate"] == pytest.approx(len(accepted) / len(raw), abs=1e-4)
    rated = [r for r in raw if _ratings(r)]
    assert d["ratings"]["papers"] == len(rated) and d["ratings"]["without"] == len(raw) - len(rated)
    acc_means = [statistics.mean(_ratings(r)) for r in accepted if _ratings(r)]
    assert d["ratings"]["accepted_mean"] == pytest.approx(statistics.mean(acc_means), abs=1e-3)
    assert d["ratings"]["reviews"] == sum(len(_ratings(r)) for r in rated)
    assert sum(b["papers"] for b in d["ratings"]["histogram"]) == len(rated)


def test_neurips_2023_figures_match_the_raw_file(api: Any, corpus_store: Store) -> None:
    raw = _raw("nips", "nips2023.json.gz")
    # papers of NeurIPS 2023 that papercopilot does not list (two D&B papers only in the proceedings)
    extra = corpus_store.db.execute(
        "SELECT count(*), coalesce(sum(accepted), 0) FROM papers WHERE venue='neurips' AND year=2023"
        " AND sources NOT LIKE '%papercopilot:%'").fetchone()
    d = _stats(api, "neurips", 2023)
    accepted = [r for r in raw if r["status"] not in NOT_ACCEPTED]
    assert d["papers"] == len(raw) + extra[0]
    assert d["accepted"] == len(accepted) + extra[1]
    # NeurIPS lists only the rejections their authors made public: the rate is an upper bound
    assert d["listing"] == "public-rejections"
    assert d["acceptance_rate"] == pytest.approx(d["accepted"] / d["papers"], abs=1e-4)
    acc_means = [statistics.mean(_ratings(r)) for r in accepted if _ratings(r)]
    assert d["ratings"]["papers"] == sum(bool(_ratings(r)) for r in raw)
    assert d["ratings"]["accepted_mean"] == pytest.approx(statistics.mean(acc_means), abs=1e-3)


def test_iclr_2026_every_submission_with_its_scores(api: Any, corpus_store: Store) -> None:
    """Issue 44: all 19,630 submissions with every review of the tracker's snapshot (2025-11-22, before
    decisions); the accepted ones with their final scores; the rest rejected (inferred) or withdrawn."""
    import pyarrow.parquet as pq

    path = shared_data("openreview-exports/iclr2026-accepted-ratings/iclr_2026_accepted.parquet")
    table = pq.read_table(path)
    final = {r["openreview_id"]: statistics.mean(r["rating"]) for r in table.to_pylist()}
    d = _stats(api, "iclr", 2026)
    assert d["listing"] == "all-submissions" and d["papers"] >= 19_630
    assert d["acceptance_rate"] == pytest.approx(5358 / d["papers"], abs=1e-3)
    r = d["ratings"]
    assert r["papers"] >= 19_000 and set(r["as_of"]) == {"2025-11-22"} and 13_000 <= r["as_of"]["2025-11-22"]
    assert r["histogram"] and {"oral", "poster", "rejected", "withdrawn"} <= set(r["mean_by_status"])
    stored = dict(corpus_store.db.execute(
        "SELECT i.value, r.rating FROM paper_reviews r JOIN paper_ids i ON i.paper_id = r.paper_id"
        " AND i.kind = 'openreview' WHERE r.venue = 'iclr' AND r.year = 2026 AND r.as_of IS NULL"))
    assert all(stored.get(k) == pytest.approx(m) for k, m in final.items())          # final scores win


def test_iclr_2024_every_submission_with_its_scores(api: Any) -> None:
    """Issue 44: ICLR 2024's 7,215 public submissions with each reviewer's rating of 2023-12-03, and
    an acceptance rate from the 2,260 accepted among them."""
    d = _stats(api, "iclr", 2024)
    assert d["listing"] == "all-submissions" and d["papers"] == 7215 and d["accepted"] == 2260
    assert d["acceptance_rate"] == pytest.approx(2260 / 7215, abs=1e-4)
    r = d["ratings"]
    assert r["papers"] == 7215 and r["as_of"] == {"2023-12-03": 7215} and r["reviews"] == 27824
    assert set(r["mean_by_status"]) == {"oral", "spotlight", "poster", "rejected"}
    page = api.get("/en/conferences/iclr/2024/stats").text
    assert "Scores as of 2023-12-03, before decisions" in page
    assert re.search(r'<svg class="[^"]*\bhist\b', page)               # the histogram by decision


def test_coverage_counts_each_sources_papers_once(api: Any) -> None:
    """ICLR 2026's export splits the year into category files: the source's count is every paper
    of every file, not the largest file."""
    root = shared_data("openreview-exports/iclr2026")
    ids: set[str] = set()
    for f in root.glob("accepted-*.csv.gz"):
        with gzip.open(f, "rt", encoding="utf-8-sig") as fh:
            ids |= {row["openreview_url"].split("id=")[-1] for row in csv.DictReader(fh)}
    orals = json.loads(gzip.decompress((root / "orals-with-authors.json.gz").read_bytes()))["papers"]
    ids |= {p["id"] for p in orals}
    d = _stats(api, "iclr", 2026)
    by_source = {s["source"]: s["papers"] for s in d["coverage"]["sources"]}
    assert by_source["openreview"] == len(ids)


def test_every_rated_iclr_2023_paper_shows_its_ratings(api: Any, corpus_home: Path,
                                                       corpus_store: Store) -> None:
    raw = [r for r in _raw("iclr", "iclr2023.json.gz") if _ratings(r)]
    ids = dict(corpus_store.db.execute(
        "SELECT i.value, i.paper_id FROM paper_ids i JOIN papers p ON p.id = i.paper_id"
        " WHERE i.kind = 'openreview' AND p.venue = 'iclr' AND p.year = 2023"))
    ro = Store(corpus_store.path, readonly=True)
    tools = Tools(corpus_home, store=ro)
    h = Home(corpus_home, store=ro, find_searcher=False)
    sample = set(random.Random(17).sample(range(len(raw)), 60))
    for i, r in enumerate(raw):
        pid = ids[r["id"]]
        # every paper through what the API's paper serializes (its review and review place); a
        # sample over HTTP, on the page and in MCP (a whole paper, with similar papers and five
        # citation styles, takes ~50 ms: 5,000 of them were most of a CI run on a slow machine)
        p = find_paper(h, pid)
        review, place = review_scores(p), review_place(h, p)
        assert review is not None and place is not None, pid
        assert review["ratings"] == _ratings(r), pid
        assert review["mean"] == pytest.approx(statistics.mean(_ratings(r)))
        assert place["rated"] == len(raw)
        if i in sample:
            d = api.get(f"/api/v1/papers/{pid}").json()
            assert (d["review"], d["review_place"]) == (json.loads(json.dumps(review)),
                                                        json.loads(json.dumps(place))), pid
            page = api.get(f"/en/papers/{pid}").text
            assert " · ".join(f"{x:g}" for x in _ratings(r)) in page, pid
            assert tools.get_paper(pid)["review"]["ratings"] == _ratings(r)
