"""Process-tree helpers the benchmark scripts share (Linux /proc)."""

from __future__ import annotations

import os


def children(pid: int) -> list[int]:
    """The direct children of a process, from every one of its threads."""
    out: list[int] = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out.extend(int(c) for c in f.read().split())
    except OSError:
        pass
    return out
