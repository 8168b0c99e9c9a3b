"""`paperlist serve` as a real process for the reading-list tests: start it on a free port over a
home and a lists store, talk JSON to it, stop it (or kill -9 its whole process group)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def paper_ids(home: Path) -> list[str]:
    conn = sqlite3.connect(f"file:{home / 'paperlist.db'}?mode=ro", uri=True)
    try:
        return [r[0] for r in conn.execute("SELECT id FROM papers ORDER BY id")]
    finally:
        conn.close()


class Server:
    def __init__(self, home: Path, lists_url: str, workers: int = 2, start_timeout: float = 40) -> None:
        self.port = free_port()
        exe = Path(sys.executable).parent / "paperlist"
        self.proc = subprocess.Popen(
            [
                str(exe),
                "--home",
                str(home),
                "serve",
                "--port",
                str(self.port),
                "--workers",
                str(workers),
                "--lists-url",
                lists_url,
                "--max-queue-wait",
                "0",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, "PYTHONWARNINGS": ""},
        )
        deadline = time.monotonic() + start_timeout
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    out = (
                        self.proc.stdout.read().decode()
                        if self.proc.stdout and self.proc.poll() is not None
                        else ""
                    )
                    self.kill()
                    raise AssertionError(f"server did not start: {out[-2000:]}") from None
                time.sleep(0.2)

    def request(self, method: str, path: str, body: Any = None, timeout: float = 30) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = json.dumps(body).encode() if body is not None else None
            conn.request(
                method, path, body=data, headers={"content-type": "application/json"} if data else {}
            )
            r = conn.getresponse()
            raw = r.read()
            return r.status, json.loads(raw) if raw and r.getheader("content-type", "").startswith(
                ("application/json", "application/problem")
            ) else raw.decode()
        finally:
            conn.close()

    def kill(self) -> None:
        """kill -9 of the server and its workers, at once."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=10)
        if self.proc.stdout:
            self.proc.stdout.close()

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGINT)
            self.proc.wait(timeout=15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            self.kill()
            return
        if self.proc.stdout:
            self.proc.stdout.close()
