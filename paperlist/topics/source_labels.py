"""Source labels as ground truth: which of our topics a paper may rightly have as its main topic,
given what its source says about it — the primary area (OpenReview, AAAI/IJCAI tracks) and the
author keywords (OpenReview) or track sub-areas (IJCAI), each mapped to acceptable topics.

The tables are made by hand, from what the labels mean and independently of the assigner. A
paper's acceptable topics are the union over all of its mapped labels: a paper filed under
"optimization" whose authors also list "parameter-efficient fine-tuning" is rightly about
efficient ML. Broad labels ("Machine Learning", "deep learning", "representation learning",
"robustness", "datasets and benchmarks") are left out: any topic is right for them.

They serve three purposes: measuring the main topic's precision (benchmarks/topics_eval.py),
learning term weights (``learn.py``) on a split of the labelled papers disjoint from the one
measured (both see the paper blind: title and abstract only, every labelled input hidden), and,
on the site, training the vector probe (``probe.py``) that carries the labels to unlabelled papers.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from ..store import TopicDoc
from ..taxonomy import taxonomy

HELD_OUT_EVERY = 4            # one labelled paper in 4 is never learned from


@dataclass(frozen=True, slots=True)
class Label:
    kind: str                 # "area" (the source gives a mapped primary area) or "keyword" (keywords only)
    name: str                 # the first source label (area prefix or keyword), lower case
    ok: frozenset[str]        # topic slugs that may rightly be the paper's main topic
    names: tuple[str, ...] = ()   # every mapped source label


LLM = {"large-language-models", "llm-reasoning", "llm-agents", "alignment-safety",
       "question-answering-retrieval", "code-generation", "efficient-ml", "architectures", "vision-language"}
SAFETY = {"alignment-safety", "fairness-ethics", "privacy", "adversarial-robustness", "interpretability"}
RLS = {"reinforcement-learning", "offline-imitation-learning", "multi-agent-game-theory",
       "bandits-online-learning"}
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


# primary area (lower case, prefix match) -> acceptable main topics
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
    ("transfer learning, meta learning",
     {"transfer-learning", "few-shot-meta-learning", "continual-learning"}),
    ("foundation or frontier models", LLM),
    ("unsupervised, self-supervised", {"representation-learning", "weak-supervision",
                                       "few-shot-meta-learning", "transfer-learning", "classical-ml"}),
    ("computer vision", area_leaves("cv") | METHODS),
    ("natural language processing", area_leaves("nlp") | {"speech"} | METHODS),
    ("speech and natural language processing", area_leaves("nlp", "speech-audio") | METHODS),
    ("game theory and economic", {"multi-agent-game-theory"}),
    ("agent-based and multi-agent", {"multi-agent-game-theory", "llm-agents", "reinforcement-learning",
                                     "planning-search"}),
    ("multiagent systems",
     {"multi-agent-game-theory", "llm-agents", "reinforcement-learning", "planning-search"}),
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

# Author keywords and track sub-areas (lower case; for "track: sub: name" the part after the last
# colon) -> acceptable main topics. Only labels that pin a topic or a few: vague ones are left out.
_KEYWORD_GROUPS: list[tuple[set[str], tuple[str, ...]]] = [
    # reinforcement learning and decisions
    (RLS | {"robot-learning"}, ("reinforcement learning", "deep reinforcement learning", "rl",
                                "policy gradient", "policy optimization", "q-learning",
                                "model-based reinforcement learning", "hierarchical reinforcement learning",
                                "continuous control", "applications of reinforcement learning",
                                "exploration")),
    (RLS | {"learning-theory"}, ("reinforcement learning theory",)),
    (RLS | {"alignment-safety"}, ("safe reinforcement learning",)),
    ({"offline-imitation-learning", "reinforcement-learning"},
     ("offline reinforcement learning", "offline rl", "inverse reinforcement learning")),
    ({"offline-imitation-learning", "robot-learning", "reinforcement-learning"}, ("imitation learning",
                                                                                  "behavior cloning")),
    ({"multi-agent-game-theory", "reinforcement-learning"}, ("multi-agent reinforcement learning",
                                                             "multi-agent learning", "marl")),
    ({"multi-agent-game-theory", "llm-agents", "reinforcement-learning"},
     ("multi-agent", "multi-agent systems")),
    ({"bandits-online-learning"}, ("multi-armed bandits", "bandits", "contextual bandits", "bandit")),
    ({"bandits-online-learning", "learning-theory", "continual-learning"}, ("online learning",)),
    (PLAN | {"reinforcement-learning", "llm-agents"}, ("planning",)),
    (PLAN, ("heuristic search", "combinatorial search and optimisation", "planning algorithms",
            "constraint optimization", "constraint satisfaction", "search and optimisation")),
    (PLAN | RLS | {"probabilistic-methods"}, ("planning under uncertainty",)),
    ({"multi-agent-game-theory"}, ("game theory", "mechanism design", "computational social choice",
                                   "social choice", "voting", "algorithmic game theory",
                                   "noncooperative games", "fair division", "auctions",
                                   "economic paradigms, auctions and market-based systems",
                                   "resource allocation", "coordination and cooperation",
                                   "agent-based simulation and emergence")),
    # generative models
    ({"diffusion-models", "image-generation"}, ("diffusion models", "diffusion model", "diffusion",
                                                "score-based generative models", "denoising diffusion")),
    ({"generative-models", "diffusion-models", "image-generation"}, (
        "generative models", "generative model", "generative modeling", "generative modelling",
        "deep generative models", "flow matching")),
    ({"generative-models", "image-generation"}, ("generative adversarial networks",
                                                 "generative adversarial network", "gan", "gans")),
    ({"generative-models", "probabilistic-methods", "representation-learning"}, (
        "variational autoencoder", "variational autoencoders", "vae", "normalizing flows",
        "energy-based models", "density estimation")),
    ({"image-generation", "diffusion-models", "generative-models"}, (
        "text-to-image", "image generation", "text-to-image generation", "image synthesis", "image editing",
        "image and video synthesis and generation", "video generation")),
    # language models and NLP
    (LLM, ("large language models", "large language model", "llm", "llms", "language models",
           "language model", "language modeling", "foundation models", "foundation model",
           "pretrained language models")),
    ({"llm-reasoning", "large-language-models"}, ("chain-of-thought", "mathematical reasoning",
                                                  "llm reasoning")),
    ({"large-language-models", "llm-reasoning", "few-shot-meta-learning"}, ("in-context learning",)),
    ({"large-language-models", "alignment-safety", "vision-language"}, ("instruction tuning",)),
    ({"efficient-ml", "large-language-models", "transfer-learning", "vision-language"}, (
        "parameter-efficient fine-tuning", "lora", "low-rank adaptation", "prompt tuning",
        "prompt learning", "peft")),
    ({"large-language-models", "alignment-safety", "vision-language", "text-generation"}, ("hallucination",)),
    ({"question-answering-retrieval", "large-language-models"},
     ("retrieval-augmented generation", "rag", "question answering", "open-domain question answering")),
    ({"question-answering-retrieval", "recommender-systems"}, ("information retrieval", "dense retrieval")),
    ({"llm-agents", "large-language-models"}, ("llm agents", "language agents", "tool use",
                                               "autonomous agents", "agents", "llm agent", "web agents")),
    ({"alignment-safety"}, ("alignment", "rlhf", "jailbreak", "red teaming", "jailbreaking")),
    ({"alignment-safety", "reinforcement-learning", "large-language-models"}, (
        "reinforcement learning from human feedback", "preference optimization",
        "direct preference optimization", "dpo", "reward modeling", "reward model", "preference learning")),
    ({"text-generation", "large-language-models"}, ("text generation", "natural language generation",
                                                    "summarization")),
    ({"machine-translation"}, ("machine translation", "neural machine translation")),
    ({"machine-translation", "large-language-models", "linguistics-parsing"}, ("multilingual",)),
    ({"information-extraction"}, ("information extraction", "named entity recognition", "relation extraction",
                                  "event extraction")),
    ({"sentiment-social-nlp"}, ("sentiment analysis",)),
    ({"linguistics-parsing", "code-generation", "question-answering-retrieval"}, ("semantic parsing",)),
    ({"dialogue-systems"}, ("dialogue", "dialogue systems", "dialog systems", "dialog")),
    ({"knowledge-graphs"}, ("knowledge graph", "knowledge graphs", "knowledge graph embedding",
                            "knowledge base")),
    ({"knowledge-graphs", "graph-learning"}, ("link prediction",)),
    ({"code-generation"}, ("code generation", "program synthesis", "code llms")),
    ({"logic-neurosymbolic", "knowledge-graphs"}, (
        "description logics and ontologies", "logics for knowledge representation",
        "knowledge representation languages", "computational complexity of reasoning",
        "reasoning about knowledge and belief", "answer set programming", "neuro-symbolic", "neurosymbolic",
        "learning and reasoning")),
    ({"logic-neurosymbolic", "planning-search"}, ("formal verification, validation and synthesis",)),
    ({"causal-inference", "logic-neurosymbolic", "planning-search"}, ("action, change and causality",)),
    # vision
    ({"detection-segmentation", "autonomous-driving"}, ("object detection",)),
    ({"detection-segmentation", "3d-vision", "autonomous-driving"}, ("3d object detection",)),
    ({"detection-segmentation", "medical-health"}, ("semantic segmentation", "segmentation",
                                                    "instance segmentation")),
    ({"visual-recognition", "detection-segmentation"}, (
        "recognition (object detection, categorization)", "recognition",
        "detection, categorization, indexing, matching, retrieval, semantic interpretation")),
    ({"3d-vision", "autonomous-driving"}, ("point cloud", "point clouds")),
    ({"3d-vision"}, ("neural radiance fields", "nerf", "3d reconstruction", "novel view synthesis",
                     "neural rendering", "3d computer vision", "gaussian splatting",
                     "3d gaussian splatting")),
    ({"3d-vision", "detection-segmentation", "visual-recognition"}, ("scene analysis and understanding",)),
    ({"graphics-animation", "3d-vision"}, ("rendering", "animation", "animation/simulation",
                                           "computer graphics", "fabrication", "geometry processing",
                                           "character animation")),
    ({"video-understanding", "human-centric-vision"}, ("video understanding", "action recognition",
                                                       "video analysis and understanding")),
    ({"low-level-vision"}, ("image restoration", "super-resolution", "image super-resolution",
                            "image denoising", "computational photography")),
    ({"human-centric-vision"}, ("biometrics, face and gesture recognition", "face recognition",
                                "pose estimation", "human pose estimation", "person re-identification")),
    ({"vision-language"}, ("vision-language models", "vision language models",
                           "multimodal large language models", "multimodal large language model",
                           "visual question answering", "clip", "image captioning", "language and vision",
                           "vision and language", "vision-language")),
    # learning settings
    ({"representation-learning"}, ("self-supervised learning", "contrastive learning", "metric learning")),
    ({"representation-learning", "generative-models"}, ("disentanglement",)),
    ({"transfer-learning"}, ("domain adaptation", "domain generalization", "unsupervised domain adaptation",
                             "transfer learning", "multi-task learning", "multitask learning",
                             "transfer, adaptation, multi-task learning",
                             "multi-task and transfer learning")),
    ({"transfer-learning", "anomaly-ood-detection"}, ("test-time adaptation", "distribution shift",
                                                      "out-of-distribution generalization")),
    ({"transfer-learning", "few-shot-meta-learning", "weak-supervision", "representation-learning"}, (
        "transfer, low-shot, semi- and un- supervised learning",)),
    ({"few-shot-meta-learning"}, ("meta-learning", "meta learning", "few-shot learning", "few-shot")),
    ({"few-shot-meta-learning", "transfer-learning", "vision-language"}, ("zero-shot learning",)),
    ({"continual-learning"}, ("continual learning", "lifelong learning", "incremental learning",
                              "catastrophic forgetting", "class-incremental learning")),
    ({"weak-supervision"}, ("semi-supervised learning", "active learning", "label noise", "noisy labels",
                            "weakly supervised learning", "weak supervision", "multi-instance",
                            "positive-unlabeled learning")),
    ({"federated-learning", "privacy"}, ("federated learning",)),
    ({"efficient-ml"}, ("knowledge distillation", "distillation", "pruning", "network pruning",
                        "quantization", "model compression", "efficient inference", "efficient training",
                        "sparse training")),
    ({"architectures", "efficient-ml"}, ("neural architecture search", "mixture of experts", "automl")),
    ({"architectures"}, ("deep learning architectures",)),
    ({"anomaly-ood-detection"}, ("anomaly detection", "out-of-distribution detection", "ood detection",
                                 "outlier detection", "anomaly/outlier detection", "novelty detection")),
    ({"classical-ml"}, ("clustering", "kernel methods", "feature selection", "tabular data")),
    # trustworthy ML
    ({"adversarial-robustness"}, ("adversarial robustness", "adversarial examples", "adversarial attack",
                                  "adversarial attacks", "adversarial training", "adversarial defense",
                                  "certified robustness", "adversarial machine learning", "backdoor attack",
                                  "backdoor attacks", "backdoor", "data poisoning", "poisoning attacks")),
    ({"privacy", "federated-learning"}, ("differential privacy",)),
    ({"privacy"}, ("privacy", "membership inference")),
    ({"privacy", "alignment-safety"}, ("machine unlearning", "unlearning")),
    ({"privacy", "adversarial-robustness"}, ("security and privacy", "security")),
    ({"alignment-safety", "adversarial-robustness"}, ("ai safety", "safety", "safety and robustness")),
    ({"fairness-ethics"}, ("fairness", "algorithmic fairness", "fairness and diversity")),
    ({"interpretability"}, ("interpretability", "explainability", "mechanistic interpretability",
                            "explainable ai", "xai", "feature attribution",
                            "explainable/interpretable machine learning",
                            "explainability and interpretability", "concept bottleneck models")),
    # theory, optimization, probabilistic and causal methods
    ({"learning-theory"}, ("learning theory", "statistical learning theory", "sample complexity",
                           "generalization bounds", "pac-bayes")),
    ({"learning-theory", "optimization"}, ("deep learning theory", "neural tangent kernel", "implicit bias",
                                           "implicit regularization", "overparameterization",
                                           "benign overfitting")),
    ({"optimization"}, ("optimization", "stochastic optimization", "convex optimization",
                        "non-convex optimization", "nonconvex optimization", "stochastic gradient descent",
                        "sgd", "bilevel optimization", "distributed optimization", "variance reduction",
                        "minimax optimization", "zeroth-order optimization", "multi-objective optimization")),
    ({"optimization", "planning-search", "graph-learning"}, ("combinatorial optimization",)),
    ({"optimization", "probabilistic-methods"}, ("bayesian optimization",)),
    ({"architectures", "efficient-ml", "optimization"}, ("hyperparameter optimization",)),
    ({"probabilistic-methods", "generative-models"}, ("variational inference",)),
    ({"probabilistic-methods"}, ("gaussian processes", "gaussian process", "bayesian neural networks",
                                 "bayesian deep learning", "bayesian inference", "mcmc",
                                 "uncertainty quantification", "uncertainty estimation",
                                 "conformal prediction", "calibration", "probabilistic machine learning")),
    ({"causal-inference"}, ("causal inference", "causal discovery", "causality",
                            "causal representation learning", "counterfactual reasoning")),
    # graphs, data and applications
    ({"graph-learning"}, ("graph neural networks", "graph neural network", "gnn", "gnns",
                          "graph representation learning", "graph learning", "graph convolutional networks",
                          "node classification", "graph classification", "message passing", "mining graphs",
                          "graph transformer", "mining graphs, semi structured data, complex data")),
    ({"graph-learning", "time-series"}, ("sequence and graph learning",)),
    ({"recommender-systems"}, ("recommender systems", "recommender system", "recommendation",
                               "collaborative filtering")),
    ({"time-series"}, ("time series", "time series forecasting", "time-series", "forecasting",
                       "time series and data streams", "mining spatial and/or temporal data",
                       "mining spatial, temporal data", "spatio-temporal")),
    ({"web-social-networks", "sentiment-social-nlp"}, ("mining text, web, social media",)),
    ({"molecules-proteins"}, ("protein design", "drug discovery", "molecular generation",
                              "molecular property prediction", "protein structure prediction")),
    ({"scientific-ml"}, ("neural operators", "physics-informed neural networks",
                         "partial differential equations", "pdes", "ai for science")),
    ({"neuroscience-cognition"}, ("neuroscience", "computational neuroscience", "cognitive science",
                                  "spiking neural networks", "cognitive modeling")),
    ({"medical-health", "molecules-proteins"}, ("bio/medicine",)),
    ({"medical-health"},
     ("healthcare", "medical imaging", "medical image segmentation", "biomedical image analysis")),
    ({"speech"}, ("speech recognition", "speech", "automatic speech recognition", "text-to-speech",
                  "speech synthesis")),
    ({"audio-music"}, ("audio", "music", "music generation")),
    (area_leaves("robotics"), ("robotics",)),
    ({"robot-learning", "embodied-navigation"}, ("robot learning", "robotic manipulation", "manipulation",
                                                 "embodied ai")),
    ({"embodied-navigation", "robot-learning"}, ("navigation", "vision-and-language navigation")),
    ({"autonomous-driving"}, ("autonomous driving",)),
]
KEYWORDS: dict[str, frozenset[str]] = {}
for _ok, _names in _KEYWORD_GROUPS:
    for _n in _names:
        assert _n not in KEYWORDS, f"keyword {_n!r} mapped twice"
        KEYWORDS[_n] = frozenset(_ok)


def keyword_topics(keyword: str) -> frozenset[str] | None:
    """Acceptable topics for an author keyword or a track sub-area ("ML: federated learning")."""
    k = keyword.lower().strip()
    return KEYWORDS.get(k) or (KEYWORDS.get(k.rsplit(":", 1)[1].strip()) if ":" in k else None)


def area_topics(primary_area: str) -> tuple[str, frozenset[str]] | None:
    pa = primary_area.lower()
    for prefix, ok in AREAS:
        if pa.startswith(prefix):
            return prefix, frozenset(ok)
    return None


def label(doc: TopicDoc) -> Label | None:
    """The paper's label: the union of what its mapped primary area and keywords accept."""
    names: list[str] = []
    ok: set[str] = set()
    area = area_topics(doc.primary_area) if doc.primary_area else None
    if area:
        names.append(area[0])
        ok |= area[1]
    for kw in doc.keywords:
        topics = keyword_topics(kw)
        if topics and kw.lower().strip() not in names:
            names.append(kw.lower().strip())
            ok |= topics
    if not names:
        return None
    return Label("area" if area else "keyword", names[0], frozenset(ok), tuple(names))


def blind(doc: TopicDoc) -> TopicDoc:
    """The paper as the text alone gives it: no primary area, no keywords (what the assigner has
    for the ~85% of papers whose source gives neither)."""
    return replace(doc, primary_area=None, keywords=[])


def version() -> str:
    """A digest of the tables: topics assigned with vectors depend on them (``probe.py``)."""
    text = repr([(a, sorted(ok)) for a, ok in AREAS]) + repr(sorted((k, sorted(v))
                                                                    for k, v in KEYWORDS.items()))
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def held_out(paper_id: str) -> bool:
    """Whether a paper is on the measured side of the split (stable: a hash of its id)."""
    return int(hashlib.sha1(paper_id.encode()).hexdigest()[:8], 16) % HELD_OUT_EVERY == 0
