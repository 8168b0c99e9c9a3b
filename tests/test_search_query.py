"""The query language: a table of what users type and what it means. Parsing never fails."""

from __future__ import annotations

from typing import Any

import pytest

from paperlist.search.query import TextClause, parse, parse_years

KNOWN = {"neurips", "icml", "iclr", "acl", "findings-acl", "cvpr", "foobar"}


def summary(q: str) -> dict[str, Any]:
    pq = parse(q, KNOWN)
    out: dict[str, Any] = {"words": pq.words}
    if pq.clauses:
        out["clauses"] = [(c.text, c.field, c.phrase, c.negated) for c in pq.clauses]
    f = pq.filters.to_dict()
    if f:
        out["filters"] = f
    return out


@pytest.mark.parametrize("q, expected", [
    ("graph neural networks", {"words": ["graph", "neural", "networks"]}),
    ("  spaced   out  ", {"words": ["spaced", "out"]}),
    ('"contrastive learning"', {"words": [], "clauses": [("contrastive learning", None, True, False)]}),
    ("\u201csmart quotes\u201d work", {"words": ["work"], "clauses": [("smart quotes", None, True, False)]}),
    ("-survey llm", {"words": ["llm"], "clauses": [("survey", None, False, True)]}),
    ('-"large language" models', {"words": ["models"], "clauses": [("large language", None, True, True)]}),
    ("self-supervised learning", {"words": ["self-supervised", "learning"]}),          # hyphen inside: a word
    ("- lonely dash", {"words": ["lonely", "dash"]}),
    ('author:"Yoshua Bengio"', {"words": [], "clauses": [("Yoshua Bengio", "authors", True, False)]}),
    ("author:bengio gflownets", {"words": ["gflownets"], "clauses": [("bengio", "authors", False, False)]}),
    ("au:hinton", {"words": [], "clauses": [("hinton", "authors", False, False)]}),
    ("title:transformer abstract:\"zero-shot\" kw:robotics", {"words": [], "clauses": [
        ("transformer", "title", False, False), ("zero-shot", "abstract", True, False),
        ("robotics", "keywords", False, False)]}),
    ("-author:smith", {"words": [], "clauses": [("smith", "authors", False, True)]}),
    ("venue:nips", {"words": [], "filters": {"venues": ["neurips"]}}),
    ("venue:NeurIPS", {"words": [], "filters": {"venues": ["neurips"]}}),
    ("venue:nips,ICML x", {"words": ["x"], "filters": {"venues": ["neurips", "icml"]}}),
    ("venue:acl-findings", {"words": [], "filters": {"venues": ["findings-acl"]}}),
    ("venue:foobar", {"words": [], "filters": {"venues": ["foobar"]}}),   # not in the registry, in the index
    ("conf:iclr", {"words": [], "filters": {"venues": ["iclr"]}}),
    ("family:acl", {"words": [], "filters": {"families": ["acl"]}}),
    ("-venue:cvpr robots", {"words": ["robots"], "filters": {"not_venues": ["cvpr"]}}),
    ("year:2024", {"words": [], "filters": {"year_from": 2024, "year_to": 2024}}),
    ("year:2020..2024", {"words": [], "filters": {"year_from": 2020, "year_to": 2024}}),
    ("year:2020-2024", {"words": [], "filters": {"year_from": 2020, "year_to": 2024}}),
    ("year:2024..2020", {"words": [], "filters": {"year_from": 2020, "year_to": 2024}}),   # swapped
    ("year:>=2022", {"words": [], "filters": {"year_from": 2022}}),
    ("year:<2020", {"words": [], "filters": {"year_to": 2019}}),
    ("year:..2019", {"words": [], "filters": {"year_to": 2019}}),
    ("year:2019 year:2018..2022", {"words": [], "filters": {"year_from": 2019, "year_to": 2019}}),
    ("-year:2020", {"words": [], "filters": {"not_years": [(2020, 2020)]}}),
    ("status:oral", {"words": [], "filters": {"statuses": ["oral"]}}),
    ("status:Orals,spotlight", {"words": [], "filters": {"statuses": ["oral", "spotlight"]}}),
    ("status:desk-reject", {"words": [], "filters": {"statuses": ["desk-rejected"]}}),
    ("-status:rejected", {"words": [], "filters": {"not_statuses": ["rejected"]}}),
    ("accepted:true", {"words": [], "filters": {"accepted": True}}),
    ("accepted:no", {"words": [], "filters": {"accepted": False}}),
    ("-accepted:yes", {"words": [], "filters": {"accepted": False}}),
    ("track:Main topic:llm-safety", {"words": [], "filters": {"tracks": ["main"], "topics": ["llm-safety"]}}),
    ("graph AND networks OR trees", {"words": ["graph", "networks", "trees"]}),
    # malformed syntax degrades to plain text
    ('"unbalanced quote', {"words": ["unbalanced", "quote"]}),
    ('venue:iclr "half', {"words": ["half"], "filters": {"venues": ["iclr"]}}),
    ("foo:bar baz", {"words": ["foo:bar", "baz"]}),
    ("http://example.com/x", {"words": ["http://example.com/x"]}),
    ("year:abc", {"words": ["year abc"]}),
    ("year:20245", {"words": ["year 20245"]}),
    ("year:1850", {"words": ["year 1850"]}),
    ("status:maybe", {"words": ["status maybe"]}),
    ("accepted:perhaps", {"words": ["accepted perhaps"]}),
    ("venue:nosuchconf", {"words": ["venue nosuchconf"]}),
    ('venue:"nosuch conf"', {"words": [], "clauses": [("nosuch conf", None, True, False)]}),
    ("author:", {"words": ["author"]}),
    ("author:!!!", {"words": ["author !!!"]}),
    ("!!! ??? ...", {"words": []}),
    ("", {"words": []}),
    ("图神经网络 graph", {"words": ["图神经网络", "graph"]}),
])
def test_parse(q: str, expected: dict[str, Any]) -> None:
    assert summary(q) == expected


@pytest.mark.parametrize("q, note", [
    ('"unbalanced', "unbalanced quote"),
    ("foo:bar", "unknown field"),
    ("year:abc", "bad year"),
    ("venue:nosuchconf", "unknown venue"),
    ("status:maybe", "unknown status"),
])
def test_degraded_syntax_is_noted(q: str, note: str) -> None:
    assert any(note in n for n in parse(q, KNOWN).notes)


@pytest.mark.parametrize("q, prefix", [
    ("graph neur", True),
    ("graph neur ", False),          # a space after the word: the word is finished
    ('graph "neural net"', False),
    ("graph venue:iclr", False),
    ("graph -neur", False),
    ("", False),
])
def test_last_word_may_be_unfinished(q: str, prefix: bool) -> None:
    assert parse(q).prefix_last is prefix


def test_long_queries_are_cut_not_refused() -> None:
    pq = parse("word " * 1000)
    assert len(pq.raw) == 1000 and len(pq.words) == 200


def test_unknown_venue_without_index_knowledge() -> None:
    # Without the index's venue list only registry names resolve.
    assert parse("venue:foobar").words == ["venue foobar"]
    assert parse("venue:nips").filters.venues == ["neurips"]


@pytest.mark.parametrize("v, rng", [
    ("2024", (2024, 2024)), ("2020..2024", (2020, 2024)), ("2020...2024", (2020, 2024)),
    ("2020–2024", (2020, 2024)),
    ("2020..", (2020, None)), ("..2020", (None, 2020)), (">2020", (2021, None)), ("<=2020", (None, 2020)),
    ("..", None), ("20", None), ("x2020", None), ("2020..2030..2040", None), ("", None),
])
def test_parse_years(v: str, rng: tuple[int | None, int | None] | None) -> None:
    assert parse_years(v) == rng


def test_text_clause_defaults() -> None:
    assert TextClause("x") == TextClause("x", None, False, False)


def test_corrections_never_cross_a_negation() -> None:
    from paperlist.search.negation import keeps_meaning

    assert not keeps_meaning("cant", "can") and not keeps_meaning("dont", "don")
    assert not keeps_meaning("isn't", "is") and not keeps_meaning("nit", "not")
    assert keeps_meaning("wihtout", "without") and keeps_meaning("lerning", "learning")
