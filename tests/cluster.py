"""Several machines on one: followers of a published directory (`paperlist serve --follow`) as
subprocesses, and HAProxy with deploy/haproxy.cfg in front of them (tests/test_cluster.py,
benchmarks/cluster_bench.py)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Follower:
    """`paperlist serve --follow URL` on its own home and port, in its own process group."""

    def __init__(self, root: Path, url: str, lists_url: str, log: Path, workers: int = 1,
                 every: str = "1s") -> None:
        self.root, self.url, self.lists_url, self.log = root, url, lists_url, log
        self.workers, self.every = workers, every
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        cmd = [sys.executable, "-m", "paperlist", "--home", str(self.root), "serve", "--port", str(self.port),
               "--follow", self.url, "--follow-every", self.every, "--lists-url", self.lists_url,
               "--workers", str(self.workers)]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)

    def kill(self) -> None:
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)      # the server and its follow job, as a crash would
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def serving(self) -> str:
        """The snapshot its /healthz says it serves ('' while it does not answer)."""
        try:
            r = requests.get(f"{self.base}/healthz", timeout=2.0)
        except requests.RequestException:
            return ""
        for line in r.text.splitlines():
            if line.startswith("follow: serving "):
                return line.split()[2].rstrip(",")
        return ""


def wait_for(what: str, ok: Callable[[], bool], timeout: float) -> float:
    """Seconds until ``ok()`` holds (AssertionError after ``timeout``)."""
    t0 = time.monotonic()
    while not ok():
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"{what}: not within {timeout:.0f} s")
        time.sleep(0.2)
    return time.monotonic() - t0


@contextmanager
def haproxy(bind: str, followers: list[Follower], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """HAProxy on ``bind`` with the README's configuration, in front of two followers."""
    env = {**os.environ, "PAPERLIST_BIND": bind, "PAPERLIST_FOLLOWER_1": f"127.0.0.1:{followers[0].port}",
           "PAPERLIST_FOLLOWER_2": f"127.0.0.1:{followers[1].port}"}
    with open(log, "ab") as out:
        proc = subprocess.Popen([shutil.which("haproxy") or "haproxy", "-db", "-f", str(HAPROXY_CFG)],
                                env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield proc
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=2.0).status_code == 200
    except requests.RequestException:
        return False
