"""The spare core (search/spare.py): a search hands its page to a second thread only while a core
is idle, and one search of a process at a time."""

from __future__ import annotations

import sys

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
