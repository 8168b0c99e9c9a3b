"""The engine in a server: the spare core (search/spare.py) takes a second thread only while a core
is idle, and one search of a process at a time; a serving searcher keeps its spelling vocabulary
loaded across index switches."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from paperlist.search.spare import SpareCore


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/loadavg (Linux)")
def test_running_threads_are_read_and_count_the_caller() -> None:
    n = SpareCore().running()
    assert n is not None and n >= 1          # this thread is running while it reads


def test_busy_cores_keep_the_search_on_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    spare = SpareCore()
    monkeypatch.setattr(spare, "_cores", 2)
    monkeypatch.setattr(spare, "running", lambda: 2)        # both cores busy (this search included)
    assert not spare.acquire()
    monkeypatch.setattr(spare, "running", lambda: 1)        # only this one: the other core is idle
    assert spare.acquire()
    assert not spare.acquire()                              # one search of the process at a time
    spare.release()
    monkeypatch.setattr(spare, "running", lambda: None)     # not known: as before, idle
    assert spare.acquire()
    spare.release()


def test_one_core_or_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    spare = SpareCore()
    monkeypatch.setattr(spare, "_cores", 1)
    monkeypatch.setattr(spare, "running", lambda: 0)
    assert not spare.acquire()                              # no second core to hand over to
    spare.require_idle = False
    monkeypatch.setattr(spare, "running", lambda: 99)
    assert spare.acquire()                                  # forced (the tests comparing both paths)
    spare.release()


def test_a_warmed_searcher_warms_each_new_generation(tmp_path: Path, search_home: Path) -> None:
    """Serving warms the spelling vocabulary at start and after every index switch, so that no
    request waits for its load (~0.4 s on the full corpus)."""
    import shutil
    import time

    from paperlist.index import fulltext
    from paperlist.search import Searcher
    from paperlist.store import Store

    home = tmp_path / "home"
    shutil.copytree(search_home, home)
    s = Searcher.open(home)
    assert s._generation().suggester._buckets is None          # not loaded until asked
    s.warm()
    assert s._generation().suggester._buckets is not None
    fulltext.build(Store(home / "paperlist.db"), home)
    assert s.reload()
    deadline = time.monotonic() + 30
    while s._generation().suggester._buckets is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert s._generation().suggester._buckets is not None
