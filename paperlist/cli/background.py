"""`serve --embed`: the embedding job as a child of the server, started once the site answers and
stopped with it (``service.embedding`` is the job itself)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

UP_WAIT_S = 300.0           # the site normally answers within seconds; start the job anyway after this
STOP_WAIT_S = 30.0          # a batch in flight takes seconds; then the job is killed (it resumes anyway)


def _answers(host: str, port: int) -> bool:
    target = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host
    try:
        with socket.create_connection((target, port), timeout=1.0):
            return True
    except OSError:
        return False


@contextmanager
def embedding_job(home: Path, host: str, port: int) -> Iterator[None]:
    """Run the body (the server) with the background embedding job beside it."""
    state: dict[str, subprocess.Popen[bytes] | None] = {"proc": None}
    stopping = threading.Event()

    def start() -> None:
        deadline = time.monotonic() + UP_WAIT_S
        while not stopping.is_set() and time.monotonic() < deadline and not (port and _answers(host, port)):
            stopping.wait(0.5)
        if stopping.is_set():
            return
        cmd = [sys.executable, "-m", "paperlist", "--home", str(home), "embed", "--background",
               "--parent-pid", str(os.getpid())]
        # its own session: a Ctrl-C in the terminal reaches the server, which stops the job itself
        state["proc"] = subprocess.Popen(cmd, start_new_session=True)

    starter = threading.Thread(target=start, name="embed-starter", daemon=True)
    starter.start()
    try:
        yield
    finally:
        stopping.set()
        starter.join(timeout=2.0)
        proc = state["proc"]
        if proc is not None and proc.poll() is None:
            click.echo("paperlist: stopping the embedding job (finished batches are kept)", err=True)
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
