"""Worker processes that die with their parent.

``ProcessPoolExecutor`` workers wait on a pipe that every forked worker also holds open, so when
the main process is killed (``kill -9``, the OOM killer) they never see it close and stay behind,
the store open. Each worker made here runs a watchdog thread that exits the worker as soon as its
parent changes (the parent died and the worker was re-parented). No prctl: plain POSIX.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

WATCH_INTERVAL = 0.2          # seconds between looks at the parent


def process_pool(jobs: int) -> ProcessPoolExecutor:
    """A fork-based pool of ``jobs`` workers that exit when this process dies."""
    return ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"),
                               initializer=watch_parent, initargs=(os.getpid(),))


def watch_parent(parent: int) -> None:
    """In a worker: exit (at once, without cleanup) when the process ``parent`` is gone."""
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(WATCH_INTERVAL)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()
