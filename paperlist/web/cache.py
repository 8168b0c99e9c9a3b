"""A small in-process cache of encoded responses, bounded by entries and bytes (LRU).

The search API keys it by the index generation and the request's path and query: a new index
generation (``paperlist index``) makes every old entry unreachable, and the LRU drops them as new
ones arrive. Popular searches, feed readers polling the same feed and search-as-you-type prefixes
then cost a dictionary lookup instead of a search (2-20 ms of engine time on the full corpus).
Per worker process; nothing is shared.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable


class ResponseCache:
    def __init__(self, max_entries: int = 2048, max_bytes: int = 32 << 20, max_item: int = 256 << 10) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.max_item = max_item
        self._items: OrderedDict[Hashable, bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> bytes | None:
        with self._lock:
            body = self._items.get(key)
            if body is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return body

    def put(self, key: Hashable, body: bytes) -> None:
        if len(body) > self.max_item or self.max_entries <= 0:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= len(old)
            self._items[key] = body
            self._bytes += len(body)
            while self._items and (len(self._items) > self.max_entries or self._bytes > self.max_bytes):
                _k, dropped = self._items.popitem(last=False)
                self._bytes -= len(dropped)

    def __len__(self) -> int:
        return len(self._items)
