"""Is everything derived from the records in step with them, as durable state says? And, on
request, bring it in step: what ``paperlist doctor [--repair]`` runs.

Every check reads only what the store and the index directories hold (never what one run
remembers), so it sees what an interrupted command left: blocks not merged yet, authors not
refreshed, topics, statistics or an index built from other papers, and generations that killed
builds left behind.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from .. import merge
from ..index import bridge, fulltext
from ..ingest import merge_pending
from ..stats import is_current as stats_current
from ..store import Store
from ..topics.build import is_current as topics_current
from .derived import refresh
from .home import Home


@dataclass(slots=True)
class Check:
    name: str            # "merge", "authors", "topics", "stats", "index", "generations"
    ok: bool
    detail: str
    repaired: bool = False

    def line(self) -> str:
        state = "repaired" if self.repaired else "ok" if self.ok else "STALE"
        return f"{state:<9}{self.name:<12}{self.detail}"

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def check(home: Home, store: Store | None = None) -> list[Check]:
    """One Check per derived thing, from durable state only."""
    store = store or home.store
    out = []
    blocks = len(store.dirty_blocks())
    rules = store.meta("merge_version") not in (None, str(merge.MERGE_VERSION))
    out.append(Check("merge", not blocks and not rules,
                     "merge rules changed: every block is re-merged" if rules else
                     f"{blocks:,} blocks wait to be merged" if blocks else "no blocks wait to be merged"))
    authors, venues = store.pending_authors(), store.venues_stale()
    out.append(Check("authors", not authors and not venues,
                     f"{authors:,} authors wait to be refreshed" + (", and the venues" if venues else "")
                     if authors or venues else "authors and venues match the papers"))
    ok = topics_current(store, home.path)
    out.append(Check("topics", ok, "assigned to these papers" if ok else "assigned to other papers, or none"))
    ok = stats_current(store)
    out.append(Check("stats", ok, "computed from these papers" if ok else "from other papers, or none"))
    out.append(_index(home, store))
    left = fulltext.leftovers(home.path)
    out.append(Check("generations", not left,
                     f"{len(left)} left by killed builds: {', '.join(left)}" if left
                     else "only the live and the previous one"))
    return out


def _index(home: Home, store: Store) -> Check:
    root = fulltext.index_root(home.path)
    gen = fulltext.current_generation(root)
    if gen is None:
        return Check("index", False, "no index built yet")
    papers = int(str(fulltext.generation_info(root / gen).get("papers", 0)))
    if fulltext.needs_build(home.path):
        return Check("index", False, f"{gen} was built by another index version")
    broken = bridge.problem(root / gen / bridge.DIR)
    if broken:
        return Check("index", False, f"{gen}: its Chinese bridge is broken: {broken}")
    if not fulltext.is_current(store, home.path):
        return Check("index", False, f"{gen} ({papers:,} papers) was built from other papers "
                                     f"(the store has {store.count_papers():,})")
    return Check("index", True, f"{gen} ({papers:,} papers) matches the store")


def repair(home: Home) -> list[Check]:
    """Finish the merge, refresh authors and venues, rebuild whatever is stale, delete leftover
    generations; returns the checks as they were, those repaired marked so."""
    store = home.writable_store()
    try:
        before = check(home, store)
        if not all(c.ok for c in before):
            merge_pending(store)
            fulltext.clean(home.path)
            refresh(home, store, force=False)
            after = {c.name: c for c in check(home, store)}
            for c in before:
                if not c.ok and after[c.name].ok:
                    c.repaired = True
                    c.detail = f"{c.detail} -> {after[c.name].detail}"
        return before
    finally:
        store.close()
