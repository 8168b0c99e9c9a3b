"""The query language: parse what a user typed into words, phrases, field clauses and filters.

    graph neural networks               plain words (ranked: more matched words rank higher)
    "contrastive learning"              an exact phrase (required)
    -survey   -"large language"         exclude a word or phrase
    author:"Yoshua Bengio"  author:bengio   papers by an author (whole name, or one name word)
    title:transformer  abstract:"zero-shot"  keyword:robotics   restrict words to one field
    venue:neurips  venue:nips,icml      a venue by key or alias (case-insensitive); OR-ed
    family:acl                          a venue with its in-family sub-venues (ACL + Findings of ACL)
    year:2024  year:2020..2024  year:>=2022  year:..2019
    status:oral  accepted:true  track:main  topic:<slug>
    rating:>=6  rating:>6  rating:<5  rating:5..6  rating:5.5..  rating:=6
                                        mean review rating (``rating:6`` = ``rating:>=6``); unrated
                                        papers never match
    -venue:cvpr  -status:rejected       negate any filter (but rating: say rating:<6)

Parsing never fails. An unbalanced quote, an unknown field (``foo:bar``), an unknown venue or
status, or a bad year or rating degrades to plain text and a note in ``ParsedQuery.notes``.
Queries are cut at ``MAX_QUERY_CHARS``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

from .. import venues as venue_registry
from ..models import STATUSES
from .model import MAX_QUERY_CHARS, InterpretedFilters

YEAR_MIN, YEAR_MAX = 1900, 2100
RATING_MIN, RATING_MAX = 0.0, 100.0       # no review scale goes past 100 (sources/reviews.py)

# field name as typed -> canonical field
TEXT_FIELDS = {"title": "title", "ti": "title", "author": "authors", "authors": "authors", "au": "authors",
               "by": "authors", "abstract": "abstract", "abs": "abstract", "keyword": "keywords",
               "keywords": "keywords", "kw": "keywords"}
FILTER_FIELDS = {"venue": "venue", "conf": "venue", "conference": "venue", "in": "venue",
                 "family": "family", "year": "year", "y": "year", "status": "status", "decision": "status",
                 "accepted": "accepted", "track": "track", "topic": "topic",
                 "rating": "rating"}

STATUS_ALIASES = {
    **{s: s for s in STATUSES},
    "orals": "oral", "spotlights": "spotlight", "highlights": "highlight", "posters": "poster",
    "accept": "accepted", "reject": "rejected", "withdraw": "withdrawn", "desk-reject": "desk-rejected",
    "deskrejected": "desk-rejected", "desk_rejected": "desk-rejected", "desk-rejection": "desk-rejected",
    "review": "under-review", "reviewing": "under-review", "underreview": "under-review",
    "under_review": "under-review", "submitted": "under-review", "pending": "under-review",
}
TRUE_WORDS = {"true", "yes", "1", "y", "t"}
FALSE_WORDS = {"false", "no", "0", "n", "f"}

_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"',
                         "\uff02": '"'})
_FIELD = re.compile(r"([A-Za-z_]+):")
_YEAR = re.compile(r"^(\d{4})$")
_YEAR_RANGE = re.compile(r"^(\d{4})?\s*(?:\.\.\.?|-|–|:)\s*(\d{4})?$")
_YEAR_CMP = re.compile(r"^(>=|<=|>|<)(\d{4})$")
_NUM = r"(\d+(?:\.\d+)?|\.\d+)"
_RATING_CMP = re.compile(rf"^(>=|<=|>|<|=)?\s*{_NUM}$")
_RATING_RANGE = re.compile(rf"^{_NUM}?\s*\.\.\.?\s*{_NUM}?$")
_SLUG = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


@dataclass(slots=True)
class TextClause:
    """Words or a phrase, on all text fields (``field`` None) or on one of them."""

    text: str
    field: str | None = None       # None, "title", "authors", "abstract", "keywords"
    phrase: bool = False           # quoted: the words must be adjacent, in order
    negated: bool = False


@dataclass(slots=True)
class Filters:
    """Exact filters; lists are OR-ed, different filters AND-ed."""

    venues: list[str] = field(default_factory=list)
    families: list[str] = field(default_factory=list)
    year_from: int | None = None
    year_to: int | None = None
    statuses: list[str] = field(default_factory=list)
    accepted: bool | None = None
    tracks: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    not_venues: list[str] = field(default_factory=list)
    not_families: list[str] = field(default_factory=list)
    not_statuses: list[str] = field(default_factory=list)
    not_tracks: list[str] = field(default_factory=list)
    not_topics: list[str] = field(default_factory=list)
    not_years: list[tuple[int | None, int | None]] = field(default_factory=list)
    # mean review rating; unrated papers never match. *_exclusive True: > / < instead of >= / <=
    rating_min: float | None = None
    rating_max: float | None = None
    rating_min_exclusive: bool | None = None
    rating_max_exclusive: bool | None = None

    def any(self) -> bool:
        return any(getattr(self, f) not in (None, []) for f in self.__slots__)

    def to_dict(self) -> InterpretedFilters:
        """The filters that are set (lists not empty, values not None), in field order. The keys are
        the field names (tests/test_types.py checks InterpretedFilters names the same ones)."""
        set_ = {f: v for f in self.__slots__ if (v := getattr(self, f)) not in (None, [])}
        return cast(InterpretedFilters, set_)

    def restrict_rating(self, r: RatingRange) -> None:
        """Intersect the rating filter with ``r`` (the tighter bound wins; at equal values, the
        exclusive one)."""
        if r.lo is not None and (self.rating_min is None or r.lo > self.rating_min
                                 or (r.lo == self.rating_min and r.lo_exclusive)):
            self.rating_min, self.rating_min_exclusive = r.lo, r.lo_exclusive or None
        if r.hi is not None and (self.rating_max is None or r.hi < self.rating_max
                                 or (r.hi == self.rating_max and r.hi_exclusive)):
            self.rating_max, self.rating_max_exclusive = r.hi, r.hi_exclusive or None

    def rating_range(self) -> RatingRange | None:
        """The rating filter, None when there is none."""
        if self.rating_min is None and self.rating_max is None:
            return None
        return RatingRange(self.rating_min, self.rating_max, bool(self.rating_min_exclusive),
                           bool(self.rating_max_exclusive))


@dataclass(frozen=True, slots=True)
class RatingRange:
    """Bounds on the mean review rating (None: open); exclusive bounds are > and <."""

    lo: float | None = None
    hi: float | None = None
    lo_exclusive: bool = False
    hi_exclusive: bool = False


@dataclass(slots=True)
class ParsedQuery:
    raw: str                                                  # the query as used (cut to the limit)
    words: list[str] = field(default_factory=list)            # plain words, in order (ranked)
    clauses: list[TextClause] = field(default_factory=list)   # phrases, field clauses, exclusions
    filters: Filters = field(default_factory=Filters)
    prefix_last: bool = False      # the last plain word may be unfinished (no space after it)
    notes: list[str] = field(default_factory=list)

    @property
    def has_text(self) -> bool:
        """Anything that ranks (words, or positive phrases / field clauses)."""
        return bool(self.words) or any(not c.negated for c in self.clauses)

    def text(self) -> str:
        """The positive free text, for display and suggestions."""
        return " ".join(self.words)

    def constraints(self) -> list[TextClause]:
        """The clauses every result must hold to: phrases, field clauses and exclusions (a plain
        clause only ranks)."""
        return [c for c in self.clauses if c.field is not None or c.phrase or c.negated]


def parse(q: str, known_venues: Iterable[str] | None = None) -> ParsedQuery:
    """Parse ``q``. ``known_venues`` (venue keys present in the index) lets ``venue:`` accept keys
    that are not in the registry, and turns venues that match nothing into plain text."""
    q = (q or "")[:MAX_QUERY_CHARS]
    scan = _Scanner(q.translate(_QUOTES), ParsedQuery(raw=q),
                    set(known_venues) if known_venues is not None else None)
    i = 0
    while i < len(scan.s):
        i = scan.step(i)
    out = scan.out
    out.prefix_last = scan.last_end_plain and bool(out.words) and not q[-1:].isspace()
    return out


class _Scanner:
    """Reads a query left to right, one item a step: a space, a ``field:value``, a quoted phrase or
    a plain token, each but a space possibly excluded by a leading "-"."""

    def __init__(self, s: str, out: ParsedQuery, known: set[str] | None) -> None:
        self.s = s
        self.out = out
        self.known = known
        self.last_end_plain = False     # the last item read was a plain word (it may be unfinished)

    def step(self, i: int) -> int:
        """Read the item at ``i``; where the next one starts."""
        s = self.s
        if s[i].isspace():
            self.last_end_plain = False
            return i + 1
        neg = s[i] == "-" and i + 1 < len(s) and not s[i + 1].isspace()
        j = i + 1 if neg else i
        m = _FIELD.match(s, j)
        fname = m.group(1).lower() if m else None
        if m and (fname in TEXT_FIELDS or fname in FILTER_FIELDS):
            return self._field(m, neg)
        if s[j:j + 1] == '"':
            return self._phrase(j, neg)
        return self._token(j, neg, fname)

    def _field(self, m: re.Match[str], neg: bool) -> int:
        """``field:value``: a field clause or a filter; plain text when the value is not valid."""
        fname = m.group(1).lower()
        value, end, quoted = _value(self.s, m.end())
        if value is None or not value.strip():
            # "author:" with nothing after it: the field name is just a word
            _add_plain(self.out, fname, neg)
            return m.end()
        if not _apply_field(self.out, fname, value.strip(), quoted, neg, self.known):
            _add_plain(self.out, value if quoted else f"{fname} {value}", neg, phrase=quoted)
        self.last_end_plain = False
        return end

    def _phrase(self, j: int, neg: bool) -> int:
        """A quoted phrase starting at ``j``."""
        close = self.s.find('"', j + 1)
        if close == -1:                      # unbalanced quote: the rest is plain words
            self.out.notes.append("unbalanced quote ignored")
            return j + 1
        _add_plain(self.out, self.s[j + 1:close], neg, phrase=True)
        self.last_end_plain = False
        return close + 1

    def _token(self, j: int, neg: bool, fname: str | None) -> int:
        """A plain token (``fname``: an unknown field name it starts with, if any)."""
        s, n = self.s, len(self.s)
        end = j
        while end < n and not s[end].isspace() and s[end] != '"':
            end += 1
        token = s[j:end]
        if fname is not None and token.count(":") == 1 and not token.endswith(":"):
            self.out.notes.append(f"unknown field {fname!r} searched as text")
        if token in ("AND", "OR", "&&", "||"):     # boolean operators: ranking already ORs words
            return end
        _add_plain(self.out, token, neg)
        self.last_end_plain = not neg and bool(_word_chars(token))
        return end


def _value(s: str, start: int) -> tuple[str | None, int, bool]:
    """The value after ``field:``: a quoted string or a run of non-space characters."""
    if s[start:start + 1] == '"':
        close = s.find('"', start + 1)
        if close == -1:
            return s[start + 1:], len(s), True
        return s[start + 1:close], close + 1, True
    end = start
    while end < len(s) and not s[end].isspace():
        end += 1
    return (s[start:end] or None), end, False


def _word_chars(s: str) -> str:
    return "".join(ch for ch in s if ch.isalnum())


def _add_plain(out: ParsedQuery, text: str, neg: bool, phrase: bool = False) -> None:
    if not _word_chars(text):
        return
    if neg:
        out.clauses.append(TextClause(text, None, phrase, True))
    elif phrase:
        out.clauses.append(TextClause(text, None, True, False))
    else:
        out.words.append(text)


def _apply_field(out: ParsedQuery, fname: str, value: str, quoted: bool, neg: bool,
                 known: set[str] | None) -> bool:
    """Apply one ``field:value``; False when the value is not valid for the field."""
    if fname in TEXT_FIELDS:
        if not _word_chars(value):
            return False
        out.clauses.append(TextClause(value, TEXT_FIELDS[fname], quoted, neg))
        return True
    kind = FILTER_FIELDS[fname]
    if kind == "year":
        return _apply_years(out, value, neg)
    if kind == "rating":
        return _apply_rating(out, fname, value, neg)
    if kind == "accepted":
        return _apply_accepted(out, value, neg)
    return _apply_values(out, kind, value, neg, known)


def _apply_years(out: ParsedQuery, value: str, neg: bool) -> bool:
    """``year:``: the range narrows the years (``-year:`` leaves the range out)."""
    f = out.filters
    rng = parse_years(value)
    if rng is None:
        out.notes.append(f"bad year {value!r} searched as text")
        return False
    if neg:
        f.not_years.append(rng)
    else:
        lo, hi = rng
        f.year_from = lo if f.year_from is None or lo is None else max(f.year_from, lo)
        f.year_to = hi if f.year_to is None or hi is None else min(f.year_to, hi)
    return True


def _apply_rating(out: ParsedQuery, fname: str, value: str, neg: bool) -> bool:
    """``rating:``: the range narrows the mean ratings."""
    if neg:         # "not rated >= 6" would have to include the unrated papers: say rating:<6
        out.notes.append(f"-{fname}: is not supported (use rating:<6 or rating:>6); ignored")
        return True
    rr = parse_ratings(value)
    if rr is None:
        out.notes.append(f"bad rating {value!r} searched as text")
        return False
    out.filters.restrict_rating(rr)
    return True


def _apply_accepted(out: ParsedQuery, value: str, neg: bool) -> bool:
    """``accepted:yes`` / ``accepted:no`` (``-accepted:yes`` is ``accepted:no``)."""
    v = value.lower()
    if v not in TRUE_WORDS and v not in FALSE_WORDS:
        out.notes.append(f"bad accepted value {value!r} searched as text")
        return False
    out.filters.accepted = (v in TRUE_WORDS) != neg
    return True


def _apply_values(out: ParsedQuery, kind: str, value: str, neg: bool, known: set[str] | None) -> bool:
    """A list of venues, families, statuses, tracks or topics ("venue:neurips,icml"), each kept
    (or left out) once; False, with a note, when one of them is unknown."""
    values = [v.strip() for v in value.split(",") if v.strip()]
    if not values:
        return False
    resolved: list[str] = []
    for v in values:
        r = _resolve(kind, v, known)
        if r is None:
            out.notes.append(f"unknown {kind} {v!r} searched as text")
            return False
        resolved.append(r)
    target = getattr(out.filters, ("not_" if neg else "") + _plural(kind))
    target.extend(r for r in resolved if r not in target)
    return True


def _plural(kind: str) -> str:
    return {"venue": "venues", "family": "families", "status": "statuses", "track": "tracks",
            "topic": "topics"}[kind]


def _resolve(kind: str, v: str, known: set[str] | None) -> str | None:
    if kind in ("venue", "family"):
        return resolve_venue(v, known)
    if kind == "status":
        return resolve_status(v)
    slug = v.lower()
    return slug if _SLUG.match(slug) else None


def resolve_venue(v: str, known: set[str] | None = None) -> str | None:
    """A venue key for a key, alias or short name ("nips", "NeurIPS", "Findings of ACL"), or None.
    With ``known``, keys outside the registry are accepted when present in the index."""
    key = venue_registry.resolve(v)
    if key is None:
        cand = venue_registry.canonical(v)
        if known is not None and cand in known:
            return cand
        return None
    return key


def resolve_status(v: str) -> str | None:
    return STATUS_ALIASES.get(v.strip().lower().replace(" ", "-"))


def parse_years(value: str) -> tuple[int | None, int | None] | None:
    """"2024" -> (2024, 2024); "2020..2024" / "2020-2024" -> (2020, 2024); ">=2022" -> (2022, None);
    "..2019" -> (None, 2019). Reversed ranges are swapped. None when malformed."""
    v = value.strip()
    if m := _YEAR.match(v):
        y = int(m.group(1))
        return (y, y) if YEAR_MIN <= y <= YEAR_MAX else None
    if m := _YEAR_CMP.match(v):
        op, y = m.group(1), int(m.group(2))
        if not YEAR_MIN <= y <= YEAR_MAX:
            return None
        return {">=": (y, None), ">": (y + 1, None), "<=": (None, y), "<": (None, y - 1)}[op]
    if (m := _YEAR_RANGE.match(v)) and (m.group(1) or m.group(2)):
        lo = int(m.group(1)) if m.group(1) else None
        hi = int(m.group(2)) if m.group(2) else None
        if any(y is not None and not YEAR_MIN <= y <= YEAR_MAX for y in (lo, hi)):
            return None
        if lo is not None and hi is not None and lo > hi:
            lo, hi = hi, lo
        return lo, hi
    return None


def parse_ratings(value: str) -> RatingRange | None:
    """A mean-rating filter: "6" or ">=6" -> at least 6 (a bare number is a minimum: means such as
    6.25 are never exactly 6), ">6" / "<5" / "<=5.5" strict or not, "=6" exactly 6, "5..6" both
    inclusive, "5.5.." / "..5" open-ended. None when malformed, outside 0..100 or reversed."""
    v = value.strip()
    if m := _RATING_CMP.match(v):
        op, x = m.group(1) or ">=", float(m.group(2))
        if not RATING_MIN <= x <= RATING_MAX:
            return None
        return {">=": RatingRange(x), ">": RatingRange(x, lo_exclusive=True), "<=": RatingRange(None, x),
                "<": RatingRange(None, x, hi_exclusive=True), "=": RatingRange(x, x)}[op]
    if (m := _RATING_RANGE.match(v)) and (m.group(1) or m.group(2)):
        lo = float(m.group(1)) if m.group(1) else None
        hi = float(m.group(2)) if m.group(2) else None
        if any(x is not None and not RATING_MIN <= x <= RATING_MAX for x in (lo, hi)):
            return None
        if lo is not None and hi is not None and lo > hi:
            return None
        return RatingRange(lo, hi)
    return None
