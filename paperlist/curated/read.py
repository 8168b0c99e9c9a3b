"""Reading the lists folders an ingest names into the store: a list whose files did not change is
not read again; each changed list is replaced in one transaction (an interrupted run leaves every
list whole, old or new)."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..store import Store
from . import folder as lists_folder
from .markdown import entries


@dataclass(slots=True)
class ReadReport:
    lists: int = 0
    read: int = 0                  # lists (re)read because their files changed
    unchanged: int = 0
    removed: int = 0
    entries: int = 0               # entries of the lists read now
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["seconds"] = round(self.seconds, 2)
        d["problems"] = self.problems[:20]
        return d


def read_lists(store: Store, folders: list[Path], force: bool = False) -> ReadReport:
    """Read every list of the folders into the store (see the module doc). Lists that a folder no
    longer has are removed."""
    t0 = time.perf_counter()
    rep = ReadReport()
    known = store.curated_digests()
    seen: set[str] = set()
    for f in folders:
        try:
            for lf in lists_folder.read(f):
                seen.add(lf.name)
                rep.lists += 1
                rep.problems += lf.problems
                if not force and known.get(lf.name) == lf.digest:
                    rep.unchanged += 1
                    continue
                found = [asdict(e) for text in lf.files.values() for e in entries(text)]
                for i, e in enumerate(found):
                    e.pop("position", None)
                    e["position"] = i
                lf.data["entries"] = len(found)
                store.replace_curated_list(lf.name, lf.data, lf.digest, found)
                rep.read += 1
                rep.entries += len(found)
        except lists_folder.ListsError as e:
            rep.problems.append(str(e))
            return _done(rep, t0)           # a folder half read: remove nothing
    gone = sorted(set(known) - seen) if folders else []
    if gone:
        store.remove_curated_lists(gone)
        rep.removed = len(gone)
    return _done(rep, t0)


def _done(rep: ReadReport, t0: float) -> ReadReport:
    rep.seconds = time.perf_counter() - t0
    return rep
