"""One name, several people? An author's papers grouped by who they write with and where.

Authors are keyed by name, so "Yang Liu" is hundreds of papers by many people. The papers are
clustered (Louvain communities of a graph linking each paper to its co-authors and to the
author's affiliation on it); a prolific single person's groups share co-authors or affiliations
with each other, while namesakes' groups mostly do not. Measured on the full corpus: of the ten
largest groups, the pairs sharing anything are 9/45 for Yang Liu and 17/45 for Lei Zhang, but
29–45/45 for Trevor Darrell, Yoshua Bengio, Sergey Levine, Luc Van Gool and Dacheng Tao. Below
half, the page says the name likely covers several people and offers the groups as filters.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import TypedDict

import networkx as nx

from ..stats.names import institution_key

GROUPED_FROM = 40        # authors with fewer papers are never split
MIN_GROUP = 3            # smaller clusters are not offered as a group
COMPARED = 10            # the largest groups whose overlap decides
SHARED_BELOW = 0.5       # several people when fewer than this share of group pairs overlap
SHOWN = 12               # groups offered on the page


class Group(TypedDict):
    key: str                 # the group's most frequent co-author's key (stable across requests)
    ids: list[str]           # its papers
    coauthors: list[str]     # keys of its most frequent co-authors, most first
    affiliation: str | None  # the author's most frequent affiliation in it
    first_year: int
    last_year: int


def _norm(affiliation: str) -> str:
    """An affiliation's folded key: "UC Santa Cruz" = "University of California, Santa Cruz",
    departments under their university (stats.names)."""
    return institution_key(affiliation)[0]


def _one_person(big: list[list[str]], feats: dict[str, set[str]]) -> list[list[str]]:
    """Communities that are evidently one person joined: the same institution and a co-author in
    common, or three co-authors in common (issue 44: Yang Liu of UC Santa Cruz was three groups, by
    the two spellings of his university and by a company his UCSC co-authors share). An institution
    alone is not enough: Tsinghua has several Yang Lius."""
    parent = list(range(len(big)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    union = [set().union(*(feats[p] for p in ids)) for ids in big]
    for i, j in itertools.combinations(range(len(big)), 2):
        common = union[i] & union[j]
        coauthors = sum(c.startswith("c:") for c in common)
        if (coauthors and any(c.startswith("a:") for c in common)) or coauthors >= 3:
            parent[find(j)] = find(i)
    merged: dict[int, list[str]] = {}
    for i, ids in enumerate(big):
        merged.setdefault(find(i), []).extend(ids)
    return sorted((sorted(ids) for ids in merged.values()), key=lambda ids: (-len(ids), ids[0]))


Authorship = tuple[str, int, str | None, list[str]]     # (paper id, year, affiliation, co-author keys)


def groups(authorships: Sequence[Authorship]) -> list[Group]:
    """The groups of a name's papers when they likely belong to several people; [] otherwise.
    ``authorships``: (paper id, year, affiliation, co-author keys) per paper."""
    if len(authorships) < GROUPED_FROM:
        return []
    feats, big = _communities(authorships)
    if len(big) < 2 or _overlapping(big, feats):
        return []
    return _described(big[:SHOWN], feats, authorships)


def _communities(authorships: Sequence[Authorship]) -> tuple[dict[str, set[str]], list[list[str]]]:
    """Each paper's features (co-authors, the author's affiliation) and the papers' communities of
    at least MIN_GROUP papers, largest first, those evidently one person's joined."""
    graph = nx.Graph()
    feats: dict[str, set[str]] = {}
    for pid, _year, aff, co in sorted(authorships):
        f = {"c:" + c for c in co} | ({"a:" + _norm(aff)} if aff and _norm(aff) else set())
        feats[pid] = f
        graph.add_node("p:" + pid)
        graph.add_edges_from(("p:" + pid, x) for x in sorted(f))
    communities = nx.community.louvain_communities(graph, seed=0)
    clusters = sorted(([n[2:] for n in c if n.startswith("p:")] for c in communities),
                      key=lambda ids: (-len(ids), min(ids) if ids else ""))
    return feats, _one_person([sorted(ids) for ids in clusters if len(ids) >= MIN_GROUP], feats)


def _overlapping(big: list[list[str]], feats: dict[str, set[str]]) -> bool:
    """Whether enough pairs of the largest groups share a co-author or an affiliation to make them
    one person's."""
    union = [set().union(*(feats[p] for p in ids)) for ids in big[:COMPARED]]
    pairs = list(itertools.combinations(range(len(union)), 2))
    return sum(1 for i, j in pairs if union[i] & union[j]) >= SHARED_BELOW * len(pairs)


def _described(big: list[list[str]], feats: dict[str, set[str]],
               authorships: Sequence[Authorship]) -> list[Group]:
    """The groups as the page offers them: a stable key (the most frequent co-author not already a
    key), the top co-authors, the most frequent affiliation, the years."""
    year = {pid: y for pid, y, _a, _c in authorships}
    affs = {pid: a for pid, _y, a, _c in authorships}
    out: list[Group] = []
    used: set[str] = set()
    for ids in big:
        shared = Counter(c for p in ids for c in feats[p] if c.startswith("c:"))
        ranked = [c[2:] for c, _ in sorted(shared.items(), key=lambda kv: (-kv[1], kv[0]))]
        key = next((c for c in ranked if c not in used), None) or f"group-{len(out) + 1}"
        used.add(key)
        where = Counter(institution_key(a)[1] for p in ids if (a := affs[p]) and _norm(a))
        ys = [year[p] for p in ids]
        out.append({"key": key, "ids": ids, "coauthors": ranked[:3],
                    "affiliation": where.most_common(1)[0][0] if where else None,
                    "first_year": min(ys), "last_year": max(ys)})
    return out
