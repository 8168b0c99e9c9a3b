"""How far nearest neighbours in embedding space go on topic labels (an experiment, not a feature).

Every labelled paper on the training side of ``labels.held_out`` that has a vector gets a
*confirmed* topic: the best-scoring of its acceptable topics by words alone, blind (its label's
input hidden). Each held-out labelled paper with a vector then takes the similarity-weighted vote
of its K nearest confirmed training papers (cosine), alone or added to its word evidence with a
weight; precision@1 against its acceptable topics is printed per label kind.

    .venv/bin/python benchmarks/topics_knn.py --home /tmp/topics-home [--k 10 25] [--weights 0 2 4]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paperlist.index.vectorindex import VectorIndex
from paperlist.store import Store, TopicDoc
from paperlist.topics.evidence import Assigner
from paperlist.topics.source_labels import Label, blind, held_out, label


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--k", type=int, nargs="+", default=[10, 25])
    ap.add_argument("--weights", type=float, nargs="+", default=[0.0, 2.0, 4.0],
                    help="weight of the vote added to the word evidence (0: words only)")
    args = ap.parse_args()
    vi = VectorIndex.open(args.home)
    if vi is None:
        sys.exit("no published vectors in this home (run 'paperlist embed')")
    vi = vi.current()       # the live generation, read once
    labelled = [(d, lab) for d in Store(args.home / "paperlist.db", readonly=True).iter_topic_docs()
                if d.id in vi.row and (lab := label(d)) is not None]
    train = [x for x in labelled if not held_out(x[0].id)]
    test = [x for x in labelled if held_out(x[0].id)]
    a = Assigner()
    slug = [t.slug for t in a.tax.topics]

    def words(d: TopicDoc, lab: Label) -> dict[str, float]:
        return {slug[i]: v for i, v in a.evidence(blind(d), use_area=False).items()}

    confirmed = []
    for d, lab in train:
        ok = [t for t, _ in sorted(words(d, lab).items(), key=lambda kv: -kv[1]) if t in lab.ok]
        if ok:
            confirmed.append((vi.row[d.id], ok[0]))
    print(f"labelled papers with vectors: {len(labelled):,} (train {len(train):,}, {len(confirmed):,} confirmed; "
          f"held out {len(test):,})")
    train_mat = np.stack([np.asarray(vi.mat[r], dtype=np.float32) for r, _ in confirmed])
    sims = np.stack([np.asarray(vi.mat[vi.row[d.id]], dtype=np.float32) for d, _ in test]) @ train_mat.T
    test_words = [words(d, lab) for d, lab in test]
    for k in args.k:
        near = np.argpartition(-sims, k, axis=1)[:, :k]
        for w in [*args.weights, None]:          # None: the vote alone
            hits: Counter[str] = Counter()
            for q, (d, lab) in enumerate(test):
                vote: Counter[str] = Counter()
                for j in near[q]:
                    vote[confirmed[j][1]] += float(sims[q, j])
                total = sum(vote.values()) or 1.0
                score = {} if w is None else dict(test_words[q])
                if w is None or w > 0:
                    for t, v in vote.items():
                        score[t] = score.get(t, 0.0) + (1.0 if w is None else w) * v / total
                best = max(score.items(), key=lambda kv: kv[1])[0] if score else None
                hits[lab.kind] += best in lab.ok
            n = Counter(lab.kind for _, lab in test)
            name = "vote alone" if w is None else ("words only" if w == 0 else f"words + {w:g} x vote")
            print(f"k={k:<3} {name:<18} " + "  ".join(f"{kind} {hits[kind] / n[kind]:.3f} (n={n[kind]:,})"
                                                   for kind in ("area", "keyword") if n[kind]))


if __name__ == "__main__":
    main()
