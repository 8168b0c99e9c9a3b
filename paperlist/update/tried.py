"""Which papers a source was asked about, and when: a small JSON file beside the spool, written
whole or not at all (``files.write_atomic``), so a run stopped at any point resumes from it."""

from __future__ import annotations

import time
from pathlib import Path

from .openalex import RETRY_MISS_DAYS


class Tried:
    """Paper id -> [day asked (days since the epoch, UTC), hit]. A miss is asked again after
    ``RETRY_MISS_DAYS``; a hit not again (its record is stored) unless it is forgotten."""

    def __init__(self, path: Path) -> None:
        import orjson

        self.path = path
        try:
            data = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            data = {}
        self.seen: dict[str, list[int]] = data if isinstance(data, dict) else {}
        self.today = int(time.time() // 86400)

    def due(self, pid: str) -> bool:
        got = self.seen.get(pid)
        return not (
            isinstance(got, list) and len(got) == 2 and (got[1] or self.today - got[0] < RETRY_MISS_DAYS)
        )

    def mark(self, pid: str, hit: bool) -> None:
        self.seen[pid] = [self.today, int(hit)]

    def forget(self, pid: str) -> None:
        """Nothing remembered of ``pid``: it is due (for a source whose hits are kept elsewhere)."""
        self.seen.pop(pid, None)

    def save(self) -> None:
        import orjson

        from ..files import write_atomic

        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, lambda f: f.write(orjson.dumps(self.seen)))
