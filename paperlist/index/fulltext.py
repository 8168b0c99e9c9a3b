"""The full-text index: a tantivy index built from the store under ``<home>/index/``, published
as generations (``generations``: a new directory, written and committed, then switched to
atomically; ``paperlist.json`` in it says what it was built from). A running ``Searcher`` keeps
answering from the old generation until it notices the switch (it checks CURRENT before each
search).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import orjson
import tantivy

from .. import venues as venue_registry
from ..curated.signal import Listed
from ..curated.signal import mode as curated_mode
from ..models import ACCEPTED_STATUSES, PENDING_STATUSES, REJECTED_STATUSES
from ..store import IndexDoc, Store
from ..store.curated import MATCHED_KEY
from ..taxonomy import taxonomy
from ..text import title_key
from . import analyzers, bridge, generations, writer
from .prior import TIER_PRIOR, prior

# Bump when the schema or what goes into a field changes: older generations are then rebuilt.
PRIOR_INDEXED_SINCE = 13      # generations from this version index ``prior`` (tiers.important_papers)
# 21: the curated lists (``listed`` headings, ``lists``, their count in the prior);
# 20: the first titles of a topic phrase (``pioneer``, pioneers.py);
# 19: ``important``, the papers above TIER_PRIOR as one posting list (tiers.important_papers);
# 18: the words after a hyphen in titles (title_tail, title_join); 17: an abbreviation of words
# earlier papers wrote is no paper's name (mentions.Name.spells);
# 16: importance weighs twice, papers known by a coined word (mentions.names); 15: the Chinese
# bridge; 14: -alize words kept apart (analyzers.protect)
INDEX_VERSION = 21
INFO_FILE = "paperlist.json"

# Browse order: oral, spotlight, highlight, poster, accepted, unknown, then not accepted.
STATUS_ORDER: dict[str | None, int] = {s: i for i, s in enumerate(ACCEPTED_STATUSES)}
STATUS_ORDER[None] = len(ACCEPTED_STATUSES)
STATUS_ORDER.update({s: len(ACCEPTED_STATUSES) + 1 + i
                     for i, s in enumerate(PENDING_STATUSES + REJECTED_STATUSES)})
NO_CITATIONS = -1
_JOINED = re.compile(r"\w[-'’‐‑]\w")
_HEAD = re.compile(r"\s*[:：]\s+")




def schema() -> tantivy.Schema:
    """Text fields to search, raw/fast fields to filter, facet and sort, and one stored blob."""
    sb = tantivy.SchemaBuilder()
    _searched_fields(sb)
    _filter_fields(sb)
    _ranking_fields(sb)
    # everything a Hit shows, as one JSON blob (one stored field decodes fastest)
    sb.add_bytes_field("doc", stored=True)
    return sb.build()


def _searched_fields(sb: tantivy.SchemaBuilder) -> None:
    """The text fields that queries search."""
    sb.add_text_field("title", tokenizer_name="en")               # stemmed plain title
    sb.add_text_field("title_words", tokenizer_name="words", index_option="basic")  # unstemmed: vocabulary
    sb.add_text_field("title_key", tokenizer_name="raw")          # text.title_key: exact-title match
    # the title's head before a colon, as a title key: "Batch Normalization: Accelerating ..." is
    # named "Batch Normalization"
    sb.add_text_field("title_head", tokenizer_name="raw", index_option="basic")
    # the words that follow a hyphen in the title (stems), and each such pair as "head tail"
    # (analyzers.hyphen_pairs): a query phrase does not count inside a compound
    sb.add_text_field("title_tail", tokenizer_name="raw", index_option="basic")
    sb.add_text_field("title_join", tokenizer_name="raw", index_option="basic")
    # the topic phrases this paper's title was among the first to write (pioneers.key), one value each
    sb.add_text_field("pioneer", tokenizer_name="raw", index_option="basic")
    # the phrases (content stems, "context learn") that several curated reading lists put the
    # paper under (curated/signal.py topic_keys)
    sb.add_text_field("listed_topic", tokenizer_name="raw", index_option="basic")
    sb.add_text_field("authors", tokenizer_name="words")          # one value per author (positions gap)
    # people recall first authors ...
    sb.add_text_field("first_author", tokenizer_name="words", index_option="basic")
    sb.add_text_field("first_surname", tokenizer_name="words", index_option="basic")  # ... by their surname
    sb.add_text_field("keywords", tokenizer_name="en")            # keywords and primary area
    # title, keywords and abstract together: a query word is one posting list to intersect (a
    # union of per-field lists is several times slower to seek), and the abstract's BM25
    sb.add_text_field("text", tokenizer_name="en")


def _filter_fields(sb: tantivy.SchemaBuilder) -> None:
    """The fields that filters and facets read."""
    sb.add_text_field("id", tokenizer_name="raw", index_option="basic")
    sb.add_text_field("author_key", tokenizer_name="raw", index_option="basic")
    for name in ("venue", "family", "status", "track", "topic"):
        sb.add_text_field(name, tokenizer_name="raw", fast=True, index_option="basic")
    sb.add_integer_field("year", indexed=True, fast=True)
    sb.add_boolean_field("accepted", indexed=True, fast=True)


def _ranking_fields(sb: tantivy.SchemaBuilder) -> None:
    """The fields that sort and rank results, and the versions of a work."""
    sb.add_integer_field("citations", fast=True)
    sb.add_integer_field("lists", fast=True)                       # curated lists that include it
    sb.add_integer_field("browse_rank", fast=True)                # status, then title (global order)
    sb.add_integer_field("title_rank", fast=True)                 # title A-Z, then newest
    # mean review rating: only rated papers have a value (a range never matches an unrated one)
    sb.add_float_field("rating", indexed=True, fast=True)
    sb.add_integer_field("rating_rank", fast=True)                # highest mean first, unrated last
    # accepted, important and newer papers first: prior(); indexed, so that the papers above
    # TIER_PRIOR can join a broad query's tier (search/tiers.py)
    sb.add_float_field("prior", fast=True, indexed=True)
    # prior > TIER_PRIOR: the papers that join every tier, as one posting list (a range of the
    # float field unions a list per distinct value: 1.4 ms a query, a third of a topic search)
    sb.add_boolean_field("important", indexed=True)
    # versions of one work (versions.py): every version has the published one's id; the others
    # are ``secondary`` (left out of unfiltered searches, which show the work once)
    sb.add_text_field("work", tokenizer_name="raw", index_option="basic")
    sb.add_boolean_field("secondary", indexed=True)


@dataclass(slots=True)
class BuildReport:
    generation: str
    path: Path
    papers: int
    seconds: float
    skipped: bool = False          # the index was already current
    changed: int | None = None     # documents an incremental build replaced (None: a full build)

    def to_dict(self) -> dict[str, object]:
        return {"generation": self.generation, "path": str(self.path), "papers": self.papers,
                "seconds": round(self.seconds, 2), "skipped": self.skipped, "changed": self.changed}


def index_root(home: Path) -> Path:
    return Path(home) / "index"


def current_stamp(root: Path) -> tuple[int, int] | None:
    return generations.current_stamp(root)


def current_generation(root: Path) -> str | None:
    """The live index generation's name under ``root``, or None when none was built yet."""
    return generations.current_generation(root, INFO_FILE)


def generation_info(path: Path) -> dict[str, object]:
    return orjson.loads((path / INFO_FILE).read_bytes())


def open_index(path: Path) -> tantivy.Index:
    index = tantivy.Index.open(str(path))
    analyzers.register(index)
    return index


def needs_build(home: Path) -> bool:
    """True when there is no usable index: none built yet, or one from another index version."""
    root = index_root(home)
    gen = current_generation(root)
    return gen is None or generation_info(root / gen).get("version") != INDEX_VERSION


def leftovers(home: Path) -> list[str]:
    """Generations under the index root that are neither live nor the previous one (killed builds)."""
    return generations.leftovers(index_root(home), INFO_FILE)


def clean(home: Path) -> list[str]:
    """Delete what killed builds left under the index root (waits for a running build)."""
    root = index_root(home)
    if not root.is_dir():
        return []
    with generations.build_lock(root):
        return generations.clean(root, INFO_FILE)


def build_lock(home: Path) -> AbstractContextManager[None]:
    """Held by a build from start to publish: whoever holds it sees the live generation stay."""
    return generations.build_lock(index_root(home))


def content_fingerprint(store: Store) -> str:
    """What an index is built from: the papers, their topics and the curated lists that include
    them (with the evaluation mode of their signal)."""
    return (f"{store.papers_fingerprint()}:{store.topics_fingerprint() or '-'}:"
            f"{store.meta(MATCHED_KEY) or '-'}:{curated_mode()}")


def is_current(store: Store, home: Path, fingerprint: str | None = None) -> bool:
    """True when the live generation was built by this index version from exactly these papers
    (and its Chinese bridge, if it has one, is whole)."""
    root = index_root(home)
    gen = current_generation(root)
    if gen is None:
        return False
    info = generation_info(root / gen)
    fp = fingerprint if fingerprint is not None else content_fingerprint(store)
    return (info.get("version") == INDEX_VERSION and info.get("fingerprint") == fp
            and bridge.problem(root / gen / bridge.DIR) is None)


def build(store: Store, home: Path, force: bool = True, heap_mb: int = 1500,
          progress: Callable[[int, int], None] | None = None, full: bool = False) -> BuildReport:
    """Build a new generation from the store and switch to it. With ``force=False`` nothing is
    done when the live generation is already current (same papers, same index version). The
    build copies the live generation and replaces only the changed papers' documents when few
    changed (``writer``), unless ``full``."""
    t0 = time.perf_counter()
    root = index_root(home)
    with generations.build_lock(root):
        generations.clean(root, INFO_FILE)          # what builds killed half-way left
        fp = content_fingerprint(store)
        if not force and is_current(store, home, fp):
            gen = current_generation(root)
            assert gen is not None
            info = generation_info(root / gen)
            return BuildReport(gen, root / gen, int(str(info.get("papers", 0))),
                               time.perf_counter() - t0, True)
        previous, deleted = (None, 0) if full else _previous(root)
        gen, path, stamp = generations.new(root)
        try:
            feats = writer.features(store, path, lambda st: STATUS_ORDER.get(st, len(STATUS_ORDER)))
            w = writer.write(store, path, schema(), _document, feats, heap_mb, progress, previous, deleted)
            (path / INFO_FILE).write_bytes(orjson.dumps({
                "version": INDEX_VERSION, "fingerprint": fp, "papers": w.papers, "built_at": stamp,
                "seconds": round(time.perf_counter() - t0, 2), "changed": w.changed, "deleted": w.deleted}))
        except BaseException:
            generations.discard(path)
            raise
        generations.publish(root, gen, INFO_FILE)
        return BuildReport(gen, path, w.papers, time.perf_counter() - t0, changed=w.changed)


def _previous(root: Path) -> tuple[Path | None, int]:
    """The live generation an incremental build may start from (this index version's), and how
    many of its documents were replaced since its last full build."""
    live = current_generation(root)
    if live is None:
        return None, 0
    info = generation_info(root / live)
    if info.get("version") != INDEX_VERSION:
        return None, 0
    deleted = info.get("deleted")
    return root / live, deleted if isinstance(deleted, int) else 0


def _document(d: IndexDoc, browse_rank: int, title_rank: int, rating_rank: int,
              work: writer.WorkLink | None = None, novelty: float = 0.0,
              pioneered: Iterable[str] = (), listed: Listed | None = None) -> tantivy.Document:
    """One paper's document, given its place in each sort order and what it takes from the whole
    corpus (``writer.Features.parts``)."""
    title = d.title_plain or d.title
    doc = tantivy.Document()
    doc.add_text("id", d.id)
    _add_title(doc, title)
    for phrase in pioneered:
        doc.add_text("pioneer", phrase)
    for key in listed.topics if listed else ():
        doc.add_text("listed_topic", key)
    _add_authors(doc, d.authors)
    _add_text(doc, d, title, work)
    if work is not None:
        doc.add_text("work", work.published)
        doc.add_boolean("secondary", work.published != d.id)
    _add_filters(doc, d)
    doc.add_integer("citations", d.citations if d.citations is not None else NO_CITATIONS)
    doc.add_integer("browse_rank", browse_rank)
    doc.add_integer("title_rank", title_rank)
    rating = d.rating if d.rating is not None and math.isfinite(d.rating) else None
    if rating is not None:
        doc.add_float("rating", float(rating))
    doc.add_integer("rating_rank", rating_rank)
    n_lists = listed.lists if listed else 0
    doc.add_integer("lists", n_lists)
    value = prior(d.year, d.accepted, d.venue, d.citations, d.status, bool(d.award), novelty,
                  listed.count if listed else 0.0)
    doc.add_float("prior", value)
    doc.add_boolean("important", value > TIER_PRIOR)
    doc.add_bytes("doc", orjson.dumps({
        "id": d.id, "title": d.title, "title_plain": title, "authors": [a[0] for a in d.authors],
        "author_keys": [a[1] for a in d.authors], "venue": d.venue, "year": d.year, "status": d.status,
        "accepted": d.accepted, "track": d.track, "citations": d.citations, "rating": rating,
        **({"lists": n_lists} if n_lists else {}),
        "abstract": d.abstract_plain or (work.borrowed_abstract if work else ""),
        **({"versions": work.others} if work is not None else {})}))
    return doc


def _add_title(doc: tantivy.Document, title: str) -> None:
    """The title's fields: stemmed, unstemmed, as a title key, its head, its hyphenated words."""
    doc.add_text("title", analyzers.protect(title))
    doc.add_text("title_words", title)
    doc.add_text("title_key", title_key(title))
    head = title_head(title)
    if head:
        doc.add_text("title_head", head)
    for a, b in analyzers.hyphen_pairs(title):
        doc.add_text("title_tail", b)
        doc.add_text("title_join", f"{a} {b}")


def _add_authors(doc: tantivy.Document, authors: list[tuple[str, str]]) -> None:
    """Each author's name and key; the first author's also as first author and surname."""
    for i, (name, key) in enumerate(authors):
        text = _author_text(name, key)
        doc.add_text("authors", text)
        doc.add_text("author_key", key)
        if i == 0:
            doc.add_text("first_author", text)
            doc.add_text("first_surname", name.rsplit(None, 1)[-1] if name.strip() else "")


def _add_text(doc: tantivy.Document, d: IndexDoc, title: str, work: writer.WorkLink | None) -> None:
    """The searched text: the title, the keywords and primary area (also as keywords), and the
    abstract."""
    doc.add_text("text", analyzers.protect(title))
    for kw in d.keywords:
        doc.add_text("keywords", analyzers.protect(kw))
        doc.add_text("text", analyzers.protect(kw))
    if d.primary_area:
        doc.add_text("keywords", analyzers.protect(d.primary_area))
        doc.add_text("text", analyzers.protect(d.primary_area))
    if d.abstract_plain:
        doc.add_text("text", analyzers.protect(d.abstract_plain))
    elif work is not None and work.borrowed_abstract:
        # the published version is found by its submission's abstract
        doc.add_text("text", analyzers.protect(work.borrowed_abstract))


def _add_filters(doc: tantivy.Document, d: IndexDoc) -> None:
    """The values filters and facets read: venue, family, status, track, topics, year, accepted."""
    doc.add_text("venue", d.venue)
    doc.add_text("family", d.family)
    if d.status:
        doc.add_text("status", d.status)
    if d.track:
        doc.add_text("track", d.track)
    for slug in topic_values(d.topics):
        doc.add_text("topic", slug)
    doc.add_integer("year", d.year)
    doc.add_boolean("accepted", d.accepted)


def title_head(title: str) -> str:
    """The title key of a title's head before a colon ("" when it has none, or a long one)."""
    parts = _HEAD.split(title, maxsplit=1)
    if len(parts) != 2 or len(parts[0]) > 80:
        return ""
    return title_key(parts[0])


def topic_values(topics: list[str]) -> tuple[str, ...]:
    """A paper's topics and their areas: ``topic:cv`` finds every computer-vision paper."""
    return _topic_values(tuple(topics))


@lru_cache(maxsize=65536)       # ~16k distinct topic sets in the corpus
def _topic_values(topics: tuple[str, ...]) -> tuple[str, ...]:
    tax = taxonomy()
    out: list[str] = []
    for slug in topics:
        t = tax.get(slug)
        for v in (slug, t.parent if t else None):
            if v and v not in out:
                out.append(v)
    return tuple(out)


def _author_text(name: str, key: str) -> str:
    """The name, plus the words of its key that the name does not have: "Zhi-Hua Zhou" is also
    found as "zhihua" (the key joins hyphenated given names)."""
    if not _JOINED.search(name):     # nothing joined: the key has the name's words (most names)
        return name
    have = set(analyzers.word_tokens(name))
    extra = [w for w in key.split("-") if w and w not in have]
    return f"{name} {' '.join(extra)}" if extra else name


@lru_cache(maxsize=4096)
def venue_label(key: str) -> str:
    """A venue key's short display name ("neurips" -> "NeurIPS")."""
    return venue_registry.get(key).short
