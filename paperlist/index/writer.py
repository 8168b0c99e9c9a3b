"""Writing an index generation: whole, or as a copy of the live one with the changed papers'
documents replaced.

Both start the same way: the corpus-wide features every document carries (sort orders, versions
of a work, pioneers, novelty; ``Features``) and the Chinese bridge. A full write streams every
paper into a new tantivy index. An incremental write (``previous`` given, with its ``docstate``)
hashes every paper's document, and when at most ``MAX_CHANGED`` of them changed it hard-links the
previous generation's files, deletes the changed and removed papers' documents and adds the new
ones as one small segment: what changed is one new segment and a deletion bitmap per old segment,
so a published snapshot after a small update shares the old segments with the one before.

Deleted documents still count in BM25's statistics until their segment is merged; after
``MAX_DELETED`` of the index was replaced the next build is a full one, so that drift stays small.
"""

from __future__ import annotations

import math
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import tantivy

from .. import versions
from ..curated.signal import Listed, Signal
from ..store import IndexDoc, Store
from . import analyzers, bridge, docstate, mentions, pioneers

MAX_CHANGED = 0.2            # of the papers: beyond this share changed, a full write is as fast
MAX_DELETED = 0.25           # of the documents replaced since the last full write
Progress = Callable[[int, int], None]
Document = Callable[..., tantivy.Document]


@dataclass(slots=True)
class WorkLink:
    """A paper's place in its work: the published version's id, the other versions (for display),
    and text the published version lacks that a version has (its abstract)."""

    published: str
    others: list[dict[str, object]]
    borrowed_abstract: str = ""


@dataclass(slots=True)
class Features:
    """What each paper's document takes from the whole corpus."""

    ids: list[str]
    position: dict[str, int]
    orders: dict[str, list[int]]         # per sort (docstate.SORTS): indexes in sorted order
    works: dict[str, WorkLink]
    novelty: dict[str, float]
    pioneered: dict[str, tuple[str, ...]]
    listed: dict[str, Listed] = field(default_factory=dict)    # the curated lists' signal

    def parts(self, d: IndexDoc) -> tuple[WorkLink | None, float, tuple[str, ...], Listed | None]:
        return (self.works.get(d.id), self.novelty.get(d.id, 0.0), tuple(self.pioneered.get(d.id, ())),
                self.listed.get(d.id))


@dataclass(slots=True)
class Written:
    papers: int
    changed: int | None = None           # documents replaced or added; None for a full write
    deleted: int = 0                     # documents replaced since the last full write
    notes: list[str] = field(default_factory=list)


def features(store: Store, workdir: Path, status_order: Callable[[str | None], int]) -> Features:
    keys = list(store.iter_sort_keys())
    ids = [pid for pid, *_ in keys]
    titles = [" ".join(analyzers.word_tokens(t)) for _, _, _, t, _ in keys]
    browse = [(status_order(st), titles[i], -y, pid) for i, (pid, st, y, _, _) in enumerate(keys)]
    ratings = [r if r is not None and math.isfinite(r) else None for *_, r in keys]
    orders = {
        "browse": _order(browse),
        "title": _order([(titles[i], -y, pid) for i, (pid, _, y, _, _) in enumerate(keys)]),
        # highest mean first, ties in browse order, then every unrated paper (in browse order)
        "rating": _order([(r is None, -(r or 0.0), browse[i]) for i, r in enumerate(ratings)]),
    }
    del titles, browse
    first = pioneers.pioneers((pid, y, t) for pid, _, y, t, _ in keys)
    named = mentions.novelty(((pid, year, title, abstract) for pid, _v, year, title, abstract
                              in store.iter_embed_items()), workdir / "mentions")
    return Features(ids, {pid: i for i, pid in enumerate(ids)}, orders, work_links(store), named,
                    {k: tuple(v) for k, v in first.items()}, listed(store))


def listed(store: Store) -> dict[str, Listed]:
    """Each paper's part of the curated lists' signal (curated/signal.py), for papers in a list."""
    signal = Signal(store.curated_lists(), words=analyzers.content_stems)
    out: dict[str, Listed] = {}
    rows: list[tuple[str, dict[str, object]]] = []
    last = None
    for pid, name, row in store.iter_paper_lists():
        if pid != last and last is not None:
            got = signal.of(rows)
            if got.lists:
                out[last] = got
            rows = []
        last = pid
        rows.append((name, row))
    if last is not None and signal.of(rows).lists:
        out[last] = signal.of(rows)
    return out


def _order(keys: list[Any]) -> list[int]:
    return sorted(range(len(keys)), key=keys.__getitem__)


def work_links(store: Store) -> dict[str, WorkLink]:
    """Every paper that has versions: its link (see versions.works)."""
    out: dict[str, WorkLink] = {}
    works = versions.works(store.version_candidates())
    abstracts = store.abstracts([v.id for w in works for v in w[1:]])
    for w in works:
        head = w[0]
        for v in w:
            out[v.id] = WorkLink(head.id, [{"id": o.id, "venue": o.venue, "year": o.year, "status": o.status,
                                            "published": o.id == head.id} for o in w if o.id != v.id])
        out[head.id].borrowed_abstract = next((abstracts[o.id] for o in w[1:] if abstracts.get(o.id)), "")
    return out


def write(store: Store, path: Path, schema: tantivy.Schema, document: Document, feats: Features,
          heap_mb: int, progress: Progress | None, previous: Path | None = None,
          deleted_before: int = 0) -> Written:
    """Write the generation at ``path`` (created, empty): incrementally from ``previous`` when it
    can be, else in full."""
    bridge.write(store.iter_summaries_zh(), path / bridge.DIR)
    state = docstate.load(previous) if previous is not None else None
    if state is not None and previous is not None:
        done = _incremental(store, path, previous, state, document, feats, heap_mb, deleted_before, progress)
        if done is not None:
            return done
        for p in list(path.iterdir()):           # what the attempt copied; keep the bridge
            if p.name != bridge.DIR:
                shutil.rmtree(p) if p.is_dir() else p.unlink()
    return _full(store, path, schema, document, feats, heap_mb, progress)


def _full(store: Store, path: Path, schema: tantivy.Schema, document: Document, feats: Features,
          heap_mb: int, progress: Progress | None) -> Written:
    """Every paper into a new tantivy index. A large writer heap keeps tantivy from flushing many
    small segments that it would then have to merge: that halves the build time."""
    values = [docstate.spaced(feats.orders[s]) for s in docstate.SORTS]
    index = tantivy.Index(schema, path=str(path), reuse=False)
    analyzers.register(index)
    writer = index.writer(heap_mb * 1_000_000, min(2, os.cpu_count() or 1))
    total, n = len(feats.ids), 0
    ids: list[str] = []
    rows: list[tuple[int, int, int, int]] = []
    try:
        for d in store.iter_index_docs():
            i = feats.position.get(d.id)
            if i is None:           # a paper added since the first pass: sorts last
                v = (total + n + 1) * docstate.GAP
                ranks = (v, v, v)
            else:
                ranks = (int(values[0][i]), int(values[1][i]), int(values[2][i]))
            parts = feats.parts(d)
            writer.add_document(document(d, *ranks, *parts))
            ids.append(d.id)
            rows.append((docstate.doc_hash((d, *parts)), *ranks))
            n += 1
            if progress and (n % 20000 == 0 or n == total):
                progress(n, total)
        writer.commit()
        writer.wait_merging_threads()
    except BaseException:
        # Drop the writer now (not when the traceback dies) so its files can be deleted.
        writer.rollback()
        del writer, index
        raise
    docstate.save(path, docstate.DocState(ids, np.asarray(rows, dtype=np.int64).reshape(-1, 4)))
    return Written(papers=n)


def _incremental(store: Store, path: Path, previous: Path, state: docstate.DocState, document: Document,
                 feats: Features, heap_mb: int, deleted_before: int,
                 progress: Progress | None) -> Written | None:
    """Replace the changed papers' documents in a copy of ``previous``; None when a full write is
    due (too much changed, too much replaced since the last full write, no room between values)."""
    old = state.row()
    scan = _changed(store, state, old, feats, progress)
    if scan is None:
        return None
    changed, hashes = scan
    removed = [pid for pid in state.ids if pid not in hashes]
    replaced = deleted_before + sum(1 for d, _ in changed if d.id in old) + len(removed)
    if replaced > MAX_DELETED * max(1, len(state.ids)):
        return None
    if any(d.id not in feats.position for d, _ in changed):
        return None                  # a paper added during the build: a full write places it
    kept = {pid for pid in hashes if pid in old} - {d.id for d, _ in changed}
    values = _values(feats, state, old, kept)
    if values is None:
        return None
    _copy_generation(previous, path)
    _replace(path, [d.id for d, _ in changed if d.id in old] + removed, changed, document, feats, values,
             heap_mb)
    ids = list(hashes)
    rows = _rows(ids, hashes, feats, values)
    if rows is None:
        return None
    docstate.save(path, docstate.DocState(ids, rows))
    return Written(papers=len(ids), changed=len(changed), deleted=replaced)


def _changed(store: Store, state: docstate.DocState, old: dict[str, int], feats: Features,
             progress: Progress | None) -> tuple[list[tuple[IndexDoc, int]], dict[str, int]] | None:
    """Every paper's document hash, and the papers (with their hash) whose document is new or
    changed; None when more than ``MAX_CHANGED`` of them are."""
    changed: list[tuple[IndexDoc, int]] = []
    hashes: dict[str, int] = {}
    total = len(feats.ids)
    most = MAX_CHANGED * max(1, total)
    for d in store.iter_index_docs():
        h = docstate.doc_hash((d, *feats.parts(d)))
        hashes[d.id] = h
        if progress and (len(hashes) % 20000 == 0 or len(hashes) == total):
            progress(len(hashes), total)
        i = old.get(d.id)
        if i is None or int(state.values[i, 0]) != h:
            changed.append((d, h))
            if len(changed) > most:
                return None
    return changed, hashes


def _replace(path: Path, deleted: list[str], changed: list[tuple[IndexDoc, int]], document: Document,
             feats: Features, values: dict[str, dict[int, int]], heap_mb: int) -> None:
    """In the copied index at ``path``: delete the ``deleted`` papers' documents and add the
    changed papers' new ones, as one commit."""
    index = tantivy.Index.open(str(path))
    analyzers.register(index)
    writer = index.writer(min(heap_mb, 500) * 1_000_000, 1)
    try:
        for pid in deleted:
            writer.delete_documents_by_term("id", pid)
        for d, _h in changed:
            i = feats.position[d.id]
            writer.add_document(document(d, *(values[s][i] for s in docstate.SORTS), *feats.parts(d)))
        writer.commit()
        writer.garbage_collect_files()
        writer.wait_merging_threads()
    except BaseException:
        writer.rollback()
        del writer, index
        raise


def _rows(ids: list[str], hashes: dict[str, int], feats: Features,
          values: dict[str, dict[int, int]]) -> np.ndarray | None:
    """The build state's rows (document hash, then each sort's value) for ``ids``; None when a
    paper has no place in the sort orders (added during the build: a full write places it)."""
    rows = np.empty((len(ids), 4), dtype=np.int64)
    for r, pid in enumerate(ids):
        i = feats.position.get(pid)
        if i is None:
            return None
        rows[r] = (hashes[pid], *(values[s][i] for s in docstate.SORTS))
    return rows


def _values(feats: Features, state: docstate.DocState, old: dict[str, int],
            kept: set[str]) -> dict[str, dict[int, int]] | None:
    """Each sort's value for every paper (index -> value): kept papers keep theirs, the others go
    between their neighbours'."""
    out: dict[str, dict[int, int]] = {}
    for col, sort in enumerate(docstate.SORTS, start=1):
        have = {feats.position[pid]: int(state.values[old[pid], col]) for pid in kept}
        filled = docstate.fill(feats.orders[sort], have)
        if filled is None:
            return None
        out[sort] = have | filled
    return out


TANTIVY_META = ("meta.json", ".managed.json", ".tantivy-meta.lock", ".tantivy-writer.lock")


def _copy_generation(previous: Path, path: Path) -> None:
    """The previous generation's tantivy files in ``path``: segment files hard-linked (tantivy
    never changes a file it wrote), its meta and lock files copied (a commit replaces them). Our
    own files (the info, the bridge, the build state) are written anew."""
    for p in previous.iterdir():
        if p.is_dir() or p.suffix == ".json" and p.name not in TANTIVY_META or p.name in docstate.BUILD_FILES:
            continue
        target = path / p.name
        if p.name in TANTIVY_META:
            shutil.copy2(p, target)
            continue
        try:
            os.link(p, target)
        except OSError:
            shutil.copy2(p, target)

