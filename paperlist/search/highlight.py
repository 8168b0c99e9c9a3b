"""Highlighting: titles and abstract snippets as safe HTML, matched words in <mark>.

Paper data is untrusted: every character of the text is HTML-escaped, and the only markup we
emit is ``<mark>`` / ``</mark>`` around matched words (and an ellipsis for cut snippets).

A word matches when its stem is a query stem ("networks" for "network"), when it is within one
or two edits of a misspelled query word, or when it starts with the word the user is still
typing. Abstracts are scanned by a compiled regex for candidate words (so a 2,000-character
abstract costs microseconds) and the window with the most distinct matches is shown.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

from rapidfuzz.distance import OSA

from ..index import analyzers
from ..text import fold, has_accents

_WORD = re.compile(r"[^\W_]+")
ELLIPSIS = "…"


class _FoldTable(dict[int, str]):
    """str.translate table: each character to its folded lower-case form when that is one
    character ("Ö" -> "o"), else to itself, so positions in the folded text match the original."""

    def __missing__(self, code: int) -> str:
        c = chr(code)
        f = fold(c).lower()
        out = f if len(f) == 1 else (c.lower() if len(c.lower()) == 1 else c)
        self[code] = out
        return out


_FOLD = _FoldTable()


@lru_cache(maxsize=16_384)      # bounded: snippets of distinct queries see ever new tokens
def _norm(token: str) -> str:
    """The ``words`` form of one token (lower case, accents folded)."""
    return fold(token).lower()


class Highlighter:
    """Marks the words of one query in any number of texts."""

    def __init__(self, stems: set[str], fuzzy: list[str] | None = None,
                 prefixes: list[str] | None = None) -> None:
        self.stems = {s for s in stems if s}
        self.fuzzy = [(w, 1 if len(w) < 8 else 2) for w in (fuzzy or [])]
        self.prefixes = tuple(p for p in (prefixes or []) if len(p) >= 2)
        self._memo: dict[str, bool] = {}
        roots = {_root(s) for s in self.stems} | {w[:2] for w, _ in self.fuzzy} | set(self.prefixes)
        # longest first, and none that a shorter root already finds ("graph" finds "graphs")
        ordered = sorted((r for r in roots if r), key=len)
        self._roots = [r for i, r in enumerate(ordered) if not any(r.startswith(o) for o in ordered[:i])]

    def matches(self, token: str) -> bool:
        hit = self._memo.get(token)
        if hit is None:
            w = _norm(token)
            hit = analyzers.stem(w) in self.stems or bool(self.prefixes and w.startswith(self.prefixes))
            if not hit and self.fuzzy:
                hit = any(OSA.distance(w, f, score_cutoff=d) <= d for f, d in self.fuzzy)
            self._memo[token] = hit
        return hit

    def _spans(self, text: str) -> list[tuple[int, int]]:
        if not self._roots:
            return []
        # Lower case, and accents folded where there are any ("Schrödinger" ~ "schrodinger"),
        # keeping positions: the folded text has the same length as the text.
        low = text.translate(_FOLD) if has_accents(text) else text.lower()
        if len(low) != len(text):
            low = text.translate(_FOLD)
        # Words starting with a root, found with str.find (C speed, a few calls per abstract)
        # rather than a regex alternation tried at every position.
        spans: list[tuple[int, int]] = []
        for root in self._roots:
            i = low.find(root)
            while i != -1:
                if i == 0 or not low[i - 1].isalnum():
                    m = _WORD.match(text, i)
                    end = m.end() if m else i + len(root)
                    if self.matches(text[i:end]):
                        spans.append((i, end))
                    i = low.find(root, end)
                else:
                    i = low.find(root, i + 1)
        spans.sort()
        return spans

    def title(self, text: str) -> str:
        """The whole text, escaped, with matches marked."""
        return _render(text, self._spans(text), 0, len(text))

    def snippet(self, text: str, max_chars: int = 260) -> str:
        """A window of about ``max_chars`` around the densest matches ('' for no text)."""
        if not text:
            return ""
        spans = self._spans(text)
        if len(text) <= max_chars:
            return _render(text, spans, 0, len(text))
        start = 0
        if spans:
            best = _densest(text, spans, max_chars - 40)
            start = max(0, spans[best][0] - 40)
            if start > 0:   # start on a word boundary
                sp = text.find(" ", start)
                start = sp + 1 if 0 <= sp < spans[best][0] else start
        end = min(len(text), start + max_chars)
        if end < len(text):
            sp = text.rfind(" ", start, end)
            end = sp if sp > start + max_chars // 2 else end
        return _render(text, spans, start, end)


def _densest(text: str, spans: list[tuple[int, int]], width: int) -> int:
    """Index of the span that starts the window (``width`` chars) with the most distinct words."""
    words = [text[a:b].lower() for a, b in spans]
    counts: dict[str, int] = {}
    best, best_n, j = 0, 0, 0
    for i, (s0, _) in enumerate(spans):
        while j < len(spans) and spans[j][1] - s0 <= width:
            counts[words[j]] = counts.get(words[j], 0) + 1
            j += 1
        if len(counts) > best_n:
            best, best_n = i, len(counts)
        if j > i:     # slide: drop span i
            c = counts[words[i]] - 1
            if c:
                counts[words[i]] = c
            else:
                del counts[words[i]]
        else:
            j = i + 1
    return best


def _root(stem: str) -> str:
    """A prefix that every word with this stem starts with ("studi" <- "study": "stud")."""
    if len(stem) > 3 and stem[-1] in "ie":
        return stem[:-1]
    return stem


def _render(text: str, spans: list[tuple[int, int]], start: int, end: int) -> str:
    out: list[str] = [ELLIPSIS] if start > 0 else []
    pos = start
    for a, b in spans:
        if b <= start or a >= end:
            continue
        a, b = max(a, start), min(b, end)
        out.append(html.escape(text[pos:a], quote=True))
        out.append("<mark>" + html.escape(text[a:b], quote=True) + "</mark>")
        pos = b
    out.append(html.escape(text[pos:end], quote=True))
    if end < len(text):
        out.append(ELLIPSIS)
    return "".join(out)
