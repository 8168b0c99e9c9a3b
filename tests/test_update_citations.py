"""`paperlist update --source citations`: OpenAlex's citation count for every paper it matches with
certainty, against the OpenAlex stand-in (tests/standins.py) answering in OpenAlex's documented
JSON, through pyalex's real requests, into a real store built from real sample files: TACL 2025
from the ACL Anthology (DOIs) and ICLR 2026's orals (arXiv ids, and some with neither)."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from pytest_httpserver import HTTPServer

from paperlist.ingest import ingest
from paperlist.models import Record
from paperlist.store import Store, encode_record

from .conftest import shared_data
from .standins import OpenAlexStandIn, openalex_work

pytestmark = pytest.mark.corpus

EXE = str(Path(sys.executable).parent / "paperlist")
FILE = "openalex:citations"
SAMPLES = ("acl-anthology/2025.tacl.xml.gz", "openreview-exports/iclr2026/orals-with-authors.json.gz")


def run(home: Path, url: str, *args: str, **more: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PAPERLIST_OPENALEX_URL": url, "PAPERLIST_OPENREVIEW_URL": "http://127.0.0.1:9",
           "PAPERLIST_UPDATE_INTERVAL": "0", "PAPERLIST_UPDATE_BACKOFF": "0.05", **more}
    return subprocess.run([EXE, "--home", str(home), "update", "--source", "citations", "--no-index", *args],
                          capture_output=True, text=True, env=env, timeout=600, check=False)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("citations") / "home"
    store = Store(home / "paperlist.db")
    assert ingest(store, [str(shared_data(s)) for s in SAMPLES], jobs=1).failed == 0
    store.close()
    return home


@pytest.fixture
def home(built: Path, tmp_path: Path) -> Path:
    shutil.copytree(built, tmp_path / "home")
    return tmp_path / "home"


def papers(home: Path) -> dict[str, dict[str, Any]]:
    """Every paper: its title, venue, year, ids, citations and provenance."""
    db = sqlite3.connect(home / "paperlist.db")
    out = {}
    for pid, title, venue, year, ids, cites, prov in db.execute(
            "SELECT id, title, venue, year, ids, citations, provenance FROM papers"):
        out[pid] = {"title": title, "venue": venue, "year": year, "ids": json.loads(ids), "citations": cites,
                    "provenance": json.loads(prov)}
    db.close()
    return out


class World:
    """OpenAlex's works for the sample papers: by DOI (TACL), by arXiv's DOI (the ICLR orals with an
    arXiv id), by title (the others, as ICLR 2026 works). Each count is distinct (1,000 + n); one
    title has two works that fit equally (no match), and two papers OpenAlex does not have."""

    def __init__(self, home: Path) -> None:
        self.papers = papers(home)
        self.works: list[dict[str, Any]] = []
        self.expected: dict[str, int] = {}
        self.kind: dict[str, str] = {}
        titled = sorted(p for p, v in self.papers.items() if not {"doi", "arxiv"} & set(v["ids"]))
        self.ambiguous, self.absent = titled[0], set(titled[1:3])
        for n, (pid, p) in enumerate(sorted(self.papers.items())):
            cited = 1000 + n
            if "doi" in p["ids"]:
                self.kind[pid] = "doi"
                doi: str | None = p["ids"]["doi"]
            elif "arxiv" in p["ids"]:
                self.kind[pid] = "arxiv"
                doi = f"10.48550/arXiv.{p['ids']['arxiv']}"
            else:
                self.kind[pid] = "title"
                doi = None
                if pid in self.absent:
                    continue
            source = "Transactions of the Association for Computational Linguistics" if p["venue"] == "tacl" \
                else "International Conference on Learning Representations"
            self.works.append(openalex_work(f"W{n}", p["title"], p["year"], [], None, doi=doi, source=source,
                                            cited=cited))
            if pid == self.ambiguous:
                self.works.append(openalex_work(f"W{n}b", p["title"], p["year"], [], None, source=source,
                                                cited=cited + 7))
            else:
                self.expected[pid] = cited

    def by_kind(self, kind: str) -> list[str]:
        return [p for p in self.expected if self.kind[p] == kind]


def counts(home: Path) -> dict[str, int]:
    return {pid: p["citations"] for pid, p in papers(home).items() if p["citations"] is not None}


def asked(server: OpenAlexStandIn) -> list[str]:
    """Every DOI and title the server was asked about, in order."""
    out = []
    for q in server.seen:
        f = q.get("filter", "")
        if f.startswith("doi:"):
            out += f[4:].split("|")
        elif f.startswith("title.search:"):
            out.append(f.split(",publication_year:")[0])
    return out


def test_counts_by_doi_arxiv_and_title_merge_into_the_papers(home: Path, httpserver: HTTPServer) -> None:
    world = World(home)
    assert len(world.by_kind("doi")) == 33 and len(world.by_kind("arxiv")) == 187
    assert len(world.by_kind("title")) == 34
    server = OpenAlexStandIn(world.works)
    r = run(home, server.install(httpserver))
    assert r.returncode == 0, r.stderr
    # 220 DOIs in five requests of at most fifty, then one request per title (37)
    assert server.requests == 5 + 37
    assert f"citations   257 papers asked: {len(world.expected)} counts ({len(world.expected)} changed)" \
        in r.stdout
    # only what a count needs is asked for
    assert {q["select"] for q in server.seen} == {
        "id,doi,display_name,publication_year,cited_by_count,ids,primary_location"}
    assert counts(home) == world.expected
    # each count carries its source and the day it was read
    day = dt.datetime.now(dt.UTC).date().isoformat()
    for pid in (world.by_kind("doi")[0], world.by_kind("arxiv")[0], world.by_kind("title")[0]):
        shown = json.loads(subprocess.run([EXE, "--home", str(home), "show", pid, "--json"],
                                          capture_output=True, text=True, check=True).stdout)
        assert shown["citations"] == world.expected[pid]
        assert shown["provenance"]["citations"] == FILE and shown["provenance"]["citations_as_of"] == day
    # and the paper's page and API say so ("1,234 · OpenAlex, Dec 7, 2026")
    from paperlist.service import Home
    from paperlist.service.papers import paper

    detail = paper(Home(home), world.by_kind("doi")[0])
    assert (detail["citations"], detail["citations_source"], detail.get("citations_as_of")) == (
        world.expected[world.by_kind("doi")[0]], "openalex", day)
    # two works fitting one title equally: no count; nor for papers OpenAlex lacks
    assert world.ambiguous not in counts(home) and not world.absent & set(counts(home))
    # a second run asks nothing: the counts are fresh, the misses recent
    again = run(home, server.install(httpserver))
    assert again.returncode == 0 and server.requests == 42
    assert "citations   0 papers asked: 0 counts (0 changed)" in again.stdout


def test_429_with_retry_after_then_the_counts(home: Path, httpserver: HTTPServer) -> None:
    world = World(home)
    server = OpenAlexStandIn(world.works, throttle=1)
    t0 = time.monotonic()
    r = run(home, server.install(httpserver), "--json")
    assert r.returncode == 0, r.stderr
    assert time.monotonic() - t0 >= 1.0  # Retry-After: 1
    src = json.loads(r.stdout)["sources"][0]
    assert src["name"] == "citations" and src["retries"] == 1 and src["requests"] == 43 == server.requests
    assert counts(home) == world.expected


def test_a_batch_answered_on_two_pages(home: Path, httpserver: HTTPServer) -> None:
    """OpenAlex keeps some works twice under one DOI: fifty DOIs then match fifty-one works, one more
    than the page holds, and the second page has the copy (cited more: it speaks for the paper)."""
    world = World(home)
    pid = world.by_kind("doi")[-1]
    twin = dict(next(w for w in world.works if w["doi"] == f"https://doi.org/{world.papers[pid]['ids']['doi']}"))
    twin.update(id="https://openalex.org/W999999", cited_by_count=world.expected[pid] + 500)
    server = OpenAlexStandIn([*world.works, twin])
    r = run(home, server.install(httpserver))
    assert r.returncode == 0, r.stderr
    second = [q for q in server.seen if q.get("page") == "2"]
    assert len(second) == 1 and world.papers[pid]["ids"]["doi"].lower() in second[0]["filter"].lower()
    assert counts(home) == {**world.expected, pid: world.expected[pid] + 500}


def test_a_spent_budget_stops_and_the_next_run_goes_on(home: Path, httpserver: HTTPServer) -> None:
    world = World(home)
    server = OpenAlexStandIn(world.works)
    url = server.install(httpserver)
    r = run(home, url, "--budget", "10", "--json")
    assert r.returncode == 0, r.stderr
    src = json.loads(r.stdout)["sources"][0]
    assert src["stopped"] == "the request budget of this run (10) is spent; run again to go on"
    first = counts(home)
    assert server.requests == 10 and 0 < len(first) < len(world.expected)
    assert first == {p: world.expected[p] for p in first}
    r2 = run(home, url)
    assert r2.returncode == 0, r2.stderr
    assert counts(home) == world.expected
    # the second run went on where the first stopped: nothing was asked twice
    assert server.requests == 42 and len(asked(server)) == len(set(asked(server))) == 220 + 37


def test_kill_9_mid_run_then_a_rerun_loses_nothing(home: Path, httpserver: HTTPServer) -> None:
    world = World(home)
    server = OpenAlexStandIn(world.works, delay=0.3)
    url = server.install(httpserver)
    env = {**os.environ, "PAPERLIST_OPENALEX_URL": url, "PAPERLIST_UPDATE_INTERVAL": "0"}
    proc = subprocess.Popen([EXE, "--home", str(home), "update", "--source", "citations", "--no-index"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while server.requests < 3 and time.monotonic() < deadline:  # two batches answered, the first committed
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    db = sqlite3.connect(home / "paperlist.db")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    stored = db.execute("SELECT count(*) FROM records WHERE file=?", (FILE,)).fetchone()[0]
    db.close()
    assert stored >= 50 and stored % 50 == 0  # whole batches only
    before = server.requests
    server.delay = 0
    r = run(home, url)
    assert r.returncode == 0, r.stderr
    assert counts(home) == world.expected
    db = sqlite3.connect(home / "paperlist.db")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    n, keys = db.execute("SELECT count(*), count(DISTINCT key) FROM records WHERE file=?", (FILE,)).fetchone()
    assert n == keys == len(world.expected)
    db.close()
    # the rerun asked only what no committed batch held
    assert server.requests - before <= 42 - stored // 50


def test_a_stale_count_is_asked_again_a_fresh_one_is_not(home: Path, httpserver: HTTPServer) -> None:
    world = World(home)
    server = OpenAlexStandIn(world.works)
    url = server.install(httpserver)
    assert run(home, url).returncode == 0
    pid = world.by_kind("arxiv")[3]
    # the count of one paper was read 40 days ago (the refresh window is 30 days)
    old = (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=40)).isoformat()
    store = Store(home / "paperlist.db")
    rows = []
    for key, block, h, blob in store.file_rows(FILE):
        if key == pid:
            rec = Record.from_dict(orjson.loads(blob))
            rec.citations_as_of = old
            key, block, h, blob = encode_record(rec)
        rows.append((key, block, h, blob))
    store.replace_file_records(FILE, "openalex", "openalex", "aged", 1, rows, 0)
    store.close()
    arxiv = world.papers[pid]["ids"]["arxiv"]
    work = next(w for w in world.works if w["doi"] and w["doi"].lower().endswith(arxiv))
    work["cited_by_count"] = world.expected[pid] + 321
    n = server.requests
    r = run(home, url)
    assert r.returncode == 0, r.stderr
    assert server.requests == n + 1
    assert asked(server)[-1:] == [f"10.48550/arxiv.{world.papers[pid]['ids']['arxiv']}".lower()]
    assert "citations   1 papers asked: 1 counts (1 changed)" in r.stdout
    after = papers(home)[pid]
    assert after["citations"] == world.expected[pid] + 321
    assert after["provenance"]["citations_as_of"] == dt.datetime.now(dt.UTC).date().isoformat()
    assert counts(home) == {**world.expected, pid: world.expected[pid] + 321}
