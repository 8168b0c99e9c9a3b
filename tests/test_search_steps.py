"""The search's steps one at a time, without an index: a word's clause with made-up term
statistics, the looser match modes, when a spelling is suggested, how a query is explained, and
how a run of Chinese is cut and learned (issue 45: each step is readable and testable alone)."""

from __future__ import annotations

import math

from paperlist.index import fulltext
from paperlist.search import glossary
from paperlist.search.engine import _next_mode, _suggests
from paperlist.search.explain import explain, understood
from paperlist.search.model import SearchRequest
from paperlist.search.paging import Plan
from paperlist.search.query import parse
from paperlist.search.terms import QTerm, TextQuery, distinct, query_terms
from paperlist.search.weights import DEFAULT_WEIGHTS
from paperlist.search.words import WordClauses

N_DOCS = 100_000


def clauses(dfs: dict[tuple[str, str], int], corrector: dict[str, str] | None = None,
            completions: dict[str, list[tuple[str, int]]] | None = None) -> WordClauses:
    """Word clauses over made-up document frequencies, spelling corrections and completions."""
    def idf(df: int) -> float:
        return math.log(1 + (N_DOCS - df + 0.5) / (df + 0.5))

    fixes = corrector or {}
    done = completions or {}
    return WordClauses(fulltext.schema(), DEFAULT_WEIGHTS, lambda f, t: dfs.get((f, t), 0), idf,
                       fixes.get, lambda f, p, n: done.get(p, []) if f == "title_words" else [])


def test_a_known_word_matches_in_the_text_and_names_and_is_not_guessed() -> None:
    tq = TextQuery(None)
    c = clauses({("text", "network"): 5000, ("authors", "networks"): 3, ("title", "network"): 2000})
    clause = c.clause(QTerm("networks", "network", False, False), tq)
    assert clause is not None and clause.term.known == 5003 and clause.author_df == 3
    assert clause.bonuses and not (tq.prefixes or tq.fuzzy or tq.corrections or tq.unknown)
    assert "network" in tq.stems and not tq.guessed


def test_a_rare_word_takes_its_common_neighbour_and_an_unknown_one_every_neighbour() -> None:
    dfs = {("text", "diffus"): 4000, ("text", "difus"): 1}
    tq = TextQuery(None)
    assert clauses(dfs, {"difusion": "diffusion"}).clause(QTerm("difusion", "difus", False, False), tq)
    assert tq.corrections == {"difusion": "diffusion"} and "diffus" in tq.stems and not tq.fuzzy
    tq = TextQuery(None)
    assert clauses({}).clause(QTerm("zzqxv", "zzqxv", False, False), tq) is not None
    assert tq.fuzzy == ["zzqxv"] and tq.unknown == ["zzqxv"] and tq.guessed


def test_an_unfinished_word_is_completed_and_not_called_unknown() -> None:
    tq = TextQuery(None)
    c = clauses({}, completions={"netw": [("network", 900), ("networks", 800)]})
    assert c.clause(QTerm("netw", "netw", False, True), tq) is not None
    assert tq.prefixes == ["netw"] and not tq.unknown and not tq.fuzzy


def test_query_terms_join_hyphenated_words_and_distinct_drops_repeats() -> None:
    terms = query_terms(parse("in-context learning learning"))
    assert [(t.word, t.stop, t.joined, t.whole) for t in terms] == [
        ("in", False, True, "incontext"), ("context", False, False, "incontext"),
        ("learning", False, False, ""), ("learning", False, False, "")]
    assert [t.word for t in distinct(terms)] == ["in", "context", "learning"]


def test_nothing_found_loosens_all_to_most_to_any_and_a_number_sort_never() -> None:
    assert _next_mode(TextQuery(None, mode="all", clauses=3)) == "most"
    assert _next_mode(TextQuery(None, mode="all", clauses=2)) == "any"
    assert _next_mode(TextQuery(None, mode="most", clauses=4)) == "any"
    assert _next_mode(TextQuery(None, mode="any", clauses=4)) is None
    assert _next_mode(TextQuery(None, mode="all", clauses=1)) is None


def plan(q: str, text: TextQuery) -> Plan:
    pq = parse(q)
    return Plan(pq, pq.filters, text)


def test_a_spelling_is_suggested_when_nothing_was_found_or_a_word_was_guessed() -> None:
    exact = TextQuery(None, terms=[QTerm("graph", "graph", False, False)])
    assert not _suggests(plan("graph", exact), 10)
    assert _suggests(plan("graph", exact), 0)
    assert _suggests(plan("graph", TextQuery(None, mode="most")), 10)
    assert _suggests(plan("grahp", TextQuery(None, corrections={"grahp": "graph"})), 10)
    as_typed_nowhere = QTerm("grahp", "grahp", False, False, verbatim=0)
    assert _suggests(plan("grahp", TextQuery(None, terms=[as_typed_nowhere])), 10)
    assert not _suggests(plan("year:2020", TextQuery(None)), 0)       # nothing to spell


def test_the_explanation_says_what_was_read_and_how_it_was_run() -> None:
    p = plan('graph "neural net" -survey year:2020', TextQuery(None, mode="most", clauses=3, required=2,
                                                                 fuzzy=["grahp"]))
    out = understood(p, browse=False)
    assert out["mode"] == "keyword" and out["words"] == ["graph"] and out["match"] == "most"
    assert out["required_words"] == 2 and out["fuzzy"] == ["grahp"] and "filters" in out
    assert [c["exclude"] for c in out.get("clauses", [])] == [False, True]
    whole = explain(SearchRequest(q="x", mode="semantic"), p, glossary.Translation("x"), "keyword",
                    "no vectors", browse=False, unavailable="no vectors")
    assert whole["mode"] == "keyword" and whole["semantic"] == {
        "requested": "semantic", "used": False, "unavailable": "no vectors"}
    assert whole.get("notes") == ["no vectors"] and "translated" not in whole
    assert understood(plan("year:2020", TextQuery(None)), browse=True)["mode"] == "browse"


def test_a_chinese_run_is_cut_into_entries_and_its_uncovered_stretch_learned_with_its_neighbours() -> None:
    s = glossary.to_simplified("奖励黑客")
    pieces = glossary._pieces(s)
    assert pieces[0] == (0, 2, "reward") and pieces[-1][2] is None
    asked: list[str] = []

    def learn(zh: str) -> tuple[str, int] | None:
        asked.append(zh)
        return ("reward hacking", 7) if zh == "奖励黑客" else None

    last = len(pieces) - 1
    assert glossary._learned(s, pieces, last, learn) == ((0, last), ("reward hacking", 7))
    assert asked[0] == "奖励黑客"       # the longest span first
    assert glossary._learned(s, pieces, last, lambda zh: None) is None
