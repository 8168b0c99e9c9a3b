"""Author names: splitting author strings, "Last, First" forms and the stable author key.

The key is the folded name in "given family" order with intra-word hyphens and apostrophes
removed, so "Zhou, Zhi-Hua", "Zhi-Hua Zhou", {given: "Zhi-Hua", family: "Zhou"} and
"Zhihua Zhou" share the key "zhihua-zhou", while "Michael J. Black" and "Michael Black" stay
apart: we never merge people on less than their whole written name.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .models import Author
from .text import clean, fold, latex_plain

_JOINER = re.compile(r"(?<=\w)[-'’‐‑](?=\w)")
_TOKEN = re.compile(r"\w+", re.UNICODE)
_NOISE = re.compile(r"^(?:and|et al\.?|others)$", re.I)


@lru_cache(maxsize=1 << 18)
def author_key(name: str) -> str:
    """Stable key for a display name ("Zhi-Hua Zhou" -> "zhihua-zhou"); "" for no name."""
    s = fold(name).casefold()
    s = _JOINER.sub("", s)
    return "-".join(t for t in _TOKEN.findall(s) if t != "_")


def flip_comma_name(name: str) -> str:
    """"Zhou, Zhi-Hua" -> "Zhi-Hua Zhou"; names without exactly one comma are kept."""
    if name.count(",") == 1:
        family, given = (p.strip() for p in name.split(","))
        if family and given:
            return f"{given} {family}"
        return family or given
    return name


def display_name(given: str | None, family: str | None) -> str:
    return clean(f"{given or ''} {family or ''}")


def split_author_string(value: str) -> list[str]:
    """Split a source's author string. Lists use ';' in some files and ',' in others: when a ';'
    is present it is the separator (and a part with one comma is "Last, First"); otherwise ','.
    A list that is the same list written twice (seen in ICRA/IROS files) is kept once."""
    s = clean(value)
    if not s:
        return []
    if ";" in s:
        parts = [flip_comma_name(p.strip().rstrip(",").strip()) for p in s.split(";")]
    else:
        parts = [p.strip() for p in s.split(",")]
    names = [clean(p) for p in parts if p.strip() and not _NOISE.match(p.strip())]
    names = [n for n in names if author_key(n)]
    n = len(names)
    if n >= 2 and n % 2 == 0 and names[: n // 2] == names[n // 2:]:
        names = names[: n // 2]
    return names


_GLUED = re.compile(r"\s+and\s+")
_CHAR13 = re.compile(r"\\(?:textsc\s*)?\\char\s*13\s*")        # OT1's apostrophe: "D\textsc\char13Acunto"


def _clean_name(name: str) -> list[str]:
    """One source name as the people it names: LaTeX decoded ("Yaz{\\i}c{\\i}" is "Yazıcı"), and
    two full names a source glued with "and" ("Anand Mishra and Anirban Chakraborty", the last two
    of a list written "A, B, C and D") made two. "Evangelos and Zervas" stays one name."""
    if "\\" in name or "{" in name:
        name = latex_plain(_CHAR13.sub("'", name))
    name = re.sub(r"^(?:and\s+)+|(?:\s+and)+$", "", name)     # "Vassilios Morellas and": a list's joiner
    parts = _GLUED.split(name)
    return parts if len(parts) > 1 and all(len(p.split()) >= 2 for p in parts) else [name]


def make_authors(names: list[str], affiliations: list[str] | None = None) -> list[Author]:
    """Authors from display names, with affiliations matched by position when the counts agree."""
    affs = affiliations if affiliations and len(affiliations) == len(names) else None
    out = []
    for i, raw in enumerate(names):
        for n in _clean_name(raw):
            key = author_key(n)
            if key:
                out.append(Author(name=n, key=key, affiliation=(affs[i] or None) if affs else None))
    return out
