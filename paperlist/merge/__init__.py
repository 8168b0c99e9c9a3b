"""Many Records -> one Paper per real paper.

Records can only match inside a *block* (venue family + year). Within a block, match.py groups
records sorted by (file, key), so the result depends only on the set of records, never on the
order they were ingested in; fields.py builds each paper by a per-field source priority
(priority.py) with provenance; this module gives papers stable ids and content hashes.
"""

from __future__ import annotations

import base64
import hashlib
from collections import Counter, defaultdict
from dataclasses import dataclass

import orjson

from ..models import Paper, Record
from ..text import plain, title_key
from .fields import paper_from_records, ref
from .match import cluster
from .priority import FIELD_PRIORITY

# Bump when matching or field choice changes: stores merged by an older version re-merge every block.
MERGE_VERSION = 7         # 5: links to one place by two hosts are one link; 6: census and snapshot scores,
                          # author lists known to be alphabetical; 7: the citation count's source and date
                          # in provenance, each source's newest count

__all__ = ["FIELD_PRIORITY", "MERGE_VERSION", "BlockResult", "paper_from_records", "cluster", "content_hash",
           "merge_block", "prepare"]


def _id_for(family: str, year: int, keys: list[str]) -> str:
    c = Counter(k for k in keys if k)
    basis = min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] if c else "untitled"
    digest = hashlib.sha1(basis.encode()).digest()
    return f"{family}{year}-{base64.b32encode(digest).decode().lower()[:8]}"


@dataclass(slots=True)
class BlockResult:
    papers: list[tuple[Paper, str]]                  # (paper, content hash)
    members: dict[str, list[tuple[str, str]]]        # paper id -> (file, key) of its records


def merge_block(block: str, recs: list[Record]) -> BlockResult:
    """Merge the records of one block into papers with stable ids and content hashes."""
    family, _, year_s = block.rpartition(":")
    recs = sorted(recs, key=lambda r: (r.file, r.key))
    groups = cluster(recs)
    drafts: list[tuple[str, list[Record]]] = []
    for g in groups:
        members = [recs[i] for i in g]
        if all(r.annotation for r in members):
            continue                  # annotations whose paper no source lists: nothing to show
        drafts.append((_id_for(family, int(year_s), [title_key(r.title) for r in members]), members))
    # Two different papers with the same title: suffix deterministically by first author, then refs.
    by_id: dict[str, list[list[Record]]] = defaultdict(list)
    for pid, members in drafts:
        by_id[pid].append(members)
    result = BlockResult([], {})
    for pid, clusters in sorted(by_id.items()):
        clusters.sort(key=lambda ms: (_first_author(ms), ref(ms[0])))
        for n, members in enumerate(clusters):
            final = pid if n == 0 else f"{pid}-{n + 1}"
            paper = paper_from_records(members, final)
            result.papers.append((paper, content_hash(paper)))
            result.members[final] = [(r.file, r.key) for r in members]
    return result


def _first_author(recs: list[Record]) -> str:
    for r in recs:
        if r.authors:
            return r.authors[0].key
    return ""


def content_hash(p: Paper) -> str:
    d = p.to_dict()
    d.pop("title_plain", None)
    d.pop("abstract_plain", None)
    for later in ("institutions", "review", "countries"):
        if not d[later]:
            del d[later]                  # added later: papers without any keep their hash
    return hashlib.sha1(orjson.dumps(d, option=orjson.OPT_SORT_KEYS)).hexdigest()


def prepare(p: Paper) -> None:
    """Derived fields, filled only for papers about to be written (plain() is the costly part)."""
    p.title_plain = plain(p.title)
    p.abstract_plain = plain(p.abstract) if p.abstract else None
