"""What the corpus says about a paper's importance: how often later papers name it.

A paper whose short title (or the head of its title, before a colon) is a phrase that did not
exist before it and that many later papers write ("denoising diffusion probabilistic models",
"batch normalization", "graph attention networks") coined a name the field uses: it is one of
the papers a topic builds on, whether or not a source gives its citation count (two thirds of
the papers have none, the newest most of all).

For each paper with such a phrase (2 to 6 words, not all stop words), it counts the papers that
have the phrase in their title or abstract before the paper's year and after it, and scores its
*novelty*: the share of later papers that write it over the share of earlier ones (smoothed by
one paper, so an early paper with few predecessors in the corpus is not novel by default). A
phrase many papers used before ("large language models" in a 2023 title) is not this paper's;
one that fewer than ``MIN_LATER`` later papers use says nothing.

The counting needs positions of every paper's words: a temporary index of the titles and
abstracts only, built next to the generation being written and deleted after (on the full
corpus, ~30 s to write and ~25 s for 130k phrase counts on two threads). The result depends on
the papers only, so an index rebuilt from the same store gets the same priors.
"""

from __future__ import annotations

import bisect
import os
import re
import shutil
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import tantivy
from tantivy import FieldType, Occur, Query

from . import analyzers

MIN_WORDS, MAX_WORDS = 2, 6
MAX_EARLIER = 3          # a phrase more earlier papers have was not coined here
MIN_LATER = 10
_HEAD = re.compile(r"[:：]\s")


def phrase(title: str) -> list[str] | None:
    """The words a paper is named by: its whole title when short, else its head before a colon."""
    toks = analyzers.word_tokens(title)
    if not MIN_WORDS <= len(toks) <= MAX_WORDS:
        parts = _HEAD.split(title, maxsplit=1)
        toks = analyzers.word_tokens(parts[0]) if len(parts) == 2 else []
        if not MIN_WORDS <= len(toks) <= MAX_WORDS:
            return None
    if all(t in analyzers.STOP_WORDS for t in toks):
        return None
    return toks


def novelty(papers: Iterable[tuple[str, int, str, str | None]], workdir: Path,
            threads: int = 2) -> dict[str, float]:
    """Each named paper's novelty (see the module doc), for ``papers`` as (id, year, plain title,
    plain abstract); papers whose phrase says nothing are left out. ``workdir`` (created, then
    deleted) holds the temporary index."""
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("text", tokenizer_name="en")
    sb.add_integer_field("year", indexed=True, fast=True)
    schema = sb.build()
    workdir.mkdir(parents=True, exist_ok=False)
    try:
        index = tantivy.Index(schema, path=str(workdir), reuse=False)
        analyzers.register(index)
        writer = index.writer(400_000_000, min(2, os.cpu_count() or 1))
        named: list[tuple[str, int, list[str]]] = []
        years: list[int] = []
        for pid, year, title, abstract in papers:
            doc = tantivy.Document()
            doc.add_text("text", analyzers.protect(title))
            if abstract:
                doc.add_text("text", analyzers.protect(abstract))
            doc.add_integer("year", year)
            writer.add_document(doc)
            years.append(year)
            words = phrase(title)
            if words is not None:
                named.append((pid, year, [analyzers.stem(w) for w in words]))
        writer.commit()
        writer.wait_merging_threads()
        del writer
        index.reload()
        searcher = index.searcher()
        years.sort()

        def count(item: tuple[str, int, list[str]]) -> tuple[str, float]:
            pid, year, stems = item
            words: list[str | tuple[int, str]] = list(stems)
            base = Query.phrase_query(schema, "text", words)
            earlier = searcher.search(Query.boolean_query([
                (Occur.Must, base),
                (Occur.Must, Query.range_query(schema, "year", FieldType.Integer, 0, year - 1))]),
                1, count=True).count  # type: ignore[attr-defined]
            if earlier > MAX_EARLIER:
                return pid, 0.0
            later = searcher.search(Query.boolean_query([
                (Occur.Must, base),
                (Occur.Must, Query.range_query(schema, "year", FieldType.Integer, year + 1, 10_000))]),
                1, count=True).count  # type: ignore[attr-defined]
            if later < MIN_LATER:
                return pid, 0.0
            n_before = bisect.bisect_left(years, year)
            n_after = len(years) - bisect.bisect_right(years, year)
            return pid, (later / max(1, n_after)) / ((earlier + 1) / max(1, n_before))

        with ThreadPoolExecutor(max(1, threads)) as pool:
            return {pid: v for pid, v in pool.map(count, named, chunksize=512) if v > 0}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
