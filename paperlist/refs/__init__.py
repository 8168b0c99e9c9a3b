"""Citations as people paste them: recognising a reference line or a BibTeX entry (``parse``,
``bib``), and judging how well a paper matches one (``match``). No store, no search: the service
(``service.cited``, ``service.resolve``) brings the candidates."""

from __future__ import annotations

from .bib import first_entry_citation
from .parse import MAX_CITATION_CHARS, Citation, is_query_syntax, parse_reference

__all__ = ["Citation", "parse_citation"]


def parse_citation(text: str) -> Citation | None:
    """The citation a query pastes (a BibTeX entry or a reference-list line), or None when it is not
    one: plain keyword queries and the query language are never reinterpreted."""
    s = text.strip()
    if len(s) < 25 or len(s) > MAX_CITATION_CHARS:
        return None
    if s.startswith("@"):
        return first_entry_citation(s)
    if is_query_syntax(s):
        return None
    return parse_reference(s)
