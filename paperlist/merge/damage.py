"""How damaged a source's copy of an abstract is by its extraction: words glued together
("orconvolutional"), split in the wrong place ("attentionm echanisms"), broken at a line end
("atten- tion"), or LaTeX escaped as text. Markup is not damage: it is scored as the site renders it.

The merge compares the copies of one paper's abstract that several sources give; the same paper's
technical terms are in every copy, so what one copy has and the others do not is the damage. Words
are looked up in wordfreq's English list (321,180 words, from the PyPI package).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..text import plain

_WORD = re.compile(r"[A-Za-z]+")
_HYPHEN_BREAK = re.compile(r"[a-z]{2,}- [a-z]{2,}")
# LaTeX escaped as text by a double escaping (the site renders real LaTeX; this it cannot)
_TEXT_LATEX = re.compile(r"\\textbackslash\b")
_COMMON = 1e-7          # a word at least this frequent counts as half of a glued pair


@lru_cache(maxsize=1)
def _words() -> dict[str, float]:
    import wordfreq

    words: dict[str, float] = wordfreq.get_frequency_dict("en", wordlist="large")
    return words


def damage(text: str) -> int:
    """Extraction artifacts in ``text``: tokens that are no word but two words glued, tokens that are
    no word at all, line-end hyphenation and LaTeX commands left as text. Only meaningful compared
    with another copy of the same abstract."""
    words = _words()
    # markup is not damage: "**A**utomatic" and "$\textbf{G}$eneralizable" are words once rendered
    rendered = plain(text)
    n = len(_HYPHEN_BREAK.findall(rendered)) + len(_TEXT_LATEX.findall(text))
    for token in _WORD.findall(rendered):
        w = token.lower()
        if len(w) < 4 or w in words or not token.islower():
            continue                      # short, a word, or an acronym / a name (capitals)
        n += 1
        if any(words.get(w[:i], 0) >= _COMMON and words.get(w[i:], 0) >= _COMMON
               for i in range(2, len(w) - 1)):
            n += 1                        # two words glued: the surest sign
    return n
