"""Semantic and hybrid search, similar papers and the vector store, on vectors we make ourselves
(no model needed: the query encoder is replaced by a lookup). Needs numpy and usearch, which the
semantic extra installs; the end-to-end path with the real model is in test_embed.py."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from paperlist.models import Paper
from paperlist.search import Searcher, SearchRequest
from paperlist.search.query import parse
from paperlist.search.semantic import SemanticRanker, rrf, wants_semantic
from paperlist.search.similar import similar_papers
from paperlist.store import Store

from .conftest import publish_vectors


def test_rrf_rewards_agreement_and_keeps_first_list_on_ties() -> None:
    fused = rrf([["a", "b", "c"], ["c", "b", "d"]])
    assert [p for p, _ in fused] == ["c", "b", "a", "d"]
    assert fused[0][1] == pytest.approx(1 / 63 + 1 / 61) and fused[1][1] == pytest.approx(2 / 62)
    assert [p for p, _ in rrf([["x", "y"], ["y", "x"]])] == ["x", "y"]  # tie: first list wins
    assert [p for p, _ in rrf([["a"], ["b"]], weights=[1.0, 2.0])] == ["b", "a"]
    assert rrf([]) == []


def test_relative_fusion_keeps_a_clear_keyword_winner_first() -> None:
    from paperlist.search.semantic import relative_fusion

    keyword = [("title", 40.0), ("near", 8.0), ("far", 6.0)]      # an exact title scores far ahead
    vector = {"title": 0.80, "near": 0.84, "other": 0.85, "far": 0.40}
    fused = relative_fusion(keyword, vector)
    assert fused[0][0] == "title"
    assert [p for p, _ in fused][1:3] == ["near", "other"]       # found by both beats found by meaning alone
    # a paper without a vector is judged by its words alone, on the full scale
    assert (dict(relative_fusion([("novec", 10.0), ("v", 5.0)], {"v": 0.9, "x": 0.1}))["novec"]
            == pytest.approx(1.0))
    assert relative_fusion([], {}) == []


@pytest.mark.parametrize("q, want", [
    ("diffusion", False),
    ("denoising diffusion models", False),
    ("learning robot skills from human videos", True),
    ("author:bengio deep learning for sequence models", False),
    ('"graph neural networks" for molecules and proteins', False),
])
def test_auto_mode_is_hybrid_for_natural_language(q: str, want: bool) -> None:
    assert wants_semantic(parse(q)) is want


np = pytest.importorskip("numpy", reason="semantic search needs numpy (pip install 'paperlist[semantic]')")
pytest.importorskip("usearch", reason="semantic search needs usearch (pip install 'paperlist[semantic]')")


def _home_with_vectors(src: Path, dst: Path) -> tuple[Path, dict[str, object]]:
    """A copy of a search home with a vector for every paper: random, except that papers whose
    title has "Diffusion" share one direction (so they are each other's neighbours)."""
    shutil.copytree(src, dst)
    return dst, publish_vectors(dst, lambda title: "Diffusion" in title, 6, seed=0)


@pytest.fixture(scope="module")
def vec_home(search_home: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    return _home_with_vectors(search_home, tmp_path_factory.mktemp("vec") / "home")


def _searcher(home: Path, qvec: object, monkeypatch: pytest.MonkeyPatch) -> Searcher:
    monkeypatch.setattr(SemanticRanker, "encode", lambda self, text: qvec)
    return Searcher.open(home)


def _pid(home: Path, title: str) -> str:
    return next(i for i, t, *_ in Store(home / "paperlist.db", readonly=True).plain_titles() if t == title)


def _paper(home: Path, pid: str) -> Paper:
    paper = Store(home / "paperlist.db", readonly=True).get_paper(pid)
    assert paper is not None, pid
    return paper


def test_vector_index_search_scope_and_neighbours(vec_home: tuple[Path, dict[str, object]]) -> None:
    from paperlist.index.vectorindex import VectorIndex

    home, vecs = vec_home
    vi = VectorIndex.open(home)
    assert vi is not None and len(vi) == len(vecs)
    pid = _pid(home, "Denoising Diffusion Models Are Strong Learners")
    assert vi.search(vecs[pid], 3)[0][0] == pid
    near = vi.neighbours(pid, 5)
    assert (pid not in [p for p, _ in near]
            and "Diffusion" in _paper(home, near[0][0]).title)
    venue = _paper(home, pid).venue
    rows = vi.scope([venue], None, None)
    assert rows is not None and all(vi.ids[r] != "" for r in rows)
    assert {p for p, _ in vi.search(vecs[pid], 50, rows=rows)} <= {vi.ids[r] for r in rows}
    assert vi.scope() is None and vi.neighbours("no-such-paper") == []
    assert vi.scores(vecs[pid], [pid, "nope"])[pid] == pytest.approx(1.0, abs=1e-2)


def test_semantic_and_hybrid_search(vec_home: tuple[Path, dict[str, object]],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    home, vecs = vec_home
    pid = _pid(home, "Denoising Diffusion Models Are Strong Learners")
    s = _searcher(home, vecs[pid], monkeypatch)
    q = "quixotic flarnish wobbleton zyxt"     # no paper has these words: only meaning can rank
    sem = s.search(SearchRequest(q=q, mode="semantic"))
    assert sem.interpreted["mode"] == "semantic" and sem.hits[0].id == pid
    assert sem.total <= 1000 and sem.facets["venue"]
    assert s.search(SearchRequest(q=q, mode="keyword")).total == 0
    hyb = s.search(SearchRequest(q=q))                       # auto: long query + vectors = hybrid
    assert hyb.interpreted["mode"] == "hybrid" and pid in [h.id for h in hyb.hits[:3]]
    # filters and field clauses still restrict the fused list
    venue = _paper(home, pid).venue
    assert all(h.venue != venue
               for h in s.search(SearchRequest(q=q + f" -venue:{venue}", mode="semantic")).hits)
    assert all(h.year == 2017
               for h in s.search(SearchRequest(q=q, mode="semantic", year_from=2017, year_to=2017)).hits)
    assert s.search(SearchRequest(q=q + " author:nobodyatall", mode="semantic")).total == 0
    # short queries stay keyword in auto mode; a title search keeps its exact match first
    title = s.search(SearchRequest(q="Denoising Diffusion Models Are Strong Learners", mode="hybrid"))
    assert title.hits[0].id == pid


def test_similar_papers_with_and_without_vectors(vec_home: tuple[Path, dict[str, object]], search_home: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    home, vecs = vec_home
    pid = _pid(home, "Denoising Diffusion Models Are Strong Learners")
    paper = Store(home / "paperlist.db", readonly=True).get_paper(pid)
    assert paper is not None
    got, method = similar_papers(_searcher(home, vecs[pid], monkeypatch), paper, 5)
    assert method == "vectors" and got and pid not in [p for p, _ in got]
    plain, method = similar_papers(Searcher.open(search_home), paper, 5)
    assert method == "text" and pid not in [p for p, _ in plain]
    assert similar_papers(None, paper, 5) == ([], "none")


def test_a_published_generation_is_switched_atomically(vec_home: tuple[Path, dict[str, object]]) -> None:
    from paperlist.index.vectorindex import VectorIndex
    from paperlist.index.vectors import current_generation, publish, vectors_root

    home, vecs = vec_home
    vi = VectorIndex.open(home)
    assert vi is not None
    before = vi.generation
    first = next(iter(vecs))
    gen, n = publish(home, [(first, "neurips", 2020, b"x" * 12)], {b"x" * 12: vecs[first]}, 128)
    assert n == 1 and current_generation(vectors_root(home)) == gen
    assert vi.reload() and vi.generation == gen and len(vi) == 1 and before != gen


def test_embedding_evidence_does_not_overrule_the_sources_area(tmp_path: Path) -> None:
    """Vector similarity is evidence for topics; a source's primary area that names a topic still
    decides the main one. Here a paper OpenReview files under reinforcement learning talks of
    diffusion models, and its vector sits with the diffusion papers'."""
    from paperlist.index.vectorindex import VectorIndex
    from paperlist.index.vectors import content_hash, publish
    from paperlist.store import TopicDoc
    from paperlist.topics.assign import assign_all

    rng = np.random.default_rng(1)
    direction = {"diff": rng.normal(size=384), "rl": rng.normal(size=384)}
    docs, rows, cache = [], [], {}

    def add(pid: str, title: str, abstract: str, near: str, area: str | None = None) -> None:
        v = rng.normal(size=384) + 8 * direction[near]
        docs.append(TopicDoc(pid, "iclr", 2024, title, abstract, area))
        h = content_hash(pid, 128)
        rows.append((pid, "iclr", 2024, h))
        cache[h] = (v / np.linalg.norm(v)).astype(np.float32)

    for i in range(30):    # confident papers of each topic make its centroid
        add(f"d{i}", f"Diffusion models for image generation {i}",
            "Denoising diffusion models and score matching.", "diff")
        add(f"r{i}", f"Deep reinforcement learning agents {i}",
            "Policy gradient reinforcement learning with rewards.", "rl")
    add("x", "Diffusion Models as Policies", "We train diffusion models to act.", "diff",
        "Reinforcement learning")
    publish(tmp_path, rows, cache, 128)
    vectors = VectorIndex.open(tmp_path)
    assert vectors is not None and len(vectors) == len(docs)

    def main_topic(**kw: Any) -> str:
        return next(a.topics[0][0] for a in assign_all(docs, **kw) if a.paper_id == "x")

    assert main_topic() == "reinforcement-learning"
    assert main_topic(vectors=vectors) == "reinforcement-learning"
    # without the area, the words and the vector both say diffusion
    assert main_topic(vectors=vectors, use_area=False) == "diffusion-models"


def test_vector_probe_carries_source_labels_to_unlabelled_papers(tmp_path: Path) -> None:
    """The probe learns from labelled papers (primary areas mapped to topics) which regions of the
    vector space are which topic; an unlabelled paper whose words fit two topics equally then gets
    the one its vector sits with. (The labelled papers' titles say nothing, so no topic centroid
    forms: the probe alone decides here.) Too few labelled papers: no probe."""
    from paperlist.index.vectorindex import VectorIndex
    from paperlist.index.vectors import content_hash, publish
    from paperlist.store import TopicDoc
    from paperlist.topics.assign import assign_all
    from paperlist.topics.evidence import Assigner
    from paperlist.topics.probe import confirmed, fit_probe, probe_from_docs

    rng = np.random.default_rng(2)
    direction = {"rl": rng.normal(size=384), "graph": rng.normal(size=384)}
    docs, rows, cache = [], [], {}

    def add(pid: str, title: str, near: str, area: str | None) -> None:
        v = rng.normal(size=384) + 6 * direction[near]
        docs.append(TopicDoc(pid, "iclr", 2022, title, "", area))
        h = content_hash(pid, 128)
        rows.append((pid, "iclr", 2022, h))
        cache[h] = (v / np.linalg.norm(v)).astype(np.float32)

    for i in range(110):      # labelled, but their titles say nothing of their topic
        add(f"r{i}", f"A study of method {i}", "rl", "Reinforcement learning")
        add(f"g{i}", f"A study of approach {i}", "graph", "Learning on graphs")
    both = "Graph neural networks and reinforcement learning"
    add("x-rl", both, "rl", None)
    add("x-graph", both, "graph", None)
    publish(tmp_path, rows, cache, 128)
    vectors = VectorIndex.open(tmp_path)
    assert vectors is not None

    a = Assigner()
    labelled = confirmed(a, docs[0], a.evidence(docs[0]))
    assert labelled is not None and a.tax.topics[labelled].slug == "reinforcement-learning"
    assert confirmed(a, docs[-1], a.evidence(docs[-1])) is None           # unlabelled
    probe = probe_from_docs(a, docs, vectors)
    assert probe is not None and probe.examples == 220
    p = probe.proba(np.stack([vectors.vector("x-rl"), vectors.vector("x-graph")]))
    rl, graph = a.index["reinforcement-learning"], a.index["graph-learning"]
    assert p[0, rl] > 0.9 and p[1, graph] > 0.9
    main = {x.paper_id: x.topics[0][0] for x in assign_all(docs, vectors=vectors, assigner=a)}
    assert main["x-rl"] == "reinforcement-learning" and main["x-graph"] == "graph-learning"
    words = {x.paper_id: x.topics[0][0] for x in assign_all(docs, assigner=a)}
    assert words["x-rl"] == words["x-graph"]               # the words alone cannot tell them apart
    assert fit_probe([(d.id, 0) for d in docs[:50]], vectors, len(a.tax.topics)) is None


def test_searches_during_a_switch_see_one_whole_generation(tmp_path: Path) -> None:
    """Threads search, scope and find neighbours while generations of different sizes and ids are
    published: every answer comes from one generation (ids and rows never mixed), none fails."""
    import threading

    from paperlist.index.vectorindex import VectorIndex
    from paperlist.index.vectors import content_hash, publish

    rng = np.random.default_rng(3)

    def generation(name: str, n: int) -> None:
        rows, cache = [], {}
        for i in range(n):
            v = rng.normal(size=384)
            h = content_hash(f"{name}-{i}", 128)
            rows.append((f"{name}-{i}", "iclr" if i % 2 else "icml", 2020 + i % 5, h))
            cache[h] = (v / np.linalg.norm(v)).astype(np.float32)
        publish(tmp_path, rows, cache, 128)

    generation("g0", 40)
    vi = VectorIndex.open(tmp_path)
    assert vi is not None
    q = rng.normal(size=384).astype(np.float32)
    errors: list[BaseException] = []
    answers: list[list[str]] = []
    stop = threading.Event()

    def reader() -> None:
        try:
            while not stop.is_set():
                answers.append([p for p, _ in vi.search(q, 10)])
                g = vi.current()
                answers.append([p for p, _ in g.search(q, 5, rows=g.scope(["iclr"], 2021, 2023))])
                answers.append([p for p, _ in g.neighbours(g.ids[-1], 5)])
                answers.append([p for p, _ in vi.neighbours(vi.ids[0], 5)] or ["-"])   # may switch between
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    for k in range(1, 13):
        generation(f"g{k}", 400 if k % 2 else 40)
    stop.set()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    assert len(answers) > 30
    for ids in answers:
        assert ids and len({pid.split("-")[0] for pid in ids if pid != "-"}) <= 1, ids
    assert vi.generation is not None and len(vi) == 40 and vi.ids[0] == "g12-0"


def test_vectors_of_another_model_are_never_queried(vec_home: tuple[Path, dict[str, object]],
                                                    tmp_path: Path) -> None:
    """A generation made by another model than the query encoder's is refused whole: keyword
    results, and the reason said, rather than cosines between two models' spaces."""
    import orjson

    from paperlist.index.vectors import current_generation, vectors_root

    home = tmp_path / "home"
    shutil.copytree(vec_home[0], home)
    root = vectors_root(home)
    info_path = root / str(current_generation(root)) / "info.json"
    info = orjson.loads(info_path.read_bytes())
    assert SemanticRanker(home).unavailable() is None
    info_path.write_bytes(orjson.dumps({**info, "model": "some-other-model"}))
    ranker = SemanticRanker(home)
    reason = ranker.unavailable()
    assert reason is not None and "some-other-model" in reason
    assert ranker.rank("diffusion models") == [] and ranker.similar("any", 5) is None
    res = Searcher.open(home).search(SearchRequest(q="denoising diffusion for images", mode="semantic"))
    assert res.interpreted["mode"] == "keyword" and res.hits


@pytest.mark.parametrize("words, title, want", [
    ("denoising diffusion probabilistic models".split(), "Denoising Diffusion Probabilistic Models", True),
    ("diffusion probabilistic models denoising".split(), "Denoising Diffusion Probabilistic Models", True),
    ("masked autoencoders are scalable learners".split(), "Masked Autoencoders Are Scalable Learners!", True),
    ("learning robot skills from human videos".split(), "Learning by Watching: Physical Imitation", False),
    ("attention is all you need for segmentation models".split(), "Attention is All you Need", False),
    ([], "Anything", False),
])
def test_a_typed_title_is_named(words: list[str], title: str, want: bool) -> None:
    from paperlist.search.semantic import names_title

    assert names_title(words, title) is want


def test_auto_mode_keeps_keyword_search_for_a_typed_title(vec_home: tuple[Path, dict[str, object]],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A title typed in full (4+ words) is a known-item search: auto mode answers it by keyword,
    without encoding the query; a sentence of as many words still ranks by meaning too."""
    home, vecs = vec_home
    pid = _pid(home, "Denoising Diffusion Models Are Strong Learners")
    s = _searcher(home, vecs[pid], monkeypatch)
    typed = s.search(SearchRequest(q="denoising diffusion models are strong learners", mode="auto"))
    assert typed.interpreted["mode"] == "keyword" and typed.hits[0].id == pid
    sentence = s.search(SearchRequest(q="models that learn strong features by denoising", mode="auto"))
    assert sentence.interpreted["mode"] == "hybrid"
