"""Seed-term matching: how strongly a text speaks of each topic.

Texts and terms are folded the same way (lower case, words of letters and digits, a crude
singular: "networks" -> "network"). A term matches where its words appear consecutively. When a
longer term matches, the shorter terms inside it do not count there again: "offline
reinforcement learning" is evidence for offline RL, not also for reinforcement learning in general.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from ..taxonomy import Taxonomy

_WORD = re.compile(r"[a-z0-9]+")
# A crude English singular, applied to whole texts by two C-speed substitutions (terms and texts
# are folded the same way, which is all it needs): "studies" -> "study", "networks" -> "network";
# words of 3 letters or fewer and words ending in -ss, -us, -is are left alone.
_IES = re.compile(r"(?<=[a-z0-9]{2})ies\b")
_S = re.compile(r"(?<=[a-z0-9]{2}[a-hj-rtv-z0-9])s\b")

STRONG, WEAK, TITLE_ONLY = 1.0, 0.35, 1.0
LONGER_BONUS = 0.25           # per extra word: longer phrases are more specific
# Words too frequent to look terms up by (any term also has a rarer word, or is looked up anyway).
_COMMON = frozenset("learning model network neural data deep based language image graph detection generation"
                    " representation system method time multi large visual video 3d human domain task"
                    .split())


def tokens(text: str) -> list[str]:
    """The folded words of a text."""
    return _WORD.findall(_S.sub("", _IES.sub("y", text.lower())))


@dataclass(slots=True)
class Term:
    words: tuple[str, ...]
    joined: str                   # " w1 w2 " for substring counting
    topic: int                    # index into Taxonomy.topics
    weight: float
    title_only: bool
    inside: tuple[int, ...] = ()  # indexes of shorter terms contained in this one


class Matcher:
    """Compiled seed terms of a taxonomy; ``multipliers`` ((folded term, topic slug) -> factor,
    learned by ``learn.py``) scale the hand-set weights of the terms they name."""

    def __init__(self, tax: Taxonomy, multipliers: dict[tuple[str, str], float] | None = None) -> None:
        self.tax = tax
        multipliers = multipliers or {}
        terms: dict[tuple[tuple[str, ...], int], Term] = {}
        for ti, t in enumerate(tax.topics):
            for kind, raw_terms, w in (("t", t.terms, STRONG), ("w", t.weak, WEAK),
                                       ("o", t.title, TITLE_ONLY)):
                for raw in raw_terms:
                    words = tuple(tokens(raw))
                    if not words:
                        continue
                    weight = w * (1 + LONGER_BONUS * (len(words) - 1)) if kind != "w" else w
                    key = (words, ti)
                    if key not in terms or terms[key].weight < weight:
                        terms[key] = Term(words, " " + " ".join(words) + " ", ti, weight, kind == "o")
        self.terms = list(terms.values())
        for term in self.terms:
            term.weight *= multipliers.get((" ".join(term.words), tax.topics[term.topic].slug), 1.0)
        for i, term in enumerate(self.terms):
            term.inside = tuple(j for j, s in enumerate(self.terms)
                                if j != i and len(s.words) < len(term.words) and s.joined in term.joined)
        # each term is looked up by its longest uncommon word (few candidates per text), and
        # multi-word terms only checked further when all their words occur
        self.by_key: dict[str, list[int]] = {}
        for i, term in enumerate(self.terms):
            rare = [w for w in term.words if w not in _COMMON] or list(term.words)
            self.by_key.setdefault(max(rare, key=len), []).append(i)
        self.keys = frozenset(self.by_key)
        self.wordsets = [frozenset(t.words) for t in self.terms]

    def counts(self, text: str, title_field: bool) -> dict[int, int]:
        """Term index -> occurrences in ``text`` (after longest-match suppression)."""
        toks = tokens(text)
        if not toks:
            return {}
        cnt = Counter(toks)
        present = cnt.keys()
        joined: str | None = None
        found: dict[int, int] = {}
        terms, wordsets = self.terms, self.wordsets
        for key in self.keys.intersection(present):
            for i in self.by_key[key]:
                t = terms[i]
                if t.title_only and not title_field:
                    continue
                if len(t.words) == 1:
                    c = cnt[key]
                else:
                    if not wordsets[i] <= present:
                        continue
                    if joined is None:
                        joined = " " + " ".join(toks) + " "
                    c = joined.count(t.joined)
                if c:
                    found[i] = c
        for i, c in list(found.items()):
            for j in self.terms[i].inside:
                if j in found:
                    found[j] -= c
        return {i: c for i, c in found.items() if c > 0}

    def evidence(self, text: str, field_weight: float, title_field: bool) -> list[tuple[int, float]]:
        """(term index, evidence) for the terms of this field. Repeats count less and less
        (1 + ln count): a topic named once in the title outweighs one named five times in passing."""
        terms = self.terms
        return [(i, field_weight * terms[i].weight * (1.0 + math.log(c)))
                for i, c in self.counts(text, title_field).items()]
