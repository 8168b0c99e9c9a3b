"""The corpus-derived importance (issue 18, index/mentions.py): a paper that coins a name later
papers write is novel; a phrase in use before it, or one later papers do not write, is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperlist.index import prior as priors
from paperlist.index.mentions import MIN_LATER, novelty, phrase


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
