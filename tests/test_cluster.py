"""Several machines on one: a builder publishes, two followers serve through HAProxy (the very
deploy/haproxy.cfg of the README), reading lists in one PostgreSQL. Steady search and list traffic
goes through the balancer while the builder publishes twice and one follower is killed with
SIGKILL and restarted: no client request may fail (every answer 2xx or 3xx), both followers must
serve each new snapshot within ``SWITCH_BOUND_S``, and a list written through one follower reads
back through the other."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest
import requests

from paperlist.service import Home
from paperlist.service.derived import ingest
from paperlist.service.replicas import publish
from tests.cluster import Follower, answers, free_port, haproxy, wait_for
from tests.conftest import FIXTURES, PAPERCOPILOT, SEARCH_FIXTURES, serve_dir

SWITCH_BOUND_S = 20.0          # publish -> both followers serve it (poll every 1 s, fetch, open, warm)
MIN_REQUESTS = 2_000
QUERIES = ["attention", "graph neural networks", "diffusion", "reinforcement learning", "transformer",
           "contrastive", "language model", "optimization"]


class Traffic:
    """Clients through the balancer: searches, paper pages, list writes (PUT) and reads, in a loop."""

    def __init__(self, base: str, token: str, list_id: str, papers: list[str], threads: int = 4) -> None:
        self.base, self.token, self.list_id, self.papers = base, token, list_id, papers
        self.count = 0
        self.failures: list[str] = []
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(threads)]

    def __enter__(self) -> Traffic:
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=30)

    def _run(self, n: int) -> None:
        api = f"{self.base}/api/v1"
        with requests.Session() as c:
            i = n
            while not self.stop.is_set():
                i += 1
                kind = i % 4
                try:
                    if kind == 0:
                        r = c.get(f"{api}/search", params={"q": QUERIES[i % len(QUERIES)], "per_page": "10"},
                                  timeout=30)
                    elif kind == 1:
                        r = c.get(f"{api}/papers/{self.papers[(i // 4) % len(self.papers)]}", timeout=30)
                    elif kind == 2:
                        r = c.put(f"{api}/lists/{self.token}/lists/{self.list_id}/papers/"
                                  f"{self.papers[(i // 4) % len(self.papers)]}", timeout=30)
                    else:
                        r = c.get(f"{api}/lists/{self.token}/lists/{self.list_id}", timeout=30)
                    bad = None if r.status_code < 400 else \
                        f"{r.request.method} {r.request.path_url}: {r.status_code}"
                except requests.RequestException as e:
                    bad = f"{type(e).__name__}: {e}"
                with self.lock:
                    self.count += 1
                    if bad:
                        self.failures.append(bad)


@pytest.mark.skipif(shutil.which("haproxy") is None,
                    reason="HAProxy is absent (apt-get install haproxy; .ci/run installs it)")
def test_two_followers_behind_haproxy_survive_publishes_and_a_kill(tmp_path: Path, postgres_url: str) -> None:
    from tests.pgcluster import fresh_database

    builder, out = tmp_path / "builder", tmp_path / "published"
    rep, _ = ingest(Home(builder), [str(PAPERCOPILOT), str(SEARCH_FIXTURES)], jobs=1)
    assert rep.failed == 0
    first = publish(Home(builder), out)
    with fresh_database(postgres_url) as lists_url, serve_dir(out) as url:
        logs = tmp_path / "logs"
        logs.mkdir()
        f1, f2 = (Follower(tmp_path / f"follower{i}", url, lists_url, logs / f"follower{i}.log")
                  for i in (1, 2))
        bind_port = free_port()
        balancer = f"http://127.0.0.1:{bind_port}"
        try:
            for f in (f1, f2):
                f.start()
            wait_for("both followers serve the first snapshot",
                     lambda: f1.serving() == first.id and f2.serving() == first.id, 120)
            with haproxy(f"127.0.0.1:{bind_port}", [f1, f2], logs / "haproxy.log"):
                wait_for("the balancer answers", lambda: answers(f"{balancer}/healthz"), 20)
                # a private link made through follower 1, read back through follower 2
                made = requests.post(f"{f1.base}/api/v1/lists", json={"name": "to read"}, timeout=10)
                assert made.status_code == 201, made.text
                token, list_id = made.json()["token"], made.json()["lists"][0]["id"]
                found = requests.get(f"{balancer}/api/v1/search", params={"q": "learning", "per_page": "20"},
                                     timeout=10).json()
                papers = [h["id"] for h in found["hits"]]
                assert len(papers) >= 5
                with Traffic(balancer, token, list_id, papers) as traffic:
                    time.sleep(2)
                    ingest(Home(builder), [str(FIXTURES / "acl" / "2023.emnlp.xml")])
                    second = publish(Home(builder), out)
                    took = wait_for("both followers serve the second snapshot",
                                    lambda: f1.serving() == second.id and f2.serving() == second.id,
                                    SWITCH_BOUND_S)
                    time.sleep(1)
                    f1.kill()
                    ingest(Home(builder), [str(FIXTURES / "acl" / "2023.findings.xml")])
                    third = publish(Home(builder), out)
                    wait_for("the live follower serves the third", lambda: f2.serving() == third.id,
                             SWITCH_BOUND_S)
                    time.sleep(2)
                    f1.start()
                    wait_for("the restarted follower catches up", lambda: f1.serving() == third.id, 60)
                    wait_for(f"{MIN_REQUESTS} requests", lambda: traffic.count >= MIN_REQUESTS, 300)
                assert traffic.failures == [], traffic.failures[:10]
                assert traffic.count >= MIN_REQUESTS
                items = requests.get(f"{f2.base}/api/v1/lists/{token}/lists/{list_id}", timeout=10).json()
                assert {e["id"] for e in items["entries"]} == set(papers)
                print(f"\n{traffic.count} requests, 0 failed; publish -> both followers in {took:.1f}s")
        finally:
            for f in (f1, f2):
                f.stop()


