"""Shared test fixtures: a real SQLite store in a temp home, the CLI run in-process, and the
real corpus when ../shared/data is present."""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from paperlist.cli import main
from paperlist.ingest import ingest
from paperlist.sources.origins import default_data_dir
from paperlist.store import Store

FIXTURES = Path(__file__).parent / "fixtures"
PAPERCOPILOT = FIXTURES / "papercopilot"
_NAMED_DATA = os.environ.get("PAPERLIST_SHARED_DATA") or os.environ.get("PAPERLIST_DATA")
SHARED_DATA = Path(_NAMED_DATA or default_data_dir() or "/nonexistent/shared/data")


def pytest_configure(config: pytest.Config) -> None:
    """``./test.sh`` installs the semantic extra and sets PAPERLIST_REQUIRE_SEMANTIC=1: then a
    missing extra stops the run instead of quietly skipping the embedding and vector tests."""
    from paperlist.index.encoder import missing_reason
    from paperlist.index.vectors import available

    reason = available() or missing_reason()
    if os.environ.get("PAPERLIST_REQUIRE_SEMANTIC") == "1" and reason:
        raise pytest.UsageError(f"PAPERLIST_REQUIRE_SEMANTIC=1 but the semantic extra is missing: {reason}")


def run_cli(home: Path, *args: str) -> Result:
    """Run `paperlist --home HOME ARGS...` in-process; stdout and stderr kept apart."""
    return CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)


def publish_vectors(home: Path, near: Callable[[str], bool], pull: float, seed: int) -> dict[str, object]:
    """Publish a vector for every paper of ``home``'s store (no model needed): random, plus ``pull``
    times one shared direction for the papers whose title is ``near``, so they are each other's
    neighbours. Returns the vectors by paper id. Needs numpy and usearch (the semantic extra)."""
    import numpy as np

    from paperlist.index.vectors import content_hash, publish

    store = Store(home / "paperlist.db", readonly=True)
    rng = np.random.default_rng(seed)
    shared = rng.normal(size=384)
    rows, cache = [], {}
    vecs: dict[str, object] = {}
    for pid, venue, year, title, _abstract in store.iter_embed_items():
        v = rng.normal(size=384) + (pull * shared if near(title) else 0)
        v = (v / np.linalg.norm(v)).astype(np.float32)
        h = content_hash(title, 128)
        rows.append((pid, venue, year, h))
        cache[h] = v
        vecs[pid] = v
    publish(home, rows, cache, 128)
    store.close()
    return vecs


def snapshot(db_path: Path) -> list[str]:
    """Every row of every table, as SQL text: equal snapshots mean an unchanged store."""
    conn = sqlite3.connect(db_path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


@pytest.fixture
def store(home: Path) -> Store:
    return Store(home / "paperlist.db")


@pytest.fixture(scope="session")
def pc_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """The papercopilot fixtures, ingested once for read-only tests."""
    home = tmp_path_factory.mktemp("pc")
    st = Store(home / "paperlist.db")
    rep = ingest(st, [str(PAPERCOPILOT)], jobs=1)
    assert rep.failed == 0
    return st


@pytest.fixture(scope="session")
def corpus_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """The whole real corpus (../shared/data) ingested once per test session (~2-3 min), with its
    curated reading lists read and matched (~35 s)."""
    from paperlist.curated import folder as lists_folder
    from paperlist.curated.match import match_lists
    from paperlist.curated.read import read_lists

    root = shared_data()
    st = Store(tmp_path_factory.mktemp("corpus") / "paperlist.db")
    rep = ingest(st, [str(root)])
    assert rep.failed == 0, [(f.name, f.error) for f in rep.files if f.status == "failed"]
    lists = read_lists(st, lists_folder.find([str(root)]))
    assert lists.lists and not lists.problems, lists.problems
    match_lists(st)
    return st


@pytest.fixture(scope="session")
def corpus_home(corpus_store: Store) -> Path:
    """The home of ``corpus_store`` with a search index built from it, once per test session."""
    from paperlist.index import fulltext

    home = corpus_store.path.parent
    fulltext.build(corpus_store, home, force=False)
    return home


@pytest.fixture(scope="session")
def icra_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small real home: one ICRA 2026 program day (990 papers, most with abstracts), ingested
    by the CLI (topics and index built), for the background-embedding tests."""
    import subprocess
    import sys

    src = shared_data("icra2026/icra2026-program-tuesday.html.gz")
    home = tmp_path_factory.mktemp("icra")
    exe = Path(sys.executable).parent / "paperlist"
    r = subprocess.run([str(exe), "--home", str(home), "ingest", str(src)], capture_output=True, text=True,
                       check=False, timeout=300)
    assert r.returncode == 0, r.stderr
    return home


def shared_data(sub: str = "") -> Path:
    path = SHARED_DATA / sub
    if not path.exists():
        if not _NAMED_DATA and default_data_dir() is None:
            pytest.skip("real corpus not found: no ../shared/data beside the checkout, PAPERLIST_DATA unset")
        pytest.skip(f"real corpus not present at {path}")
    return path


@contextlib.contextmanager
def serve_dir(root: Path, delay: float = 0.0) -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 serving ``root`` (each answer ``delay`` seconds late);
    yields its base URL."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def do_GET(self) -> None:
            if delay:
                time.sleep(delay)
            super().do_GET()

        def log_message(self, *a: object) -> None:
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.fixture
def http_root(tmp_path: Path) -> Iterator[str]:
    """A copy of the papercopilot fixtures (tmp_path/www) served over HTTP on 127.0.0.1."""
    root = tmp_path / "www"
    shutil.copytree(PAPERCOPILOT, root)
    with serve_dir(root) as url:
        yield url


SEARCH_FIXTURES = FIXTURES / "search"


def build_search_home(home: Path) -> Path:
    """A home with the papercopilot and search fixtures ingested and indexed."""
    from paperlist.index import fulltext

    st = Store(home / "paperlist.db")
    rep = ingest(st, [str(PAPERCOPILOT), str(SEARCH_FIXTURES)], jobs=1)
    assert rep.failed == 0
    from paperlist.topics.build import assign_topics

    assign_topics(st, home)
    fulltext.build(st, home)
    st.close()
    return home


# --- the site -------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def web_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home with the site's fixture corpus (tests/webdata.py) and its search index, built once."""
    from tests.webdata import build_store

    home = tmp_path_factory.mktemp("web")
    build_store(home).close()
    return home


@pytest.fixture(scope="session")
def search_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Read-only: a store and a search index built from the fixtures, shared by the search tests."""
    return build_search_home(tmp_path_factory.mktemp("search"))


@pytest.fixture(scope="session")
def web_store(web_home: Path) -> Store:
    return Store(web_home / "paperlist.db", readonly=True)


@pytest.fixture(scope="session")
def web_app(web_home: Path, web_store: Store):
    from paperlist.web.app import Settings, create_app

    return create_app(Settings(home=web_home, store=web_store))


@pytest.fixture(scope="session")
def client(web_app):
    from starlette.testclient import TestClient

    # a loopback peer: exempt from the rate limit, as a local user is ("testclient" is not an address)
    with TestClient(web_app, follow_redirects=False, client=("127.0.0.1", 50000)) as c:
        yield c


@contextlib.contextmanager
def serve_site(home: Path, lists_url: str | None = None) -> Iterator[str]:
    """The site and API of ``home`` under a real uvicorn on a free 127.0.0.1 port (a thread of
    this process); yields its base URL. Reading lists live at ``lists_url`` (default <home>/lists.db)."""
    import uvicorn

    from paperlist.web.app import Settings, create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    app = create_app(Settings(home=home, store=Store(home / "paperlist.db", readonly=True),
                              lists_url=lists_url))
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                        lifespan="off"))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        t.join(timeout=10)


# --- reading lists: the same tests against SQLite and a real PostgreSQL ----------------------
LIST_BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster (initdb + pg_ctl from Debian's postgresql package, on a unix
    socket in a temp dir), one per test session; skipped when the binaries are absent."""
    from tests.pgcluster import PgCluster, find_bindir

    bindir = find_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL binaries are absent (apt-get install postgresql): the PostgreSQL backend is "
                    "not tested here")
    cluster = PgCluster(bindir)
    cluster.start()
    try:
        yield cluster.url()
    finally:
        cluster.stop()


@pytest.fixture(params=LIST_BACKENDS)
def lists_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty lists store of each backend: an SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "lists" / "lists.db")
        return
    base: str = request.getfixturevalue("postgres_url")
    from tests.pgcluster import fresh_database

    with fresh_database(base) as url:
        yield url
