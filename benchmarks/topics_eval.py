"""Topic quality and speed: precision of the main topic on papers whose source labels them.

The labels are built independently of the assigner: a hand-made table (paperlist/topics/labels.py)
maps source primary areas (OpenReview, AAAI/IJCAI tracks) and common author keywords to the set of
our topics that a paper so labelled may rightly have as its main topic. A paper counts as correct
when its main topic is in that set. To keep it honest, the assigner is run *without* the input the
label came from (no primary area for area labels, no keywords for keyword labels): what is measured
is what the text alone (title and abstract) gives, as for the ~93% of papers that have neither.

Term weights are learned from three quarters of the labelled papers (``paperlist.topics.learn``);
the quarter never learned from (``labels.held_out``) is the headline figure, ``--split all`` shows
every labelled paper. ``--split tune`` is for choosing constants without looking at the held-out
quarter: it measures a third of the training side (``tuning``), the probes learning from the rest. ``--weights ''`` runs the hand-set weights alone.

    python benchmarks/topics_eval.py --home /tmp/topics-home [--split held-out|train|all|tune] [--show 20]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time
from collections import Counter, defaultdict
from pathlib import Path

from paperlist.index.vectorindex import VectorIndex
from paperlist.store import Store
from paperlist.topics.assign import assign_all, centroids
from paperlist.topics.evidence import Assigner
from paperlist.topics.source_labels import blind, held_out, label


def tuning(paper_id: str) -> bool:
    """A third of the training side, for ``--split tune`` (a hash of the id, unlike held_out's)."""
    return not held_out(paper_id) and int(hashlib.sha1(("t" + paper_id).encode()).hexdigest()[:8], 16) % 3 == 0
from paperlist.topics.probe import confirmed, corpus_mix, labelling_groups, probe_from_docs, shift_towards
from paperlist.topics.textprobe import text_probe_from_docs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--sample", type=int, default=0, help="evaluate a random sample of this size (0 = all)")
    ap.add_argument("--show", type=int, default=0, help="print this many misses")
    ap.add_argument("--vectors", action="store_true", help="let published vectors join the evidence")
    ap.add_argument("--split", choices=("held-out", "train", "all", "tune"), default="held-out",
                    help="which labelled papers to measure (weights are learned from the train side)")
    ap.add_argument("--weights", default=None,
                    help="a learned-weights file instead of the packaged one ('' for hand-set weights only)")
    ap.add_argument("--skip-full", action="store_true", help="do not time the assignment of the whole corpus")
    ap.add_argument("--no-text-probe", action="store_true", help="words (and vectors) without the text probe")
    args = ap.parse_args()
    store = Store(args.home / "paperlist.db", readonly=True)

    t0 = time.perf_counter()
    docs = list(store.iter_topic_docs())
    read_s = time.perf_counter() - t0
    a = Assigner(weights=None if args.weights is None else
                 (Path(args.weights).read_text("utf-8") if args.weights else ""))
    t1, c1 = time.perf_counter(), time.process_time()
    full = [] if args.skip_full else list(assign_all(docs, assigner=a, text_probe=None if args.no_text_probe else "fit"))
    if full:
        print(f"assign, full corpus: {len(docs):,} papers  read {read_s:.1f}s  assign {time.perf_counter() - t1:.1f}s"
              f" wall / {time.process_time() - c1:.1f}s CPU  ({sum(bool(x.topics) for x in full) / len(full):.1%} with topics)")

    labelled = [(d, lab) for d in docs if (lab := label(d)) is not None
                and (args.split == "all" or (tuning(d.id) if args.split == "tune" else
                                             held_out(d.id) == (args.split == "held-out")))]
    # never learned from: the measured papers (``--split all`` excepted, which shows the fit)
    unseen = (lambda pid: held_out(pid) or tuning(pid)) if args.split == "tune" else held_out
    print(f"split: {args.split}")
    random.seed(7)
    if args.sample and len(labelled) > args.sample:
        labelled = random.sample(labelled, args.sample)
    vi = VectorIndex.open(args.home) if args.vectors else None
    vecs = vi.current() if vi is not None else None
    # As on the site, the corpus's topic mix (for the probes' label-shift correction) and the topic
    # centroids come from the whole corpus, the measured labelled papers blind (their labels reach
    # neither); the probes learn from the training side only.
    t2 = time.perf_counter()
    ev_all = [(x, *a.scored(x)) for x in (blind(d) if unseen(d.id) and label(d) else d for d in docs)]
    # the venue-years whose sources label papers, as the site sees them (labels not hidden)
    labelling = labelling_groups([(d.venue, d.year) for d in docs],
                                 [confirmed(a, d, a.evidence(d)) if label(d) else None for d in docs])
    mix = corpus_mix(len(a.tax.topics), ev_all, labelling)
    print(f"corpus topic mix (words, {len(labelling)} labelling venue-years left unshifted) in"
          f" {time.perf_counter() - t2:.1f}s")
    tp = None
    if not args.no_text_probe:
        t2 = time.perf_counter()
        tp = text_probe_from_docs(a, docs, keep=lambda pid: not unseen(pid))
        shift_towards(tp, mix, labelling)
        print(f"text probe fitted on {tp.examples if tp else 0:,} training-side labelled papers"
              f" in {time.perf_counter() - t2:.1f}s")
    probe = cent = None
    if vecs is not None:
        t2 = time.perf_counter()
        probe = probe_from_docs(a, docs, vecs, keep=lambda pid: not unseen(pid))
        shift_towards(probe, mix, labelling)
        cent = centroids(a, ev_all, vecs)
        print(f"vectors: {len(vecs):,} papers; probe fitted on {probe.examples if probe else 0:,} training-side"
              f" labelled papers, centroids from all papers, in {time.perf_counter() - t2:.1f}s")
    for kind in ("area", "keyword"):
        part = [(d, lab) for d, lab in labelled if lab.kind == kind]
        if not part:
            continue
        # hide the labelling input from the assigner
        res = list(assign_all([blind(d) for d, _ in part], vectors=vecs, assigner=a, probe=probe, cent=cent,
                                text_probe=tp))
        for subset, name in ((None, "all"), (True, "with abstract"), (False, "title only")):
            rows = [(d, lab, r) for (d, lab), r in zip(part, res) if subset is None or bool(d.abstract) == subset]
            if not rows:
                continue
            hit = sum(1 for _, lab, r in rows if r.topics and r.topics[0][0] in lab.ok)
            none = sum(1 for _, _, r in rows if not r.topics)
            print(f"{kind:<8} {name:<14} n={len(rows):>6,}  precision@1 {hit / len(rows):.3f}"
                  f"  (no topic {none / len(rows):.1%}; precision among assigned {hit / max(1, len(rows) - none):.3f})")
        # as the site runs: the assigner also sees the area / keywords (partly circular, shown apart)
        seen = list(assign_all([d for d, _ in part], vectors=vecs, assigner=a, probe=probe, cent=cent,
                                text_probe=tp))
        hit = sum(1 for (_, lab), r in zip(part, seen) if r.topics and r.topics[0][0] in lab.ok)
        any3 = sum(1 for (_, lab), r in zip(part, res) if any(t in lab.ok for t, _ in r.topics))
        print(f"{kind:<8} {'blind, any of 3':<14} n={len(part):>6,}  precision@3 {any3 / len(part):.3f}")
        print(f"{kind:<8} {'as on the site':<14} n={len(part):>6,}  precision@1 {hit / len(part):.3f}"
              f"  (the {kind} is also an input here)")
        per: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        misses: Counter[tuple[str, str]] = Counter()
        examples = []
        for (d, lab), r in zip(part, res):
            ok = bool(r.topics) and r.topics[0][0] in lab.ok
            per[lab.name][0] += ok
            per[lab.name][1] += 1
            if not ok:
                misses[(lab.name, r.topics[0][0] if r.topics else "-")] += 1
                examples.append((lab.name, r.topics[:2], d.title[:100]))
        worst = sorted(per.items(), key=lambda kv: kv[1][0] / kv[1][1])[:8]
        print("   weakest labels: " + "; ".join(f"{k} {v[0] / v[1]:.2f} (n={v[1]})" for k, v in worst))
        print("   commonest misses: " + "; ".join(f"{k[0]} -> {k[1]} x{n}" for k, n in misses.most_common(8)))
        for ex in examples[:args.show]:
            print("     ", ex)


if __name__ == "__main__":
    main()
