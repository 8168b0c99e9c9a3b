"""Topic quality and speed: precision of the main topic on papers whose source labels them.

The labels are built independently of the assigner: a hand-made table below maps source primary
areas (OpenReview, AAAI/IJCAI tracks) and common author keywords to the set of our topics that a
paper so labelled may rightly have as its main topic. A paper counts as correct when its main topic
is in that set. To keep it honest, the assigner is run *without* the input the label came from
(no primary area for area labels, no keywords for keyword labels): what is measured is what the
text alone (title and abstract) gives, as for the ~93% of papers that have neither.

    python benchmarks/topics_eval.py --home /tmp/topics-home [--sample 3000] [--show 20]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter, defaultdict
from pathlib import Path

from paperlist.index.vectors import VectorIndex
from paperlist.store import Store, TopicDoc
from paperlist.topics import taxonomy
from paperlist.topics.assign import Assigner, assign_all

LLM = {"large-language-models", "llm-reasoning", "llm-agents", "alignment-safety", "question-answering-retrieval",
       "code-generation", "efficient-ml", "architectures", "vision-language"}
SAFETY = {"alignment-safety", "fairness-ethics", "privacy", "adversarial-robustness", "interpretability"}
RLS = {"reinforcement-learning", "offline-imitation-learning", "multi-agent-game-theory", "bandits-online-learning"}
PLAN = {"planning-search", "optimization", "multi-agent-game-theory"}


# Cross-cutting method topics: a paper in a domain track (say AAAI's "Computer Vision") whose main
# topic is the method it contributes (few-shot learning, pruning, adversarial robustness) is right.
METHODS = {"representation-learning", "transfer-learning", "few-shot-meta-learning", "continual-learning",
           "weak-supervision", "federated-learning", "efficient-ml", "architectures", "anomaly-ood-detection",
           "adversarial-robustness", "interpretability", "privacy", "fairness-ethics", "datasets-benchmarks",
           "classical-ml", "generative-models", "diffusion-models", "graph-learning"}


def area_leaves(*areas: str) -> set[str]:
    tax = taxonomy()
    return {t.slug for a in areas for t in tax.children(a)}


# primary area (lower case, prefix match) -> acceptable main topics. Broad areas ("Machine
# Learning", "general machine learning", "datasets and benchmarks", "Application Domains") are left
# out: any topic is right for them, so they measure nothing.
AREAS: list[tuple[str, set[str]]] = [
    ("reinforcement learning", RLS | {"robot-learning"}),
    ("learning theory", {"learning-theory", "bandits-online-learning", "optimization"}),
    ("optimization", {"optimization", "learning-theory"}),
    ("generative models", {"diffusion-models", "generative-models", "image-generation"}),
    ("probabilistic methods", {"probabilistic-methods", "causal-inference"}),
    ("causal reasoning", {"causal-inference"}),
    ("interpretability and explainable ai", {"interpretability"}),
    ("alignment, fairness, safety, privacy", SAFETY),
    ("societal considerations including fairness", SAFETY),
    ("learning on graphs", {"graph-learning"}),
    ("applications to physical sciences", {"molecules-proteins", "scientific-ml"}),
    ("applications to neuroscience", {"neuroscience-cognition"}),
    ("applications to robotics", area_leaves("robotics") | RLS | {"planning-search"}),
    ("transfer learning, meta learning", {"transfer-learning", "few-shot-meta-learning", "continual-learning"}),
    ("foundation or frontier models", LLM),
    ("unsupervised, self-supervised", {"representation-learning", "weak-supervision", "few-shot-meta-learning",
                                      "transfer-learning", "classical-ml"}),
    ("computer vision", area_leaves("cv") | METHODS),
    ("natural language processing", area_leaves("nlp") | {"speech"} | METHODS),
    ("speech and natural language processing", area_leaves("nlp", "speech-audio") | METHODS),
    ("game theory and economic", {"multi-agent-game-theory"}),
    ("agent-based and multi-agent", {"multi-agent-game-theory", "llm-agents", "reinforcement-learning",
                                     "planning-search"}),
    ("multiagent systems", {"multi-agent-game-theory", "llm-agents", "reinforcement-learning", "planning-search"}),
    ("planning", PLAN), ("search", PLAN), ("constraint", PLAN), ("heuristic search", PLAN),
    ("knowledge representation and reasoning", {"knowledge-graphs", "logic-neurosymbolic", "llm-reasoning",
                                                "probabilistic-methods", "causal-inference"}),
    ("data mining", area_leaves("graphs-data") | METHODS),
    ("reasoning under uncertainty", {"probabilistic-methods", "causal-inference"}),
    ("uncertainty in ai", {"probabilistic-methods", "causal-inference"}),
    ("ai ethics, trust, fairness", SAFETY), ("philosophy and ethics of ai", SAFETY),
    ("[content] vision and language", {"vision-language"} | area_leaves("cv") | METHODS),
    ("visualization or interpretation", {"interpretability", "representation-learning"}),
]

# author keyword (lower case, exact) -> acceptable main topics
KEYWORDS: dict[str, set[str]] = {
    "reinforcement learning": RLS | {"robot-learning"}, "deep reinforcement learning": RLS | {"robot-learning"},
    "offline reinforcement learning": {"offline-imitation-learning", "reinforcement-learning"},
    "imitation learning": {"offline-imitation-learning", "robot-learning", "reinforcement-learning"},
    "multi-agent reinforcement learning": {"multi-agent-game-theory", "reinforcement-learning"},
    "graph neural networks": {"graph-learning"}, "graph neural network": {"graph-learning"},
    "diffusion models": {"diffusion-models", "image-generation"}, "diffusion model": {"diffusion-models", "image-generation"},
    "large language models": LLM, "large language model": LLM, "llm": LLM, "llms": LLM,
    "self-supervised learning": {"representation-learning"}, "contrastive learning": {"representation-learning"},
    "interpretability": {"interpretability"}, "explainability": {"interpretability"},
    "mechanistic interpretability": {"interpretability"},
    "adversarial robustness": {"adversarial-robustness"}, "adversarial examples": {"adversarial-robustness"},
    "differential privacy": {"privacy", "federated-learning"}, "federated learning": {"federated-learning", "privacy"},
    "continual learning": {"continual-learning"}, "meta-learning": {"few-shot-meta-learning"},
    "few-shot learning": {"few-shot-meta-learning"}, "domain adaptation": {"transfer-learning"},
    "domain generalization": {"transfer-learning"}, "knowledge distillation": {"efficient-ml"},
    "pruning": {"efficient-ml"}, "quantization": {"efficient-ml"}, "fairness": {"fairness-ethics"},
    "causal inference": {"causal-inference"}, "causal discovery": {"causal-inference"},
    "time series": {"time-series"}, "time series forecasting": {"time-series"},
    "point cloud": {"3d-vision", "autonomous-driving"}, "object detection": {"detection-segmentation", "autonomous-driving"},
    "semantic segmentation": {"detection-segmentation"}, "neural radiance fields": {"3d-vision"},
    "speech recognition": {"speech"}, "machine translation": {"machine-translation"},
    "question answering": {"question-answering-retrieval"}, "recommender systems": {"recommender-systems"},
    "multi-armed bandits": {"bandits-online-learning"}, "bandits": {"bandits-online-learning"},
    "learning theory": {"learning-theory"}, "variational inference": {"probabilistic-methods", "generative-models"},
    "gaussian processes": {"probabilistic-methods"}, "bayesian optimization": {"optimization", "probabilistic-methods"},
    "anomaly detection": {"anomaly-ood-detection"}, "out-of-distribution detection": {"anomaly-ood-detection"},
    "neural architecture search": {"architectures", "efficient-ml"}, "mixture of experts": {"architectures", "efficient-ml"},
    "robotics": area_leaves("robotics"), "autonomous driving": {"autonomous-driving"},
    "protein design": {"molecules-proteins"}, "drug discovery": {"molecules-proteins"},
    "molecular generation": {"molecules-proteins"}, "neural operators": {"scientific-ml"},
    "physics-informed neural networks": {"scientific-ml"}, "alignment": {"alignment-safety"},
    "rlhf": {"alignment-safety"}, "jailbreak": {"alignment-safety"}, "knowledge graph": {"knowledge-graphs"},
    "code generation": {"code-generation"}, "text-to-image": {"image-generation", "diffusion-models"},
    "vision-language models": {"vision-language"}, "multimodal large language models": {"vision-language"},
    "semi-supervised learning": {"weak-supervision"}, "active learning": {"weak-supervision"},
    "optimization": {"optimization"}, "stochastic optimization": {"optimization"},
    "convex optimization": {"optimization"}, "clustering": {"classical-ml"}, "game theory": {"multi-agent-game-theory"},
    "mechanism design": {"multi-agent-game-theory"}, "neuroscience": {"neuroscience-cognition"},
}


def label(doc: TopicDoc) -> tuple[str, str, set[str]] | None:
    """(kind, source label, acceptable topics) from the paper's primary area or keywords."""
    if doc.primary_area:
        pa = doc.primary_area.lower()
        for prefix, ok in AREAS:
            if pa.startswith(prefix):
                return "area", prefix, ok
    for kw in doc.keywords:
        ok = KEYWORDS.get(kw.lower().strip())
        if ok:
            return "keyword", kw.lower().strip(), ok
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--sample", type=int, default=0, help="evaluate a random sample of this size (0 = all)")
    ap.add_argument("--show", type=int, default=0, help="print this many misses")
    ap.add_argument("--vectors", action="store_true", help="let published vectors join the evidence")
    args = ap.parse_args()
    store = Store(args.home / "paperlist.db", readonly=True)

    t0, c0 = time.perf_counter(), time.process_time()
    docs = list(store.iter_topic_docs())
    read_s = time.perf_counter() - t0
    a = Assigner()
    t1, c1 = time.perf_counter(), time.process_time()
    full = list(assign_all(docs, assigner=a))
    print(f"assign, full corpus: {len(docs):,} papers  read {read_s:.1f}s  assign {time.perf_counter() - t1:.1f}s"
          f" wall / {time.process_time() - c1:.1f}s CPU  ({sum(bool(x.topics) for x in full) / len(full):.1%} with topics)")

    labelled = [(d, lab) for d in docs if (lab := label(d)) is not None]
    random.seed(7)
    if args.sample and len(labelled) > args.sample:
        labelled = random.sample(labelled, args.sample)
    vecs = VectorIndex.open(args.home) if args.vectors else None
    for kind in ("area", "keyword"):
        part = [(d, lab) for d, lab in labelled if lab[0] == kind]
        if not part:
            continue
        # hide the labelling input from the assigner
        blind = [TopicDoc(d.id, d.venue, d.year, d.title, d.abstract, None if kind == "area" else d.primary_area,
                          [] if kind == "keyword" else list(d.keywords)) for d, _ in part]
        res = list(assign_all(blind, vectors=vecs, assigner=a, use_area=kind != "area"))
        for subset, name in ((None, "all"), (True, "with abstract"), (False, "title only")):
            rows = [(d, lab, r) for (d, lab), r in zip(part, res) if subset is None or bool(d.abstract) == subset]
            if not rows:
                continue
            hit = sum(1 for _, lab, r in rows if r.topics and r.topics[0][0] in lab[2])
            none = sum(1 for _, _, r in rows if not r.topics)
            print(f"{kind:<8} {name:<14} n={len(rows):>6,}  precision@1 {hit / len(rows):.3f}"
                  f"  (no topic {none / len(rows):.1%}; precision among assigned {hit / max(1, len(rows) - none):.3f})")
        # as the site runs: the assigner also sees the area / keywords (partly circular, shown apart)
        seen = list(assign_all([d for d, _ in part], vectors=vecs, assigner=a))
        hit = sum(1 for (_, lab), r in zip(part, seen) if r.topics and r.topics[0][0] in lab[2])
        any3 = sum(1 for (_, lab), r in zip(part, res) if any(t in lab[2] for t, _ in r.topics))
        print(f"{kind:<8} {'blind, any of 3':<14} n={len(part):>6,}  precision@3 {any3 / len(part):.3f}")
        print(f"{kind:<8} {'as on the site':<14} n={len(part):>6,}  precision@1 {hit / len(part):.3f}"
              f"  (the {kind} is also an input here)")
        per: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        misses: Counter[tuple[str, str]] = Counter()
        examples = []
        for (d, lab), r in zip(part, res):
            ok = bool(r.topics) and r.topics[0][0] in lab[2]
            per[lab[1]][0] += ok
            per[lab[1]][1] += 1
            if not ok:
                misses[(lab[1], r.topics[0][0] if r.topics else "-")] += 1
                examples.append((lab[1], r.topics[:2], d.title[:100]))
        worst = sorted(per.items(), key=lambda kv: kv[1][0] / kv[1][1])[:8]
        print("   weakest labels: " + "; ".join(f"{k} {v[0] / v[1]:.2f} (n={v[1]})" for k, v in worst))
        print("   commonest misses: " + "; ".join(f"{k[0]} -> {k[1]} x{n}" for k, n in misses.most_common(8)))
        for ex in examples[:args.show]:
            print("     ", ex)


if __name__ == "__main__":
    main()
