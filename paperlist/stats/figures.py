"""The figures of one conference-year, from its papers (pure: no store, no I/O).

What a researcher reads off a conference-year: how many submissions the sources list and how
they were decided; where review scores exist, how the mean ratings fall by decision, what
mean rating gets in, how ratings and confidences go together; which institutions, countries and
authors have the most accepted papers. Every figure is counted from the papers as merged, so it
can be recomputed from the source files (tests/test_stats_corpus.py does).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from ..models import ACCEPTED_STATUSES, REJECTED_STATUSES, STATUSES
from ..store.rows import StatsPaper
from . import names
from .model import DimensionFigures, Ranked, RankedAuthor, RatingBin, RatingFigures, VenueYearFigures

BIN = 0.5                 # histogram bin width, in rating points
TOP = 20                  # institutions, countries and authors listed
# A listing whose rejected share is below this lists only the rejections authors made public
# (NeurIPS, EMNLP on OpenReview: ~5%), not every submission (ICLR: ~60%).
COMPLETE_REJECTED_SHARE = 0.2
UNKNOWN = "unknown"
STATUS_KEYS = (*STATUSES, UNKNOWN)

Authorship = tuple[str, str, str, str | None]         # (paper id, author key, name, affiliation)


def _r(x: float | None, nd: int = 3) -> float | None:
    return None if x is None else round(x, nd)


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _median(xs: list[float]) -> float | None:
    return float(statistics.median(xs)) if xs else None


def pearson(pairs: list[tuple[float, float]]) -> float | None:
    """Pearson's r of (x, y) pairs; None for fewer than 3 or no spread."""
    if len(pairs) < 3:
        return None
    mx = sum(x for x, _ in pairs) / len(pairs)
    my = sum(y for _, y in pairs) / len(pairs)
    sxy = sum((x - mx) * (y - my) for x, y in pairs)
    sxx = sum((x - mx) ** 2 for x, _ in pairs)
    syy = sum((y - my) ** 2 for _, y in pairs)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else None


def decided_accepted(p: StatsPaper) -> bool:
    """A source says the paper was accepted (an unknown status is not taken for one)."""
    return p["status"] in ACCEPTED_STATUSES


def status_key(p: StatsPaper) -> str:
    return p["status"] or UNKNOWN


def decisions(papers: list[StatsPaper]) -> dict[str, Any]:
    """Counts by decision, the accepted count, and the acceptance rate where it means something."""
    by_status = dict.fromkeys(STATUS_KEYS, 0)
    for p in papers:
        by_status[status_key(p)] += 1
    n = len(papers)
    # accepted means a source says so: a paper of unknown status (or still under review) is neither
    # accepted nor rejected, and the acceptance rate is over the papers whose decision is known
    accepted = sum(by_status[s] for s in ACCEPTED_STATUSES)
    rejected = sum(by_status[s] for s in REJECTED_STATUSES)
    decided = accepted + rejected
    if not rejected:
        listing = "accepted-only"
    elif rejected / decided >= COMPLETE_REJECTED_SHARE:
        listing = "all-submissions"
    else:
        listing = "public-rejections"
    return {"papers": n, "accepted": accepted, "rejected": rejected, "by_status": by_status,
            "listing": listing, "acceptance_rate": _r(accepted / decided, 4) if rejected else None}


def _bins(lo: float, hi: float) -> list[float]:
    start = math.floor(lo / BIN) * BIN
    edges = [start]
    while edges[-1] + BIN <= hi:
        edges.append(round(edges[-1] + BIN, 6))
    return edges


Rated = list[tuple[StatsPaper, float]]      # papers with a mean rating, each with it


def ratings(papers: list[StatsPaper], lists_rejected: bool) -> RatingFigures | None:
    """The review-score figures; None when no paper has a mean rating."""
    rated = [(p, rv.mean) for p in papers if (rv := p["review"]) is not None and rv.mean is not None]
    if not rated:
        return None
    means = [m for _, m in rated]
    by_status: dict[str, list[float]] = {}
    for p, m in rated:
        by_status.setdefault(status_key(p), []).append(m)
    order = [s for s in STATUS_KEYS if s in by_status]
    reviews, pairs, scores = _reviews(rated)
    from_mean, as_of = _provenance(rated)
    accepted = [m for p, m in rated if decided_accepted(p)]
    conf = [c for p, _ in rated if (rv := p["review"]) is not None and (c := rv.confidence_mean) is not None]
    return {
        "papers": len(rated), "without": len(papers) - len(rated),
        "from_source_mean": from_mean, "as_of": as_of,
        "reviews": reviews, "reviews_per_paper": _r(reviews / len(rated), 2) if reviews else None,
        "mean": _r(_mean(means)), "median": _r(_median(means)),
        "accepted_mean": _r(_mean(accepted)), "accepted_median": _r(_median(accepted)),
        "min": min(scores) if scores else _r(min(means)), "max": max(scores) if scores else _r(max(means)),
        "mean_by_status": {s: _r(_mean(by_status[s])) for s in order},
        "median_by_status": {s: _r(_median(by_status[s])) for s in order},
        "papers_by_status": {s: len(by_status[s]) for s in order},
        "confidence_mean": _r(_mean(conf)),
        "rating_confidence_r": _r(pearson(pairs)), "rating_confidence_pairs": len(pairs),
        "histogram": _histogram(rated, order, lists_rejected),
    }


def _reviews(rated: Rated) -> tuple[int, list[tuple[float, float]], list[float]]:
    """The reviews behind the means (a source's mean counts its count), every review's (rating,
    confidence) where both lists are whole, and every single rating."""
    pairs: list[tuple[float, float]] = []
    scores: list[float] = []
    reviews = 0
    for p, _ in rated:
        rv = p["review"]
        assert rv is not None
        reviews += len(rv.ratings) if rv.ratings else (rv.count or 0)   # a source's mean: its count
        if rv.confidences and len(rv.confidences) == len(rv.ratings):
            pairs.extend(zip(rv.ratings, rv.confidences, strict=True))
        scores.extend(rv.ratings)
    return reviews, pairs, scores


def _provenance(rated: Rated) -> tuple[int, dict[str, int]]:
    """How many means are a source's own (no list of reviews), and how many papers' scores are a
    snapshot taken before the decisions, by its date."""
    from_mean = sum(1 for p, _ in rated if (rv := p["review"]) is not None and rv.from_mean)
    as_of = Counter(rv.as_of for p, _ in rated if (rv := p["review"]) is not None and rv.as_of)
    return from_mean, dict(sorted(as_of.items()))


def _histogram(rated: Rated, order: list[str], lists_rejected: bool) -> list[RatingBin]:
    """Papers per BIN of mean rating, by decision, with the acceptance rate where rejections are
    listed."""
    edges = _bins(min(m for _, m in rated), max(m for _, m in rated))
    in_bin: list[Counter[str]] = [Counter() for _ in edges]
    accepted_in_bin = [0] * len(edges)
    for p, m in rated:
        i = min(int((m - edges[0]) / BIN + 1e-9), len(edges) - 1)
        in_bin[i][status_key(p)] += 1
        accepted_in_bin[i] += int(decided_accepted(p))
    return [{"from": e, "to": round(e + BIN, 6), "papers": sum(c.values()), "accepted": a,
             "by_status": {s: c[s] for s in order if c[s]},
             "acceptance_rate": _r(a / sum(c.values()), 4) if lists_rejected and c else None}
            for e, c, a in zip(edges, in_bin, accepted_in_bin, strict=True)]


def dimensions(papers: list[StatsPaper]) -> dict[str, DimensionFigures]:
    """The other score dimensions (soundness, presentation, novelty …): per dimension, the
    papers with it, the mean of their means, and that mean by decision."""
    acc: dict[str, dict[str, list[float]]] = {}
    for p in papers:
        rv = p["review"]
        if rv is None:
            continue
        for dim, vals in rv.dims.items():
            if vals:
                acc.setdefault(dim, {}).setdefault(status_key(p), []).append(sum(vals) / len(vals))
    out: dict[str, DimensionFigures] = {}
    for dim in sorted(acc):
        allv = [x for xs in acc[dim].values() for x in xs]
        out[dim] = {"papers": len(allv), "mean": _r(_mean(allv)),
                    "mean_by_status": {s: _r(_mean(acc[dim][s])) for s in STATUS_KEYS if s in acc[dim]}}
    return out


class InstitutionNames:
    """Folds institution names (cached: the same strings recur across the corpus) and picks each
    folded institution's display name: the fixed one, else the form written most."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[str, str, bool]] = {}
        self._forms: dict[str, Counter[str]] = {}
        self._fixed: dict[str, str] = {}

    def key(self, raw: str) -> str:
        hit = self._cache.get(raw)
        if hit is None:
            hit = self._cache[raw] = names.institution_key(raw) if len(raw) <= 300 else ("", "", False)
        key, display, fixed = hit
        if key:
            if fixed:
                self._fixed[key] = display
            else:
                self._forms.setdefault(key, Counter())[display] += 1
        return key

    def display(self, key: str) -> str:
        if key in self._fixed:
            return self._fixed[key]
        forms = self._forms.get(key)
        return max(forms.items(), key=lambda kv: (kv[1], kv[0]))[0] if forms else key


def _top(counts: dict[str, list[int]], label: Callable[[str], str], n: int = TOP) -> list[Ranked]:
    """The n entries with most accepted papers (then papers, then name), as {name, accepted, papers}."""
    rows = sorted(counts.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0]))[:n]
    return [{"name": label(k), "accepted": a, "papers": t} for k, (a, t) in rows]


def who(papers: list[StatsPaper], authorships: Iterable[Authorship],
        inst: InstitutionNames) -> dict[str, Any]:
    """Top institutions, countries and authors by accepted papers (each paper counts once per
    institution, country or author, however many of its authors share it)."""
    accepted = {p["id"]: decided_accepted(p) for p in papers}
    per_paper_inst: dict[str, set[str]] = {p["id"]: {k for i in p["institutions"] if (k := inst.key(i))}
                                           for p in papers}
    author_counts: dict[str, list[int]] = {}
    author_names: dict[str, Counter[str]] = {}
    seen_author: set[tuple[str, str]] = set()
    for pid, akey, name, aff in authorships:
        if pid not in accepted:
            continue
        if aff:
            for part in aff.split(";"):
                if k := inst.key(part):
                    per_paper_inst[pid].add(k)
        if akey and (pid, akey) not in seen_author:
            seen_author.add((pid, akey))
            ac = author_counts.setdefault(akey, [0, 0])
            ac[0] += int(accepted[pid])
            ac[1] += 1
            author_names.setdefault(akey, Counter())[name] += 1
    inst_counts: dict[str, list[int]] = {}
    for pid, keys in per_paper_inst.items():
        for k in keys:
            ic = inst_counts.setdefault(k, [0, 0])
            ic[0] += int(accepted[pid])
            ic[1] += 1
    country_counts: dict[str, list[int]] = {}
    with_country = 0
    for p in papers:
        cs = {c for raw in p["countries"] if (c := names.country(raw))}
        with_country += bool(cs)
        for c in cs:
            cc = country_counts.setdefault(c, [0, 0])
            cc[0] += int(decided_accepted(p))
            cc[1] += 1
    authors: list[RankedAuthor] = [
        {"key": a["name"], "name": max(author_names[a["name"]].items(), key=lambda kv: (kv[1], kv[0]))[0],
         "accepted": a["accepted"], "papers": a["papers"]} for a in _top(author_counts, lambda k: k)]
    return {
        "institutions": _top(inst_counts, inst.display),
        "institutions_papers": sum(1 for keys in per_paper_inst.values() if keys),
        "countries": _top(country_counts, lambda k: k), "countries_papers": with_country,
        "authors": authors, "authors_papers": len({pid for pid, _ in seen_author}),
    }


def venue_year(papers: list[StatsPaper], authorships: Iterable[Authorship],
               inst: InstitutionNames) -> VenueYearFigures:
    """Every figure of one venue-year."""
    d = decisions(papers)
    w = who(papers, authorships, inst)
    review_sources = Counter(src for p in papers if p["review"] is not None and (src := p["review_source"]))
    return {
        "papers": d["papers"], "accepted": d["accepted"], "rejected": d["rejected"],
        "by_status": d["by_status"], "listing": d["listing"], "acceptance_rate": d["acceptance_rate"],
        "accepted_statuses": [s for s in ACCEPTED_STATUSES if d["by_status"][s]],
        "ratings": ratings(papers, lists_rejected=d["rejected"] > 0), "dimensions": dimensions(papers),
        "review_sources": dict(sorted(review_sources.items())),
        "institutions": w["institutions"], "institutions_papers": w["institutions_papers"],
        "countries": w["countries"], "countries_papers": w["countries_papers"],
        "authors": w["authors"], "authors_papers": w["authors_papers"],
    }


def ranks(papers: list[StatsPaper]) -> list[tuple[int, int, str]]:
    """(rank, rated, paper id) of every rated paper: 1 = the highest mean rating of its
    venue-year; ties share the better rank."""
    rated = sorted(((m, p["id"]) for p in papers
                    if (rv := p["review"]) is not None and (m := rv.mean) is not None), key=lambda t: -t[0])
    out: list[tuple[int, int, str]] = []
    rank = 0
    prev: float | None = None
    for i, (m, pid) in enumerate(rated):
        if m != prev:
            rank, prev = i + 1, m
        out.append((rank, len(rated), pid))
    return out
