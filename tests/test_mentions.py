"""The corpus-derived importance (issue 18, index/mentions.py): a paper that coins a name later
papers write is novel; a phrase in use before it, or one later papers do not write, is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperlist.index import prior as priors
from paperlist.index.mentions import MIN_LATER, Name, names, novelty, phrase


def words(title: str, abstract: str | None) -> list[list[str]]:
    return [n.words for n in names(title, abstract)]


def test_the_phrase_of_a_title_is_its_short_title_or_its_head() -> None:
    assert phrase("Batch Normalization: Accelerating Deep Network Training by Reducing Internal "
                  "Covariate Shift") == ["batch", "normalization"]
    assert phrase("Graph Attention Networks") == ["graph", "attention", "networks"]
    assert phrase("A Very Long Title With Many Words And No Colon In It") is None
    assert phrase("Of the") is None                                    # stop words only
    assert phrase("YOLO: You Only Look Once, Unified Real-Time Object Detection") is None  # a one-word head


def test_a_coined_name_is_novel_and_a_phrase_in_use_is_not(tmp_path: Path) -> None:
    papers = [("p-coin", 2015, "Batch Normalization: Accelerating Deep Network Training by Reducing "
                                "Internal Covariate Shift", "We normalize batches."),
              ("p-old", 2015, "Kernel Methods: A Review of Their Uses in Machine Learning Research",
               "About kernel methods."),
              ("p-quiet", 2015, "Quiet Phrase Nobody Repeats", "Nothing.")]
    papers += [(f"pre{i}", 2010, f"Early work {i}", "kernel methods are used here") for i in range(120)]
    papers += [(f"later{i}", 2018, f"Later work {i}", "we add batch normalization and kernel methods")
               for i in range(MIN_LATER + 5)]
    got = novelty(papers, tmp_path / "work")
    assert got["p-coin"] > 50 and "p-old" not in got and "p-quiet" not in got
    assert not (tmp_path / "work").exists()                   # the temporary index is deleted
    # and it becomes part of the prior, bounded
    assert priors.prior(2015, True, "icml", novelty=got["p-coin"]) > priors.prior(2015, True, "icml")
    assert priors.importance(None, None, False, novelty=1e9) == pytest.approx(priors.PRIOR_NAMED)


def test_a_paper_is_also_known_by_a_coined_word_of_its_title_or_abstract() -> None:
    assert words("DARTS: Differentiable Architecture Search", None) == [
        ["darts", "differentiable", "architecture", "search"], ["darts"]]
    assert words("A Simple Framework for Contrastive Learning of Visual Representations",
                 "This paper presents SimCLR: a simple framework.") == [["simclr"]]
    # an abbreviation in brackets is the paper's own when the title has the words it abbreviates
    assert names("Bootstrap Your Own Latent - A New Approach to Self-Supervised Learning",
                 "We introduce Bootstrap Your Own Latent (BYOL), a new approach.") == [
        Name(["byol"], ("bootstrap", "your", "own", "latent"))]
    assert names("Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks",
                 "Combining retrieval-augmented generation (RAG) with (BERT) encoders.") == [
        Name(["rag"], ("retrieval", "augmented", "generation"))]
    # words in their own right are not coined names: "Ditto", "Dropout"
    assert words("Ditto: Fair and Robust Federated Learning Through Personalization",
                 "We propose Ditto, a method.") == []


def test_a_word_many_papers_of_its_year_write_is_not_one_papers_name(tmp_path: Path) -> None:
    papers = [("p-simclr", 2020, "A Simple Framework for Contrastive Learning of Visual Representations",
               "This paper presents SimCLR: a framework."),
              ("p-lvlm", 2024, "Mitigating Hallucinations in Large Vision-Language Models",
               "Large vision-language models (LVLMs) hallucinate.")]
    papers += [(f"pre{i}", 2015, f"Early work {i}", "unrelated words") for i in range(100)]
    papers += [(f"same{i}", 2024, f"Concurrent work {i}", "we study LVLMs") for i in range(2 * MIN_LATER)]
    papers += [(f"later{i}", 2025, f"Later work {i}", "we compare with SimCLR on LVLMs")
               for i in range(2 * MIN_LATER)]
    got = novelty(papers, tmp_path / "work")
    assert got["p-simclr"] > 5 and "p-lvlm" not in got


def test_an_abbreviation_of_words_earlier_papers_wrote_is_not_one_papers_name(tmp_path: Path) -> None:
    # "(VLM)" spells the title's "Vision-Language Models", which papers wrote before it: the field's
    # word, even though few wrote the abbreviation itself before; "(BYOL)" spells words new then
    papers = [("p-vlm", 2023, "ILLUME: Rationalizing Vision-Language Models through Human Interactions",
               "Building vision-language models (VLM) for captioning."),
              ("p-byol", 2020, "Bootstrap Your Own Latent - A New Approach to Self-Supervised Learning",
               "We introduce Bootstrap Your Own Latent (BYOL), a new approach.")]
    papers += [(f"pre{i}", 2019, f"Early work {i}", "large vision-language models pretrained on pairs")
               for i in range(3 * MIN_LATER)]
    papers += [(f"later{i}", 2025, f"Later work {i}", "we compare with BYOL and a VLM")
               for i in range(3 * MIN_LATER)]
    got = novelty(papers, tmp_path / "work")
    assert "p-vlm" not in got and got["p-byol"] > 5
