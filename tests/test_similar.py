"""Similar papers by text (no vectors): the distinctive-words query and its determinism."""

from __future__ import annotations

from pathlib import Path

from paperlist.search import Searcher
from paperlist.search.similar import MAX_DF, MAX_TERMS, distinctive_terms, similar_papers
from paperlist.store import Store


def test_distinctive_terms_pick_rare_title_words_and_drop_useless_ones() -> None:
    df = {"diffus": 50, "denois": 40, "model": MAX_DF + 1, "zyxw": 1, "probabilist": 500, "sampl": 900}
    got = distinctive_terms("Denoising Diffusion Probabilistic Models", [], "We sample zyxw with models.",
                            lambda t: df.get(t, 3000), n_docs=100_000)
    words = [t for t, _ in got]
    assert "model" not in words and "zyxw" not in words           # too common / only this paper
    assert words[:2] == ["denois", "diffus"]                       # rarest title words first
    assert words.index("probabilist") < words.index("sampl")       # a title word beats an abstract word
    # the same input always gives the same query: ties broken by the word itself
    tie = distinctive_terms(" ".join(f"word{c}x" for c in "zyxwvutsrqponmlkjihgfedcba"), [], None,
                            lambda t: 10, n_docs=1000)
    assert len(tie) == MAX_TERMS and [t for t, _ in tie] == sorted(t for t, _ in tie)


def test_similar_papers_by_text_share_words_and_are_stable(search_home: Path) -> None:
    store = Store(search_home / "paperlist.db", readonly=True)
    pid = next(i for i, t, *_ in store.plain_titles() if "Diffusion" in t)
    paper = store.get_paper(pid)
    assert paper is not None
    s = Searcher.open(search_home)
    got, method = similar_papers(s, paper, 5)
    assert method == "text" and got and pid not in [p for p, _ in got]
    assert similar_papers(s, paper, 5) == (got, method)
    scores = [sc for _, sc in got]
    assert scores == sorted(scores, reverse=True)
    titles = [p.title.lower() for p in store.get_papers([p for p, _ in got])]
    assert any("diffusion" in t for t in titles)
