"""Which papers the entries of the reading lists name, kept only where certain.

Ids first: an arXiv id, an OpenReview id, a DOI or an ACL Anthology id that one of our papers
carries, or a proceedings page (NeurIPS hash, PMLR key, CVF file) that one of its links names. Then
the title: the same title key (``text.title_key``: letters and digits, case and accents folded) as
one of our papers, for a title of at least four words, or of two or three words when the year the
entry names agrees (within one: an arXiv year before the venue's). A title key names one work (its
versions share it), so a title match takes every version; an id match takes the papers with the id.

The result, per paper and list, is the entries' positions and the headings above them, and how it
was matched; written to ``paper_lists`` only where it differs.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from ..store import Store
from ..text import title_key
from .links import ids_of

_NUMBERING = re.compile(r"^\W*\d+\W*")
MIN_KEY = 12                  # shorter title keys ("attention", "gan") name no paper for certain
MAX_HEADINGS = 3              # heading chains kept per paper and list


@dataclass(slots=True)
class MatchReport:
    entries: int = 0
    matched: int = 0                      # entries that name at least one of our papers
    papers: int = 0                       # papers in at least one list
    rows: int = 0
    seconds: float = 0.0
    skipped: bool = False                 # current already
    lists: dict[str, dict[str, int]] = field(default_factory=dict)   # name -> entries, matched

    def to_dict(self) -> dict[str, Any]:
        return {"entries": self.entries, "matched": self.matched, "papers": self.papers,
                "share": round(self.matched / self.entries, 4) if self.entries else None,
                "seconds": round(self.seconds, 2), "skipped": self.skipped}

    def lowest(self, n: int = 10, least: int = 20) -> list[tuple[str, int, int]]:
        """The ``n`` lists (of at least ``least`` entries) with the lowest matched share."""
        rows = [(k, v["entries"], v["matched"]) for k, v in self.lists.items() if v["entries"] >= least]
        return sorted(rows, key=lambda r: (r[2] / r[1], r[0]))[:n]


def fingerprint(store: Store) -> str:
    """What paper_lists is derived from: the papers and the lists ("" without lists: a home that
    never read any needs no match, and its index does not change when one runs)."""
    lists = store.curated_entries_digest()
    if not lists:
        return ""
    h = hashlib.sha1(store.papers_fingerprint().encode())
    h.update(lists.encode())
    return h.hexdigest()


def is_current(store: Store) -> bool:
    from ..store.curated import MATCHED_KEY

    return (store.meta(MATCHED_KEY) or "") == fingerprint(store)


def match_lists(store: Store, force: bool = False) -> MatchReport:
    """Derive paper_lists from the lists and the papers (skipped when current and not ``force``)."""
    from ..store.curated import MATCHED_KEY

    t0 = time.perf_counter()
    fp = fingerprint(store)
    if not force and (store.meta(MATCHED_KEY) or "") == fp:
        rep = MatchReport(skipped=True, **_stored(store))
        return rep
    if not fp:                      # no lists (any more): nothing to match, nothing left of a match
        store.clear_paper_lists()
        return MatchReport(skipped=True, seconds=time.perf_counter() - t0)
    index = _Index(store)
    found: dict[tuple[str, str], dict[str, Any]] = {}
    rep = MatchReport()
    for name, pos, e in store.iter_curated_entries():
        stats = rep.lists.setdefault(name, {"entries": 0, "matched": 0})
        stats["entries"] += 1
        rep.entries += 1
        papers, how, key = index.match(e)
        if not papers:
            continue
        stats["matched"] += 1
        rep.matched += 1
        heads = [h for h in e.get("headings", []) if not index.names_paper(h, key)]
        for pid in papers:
            row = found.setdefault((pid, name), {"entries": [], "headings": [], "by": how})
            row["entries"].append(pos)
            if heads and heads not in row["headings"] and len(row["headings"]) < MAX_HEADINGS:
                row["headings"].append(heads)
            if how == "id":
                row["by"] = "id"
    rep.papers = len({pid for pid, _ in found})
    rep.seconds = time.perf_counter() - t0
    report = {**rep.to_dict(), "lists": rep.lists}
    rep.rows = store.replace_paper_lists(_rows(found), fp, report)
    rep.seconds = time.perf_counter() - t0
    return rep


def _stored(store: Store) -> dict[str, Any]:
    r = store.curated_report()
    return {k: r[k] for k in ("entries", "matched", "papers") if isinstance(r.get(k), int)} | \
        {"lists": r.get("lists") or {}}


def _rows(found: dict[tuple[str, str], dict[str, Any]]) -> Iterator[tuple[str, str, str]]:
    for (pid, name), row in sorted(found.items()):
        yield pid, name, orjson.dumps(row).decode()


class _Index:
    """Our papers by title key, by id and by proceedings page key."""

    def __init__(self, store: Store) -> None:
        self.titles: dict[str, list[tuple[str, int]]] = defaultdict(list)
        for pid, year, title in store.iter_match_titles():
            k = title_key(title or "")
            if len(k) >= MIN_KEY:
                self.titles[k].append((pid, int(year)))
        self.ids: dict[tuple[str, str], list[str]] = defaultdict(list)
        for kind, value, pid in store.iter_match_ids():
            self.ids[(kind, value.lower() if kind in ("arxiv", "doi") else value)].append(pid)
        for pid, url in store.iter_match_links():
            for kv in ids_of(url):
                if kv[0] == "page":
                    self.ids[kv].append(pid)

    def names_paper(self, heading: str, key: str) -> bool:
        """A heading that is a paper's title (some lists give each paper a heading): no topic."""
        k = title_key(_NUMBERING.sub("", heading))
        return k == key or k in self.titles

    def match(self, e: dict[str, Any]) -> tuple[list[str], str, str]:
        """The papers an entry names, how ("id" or "title") and the title key that matched; ([],
        "", "") for none."""
        papers: list[str] = []
        for kind, value in e.get("ids", []):
            for pid in self.ids.get((kind, value), ()):
                if pid not in papers:
                    papers.append(pid)
        if papers:
            return papers, "id", ""
        year = e.get("year")
        for t in [e.get("title") or "", *e.get("alternatives", [])]:
            cands = self.titles.get(title_key(t)) if t else None
            if not cands:
                continue
            near = [pid for pid, y in cands if year is not None and abs(y - year) <= 1]
            if near:
                return near, "title", title_key(t)
            if len(t.split()) >= 4:
                return [pid for pid, _ in cands], "title", title_key(t)
        return [], "", ""
