"""Quoted phrases and field clauses (``"exact phrase"``, ``title:x``, ``author:"Name"``): required
(or excluded) parts of a query, scored by field like the words around them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import tantivy
from tantivy import Occur, Query

from ..index import analyzers
from ..names import author_key as _cached_author_key
from ..names import flip_comma_name
from .query import TextClause
from .weights import Weights

author_key = _cached_author_key.__wrapped__      # uncached: see proximity.py

# ``abstract:`` searches the text field (title, keywords and abstract: see fulltext.schema)
_INDEX_FIELD = {"abstract": "text"}


def field_clause(schema: tantivy.Schema, w: Weights, c: TextClause, stems_out: set[str]) -> Query | None:
    """A quoted phrase or a field clause: required (or excluded when negated). Adds the stems of a
    positive clause to ``stems_out`` (for highlighting)."""
    words = analyzers.word_tokens(c.text)
    if not words:
        return None
    stems = [analyzers.stem(x) for x in words]
    if not c.negated:
        stems_out.update(stems)
    if c.field == "authors":
        return author_clause(schema, w, c.text, words)
    fields = [_INDEX_FIELD.get(c.field, c.field)] if c.field else ["title", "text", "keywords", "authors"]
    per_field: list[Query] = []
    for f in fields:
        toks = words if f == "authors" else stems
        if c.phrase and len(toks) > 1:
            q = Query.phrase_query(schema, f, phrase_words(toks))
        elif len(toks) == 1:
            q = Query.term_query(schema, f, toks[0])
        else:   # field:words without quotes: every word in that field
            q = Query.boolean_query([(Occur.Must, Query.term_query(schema, f, x)) for x in toks])
        weight = {"title": w.title, "authors": w.authors}.get(f, w.text)
        per_field.append(Query.boost_query(q, weight))
    return per_field[0] if len(per_field) == 1 else Query.boolean_query([(Occur.Should, q)
                                                                         for q in per_field])


def author_clause(schema: tantivy.Schema, w: Weights, text: str, words: list[str]) -> Query:
    """An author: the whole name as its author key ("Zhi-Hua Zhou" = "Zhihua Zhou" =
    "Zhou, Zhi-Hua"), or its words as a phrase in one author's name, in either order."""
    alts: list[Query] = []
    key = author_key(flip_comma_name(text))
    if key:
        alts.append(Query.term_query(schema, "author_key", key))
    if len(words) == 1:
        alts.append(Query.term_query(schema, "authors", words[0]))
    else:
        alts.append(Query.phrase_query(schema, "authors", phrase_words(words)))
        alts.append(Query.phrase_query(schema, "authors", phrase_words(words[::-1])))
    q = Query.boolean_query([(Occur.Should, a) for a in alts])
    # constant: any paper of the author is as good as another (then newest first)
    return Query.const_score_query(q, w.author)


def phrase_words(ws: Sequence[str]) -> list[str | tuple[int, str]]:
    """Phrase words as tantivy's typing wants them (a list of str is fine at run time)."""
    return cast("list[str | tuple[int, str]]", list(ws))
