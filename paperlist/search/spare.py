"""The spare core: when one search may rank its page on a second thread while it counts facets.

Handing the page over halves an idle machine's latency on costly queries (search_bench: wall p50
2.49 -> 1.79 ms) but costs CPU: waking the thread and passing the GIL back and forth, ~0.8 ms on a
cheap query (1.72 -> 2.51 ms of CPU for three random words). When every core is busy (a loaded
server: each worker runs its own search) that CPU is taken from other searches, so the handover
is made only while a core is idle *now*: fewer runnable threads on the machine than cores, read
from /proc/loadavg (its fourth field counts the threads running at this instant, this one
included; ~1 us with a kept-open file). Elsewhere than Linux every core is taken to be idle.
"""

from __future__ import annotations

import os
import threading


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class SpareCore:
    """One search at a time in this process gets the second thread, and only while a core is idle
    (``require_idle=False``: whenever no other search of this process has it; tests use it to make
    sure the handover runs)."""

    def __init__(self, require_idle: bool = True) -> None:
        self.require_idle = require_idle
        self._sem = threading.BoundedSemaphore(1)
        self._cores = _cores()
        self._fd: tuple[int, int] | None = None      # (pid, fd): a descriptor is not shared across a fork

    def running(self) -> int | None:
        """Threads running on the machine at this instant (None: not known here)."""
        fd = self._fd
        pid = os.getpid()
        try:
            if fd is None or fd[0] != pid:
                fd = self._fd = (pid, os.open("/proc/loadavg", os.O_RDONLY))
            fields = os.pread(fd[1], 128, 0).split()
            return int(fields[3].split(b"/")[0])
        except (OSError, IndexError, ValueError):
            return None

    def idle(self) -> bool:
        """Whether a core is idle now (fewer threads running than cores, counting this one)."""
        n = self.running()
        return n is None or n < self._cores

    def acquire(self) -> bool:
        """True when the caller may use the second thread (then ``release`` after)."""
        if self.require_idle and (self._cores < 2 or not self.idle()):
            return False
        return self._sem.acquire(blocking=False)

    def release(self) -> None:
        self._sem.release()
