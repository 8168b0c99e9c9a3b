"""How far two raters' judgments of the topical evaluation agree, and what that leaves to measure.

topical_eval.py scores rankings against one rater's grades (0/1/2, judged from title and
abstract). Whether a paper is "squarely about the topic" (2) or "a variant or an application" (1)
is a judgment call, so a second rater grading the same pooled papers blind (the same rubric, the
papers shuffled, the first grades unseen) tells how much of an nDCG@10 is the ranking and how much
is the rater. This prints, per group of queries:

- agreement: the share of papers given the same grade, Cohen's kappa, and the confusion matrix;
- the ceiling: the nDCG@10, under the first rater's grades, of a ranking that is perfect for the
  second (its judged papers in the order of its grades; papers it grades alike in every order,
  averaged exactly), and the other way round. A system can only be told apart from another
  competent judgment of relevance up to about there: a target above it measures the rater's
  taste, not the ranking.

    .venv/bin/python benchmarks/rater_agreement.py [--first benchmarks/topical/judgments.tsv]
        [--second benchmarks/topical/judgments_second.tsv] [--verbose]

The figures of a ranking under the second rater come from ``topical_eval.py --judgments
benchmarks/topical/judgments_second.tsv``.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from topical_eval import HERE, read_tsv  # noqa: E402

Grades = dict[str, dict[str, int]]        # qid -> paper id -> grade


def load(path: Path) -> Grades:
    out: Grades = {}
    for j in read_tsv(path):
        out.setdefault(j["qid"], {})[j["paper_id"]] = int(j["grade"])
    return out


def kappa(pairs: list[tuple[int, int]]) -> float:
    """Cohen's kappa of (first, second) grade pairs: agreement beyond what chance would give."""
    if not pairs:
        return 0.0
    n = len(pairs)
    observed = sum(a == b for a, b in pairs) / n
    fa, fb = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    chance = sum(fa[g] * fb[g] for g in set(fa) | set(fb)) / n ** 2
    return 1.0 if chance == 1 else (observed - chance) / (1 - chance)


def _gain(grade: int) -> float:
    return 2 ** grade - 1


def _discount(i: int) -> float:
    return 1 / math.log2(i + 2)


def expected_ndcg(order_by: dict[str, int], judge: dict[str, int], k: int = 10) -> float:
    """nDCG@k under ``judge`` of the ranking of ``order_by``'s papers by its grades, best first,
    averaged over every order of the papers it grades alike (exactly: each place of a group of
    equals gets the group's mean gain). Papers ``judge`` has not graded count 0."""
    dcg, at = 0.0, 0
    for g in sorted(set(order_by.values()), reverse=True):
        group = [p for p, x in order_by.items() if x == g]
        mean = sum(_gain(judge.get(p, 0)) for p in group) / len(group)
        dcg += mean * sum(_discount(i) for i in range(at, min(at + len(group), k)))
        at += len(group)
        if at >= k:
            break
    ideal = sum(_gain(x) * _discount(i) for i, x in enumerate(sorted(judge.values(), reverse=True)[:k]))
    return dcg / ideal if ideal else 0.0


def groups(queries: list[dict[str, str]]) -> dict[str, list[str]]:
    """Query ids by group: English broad and specific, Chinese, held-out, all."""
    out: dict[str, list[str]] = {}
    for q in queries:
        held = q["qid"].startswith("ho")
        name = "held-out" if held else "zh" if q["lang"] == "zh" else f"en {q['kind']}"
        out.setdefault(name, []).append(q["qid"])
        if not held and q["lang"] == "en":
            out.setdefault("en", []).append(q["qid"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", type=Path, default=HERE / "judgments.tsv")
    ap.add_argument("--second", type=Path, default=HERE / "judgments_second.tsv")
    ap.add_argument("--verbose", action="store_true", help="a line per query")
    args = ap.parse_args()
    first, second = load(args.first), load(args.second)
    queries = [q for f in ("queries.tsv", "heldout.tsv") for q in read_tsv(HERE / f)]
    names = {q["qid"]: q["query"] for q in queries}
    print(f"raters: first {args.first.name} ({sum(map(len, first.values()))} grades), "
          f"second {args.second.name} ({sum(map(len, second.values()))} grades)")
    print(f"{'group':<13} {'n':>3} {'pairs':>6} {'agree':>6} {'kappa':>6}  {'ceiling (2nd->1st)':>18}"
          f"  {'(1st->2nd)':>10}   confusion 1st\\2nd 0/1/2")
    for name, qids in sorted(groups(queries).items(), key=lambda kv: (kv[0] == "held-out", kv[0])):
        qids = [q for q in qids if first.get(q) and second.get(q)]
        if not qids:
            continue
        pairs = [(first[q][p], second[q][p]) for q in qids for p in first[q] if p in second[q]]
        cm = Counter(pairs)
        up = sum(expected_ndcg(second[q], first[q]) for q in qids) / len(qids)
        down = sum(expected_ndcg(first[q], second[q]) for q in qids) / len(qids)
        agree = sum(a == b for a, b in pairs) / max(1, len(pairs))
        matrix = " ".join("/".join(str(cm[(a, b)]) for b in (0, 1, 2)) for a in (0, 1, 2))
        print(f"{name:<13} {len(qids):>3} {len(pairs):>6} {agree:>6.3f} {kappa(pairs):>6.3f}  {up:>18.3f}"
              f"  {down:>10.3f}   {matrix}")
    if args.verbose:
        print(f"\n{'qid':<6} {'query':<40} {'agree':>6} {'ceiling':>8}")
        for q in names:
            if first.get(q) and second.get(q):
                pairs = [(first[q][p], second[q][p]) for p in first[q] if p in second[q]]
                agree = sum(a == b for a, b in pairs) / max(1, len(pairs))
                print(f"{q:<6} {names[q][:40]:<40} {agree:>6.3f} {expected_ndcg(second[q], first[q]):>8.3f}")


if __name__ == "__main__":
    main()
