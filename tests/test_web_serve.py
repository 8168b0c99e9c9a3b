"""`paperlist serve` runs uvicorn over a home: a real process, a real port, then stopped."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.conftest import run_cli


def test_serve_help(tmp_path: Path) -> None:
    r = run_cli(tmp_path, "serve", "--help")
    assert r.exit_code == 0
    for opt in ("--host", "--port", "--workers"):
        assert opt in r.output


def test_serve_without_store_fails_cleanly(tmp_path: Path) -> None:
    r = run_cli(tmp_path / "empty", "serve", "--port", "0")
    assert r.exit_code == 2 and "no store" in r.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_answers_over_http(web_home: Path) -> None:
    port = _free_port()
    exe = Path(sys.executable).parent / "paperlist"
    proc = subprocess.Popen([str(exe), "--home", str(web_home), "serve", "--port", str(port),
                             "--workers", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONWARNINGS": ""})
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    assert r.status == 200 and r.read().startswith(b"ok")
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise AssertionError(proc.stdout.read().decode() if proc.stdout
                                         else "no output") from None
                time.sleep(0.2)
        req = urllib.request.Request(f"http://127.0.0.1:{port}/en/", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(req, timeout=5) as r:
            assert (r.headers["Content-Encoding"] == "gzip"
                    and "script-src 'self'" in r.headers["Content-Security-Policy"])
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()
