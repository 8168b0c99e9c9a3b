"""What the corpus says about a paper's importance: how often later papers name it.

A paper whose short title (or the head of its title, before a colon) is a phrase that did not
exist before it and that many later papers write ("denoising diffusion probabilistic models",
"batch normalization", "graph attention networks") coined a name the field uses: it is one of
the papers a topic builds on, whether or not a source gives its citation count (two thirds of
the papers have none, the newest most of all).

A paper may also be known by a coined one-word name: its title's head ("DARTS: ...") or a name
its abstract gives it ("This paper presents SimCLR", "Bootstrap Your Own Latent (BYOL)", when
the title has the words the capitals abbreviate); the classics of self-supervised learning,
retrieval-augmented generation (RAG) or offline RL (CQL) are named so, and most have no
citation count here.

For each paper with such a name (a phrase of 2 to 6 words, not all stop words, or a coined word),
it counts the papers that have the name in their title or abstract before the paper's year and
after it, and scores its *novelty*: the share of later papers that write it over the share of
earlier ones (smoothed by one paper, so an early paper with few predecessors in the corpus is
not novel by default). A name many papers used before ("large language models" in a 2023 title)
is not this paper's, nor one that many papers of its own year write ("LVLMs" in 2024); one that
fewer than ``MIN_LATER`` later papers use says nothing. A paper with several names scores its
most novel.

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
from typing import NamedTuple

import tantivy
from tantivy import FieldType, Occur, Query

from . import analyzers

MIN_WORDS, MAX_WORDS = 2, 6
MAX_EARLIER = 3          # a phrase more earlier papers have was not coined here
MIN_LATER = 10
MAX_SAME_SHARE = 0.25    # of the later papers' count: the most papers of the same year may write it
_HEAD = re.compile(r"[:：]\s")
# A coined one-word name: two capitals or more, or a capital after a lower-case letter or digit
# ("DARTS", "SimCLR", "pixelNeRF", "FitNets"; not "Ditto" or "Dropout", words in their own right)
_NAME = r"(?:[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*|[a-z0-9]+[A-Z][A-Za-z0-9]*)(?:-[A-Za-z0-9]+)?"
_COINED = re.compile(rf"^{_NAME}$")
# ... that an abstract gives the paper: "We present SimCLR", "(BYOL)" after the words it abbreviates
_PRESENTED = re.compile(rf"\b(?:[Ww]e (?:present|propose|introduce|call|dub|name|term)|[Tt]his "
                        rf"(?:paper|work) (?:presents|proposes|introduces)|(?:called|dubbed|named|termed))"
                        rf"\s+({_NAME})\b")
_DEFINED = re.compile(rf"\(({_NAME})\)")
MAX_NAMES = 3


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


class Name(NamedTuple):
    """A name a paper may be known by (its words), and for an abbreviation, the title's words its
    capitals spell ("(VLM)": vision, language, models), which must be new as well."""

    words: list[str]
    spells: tuple[str, ...] = ()


def names(title: str, abstract: str | None) -> list[Name]:
    """The names a paper may be known by (see ``phrase``): its short title or title head, a
    coined one-word title head ("DARTS: ..."), and a coined name its abstract gives it ("This
    paper presents SimCLR", "Bootstrap Your Own Latent (BYOL)" when the title has the words it
    abbreviates). At most ``MAX_NAMES``."""
    out: list[Name] = []
    head = phrase(title)
    if head is not None:
        out.append(Name(head))
    parts = _HEAD.split(title, maxsplit=1)
    if len(parts) == 2 and _COINED.match(parts[0].strip()):
        out.append(Name(analyzers.word_tokens(parts[0])))
    if abstract:
        title_words = analyzers.word_tokens(title)
        initials = "".join(w[0] for w in title_words).upper()
        for m in _PRESENTED.finditer(abstract):
            out.append(_named(m.group(1), title_words, initials))
        for m in _DEFINED.finditer(abstract):
            letters = "".join(c for c in m.group(1) if c.isupper())
            if len(letters) >= 2 and letters in initials:
                out.append(_named(m.group(1), title_words, initials))
    seen: list[Name] = []
    for n in out:
        if n.words and n.words not in [x.words for x in seen] and not all(
                t in analyzers.STOP_WORDS for t in n.words):
            seen.append(n)
    return seen[:MAX_NAMES]


def _named(name: str, title_words: list[str], initials: str) -> Name:
    """``name`` with the title's words its capitals abbreviate, in a row (none when none do)."""
    letters = "".join(c for c in name if c.isupper())
    at = initials.find(letters) if len(letters) >= 2 else -1
    return Name(analyzers.word_tokens(name), tuple(title_words[at:at + len(letters)]) if at >= 0 else ())


_Named = tuple[str, int, list[str], list[str]]      # (id, year, a name's stems, the stems it spells)


def novelty(papers: Iterable[tuple[str, int, str, str | None]], workdir: Path,
            threads: int = 2) -> dict[str, float]:
    """Each named paper's novelty (see the module doc), for ``papers`` as (id, year, plain title,
    plain abstract); papers whose phrase says nothing are left out. ``workdir`` (created, then
    deleted) holds the temporary index."""
    schema = _schema()
    workdir.mkdir(parents=True, exist_ok=False)
    try:
        index, named, years = _write(papers, workdir, schema)
        counts = _Counts(index.searcher(), schema, years)
        out: dict[str, float] = {}
        with ThreadPoolExecutor(max(1, threads)) as pool:
            for pid, v in pool.map(counts.score, named, chunksize=512):
                if v > out.get(pid, 0.0):       # a paper known by several names: the most written
                    out[pid] = v
        return out
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("text", tokenizer_name="en")
    sb.add_integer_field("year", indexed=True, fast=True)
    return sb.build()


def _write(papers: Iterable[tuple[str, int, str, str | None]], workdir: Path,
           schema: tantivy.Schema) -> tuple[tantivy.Index, list[_Named], list[int]]:
    """The temporary index of every paper's title and abstract (committed and reloaded), the
    names papers may be known by, and every paper's year (sorted)."""
    index = tantivy.Index(schema, path=str(workdir), reuse=False)
    analyzers.register(index)
    writer = index.writer(400_000_000, min(2, os.cpu_count() or 1))
    named: list[_Named] = []
    years: list[int] = []
    for pid, year, title, abstract in papers:
        doc = tantivy.Document()
        doc.add_text("text", analyzers.protect(title))
        if abstract:
            doc.add_text("text", analyzers.protect(abstract))
        doc.add_integer("year", year)
        writer.add_document(doc)
        years.append(year)
        for n in names(title, abstract):
            named.append((pid, year, [analyzers.stem(w) for w in n.words],
                          [analyzers.stem(w) for w in n.spells]))
    writer.commit()
    writer.wait_merging_threads()
    del writer
    index.reload()
    years.sort()
    return index, named, years


class _Counts:
    """How many papers of the temporary index write a name before a paper's year, in it and after."""

    def __init__(self, searcher: tantivy.Searcher, schema: tantivy.Schema, years: list[int]) -> None:
        self.searcher = searcher
        self.schema = schema
        self.years = years

    def _written(self, stems: list[str]) -> Query:
        words: list[str | tuple[int, str]] = list(stems)
        return (Query.phrase_query(self.schema, "text", words) if len(words) > 1
                else Query.term_query(self.schema, "text", stems[0]))

    def _count(self, query: Query, first: int, last: int) -> int:
        """Papers of the years first..last that match ``query``."""
        return int(self.searcher.search(Query.boolean_query([
            (Occur.Must, query),
            (Occur.Must, Query.range_query(self.schema, "year", FieldType.Integer, first, last))]),
            1, count=True).count)  # type: ignore[attr-defined]

    def score(self, item: _Named) -> tuple[str, float]:
        """(id, novelty) of one name of a paper; 0 when the name is not the paper's coinage."""
        pid, year, stems, spells = item
        base = self._written(stems)
        # an abbreviation of words earlier papers wrote is theirs too ("vision-language
        # models (VLM)" in 2023), not one of "bootstrap your own latent (BYOL)"
        before = (Query.boolean_query([(Occur.Should, base), (Occur.Should, self._written(spells))])
                  if len(spells) > 1 else base)
        earlier = self._count(before, 0, year - 1)
        if earlier > MAX_EARLIER:
            return pid, 0.0
        later = self._count(base, year + 1, 10_000)
        if later < MIN_LATER:
            return pid, 0.0
        # a name many papers of its own year write is the field's word ("LVLMs" in 2024: 100
        # papers, 270 later), not this paper's coinage ("SimCLR" in 2020: 2, 118 later)
        same = self._count(base, year, year) - 1
        if same > max(MAX_EARLIER, later * MAX_SAME_SHARE):
            return pid, 0.0
        n_before = bisect.bisect_left(self.years, year)
        n_after = len(self.years) - bisect.bisect_right(self.years, year)
        return pid, (later / max(1, n_after)) / ((earlier + 1) / max(1, n_before))
