"""How well a paper matches a citation: title similarity (allowing for case, LaTeX, punctuation,
hyphenation and a typo or two), the authors' family names, the year and the venue, each judged on
its own (rapidfuzz for the strings), and a verdict that puts precision first: a paper is taken only
when its title matches and nothing contradicts it, or when a looser title is backed by the authors
and the year.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz

from .. import venues, versions
from ..names import author_key
from ..text import fold
from .parse import Citation

TITLE_SAME = 0.93         # titles this similar are the same title (a typo or two, punctuation, hyphens)
TITLE_LOOSE = 0.75        # titles this similar need the authors and the year to agree
AUTHORS_AGREE = 0.5       # share of the citation's family names found among the paper's authors
TIE = 0.03                # candidates closer than this in score cannot be told apart

_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_WORKSHOP = re.compile(r"\bworkshops?\b", re.IGNORECASE)


@dataclass(slots=True)
class Candidate:
    """A paper as the matcher sees it (from a search hit or from the store)."""

    id: str
    title: str
    authors: list[str]
    year: int
    venue: str                 # venue key
    accepted: bool = True


@dataclass(slots=True)
class Evidence:
    """Why a paper does or does not match: each signal, None where the citation does not say."""

    title: float               # 0..1
    authors: float | None      # share of the citation's family names among the paper's authors
    year: int | None           # paper year minus cited year
    venue: bool | None         # the cited venue names the paper's venue
    score: float               # what candidates are ranked by
    journal: bool = False      # the citation names a journal (not a preprint server)

    @property
    def year_ok(self) -> bool | None:
        return None if self.year is None else abs(self.year) <= 1

    def accept(self) -> bool:
        """Precision first: a matching title and no contradiction, or a looser title with the
        authors and the year both agreeing."""
        authors_ok = self.authors is None or self.authors >= AUTHORS_AGREE
        if self.title >= TITLE_SAME:
            if self.journal and self.venue is False:
                return False                   # a journal version we do not hold, not its conference paper
            if self.authors is None:           # nothing else to go by: the year must agree
                return self.year_ok is not False and self.year is not None or self.venue is True
            if self.year is not None and abs(self.year) >= 2 and self.venue is False:
                return False                   # another version: a journal extension, a later edition
            return authors_ok and (self.year is None or abs(self.year) <= 3)
        if self.title >= TITLE_LOOSE:
            return self.authors is not None and self.authors >= 0.6 and self.year_ok is True
        return False

    def reasons(self) -> dict[str, float | int | bool | None]:
        authors = None if self.authors is None else round(self.authors, 3)
        return {"title": round(self.title, 3), "authors": authors,
                "year": self.year_ok, "year_diff": self.year, "venue": self.venue}


@lru_cache(maxsize=65536)
def title_key(title: str) -> str:
    """A title folded for comparison: ASCII, lower case, words separated by single spaces."""
    return _NON_ALNUM.sub(" ", fold(title).lower()).strip()


def title_similarity(a: str, b: str) -> float:
    """1.0 for the same title up to case, accents, punctuation and hyphenation; a typo or two costs
    a few hundredths; a title that is the other's main part before a colon scores 0.9 at most."""
    ka, kb = title_key(a), title_key(b)
    if not ka or not kb:
        return 0.0
    ca, cb = ka.replace(" ", ""), kb.replace(" ", "")
    if ca == cb:
        return 1.0
    sim = max(fuzz.ratio(ka, kb), fuzz.ratio(ca, cb)) / 100
    if sim >= TITLE_SAME and _word_added(ka.split(), kb.split()):
        sim = min(sim, TITLE_SAME - 0.03)       # "Attention is not not Explanation" is another paper
    for x, y in ((a, b), (b, a)):          # "BERT" cited for "BERT: Pre-training of …"
        head = title_key(re.split(r"[:?]\s", x, maxsplit=1)[0])
        if head and head != title_key(x) and len(head) >= 12 and fuzz.ratio(head, title_key(y)) >= 95:
            sim = max(sim, 0.9)
    return sim


def _word_added(a: list[str], b: list[str]) -> bool:
    """A word one title has and the other lacks (not a typo of one of its words)."""
    rest_b = list(b)
    unmatched = []
    for w in a:
        if w in rest_b:
            rest_b.remove(w)
        else:
            unmatched.append(w)
    for w in unmatched:
        close = next((x for x in rest_b if len(w) >= 4 and len(x) >= 4 and fuzz.ratio(w, x) >= 75), None)
        if close is None:
            return True
        rest_b.remove(close)
    return bool(rest_b)


def family_names(names: list[str]) -> list[str]:
    """Family names, folded: "Smith, John" -> smith, "John Smith" -> smith, "J. Smith" -> smith."""
    out = []
    for n in names:
        n = fold(n).strip()
        if not n or n.lower() in ("others", "et al", "et al."):
            continue
        fam = n.split(",")[0] if "," in n else (n.split()[-1] if n.split() else "")
        key = _NON_ALNUM.sub("", fam.lower())
        if key:
            out.append(key)
    return out


def _name_tokens(names: list[str]) -> set[str]:
    toks: set[str] = set()
    for n in names:
        words = [_NON_ALNUM.sub("", w) for w in re.split(r"[\s,.\-]+", fold(n).lower())]
        toks.update(w for w in words if len(w) > 1)
        parts = [w for w in re.split(r"[\s,.]+", fold(n).lower()) if w]
        if parts:
            toks.add(_NON_ALNUM.sub("", parts[-1]))       # hyphenated family names as one word too
    return toks


def author_agreement(cited: list[str], paper: list[str]) -> float | None:
    """Share of the cited family names (the first eight) found among the paper's authors' names;
    None when either side has no authors."""
    fams = family_names(cited)[:8]
    if not fams or not paper:
        return None
    toks = _name_tokens(paper)
    found = sum(1 for f in fams if f in toks or any(len(t) > 3 and fuzz.ratio(f, t) >= 90 for t in toks))
    return found / len(fams)


_VENUE_STOP = frozenset("conference annual international meeting proceedings of the on in for and journal "
                        "ieee cvf acm joint workshop workshops track".split())
_ABBREV = {"acl": "association computational linguistics", "nips": "neural information processing systems",
           "j": "journal", "proc": "proceedings", "conf": "conference", "int": "international",
           "intl": "international", "annu": "annual", "trans": "transactions", "assoc": "association"}


def _venue_words(s: str) -> list[str]:
    words = re.findall(r"[a-z0-9]+", fold(s).lower())
    out: list[str] = []
    for w in words:
        out.extend(_ABBREV.get(w, w).split())
    return [w for w in out if w not in _VENUE_STOP]


def venue_agreement(cited_venue: str, venue_key: str) -> bool | None:
    """Whether the cited venue names the paper's venue: its short name or an alias as a word, or
    most of its name's words (abbreviations such as "Mach. Learn. Res." count); None when the
    citation names no venue or only a preprint server."""
    text = fold(cited_venue).lower()
    if not text.strip():
        return None
    v = venues.get(venue_key)
    workshop = _WORKSHOP.search(v.name) is not None or _WORKSHOP.search(v.short) is not None
    if workshop != (_WORKSHOP.search(text) is not None):
        # a workshop paper cited as the conference's, or the other way round: another venue
        return None if "arxiv" in text or "preprint" in text else False
    if workshop and v.parent:            # "CVPR Workshops": the cited text names CVPR and a workshop
        return venue_agreement(_WORKSHOP.sub(" ", text), v.parent)
    names = [v.short, *v.aliases] + ([venues.get(v.parent).short] if v.parent else [])
    for name in names:
        n = fold(name).lower().strip()
        if len(n) >= 3 and re.search(r"(?<![a-z])" + re.escape(n) + r"(?![a-z])", text):
            return True
    cited = _venue_words(text)
    wanted = _venue_words(re.sub(r"\(.*?\)", "", v.name))
    if wanted and cited:
        found = sum(1 for w in wanted if any(c == w or (len(c) >= 3 and w.startswith(c)) for c in cited))
        if found / len(wanted) >= 0.75 and found >= min(2, len(wanted)):
            return True
    if "arxiv" in text or "corr" in text.split() or "preprint" in text:
        return None                       # a preprint says nothing about where it was published
    return False


# what a journal's name says (Nature, Science and PNAS by name); "Advances in …" and "Proceedings of
# …" are conferences, arXiv and CoRR preprints
_JOURNAL = re.compile(r"\b(?:journal|transactions|letters|magazine|review|nature|science|"
                      r"proceedings of the national academy|pnas|j\.)(?![\w-])", re.IGNORECASE)
_PREPRINT = re.compile(r"arxiv|preprint|\bcorr\b|biorxiv|medrxiv", re.IGNORECASE)


@lru_cache(maxsize=1)
def _journal_names() -> re.Pattern[str]:
    """Our journals' short names and aliases as words ("TPAMI", "IJCV", "JMLR", "Neural Computation")."""
    names = {fold(n).lower() for v in venues.all_venues() if v.kind == "journal"
             for n in (v.short, *v.aliases) if len(n) >= 3}
    return re.compile(r"(?<![a-z])(?:" + "|".join(sorted(map(re.escape, names))) + r")(?![a-z])")


@lru_cache(maxsize=4096)
def names_journal(cited_venue: str) -> bool:
    """The cited venue is a journal (where a paper of the same title at a conference is another
    version, the one not cited)."""
    if _PREPRINT.search(cited_venue):
        return False
    return bool(_JOURNAL.search(cited_venue) or _journal_names().search(fold(cited_venue).lower()))


def evidence(c: Citation, p: Candidate) -> Evidence:
    t = title_similarity(c.title, p.title)
    a = author_agreement(c.authors, p.authors)
    y = None if c.year is None else p.year - c.year
    v = venue_agreement(c.venue, p.venue)
    score = (0.7 * t + 0.2 * (a if a is not None else 0.5)
             + (0.05 if y is not None and abs(y) <= 1 else 0.0) + (0.03 if y == 0 else 0.0)
             + (0.1 if v else 0.0) + (0.03 if p.accepted else 0.0)
             - (0.01 if _WORKSHOP.search(venues.get(p.venue).name) and not v else 0.0))
    return Evidence(title=t, authors=a, year=y, venue=v, score=score, journal=names_journal(c.venue))


def ranked(c: Citation, cands: list[Candidate]) -> list[tuple[Candidate, Evidence]]:
    """Candidates with their evidence, best first."""
    out = [(p, evidence(c, p)) for p in cands]
    # equal scores: the version at the venue the citation names (an ACL paper without authors in
    # our sources against its ICLR submission with them)
    out.sort(key=lambda x: (-x[1].score, x[1].venue is not True))
    return out


def verdict(c: Citation, cands: list[Candidate]) -> tuple[str, list[tuple[Candidate, Evidence]]]:
    """("matched", [the paper]), ("ambiguous", the papers it cannot tell apart) or ("not_found",
    the closest candidates)."""
    ranks = ranked(c, cands)
    ok = [(p, e) for p, e in ranks if e.accept()]
    if not ok:
        near = [(p, e) for p, e in ranks if e.title >= TITLE_LOOSE]
        other_version = bool(near) and near[0][1].journal and near[0][1].venue is False
        if near and near[0][1].title >= TITLE_SAME and not other_version:
            return "ambiguous", near[:5]
        return "not_found", near[:3]        # a journal paper we lack: its conference version is near
    best = ok[0]
    # a year alone does not tell two papers of one title apart: the authors or the venue must
    unproven = best[1].authors is None and best[1].venue is not True
    ties = [(p, e) for p, e in ok[1:] if (best[1].score - e.score < TIE
            or (unproven and e.title >= TITLE_SAME and p.id != best[0].id))
            and not same_work(p, best[0])]      # versions of one work: the one that fits best is taken
    if ties:
        return "ambiguous", [best, *ties][:5]
    return "matched", [best]


def same_work(a: Candidate, b: Candidate) -> bool:
    """Two versions of one work, by the rule ``versions`` links them with."""
    return versions.linked(_version(a), _version(b))


def _version(c: Candidate) -> versions.Version:
    return versions.Version(c.id, c.venue, c.year, None, c.accepted, None,
                            frozenset(author_key(n) for n in c.authors), len(c.title))


def confidence(e: Evidence) -> float:
    """A 0..1 figure for a person: mostly the title, then the authors, the year and the venue
    (a signal the citation does not give counts half)."""
    a = 0.5 if e.authors is None else e.authors
    y = 0.5 if e.year is None else (1.0 if e.year == 0 else 0.8 if abs(e.year) <= 1 else 0.0)
    v = 0.5 if e.venue is None else (1.0 if e.venue else 0.0)
    return round(0.6 * e.title + 0.25 * a + 0.1 * y + 0.05 * v, 3)
