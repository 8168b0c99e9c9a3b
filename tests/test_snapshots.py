"""Publish and follow: a builder's home reaches a follower over real HTTP, checked and switched
atomically; a damaged or hostile snapshot is refused and the live one keeps serving."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from paperlist.search import Searcher, SearchRequest
from paperlist.service import Home
from paperlist.service.derived import ingest
from paperlist.service.replicas import (
    PublishError,
    PublishReport,
    SyncError,
    follow_once,
    follow_status,
    rollback,
)
from paperlist.service.replicas import publish as publish_home
from paperlist.snapshots import layout
from paperlist.snapshots.manifest import (
    LATEST_FILE,
    Latest,
    Manifest,
    ManifestError,
    chunk_path,
    manifest_path,
    unpack,
)
from paperlist.store import Store
from tests.conftest import FIXTURES, PAPERCOPILOT, SEARCH_FIXTURES, run_cli, serve_dir

EXTRA = FIXTURES / "acl" / "2023.emnlp.xml"        # "one venue-year changed": EMNLP 2023 arrives
SMALL = 4096                                       # chunks to the scale of a fixture home (~400 KB)


def publish(home: Home, out: Path, keep: int = 3) -> PublishReport:
    return publish_home(home, out, keep=keep, chunk_bytes=SMALL, db_block=SMALL)


@pytest.fixture
def builder(tmp_path: Path) -> Path:
    """A builder's home as `paperlist ingest` leaves it: papers, topics, statistics, index."""
    home = tmp_path / "builder"
    rep, _ = ingest(Home(home), [str(PAPERCOPILOT), str(SEARCH_FIXTURES)], jobs=1)
    assert rep.failed == 0
    return home


def _published(out: Path, sid: str) -> Manifest:
    return Manifest.parse(unpack((out / manifest_path(sid)).read_bytes()))


def _count(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        return int(c.execute("select count(*) from papers").fetchone()[0])


def _hits(home: Path, q: str) -> list[str]:
    return [h.id for h in Searcher.open(home).search(SearchRequest(q=q, per_page=5)).hits]


def test_publish_then_follow_over_http(builder: Path, tmp_path: Path) -> None:
    out, root = tmp_path / "pub", tmp_path / "follower"
    first = publish(Home(builder), out)
    assert first.new_chunks == first.chunk_count > 0 and (out / LATEST_FILE).exists()
    with serve_dir(out) as url:
        got = follow_once(root, url)
        assert got.switched and got.id == first.id and got.fetched == first.chunk_count
        live = root / layout.LIVE
        assert _count(live / "paperlist.db") == _count(builder / "paperlist.db")
        assert _hits(live, "attention") == _hits(builder, "attention") != []
        # the copy is a standalone rollback-journal database: no -wal beside it, readable read-only
        assert not (live / "paperlist.db-wal").exists()
        # nothing new published: nothing fetched
        again = follow_once(root, url)
        assert not again.switched and again.downloaded == 0

        # one venue-year changes on the builder: only the chunks that changed travel
        ingest(Home(builder), [str(EXTRA)])
        second = publish(Home(builder), out)
        assert 0 < second.new_chunks < second.chunk_count
        took = follow_once(root, url)
        assert took.switched and took.id == second.id
        assert took.fetched < second.chunk_count and took.reused > 0
        assert took.downloaded <= second.new_bytes
        assert layout.live_id(root) == second.id and layout.previous_id(root) == first.id
        assert _count(live / "paperlist.db") == _count(builder / "paperlist.db")
        assert _hits(live, "emnlp") == _hits(builder, "emnlp")
    ok, line = follow_status(root)
    assert ok and second.id in line


def test_a_flipped_byte_is_refused_and_the_live_snapshot_stays(builder: Path, tmp_path: Path) -> None:
    out, root = tmp_path / "pub", tmp_path / "follower"
    first = publish(Home(builder), out)
    follow_once(root, str(out))
    ingest(Home(builder), [str(EXTRA)])
    second = publish(Home(builder), out)
    new = _published(out, second.id).chunk_names() - _published(out, first.id).chunk_names()
    victim = out / chunk_path(sorted(new)[0])
    blob = bytearray(victim.read_bytes())
    blob[len(blob) // 2] ^= 0x01
    victim.write_bytes(bytes(blob))
    with pytest.raises(SyncError, match="does not (match its sha256|decompress)"):
        follow_once(root, str(out))
    assert layout.live_id(root) == first.id
    ok, line = follow_status(root)
    assert not ok and "refused" in line and first.id in line
    # the publisher writes the chunk again (a re-publish of the same content): taken
    victim.unlink()
    third = publish(Home(builder), out)
    assert follow_once(root, str(out)).switched and layout.live_id(root) == third.id
    assert follow_status(root)[0]


def test_a_manifest_that_does_not_match_latest_is_refused(builder: Path, tmp_path: Path) -> None:
    out, root = tmp_path / "pub", tmp_path / "follower"
    rep = publish(Home(builder), out)
    path = out / manifest_path(rep.id)
    blob = bytearray(path.read_bytes())
    blob[-5] ^= 0x01                                          # one flipped bit
    path.write_bytes(bytes(blob))
    with pytest.raises(SyncError, match="does not match the sha256 in LATEST"):
        follow_once(root, str(out))
    assert layout.live_id(root) is None


@pytest.mark.parametrize("path", ["../etc/passwd", "/etc/passwd", "index/../../x", "index", "lists.db",
                                  "vectors/cache/x.npz/../../../y", "index//x", "index/./x",
                                  "reports/a\x00b"])
def test_manifest_paths_stay_inside_the_snapshot(path: str) -> None:
    doc = {"format": "paperlist-snapshot/1", "id": "s20261207T120000000-abcdef", "created": "2026-12-07",
           "info": {}, "files": [{"path": "paperlist.db", "size": 0, "sha256": "0" * 64, "chunks": []},
                                 {"path": path, "size": 0, "sha256": "0" * 64, "chunks": []}]}
    with pytest.raises(ManifestError, match="path"):
        Manifest.parse(orjson.dumps(doc))


@pytest.mark.parametrize("change", [
    {"size": 5},                                               # chunks do not add up
    {"chunks": [["0" * 64, -1, 1]]},
    {"chunks": [["xyz", 1, 1]]},
    {"sha256": "A" * 64},
])
def test_manifest_entries_are_checked(change: dict[str, object]) -> None:
    entry = {"path": "paperlist.db", "size": 0, "sha256": "0" * 64, "chunks": []} | change
    doc = {"format": "paperlist-snapshot/1", "id": "s20261207T120000000-abcdef", "created": "x", "info": {},
           "files": [entry]}
    with pytest.raises(ManifestError):
        Manifest.parse(orjson.dumps(doc))


def test_latest_cannot_point_outside_snapshots() -> None:
    good = Latest(id="s20261207T120000000-abcdef", manifest="snapshots/s20261207T120000000-abcdef.json.zst",
                  sha256="0" * 64, size=10)
    assert Latest.parse(good.to_bytes()) == good
    bad = orjson.loads(good.to_bytes()) | {"manifest": "../../etc/passwd"}
    with pytest.raises(ManifestError):
        Latest.parse(orjson.dumps(bad))


def test_a_snapshot_over_the_disk_budget_is_refused(builder: Path, tmp_path: Path) -> None:
    out, root = tmp_path / "pub", tmp_path / "follower"
    rep = publish(Home(builder), out)
    with pytest.raises(SyncError, match="disk budget"):
        follow_once(root, str(out), budget=rep.size // 2)
    assert layout.live_id(root) is None and not list((root / layout.SNAPSHOTS).glob("*"))
    assert follow_once(root, str(out), budget=rep.size * 3).switched


def test_publish_refuses_an_index_behind_the_store(builder: Path, tmp_path: Path) -> None:
    ingest(Home(builder), [str(EXTRA)], derive=False)          # an update cut short before its index
    with pytest.raises(PublishError, match="do not match the store"):
        publish(Home(builder), tmp_path / "pub")
    assert not (tmp_path / "pub" / LATEST_FILE).exists()
    r = run_cli(builder, "publish", str(tmp_path / "pub"))
    last = r.stderr.strip().splitlines()[-1]
    assert r.exit_code == 1 and last.startswith("error: the topics") and "run 'paperlist index'" in last


def test_rollback_holds_the_newer_snapshot_back(builder: Path, tmp_path: Path) -> None:
    out, root = tmp_path / "pub", tmp_path / "follower"
    first = publish(Home(builder), out)
    follow_once(root, str(out))
    ingest(Home(builder), [str(EXTRA)])
    second = publish(Home(builder), out)
    follow_once(root, str(out))
    assert rollback(root) == first.id and layout.live_id(root) == first.id
    assert not follow_once(root, str(out)).switched            # held back
    ingest(Home(builder), [str(FIXTURES / "acl" / "2023.findings.xml")])
    third = publish(Home(builder), out)
    assert follow_once(root, str(out)).id == third.id and layout.live_id(root) == third.id
    assert second.id != third.id


def test_a_served_home_switches_to_the_new_snapshot(builder: Path, tmp_path: Path) -> None:
    out, root = tmp_path / "pub", tmp_path / "follower"
    publish(Home(builder), out)
    follow_once(root, str(out))
    home = Home(root / layout.LIVE)
    before = home.store.count_papers()
    assert home.searcher is not None
    ingest(Home(builder), [str(EXTRA)])
    second = publish(Home(builder), out)
    follow_once(root, str(out))
    deadline = time.monotonic() + 15
    while home.snapshot != f"snapshots/{second.id}" and time.monotonic() < deadline:
        # old or new, never none
        assert home.store.count_papers() in (before, _count(builder / "paperlist.db"))
        time.sleep(0.1)
    assert home.store.count_papers() == _count(builder / "paperlist.db") > before
    assert home.searcher is not None and home.data_path.name == second.id


def test_a_killed_follow_resumes_without_fetching_again(builder: Path, tmp_path: Path) -> None:
    out, root = tmp_path / "pub", tmp_path / "follower"
    publish(Home(builder), out)
    env = {**os.environ, "PAPERLIST_HOME": str(root)}
    with serve_dir(out, delay=0.05) as url:
        proc = subprocess.Popen([sys.executable, "-m", "paperlist", "follow", url, "--quiet"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        fetched = root / layout.INCOMING
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not len(list(fetched.glob("*/.chunks/*"))) >= 3:
            time.sleep(0.05)
        proc.kill()
        proc.wait()
        before = {p.name for p in fetched.glob("*/.chunks/*") if not p.name.startswith(".")}
        assert before and layout.live_id(root) is None
        got = follow_once(root, url)
    assert got.switched and got.reused >= len(before)
    assert not (root / layout.INCOMING / got.id).exists()


def test_follower_options(builder: Path, tmp_path: Path) -> None:
    r = run_cli(tmp_path / "f", "serve", "--follow", str(tmp_path / "pub"), "--update-every", "6h")
    assert r.exit_code == 2 and "--update-every belongs on the builder" in r.output
    r = run_cli(builder, "serve", "--follow", str(tmp_path / "pub"))
    assert r.exit_code == 2 and "holds a builder's store" in r.output
    r = run_cli(tmp_path / "f", "follow", str(tmp_path / "nowhere"))
    assert r.exit_code == 1 and "LATEST" in r.output
    r = run_cli(tmp_path / "f", "follow", str(tmp_path / "pub"), "--disk-budget", "lots")
    assert r.exit_code == 2 and "not a size" in r.output


def test_publish_keeps_the_newest_snapshots_and_their_chunks(builder: Path, tmp_path: Path) -> None:
    out = tmp_path / "pub"
    ids = [publish(Home(builder), out, keep=2).id]
    ingest(Home(builder), [str(EXTRA)])
    ids.append(publish(Home(builder), out, keep=2).id)
    ingest(Home(builder), [str(FIXTURES / "acl" / "2023.findings.xml")])
    last = publish(Home(builder), out, keep=2)
    assert last.removed == ids[:1]
    kept = set()
    for p in (out / "snapshots").glob("*.json.zst"):
        kept |= Manifest.parse(unpack(p.read_bytes())).chunk_names()
    on_disk = {p.name for p in (out / "chunks").glob("*/*")}
    assert on_disk == kept
    shutil.rmtree(tmp_path / "f", ignore_errors=True)
    assert follow_once(tmp_path / "f", str(out)).id == last.id


def test_drain_takes_the_server_out_of_the_balancer(web_home: Path, web_store: Store, tmp_path: Path) -> None:
    """`paperlist drain` makes /healthz answer 503 while requests are still served; --undo (or the
    next start of serve) brings it back."""
    from starlette.testclient import TestClient

    from paperlist.web.app import Settings, create_app

    flag = tmp_path / "DRAIN"
    app = create_app(Settings(home=web_home, store=web_store, drain_file=flag, warm_pages=False))
    with TestClient(app, client=("127.0.0.1", 50000)) as c:
        assert c.get("/healthz").status_code == 200
        r = run_cli(tmp_path, "drain", "--wait", "0")
        assert r.exit_code == 0 and flag.exists()
        h = c.get("/healthz")
        assert h.status_code == 503 and h.text.startswith("draining")
        assert c.get("/api/v1/stats").status_code == 200          # still serving what comes
        run_cli(tmp_path, "drain", "--undo")
        assert c.get("/healthz").status_code == 200


def _vectors(home: Path, n: int, seed: int) -> None:
    """A published vector generation of ``n`` random rows (ids need not be papers here)."""
    import numpy as np

    from paperlist.index.vectors import publish as publish_vectors

    rng = np.random.default_rng(seed)
    mat = rng.normal(size=(n, 384)).astype(np.float32)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    rows = [(f"x{i}", "icml", 2024, i.to_bytes(12, "big")) for i in range(n)]
    publish_vectors(home, rows, {r[3]: mat[i] for i, r in enumerate(rows)}, 128)


def test_the_vector_graph_is_made_by_the_follower_not_shipped(builder: Path, tmp_path: Path) -> None:
    """The HNSW graph is built anew on every publish and differs throughout: shipped, it would
    cost a follower ~100 MB of every small update. A follower builds it from the vectors, or
    links it from its live snapshot when the vector generation did not change."""
    np = pytest.importorskip("numpy", reason="the semantic extra (numpy, usearch) builds vector graphs")
    pytest.importorskip("usearch", reason="the semantic extra (numpy, usearch) builds vector graphs")
    from paperlist.index.vectorindex import Generation
    from paperlist.index.vectors import ANN_FILE, ANN_MIN_ROWS

    _vectors(builder, ANN_MIN_ROWS, seed=3)
    rep, derived = ingest(Home(builder), [])        # the topics read the vectors: brought up to date
    assert derived is not None
    out, root = tmp_path / "pub", tmp_path / "follower"
    first = publish(Home(builder), out)
    assert not [f for f in _published(out, first.id).files if f.path.endswith(ANN_FILE)]
    with serve_dir(out) as url:
        assert follow_once(root, url).switched
        gen = (root / layout.LIVE / "vectors" / "CURRENT").read_text().strip()
        ann = (root / layout.LIVE / "vectors" / gen / ANN_FILE).resolve()     # in the first snapshot
        vi = Generation.load(ann.parent)
        assert vi.ann is not None
        # the graph finds a row's own vector first
        assert vi.ann.search(np.asarray(vi.mat[123], dtype=np.float32), 1).keys[0] == 123
        # papers change, the vectors do not: the next snapshot links the graph it already has
        ingest(Home(builder), [str(EXTRA)])
        second = publish(Home(builder), out)
        assert follow_once(root, url).id == second.id
        again = (root / layout.LIVE / "vectors" / gen / ANN_FILE).resolve()
        assert again != ann and again.stat().st_ino == ann.stat().st_ino
