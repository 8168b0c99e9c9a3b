"""`paperlist update` against local stand-ins of OpenReview and OpenAlex (tests/standins.py): the
real clients (openreview-py, pyalex) over real HTTP, the real notes of ICLR 2026, a real store.
Nothing of ours is patched: the base URLs are the documented environment variables."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer

from paperlist.ingest import ingest
from paperlist.store import Store
from paperlist.update.openalex import Wanted, certain

from .conftest import shared_data, snapshot
from .listserver import free_port
from .standins import OpenAlexStandIn, OpenReviewStandIn, copies, openalex_work, real_notes, rehome

pytestmark = pytest.mark.corpus  # the stand-ins serve the real notes of ../shared/data

NEURIPS = "NeurIPS.cc/2026/Conference"
EXE = str(Path(sys.executable).parent / "paperlist")
CLOSED = "http://127.0.0.1:9"  # the discard port: nothing listens


@pytest.fixture(scope="module")
def notes() -> list[dict[str, Any]]:
    return rehome(real_notes(), NEURIPS, "NeurIPS 2026")


def env(openreview: str = CLOSED, openalex: str = CLOSED, **more: str) -> dict[str, str]:
    return {
        **os.environ,
        "PAPERLIST_OPENREVIEW_URL": openreview,
        "PAPERLIST_OPENALEX_URL": openalex,
        "PAPERLIST_UPDATE_INTERVAL": "0",
        "PAPERLIST_UPDATE_BACKOFF": "0.05",
        **more,
    }


def update(home: Path, *args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [EXE, "--home", str(home), "update", *args],
        capture_output=True,
        text=True,
        env=env(**kw),
        timeout=600,
        check=False,
    )


def papers(home: Path) -> list[tuple[Any, ...]]:
    """The merged papers, every column but the time they were written."""
    db = Store(home / "paperlist.db", readonly=True).db
    cols = [r[1] for r in db.execute("PRAGMA table_info(papers)") if r[1] != "updated_at"]
    return [tuple(r) for r in db.execute(f"SELECT {', '.join(cols)} FROM papers ORDER BY id")]


def test_a_venue_arrives_with_authors_abstracts_decisions_and_reviews(
    tmp_path: Path, httpserver: HTTPServer, notes: list[dict[str, Any]]
) -> None:
    server = OpenReviewStandIn(notes)
    url = server.install(httpserver)
    home = tmp_path / "home"
    r = update(home, "--venue", NEURIPS, openreview=url)
    assert r.returncode == 0, r.stderr
    assert server.requests == 5  # one page for each of the five venue ids
    assert {p["details"] for p in server.seen} == {"replies"}
    db = Store(home / "paperlist.db", readonly=True).db
    counts = dict(
        db.execute(
            "SELECT status, count(*) FROM papers WHERE venue='neurips' AND year=2026 GROUP BY status"
        ).fetchall()
    )
    assert counts == {"poster": 178, "oral": 8, "rejected": 460, "withdrawn": 287, "desk-rejected": 67}
    lacking = db.execute("SELECT count(*) FROM papers WHERE n_authors = 0 OR abstract IS NULL").fetchone()[0]
    assert lacking == 0
    # the reviews of the forums' replies, each reviewer's rating and confidence
    (pid,) = Store(home / "paperlist.db", readonly=True).resolve_id("FPLNSx1jmL")
    shown = json.loads(
        subprocess.run(
            [EXE, "--home", str(home), "show", pid, "--json"], capture_output=True, text=True, check=True
        ).stdout
    )
    assert shown["review"]["ratings"] == [2.0, 4.0, 4.0, 4.0] and shown["status"] == "rejected"
    assert shown["authors"][0]["name"] == "Fahmida Haque Fariha"
    # search finds it (the index was rebuilt)
    found = subprocess.run(
        [
            EXE,
            "--home",
            str(home),
            "search",
            "Developer Emotion Classification LLM-Based Augmentation",
            "--json",
            "--limit",
            "1",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(found.stdout)["hits"][0]["id"] == pid
    # a second run changes nothing
    before = snapshot(home / "paperlist.db")
    again = update(home, "--venue", "neurips2026", "--json", openreview=url)
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["papers"]["new"] == report["papers"]["updated"] == 0
    assert snapshot(home / "paperlist.db") == before


def test_paging_past_a_thousand_notes(
    tmp_path: Path, httpserver: HTTPServer, notes: list[dict[str, Any]]
) -> None:
    accepted = [n for n in notes if n["content"]["venueid"]["value"] == NEURIPS]
    big = accepted + copies(accepted, 2300 - len(accepted), 0)
    server = OpenReviewStandIn(big)
    r = update(
        tmp_path / "home", "--venue", NEURIPS, "--no-index", "--json", openreview=server.install(httpserver)
    )
    assert r.returncode == 0, r.stderr
    offsets = [int(p.get("offset", 0)) for p in server.seen if p["content.venueid"] == NEURIPS]
    assert offsets == [0, 1000, 2000]
    venue = json.loads(r.stdout)["sources"][0]["venues"][0]
    assert venue["notes"] == 2300 and venue["new"] == 2300


def test_429_with_retry_after_is_honoured(
    tmp_path: Path, httpserver: HTTPServer, notes: list[dict[str, Any]]
) -> None:
    server = OpenReviewStandIn(notes, throttle=2)
    t0 = time.monotonic()
    r = update(
        tmp_path / "home", "--venue", NEURIPS, "--no-index", "--json", openreview=server.install(httpserver)
    )
    assert r.returncode == 0, r.stderr
    assert time.monotonic() - t0 >= 1.0  # Retry-After: 1
    src = json.loads(r.stdout)["sources"][0]
    assert src["retries"] == 1 and src["requests"] == 6 and server.requests == 6


def test_a_failing_service_then_a_resumed_run(
    tmp_path: Path, httpserver: HTTPServer, notes: list[dict[str, Any]]
) -> None:
    accepted = [n for n in notes if n["content"]["venueid"]["value"] == NEURIPS]
    big = accepted + copies(accepted, 2300 - len(accepted), 0)
    server = OpenReviewStandIn(big, fail_from=2, fail_count=5)  # the second page fails 5 times
    url = server.install(httpserver)
    home = tmp_path / "home"
    Store(home / "paperlist.db").close()
    before = snapshot(home / "paperlist.db")
    r = update(home, "--venue", NEURIPS, "--no-index", openreview=url)
    assert r.returncode == 1
    failed = [line for line in r.stderr.splitlines() if line.startswith("failed")]
    assert failed == [f"failed      openreview: {url} kept failing (too many 500 error responses)"], r.stderr
    assert snapshot(home / "paperlist.db") == before  # nothing half-written
    asked = server.requests
    again = update(home, "--venue", NEURIPS, "--no-index", openreview=url)
    assert again.returncode == 0, again.stderr
    # the first page came from the spool: the resumed run asked for the other six
    assert server.requests - asked == 6
    clean = tmp_path / "clean"
    assert update(clean, "--venue", NEURIPS, "--no-index", openreview=url).returncode == 0
    assert papers(home) == papers(clean)


def test_kill_9_mid_update_then_a_rerun_converges(
    tmp_path: Path, httpserver: HTTPServer, notes: list[dict[str, Any]]
) -> None:
    server = OpenReviewStandIn(notes, delay=0.3)
    url = server.install(httpserver)
    home = tmp_path / "home"
    proc = subprocess.Popen(
        [EXE, "--home", str(home), "update", "--venue", NEURIPS],
        env=env(openreview=url, PAPERLIST_OPENREVIEW_PAGE="100"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while server.requests < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    server.delay = 0
    assert update(home, "--venue", NEURIPS, openreview=url, PAPERLIST_OPENREVIEW_PAGE="100").returncode == 0
    clean = tmp_path / "clean"
    assert update(clean, "--venue", NEURIPS, openreview=url, PAPERLIST_OPENREVIEW_PAGE="100").returncode == 0
    assert papers(home) == papers(clean)
    doctor = subprocess.run([EXE, "--home", str(home), "doctor"], capture_output=True, text=True, check=False)
    assert doctor.returncode == 0, doctor.stdout


def test_no_network_is_one_line_per_source_and_the_store_unchanged(tmp_path: Path) -> None:
    home = tmp_path / "home"
    store = Store(home / "paperlist.db")
    assert ingest(store, [str(shared_data("neurips2026/highlights.json"))], jobs=1).failed == 0
    store.close()
    before = snapshot(home / "paperlist.db")
    r = update(home, "--no-index")
    assert r.returncode == 1
    assert [line.split(":")[0] for line in r.stderr.splitlines()] == [
        "failed      openreview",
        "failed      openalex",
    ]
    assert all(
        "cannot reach http://127.0.0.1:9 (connection refused)" in line for line in r.stderr.splitlines()
    )
    assert snapshot(home / "paperlist.db") == before


def test_openalex_fills_title_only_papers_where_the_match_is_certain(
    tmp_path: Path, httpserver: HTTPServer
) -> None:
    """ICLR 2026's proceedings list (titles only) filled from works in OpenAlex's shape, made from the
    real API notes of the same papers (authors, abstract); a budget stops the run cleanly."""
    home = tmp_path / "home"
    store = Store(home / "paperlist.db")
    assert ingest(store, [str(shared_data("ai-top-conf-jsons/ICLR/iclr_2026.json.gz"))], jobs=1).failed == 0
    store.close()
    accepted = [n for n in real_notes() if n["content"]["venueid"]["value"] == "ICLR.cc/2026/Conference"]
    works = [
        openalex_work(
            f"W{i}",
            n["content"]["title"]["value"],
            2026,
            [(a, "Some University") for a in n["content"]["authors"]["value"]],
            n["content"]["abstract"]["value"],
            source="ICLR 2026",
            cited=i,
        )
        for i, n in enumerate(accepted)
    ]
    server = OpenAlexStandIn(works, throttle=3)
    r = update(
        home,
        "--source",
        "openalex",
        "--budget",
        "400",
        "--no-index",
        "--json",
        openalex=server.install(httpserver),
    )
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)["sources"][0]
    assert report["stopped"].startswith("the request budget of this run (400) is spent")
    db = Store(home / "paperlist.db", readonly=True).db
    filled = db.execute(
        "SELECT count(*) FROM papers WHERE venue='iclr' AND year=2026 AND n_authors > 0"
        " AND abstract IS NOT NULL AND sources LIKE '%openalex:%'"
    ).fetchone()[0]
    titles = {w["display_name"] for w in works}
    asked = db.execute("SELECT count(*) FROM papers WHERE venue='iclr' AND year=2026").fetchone()[0]
    assert 0 < filled <= len(titles) and asked > 5000
    # the next run goes on where this one stopped: no paper is asked twice
    r2 = update(
        home,
        "--source",
        "openalex",
        "--budget",
        "400",
        "--no-index",
        "--json",
        openalex=server.install(httpserver),
    )
    assert r2.returncode == 0, r2.stderr
    filled2 = db.execute("SELECT count(*) FROM papers WHERE sources LIKE '%openalex:%'").fetchone()[0]
    assert filled2 > filled


@pytest.mark.parametrize(
    ("works", "expected"),
    [
        (
            [
                openalex_work(
                    "W1",
                    "Deep Residual Learning for Image Recognition",
                    2016,
                    [],
                    None,
                    source="2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
                )
            ],
            "W1",
        ),
        # another venue's paper of the same title is not ours
        (
            [
                openalex_work(
                    "W1",
                    "Deep Residual Learning for Image Recognition",
                    2016,
                    [],
                    None,
                    source="Neural Information Processing Systems",
                )
            ],
            None,
        ),
        # a preprint of a long title is
        (
            [
                openalex_work(
                    "W2", "Deep Residual Learning for Image Recognition", 2015, [], None, source="arXiv"
                )
            ],
            "W2",
        ),
        # two of ours that fit equally: not certain
        (
            [
                openalex_work(
                    "W1", "Deep Residual Learning for Image Recognition", 2016, [], None, source="CVPR"
                ),
                openalex_work(
                    "W3", "Deep residual learning for image recognition", 2016, [], None, source="CVPR 2016"
                ),
            ],
            None,
        ),
        # the venue's version beats the preprint
        (
            [
                openalex_work(
                    "W2", "Deep Residual Learning for Image Recognition", 2015, [], None, source="arXiv"
                ),
                openalex_work(
                    "W1", "Deep Residual Learning for Image Recognition", 2016, [], None, source="CVPR"
                ),
            ],
            "W1",
        ),
        # too far in time, or another title
        (
            [
                openalex_work(
                    "W4", "Deep Residual Learning for Image Recognition", 2019, [], None, source="CVPR"
                ),
                openalex_work("W5", "Deep Residual Learning for Images", 2016, [], None, source="CVPR"),
            ],
            None,
        ),
    ],
)
def test_openalex_matches_only_when_certain(works: list[dict[str, Any]], expected: str | None) -> None:
    got = certain(Wanted("cvpr2016-x", "cvpr", 2016, "Deep Residual Learning for Image Recognition"), works)
    assert (got["id"].rsplit("/", 1)[-1] if got else None) == expected


def test_a_short_title_needs_the_venue() -> None:
    preprint = openalex_work("W9", "Attention Is All You Need", 2017, [], None, source="arXiv")
    assert certain(Wanted("neurips2017-x", "neurips", 2017, "Attention Is All You Need"), [preprint]) is None


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    home = tmp_path / "site"
    store = Store(home / "paperlist.db")
    assert ingest(store, [str(shared_data("neurips2026/highlights.json"))], jobs=1).failed == 0
    store.close()
    subprocess.run([EXE, "--home", str(home), "index"], check=True, capture_output=True)
    port = free_port()
    proc = subprocess.Popen(
        [EXE, "--home", str(home), "serve", "--port", str(port), "--workers", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=2)
            break
        except OSError:
            time.sleep(0.2)
    try:
        yield home, base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_an_update_while_the_site_serves(
    site: tuple[Path, str], httpserver: HTTPServer, notes: list[dict[str, Any]]
) -> None:
    home, base = site
    title = "Improving Developer Emotion Classification via LLM-Based Augmentation"
    query = f"{base}/api/v1/search?q=" + urllib.parse.quote(title)

    def found() -> bool:
        with urllib.request.urlopen(query, timeout=10) as resp:
            return any(h["title"] == title for h in json.loads(resp.read())["hits"])

    assert not found()
    statuses: list[int] = []
    done = threading.Event()

    def poll() -> None:
        while not done.is_set():
            try:
                with urllib.request.urlopen(query, timeout=10) as resp:
                    statuses.append(resp.status)
            except OSError as e:
                statuses.append(getattr(e, "code", 0))
            time.sleep(0.05)

    poller = threading.Thread(target=poll)
    poller.start()
    try:
        r = update(home, "--venue", NEURIPS, openreview=OpenReviewStandIn(notes).install(httpserver))
    finally:
        done.set()
        poller.join()
    assert r.returncode == 0, r.stderr
    assert statuses and set(statuses) == {200}
    deadline = time.monotonic() + 30
    while not found() and time.monotonic() < deadline:
        time.sleep(0.5)
    assert found()


def test_serve_update_every_runs_the_update_beside_the_site(tmp_path: Path, httpserver: HTTPServer,
                                                             notes: list[dict[str, Any]]) -> None:
    """`serve --update-every 6h`: the first update runs once the site answers, and the site then
    finds the new papers without a restart."""
    home = tmp_path / "site"
    store = Store(home / "paperlist.db")
    assert ingest(store, [str(shared_data("neurips2026/highlights.json"))], jobs=1).failed == 0
    store.close()
    subprocess.run([EXE, "--home", str(home), "index"], check=True, capture_output=True)
    port = free_port()
    url = OpenReviewStandIn(notes).install(httpserver)
    OpenAlexStandIn([]).install(httpserver)             # OpenAlex knows none of them
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([EXE, "--home", str(home), "serve", "--port", str(port), "--workers", "1",
                                 "--update-every", "6h"], stdout=out, stderr=subprocess.STDOUT,
                                env=env(openreview=url, openalex=url, PAPERLIST_UPDATE_VENUES=NEURIPS))
        try:
            title = "Improving Developer Emotion Classification via LLM-Based Augmentation"
            query = f"http://127.0.0.1:{port}/api/v1/search?q=" + urllib.parse.quote(title)
            deadline = time.monotonic() + 240
            found = False
            while not found and time.monotonic() < deadline:
                time.sleep(1)
                try:
                    with urllib.request.urlopen(query, timeout=10) as resp:
                        found = any(h["venue"] == "neurips" and "Emotion" in h["title"]
                                    for h in json.loads(resp.read())["hits"])
                except OSError:
                    pass
            assert found, log.read_text()[-3000:]
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    text = log.read_text()
    assert "paperlist update: started (every 6h" in text and "paperlist update: finished (ok)" in text


@pytest.mark.parametrize(("text", "seconds"), [("6h", 21600), ("30m", 1800), ("1d", 86400), ("90s", 90),
                                               ("120", 120)])
def test_durations(text: str, seconds: float) -> None:
    from paperlist.cli.background import parse_duration

    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "6x", "h", "10s", "-5h", "nan"])
def test_bad_durations(text: str) -> None:
    from paperlist.cli.background import parse_duration

    with pytest.raises(ValueError):
        parse_duration(text)
