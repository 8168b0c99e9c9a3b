"""``paperlist embed``: embed every paper's title and abstract, resumably.

The job reads the papers, keeps those whose content hash is not cached yet, embeds them newest
year first (so a partial run already covers the papers people search most) in batches, and
appends each batch to the cache as one atomic chunk. Interrupting it (Ctrl-C, SIGTERM, a crash)
loses at most the batch in flight; running it again continues. At the end it publishes a
vector generation for the current papers and compacts the cache.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from ..store import Store
from .encoder import DEFAULT_MAX_TOKENS, Encoder
from .vectors import VectorCache, iter_rows, publish

SORT_WINDOW = 4096        # texts sorted by length within this window: less padding per batch


@dataclass(slots=True)
class EmbedReport:
    papers: int = 0             # papers in the store
    cached: int = 0             # already embedded (unchanged content)
    embedded: int = 0           # embedded by this run
    remaining: int = 0          # still to embed (interrupted or stopped early)
    seconds: float = 0.0
    rate: float = 0.0           # texts per second while encoding
    precision: str | None = None    # the encoder's (``encoder.PRECISIONS``), when it ran
    generation: str | None = None
    published: int = 0          # rows in the published generation
    interrupted: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {k: (round(v, 2) if isinstance(v, float) else v) for k, v in
                ((f, getattr(self, f)) for f in self.__slots__)}


Progress = Callable[[int, int, float], None]      # (done, total, seconds so far)


class Hooks:
    """What a long-running caller (the background job, ``service.embedding``) hears and decides
    during ``embed``; the defaults do nothing."""

    def started(self, rep: EmbedReport, todo: int) -> None:
        """Before the first batch: ``rep.papers`` and ``rep.cached`` are known."""

    def publish_now(self, rep: EmbedReport) -> bool:
        """After each batch: publish a partial generation of what is cached so far?"""
        return False

    def published(self, generation: str, rows: int, partial: bool) -> None:
        """After a generation was published."""

    def should_stop(self) -> bool:
        """Before each batch: stop here (as an interrupt does)?"""
        return False


class _Stop:
    """Turns SIGTERM into a clean stop after the current batch (SIGINT raises KeyboardInterrupt,
    which is handled the same way)."""

    def __init__(self) -> None:
        self.requested = False
        self._old: Any = None

    def __enter__(self) -> _Stop:
        try:
            self._old = signal.signal(signal.SIGTERM, self._handle)
        except ValueError:          # not the main thread: no signal handling
            self._old = None
        return self

    def _handle(self, _sig: int, _frame: FrameType | None) -> None:
        self.requested = True

    def __exit__(self, *exc: object) -> None:
        if self._old is not None:
            signal.signal(signal.SIGTERM, self._old)


def embed(store: Store, home: Path, max_tokens: int = DEFAULT_MAX_TOKENS, batch_size: int = 256,
          max_batches: int | None = None, progress: Progress | None = None, do_publish: bool = True,
          encoder: Encoder | None = None, hooks: Hooks | None = None) -> EmbedReport:
    """Embed what is not cached yet, then publish. ``max_batches`` stops early (tests, trial
    runs); an interrupt (or ``hooks.should_stop``) stops after the batch in flight. Both leave a
    resumable cache. ``hooks.publish_now`` publishes partial generations on the way."""
    hooks = hooks or Hooks()
    t0 = time.perf_counter()
    rep = EmbedReport()
    cache = VectorCache(home, max_tokens)
    cached = cache.load()
    rows = list(iter_rows(store.iter_embed_items(), max_tokens))
    rep.papers = len(rows)
    todo: dict[bytes, tuple[int, str]] = {}
    for _pid, _venue, year, h, text in rows:
        if h not in cached and h not in todo:
            todo[h] = (year, text)
    rep.cached = rep.papers - sum(1 for r in rows if r[3] in todo)
    order = _queue(todo)
    total = len(order)
    hooks.started(rep, total)

    def publish_partial() -> None:
        gen, n = publish(home, ((r[0], r[1], r[2], r[3]) for r in rows), cached, max_tokens, partial=True)
        hooks.published(gen, n, True)

    enc_s = 0.0
    if order:
        enc = encoder or Encoder(max_tokens)
        rep.precision = enc.precision
        enc_s = _encode(enc, order, todo, cache, cached, rep, hooks, batch_size, max_batches, progress,
                        publish_partial)
    rep.remaining = total - rep.embedded
    rep.rate = rep.embedded / enc_s if enc_s > 0 else 0.0
    if do_publish and not rep.interrupted:
        rep.generation, rep.published = publish(home, ((r[0], r[1], r[2], r[3]) for r in rows),
                                                cached, max_tokens)
        hooks.published(rep.generation, rep.published, rep.remaining > 0)
        if rep.remaining == 0:
            cache.compact({r[3] for r in rows})
    rep.seconds = time.perf_counter() - t0
    return rep


def _queue(todo: dict[bytes, tuple[int, str]]) -> list[bytes]:
    """The hashes to embed, newest first; within a window, by length (similar lengths batch with
    little padding)."""
    order = sorted(todo, key=lambda h: -todo[h][0])
    return [h for i in range(0, len(order), SORT_WINDOW)
            for h in sorted(order[i:i + SORT_WINDOW], key=lambda h: len(todo[h][1]))]


def _encode(enc: Encoder, order: list[bytes], todo: dict[bytes, tuple[int, str]], cache: VectorCache,
            cached: dict[bytes, Any], rep: EmbedReport, hooks: Hooks, batch_size: int,
            max_batches: int | None, progress: Progress | None, publish_partial: Callable[[], None]) -> float:
    """Embed ``order`` batch by batch, each appended to the cache (and to ``cached``), until done,
    interrupted, stopped by ``hooks`` or ``max_batches`` reached; the seconds spent encoding."""
    total = len(order)
    enc_s = 0.0
    batches = 0
    with _Stop() as stop:
        try:
            for i in range(0, total, batch_size):
                if stop.requested or hooks.should_stop():
                    rep.interrupted = True
                    break
                if max_batches is not None and batches >= max_batches:
                    break
                chunk = order[i:i + batch_size]
                t = time.perf_counter()
                vecs = enc.encode([todo[h][1] for h in chunk])
                enc_s += time.perf_counter() - t
                cache.append(chunk, vecs)
                for h, v in zip(chunk, vecs, strict=True):
                    cached[h] = v
                rep.embedded += len(chunk)
                batches += 1
                if progress:
                    progress(rep.embedded, total, enc_s)
                rep.rate = rep.embedded / enc_s if enc_s > 0 else 0.0
                if rep.embedded < total and not stop.requested and hooks.publish_now(rep):
                    publish_partial()
        except KeyboardInterrupt:
            rep.interrupted = True
    return enc_s
