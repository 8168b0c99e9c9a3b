"""Versions of one work: the records of the same paper at different venues (an OpenReview
submission and its later venue, a workshop and a main-track paper, a conference and a journal
version) are linked, and one of them is *the published version* that search shows and exports
cite, with the others listed beside it.

Two papers are versions of one work when their titles share the title key (``text.title_key``:
case, accents, LaTeX and punctuation aside, which the id's hash already encodes: see
``merge._id_for``), they share an author (or one of them is an anonymous submission, which names
none, and the title is not short), and they are at most ``MAX_YEARS`` apart. Measured on
the full corpus: 6,548 title keys name more than one paper; 4,682 of them link 9,453 papers by
these rules (a generic title used by strangers, "Deep Learning", stays apart).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import venues as venue_registry

MAX_YEARS = 3


@dataclass(frozen=True, slots=True)
class Version:
    id: str
    venue: str
    year: int
    status: str | None
    accepted: bool
    citations: int | None
    authors: frozenset[str]
    title_chars: int = 0


ANONYMOUS_TITLE_CHARS = 20   # an anonymous record (a submission under review) links by a title this long

def work_key(paper_id: str) -> str:
    """The part of a paper id that its title decides (``neurips2020-nvy4us77`` -> ``nvy4us77``)."""
    return paper_id.partition("-")[2] or paper_id      # as the store's index papers_work has it


def _standing(v: Version) -> tuple[int, int, int, str]:
    """Which version is the published one: accepted at a main venue, then accepted at a workshop
    or a sub-venue (Findings), then the rest; the most cited; the earliest; by id."""
    if v.accepted:
        info = venue_registry.get(v.venue)
        rank = 1 if info.kind == "workshop" or info.parent else 0
    else:
        rank = 2
    return (rank, -(v.citations or 0), v.year, v.id)


def works(candidates: Iterable[Version]) -> list[list[Version]]:
    """The works of several versions among ``candidates`` (papers sharing a work key), each with
    its published version first, then the others newest first."""
    by_key: dict[str, list[Version]] = {}
    for v in candidates:
        by_key.setdefault(work_key(v.id), []).append(v)
    out: list[list[Version]] = []
    for group in by_key.values():
        if len(group) < 2:
            continue
        group.sort(key=lambda v: v.id)
        parent = list(range(len(group)))
        for i, a in enumerate(group):
            for j in range(i + 1, len(group)):
                if linked(a, group[j]):
                    parent[_find(parent, j)] = _find(parent, i)
        sets: dict[int, list[Version]] = {}
        for i, v in enumerate(group):
            sets.setdefault(_find(parent, i), []).append(v)
        for members in sets.values():
            if len(members) > 1:
                best = min(members, key=_standing)
                rest = sorted((m for m in members if m is not best), key=lambda m: (-m.year, m.id))
                out.append([best, *rest])
    return out


def linked(a: Version, b: Version) -> bool:
    """Two papers are versions of one work (the rule of this module's doc)."""
    return work_key(a.id) == work_key(b.id) and abs(a.year - b.year) <= MAX_YEARS and _same_people(a, b)


def _same_people(a: Version, b: Version) -> bool:
    """A shared author; or one record names none (an anonymous OpenReview submission, which the
    venue's version of the same title follows) and the title is long enough not to be generic."""
    if a.authors & b.authors:
        return True
    return (not a.authors or not b.authors) and min(a.title_chars, b.title_chars) >= ANONYMOUS_TITLE_CHARS


def _find(parent: list[int], i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i
