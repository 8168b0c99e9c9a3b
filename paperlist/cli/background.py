"""`serve --embed` and `serve --update-every`: jobs run as children of the server, started once the
site answers and stopped with it (``service.embedding`` and ``service.updating`` are the jobs)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
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


Run = Callable[[list[str]], int]       # runs one child process to its end: its exit code


@contextmanager
def _beside(name: str, body: Callable[[threading.Event, Run], None], stopping_text: str) -> Iterator[None]:
    """Run the body of the ``with`` (the server) with ``body(stopping, run)`` on a thread beside it:
    ``run(cmd)`` starts a child process in its own session (a Ctrl-C in the terminal reaches the
    server, which stops the child itself) and waits for it. On the way out the child in flight is
    stopped (``_stop``, saying ``stopping_text``)."""
    stopping = threading.Event()
    state: dict[str, subprocess.Popen[bytes] | None] = {"proc": None}

    def run(cmd: list[str]) -> int:
        state["proc"] = proc = subprocess.Popen(cmd, start_new_session=True)
        code = proc.wait()
        state["proc"] = None
        return code

    runner = threading.Thread(target=body, args=(stopping, run), name=name, daemon=True)
    runner.start()
    try:
        yield
    finally:
        stopping.set()
        _stop(state["proc"], stopping_text)
        runner.join(timeout=2.0)


def _wait_for_site(stopping: threading.Event, host: str, port: int) -> bool:
    """Wait until the site answers (at most UP_WAIT_S); False when stopping meanwhile."""
    deadline = time.monotonic() + UP_WAIT_S
    while not stopping.is_set() and time.monotonic() < deadline and not (port and _answers(host, port)):
        stopping.wait(0.5)
    return not stopping.is_set()


def embedding_job(home: Path, host: str, port: int) -> AbstractContextManager[None]:
    """Run the body (the server) with the background embedding job beside it, once the site answers."""
    def body(stopping: threading.Event, run: Run) -> None:
        if _wait_for_site(stopping, host, port):
            run([sys.executable, "-m", "paperlist", "--home", str(home), "embed", "--background",
                 "--parent-pid", str(os.getpid())])

    return _beside("embed-job", body, "paperlist: stopping the embedding job (finished batches are kept)")


def update_job(home: Path, host: str, port: int, every_s: float,
               publish: Path | None = None) -> AbstractContextManager[None]:
    """Run the body (the server) with `paperlist update` run beside it every ``every_s`` seconds, the
    first time once the site answers. Each run is a child process: it publishes new index
    generations that the site switches to, and a run killed with the server resumes next time.
    With ``publish``, each run that changed papers then publishes a snapshot there for followers."""
    def body(stopping: threading.Event, run: Run) -> None:
        if not _wait_for_site(stopping, host, port):
            return
        while not stopping.is_set():
            click.echo(f"paperlist update: started (every {_duration(every_s)}; the site serves the old "
                       "data until the new is published)", err=True)
            code = run([sys.executable, "-m", "paperlist", "--home", str(home), "update", "--quiet",
                        *(["--publish", str(publish)] if publish else [])])
            if stopping.is_set():
                break
            click.echo(f"paperlist update: finished ({'ok' if code == 0 else f'exit {code}: see above'});"
                       f" next in {_duration(every_s)}", err=True)
            stopping.wait(every_s)

    return _beside("update-loop", body, "paperlist: stopping the update (finished venues are kept)")


def follow_job(root: Path, url: str, every_s: float, budget: str | None) -> AbstractContextManager[None]:
    """Run the body (the server) with `paperlist follow URL` run beside it every ``every_s``
    seconds: each run is a child process that takes the newest snapshot (if any) and moves the
    home's live link, which the site's workers notice; a run killed with the server resumes."""
    def body(stopping: threading.Event, run: Run) -> None:
        while not stopping.wait(every_s):
            # below the server's priority: a snapshot's vector graph is built here (~3 min of
            # both cores for the full corpus) while the site answers
            run([*(["nice", "-n", "10"] if shutil.which("nice") else []), sys.executable, "-m",
                 "paperlist", "--home", str(root), "follow", url, "--quiet",
                 *(["--disk-budget", budget] if budget else [])])

    return _beside("follow-loop", body, "paperlist: stopping the snapshot download (it resumes next time)")


def _stop(proc: subprocess.Popen[bytes] | None, message: str) -> None:
    """Stop a job that is still running: SIGTERM, then a kill after ``STOP_WAIT_S`` (it resumes anyway)."""
    if proc is None or proc.poll() is not None:
        return
    click.echo(message, err=True)
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=STOP_WAIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def parse_duration(text: str, least: float = 60.0) -> float:
    """"6h", "30m", "1d", "90s" or a number of seconds -> seconds (at least ``least``)."""
    t = text.strip().lower()
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    try:
        seconds = float(t[:-1]) * units[t[-1]] if t and t[-1] in units else float(t)
    except ValueError:
        raise ValueError(f"{text!r} is not a duration (e.g. 6h, 30m, 1d)") from None
    if not seconds >= least:
        raise ValueError(f"{text!r} is shorter than {_duration(least) if least >= 60 else f'{least:g}s'}")
    return seconds


def _duration(seconds: float) -> str:
    for unit, n in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= n and seconds % n == 0:
            return f"{int(seconds // n)}{unit}"
    return f"{seconds:.0f}s"
