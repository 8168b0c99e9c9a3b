"""Topics: the taxonomy is complete and well-formed, papers get the topics their words say, and
the assignment is stored, counted and carried into the search index."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from paperlist.store import Store, TopicDoc
from paperlist.taxonomy import parse
from paperlist.topics import TaxonomyError, taxonomy
from paperlist.topics.evidence import Assigner
from paperlist.topics.match import Matcher, tokens
from paperlist.topics.stats import overview, stored_detail, topic_detail
from tests.conftest import run_cli


def test_taxonomy_is_complete() -> None:
    tax = taxonomy()
    assert len(tax.topics) >= 40 and len(tax.areas) >= 8
    slugs = [t.slug for t in (*tax.areas, *tax.topics)]
    assert len(slugs) == len(set(slugs))
    for t in (*tax.areas, *tax.topics):
        assert t.en.strip() and t.zh.strip() and t.desc_en.strip() and t.desc_zh.strip(), t.slug
        assert any("\u4e00" <= c <= "\u9fff" for c in t.zh + t.desc_zh), t.slug     # really Chinese
    for t in tax.topics:
        assert t.parent in {a.slug for a in tax.areas}, t.slug
        assert t.terms, f"{t.slug} has no seed terms"
    for a in tax.areas:
        assert tax.children(a.slug), a.slug
    assert tax.leaves("cv") and set(tax.leaves("cv")) <= {t.slug for t in tax.topics}
    assert tax.leaves("3d-vision") == ["3d-vision"] and tax.leaves("nope") == []


@pytest.mark.parametrize("toml, error", [
    ('[[area]]\nslug="a"\nen="A"\nzh="甲"\ndesc_en="x"\ndesc_zh="乙"\n'
     '[[topic]]\nslug="t"\nparent="b"\nen="T"\nzh="丙"\ndesc_en="x"\ndesc_zh="丁"\n', "unknown parent"),
    ('[[area]]\nslug="a"\nen="A"\nzh="甲"\ndesc_en="x"\ndesc_zh="乙"\n'
     '[[topic]]\nslug="a"\nparent="a"\nen="T"\nzh="丙"\ndesc_en="x"\ndesc_zh="丁"\n', "duplicate slug"),
    ('[[area]]\nslug="a"\nen="A"\nzh=""\ndesc_en="x"\ndesc_zh="乙"\n'
     '[[topic]]\nslug="t"\nparent="a"\nen="T"\nzh="丙"\ndesc_en="x"\ndesc_zh="丁"\n', "empty zh"),
    ('[[area]]\nslug="A b"\nen="A"\nzh="甲"\ndesc_en="x"\ndesc_zh="乙"\n', "bad slug"),
    ('[[area]]\nslug="a"\nen="A"\nzh="甲"\ndesc_en="x"\ndesc_zh="乙"\n', "has no topics"),
    ('[[area]]\nslug="a"\nen="A"\ndesc_en="x"\ndesc_zh="乙"\n', "missing zh"),
])
def test_malformed_taxonomies_are_refused(toml: str, error: str) -> None:
    with pytest.raises(TaxonomyError, match=error):
        parse(toml)


def test_folding_is_shared_by_terms_and_texts() -> None:
    assert tokens("Studies of Graph Neural Networks, GANs and LLMs; focus, analysis, glass") == [
        "study", "of", "graph", "neural", "network", "gan", "and", "llm", "focus", "analysis", "glass"]


def test_longer_terms_hide_the_shorter_terms_inside_them() -> None:
    m = Matcher(taxonomy())
    found = {m.terms[i].joined.strip(): c
             for i, c in m.counts("offline reinforcement learning from logs", False).items()}
    assert "offline reinforcement learning" in found and "reinforcement learning" not in found


def doc(title: str, abstract: str = "", keywords: list[str] | None = None,
        area: str | None = None) -> TopicDoc:
    return TopicDoc("x", "neurips", 2024, title, abstract, area, keywords or [])


@pytest.mark.parametrize("title, abstract, main", [
    ("Denoising Diffusion Probabilistic Models", "We present high quality image synthesis results using "
     "diffusion probabilistic models, a class of latent variable models.", "diffusion-models"),
    ("Proximal Policy Optimization Algorithms", "We propose a new family of policy gradient methods for "
     "reinforcement learning.", "reinforcement-learning"),
    ("Conservative Q-Learning for Offline Reinforcement Learning", "Offline reinforcement learning from "
     "previously collected datasets without interaction.", "offline-imitation-learning"),
    ("Semi-Supervised Classification with Graph Convolutional Networks", "We present a scalable approach for "
     "semi-supervised learning on graph-structured data.", "graph-learning"),
    ("NeRF: Representing Scenes as Neural Radiance Fields for View Synthesis", "", "3d-vision"),
    ("Chain-of-Thought Prompting Elicits Reasoning in Large Language Models",
     "We explore how generating a chain of thought improves the ability of large language models "
     "to perform complex reasoning.", "llm-reasoning"),
    ("Direct Preference Optimization: Your Language Model is Secretly a Reward Model",
     "Aligning language models with human preferences usually uses RLHF.", "alignment-safety"),
    ("Deep Residual Learning for Image Recognition", "", "visual-recognition"),
    ("Communication-Efficient Learning of Deep Networks from Decentralized Data",
     "We advocate federated learning.", "federated-learning"),
    ("Attention Is All You Need", "The dominant sequence transduction models are based on recurrent neural "
     "networks. We propose the Transformer, based solely on attention mechanisms, "
     "for machine translation.", "architectures"),
    ("Highly accurate protein structure prediction", "", "molecules-proteins"),
    ("wav2vec 2.0: Self-Supervised Learning of Speech Representations", "", "speech"),
    ("Fourier Neural Operator for Parametric Partial Differential Equations", "", "scientific-ml"),
    ("Towards Deep Learning Models Resistant to Adversarial Attacks", "", "adversarial-robustness"),
    ("Path Guiding for Monte Carlo Rendering of Global Illumination", "", "graphics-animation"),
    ("Physics-Based Character Animation with Cloth Simulation", "", "graphics-animation"),
    # "programming" and "pose estimation" name other topics inside longer terms
    ("Learning-Augmented Algorithms for Online Linear and Semidefinite Programming", "", "optimization"),
    ("Real-Time 6D Object Pose Estimation on CPU", "", "3d-vision"),
])
def test_papers_get_the_topic_their_words_say(title: str, abstract: str, main: str) -> None:
    got = Assigner().choose(Assigner().evidence(doc(title, abstract)))
    assert got and got[0][0] == main, got
    assert 1 <= len(got) <= 3 and all(0 < s < 1 for _, s in got)


def test_titles_alone_give_topics_and_nothing_gives_none() -> None:
    a = Assigner()
    assert a.choose(a.evidence(doc("Graph Neural Networks for Molecule Generation")))
    assert a.choose(a.evidence(doc("On the Number of Things"))) == []


def test_primary_area_and_keywords_are_evidence() -> None:
    a = Assigner()
    plain = doc("A Study of Stuff")
    assert a.choose(a.evidence(plain)) == []
    with_area = a.choose(a.evidence(doc("A Study of Stuff", area="reinforcement learning")))
    assert with_area and with_area[0][0] == "reinforcement-learning"
    with_kw = a.choose(a.evidence(doc("A Study of Stuff", keywords=["continual learning"])))
    assert with_kw and with_kw[0][0] == "continual-learning"


def test_a_primary_area_naming_a_specific_topic_makes_it_the_main_one() -> None:
    a = Assigner()
    text = ("Graph Neural Networks for Molecules",
            "Message passing graph neural networks on molecular graphs.")
    assert a.choose(a.evidence(doc(*text)))[0][0] != "reinforcement-learning"
    got = a.choose(a.evidence(doc(*text, area="reinforcement learning")))
    assert got[0][0] == "reinforcement-learning" and len(got) >= 2     # the words' topics follow
    # a generic topic named by the area (benchmarks) yields to what the paper is about
    bench = a.choose(a.evidence(doc(*text, area="datasets and benchmarks")))
    assert bench[0][0] != "datasets-benchmarks"


def test_learned_multipliers_scale_the_terms_they_name() -> None:
    from paperlist.topics.evidence import parse_weights

    tax = taxonomy()
    plain = dict(Matcher(tax).evidence("federated learning with clients", 1.0, False))
    text = "# comment\nfederated learning\tfederated-learning\t2.500\nclient\tfederated-learning\t0.5\n"
    scaled = Matcher(tax, parse_weights(text))
    got = dict(scaled.evidence("federated learning with clients", 1.0, False))
    by_words = {" ".join(scaled.terms[i].words): (plain[i], v) for i, v in got.items()}
    assert by_words["federated learning"][1] == pytest.approx(2.5 * by_words["federated learning"][0])
    assert by_words["client"][1] == pytest.approx(0.5 * by_words["client"][0])
    # the assigner takes them from text; "" means the hand-set weights alone
    assert Assigner(weights="").matcher.terms[0].weight == Matcher(tax).terms[0].weight


def test_fitting_prefers_the_acceptable_topic_within_bounds_and_round_trips(tmp_path: Path) -> None:
    from paperlist.topics.evidence import parse_weights
    from paperlist.topics.learn import BOUND, Features, fit, save

    # terms 0 and 1 speak for topics 0 and 1; term 2 for topic 2, which no label accepts. Papers
    # using both 0 and 1 are labelled topic 1: term 1 must come to outweigh term 0.
    f = Features([], [], [], [])
    for p in range(40):
        for term in (0, 1):
            f.paper.append(p)
            f.term.append(term)
            f.value.append(1.0)
        f.ok.append(frozenset({1}))
    f.paper.append(40)
    f.term.append(2)
    f.value.append(1.0)
    f.ok.append(frozenset({0}))
    theta = fit(f, [0, 1, 2], 3, epochs=200)
    assert theta[1] > 0 > theta[0] and all(abs(t) <= BOUND + 1e-9 for t in theta)
    assert min(theta[:2]) <= theta[2] <= max(theta[:2])      # an unjudged topic's term moves with the rest
    tax = taxonomy()
    m = Matcher(tax)
    out = tmp_path / "w.tsv"
    th = [0.0] * len(m.terms)
    th[3] = 0.5
    assert save(out, m, tax, th) == 1
    assert parse_weights(out.read_text()) == {(" ".join(m.terms[3].words), tax.topics[m.terms[3].topic].slug):
                                              pytest.approx(2.718 ** 0.5, rel=1e-3)}


def test_labels_split_and_blinding() -> None:
    from paperlist.taxonomy import taxonomy
    from paperlist.topics.source_labels import KEYWORDS, blind, held_out, label

    ids = [f"p{i}" for i in range(2000)]
    share = sum(map(held_out, ids)) / len(ids)
    assert 0.2 < share < 0.3 and [held_out(i) for i in ids] == [held_out(i) for i in ids]
    # a label accepts what the area and every mapped keyword accept
    d = doc("x", keywords=["diffusion models", "misc", "Parameter-Efficient Fine-Tuning"],
            area="Reinforcement learning")
    lab = label(d)
    assert lab is not None and lab.kind == "area" and lab.names == ("reinforcement learning",
                                                                    "diffusion models",
                                                                    "parameter-efficient fine-tuning")
    assert ({"reinforcement-learning", "diffusion-models", "efficient-ml"} <= lab.ok
            and "graph-learning" not in lab.ok)
    assert blind(d).primary_area is None and blind(d).keywords == [] and blind(d).title == d.title
    kw = label(doc("x", keywords=["Diffusion Models"]))
    assert kw is not None and kw.kind == "keyword" and "diffusion-models" in kw.ok
    # track sub-areas (IJCAI) are read by their last part
    sub = label(doc("x", keywords=["Machine Learning: ML: Federated Learning"]))
    assert sub is not None and "federated-learning" in sub.ok
    assert label(doc("x", keywords=["misc", "Machine Learning: General"])) is None
    slugs = set(taxonomy().by_slug)
    assert all(ok and ok <= slugs for ok in KEYWORDS.values())      # no typo in the hand-made table


def test_assign_stores_counts_and_skips_when_current(search_home: Path) -> None:
    from paperlist.topics.build import assign_topics, is_current

    store = Store(search_home / "paperlist.db")
    assert is_current(store, search_home)
    assert assign_topics(store, search_home, force=False).skipped
    rep = assign_topics(store, search_home)
    assert rep.papers >= 30 and rep.with_topics >= rep.papers * 0.6 and rep.rows >= rep.with_topics
    pid = next(i for i, t, *_ in store.plain_titles()
               if t == "Denoising Diffusion Models Are Strong Learners")
    assert store.paper_topics(pid)[0][0] == "diffusion-models"
    ov = overview(store)
    gen = next(a for a in ov if a["slug"] == "generative")
    assert gen["papers"] >= 1 and any(t["slug"] == "diffusion-models" and t["papers"] for t in gen["topics"])
    d = topic_detail(store, "generative")
    assert d is not None and d["is_area"] and "diffusion-models" in d["leaves"] and d["papers"] >= 1
    assert topic_detail(store, "no-such-topic") is None
    # what each topic's page counts is stored with the assignments (issue 46 item 1: a topic page
    # counted them on its first visit, ~0.6 s on the full corpus) and read back exactly
    tax = taxonomy()
    assert all(stored_detail(store, t.slug) == topic_detail(store, t.slug) for t in (*tax.areas, *tax.topics))
    # and not once the topics they were counted from are replaced
    store.replace_topics(iter([]), "another fingerprint")
    assert stored_detail(store, "generative") is None
    assign_topics(store, search_home)
    assert stored_detail(store, "generative") == topic_detail(store, "generative")


def test_topic_pages_read_published_papers_in_index_order(search_home: Path) -> None:
    """Issue 46 item 1: a topic page filtered published papers through the set of rejected ids on
    every request; the flag is copied into the assignments, and a topic's page is read in the order
    of its index (no sort, no join)."""
    store = Store(search_home / "paperlist.db", readonly=True)
    rejected = {r[0] for r in store.db.execute("SELECT id FROM papers WHERE accepted = 0")}
    flags = dict(store.db.execute("SELECT paper_id || ' ' || topic, published FROM paper_topics").fetchall())
    assert flags and all(v == (k.split()[0] not in rejected) for k, v in flags.items())
    plan = " ".join(r[3] for r in store.db.execute(
        "EXPLAIN QUERY PLAN SELECT paper_id FROM paper_topics WHERE topic IN (?) AND published = 1"
        " ORDER BY year DESC, rank, score DESC, paper_id LIMIT 20", ("diffusion-models",)))
    assert "paper_topics_page" in plan
    # an area's pages, read year by year, are the pages of one grouped query
    leaves = taxonomy().leaves("generative")
    d = topic_detail(store, "generative")
    assert d is not None
    for offset in (0, 3, 7):
        by_year = [c["id"] for c in store.topic_cards(leaves, offset=offset, limit=5, year_counts=d["years"])]
        assert by_year == [c["id"] for c in store.topic_cards(leaves, offset=offset, limit=5)]


def test_topic_filter_and_facet_in_search(search_home: Path) -> None:
    from paperlist.search import Searcher, SearchRequest

    s = Searcher.open(search_home)
    res = s.search(SearchRequest(q="", topics=["diffusion-models"]))
    assert res.total >= 1 and any("Denoising Diffusion" in h.title for h in res.hits)
    store = Store(search_home / "paperlist.db", readonly=True)
    assert all("diffusion-models" in dict(store.paper_topics(h.id)) for h in res.hits)
    area = s.search(SearchRequest(q="topic:generative"))
    assert area.total >= res.total
    facet = {v.value: v for v in s.search(SearchRequest(q="learning")).facets["topic"]}
    assert facet and all(v.count > 0 for v in facet.values())
    assert s.search(SearchRequest(q="", topics=["no-such-topic"])).total == 0


def test_topics_cli(search_home: Path, tmp_path: Path) -> None:
    r = run_cli(search_home, "topics", "list")
    assert r.exit_code == 0 and "diffusion-models" in r.output and "扩散模型" in r.output
    r = run_cli(search_home, "topics", "stats", "--lang", "zh")
    assert r.exit_code == 0 and "计算机视觉" in r.output
    r = run_cli(search_home, "topics", "stats", "--json", "--venue", "iclr")
    assert r.exit_code == 0 and '"slug"' in r.output
    for cmd in (["topics", "--help"], ["topics", "assign", "--help"], ["embed", "--help"]):
        assert run_cli(search_home, *cmd).exit_code == 0


def test_ingest_assigns_topics_before_indexing(tmp_path: Path) -> None:
    from tests.conftest import PAPERCOPILOT

    home = tmp_path / "h"
    r = run_cli(home, "ingest", str(PAPERCOPILOT))
    assert r.exit_code == 0, r.output
    assert "topics:" in r.output and "index:" in r.output
    store = Store(home / "paperlist.db", readonly=True)
    assert store.topics_fingerprint() and sum(1 for _ in store.iter_paper_topics()) > 0


def test_parallel_assignment_equals_one_process(search_home: Path) -> None:
    """The worker processes (used on large stores, each reading its own range of ids) give exactly
    what one process gives."""
    from paperlist.topics.assign import assign_all, assign_store

    store = Store(search_home / "paperlist.db", readonly=True)
    one = [(a.paper_id, a.venue, a.year, a.topics) for a in assign_all(store.iter_topic_docs())]
    two = [(a.paper_id, a.venue, a.year, a.topics) for a in assign_store(store, jobs=2, parallel_min=1)]
    assert len(one) == len(store.paper_ids()) >= 30 and sum(bool(t) for *_, t in one) >= len(one) * 0.6
    assert two == one


def _probe_docs() -> list[TopicDoc]:
    """Labelled papers whose titles carry a word no seed term has ("quokka" in those filed under
    reinforcement learning, "wombat" in those under graphs), and unlabelled papers to decide."""
    docs = []
    for i in range(110):
        docs.append(TopicDoc(f"r{i:03}", "iclr", 2022, f"The quokka method {i} revisited",
                             "We study quokka estimators.", "Reinforcement learning"))
        docs.append(TopicDoc(f"g{i:03}", "iclr", 2022, f"The wombat approach {i} revisited",
                             "We study wombat estimators.", "Learning on graphs"))
    both = "Graph neural networks and reinforcement learning"
    docs += [TopicDoc("x-q", "icml", 2023, f"{both} for quokka", "", None),
             TopicDoc("x-w", "icml", 2023, f"{both} for wombat", "", None),
             TopicDoc("y-q", "icml", 2023, "Quokka estimators revisited", "", None)]
    return docs


def test_text_probe_carries_source_labels_to_unlabelled_papers() -> None:
    """The text probe learns from labelled papers which words mean which topic, words the seed
    terms do not know: an unlabelled paper whose seed terms fit two topics equally gets the one its
    other words share with the labelled papers, and a paper no seed term matches gets a topic the
    probe is confident of. Without the probe (or with too few labelled papers) the words tie."""
    from paperlist.topics.assign import assign_all
    from paperlist.topics.textprobe import fit_text_probe, text_probe_from_docs

    a = Assigner()
    docs = _probe_docs()
    tp = text_probe_from_docs(a, docs)
    assert tp is not None and tp.examples == 220
    p = tp.proba([d for d in docs if d.id.startswith(("x", "y"))])
    rl, graph = a.index["reinforcement-learning"], a.index["graph-learning"]
    assert p[0, rl] > 0.8 and p[1, graph] > 0.8 and p[2, rl] > 0.8
    assert abs(float(p.sum(axis=1)[0]) - 1) < 1e-4
    main = {x.paper_id: x.topics[0][0] if x.topics else None for x in assign_all(docs, assigner=a)}
    assert main["x-q"] == "reinforcement-learning" and main["x-w"] == "graph-learning"
    assert main["y-q"] == "reinforcement-learning"
    words = {x.paper_id: x.topics[0][0] if x.topics else None
             for x in assign_all(docs, assigner=a, text_probe=None)}
    assert words["x-q"] == words["x-w"] and words["y-q"] is None
    assert fit_text_probe([(d, a.index["reinforcement-learning"]) for d in docs[:50]],
                          len(a.tax.topics)) is None
    assert fit_text_probe([(d, rl) for d in docs], len(a.tax.topics)) is None        # one topic only
    # the source's own area still decides a labelled paper's main topic
    filed = TopicDoc("z", "iclr", 2022, "The quokka method revisited", "", "Learning on graphs")
    assert (next(x for x in assign_all([*docs, filed], assigner=a) if x.paper_id == "z").topics[0][0]
            == "graph-learning")


def test_parallel_assignment_with_the_text_probe_equals_one_process(tmp_path: Path) -> None:
    """The workers fork twice (word evidence, then the fitted text probe's): same topics as one
    process, and the probe made its difference there too."""
    import hashlib

    from paperlist.ingest import merge_pending
    from paperlist.models import Record
    from paperlist.store import encode_record
    from paperlist.topics.assign import assign_all, assign_store

    store = Store(tmp_path / "paperlist.db")
    recs = [Record(source="test", file="test/probe.json", key=d.id, venue=d.venue, year=d.year, title=d.title,
                   abstract=d.abstract or None, primary_area=d.primary_area) for d in _probe_docs()]
    store.replace_file_records("test/probe.json", "test", "test/probe.json",
                               hashlib.sha256(b"p").hexdigest(), 1, [encode_record(r) for r in recs], 0)
    merge_pending(store)
    titles = {d.id: d.title for d in store.iter_topic_docs()}
    one = [(titles[x.paper_id], x.topics) for x in assign_all(store.iter_topic_docs())]
    two = [(titles[x.paper_id], x.topics) for x in assign_store(store, jobs=2, parallel_min=1)]
    assert two == one and len(one) == 223
    both = "Graph neural networks and reinforcement learning"
    assert dict(one)[f"{both} for quokka"][0][0] == "reinforcement-learning"
    assert dict(one)[f"{both} for wombat"][0][0] == "graph-learning"


def test_label_shift_moves_probe_probabilities_to_the_corpus_mix() -> None:
    """The labelled papers' topic mix is not the corpus's: a probe that only knows the training
    mix, corrected fully (alpha 1), gives the corpus mix; the tempered default moves halfway (in
    log odds); topics missing on either side are left alone; no correction leaves p unchanged."""
    import numpy as np

    from paperlist.topics.probe import PRIOR_ALPHA, label_shift, shifted

    train, corpus = [90, 10, 0, 5], [50, 50, 7, 0]
    prior = np.array([[90, 10, 0, 5]], dtype=np.float32) / 105
    full = shifted(prior.copy(), label_shift(train, corpus, alpha=1.0))
    assert np.allclose(full[0, :2] / full[0, :2].sum(), [0.5, 0.5], atol=1e-6)
    f = label_shift(train, corpus)
    assert f[1] > 1 > f[0] and f[2] == 1 and f[3] == 1 and 0 < PRIOR_ALPHA < 1
    half = shifted(prior.copy(), f)
    assert 0.1 < half[0, 1] / half[0, :2].sum() < 0.5 and abs(float(half.sum()) - 1) < 1e-6
    assert np.array_equal(shifted(prior.copy(), None), prior)
    assert np.array_equal(label_shift([0, 0], [1, 2]), np.ones(2, dtype=np.float32))


def test_label_shift_leaves_the_labelling_venue_years_alone() -> None:
    """The venue-years whose sources label papers already have the probes' training mix: only
    the others are shifted, and the corpus mix is theirs."""
    import numpy as np

    from paperlist.topics.probe import corpus_mix, labelling_groups, shifted

    docs = [TopicDoc(f"p{i}", "iclr" if i < 10 else "cvpr", 2024, "t", "", None) for i in range(20)]
    ev = [(d, {0: 1.0} if d.venue == "iclr" else {1: 2.0, 0: 1.0}, None) for d in docs]
    confirmed = [0 if i < 3 else None for i in range(20)]          # 3 of 10 ICLR papers labelled
    groups = labelling_groups([(d.venue, d.year) for d in docs], confirmed)
    assert groups == frozenset({("iclr", 2024)})
    mix = corpus_mix(4, ev, groups)
    assert mix[1] == 10 and mix[0] == 0 and sum(mix) == 10
    p = np.array([[0.5, 0.5], [0.5, 0.5]], dtype=np.float32)
    out = shifted(p, np.array([1.0, 3.0], dtype=np.float32), np.array([False, True]))
    assert np.allclose(out[0], [0.5, 0.5]) and np.allclose(out[1], [0.25, 0.75])


def test_text_probe_cache_is_kept_until_the_examples_change_enough(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A fitted probe is kept in the home: the same examples load it (same probabilities, no fit),
    and so do examples that changed by at most REFIT_SHARE (a small update keeps every other
    paper's topics as they were); more change, an old probe or an unreadable file refit it."""
    import numpy as np

    from paperlist.topics import textprobe
    from paperlist.topics.probe import confirmed

    a = Assigner()
    docs = _probe_docs()
    examples = [(d, confirmed(a, d, a.evidence(d))) for d in docs]
    cache = tmp_path / textprobe.CACHE_FILE
    first = textprobe.fit_text_probe(examples, len(a.tax.topics), cache=cache)
    assert first is not None and cache.exists()
    stamp = cache.stat().st_mtime_ns
    fits: list[int] = []
    real_fit = textprobe._fit

    def counted_fit(pairs: list[tuple[str, str, int]], n_topics: int) -> textprobe.TextProbe | None:
        fits.append(1)                                              # counts, still fits
        return real_fit(pairs, n_topics)

    monkeypatch.setattr(textprobe, "_fit", counted_fit)
    again = textprobe.fit_text_probe(examples, len(a.tax.topics), cache=cache)
    assert again is not None and fits == [] and cache.stat().st_mtime_ns == stamp
    assert np.allclose(again.proba(docs[-3:]), first.proba(docs[-3:]))
    labelled = sum(1 for _, t in examples if t is not None)
    fewer = examples[2:]                                            # 2 of 220: kept
    kept = textprobe.fit_text_probe(fewer, len(a.tax.topics), cache=cache)
    assert kept is not None and kept.examples == labelled and fits == []
    assert np.allclose(kept.proba(docs[-3:]), first.proba(docs[-3:]))
    much_fewer = examples[int(labelled * textprobe.REFIT_SHARE) + 5:]      # beyond the share: refit
    changed = textprobe.fit_text_probe(much_fewer, len(a.tax.topics), min_examples=50, cache=cache)
    assert changed is not None and changed.examples < labelled and fits == [1]
    later = time.time() + (textprobe.REFIT_DAYS + 1) * 86400                # a month on: refit
    monkeypatch.setattr(textprobe.time, "time", lambda: later)
    assert textprobe.fit_text_probe(much_fewer, len(a.tax.topics), min_examples=50,
                                    cache=cache) is not None and fits == [1, 1]
    cache.write_bytes(b"not a pickle")
    assert textprobe.fit_text_probe(fewer, len(a.tax.topics), cache=cache) is not None and fits == [1, 1, 1]
    assert textprobe.fit_text_probe(fewer, len(a.tax.topics), cache=cache) is not None and fits == [1, 1, 1]
    assert not list(tmp_path.glob("*.tmp"))
