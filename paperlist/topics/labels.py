"""Source labels as ground truth: which of our topics a paper may rightly have as its main topic,
given the primary area its source assigns (OpenReview, AAAI/IJCAI tracks) or a common author keyword.

The table is made by hand, independently of the assigner, and serves two purposes: measuring the
main topic's precision (benchmarks/topics_eval.py) and learning term weights (``learn.py``) on a
split of the labelled papers disjoint from the one measured. Broad labels ("Machine Learning",
"datasets and benchmarks", "Application Domains") are left out: any topic is right for them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from ..store import TopicDoc
from .taxonomy import taxonomy

HELD_OUT_EVERY = 4            # one labelled paper in 4 is never learned from


@dataclass(frozen=True, slots=True)
class Label:
    kind: str                 # "area" or "keyword": which input of the paper the label came from
    name: str                 # the source label (area prefix or keyword), lower case
    ok: frozenset[str]        # topic slugs that may rightly be the paper's main topic

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


def label(doc: TopicDoc) -> Label | None:
    """The paper's label from its primary area or, failing that, its keywords."""
    if doc.primary_area:
        pa = doc.primary_area.lower()
        for prefix, ok in AREAS:
            if pa.startswith(prefix):
                return Label("area", prefix, frozenset(ok))
    for kw in doc.keywords:
        ok = KEYWORDS.get(kw.lower().strip())
        if ok:
            return Label("keyword", kw.lower().strip(), frozenset(ok))
    return None


def blind(doc: TopicDoc, kind: str) -> TopicDoc:
    """The paper with the label's own input hidden: no primary area for an area label, no keywords
    for a keyword label (what remains is what the assigner has for most papers)."""
    return replace(doc, primary_area=None) if kind == "area" else replace(doc, keywords=[])


def held_out(paper_id: str) -> bool:
    """Whether a paper is on the measured side of the split (stable: a hash of its id)."""
    return int(hashlib.sha1(paper_id.encode()).hexdigest()[:8], 16) % HELD_OUT_EVERY == 0
