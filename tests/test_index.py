"""The index lifecycle: generations switched atomically, old ones collected, searches that keep
answering while `paperlist index` rebuilds, and ingest rebuilding only when papers changed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from paperlist.index import fulltext
from paperlist.search import Searcher, SearchRequest
from paperlist.store import Store

from .conftest import PAPERCOPILOT, SEARCH_FIXTURES, build_search_home, run_cli


@pytest.fixture
def fresh_home(tmp_path: Path) -> Path:
    return build_search_home(tmp_path / "home")


def generations(home: Path) -> list[str]:
    return sorted(d.name for d in (home / "index").iterdir() if d.is_dir())


def test_build_writes_a_generation_and_points_current_at_it(fresh_home: Path) -> None:
    root = fresh_home / "index"
    gen = fulltext.current_generation(root)
    assert gen is not None and generations(fresh_home) == [gen]
    info = fulltext.generation_info(root / gen)
    assert info["papers"] == 38 and info["version"] == fulltext.INDEX_VERSION
    store = Store(fresh_home / "paperlist.db", readonly=True)
    assert fulltext.is_current(store, fresh_home) and not fulltext.needs_build(fresh_home)
    rep = fulltext.build(store, fresh_home, force=False)
    assert rep.skipped and rep.generation == gen                  # nothing changed: nothing built


def test_rebuild_switches_and_keeps_only_the_previous_generation(fresh_home: Path) -> None:
    store = Store(fresh_home / "paperlist.db", readonly=True)
    first = fulltext.current_generation(fresh_home / "index")
    second = fulltext.build(store, fresh_home).generation
    third = fulltext.build(store, fresh_home).generation
    assert len({first, second, third}) == 3
    assert generations(fresh_home) == sorted([second, third])     # the one before is kept for readers
    assert fulltext.current_generation(fresh_home / "index") == third
    assert not any(p.name.startswith(".CURRENT.") for p in (fresh_home / "index").iterdir())


def test_a_crashed_build_leaves_the_live_index_alone(fresh_home: Path) -> None:
    store = Store(fresh_home / "paperlist.db", readonly=True)
    live = fulltext.current_generation(fresh_home / "index")

    def boom(n: int, total: int) -> None:
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        fulltext.build(store, fresh_home, progress=boom)
    assert fulltext.current_generation(fresh_home / "index") == live and generations(fresh_home) == [live]
    assert Searcher.open(fresh_home).search(SearchRequest(q="deep sets")).total == 2


def test_searcher_follows_new_generations(fresh_home: Path) -> None:
    s = Searcher.open(fresh_home)
    before = s.generation
    assert s.reload() is False                                     # nothing changed: cheap no-op
    store = Store(fresh_home / "paperlist.db", readonly=True)
    fulltext.build(store, fresh_home)
    assert s.search(SearchRequest(q="deep sets")).total == 2       # picks up the switch by itself
    assert s.generation != before


def test_searches_keep_answering_while_paperlist_index_rebuilds(fresh_home: Path) -> None:
    searcher = Searcher.open(fresh_home)
    expected = searcher.search(SearchRequest(q="graph neural networks")).total
    seen: set[str | None] = {searcher.generation}
    errors: list[BaseException] = []
    answers = [0]
    stop = threading.Event()

    def keep_searching() -> None:
        while not stop.is_set():
            try:
                res = searcher.search(SearchRequest(q="graph neural networks"))
                assert res.total == expected and res.hits
                answers[0] += 1
                seen.add(searcher.generation)
            except BaseException as e:       # noqa: BLE001 - reported below
                errors.append(e)
                return

    threads = [threading.Thread(target=keep_searching) for _ in range(2)]
    for t in threads:
        t.start()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    try:
        for _ in range(3):
            r = subprocess.run([sys.executable, "-c", "from paperlist.cli import main; main()", "--home",  # noqa: PLW1510
                                str(fresh_home), "index", "-q"], capture_output=True, text=True, env=env,
                               timeout=120)
            assert r.returncode == 0, r.stderr
            assert "index:" in r.stdout
            time.sleep(0.05)
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert not errors, errors[0]
    assert answers[0] > 10
    assert len(seen) >= 2 and searcher.generation == fulltext.current_generation(fresh_home / "index")


def test_index_command_json(fresh_home: Path) -> None:
    r = run_cli(fresh_home, "index", "--json", "--if-stale")
    d = json.loads(r.stdout)
    assert r.exit_code == 0 and d["skipped"] is True and d["papers"] == 38
    d = json.loads(run_cli(fresh_home, "index", "--json").stdout)
    assert d["skipped"] is False and d["generation"] == fulltext.current_generation(fresh_home / "index")


def test_ingest_builds_the_index_when_papers_change(tmp_path: Path) -> None:
    home = tmp_path / "home"
    r = run_cli(home, "ingest", "-q", str(PAPERCOPILOT))
    assert r.exit_code == 0 and "index:" in r.stdout                      # first ingest: built
    gen = fulltext.current_generation(home / "index")
    r = run_cli(home, "ingest", "-q", str(PAPERCOPILOT))
    assert "index:" not in r.stdout and fulltext.current_generation(home / "index") == gen   # unchanged
    r = run_cli(home, "ingest", "-q", "--json", str(SEARCH_FIXTURES))
    d = json.loads(r.stdout)
    assert d["index"]["papers"] == 38 and d["index"]["generation"] != gen
    assert Searcher.open(home).search(SearchRequest(q="schrodinger bridges")).total == 1
    r = run_cli(home, "ingest", "-q", "--no-index", str(SEARCH_FIXTURES), "--force")
    assert "index:" not in r.stdout


def test_an_old_index_version_is_rebuilt_by_ingest(fresh_home: Path) -> None:
    root = fresh_home / "index"
    gen = fulltext.current_generation(root)
    assert gen is not None
    info = fulltext.generation_info(root / gen)
    (root / gen / fulltext.INFO_FILE).write_text(json.dumps({**info, "version": 0}))
    assert fulltext.needs_build(fresh_home)
    r = run_cli(fresh_home, "ingest", "-q", str(PAPERCOPILOT))
    assert "index:" in r.stdout and fulltext.current_generation(root) != gen


def test_write_atomic_leaves_the_old_file_or_the_new_one(tmp_path: Path, fresh_home: Path) -> None:
    from paperlist.files import write_atomic

    d = tmp_path / "atomic"
    d.mkdir()
    path = d / "CURRENT"
    path.write_bytes(b"old\n")

    def half(f: object) -> None:
        f.write(b"ne")      # type: ignore[attr-defined]
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_atomic(path, half)
    assert path.read_bytes() == b"old\n" and [p.name for p in d.iterdir()] == ["CURRENT"]
    write_atomic(path, lambda f: f.write(b"new\n"))
    assert path.read_bytes() == b"new\n" and [p.name for p in d.iterdir()] == ["CURRENT"]
    # what a killed process would leave beside the index's CURRENT is swept by the next build
    orphan = fresh_home / "index" / ".CURRENT.dead.tmp"
    orphan.write_text("g-half")
    fulltext.build(Store(fresh_home / "paperlist.db", readonly=True), fresh_home)
    assert not orphan.exists()


def _results(home: Path) -> dict[str, object]:
    s = Searcher.open(home)
    out: dict[str, object] = {}
    for q in ("", "learning", "graph neural networks", "attention", "author:bengio", "nlp"):
        for sort in ("relevance", "title", "rating", "newest", "citations"):
            r = s.search(SearchRequest(q=q, sort=sort, per_page=50))
            # papers with equal counts come in index order under sort=citations (as between any
            # two full builds, written by two threads): compare the counts there
            out[f"{q}|{sort}"] = (r.total, [h.citations if sort == "citations" else h.id for h in r.hits])
    return out


def test_a_small_change_rewrites_only_the_changed_documents(fresh_home: Path, tmp_path: Path) -> None:
    """After one venue-year arrives, the build copies the live generation (its segment files are
    the same files) and adds the new papers as one small segment; every search, in every sort,
    answers as a full build of the same papers does."""
    import shutil

    from paperlist.service import Home
    from paperlist.service.derived import ingest

    root = fresh_home / "index"
    old = fulltext.current_generation(root)
    assert old is not None
    old_segments = {p.name: p.stat().st_ino for p in (root / old).glob("*.idx")}
    rep, derived = ingest(Home(fresh_home), [str(SEARCH_FIXTURES.parent / "acl" / "2023.emnlp.xml")])
    assert derived is not None and rep.papers.new > 0
    built = derived.index
    assert built.changed is not None and rep.papers.new <= built.changed < built.papers / 2
    new = root / built.generation
    for name, inode in old_segments.items():                  # the same files, hard-linked
        assert (new / name).stat().st_ino == inode
    assert len(list(new.glob("*.idx"))) == len(old_segments) + 1
    incremental = _results(fresh_home)
    full = tmp_path / "full"
    shutil.copytree(fresh_home, full)
    again = fulltext.build(Store(full / "paperlist.db", readonly=True), full, full=True)
    assert again.changed is None and again.papers == built.papers
    assert _results(full) == incremental


def test_spaced_values_make_room_between_neighbours() -> None:
    from paperlist.index import docstate

    order = [3, 0, 4, 1, 2]                                  # sorted: 3 < 0 < 4 < 1 < 2
    kept = {3: 10, 4: 20, 2: 40}
    filled = docstate.fill(order, kept)
    assert filled is not None
    values = kept | filled
    assert [values[i] for i in order] == sorted(values[i] for i in order)
    assert len(set(values.values())) == 5
    assert docstate.fill(order, {3: 10, 4: 11, 2: 40}) is None           # no value between 10 and 11
    assert docstate.fill(order, {3: 30, 4: 20}) is None                  # kept values out of order
    full = docstate.spaced(order)
    assert [int(full[i]) for i in order] == [docstate.GAP * k for k in range(1, 6)]
