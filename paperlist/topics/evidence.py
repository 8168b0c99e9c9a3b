"""The evidence a paper's own words and source give for each topic, and the topics it yields.

Evidence, per topic: seed terms in the title (x3), keywords (x2.5) and abstract (x1), each term
weighted by hand in the taxonomy times a multiplier learned from labelled papers (``learn.py``
fits them, ``weights.tsv`` ships them, read here), and the primary area a source gives
(OpenReview, AAAI tracks ...): an area that names a topic makes it the main topic. ``Assigner``
compiles the taxonomy once and scores every paper with it; the assignment pipeline
(``assign.py``) adds the evidence of vectors and probes to these scores before it chooses.

A paper's main topic is its best-scoring one; up to two more follow when they score at least
``SECOND_RATIO`` of it. Scores are squashed to 0..1 (``s / (s + 3)``) for display.
"""

from __future__ import annotations

import re
from importlib import resources

from ..store import TopicDoc
from ..taxonomy import Taxonomy, taxonomy
from .match import Matcher

TITLE_W, KEYWORD_W, ABSTRACT_W = 3.0, 2.5, 1.0
AREA_TOPIC = 2.0             # the source's primary area names this topic
AREA_LEAD = 0.5              # ... and leads the next topic by at least this much
AREA_PARENT = 1.3            # ... or this topic's area: multiply the area's topics' evidence
GENERIC = 0.7                # evidence factor of topics marked generic in the taxonomy
MIN_SCORE = 1.0              # less evidence than one strong term in the abstract: no topic
SECOND_RATIO = 0.45
MAX_TOPICS = 3
WEIGHTS_FILE = "weights.tsv"  # the learned multipliers shipped with the package
_NORM = re.compile(r"[^a-z0-9]+")


def _norm(s: str) -> str:
    return " " + _NORM.sub(" ", s.lower()).strip() + " "


def parse_weights(text: str) -> dict[tuple[str, str], float]:
    """(folded term, topic slug) -> multiplier, from the text ``learn.save`` writes."""
    out: dict[tuple[str, str], float] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        term, slug, mult = line.split("\t")
        out[(term, slug)] = float(mult)
    return out


def packaged_weights() -> str:
    """The learned multipliers shipped with the package (empty when there are none)."""
    res = resources.files("paperlist.topics").joinpath(WEIGHTS_FILE)
    return res.read_text("utf-8") if res.is_file() else ""


class Assigner:
    """Scores papers against a taxonomy (compiled once, reused for every paper). ``weights`` is the
    text of a learned-multiplier file (``learn.py``); by default the packaged one, "" for none."""

    def __init__(self, tax: Taxonomy | None = None, weights: str | None = None) -> None:
        self.tax = tax or taxonomy()
        text = packaged_weights() if weights is None else weights
        self.matcher = Matcher(self.tax, parse_weights(text))
        self.index = {t.slug: i for i, t in enumerate(self.tax.topics)}
        # primary-area substrings -> (topic indexes named directly, topic indexes of a named area)
        self.area_topic = [(_norm(a), i) for i, t in enumerate(self.tax.topics) for a in t.areas]
        self.area_parent = [(_norm(a), [self.index[c.slug] for c in self.tax.children(ar.slug)])
                            for ar in self.tax.areas for a in ar.areas]
        self._area_memo: dict[str, tuple[set[int], set[int]]] = {}
        self.term_factor = [GENERIC if self.tax.topics[t.topic].generic else 1.0 for t in self.matcher.terms]

    def _areas(self, primary_area: str) -> tuple[set[int], set[int]]:
        hit = self._area_memo.get(primary_area)
        if hit is None:
            pa = _norm(primary_area)
            direct = {i for a, i in self.area_topic if a in pa}
            parent = {i for a, idx in self.area_parent if a in pa for i in idx}
            hit = self._area_memo[primary_area] = (direct, parent)
        return hit

    def term_evidence(self, doc: TopicDoc) -> list[tuple[int, float]]:
        """(term index, evidence) for every seed term in the title, keywords and abstract; the
        evidence of generic topics' terms is damped."""
        m, f = self.matcher, self.term_factor
        out = m.evidence(doc.title, TITLE_W, True)
        if doc.keywords:
            out += m.evidence(" ; ".join(doc.keywords), KEYWORD_W, True)
        if doc.abstract:
            out += m.evidence(doc.abstract, ABSTRACT_W, False)
        return [(i, v * f[i]) for i, v in out]

    def evidence(self, doc: TopicDoc, use_area: bool = True) -> dict[int, float]:
        """Topic index -> evidence from words and primary area."""
        return self.scored(doc, use_area)[0]

    def scored(self, doc: TopicDoc, use_area: bool = True) -> tuple[dict[int, float], int | None]:
        """The evidence, and the topic the source's primary area names (None if it names no
        specific one): that topic decides the main topic and leads here (a generic one, such as
        benchmarks, yields to what the benchmark is of)."""
        s: dict[int, float] = {}
        terms = self.matcher.terms
        for i, v in self.term_evidence(doc):
            t = terms[i].topic
            s[t] = s.get(t, 0.0) + v
        if not (use_area and doc.primary_area):
            return s, None
        direct, parent = self._areas(doc.primary_area)
        for i in parent:
            if i in s:
                s[i] *= AREA_PARENT
        for i in direct:
            s[i] = s.get(i, 0.0) + AREA_TOPIC
        named = sorted(i for i in direct if not self.tax.topics[i].generic)
        if not named:
            return s, None
        pin = max(named, key=lambda i: s[i])
        lead(s, pin)
        return s, pin

    def choose(self, s: dict[int, float]) -> list[tuple[str, float]]:
        """The main topic and up to two more, as (slug, 0..1)."""
        if not s:
            return []
        ranked = sorted(s.items(), key=lambda kv: (-kv[1], kv[0]))   # ties: taxonomy order, not hash order
        top = ranked[0][1]
        if top < MIN_SCORE:
            return []
        out = []
        for i, v in ranked[:MAX_TOPICS]:
            if v < MIN_SCORE or v < SECOND_RATIO * top:
                break
            out.append((self.tax.topics[i].slug, round(v / (v + 3.0), 4)))
        return out


def lead(s: dict[int, float], i: int) -> None:
    """Make topic ``i`` the main one, ``AREA_LEAD`` ahead of the next."""
    s[i] = max(s.get(i, 0.0), max(s.values()) + AREA_LEAD)
