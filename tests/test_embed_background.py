"""`paperlist serve --embed` (what ./run.sh runs) on a small real corpus (ICRA 2026, one program
day: 990 papers): the site serves at once; the background job publishes a partial generation,
which the running server switches to (search by meaning appears, /healthz, the API and both
languages of the site say how far it has come); Ctrl-C stops server and job, keeping the finished
batches; the next start continues from there (it embeds only the rest) and completes.
Also: the job's record when its process died, one job per home, and vectors of another model."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from paperlist.index import embed_status
from paperlist.index.encoder import missing_reason
from tests.listserver import free_port, paper_ids

_reason = missing_reason()
pytestmark = pytest.mark.skipif(_reason is not None, reason=f"semantic extra not installed: {_reason}")

EXE = Path(sys.executable).parent / "paperlist"


def _get(url: str) -> str:
    # generous: a first search by meaning loads the query model, slow on a loaded 2-core machine
    with urllib.request.urlopen(url, timeout=60) as r:
        return str(r.read().decode())


def _wait(what: str, check: Callable[[], object], timeout: float = 240) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            got = check()
        except OSError:
            got = None
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


class Serving:
    def __init__(self, home: Path, log: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        env = os.environ | {"HF_HUB_OFFLINE": "1"}
        cmd = [str(EXE), "--home", str(home), "serve", "--embed", "--port", str(self.port)]
        self._fh = log.open("w")
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=self._fh, env=env,
                                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        _wait("the site", lambda: _get(self.base + "/healthz").startswith("ok"), 60)

    def semantic(self) -> dict[str, object]:
        return dict(json.loads(_get(self.base + "/api/v1/semantic")))

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGINT)       # what Ctrl-C in the terminal sends
        try:
            return self.proc.wait(timeout=90)
        finally:
            self._fh.close()

    def text(self) -> str:
        return self.log.read_text()


def test_background_job_serves_partial_vectors_stops_with_the_server_and_resumes(icra_home: Path,
                                                                                 tmp_path: Path) -> None:
    papers = len(paper_ids(icra_home))
    first = Serving(icra_home, tmp_path / "first.log")
    try:
        # the server keeps answering while the job runs; search by meaning appears on a partial generation
        def partial() -> dict[str, object] | None:
            s = first.semantic()
            return s if s["available"] else None

        st = _wait("a partial generation served", partial)
        assert isinstance(st, dict)
        assert st["model"] == "all-MiniLM-L6-v2" and 0 < float(st["share"]) < 1, st
        job = st["job"]
        assert isinstance(job, dict) and job["running"], st
        health = _get(first.base + "/healthz")
        assert re.search(r"semantic: ready, \d+% of papers \([\d,]+ of 990\)", health), health
        assert re.search(r"embedding: (embedding|publishing), \d+% of papers", health), health
        zh = _get(first.base + "/search?q=robot+grasping+from+human+videos")
        en = _get(first.base + "/en/search?q=robot+grasping+from+human+videos")
        assert re.search(r"按语义搜索：目前覆盖 \d+% 的论文", zh), zh[:2000]
        assert re.search(r"Search by meaning: \d+% of papers so far", en)
        # the meaning mode is offered and runs on what is published
        res = json.loads(_get(first.base + "/api/v1/search?q=robot+grasping+from+human+videos&mode=semantic"))
        assert res["interpreted"]["mode"] == "semantic" and res["hits"], res["interpreted"]
    finally:
        code = first.stop()
    assert code == 0, first.text()
    log = first.text()
    assert "stopping the embedding job" in log, log
    rec = embed_status.read(icra_home)
    assert rec is not None and rec["state"] == "stopped", rec
    cached = int(rec["covered"])
    assert 0 < cached < papers, rec
    # a partial generation is for searching: topics (and the index that carries them) stay as they
    # were, so a restart (./run.sh ingests first) does not reassign them from the newest papers alone
    from paperlist.store import Store
    from paperlist.topics.build import is_current

    store = Store(icra_home / "paperlist.db", readonly=True)
    try:
        assert is_current(store, icra_home)
    finally:
        store.close()

    second = Serving(icra_home, tmp_path / "second.log")
    try:
        _wait("the job to finish", lambda: "embedding: done" in _get(second.base + "/healthz"), 400)
        st = second.semantic()
        assert st["available"] and st["covered"] == papers and st["share"] == 1.0, st
        # complete: the status line is gone, in both languages
        assert "按语义搜索" not in _get(second.base + "/search?q=robot+grasping")
        assert "Search by meaning:" not in _get(second.base + "/en/")
    finally:
        assert second.stop() == 0, second.text()
    log = second.text()
    done_before = int(re.findall(r"embedding ([\d,]+) of ([\d,]+) papers \(([\d,]+) done before\)", log)[0][2]
                      .replace(",", ""))
    assert done_before >= cached, log           # it continued: nothing finished was embedded again
    assert "search by meaning is complete" in log and "reassigning topics" in log, log


def test_a_dead_job_reads_as_stopped(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    embed_status.write(tmp_path, {"state": "embedding", "pid": dead.pid, "covered": 5, "papers": 10})
    rec = embed_status.read(tmp_path)
    assert rec is not None and rec["state"] == "stopped"
    embed_status.write(tmp_path, {"state": "embedding", "pid": os.getpid(), "covered": 5, "papers": 10})
    rec = embed_status.read(tmp_path)
    assert rec is not None and rec["state"] == "embedding"


def test_one_job_per_home(tmp_path: Path) -> None:
    from paperlist.service.embedding import AlreadyRunning, job_lock

    with job_lock(tmp_path):
        with pytest.raises(AlreadyRunning):
            with job_lock(tmp_path):
                pass
    with job_lock(tmp_path):                    # released: the next start takes it
        pass


def test_the_job_record_stays_fresh_between_batches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Publishing the graph and reassigning topics take minutes without a batch: the record is
    rewritten meanwhile, so a reader does not take a working job for a dead one."""
    from paperlist.service import embedding

    monkeypatch.setattr(embedding, "HEARTBEAT_S", 0.05)
    job = embedding._Job(tmp_path, lambda _line: None, None, embedding.PARTIAL_AT)
    try:
        job.write(state="topics")
        first = float(json.loads((tmp_path / "vectors" / "JOB.json").read_bytes())["updated_at"])
        _wait("a heartbeat", lambda: float(json.loads((tmp_path / "vectors" / "JOB.json").read_bytes())
                                           ["updated_at"]) > first, 10)
    finally:
        job.close()
    rec = embed_status.read(tmp_path)
    assert rec is not None and rec["state"] == "topics"
