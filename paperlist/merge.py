"""Many Records -> one Paper per real paper.

Records can only match inside a *block* (venue family + year). Within a block, matching runs
in three passes over records sorted by (file, key), so the result depends only on the set of
records, never on the order they were ingested in:

1. strong ids: OpenReview id, ACL Anthology id, DOI, arXiv id;
2. the same title key (plain, folded, letters and digits only);
3. a careful fuzzy fallback: title keys at least 92% alike (96% when authors cannot be compared)
   that share an author surname.

Two records of the same file are never merged (a file lists each paper once), which keeps apart
different papers that share a generic title; when a title repeats inside a file, authors decide
where other sources' records go.

Fields come from the records by a per-field source priority (FIELD_PRIORITY); links, ids and
keywords are unioned; every chosen field records its provenance.
"""

from __future__ import annotations

import base64
import hashlib
from collections import Counter, defaultdict
from dataclasses import dataclass

import orjson
from rapidfuzz import fuzz

from .models import Author, Paper, Record, is_accepted
from .text import fold, plain, title_key, words

# Per-field source priority, most trusted first. Sources not listed come last.
FIELD_PRIORITY: dict[str, tuple[str, ...]] = {
    # Titles: the wording comes from the published record ("published_title"), the spelling from
    # the source that keeps LaTeX best ("title"); see _pick_title.
    "published_title": ("acl", "mlanthology", "openreview", "papercopilot"),
    "title": ("acl", "papercopilot", "openreview", "mlanthology"),
    "venue": ("acl", "papercopilot", "openreview", "mlanthology"),
    "track": ("acl", "papercopilot", "openreview", "mlanthology"),
    "status": ("openreview", "papercopilot", "acl", "mlanthology"),
    "authors": ("acl", "mlanthology", "openreview", "papercopilot"),
    "abstract": ("acl", "openreview", "papercopilot", "mlanthology"),
    "primary_area": ("openreview", "papercopilot", "acl", "mlanthology"),
    "bibtex": ("acl", "papercopilot", "openreview", "mlanthology"),
    "tldr": ("openreview", "papercopilot", "acl", "mlanthology"),
    "summary_zh": ("openreview", "papercopilot", "acl", "mlanthology"),
    "award": ("papercopilot", "openreview", "acl", "mlanthology"),
    "links": ("acl", "papercopilot", "openreview", "mlanthology"),
    "keywords": ("openreview", "papercopilot", "acl", "mlanthology"),
    "biblio": ("acl", "mlanthology", "papercopilot", "openreview"),
}
STRONG_IDS = ("openreview", "acl", "doi", "arxiv")
# Bump when matching or field choice changes: stores merged by an older version re-merge every block.
MERGE_VERSION = 3
FUZZY_MIN = 92.0
FUZZY_MIN_NO_AUTHORS = 96.0


_RANKS = {fld: {src: i for i, src in enumerate(order)} for fld, order in FIELD_PRIORITY.items()}


def _rank(fld: str, source: str) -> int:
    r = _RANKS[fld]
    return r.get(source, len(r))


def ref(rec: Record) -> str:
    return f"{rec.file}#{rec.key}"


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


def cluster(recs: list[Record]) -> list[list[int]]:
    """Group record indices into papers; ``recs`` must be sorted by (file, key)."""
    cl = _Clusters(recs)
    keys = [title_key(r.title) for r in recs]

    # 1. strong ids (DOI and arXiv also need the titles to agree somewhat: sources mis-assign them)
    for kind in STRONG_IDS:
        groups: dict[str, list[int]] = defaultdict(list)
        for i, r in enumerate(recs):
            v = r.ids.get(kind)
            if v:
                groups[v.lower()].append(i)
        for members in groups.values():
            for i in members[1:]:
                if kind in ("doi", "arxiv") and (fuzz.token_set_ratio(keys[members[0]], keys[i]) < 60
                                                 or _author_overlap(recs[members[0]], recs[i]) == 0):
                    continue
                cl.join(members[0], i)

    # 2. exact title key
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
            best, best_score = None, -1.0
            for j in members:
                if j == i or cl.find(j) == cl.find(i) or not cl.can_join(i, j):
                    continue
                score = _author_overlap(recs[i], recs[j])
                if ambiguous and score <= 0:
                    continue
                if score > best_score:
                    best, best_score = j, score
            if best is not None:
                cl.join(best, i)

    # 3. fuzzy fallback between clusters that do not share a file
    _fuzzy(recs, keys, cl)

    # 4. the same authors with a renamed title (submission vs camera-ready titles)
    _same_authors(recs, cl)

    out: dict[int, list[int]] = defaultdict(list)
    for i in range(len(recs)):
        out[cl.find(i)].append(i)
    return sorted(out.values())


def _author_overlap(a: Record, b: Record) -> float:
    """0.5 when either side has no authors (cannot tell), else the share of surnames in common."""
    sa, sb = surnames(a), surnames(b)
    if not sa or not sb:
        return 0.5
    return len(sa & sb) / min(len(sa), len(sb))


def _fuzzy(recs: list[Record], keys: list[str], cl: _Clusters) -> None:
    reps: dict[int, int] = {}
    for i in range(len(recs)):
        reps.setdefault(cl.find(i), i)
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
    roots: dict[int, int] = {}
    for i in range(len(recs)):
        roots.setdefault(cl.find(i), i)
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

def _pick(recs: list[Record], fld: str, attr: str | None = None) -> tuple[object, Record | None]:
    attr = attr or fld
    best: tuple[int, int] | None = None
    chosen: tuple[object, Record | None] = (None, None)
    for n, r in enumerate(recs):
        v = getattr(r, attr)
        if v in (None, "", [], {}):
            continue
        k = (_rank(fld, r.source), n)
        if best is None or k < best:
            best, chosen = k, (v, r)
    return chosen


def _proper(authors: list[Author]) -> bool:
    """Full names, not initials only or e-mail-like junk."""
    for a in authors:
        toks = a.name.replace(".", " ").split()
        if len(toks) < 2 or max(map(len, toks)) < 2 or "@" in a.name or any(c.isdigit() for c in a.name):
            return False
    return True


def _pick_title(recs: list[Record]) -> tuple[str, Record]:
    """The published wording (proceedings first: titles change after submission); but when a
    more trusted source spells the same wording with LaTeX, its spelling (mlanthology drops
    the braces of "$\\widetilde{\\mathcal{O}}$", papercopilot keeps them)."""
    published = min(recs, key=lambda r: (_rank("published_title", r.source), recs.index(r)))
    pk = title_key(published.title)
    for r in sorted(recs, key=lambda r: (_rank("title", r.source), recs.index(r))):
        if r is published or _rank("title", r.source) >= _rank("title", published.source):
            break
        if ("$" in r.title or "\\" in r.title) and fuzz.ratio(title_key(r.title), pk) >= 90:
            return r.title, r
    return published.title, published


def _pick_authors(recs: list[Record]) -> tuple[list[Author], Record | None]:
    best: tuple[bool, int, int, int] | None = None
    chosen: Record | None = None
    for n, r in enumerate(recs):
        if not r.authors:
            continue
        k = (_proper(r.authors), len(r.authors), -_rank("authors", r.source), -n)
        if best is None or k > best:
            best, chosen = k, r
    if chosen is None:
        return [], None
    authors = [Author(a.name, a.key, a.affiliation, a.orcid) for a in chosen.authors]
    # affiliations and ORCIDs from any source that lists the same person
    extra: dict[str, Author] = {}
    for r in sorted(recs, key=lambda r: _rank("authors", r.source)):
        for a in r.authors:
            extra.setdefault(a.key, a)
    for a in authors:
        other = extra.get(a.key)
        if other:
            a.affiliation = a.affiliation or other.affiliation
            a.orcid = a.orcid or other.orcid
    return authors, chosen


def _pick_abstract(recs: list[Record]) -> tuple[str | None, Record | None]:
    """The most trusted abstract that is not much shorter than the longest (a truncated copy)."""
    cands = [r for r in recs if r.abstract]
    if not cands:
        return None, None
    longest = max(len(r.abstract or "") for r in cands)
    ok = [r for r in cands if len(r.abstract or "") >= 0.6 * longest]
    r = min(ok, key=lambda r: (_rank("abstract", r.source), recs.index(r)))
    return r.abstract, r


def _prov(rec: Record | None) -> str | None:
    return rec.file if rec else None          # file keys start with the source name


def build_paper(recs: list[Record], paper_id: str) -> Paper:
    """One Paper from its records (already in a deterministic order)."""
    title, t_rec = _pick_title(recs)
    venue, v_rec = _pick(recs, "venue")
    track, tr_rec = _pick(recs, "track")
    status, s_rec = _pick(recs, "status")
    authors, a_rec = _pick_authors(recs)
    abstract, ab_rec = _pick_abstract(recs)
    provenance = {"title": _prov(t_rec), "venue": _prov(v_rec), "track": _prov(tr_rec),
                  "status": _prov(s_rec), "authors": _prov(a_rec), "abstract": _prov(ab_rec)}
    picked: dict[str, object] = {}
    for fld in ("primary_area", "bibtex", "tldr", "summary_zh", "award"):
        v, r = _pick(recs, fld)
        picked[fld] = v
        provenance[fld] = _prov(r)
    by_links = sorted(recs, key=lambda r: _rank("links", r.source))
    links: list[tuple[str, str]] = []
    seen_urls: set[str] = set()
    ids: dict[str, str] = {}
    for r in by_links:
        for kind, url in r.links.items():
            norm = url.rstrip("/").lower()
            if norm not in seen_urls:
                seen_urls.add(norm)
                links.append((kind, url))
        for k, v in r.ids.items():
            ids.setdefault(k, v)
    keywords: list[str] = []
    seen_kw: set[str] = set()
    for r in sorted(recs, key=lambda r: _rank("keywords", r.source)):
        for k in r.keywords:
            if fold(k).lower() not in seen_kw:
                seen_kw.add(fold(k).lower())
                keywords.append(k)
    biblio: dict[str, str] = {}
    for r in sorted(recs, key=lambda r: _rank("biblio", r.source)):
        for k, v in r.biblio.items():
            biblio.setdefault(k, v)
    cites = [r.citations for r in recs if r.citations is not None]
    extra = {ref(r): r.extra for r in recs if r.extra}
    st = status if isinstance(status, str) else None
    return Paper(
        id=paper_id, venue=str(venue), year=recs[0].year, title=str(title), title_plain="",
        authors=authors, abstract=abstract, track=track if isinstance(track, str) else None, status=st,
        accepted=is_accepted(st), keywords=keywords,
        primary_area=picked["primary_area"] if isinstance(picked["primary_area"], str) else None,
        links=links, ids=dict(sorted(ids.items())), citations=max(cites) if cites else None,
        bibtex=picked["bibtex"] if isinstance(picked["bibtex"], str) else None,
        tldr=picked["tldr"] if isinstance(picked["tldr"], str) else None,
        summary_zh=picked["summary_zh"] if isinstance(picked["summary_zh"], str) else None,
        award=picked["award"] if isinstance(picked["award"], str) else None,
        biblio=dict(sorted(biblio.items())), sources=sorted(ref(r) for r in recs),
        provenance={k: v for k, v in provenance.items() if v}, extra=extra,
    )


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
            paper = build_paper(members, final)
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
    return hashlib.sha1(orjson.dumps(d, option=orjson.OPT_SORT_KEYS)).hexdigest()


def prepare(p: Paper) -> None:
    """Derived fields, filled only for papers about to be written (plain() is the costly part)."""
    p.title_plain = plain(p.title)
    p.abstract_plain = plain(p.abstract) if p.abstract else None

