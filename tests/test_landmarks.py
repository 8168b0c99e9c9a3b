"""Landmarks (search/landmarks.py): with paper vectors, a topic's first page has the library's most
important papers at the topic's centre, even when their titles lack the query's words; each
paper once, every page agreeing, filters applying, and a far classic left out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperlist.search import Searcher, SearchRequest, central, landmarks

from .conftest import publish_vectors

pytest.importorskip("numpy", reason="landmarks need numpy (pip install 'paperlist[semantic]')")
pytest.importorskip("usearch", reason="paper vectors need usearch (pip install 'paperlist[semantic]')")

Q = "self-supervised learning"
NICHE = "Self-Supervised Learning of Motion Capture"
CENTRAL = [f"Self-Supervised Learning of {w} Visual Representations" for w in
           ("Robust", "General", "Transferable", "Scalable", "Dense", "Compact", "Sparse", "Invariant")]
OUTSIDE = "A Simple Framework for Contrastive Learning of Visual Representations"   # no query word
MATCHING = "Momentum Contrast for Unsupervised Visual Representation Learning"     # words in abstract only
FAR = "Deep Residual Learning for Image Recognition"                             # cited, off topic
EXTRA = "Barlow Twins: Redundancy Reduction for Representations"                # the third in importance
WINDOW = 6


def paper(i: int, title: str, abstract: str, cited: int | None = None) -> dict[str, object]:
    p: dict[str, object] = {"id": f"l{i}", "title": title, "status": "Poster", "track": "main",
                            "author": f"Ann Author{i}", "abstract": abstract}
    if cited is not None:
        p["gs_citation"] = cited
    return p


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from paperlist.index import fulltext
    from paperlist.ingest import ingest
    from paperlist.store import Store

    home = tmp_path_factory.mktemp("landmarks")
    src = home / "src" / "iclr"
    src.mkdir(parents=True)
    topic = [paper(i, t, "We study self-supervised learning.") for i, t in enumerate([NICHE, *CENTRAL])]
    topic.append(paper(20, MATCHING, "Momentum contrast builds a dynamic dictionary; it is compared with "
                                     "self-supervised learning baselines.", cited=9000))
    topic.append(paper(23, EXTRA, "A self-supervised learning method by redundancy reduction.", cited=5000))
    (src / "iclr2023.json").write_text(json.dumps(topic))
    (src / "iclr2021.json").write_text(json.dumps([
        paper(21, OUTSIDE, "We present a simple framework for contrastive representation learning.", 12000),
        paper(22, FAR, "Residual networks ease the training of very deep networks.", 100000)]))
    store = Store(home / "paperlist.db")
    assert ingest(store, [str(home / "src")], jobs=1).failed == 0
    fulltext.build(store, home)
    store.close()
    publish_vectors(home, lambda title: title not in (NICHE, FAR), 4, seed=3)
    return home


@pytest.fixture
def s(home: Path, monkeypatch: pytest.MonkeyPatch) -> Searcher:
    monkeypatch.setattr(central, "WINDOW", WINDOW)     # the matching landmark lies beyond it
    return Searcher.open(home)


def titles(s: Searcher, mode: str = "auto", page: int = 1, per_page: int = 20, **kw: object) -> list[str]:
    return [h.title for h in s.search(SearchRequest(q=Q, mode=mode, page=page, per_page=per_page,
                                                    **kw)).hits]  # type: ignore[arg-type]


def test_the_topics_landmarks_are_on_its_first_page_once(s: Searcher) -> None:
    keyword = titles(s, mode="keyword")
    auto = titles(s)
    assert OUTSIDE not in keyword and keyword.index(MATCHING) >= WINDOW
    # the more cited first, at the places set for them; the words' best matches stay in front
    assert [auto.index(OUTSIDE), auto.index(MATCHING)] == list(landmarks.AT)
    assert auto[:3] == [t for t in auto if t not in (OUTSIDE, MATCHING)][:3]
    assert auto.count(MATCHING) == 1 and FAR not in auto and auto.count(EXTRA) == 1
    assert sorted(auto) == sorted([*keyword, OUTSIDE])
    hits = s.search(SearchRequest(q=Q)).hits
    assert {h.title for h in hits if h.landmark} == {OUTSIDE, MATCHING}
    assert not any(h.landmark for h in s.search(SearchRequest(q=Q, mode="keyword")).hits)
    # the total counts the landmark that does not match; the facets count the matching papers
    total = s.search(SearchRequest(q=Q)).total
    assert total == s.search(SearchRequest(q=Q, mode="keyword")).total + 1 == len(auto)


def test_every_page_agrees_and_no_paper_comes_twice(s: Searcher) -> None:
    auto = titles(s)
    for per_page in (2, 3, 5):
        pages = [t for p in range(1, 8) for t in titles(s, page=p, per_page=per_page)]
        assert pages == auto


def test_filters_apply_to_landmarks(s: Searcher) -> None:
    # the most important is of 2021: the next two take the places
    only_2023 = titles(s, year_from=2023)
    assert OUTSIDE not in only_2023
    assert [only_2023.index(MATCHING), only_2023.index(EXTRA)] == list(landmarks.AT)


def test_keyword_mode_and_a_typed_title_have_no_landmarks(s: Searcher) -> None:
    assert OUTSIDE not in titles(s, mode="keyword")
    typed = [h.title for h in s.search(SearchRequest(q=NICHE.lower())).hits]
    assert typed[0] == NICHE and OUTSIDE not in typed


def test_pick_keeps_importance_order_within_the_slack() -> None:
    import numpy as np

    mat = np.array([[1.0, 0.0], [0.0, 1.0], [0.8, 0.6], [0.6, 0.8]], dtype=np.float32)
    centre = np.array([1.0, 0.0], dtype=np.float32)
    window = [0.95, 0.9, 0.85, 0.8, 0.75]         # the 5th best, 0.75, less the slack: 0.65
    near = ("c", pytest.approx(0.8))
    assert landmarks.pick(["a", "b", "c", "d"], mat, centre, window, set()) == [("a", 1.0), near]
    assert landmarks.pick(["a", "b", "c", "d"], mat, centre, window, set(), 1) == [("a", 1.0)]
    assert landmarks.pick(["a", "b", "c", "d"], mat, centre, window, {"a"}) == [near]
    assert landmarks.pick(["a"], mat[:1], centre, [], set()) == []


def test_a_landmark_without_the_querys_words_must_be_nearer() -> None:
    """Within SLACK of the window's 5th best cosine (0.75), a candidate with the query's words is
    shown; one without them only within SLACK_UNMATCHED (Deep Voice, text-to-speech, was a
    landmark of "speech recognition" at 0.071 below the 5th best)."""
    window = [0.95, 0.9, 0.85, 0.8, 0.75]
    between = 0.75 - (landmarks.SLACK + landmarks.SLACK_UNMATCHED) / 2
    near = 0.75 - landmarks.SLACK_UNMATCHED / 2
    candidates = [("far", between), ("far-words", between), ("near", near), ("next", near)]
    assert landmarks.SLACK_UNMATCHED < landmarks.SLACK
    assert landmarks.admit(candidates, set(), window) == ["near", "next"]
    assert landmarks.admit(candidates, {"far-words"}, window) == ["far-words", "near"]
    assert landmarks.admit(candidates, {"far", "far-words"}, window, limit=3) == ["far", "far-words", "near"]
    assert landmarks.admit(candidates[:2], set(), window) == []


def test_pick_stops_where_no_later_candidate_could_be_shown() -> None:
    """With ``enough``, the candidates end at the enough-th within SLACK_UNMATCHED: without filters
    ``admit`` shows none after it, whatever the query's words."""
    import numpy as np

    window = [0.95, 0.9, 0.85, 0.8, 0.75]
    between = 0.75 - (landmarks.SLACK + landmarks.SLACK_UNMATCHED) / 2
    cosines = [between, 0.9, between, 0.8, 0.9, between]
    mat = np.array([[c, float(np.sqrt(1 - c * c))] for c in cosines], dtype=np.float32)
    centre = np.array([1.0, 0.0], dtype=np.float32)
    ids = ["a", "b", "c", "d", "e", "f"]

    def picked(limit: int, enough: int | None = None) -> list[str]:
        return [p for p, _ in landmarks.pick(ids, mat, centre, window, set(), limit, enough)]

    assert picked(6, 2) == ["a", "b", "c", "d"] and picked(3, 2) == ["a", "b", "c"] and picked(6) == ids
    for matching in (set(), {"a"}, {"c", "f"}, set(ids)):
        everything = landmarks.admit(landmarks.pick(ids, mat, centre, window, set(), 6), matching, window)
        assert landmarks.admit(landmarks.pick(ids, mat, centre, window, set(), 6, enough=2),
                               matching, window) == everything


def test_a_filtered_search_counts_its_added_landmark(s: Searcher) -> None:
    # a venue filter's clause scores: the landmark that does not match must still count as added
    kw = s.search(SearchRequest(q=Q, mode="keyword", venues=["iclr"]))
    auto = s.search(SearchRequest(q=Q, venues=["iclr"]))
    assert OUTSIDE in [h.title for h in auto.hits] and auto.total == kw.total + 1


def test_a_constrained_query_shows_only_landmarks_that_hold_to_it(s: Searcher) -> None:
    # an excluded word holds for landmarks too: the most important has it in its title, the next
    # two take the places
    excluded = [h.title for h in s.search(SearchRequest(q=f"{Q} -framework")).hits]
    assert OUTSIDE not in excluded
    assert [excluded.index(MATCHING), excluded.index(EXTRA)] == list(landmarks.AT)
    # a query of a phrase only (no plain words) keeps keyword order, without landmarks
    phrase = s.search(SearchRequest(q=f'"{Q}"'))
    assert not any(h.landmark for h in phrase.hits)
    assert [h.title for h in phrase.hits] == [h.title for h in s.search(
        SearchRequest(q=f'"{Q}"', mode="keyword")).hits]


@pytest.mark.parametrize("block", [1, 3, 7, 64])
def test_pick_by_blocks_chooses_as_the_whole_pool_does(block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    rng = np.random.default_rng(5)
    mat = rng.normal(size=(40, 8)).astype(np.float32)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    centre = mat[:3].mean(axis=0)
    centre /= np.linalg.norm(centre)
    ids = [f"p{i}" for i in range(40)]
    window = [0.9, 0.8, 0.7, 0.6, 0.5]
    floor = 0.5 - landmarks.SLACK
    exclude = {"p0", "p7"}
    whole = [ids[i] for i in range(40) if float(mat[i] @ centre) >= floor and ids[i] not in exclude]
    assert len(whole) >= 3
    monkeypatch.setattr(landmarks, "BLOCK", block)
    for limit in (1, 2, 50):
        assert [pid for pid, _ in landmarks.pick(ids, mat, centre, window, exclude, limit)] == whole[:limit]
