"""A paperlist home: the data directory every interface serves (``--home``, ``$PAPERLIST_HOME``).

``Home`` knows where the store file and the indexes are, opens the store (read-only when serving)
and the searcher (when an index exists; looked for again at most every ``SEARCHER_RETRY``
seconds, so an index built while the site runs is picked up), and keeps the figures derived from
the whole store (``DataCache``) until the store's files change. The site, the API, MCP and the CLI
each make one and hand it to the service functions.

A follower's site serves ``<home>/live``, a link to the snapshot it holds (``snapshots.layout``).
When the link moves, ``Home`` opens the new snapshot's store and index on a thread of its own,
warms them, and only then swaps them in: requests in flight finish on the old ones, later ones get
the new, none waits.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..lists import LISTS_FILE, ListStore, open_lists
from ..search import NoIndex, Searcher
from ..search.backend import SearchBackend
from ..store import STORE_FILE, Store

log = logging.getLogger(__name__)
SEARCHER_RETRY = 10.0        # seconds between looks for an index that was missing
SWITCH_CHECK = 1.0           # seconds between looks at a follower's live link


def open_searcher(home: Path) -> SearchBackend | None:
    """The search engine over ``home``'s index, or None when there is none (or it cannot be read:
    a missing or broken index must not take the site down)."""
    try:
        return Searcher.open(home)
    except NoIndex:
        return None
    except Exception as e:  # noqa: BLE001 - logged; the site serves without search
        log.warning("search unavailable: %s", e)
        return None


class DataCache:
    """Values derived from the whole store (corpus figures, venue lists), recomputed only when the
    store's files change; the change check runs at most once a second."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._stamp = store.data_stamp()
        self._checked = time.monotonic()
        self._values: dict[Any, Any] = {}
        self._lock = threading.Lock()

    @property
    def stamp(self) -> str:
        now = time.monotonic()
        if now - self._checked > 1.0:
            self._checked = now
            stamp = self.store.data_stamp()
            if stamp != self._stamp:
                with self._lock:
                    self._stamp = stamp
                    self._values.clear()
        return self._stamp

    def __contains__(self, key: Any) -> bool:
        return key in self._values

    def get(self, key: Any, compute: Callable[[], Any]) -> Any:
        _ = self.stamp
        try:
            return self._values[key]
        except KeyError:
            value = self._values[key] = compute()
            return value


class Home:
    """One data directory: its store, its searcher, its cached figures.

    ``store`` and ``searcher`` may be given (tests, benchmarks); otherwise the store is opened
    read-only on first use and the searcher looked for when ``find_searcher`` is true."""

    def __init__(self, path: str | Path, store: Store | None = None, searcher: SearchBackend | None = None,
                 find_searcher: bool = True, lists_url: str | None = None) -> None:
        self.path = Path(path)
        self.lists_url = lists_url or os.environ.get("PAPERLIST_LISTS_URL") or str(self.path / LISTS_FILE)
        self._lists: ListStore | None = None
        self._store = store
        self._searcher = searcher
        self._find = find_searcher and searcher is None
        self._tried = 0.0
        self._cache: DataCache | None = None
        self._lock = threading.Lock()
        self._search_lock = threading.Lock()
        self._link = _link_target(self.path) if store is None else None
        self._link_checked = time.monotonic()
        self._switching = False
        self._unopenable: str | None = None

    @classmethod
    def from_env(cls) -> Home:
        return cls(os.environ.get("PAPERLIST_HOME") or "data")

    @property
    def data_path(self) -> Path:
        """Where the store and the index are: the home, or on a follower the snapshot its live link
        named when last looked at (so that one store and one index always come from one snapshot)."""
        return self.path.parent / self._link if self._link else self.path

    @property
    def store_path(self) -> Path:
        return self.data_path / STORE_FILE

    @property
    def snapshot(self) -> str:
        """The snapshot a follower serves ('' for a home that is not a follower's live link)."""
        return self._link or ""

    def _check_switch(self) -> None:
        """On a follower, notice (at most every ``SWITCH_CHECK`` seconds) that the live link moved
        and open the new snapshot in the background."""
        if self._link is None or self._switching:
            return
        now = time.monotonic()
        if now - self._link_checked < SWITCH_CHECK:
            return
        self._link_checked = now
        target = _link_target(self.path)
        if target is not None and target not in (self._link, self._unopenable):
            self._switching = True
            threading.Thread(target=self._switch, args=(target,), name="snapshot-switch", daemon=True).start()

    def _switch(self, target: str) -> None:
        try:
            where = self.path.parent / target
            store = Store(where / STORE_FILE, readonly=True)
            store.check()
            searcher = open_searcher(where) if self._find else self._searcher
            if searcher is not None and self._find:
                searcher.warm()
            cache = DataCache(store)
        except Exception as e:  # noqa: BLE001 - logged; the old snapshot keeps serving
            log.warning("snapshot %s could not be opened, still serving %s: %s", target, self._link, e)
            self._unopenable, self._switching = target, False
            return
        with self._lock, self._search_lock:
            self._store, self._searcher, self._cache, self._link = store, searcher, cache, target
            self._tried = time.monotonic()
            self._switching = False
        log.info("now serving snapshot %s", target)

    @property
    def store(self) -> Store:
        """The store, read-only (opened on first use)."""
        self._check_switch()
        if self._store is None:
            with self._lock:
                if self._store is None:
                    self._store = Store(self.store_path, readonly=True)
        return self._store

    def writable_store(self) -> Store:
        """The store opened for writing (created or migrated): what ingest and embed write to."""
        return Store(self.store_path)

    @property
    def searcher(self) -> SearchBackend | None:
        """The search engine, or None while this home has no index (looked for again at most every
        ``SEARCHER_RETRY`` seconds)."""
        self._check_switch()
        if self._searcher is None and self._find:
            with self._search_lock:         # one searcher, whichever threads ask first
                now = time.monotonic()
                if self._searcher is None and (now - self._tried > SEARCHER_RETRY or self._tried == 0.0):
                    self._tried = now
                    self._searcher = open_searcher(self.data_path)
        return self._searcher

    def prepare_lists(self) -> None:
        """Create or migrate the lists' store now (``serve`` does it once, before its workers)."""
        open_lists(self.lists_url).close()

    @property
    def lists(self) -> ListStore:
        """The user lists' store (``lists_url``: $PAPERLIST_LISTS_URL, else <home>/lists.db; a
        ``postgresql://`` URL for several machines), opened and migrated on first use."""
        if self._lists is None:
            with self._lock:
                if self._lists is None:
                    self._lists = open_lists(self.lists_url)
        return self._lists

    @property
    def cache(self) -> DataCache:
        # under the lock: the page warm-up and the first request (or any two threads) asking at
        # once made two caches, and the figures one of them computed were lost with it
        self._check_switch()
        if self._cache is None:
            store = self.store              # (takes the lock itself when it opens the store)
            with self._lock:
                if self._cache is None:
                    self._cache = DataCache(store)
        return self._cache


def _link_target(path: Path) -> str | None:
    """Where ``path`` points when it is a symlink (a follower's live link), else None."""
    try:
        return os.readlink(path)
    except OSError:
        return None
