"""Recognising a pasted citation: a BibTeX entry, or one line of a reference list in the common styles
(ACL/natbib "Authors. Year. Title. In Venue", APA "Authors (Year). Title. Venue.", IEEE
'A. Author, "Title," in Proc. Venue, Year.', LNCS "Authors: Title. In: Venue (Year)", numbered
"[12] …"). ``parse_reference`` says None for anything that does not look like one, so plain keyword
queries are never reinterpreted: a citation needs a year and the punctuation of a reference
(sentences, quotes, "In …", "et al."), and query-language syntax (``author:``, ``venue:``) rules
it out.

BibTeX is read with bibtexparser (``refs.bib``); the field values it gives are LaTeX, made plain here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..text import clean

MAX_CITATION_CHARS = 4000        # a pasted reference longer than this is not one reference

_YEAR = re.compile(r"(?<![\d/.])((?:19[5-9]|20[0-4])\d)[a-z]?(?![\d/])")
_NUMBERING = re.compile(r"^\s*(?:\[\s*[\w+.-]{1,12}\s*\]|\(\d{1,4}\)|\d{1,4}[.)])\s+")
_QUERY_FIELD = re.compile(r"(?:^|\s)-?(?:author|authors|title|abstract|keyword|venue|family|year|status|"
                          r"accepted|track|rating|topic):\S", re.IGNORECASE)
# a quoted title after the authors (IEEE): four letters are enough ('Abu-Mostafa, "Hints," 1995')
_QUOTED = re.compile(r"[\"“”]\s*(?P<t>[^\"“”]{4,400}?)[,.]?\s*[\"“”]")
_APA = re.compile(r"^(?P<a>.{2,600}?)\s*\((?P<y>(?:19|20)\d\d)[a-z]?(?:,[^)]{0,30})?\)\.?\s*(?P<rest>.+)$")
_ACL = re.compile(r"^(?P<a>.{2,600}?)[.,]\s*(?P<y>(?:19|20)\d\d)[a-z]?\.\s+(?P<rest>.+)$")
_LNCS = re.compile(r"^(?P<a>[^:]{2,600}?):\s+(?P<rest>.+)$")
_VNAME = r"[A-Z][\w'’-]+(?: [A-Z][\w'’-]+)* [A-Z]{1,3}"        # "Abbeel P", "van der Maaten LJ"
_VANCOUVER = re.compile(rf"^(?P<a>(?:{_VNAME}, )+{_VNAME}(?:,? et al)?|{_VNAME},? et al)\.\s+(?P<rest>.+)$")
# "Ba, J. Adam: …": after a family-first name's initials, a word not followed by "," starts the title
_FAMILY_INITIALS_END = re.compile(r"(?<=, [A-Z]\.)\s+(?=(?!and\b|et\b)[A-Z][\w'’-]*(?:[\s:]))"
                                  r"|(?<=, [A-Z]\. [A-Z]\.)\s+(?=(?!and\b|et\b)[A-Z][\w'’-]*(?:[\s:]))")
_IN = re.compile(r"^(?:In:?|in:?)\s+", re.UNICODE)
_ETAL = re.compile(r"\bet\s*al\b\.?", re.IGNORECASE)
# A sentence ends at ". " unless the period closes an initial ("J. Smith") or a short abbreviation.
_SENTENCE_END = re.compile(r"(?<=[^\s.]{2}[.?!])\s+|(?<=[\d)][.?!])\s+")
_ABBREV_END = re.compile(r"(?:\b(?:Proc|Conf|Int|Intl|Vol|No|pp|Trans|Assoc|Comput|Ling|Annu|Mach|Learn|"
                         r"Res|Neural|Inf|Process|Syst|Adv|Eds?|eds?|Symp|Workshop|Jr|Sr|Dr|Univ|Dept|Jan|Feb|"
                         r"Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|vs|Sci|Stat|Artif|Intell|Eng)\.)$")
_VENUE_WORDS = re.compile(r"\b(?:proceedings|proc\.|conference|conf\.|journal|transactions|workshop|"
                          r"symposium|"
                          r"arxiv|preprint|corr|advances in|neurips|nips|iclr|icml|acl|emnlp|naacl|cvpr|iccv|"
                          r"eccv|aaai|ijcai|findings|volume|vol\.|pp\.|pages|press|springer|ieee|acm)\b",
                          re.IGNORECASE)
_NAME_TOKEN = re.compile(r"^(?:[A-Z][\w'’\-]*\.?|[a-z]{1,3}|and|&|et|al\.?|[A-Z]\.(?:-?[A-Z]\.)*)$")
_ARXIV = re.compile(r"(?:arxiv[:\s/]*(?:abs/)?|arxiv\.org/(?:abs|pdf)/)(\d{4}\.\d{4,5})(?:v\d+)?",
                    re.IGNORECASE)
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>{}]+[^\s\"<>{}.,;])")
_ACL_ID = re.compile(r"aclanthology\.org/([\w.-]+?)(?:\.pdf)?/?(?:\s|$)"
                     r"|aclweb\.org/anthology/([\w.-]+?)(?:\.pdf)?/?(?:\s|$)")
_OPENREVIEW = re.compile(r"openreview\.net/(?:forum|pdf)\?id=([\w-]+)")


@dataclass(slots=True)
class Citation:
    """What a pasted reference says: its title, authors (as written), year and venue, and the
    ids it carries (doi, arxiv, acl, openreview). ``kind`` is "bibtex" or "reference"."""

    title: str
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    venue: str = ""
    kind: str = "reference"
    ids: dict[str, str] = field(default_factory=dict)


def is_query_syntax(text: str) -> bool:
    """True when a query uses the query language's fields (``author:``, ``venue:`` …)."""
    return _QUERY_FIELD.search(text) is not None


def parse_reference(text: str) -> Citation | None:
    """One line of a reference list, or None when it has no year or no reference punctuation."""
    s = clean(text.replace("\n", " "))
    s = _NUMBERING.sub("", s, count=1)
    years = [int(m.group(1)) for m in _YEAR.finditer(s)]
    if not years or len(s.split()) < 5:
        return None
    ids = find_ids(s)
    s_noid = re.sub(r"\s*(?:https?://|doi:|arXiv:)\S+", "", s, flags=re.IGNORECASE).strip()
    q = _QUOTED.search(s_noid)
    # IEEE and MLA quote the title right after the names, the year after it; a quoted word after a
    # year is inside a title ('Lo. 2024. One Thousand and One Pairs: A “novel” challenge …')
    if q and not _YEAR.search(s_noid[:q.start()]) and _looks_like_authors(s_noid[:q.start()]):
        title = q.group("t").strip(" ,.")
        authors = _authors(s_noid[:q.start()])
        venue = _IN.sub("", s_noid[q.end():].strip(" ,.")).strip()
        return _made(title, authors, _year_in(s_noid[q.end():]) or years[-1], venue, ids)
    m = _APA.match(s_noid)
    if m and _looks_like_authors(m.group("a")):
        title, venue = _title_and_venue(m.group("rest"))
        return _made(title, _authors(m.group("a")), int(m.group("y")), venue, ids)
    m = _ACL.match(s_noid)
    if m and _looks_like_authors(m.group("a")):
        title, venue = _title_and_venue(m.group("rest"))
        return _made(title, _authors(m.group("a")), int(m.group("y")), venue, ids)
    m = _VANCOUVER.match(s_noid)                    # "Ho J, Jain A, Abbeel P. Title. Venue. 2020;33:1-9."
    if m:
        title, venue = _title_and_venue(m.group("rest"))
        names = [a.strip() for a in _ETAL.sub("", m.group("a")).split(",") if a.strip()]
        return _made(title, names, _year_in(venue) or years[-1], venue, ids)
    parts = sentences(s_noid)                       # "Authors. Title. Venue, Year."
    # names never hold a colon: "Parikh, D.: Making the V in VQA Matter: …" is LNCS (a Title Case
    # title after the colon reads like more names)
    if len(parts) >= 3 and ":" not in parts[0] and _looks_like_authors(parts[0]):
        title, venue = _title_and_venue(" ".join(parts[1:]))
        return _made(title, _authors(parts[0]), _year_in(venue) or years[-1], venue, ids)
    m = _LNCS.match(s_noid)                         # "Authors: Title. In: Venue (Year)"
    if m and _looks_like_authors(m.group("a")):
        title, venue = _title_and_venue(m.group("rest"))
        return _made(title, _authors(m.group("a")), _year_in(venue) or years[-1], venue, ids)
    return None


def _made(title: str, authors: list[str], year: int | None, venue: str,
          ids: dict[str, str]) -> Citation | None:
    title = title.strip(" .,;:")
    if len(title) < 4 or len(title.split()) > 60:
        return None
    return Citation(title=title, authors=authors, year=year, venue=venue.strip(" .,;"), ids=ids)


def _year_in(s: str) -> int | None:
    m = _YEAR.search(s)
    return int(m.group(1)) if m else None


def sentences(s: str) -> list[str]:
    """The sentences of a reference: split after ". " except after initials and abbreviations."""
    s = _ETAL.sub("etal.", s)             # "Smith et al. Title …": a sentence ends after "et al."
    out: list[str] = []
    start = 0
    ends = sorted([*_SENTENCE_END.finditer(s), *_FAMILY_INITIALS_END.finditer(s)], key=lambda m: m.start())
    for m in ends:
        if m.start() < start:
            continue
        piece = s[start:m.start()]
        if _ABBREV_END.search(piece):
            continue
        out.append(piece.strip())
        start = m.end()
    out.append(s[start:].strip())
    return [p for p in out if p]


def _title_and_venue(rest: str) -> tuple[str, str]:
    """Title is the first sentence of what follows the authors (and year); the venue the rest."""
    parts = sentences(rest)
    if not parts:
        return "", ""
    title, venue = parts[0], " ".join(parts[1:])
    # a title with a question mark or a colon subtitle can be split in two: join a short tail back
    if len(parts) > 2 and not _VENUE_WORDS.search(parts[1]) and not _IN.match(parts[1]) \
            and not _YEAR.search(parts[1]) and len(parts[1].split()) <= 12:
        title, venue = parts[0] + " " + parts[1], " ".join(parts[2:])
    return title, _IN.sub("", venue).strip()


def _looks_like_authors(s: str) -> bool:
    """Names: mostly capitalised words and initials, commas or "and" between them; no venue words."""
    s = s.strip(" .,")
    if not s or _VENUE_WORDS.search(s) or len(s) > 600:
        return False
    words = [w.strip(",;") for w in s.split() if w.strip(",;")]
    if not words:
        return False
    named = sum(1 for w in words if _NAME_TOKEN.match(w) or not w.isascii() or w in ("etal", "etal."))
    joined = "," in s or " and " in s or "&" in s or "etal" in s or "et al" in s or len(words) <= 4
    return named / len(words) >= 0.8 and joined


_INITIALS = re.compile(r"^(?:[A-Z]\.\s*-?)+$")


def _authors(s: str) -> list[str]:
    """Author names from a names segment: "A. Smith, B. Jones, and C. Lee", "Smith, J., Jones, B.",
    "Smith, John and Jones, Bob", "Smith J, Jones B" (family names are what matching uses)."""
    s = _ETAL.sub("", s).strip(" ,.;:")
    s = re.sub(r",?\s*(?:\band\b|&)\s+", ", ", s)
    parts = [p.strip() for p in s.split(",") if p.strip()]
    out: list[str] = []
    i = 0
    while i < len(parts):
        p = parts[i]
        nxt = parts[i + 1] if i + 1 < len(parts) else ""
        # "Smith, J." / "Smith, John" (family first): join with the next part when it is initials
        # or a single given name and this part is one word
        given = _INITIALS.match(nxt) or (len(nxt.split()) == 1 and nxt[:1].isupper() and len(nxt) <= 2)
        if nxt and len(p.split()) == 1 and given:
            out.append(f"{p}, {nxt}")
            i += 2
            continue
        out.append(p)
        i += 1
    return [a for a in out if any(c.isalpha() for c in a)][:100]


def find_ids(s: str) -> dict[str, str]:
    """The ids a reference carries: a DOI, an arXiv id, an ACL Anthology id, an OpenReview forum."""
    ids: dict[str, str] = {}
    if (m := _ARXIV.search(s)) is not None:
        ids["arxiv"] = m.group(1)
    if (m := _DOI.search(s)) is not None:
        doi = m.group(1)
        if doi.lower().startswith("10.48550/arxiv."):
            ids.setdefault("arxiv", doi.split(".", 2)[2] if doi.count(".") >= 2 else doi)
        else:
            ids["doi"] = doi
    if (m := _ACL_ID.search(s + " ")) is not None:
        ids["acl"] = m.group(1) or m.group(2)
    if (m := _OPENREVIEW.search(s)) is not None:
        ids["openreview"] = m.group(1)
    return ids

