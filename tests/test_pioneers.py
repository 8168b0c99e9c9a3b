"""The first titles of a topic (issue 18, index/pioneers.py): the paper whose title wrote a phrase
first, before later titles made it a topic, comes first when the query is that phrase; an old
phrase in steady use, or one many titles wrote in its first year, has no pioneer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from paperlist.index import analyzers, pioneers
from paperlist.search import Searcher, SearchRequest
from paperlist.search.weights import DEFAULT_WEIGHTS


def key(text: str) -> str:
    return pioneers.key(analyzers.word_tokens(text))


def test_a_phrase_key_takes_singular_and_plural_and_nets_alike_but_not_stem_collisions() -> None:
    assert key("Generative Adversarial Nets") == key("generative adversarial networks")
    assert key("Word Embeddings") == key("word embedding")
    assert key("Self-Supervised Learning") == key("self supervised learning")
    # the stemmer makes "contrastive" "contrast": "Deep Contrast Learning" is not the topic
    assert key("contrastive learning") != key("contrast learning")
    # a phrase neither starts nor ends with a stop word, unless a hyphen ties it to the phrase
    title = analyzers.joined_tokens("Why In-Context Learning Works")
    assert key("in-context learning") in pioneers.phrases(title)
    assert pioneers.phrases(analyzers.joined_tokens("A Study of the Web")) == {"study of the web"}


@pytest.mark.parametrize("query, phrase", [
    ("neural machine translation", "neural machine translation"),
    ("the lottery ticket hypothesis", "lottery ticket hypothesis"),     # no phrase starts with "the"
    ("in-context learning", "in context learning"),                     # a hyphen keeps its "in"
    ("models of the", None),
    ("transformers", None),
    ("one two three four five six", None),
])
def test_the_phrase_a_query_may_name(query: str, phrase: str | None) -> None:
    assert pioneers.query_key(analyzers.joined_tokens(query)) == (key(phrase) if phrase else None)


def corpus(first_year: int, same_year: int, spread: int, steady: bool = False) -> list[tuple[str, int, str]]:
    """Papers for one phrase: a first title in ``first_year`` (and ``same_year`` more that year),
    then ``spread`` titles over the next years, or one a year for 30 years (``steady``); and 2,000
    other titles a year so that shares mean something."""
    out = [("neurips2015-first", first_year, "Quantum Widget Learning by Gradient Descent")]
    out += [(f"iclr{first_year}-same{i}", first_year, f"Quantum Widget Learning for Task {i}")
            for i in range(same_year)]
    if steady:
        out += [(f"icml{first_year + 1 + i}-later{i}", first_year + 1 + i,
                 f"Variant {i} of Quantum Widget Learning") for i in range(30)]
    else:
        out += [(f"cvpr{first_year + 1 + i % 4}-later{i}", first_year + 1 + i % 4,
                 f"Better Quantum Widget Learning {i}") for i in range(spread)]
    out += [(f"aaai{y}-o{y}x{i}", y, f"Unrelated study {y} {i}")
            for y in range(first_year - 10, first_year + 8) for i in range(2000)]
    return out


def test_the_first_title_of_a_phrase_that_spread_is_its_pioneer() -> None:
    got = pioneers.pioneers(corpus(2015, 0, 100))
    assert key("quantum widget learning") in got["neurips2015-first"]
    assert not any(pid.startswith("cvpr") for pid in got)             # the followers are not
    # one paper of its year beside it: both are first; more: no pioneer can be told
    assert len([p for p in pioneers.pioneers(corpus(2015, 1, 100)) if "2015" in p]) == 2
    assert not any("2015" in p for p in pioneers.pioneers(corpus(2015, 5, 100)))


def test_a_papers_phrases_come_in_one_order_whatever_the_hash_seed() -> None:
    """The phrases were gathered by walking a set of strings, whose order differs per process
    (PYTHONHASHSEED): two builds from one store gave a paper its pioneer phrases in different
    orders, so its index document differed and an incremental build replaced it for nothing."""
    code = ("import json; from paperlist.index import pioneers; from tests.test_pioneers import corpus; "
            "print(json.dumps(pioneers.pioneers(corpus(2015, 0, 100))['neurips2015-first']))")
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           cwd=Path(__file__).resolve().parents[1],
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3")}
    assert len(runs) == 1 and len(json.loads(runs.pop())) >= 2


@pytest.mark.parametrize("spread, steady", [(pioneers.MIN_TITLES - 2, False), (0, True)])
def test_a_phrase_that_did_not_spread_after_its_first_title_has_no_pioneer(spread: int, steady: bool) -> None:
    # too few titles ever, or a phrase in steady use after it (a title a year among 2,000: its
    # share of the five years after is 10 times, not MIN_BURST times, one title's share before)
    assert "neurips2015-first" not in pioneers.pioneers(corpus(2015, 0, spread, steady))


def test_versions_of_one_work_count_once_and_share_the_mark() -> None:
    papers = corpus(2015, 0, 100) + [("iclr2015-first", 2015, "Quantum Widget Learning by Gradient Descent")]
    got = pioneers.pioneers(papers)       # the ICLR submission of the same work: not a second title
    assert key("quantum widget learning") in got["neurips2015-first"] == got["iclr2015-first"]


def test_the_pioneer_comes_first_for_its_phrase_only(tmp_path: Path) -> None:
    """"neural machine translation": 30 later titles that name the topic in fewer words outrank
    the long title that started it, unless the query is the phrase it pioneered."""
    from dataclasses import replace

    from tests.webdata import _rec, build_store

    first = "Neural Machine Translation by Jointly Learning to Align and Translate Sentences Well"
    extra = [_rec("test:nmt2015", "bahdanau", "iclr", 2015, first, ["Dz Bahdanau"],
                  abstract="Neural machine translation is a recent approach to machine translation.")]
    extra += [_rec(f"test:nmt{2016 + i % 4}", f"later{i}", "acl", 2016 + i % 4,
                   f"Improving Neural Machine Translation with Method {chr(65 + i % 26)}{i}", [f"Au Thor{i}"],
                   abstract="A neural machine translation model.") for i in range(30)]
    extra += [_rec(f"test:other{y}", f"o{y}-{i}", "aaai", y, f"Unrelated study {y} {i}", ["X Y"])
              for y in range(2010, 2020) for i in range(60)]
    build_store(tmp_path, extra=extra).close()
    s = Searcher.open(tmp_path)
    assert s.search(SearchRequest(q="neural machine translation", per_page=5)).hits[0].title == first
    assert s.search(SearchRequest(q="the Neural Machine Translations", per_page=5)).hits[0].title == first
    # without the bonus it is not first: the test sees the mechanism, not the title's luck
    plain = Searcher(tmp_path, weights=replace(DEFAULT_WEIGHTS, pioneer=0.0))
    assert plain.search(SearchRequest(q="neural machine translation", per_page=5)).hits[0].title != first
    # another query with the same words is not the phrase: no bonus
    assert s.search(SearchRequest(q="machine translation neural", per_page=5)).hits[0].title != first
