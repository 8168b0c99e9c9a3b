"""The storage gateway: the only module that speaks SQL. Everything else receives a Store."""

from __future__ import annotations

from .base import SCHEMA_VERSION, StoreError
from .browse import BrowseMixin, ListFilter
from .counts import CountsMixin, CountWanted
from .curated import CuratedMixin
from .docs import DocsMixin, IndexDoc
from .ingest import FileCounts, FileState, IngestMixin, PaperCounts, encode_record, record_block
from .read import ReadMixin
from .reviews import ReviewsMixin
from .topics import TopicDoc, TopicsMixin

STORE_FILE = "paperlist.db"        # the store's file in a home (paperlist.service.Home)


class Store(IngestMixin, ReadMixin, BrowseMixin, DocsMixin, TopicsMixin, ReviewsMixin, CountsMixin,
            CuratedMixin):
    """A paperlist SQLite store. ``Store(path)`` creates or migrates it; ``readonly=True`` opens
    an existing one for serving."""


__all__ = ["SCHEMA_VERSION", "STORE_FILE", "CountWanted", "FileCounts", "FileState", "IndexDoc", "ListFilter",
           "PaperCounts", "Store", "StoreError", "TopicDoc", "encode_record", "record_block"]
