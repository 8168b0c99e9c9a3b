"""Highlighting: titles and abstract snippets as safe HTML, matched words in <mark>.

Paper data is untrusted: every character of the text is HTML-escaped, and the only markup we
emit is ``<mark>`` / ``</mark>`` around matched words (and an ellipsis for cut snippets).

A word matches when its stem is a query stem ("networks" for "network"), when it is within one
or two edits of a misspelled query word, or when it starts with the word the user is still
typing. Words are found with str.find and a regex per query word (C speed); an abstract
snippet is the window, starting at the first match of one of the query words, that holds the
most of them, and only that window is marked up.
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
_OPEN, _CLOSE = "\x01", "\x02"                # mark placeholders while escaping (see _render)


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


@lru_cache(maxsize=100_000)
def _norm(token: str) -> str:
    """The ``words`` form of one token (lower case, accents folded)."""
    return fold(token).lower()


class Highlighter:
    """Marks the words of one query in any number of texts."""

    def __init__(self, stems: set[str], fuzzy: list[str] | None = None, prefixes: list[str] | None = None) -> None:
        self.stems = {s for s in stems if s}
        self.fuzzy = [(w, 1 if len(w) < 8 else 2) for w in (fuzzy or [])]
        self.prefixes = tuple(p for p in (prefixes or []) if len(p) >= 2)
        self._memo: dict[str, bool] = {}
        roots = {_root(s) for s in self.stems} | {w[:2] for w, _ in self.fuzzy} | set(self.prefixes)
        # longest first, and none that a shorter root already finds ("graph" finds "graphs")
        ordered = sorted((r for r in roots if r), key=len)
        self._roots = [r for i, r in enumerate(ordered) if not any(r.startswith(o) for o in ordered[:i])]
        # one pattern per root: a literal prefix, which the regex engine finds with a fast
        # substring search (an alternation of roots would be tried at every position)
        self._patterns = [(r, _root_pattern(r)) for r in self._roots]

    def matches(self, token: str) -> bool:
        hit = self._memo.get(token)
        if hit is None:
            w = _norm(token)
            hit = analyzers.stem(w) in self.stems or bool(self.prefixes and w.startswith(self.prefixes))
            if not hit and self.fuzzy:
                hit = any(OSA.distance(w, f, score_cutoff=d) <= d for f, d in self.fuzzy)
            self._memo[token] = hit
        return hit

    def _lower(self, text: str) -> str:
        """Lower case, and accents folded where there are any ("Schrödinger" ~ "schrodinger"),
        keeping positions: the folded text has the same length as the text."""
        low = text.translate(_FOLD) if has_accents(text) else text.lower()
        return low if len(low) == len(text) else text.translate(_FOLD)

    def _spans(self, low: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
        """The matched words starting in ``low[start:end]`` (a lower-cased text), in order."""
        end = len(low) if end is None else end
        found: list[tuple[int, int]] = []
        for root, pattern in self._patterns:
            i = low.find(root, start, end)      # most texts lack most roots: str.find says so fastest
            if i >= 0:
                found += [m.span() for m in pattern.finditer(low, i, end)]
        # (list comprehensions: about twice as fast as the same loops written out)
        found = [(a, b) for a, b in found if not a or not low[a - 1].isalnum()]     # whole words only
        memo, matches = self._memo, self.matches
        spans = [(a, b) for a, b in found if memo.get(low[a:b]) or (low[a:b] not in memo and matches(low[a:b]))]
        if len(self._patterns) > 1:
            spans.sort()
        return spans

    def _first(self, low: str, root: str, pattern: re.Pattern[str], start: int, end: int) -> int:
        """Where the first matched word with this root starts in ``low[start:end]``, or -1."""
        i = low.find(root, start, end)
        while i != -1:
            if i and low[i - 1].isalnum():
                i = low.find(root, i + 1, end)
                continue
            m = pattern.match(low, i)
            tok = m.group() if m else root
            if self._memo.get(tok) or (tok not in self._memo and self.matches(tok)):
                return i
            i = low.find(root, i + len(tok), end)
        return -1

    def _window(self, low: str, width: int) -> int:
        """Where the window of ``width`` characters with the most distinct query words starts: at
        the first match of one of the words (the earliest such window wins ties); -1 for none.
        Only those few windows are tried, with str.find, so a long abstract costs what its first
        matches cost, not what all its matches would."""
        firsts = sorted(i for i in (self._first(low, r, p, 0, len(low)) for r, p in self._patterns) if i >= 0)
        if not firsts or firsts[-1] - firsts[0] <= width:
            return firsts[0] if firsts else -1
        best, best_n = firsts[0], 0
        roots = self._roots
        for start in firsts:
            # (a plain substring test: choosing the window can do without word boundaries)
            n = sum(low.find(r, start, start + width) >= 0 for r in roots)
            if n > best_n:
                best, best_n = start, n
        return best

    def title(self, text: str) -> str:
        """The whole text, escaped, with matches marked."""
        if not self._roots:
            return _render(text, [], 0, len(text))
        return _render(text, self._spans(self._lower(text)), 0, len(text))

    def snippet(self, text: str, max_chars: int = 260) -> str:
        """A window of about ``max_chars`` around the matches ('' for no text)."""
        if not text:
            return ""
        if not self._roots:
            return _render(text, [], 0, min(len(text), _cut(text, 0, max_chars)))
        low = self._lower(text)
        if len(text) <= max_chars:
            return _render(text, self._spans(low), 0, len(text))
        start = 0
        first = self._window(low, max_chars - 40)
        if first > 0:
            start = max(0, first - 40)
            if start > 0:   # start on a word boundary
                sp = text.find(" ", start)
                start = sp + 1 if 0 <= sp < first else start
        end = _cut(text, start, max_chars)
        return _render(text, self._spans(low, start, end), start, end)


def _cut(text: str, start: int, max_chars: int) -> int:
    """Where a window of about ``max_chars`` from ``start`` ends: on a space when one is near."""
    end = min(len(text), start + max_chars)
    if end < len(text):
        sp = text.rfind(" ", start, end)
        end = sp if sp > start + max_chars // 2 else end
    return end


@lru_cache(maxsize=4096)
def _root_pattern(root: str) -> re.Pattern[str]:
    return re.compile(re.escape(root) + r"[^\W_]*")


def _root(stem: str) -> str:
    """A prefix that every word with this stem starts with ("studi" <- "study": "stud")."""
    if len(stem) > 3 and stem[-1] in "ie":
        return stem[:-1]
    return stem


def _render(text: str, spans: list[tuple[int, int]], start: int, end: int) -> str:
    """``text[start:end]`` escaped, with the spans in <mark>. The marks go in as two control
    characters and the whole window is escaped at once (one ``html.escape`` instead of one per
    piece); text that itself holds those characters is escaped piece by piece."""
    if not spans:
        out = _escape(text[start:end])
    else:
        pieces = _pieces(text, spans, start, end)
        plain, marked = pieces[0::2], pieces[1::2]
        if _OPEN in text or _CLOSE in text:
            out = _escape(plain[0]) + "".join(f"<mark>{_escape(m)}</mark>{_escape(p)}"
                                              for m, p in zip(marked, plain[1:], strict=True))
        else:
            out = plain[0] + "".join(_OPEN + m + _CLOSE + p for m, p in zip(marked, plain[1:], strict=True))
            out = _escape(out).replace(_OPEN, "<mark>").replace(_CLOSE, "</mark>")
    return (ELLIPSIS if start > 0 else "") + out + (ELLIPSIS if end < len(text) else "")


def _pieces(text: str, spans: list[tuple[int, int]], start: int, end: int) -> list[str]:
    """``text[start:end]`` cut at the spans: plain, marked, plain, ..., plain."""
    out: list[str] = []
    pos = start
    for a, b in spans:
        if b <= start or a >= end:
            continue
        a, b = max(a, start), min(b, end)
        out += (text[pos:a], text[a:b])
        pos = b
    out.append(text[pos:end])
    return out


def _escape(s: str) -> str:
    return html.escape(s, quote=True)
