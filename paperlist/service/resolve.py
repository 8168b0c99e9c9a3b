"""Resolving a bibliography: each entry (a BibTeX entry, or a line of a pasted reference list)
matched to the paper it cites, with a confidence and why, or "ambiguous" with the papers it cannot
tell apart, or "not in the library"; and the cleaned bibliography, each matched entry rewritten as
the published version (``refs.rewrite``) and the rest left as written.

Candidates come from the ids an entry carries (DOI, arXiv, ACL Anthology, OpenReview: the store's
``resolve_id``) and from a keyword search on its title; ``refs.match`` judges them, precision first.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict

from .. import venues
from ..citation import bibtex
from ..exports import BibKeys
from ..refs.bib import BibBlock, entry_citation, read_bib
from ..refs.match import Candidate, Evidence, confidence, evidence, verdict
from ..refs.parse import Citation, parse_reference
from ..refs.rewrite import published
from .errors import N_, BadRequest, TooLarge, Unavailable
from .home import Home
from .paths import paper_path
from .types import DuplicateGroup, ResolveCounts, ResolvedEntry, ResolvedPaper, ResolveReport

MAX_BYTES = 2_000_000            # the largest bibliography taken (2 MB: ~4,000 typical entries)
MAX_ENTRIES = 2_000              # the most entries (or reference lines) one request resolves
SEARCH_HITS = 10                 # candidates a title search brings
_QUERY_SYNTAX = re.compile(r"[\"“”:()\[\]{}*^~\\]|(?:^|\s)[-+]")


def decode_upload(data: bytes) -> str:
    """An uploaded bibliography as text: empty, binary, undecodable or oversized input is refused
    with a one-line reason."""
    if len(data) > MAX_BYTES:
        raise TooLarge(N_("This bibliography is too large."), f"at most {MAX_BYTES:,} bytes")
    if not data.strip():
        raise BadRequest(N_("The bibliography is empty."))
    if b"\x00" in data[:65536]:
        raise BadRequest(N_("This file is not text (it looks binary)."))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            raise BadRequest(N_("This file is not text (it looks binary)."),
                             "expected UTF-8 or Latin-1 BibTeX") from None
    return text


# a letter's subscript: "{$L_1$}-regularized" (plain "L_1") where the library's title says "L1"
_SUBSCRIPT = re.compile(r"(?<![^\W\d_])([A-Za-zℓ])_\{?([0-9A-Za-z]{1,3})\}?(?![^\W_])")


def title_query(title: str) -> str:
    """A title as plain words for the search engine (no quotes, fields or exclusions)."""
    return " ".join(_QUERY_SYNTAX.sub(" ", title).split())[:300]


def title_queries(title: str) -> list[str]:
    """The title's query, and where it writes a subscript ("L_1") the same with the subscript
    joined ("L1"): sources write either, and one finds nothing where the other does."""
    first = title_query(title)
    joined = title_query(_SUBSCRIPT.sub(r"\1\2", title))
    return [first] if joined == first else [first, joined]


class Resolver:
    """Finds the paper of one citation after another over one home (its store and searcher)."""

    def __init__(self, home: Home) -> None:
        self.home = home
        searcher = home.searcher
        if searcher is None:
            raise Unavailable(N_("Search is not available yet: the search index has not been built."),
                              "paperlist index")
        self.searcher = searcher

    def by_ids(self, c: Citation) -> list[Candidate]:
        ids: list[str] = []
        for kind, value in c.ids.items():
            for pid in self.home.store.papers_with_id(kind, value):
                if pid not in ids:
                    ids.append(pid)
        return self.candidates(ids[:5])

    def by_title(self, c: Citation) -> list[Candidate]:
        """The papers a keyword ranking of the title's words puts first (the engine's ranker
        alone: no facets, totals or snippets, which a search page needs and this does not)."""
        ids: list[str] = []
        for q in filter(None, title_queries(c.title)):
            ids += [pid for pid, _ in self.searcher.rank(q, None, SEARCH_HITS) if pid not in ids]
        # search shows one version of a work; the citation may name another (its workshop, its journal)
        given = set(ids)
        others = [v.id for v in self.home.store.version_candidates(ids) if v.id not in given]
        return self.candidates(ids + others)

    def candidates(self, ids: list[str]) -> list[Candidate]:
        return [Candidate(id=r["id"], title=r["title_plain"] or r["title"],
                          authors=[a["name"] for a in r["authors"]], year=r["year"], venue=r["venue"],
                          accepted=bool(r["accepted"]))
                for r in self.home.store.cards(ids)] if ids else []

    def resolve(self, c: Citation) -> tuple[str, list[tuple[Candidate, Evidence]], bool]:
        """The verdict on a citation (``refs.match.verdict``) and whether an id found it."""
        found = self.by_ids(c)
        if found:
            ranked = sorted(((p, evidence(c, p)) for p in found), key=lambda x: -x[1].score)
            # an id the entry gives is taken when the paper's title or authors bear it out
            good = [(p, e) for p, e in ranked if e.title >= 0.6 or (e.authors or 0) >= 0.5]
            if len(good) == 1 or (good and good[0][1].score - good[1][1].score >= 0.03):
                return "matched", good[:1], True
        if len(c.title) < 4:
            return "not_found", [], False
        return (*verdict(c, self.by_title(c)), False)


def _paper_ref(p: Candidate, e: Evidence, by_id: bool) -> ResolvedPaper:
    v = venues.get(p.venue)
    return {"id": p.id, "href": paper_path(p.id), "title": p.title, "authors": p.authors[:20],
            "venue": p.venue, "venue_short": v.short, "year": p.year,
            "confidence": 1.0 if by_id else confidence(e),
            "title_similarity": round(e.title, 3),
            "authors_agree": None if e.authors is None else round(e.authors, 3), "year_agrees": e.year_ok,
            "venue_agrees": e.venue, "accepted": p.accepted, "by_id": by_id}


def _entry(key: str, line: int, title: str, status: str, error: str | None = None) -> ResolvedEntry:
    return {"key": key, "line": line, "status": status, "title": title[:500], "error": error, "paper": None,
            "candidates": [], "duplicate_of": [], "rewritten": False, "changed": []}


def _is_reference_list(text: str) -> bool:
    """A pasted list of references rather than BibTeX: no line starts an entry."""
    return re.search(r"^\s*@\s*\w+\s*[{(]", text, re.MULTILINE) is None


def reference_lines(text: str) -> list[tuple[int, str]]:
    """The references of a pasted list, one per line (blank lines and "References" headings skipped)."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s and s.lower().rstrip(":") not in ("references", "bibliography", "literatur"):
            out.append((n, s))
    return out


_Item = tuple[ResolvedEntry, Citation | None, BibBlock | None]      # an entry, what it cites, its BibTeX


def resolve(home: Home, text: str) -> ResolveReport:
    """Resolve every entry of a bibliography (BibTeX, or a list of references one per line): read
    it, find each entry's paper, then write the cleaned bibliography."""
    t0 = time.perf_counter()
    resolver = Resolver(home)
    reference_list = _is_reference_list(text)
    blocks: list[BibBlock] = [] if reference_list else read_bib(text)
    items = _reference_items(text) if reference_list else _bibtex_items(blocks)
    if len(items) > MAX_ENTRIES:
        raise TooLarge(N_("This bibliography has too many entries."), f"{len(items):,} > {MAX_ENTRIES:,}")
    if not items:
        raise BadRequest(N_("No BibTeX entry or reference was found in this text."))
    matched = _match(resolver, items)
    by_paper: dict[str, list[str]] = defaultdict(list)
    for key, pid in matched.items():
        by_paper[pid].append(key)
    duplicates: list[DuplicateGroup] = [{"paper_id": pid, "keys": keys} for pid, keys in by_paper.items()
                                        if len(keys) > 1]
    out = _write(home, items, matched, by_paper)
    if not reference_list:
        out = [b.raw.strip() for b in blocks if b.raw.strip()]
    return {"counts": _counts(items, len(matched), len(duplicates)), "entries": [e for e, _c, _b in items],
            "duplicates": duplicates, "bibtex": "\n\n".join(out) + "\n" if out else "",
            "took_ms": round((time.perf_counter() - t0) * 1000, 1)}


def _reference_items(text: str) -> list[_Item]:
    out: list[_Item] = []
    for line, s in reference_lines(text):
        ref = parse_reference(s) or Citation(title=s)
        out.append((_entry(f"line {line}", line, ref.title, "not_found"), ref, None))
    return out


def _bibtex_items(blocks: list[BibBlock]) -> list[_Item]:
    out: list[_Item] = []
    for b in blocks:
        if b.error is not None:
            out.append((_entry(b.key or f"line {b.line}", b.line, "", "error", b.error), None, b))
        elif b.is_entry:
            cited = entry_citation(b)
            out.append((_entry(b.key, b.line, cited.title, "not_found"), cited, b))
    return out


def _match(resolver: Resolver, items: list[_Item]) -> dict[str, str]:
    """Each entry's verdict, its paper or candidates filled in; entry key -> paper id of the matched."""
    matched: dict[str, str] = {}
    for entry, cite, _blk in items:
        if cite is None:
            continue
        status, found, by_id = resolver.resolve(cite)
        entry["status"] = status
        if status == "matched":
            p, e = found[0]
            entry["paper"] = _paper_ref(p, e, by_id)
            matched[entry["key"]] = p.id
        else:
            entry["candidates"] = [_paper_ref(p, e, False) for p, e in found]
    return matched


def _write(home: Home, items: list[_Item], matched: dict[str, str],
           by_paper: dict[str, list[str]]) -> list[str]:
    """The papers' own entries for reference lines; BibTeX entries rewritten in place (``blk.raw``)
    as the published version where the paper is accepted and at the venue cited."""
    papers = {p.id: p for p in home.store.get_papers(sorted(set(matched.values())))}
    out: list[str] = []
    keys = BibKeys()
    for entry, cite, blk in items:
        pid = matched.get(entry["key"], "")
        entry["duplicate_of"] = [k for k in by_paper.get(pid, []) if k != entry["key"]]
        paper = papers.get(pid)
        if blk is None:                                  # a reference line: the paper's own entry
            if paper is not None:
                out.append(keys.entry(paper))
            continue
        got = entry["paper"]
        if paper is None or got is None or cite is None or not paper.accepted or got["venue_agrees"] is False:
            continue    # a rejected submission, or the work at another venue than cited: left as written
        text_out, changed = published(blk, bibtex(paper), got["venue_agrees"] is True)
        entry["changed"] = changed
        entry["rewritten"] = True
        blk.raw = text_out
    return out


def _counts(items: list[_Item], matched: int, duplicates: int) -> ResolveCounts:
    def n(status: str) -> int:
        return sum(1 for e, _c, _b in items if e["status"] == status)

    return {"entries": len(items), "matched": matched, "ambiguous": n("ambiguous"),
            "not_found": n("not_found"), "errors": n("error"),
            "rewritten": sum(1 for e, _c, _b in items if e["rewritten"]), "duplicates": duplicates}
