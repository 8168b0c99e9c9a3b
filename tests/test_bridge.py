"""The Chinese bridge (index.bridge): English for Chinese words the glossary lacks, learned from
papers' Chinese summaries, and the seeded results of a query nobody could translate (search.seeds).
Real files, a real store and index, the real app."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from paperlist.index import analyzers, bridge, fulltext
from paperlist.models import Record
from paperlist.names import make_authors
from paperlist.search import Searcher, SearchRequest, glossary
from tests.conftest import publish_vectors, shared_data

FILLER = ["graph", "kernel", "policy", "sparse", "token", "audio", "robot", "bandit", "causal", "privacy",
          "protein", "tabular", "ranking", "speech", "fairness", "pruning"]


def _pairs(rng: random.Random) -> list[tuple[str, str, str]]:
    """60 summaries: 8 say 三维重建 and their abstracts 'reconstruction'; 6 say 持续学习 and
    'continual learning'; 6 say 大语言模型 and 'LLMs', 4 of them 'large language models' too; 6
    say 强化学习 (which holds 化学) and 'reinforcement learning'; the rest filler (every abstract
    says 'a study of', too common to be anything's English)."""
    out: list[tuple[str, str, str]] = []

    def add(zh: str, en: str) -> None:
        words = " ".join(rng.sample(FILLER, 4))
        # each line its own (a line 20 summaries share is their template's, left out)
        out.append((f"p{len(out):03d}", f"本文研究{zh}问题，第{len(out)}篇。", f"A study of {words}. {en}"))

    for _ in range(8):
        add("三维重建", "A study of reconstruction.")
    for _ in range(6):
        add("持续学习", "A study of continual learning.")
    for i in range(6):
        add("大语言模型", "A study of LLMs." + (" Large language models." if i < 4 else ""))
    for _ in range(6):
        add("强化学习", "A study of reinforcement learning.")
    for _ in range(34):
        add("其他", "A study.")
    return out


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> bridge.Bridge:
    path = tmp_path_factory.mktemp("bridge") / bridge.DIR
    assert bridge.write(_pairs(random.Random(7)), path) == 60
    b = bridge.Bridge(path)
    assert b.load()
    return b


def test_a_word_is_learned_from_the_summaries_that_have_it(small: bridge.Bridge) -> None:
    g = small.guess("重建")
    assert g is not None and g.en == "reconstruction" and g.papers == 8 and g.shared == 8
    assert small.learn("三维重建") is not None


def test_a_phrase_most_papers_write_beats_its_word_and_a_spelled_out_term_an_acronym(
        small: bridge.Bridge) -> None:
    g = small.guess("持续学习")
    assert g is not None and g.en == "continual learning"
    g = small.guess("大语言模型")
    assert g is not None and g.en == "large language models"


def test_a_word_inside_a_longer_known_word_is_not_counted_there(small: bridge.Bridge) -> None:
    assert len(small.papers_with("化学")) == 6                       # 强化学习 holds 化学
    assert small.papers_with("化学", ("强化学习",)) == []
    assert small.learn("化学", lambda w: ("强化学习",) if w == "化学" else ()) is None


def test_lines_that_many_summaries_share_are_their_template_and_teach_nothing(tmp_path: Path) -> None:
    papers = [(f"p{i}", f"- 方法是什么？\n- 本文研究第{i}个问题。", "Graphs." if i % 2 else "Code.")
              for i in range(bridge.TEMPLATE_LINE)]
    bridge.write(papers, tmp_path / "b")
    b = bridge.Bridge(tmp_path / "b")
    assert b.load() and "方法" not in b.lines()[0] and b.papers_with("方法") == []
    assert len(b.papers_with("问题")) == bridge.TEMPLATE_LINE


def test_too_little_evidence_gives_no_guess(small: bridge.Bridge) -> None:
    assert small.guess("其他") is None                                # only words everyone writes
    assert small.guess("重") is None                                  # one character
    assert small.guess("没有的词") is None                              # in no summary


def test_one_query_makes_at_most_its_budget_of_guesses(small: bridge.Bridge) -> None:
    """Hundreds of characters no entry covers (a hostile query) cost a bounded number of guesses."""
    small.forget()
    budget = bridge.Budget(left=5)
    hostile = " ".join(chr(0x9000 + 2 * i) + chr(0x9001 + 2 * i) for i in range(200))   # 200 words
    tr = glossary.translate(hostile, lambda zh: small.learn(zh, lambda _: (), budget))
    assert budget.left == 0 and small.remembered <= 5 and tr.unknown
    assert small.learn("三维重建") is not None       # without a budget, nothing is refused


def test_a_word_with_no_guess_of_its_own_is_tried_as_two(small: bridge.Bridge) -> None:
    got = small.learn("重建持续学习")
    assert got is not None and got[0] == "reconstruction continual learning"


@pytest.mark.parametrize("damage", ["truncate", "rows", "missing"])
def test_a_broken_bridge_is_not_used_and_says_why(small: bridge.Bridge, tmp_path: Path, damage: str) -> None:
    import shutil

    path = tmp_path / bridge.DIR
    shutil.copytree(small.path, path)
    if damage == "truncate":
        data = (path / "matrix.npz").read_bytes()
        (path / "matrix.npz").write_bytes(data[: len(data) // 2])
    elif damage == "rows":
        (path / "ids.txt").write_text("only-one", "utf-8")
    else:
        (path / "zh.txt").unlink()
    b = bridge.Bridge(path)
    assert not b.load() and b.error and b.learn("重建") is None


# --- in the search and on the site ------------------------------------------------------------------
def _records() -> list[Record]:
    recs = []
    for i in range(8):      # nothing but "reconstruction" in all eight and only there
        recs.append(Record(source="test", file="test:bridge", key=f"rec{i}", venue="iclr", year=2026,
                           title=f"{FILLER[i].title()} Reconstruction", authors=make_authors([f"Ann Lee{i}"]),
                           abstract=f"Reconstruction of {FILLER[i + 8]}.",
                           summary_zh=f"本文提出鑫淼方法{i}。", status="poster"))
    recs.append(Record(source="test", file="test:bridge", key="quot", venue="iclr", year=2026,
                       title="Quotient Space Sampling", authors=make_authors(["Bo Chen"]),
                       abstract="Sampling on quotient spaces of symmetric molecules.",
                       summary_zh="在商空间上建模对称分子。", status="poster"))
    for i in range(5):      # 奖励 is a glossary entry (reward); 奖励黑客 is learned whole
        recs.append(Record(source="test", file="test:bridge", key=f"hack{i}", venue="iclr", year=2026,
                           title=f"Reward Hacking in {FILLER[i].title()}",
                           authors=make_authors([f"Di Xu{i}"]),
                           abstract=f"Reward hacking, when {FILLER[i + 5]} meets {FILLER[i + 10]}.",
                           summary_zh=f"研究奖励黑客问题，第{i}篇。", status="poster"))
    for i in range(12):
        recs.append(Record(source="test", file="test:bridge", key=f"other{i}", venue="iclr", year=2026,
                           title=f"Bandit Policies {i}", authors=make_authors([f"Cy Wu{i}"]),
                           abstract="Exploration for bandits with sparse rewards.",
                           summary_zh="研究多臂老虎机的探索。", status="poster"))
    return recs


@pytest.fixture(scope="module")
def bridge_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.webdata import build_store

    home = tmp_path_factory.mktemp("bridge-home")
    build_store(home, extra=_records()).close()
    return home


def test_search_uses_a_learned_word_and_says_it_is_a_guess(bridge_home: Path) -> None:
    assert "鑫淼" not in glossary.glossary()           # a made-up word: else this tests the glossary
    res = Searcher(bridge_home).search(SearchRequest(q="鑫淼", per_page=20))
    tr = res.interpreted["translated"]
    assert tr["to"] == "reconstruction" and tr["unknown"] == []
    assert tr["terms"] == [{"zh": "鑫淼", "en": "reconstruction", "learned": True, "summaries": 8}]
    assert res.total >= 8 and all("reconstruction" in h.title.lower() for h in res.hits[:8])


def test_a_word_is_learned_with_the_glossary_entry_beside_it(bridge_home: Path) -> None:
    """奖励黑客: the glossary knows 奖励 (reward), not 黑客; the summaries know the two together."""
    assert glossary.glossary()["奖励"] == "reward" and "奖励黑客" not in glossary.glossary()
    tr = Searcher(bridge_home).search(SearchRequest(q="奖励黑客")).interpreted["translated"]
    assert tr["to"] == "reward hacking" and tr["unknown"] == []
    assert tr["terms"] == [{"zh": "奖励黑客", "en": "reward hacking", "learned": True, "summaries": 5}]
    # without the bridge: 奖励 from the glossary, 黑客 unknown
    plain = glossary.translate("奖励黑客")
    assert plain.query == "reward" and plain.unknown == ["黑客"]


def test_chinese_nobody_can_translate_shows_the_papers_whose_summary_has_it(bridge_home: Path) -> None:
    s = Searcher(bridge_home)
    res = s.search(SearchRequest(q="商空间", per_page=20))
    tr = res.interpreted["translated"]
    assert tr["unknown"] == ["商空间"] and tr["seeded"] == 1
    assert res.hits[0].title == "Quotient Space Sampling"
    assert res.interpreted["mode"] == "keyword"       # no vectors: neighbours by shared words
    # filters still apply (the seed is an ICLR paper) ...
    filtered = s.search(SearchRequest(q="商空间 venue:NeurIPS", per_page=50))
    assert all(h.venue == "neurips" for h in filtered.hits) and filtered.total < res.total
    # ... and Chinese that no summary has shows nothing, not the whole library
    nothing = s.search(SearchRequest(q="某某某"))
    assert nothing.total == 0 and nothing.interpreted["translated"]["unknown"] == ["某某某"]


@pytest.fixture(scope="module")
def bridge_vec_home(bridge_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """bridge_home with a vector per paper: random, but the quotient paper and three of the
    reconstruction papers share a direction (they are each other's neighbours)."""
    import shutil

    pytest.importorskip("numpy", reason="vectors need numpy (pip install 'paperlist[semantic]')")
    home = Path(shutil.copytree(bridge_home, tmp_path_factory.mktemp("bridge-vec") / "home"))
    publish_vectors(home, lambda title: title == "Quotient Space Sampling" or title in NEIGHBOURS, 8, seed=3)
    return home


NEIGHBOURS = {f"{FILLER[i].title()} Reconstruction" for i in range(3)}


def test_with_vectors_the_untranslated_word_is_searched_by_its_papers_meaning(bridge_vec_home: Path) -> None:
    s = Searcher(bridge_vec_home)
    if s.semantic.unavailable():
        pytest.skip(f"semantic search unavailable: {s.semantic.unavailable()}")
    res = s.search(SearchRequest(q="商空间", per_page=5))
    assert res.interpreted["mode"] == "semantic" and res.interpreted["translated"]["seeded"] == 1
    assert res.hits[0].title == "Quotient Space Sampling"
    assert {h.title for h in res.hits[1:4]} == NEIGHBOURS
    # asked for keyword search, it gets the neighbours by shared words instead
    assert s.search(SearchRequest(q="商空间", mode="keyword")).interpreted["mode"] == "keyword"
    # with English beside it, auto mode is hybrid and the word's meaning comes from its papers
    # (the reconstruction papers near the quotient paper first, of the eight)
    mixed = s.search(SearchRequest(q="商空间 reconstruction", per_page=5))
    assert mixed.interpreted["mode"] == "hybrid" and mixed.interpreted["translated"]["seeded"] == 1
    assert {h.title for h in mixed.hits[:3]} == NEIGHBOURS, [h.title for h in mixed.hits]
    plain = s.search(SearchRequest(q="reconstruction", per_page=8, mode="keyword"))
    assert {h.title for h in plain.hits[:3]} != NEIGHBOURS      # else the test shows nothing


def test_a_generation_without_a_bridge_reports_the_word_unknown(bridge_home: Path, tmp_path: Path) -> None:
    import shutil

    home = tmp_path / "home"
    shutil.copytree(bridge_home, home, symlinks=True)
    root = fulltext.index_root(home)
    gen = fulltext.current_generation(root)
    assert gen is not None
    shutil.rmtree(root / gen / bridge.DIR)
    s = Searcher(home)
    res = s.search(SearchRequest(q="鑫淼 bandit"))
    assert res.interpreted["translated"]["unknown"] == ["鑫淼"]
    assert res.total == s.search(SearchRequest(q="bandit")).total
    with_bridge = Searcher(bridge_home).search(SearchRequest(q="鑫淼 bandit"))
    assert with_bridge.interpreted["translated"]["unknown"] == []


def test_a_broken_bridge_is_found_by_doctor_and_rebuilt_by_repair(bridge_home: Path, tmp_path: Path) -> None:
    import shutil

    from tests.conftest import run_cli

    home = Path(shutil.copytree(bridge_home, tmp_path / "home"))
    root = fulltext.index_root(home)
    gen = fulltext.current_generation(root)
    assert gen is not None
    (root / gen / bridge.DIR / "ids.txt").write_text("one\ntwo", "utf-8")       # a damaged file
    res = Searcher(home).search(SearchRequest(q="鑫淼 bandit"))     # the site still answers
    assert res.interpreted["translated"]["unknown"] == ["鑫淼"]
    r = run_cli(home, "doctor")
    assert r.exit_code == 1 and "its Chinese bridge is broken: 28 summaries, 2 ids" in r.output, r.output
    r = run_cli(home, "doctor", "--repair")
    assert r.exit_code == 0 and "repaired index" in r.output, r.output
    assert run_cli(home, "doctor").exit_code == 0
    tr = Searcher(home).search(SearchRequest(q="鑫淼")).interpreted["translated"]
    assert tr["to"] == "reconstruction"


def test_the_site_shows_a_learned_word_as_a_guess_in_both_languages(bridge_home: Path) -> None:
    from starlette.testclient import TestClient

    from paperlist.store import Store
    from paperlist.web.app import Settings, create_app

    app = create_app(Settings(home=bridge_home, store=Store(bridge_home / "paperlist.db", readonly=True)))
    with TestClient(app, client=("127.0.0.1", 50000)) as c:
        zh = c.get("/search", params={"q": "鑫淼"}).text
        assert "鑫淼 → reconstruction" in zh and "据 8 篇论文的中文摘要推测" in zh
        en = c.get("/en/search", params={"q": "鑫淼"}).text
        assert "guessed from 8 papers' Chinese summaries" in en
        seeded = c.get("/en/search", params={"q": "商空间"}).text
        assert "First the 1 paper whose Chinese summary has it" in seeded
        assert "先列出中文摘要含有该词的 1 篇论文" in c.get("/search", params={"q": "商空间"}).text
        hostile = c.get("/en/search", params={"q": "商空间<script>alert(1)</script>"}).text
        assert "<script>alert(1)" not in hostile and "&lt;script&gt;alert(1)" in hostile
        api = c.get("/api/v1/search", params={"q": "商空间"}).json()
        assert api["interpreted"]["translated"]["seeded"] == 1


def test_a_corpus_without_chinese_summaries_has_no_bridge(search_home: Path) -> None:
    root = fulltext.index_root(search_home)
    gen = fulltext.current_generation(root)
    assert gen is not None and not (root / gen / bridge.DIR).exists()
    res = Searcher(search_home).search(SearchRequest(q="鑫淼"))
    assert res.total == 0 and res.interpreted["translated"]["unknown"] == ["鑫淼"]


def test_the_cli_and_the_mcp_tool_say_what_was_guessed_and_what_was_not(bridge_home: Path) -> None:
    import json
    from typing import Any

    from tests.conftest import run_cli
    from tests.test_mcp import _run

    out = run_cli(bridge_home, "search", "鑫淼").output
    assert "searched as: reconstruction (鑫淼 → reconstruction: guessed from 8 papers' Chinese" in out
    out = run_cli(bridge_home, "search", "商空间").output
    assert "not translated: 商空间 (first the 1 paper whose Chinese summary has it" in out
    assert "Quotient Space Sampling" in out.splitlines()[2]

    async def script(c: Any) -> list[Any]:
        queries = ("鑫淼", "商空间", "某某某")
        return [await c.call_tool("search_papers", {"query": q, "limit": 3}) for q in queries]

    def data(r: Any) -> dict[str, Any]:
        assert not r.is_error, r
        return r.structured_content if r.structured_content is not None else json.loads(r.content[0].text)

    learned, seeded, nothing = (data(r) for r in _run(bridge_home, script))
    assert learned["guessed"] == [{"zh": "鑫淼", "en": "reconstruction", "summaries": 8}]
    assert learned["translated"] == "reconstruction" and learned["untranslated"] == []
    assert seeded["untranslated"] == ["商空间"] and seeded["seeded"] == 1
    assert seeded["hits"][0]["title"] == "Quotient Space Sampling"
    assert nothing["total"] == 0 and nothing["untranslated"] == ["某某某"] and nothing["seeded"] == 0


# --- on the real corpus -----------------------------------------------------------------------------
def _stems(text: str) -> set[str]:
    return set(analyzers.en_tokens(text.replace("-", " "))) - analyzers.STOP_WORDS


def test_on_the_real_summaries_most_hidden_glossary_entries_are_recovered(corpus_home: Path) -> None:
    """The glossary's own entries, which the bridge never reads, as a test set (all of them,
    benchmarks/bridge_eval.py has the figures): most guesses share a stem with the entry."""
    shared_data("openreview-exports/iclr2026")
    root = fulltext.index_root(corpus_home)
    gen = fulltext.current_generation(root)
    assert gen is not None
    b = bridge.Bridge(root / gen / bridge.DIR)
    assert b.load() and len(b.ids) > 4000
    right = tried = 0
    for zh, en in glossary.glossary().items():
        if len(zh) < 2 or not en or len(b.papers_with(zh, glossary.containing(zh))) < bridge.MIN_PAPERS:
            continue
        got = b.learn(zh, glossary.containing)
        tried += 1
        right += got is not None and bool(_stems(got[0]) & _stems(en))
    assert tried > 400 and right / tried >= 0.75, (right, tried)
    # a word that the glossary's greedy cut splits across an entry: 向量 + 数据 (data) + 库
    res = Searcher(corpus_home).search(SearchRequest(q="向量数据库 检索", per_page=5))
    tr = res.interpreted["translated"]
    assert tr["terms"][0]["zh"] == "向量数据库" and tr["terms"][0]["learned"], tr
    assert "database" in tr["terms"][0]["en"] and tr["unknown"] == [], tr
