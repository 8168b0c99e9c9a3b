"""Interrupted commands converge: kill -9 `paperlist ingest` during its parse, merge, topics or index
phase (chosen by waiting for that phase's progress line on stderr), or `paperlist index`, run the
same command again, and the home is exactly what a clean run makes: `stats --json`, every table
(benchmarks/fault_bench.py's digests), the live index's documents, and no index generation
beyond the live and the previous one; the killed command's worker processes exit by themselves.

An interruption between two merged blocks is also made exactly (an exception from the progress
callback, in-process), and `paperlist doctor` is checked on what it leaves."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from benchmarks.fault_bench import differences, home_state, index_state, run_killed, run_ok, table_digests
from paperlist import ingest as ingest_mod
from paperlist.index import fulltext
from paperlist.ingest import FileReport
from paperlist.service import Home
from paperlist.service import ingest as service_ingest
from paperlist.store import Store
from paperlist.store.base import SCHEMA_VERSION
from tests.conftest import FIXTURES, run_cli

INGEST = ["ingest", "--jobs", "2", str(FIXTURES)]


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A clean run of ``ingest tests/fixtures`` (subprocess) and the state it ends in."""
    home = tmp_path_factory.mktemp("clean") / "home"
    run_ok(home, INGEST)
    return home, home_state(home)


@pytest.mark.parametrize("phase", ["parse", "merge", "topics", "stats", "index"])
def test_ingest_killed_in_a_phase_converges(phase: str, clean: tuple[Path, dict[str, Any]],
                                            tmp_path: Path) -> None:
    home = tmp_path / "home"
    res = run_killed(home, INGEST, phase=phase, timeout=60)
    # the index phase's only line comes near its end: the command may finish before the kill
    assert res["killed"] or phase == "index", res
    assert res["workers"] > 0 and res["orphans"] == 0, res          # the workers exited with it
    run_ok(home, INGEST)
    assert differences(home_state(home), clean[1]) == []


def test_index_killed_repeatedly_leaves_no_generations(clean: tuple[Path, dict[str, Any]],
                                                       tmp_path: Path) -> None:
    home = Path(shutil.copytree(clean[0], tmp_path / "home"))
    for _ in range(3):
        run_killed(home, ["index"], phase="index", timeout=60)
        root = fulltext.index_root(home)
        assert len([d for d in root.iterdir() if d.is_dir()]) <= 3       # live, previous, the killed one
    run_ok(home, ["index"])
    state = index_state(home)
    assert state["leftover"] == [] and state["generations"] == 2
    assert differences(home_state(home), clean[1]) == []


# --- an interruption between two blocks of the merge, made exactly ---------------------------------
class Interrupted(Exception):
    pass


class StopAfter:
    """Progress that stops the ingest right after block ``n`` was merged (and committed)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def file_done(self, n: int, total: int, report: FileReport) -> None:
        pass

    def merge_step(self, n: int, total: int, block: str) -> None:
        if n == (total if self.n < 0 else self.n):
            raise Interrupted


@pytest.fixture(scope="module")
def clean_tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("clean-tables")
    service_ingest(Home(home), [str(FIXTURES)], jobs=1)
    return table_digests(home / "paperlist.db")


def interrupted_home(home: Path, after: int) -> Path:
    with pytest.raises(Interrupted):
        ingest_mod.ingest(Store(home / "paperlist.db"), [str(FIXTURES)], progress=StopAfter(after), jobs=1)
    return home


@pytest.mark.parametrize(("after", "rerun"), [(3, "ingest"), (20, "merge"), (-1, "ingest"), (-1, "merge")],
                         ids=["early-ingest", "middle-merge", "last-block-ingest", "last-block-merge"])
def test_merge_interrupted_between_blocks_converges(after: int, rerun: str, clean_tables: dict[str, str],
                                                    tmp_path: Path) -> None:
    home = interrupted_home(tmp_path / "home", after)
    store = Store(home / "paperlist.db")          # a new process: nothing of the first one's memory
    assert store.pending_authors() > 0                  # durable: the refresh is still owed
    if rerun == "ingest":
        service_ingest(Home(home), [str(FIXTURES)], jobs=1)
    else:
        assert run_cli(home, "merge").exit_code == 0
        service_ingest(Home(home), [str(FIXTURES)], jobs=1)     # then topics, stats and the index
    assert store.pending_authors() == 0 and not store.venues_stale()
    assert table_digests(home / "paperlist.db") == clean_tables


def test_doctor_reports_and_repairs(clean_tables: dict[str, str], tmp_path: Path) -> None:
    home = interrupted_home(tmp_path / "home", 20)
    r = run_cli(home, "doctor")
    assert r.exit_code == 1
    lines = {ln.split()[1]: ln for ln in r.output.splitlines()}
    assert set(lines) == {"merge", "authors", "topics", "stats", "index", "generations"}, r.output
    for name in ("merge", "authors", "topics", "stats", "index"):
        assert lines[name].startswith("STALE"), r.output
    assert lines["generations"].startswith("ok"), r.output
    stray = fulltext.index_root(home) / "g20200101T000000-dead00"     # what a killed build leaves
    stray.mkdir(parents=True)
    (stray / "meta.json").write_text("{}")
    r = run_cli(home, "doctor")
    assert "1 left by killed builds: g20200101T000000-dead00" in r.output, r.output

    r = run_cli(home, "doctor", "--repair")
    assert r.exit_code == 0, r.output
    assert [ln.split()[0] for ln in r.output.splitlines()] == ["repaired"] * 6, r.output
    assert not stray.exists()
    r = run_cli(home, "doctor")
    assert r.exit_code == 0 and [ln.split()[0] for ln in r.output.splitlines()] == ["ok"] * 6, r.output
    assert table_digests(home / "paperlist.db") == clean_tables


def test_stale_index_is_noticed_by_a_rerun_that_changes_nothing(tmp_path: Path) -> None:
    """The index is stale by what durable state says (its generation's fingerprint against the
    store), not by what this run changed: a generation built from other papers is rebuilt."""
    home = tmp_path / "home"
    service_ingest(Home(home), [str(FIXTURES)], jobs=1)
    root = fulltext.index_root(home)
    live = fulltext.current_generation(root)
    store = Store(home / "paperlist.db")
    with store.transaction() as db:                  # the papers change behind the index's back
        db.execute("DELETE FROM papers WHERE id = (SELECT min(id) FROM papers)")
    rep, derived = service_ingest(Home(home), [str(FIXTURES)], jobs=1)
    assert rep.papers.new + rep.papers.updated + rep.papers.removed == 0
    assert derived is not None and not derived.index.skipped
    assert fulltext.current_generation(root) != live
    assert fulltext.is_current(store, home)


def test_migration_repairs_a_home_that_lost_authors(clean_tables: dict[str, str], tmp_path: Path) -> None:
    """A schema-4 store whose authors an interrupted merge lost (the old in-memory refresh): opening
    it migrates it and schedules every author, and the next ingest makes the clean tables."""
    home = tmp_path / "home"
    service_ingest(Home(home), [str(FIXTURES)], jobs=1)
    conn = sqlite3.connect(home / "paperlist.db")
    with conn:
        conn.execute("DROP TABLE pending_authors")
        conn.execute("DELETE FROM authors WHERE key IN (SELECT key FROM authors ORDER BY key LIMIT 50)")
        conn.execute("INSERT INTO authors VALUES ('nobody-anymore', 'Nobody Anymore', 1)")
        conn.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    conn.close()
    store = Store(home / "paperlist.db")
    assert store.schema_version() == SCHEMA_VERSION and store.pending_authors() > 0
    service_ingest(Home(home), [str(FIXTURES)], jobs=1)
    assert table_digests(home / "paperlist.db") == clean_tables
