"""Pages fetched by an update, kept on disk until their records are in the store.

A page is written whole or not at all (``files.write_atomic``), so a run killed at any moment
leaves complete pages; the next run reuses the pages of a run that started less than ``MAX_AGE``
ago instead of asking the service again, and fetches the rest. Once a venue's records are
committed its spool is removed; a run killed between the two finds the same pages again and
writes the same records, which changes nothing.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path
from typing import Any

import orjson

from ..files import write_atomic

MAX_AGE_S = 6 * 3600.0
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


class Spool:
    def __init__(self, root: Path, name: str) -> None:
        self.dir = root / _SAFE.sub("_", name).strip("_")

    def _started(self) -> float | None:
        try:
            return float((self.dir / "STARTED").read_text())
        except (OSError, ValueError):
            return None

    def open(self) -> None:
        """Start a run: keep the pages of a recent run, drop a stale or broken one."""
        started = self._started()
        if started is None or time.time() - started > MAX_AGE_S:
            self.clear()
            self.dir.mkdir(parents=True, exist_ok=True)
            write_atomic(self.dir / "STARTED", lambda f: f.write(str(time.time()).encode()))

    def page(self, name: str) -> list[Any] | None:
        """A page this run (or the one it resumes) already has, or None."""
        try:
            data = orjson.loads((self.dir / f"{_SAFE.sub('_', name)}.json").read_bytes())
        except (OSError, orjson.JSONDecodeError):
            return None
        return data if isinstance(data, list) else None

    def save(self, name: str, items: list[Any]) -> None:
        write_atomic(
            self.dir / f"{_SAFE.sub('_', name)}.json", lambda f: f.write(orjson.dumps(items)), durable=False
        )

    def clear(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)
