"""Which records describe the same paper: matching passes over one block's records.

1. strong ids: OpenReview id, ACL Anthology id, DOI, arXiv id, and the address of the paper's
   page at its publisher (CVF, ECVA, PMLR, NeurIPS, AAAI, IJCAI, ACL Anthology);
2. the same title key (plain, folded, letters and digits only);
3. a careful fuzzy fallback: title keys at least 92% alike (96% when authors cannot be compared)
   that share an author surname;
4. the same author list with a renamed title (submission vs camera-ready).

Two records of the same file are never merged (a file lists each paper once), which keeps apart
different papers that share a generic title.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from rapidfuzz import fuzz

from ..models import Record
from ..sources.normalize import link_id
from ..text import plain, title_key, words

STRONG_IDS = ("openreview", "acl", "doi", "arxiv")
_TRUSTED_IDS = ("openreview", "acl")          # joined without comparing titles
FUZZY_MIN = 92.0
FUZZY_MIN_NO_AUTHORS = 96.0


def surnames(rec: Record) -> set[str]:
    out = set()
    for a in rec.authors:
        toks = a.key.split("-")
        if toks:
            out.add(toks[-1])
    return out


class _Clusters:
    """Union-find that refuses to join two clusters holding records of the same file."""

    def __init__(self, recs: list[Record]) -> None:
        self.parent = list(range(len(recs)))
        self.files = [{r.file} for r in recs]

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def can_join(self, a: int, b: int) -> bool:
        ra, rb = self.find(a), self.find(b)
        return ra != rb and not (self.files[ra] & self.files[rb])

    def join(self, a: int, b: int) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb or self.files[ra] & self.files[rb]:
            return False
        lo, hi = min(ra, rb), max(ra, rb)
        self.parent[hi] = lo
        self.files[lo] |= self.files[hi]
        return True


def strong_keys(rec: Record) -> set[tuple[str, str]]:
    """(kind, id) pairs that name one paper: the record's strong ids and its publisher page links."""
    out = {(k, v.lower()) for k, v in rec.ids.items() if k in STRONG_IDS and v}
    for url in rec.links.values():
        if (lid := link_id(url)) is not None:
            out.add(lid)
    return out


def cluster(recs: list[Record]) -> list[list[int]]:
    """Group record indices into papers; ``recs`` must be sorted by (file, key)."""
    cl = _Clusters(recs)
    keys = [title_key(r.title) for r in recs]

    # 1. strong ids, and the publisher pages that name one paper (normalize.link_id)
    _strong(recs, keys, cl)

    # 2. exact title key
    _same_title(recs, keys, cl)

    # 3. fuzzy fallback between clusters that do not share a file
    _fuzzy(recs, keys, cl)

    # 4. the same authors with a renamed title (submission vs camera-ready titles)
    _same_authors(recs, cl)

    out: dict[int, list[int]] = defaultdict(list)
    for i in range(len(recs)):
        out[cl.find(i)].append(i)
    return sorted(out.values())


def _strong(recs: list[Record], keys: list[str], cl: _Clusters) -> None:
    """Join the records that share a strong id or a publisher page. DOI, arXiv and page links also
    need the titles to agree somewhat (sources mis-assign them); DOI and arXiv the authors too."""
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, r in enumerate(recs):
        for key in strong_keys(r):
            groups[key].append(i)
    order = {k: n for n, k in enumerate(STRONG_IDS)}      # trusted ids first, page links last
    for (kind, _), members in sorted(groups.items(), key=lambda kv: (order.get(kv[0][0], 9), kv[0])):
        for i in members[1:]:
            if kind not in _TRUSTED_IDS and fuzz.token_set_ratio(keys[members[0]], keys[i]) < 60:
                continue
            if kind in ("doi", "arxiv") and _author_overlap(recs[members[0]], recs[i]) == 0:
                continue
            cl.join(members[0], i)


def _same_title(recs: list[Record], keys: list[str], cl: _Clusters) -> None:
    """Join the records with the same title key, each to the one with the most authors in common;
    when a file lists the title twice (two papers), never to one whose authors differ entirely."""
    by_key: dict[str, list[int]] = defaultdict(list)
    for i, k in enumerate(keys):
        if k:
            by_key[k].append(i)
    for members in by_key.values():
        if len(members) < 2:
            continue
        per_file = Counter(recs[i].file for i in members)
        ambiguous = max(per_file.values()) > 1
        for i in members[1:]:
            best = _best_title_mate(recs, cl, members, i, ambiguous)
            if best is not None:
                cl.join(best, i)


def _best_title_mate(recs: list[Record], cl: _Clusters, members: list[int], i: int,
                     ambiguous: bool) -> int | None:
    """The record of ``members`` (another cluster, joinable) whose authors overlap record i's most."""
    best, best_score = None, -1.0
    for j in members:
        if j == i or cl.find(j) == cl.find(i) or not cl.can_join(i, j):
            continue
        score = _author_overlap(recs[i], recs[j])
        if ambiguous and score <= 0:
            continue
        if score > best_score:
            best, best_score = j, score
    return best


def _author_overlap(a: Record, b: Record) -> float:
    """0.5 when either side has no authors (cannot tell), else the share of surnames in common."""
    sa, sb = surnames(a), surnames(b)
    if not sa or not sb:
        return 0.5
    return len(sa & sb) / min(len(sa), len(sb))


def _representatives(recs: list[Record], cl: _Clusters) -> dict[int, int]:
    """Cluster root -> the record that speaks for the cluster in the fuzzy passes: the one with
    the most authors (a title-only listing joined by its link says less), then the first."""
    reps: dict[int, int] = {}
    for i in range(len(recs)):
        root = cl.find(i)
        j = reps.get(root)
        if j is None or len(recs[i].authors) > len(recs[j].authors):
            reps[root] = i
    return reps


def _fuzzy(recs: list[Record], keys: list[str], cl: _Clusters) -> None:
    reps = _representatives(recs, cl)
    roots = sorted(reps)
    if len(roots) < 2:
        return
    toks = {r: set(words(plain(recs[reps[r]].title))) for r in roots}
    df: Counter[str] = Counter(t for r in roots for t in toks[r])
    index: dict[str, list[int]] = defaultdict(list)
    rare: dict[int, list[str]] = {}
    for r in roots:
        rare[r] = sorted(toks[r], key=lambda t: (df[t], t))[:3]
        for t in rare[r]:
            index[t].append(r)
    pairs: list[tuple[float, int, int]] = []
    for r in roots:
        ka = keys[reps[r]]
        if len(ka) < 12:
            continue
        seen: set[int] = set()
        for t in rare[r]:
            for s in index[t]:
                if s <= r or s in seen:
                    continue
                seen.add(s)
                kb = keys[reps[s]]
                if len(kb) < 12 or abs(len(ka) - len(kb)) > 0.1 * max(len(ka), len(kb)) + 2:
                    continue
                score = fuzz.ratio(ka, kb)
                if score < FUZZY_MIN:
                    continue
                ov = _author_overlap(recs[reps[r]], recs[reps[s]])
                if ov == 0 or (ov == 0.5 and score < FUZZY_MIN_NO_AUTHORS):
                    continue
                pairs.append((score, r, s))
    for _, r, s in sorted(pairs, key=lambda p: (-p[0], p[1], p[2])):
        cl.join(r, s)


def _same_authors(recs: list[Record], cl: _Clusters) -> None:
    """Clusters still apart whose author lists agree (≥ 75% of keys, at least two authors) and
    whose titles still overlap: titles change between submission and proceedings, author lists
    rarely do. Pairs are joined best first, one partner each (the cannot-link rule enforces it)."""
    roots = _representatives(recs, cl)
    by_first: dict[str, list[int]] = defaultdict(list)
    for root, i in roots.items():
        if len(recs[i].authors) >= 2:
            by_first[recs[i].authors[0].key].append(root)
    pairs: list[tuple[float, int, int]] = []
    for group in by_first.values():
        if len(group) < 2:
            continue
        for x, a in enumerate(group):
            ra = recs[roots[a]]
            ka = {au.key for au in ra.authors}
            for b in group[x + 1:]:
                if not cl.can_join(a, b):
                    continue
                rb = recs[roots[b]]
                kb = {au.key for au in rb.authors}
                share = len(ka & kb) / max(len(ka), len(kb))
                if share < 0.75:
                    continue
                ta, tb = plain(ra.title).lower(), plain(rb.title).lower()
                sim = fuzz.token_set_ratio(ta, tb)
                head = ta.split(":")[0].strip() == tb.split(":")[0].strip() and ":" in ta and ":" in tb
                if sim >= 50 or head:
                    pairs.append((share * 100 + sim, min(a, b), max(a, b)))
    for _, a, b in sorted(pairs, key=lambda p: (-p[0], p[1], p[2])):
        cl.join(a, b)


# --- building the merged paper ----------------------------------------------------------------
