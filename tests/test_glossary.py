"""Chinese queries: AI terms become English search words (longest match first), traditional
characters and mixed Chinese-English queries work, and the result says how it was translated."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperlist.search import Searcher, SearchRequest
from paperlist.search.glossary import glossary, has_chinese, to_simplified, translate


def test_glossary_is_large_and_well_formed() -> None:
    g = glossary()
    assert sum(1 for en in g.values() if en) >= 300
    for zh, en in g.items():
        assert has_chinese(zh) or zh.isascii(), zh
        assert not has_chinese(en), (zh, en)
    for zh, en in {"扩散模型": "diffusion model", "强化学习": "reinforcement learning",
                   "大语言模型": "large language model", "图神经网络": "graph neural network"}.items():
        assert g[zh] == en
    # each key once (a second line would silently override the first), in lower case (mixed
    # entries are matched in any case: 文本到SQL)
    from importlib import resources

    from paperlist.search.glossary import to_simplified
    lines = resources.files("paperlist.search").joinpath("glossary.tsv").read_text("utf-8").splitlines()
    keys = [to_simplified(ln.partition("\t")[0].strip()) for ln in lines
            if ln.strip() and not ln.startswith("#")]
    assert len(keys) == len(set(keys)), sorted(k for k in set(keys) if keys.count(k) > 1)
    assert all(k == k.lower() for k in keys)


@pytest.mark.parametrize("q, want", [
    ("扩散模型", "diffusion model"),
    ("强化学习", "reinforcement learning"),
    ("大语言模型", "large language model"),                      # not "large" + "language model"
    ("大语言模型 幻觉", "large language model hallucination"),
    ("擴散模型 圖像編輯", "diffusion model image editing"),          # traditional characters
    ("深度學習", "deep learning"),
    ("類神經網路", "neural network"),                              # Taiwan usage
    ("Transformer 剪枝", "Transformer pruning"),                   # mixed
    ("Transformer剪枝", "Transformer pruning"),                    # mixed, no space
    ("LoRA微调大模型", "LoRA fine-tuning large language model"),
    ("基于图神经网络的推荐系统", "graph neural network recommender system"),   # function words dropped
    ('"对比学习" -综述', '"contrastive learning" -survey'),             # phrase and exclusion survive
    ("强化学习 author:张伟 year:2024", "reinforcement learning author:张伟 year:2024"),   # field values kept
    ("ＲＡＧ　检索增强生成", "RAG retrieval-augmented generation"),   # full-width forms
    ("diffusion models", "diffusion models"),                     # no Chinese: unchanged
    ("文本到SQL", "text-to-sql"),                                   # an entry of Chinese and Latin
    ("文本到sql 并行", "text-to-sql parallel"),
    ("生成式AI安全", "generative ai safety"),
    ("文本到语音", "text-to-speech"),
    ("点云到网格", "point cloud to mesh"),                          # 到 is "to"
    ("场景图生成", "scene graph generation"),                       # the summaries taught "scenarios"
    ("动态场景 新视角合成", "dynamic scene novel view synthesis"),
    ("增强学习", "reinforcement learning"),                         # not "enhancement learning"
    ("构建 知识图谱", "knowledge graph"),                             # 构建 was learned as "benchmark"
])
def test_translation(q: str, want: str) -> None:
    assert translate(q).query == want


def test_unknown_chinese_is_reported_not_searched() -> None:
    t = translate("某某某 扩散模型")
    assert t.query == "diffusion model" and t.unknown == ["某某某"]
    assert t.to_dict("某某某 扩散模型")["terms"] == [
        {"zh": "扩散模型", "en": "diffusion model", "learned": False, "summaries": 0}]
    assert not translate("plain english").changed


def test_a_guess_never_spans_to() -> None:
    """到 ("to") is an entry: the summaries' guesses are never asked for a stretch with it, such as
    文本到, which they knew as "text-to-image" (文本到SQL was searched as "text-to-image SQL",
    文本到语音, text-to-speech, as "text-to-image speech")."""
    asked: list[str] = []

    def learn(zh: str) -> tuple[str, int]:
        asked.append(zh)
        return ("text-to-image", 9)

    assert translate("文本到XYZ", learn).query == "text to XYZ" and asked == []
    assert translate("文本到SQL", learn).query == "text-to-sql" and asked == []


def test_traditional_folding_is_per_character() -> None:
    assert to_simplified("強化學習與擴散") == "强化学习与扩散"


def test_chinese_query_finds_english_papers_and_says_how(search_home: Path) -> None:
    s = Searcher.open(search_home)
    res = s.search(SearchRequest(q="扩散模型"))
    assert any("Diffusion" in h.title for h in res.hits)
    tr = res.interpreted["translated"]
    assert (tr["from"] == "扩散模型" and tr["to"] == "diffusion model"
            and tr["terms"][0]["en"] == "diffusion model")
    mixed = s.search(SearchRequest(q="图神经网络 molecule"))
    assert mixed.hits and mixed.hits[0].title == "Graph Neural Networks for Molecule Generation"
    assert "translated" not in s.search(SearchRequest(q="diffusion")).interpreted


def test_every_topic_name_is_searchable_in_chinese() -> None:
    """The topics' Chinese names (and so the vocabulary of the topic pages) translate whole."""
    from paperlist.taxonomy import taxonomy

    for t in taxonomy().topics:
        tr = translate(t.zh)
        assert tr.unknown == [] and tr.query, (t.zh, tr.unknown)
