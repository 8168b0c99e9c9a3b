"""Ruichen0424/ai-top-conf-jsons: ``<CONF>/<conf>_<year>.json``, one JSON list of
``{title, url, track?, subtrack?}`` per conference-year (AAAI, ACL, CVPR, ECCV, EMNLP, ICCV, ICLR,
ICML, IJCAI, NeurIPS) and per journal volume year (TPAMI, IJCV, TIP), gathered from the official
proceedings sites.

Titles and links only. The link is the paper's page: an OpenReview forum id, an ACL Anthology id and
a DOI become ids; CVF, PMLR, NeurIPS, AAAI, IJCAI and ECVA pages are matched by the merge through
the link itself (``normalize.link_id``). ``track`` means three things: ACL's "Long Paper" / "Short
Paper" (the track); AAAI's "AAAI Technical Track on Computer Vision IX" and IJCAI's "Main: Machine
Learning" (the main track and its area); and for ICLR, NeurIPS and ICML the primary area chosen at
submission. ICML's ``subtrack`` is the sub-area, kept as a keyword.

Two scraping artifacts are handled here: each ACL volume opens with its front matter (a
proceedings title, not a paper: skipped), and about 5% of ACL and EMNLP titles carry the first
author's given name glued to their end (see ``GluedNames``).
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import orjson

from .. import venues
from ..models import Record
from ..text import clean, title_key
from . import normalize as nz
from .base import Collector, Parsed, SourceError, SourceFile

NAME_RE = re.compile(r"^([a-z][a-z0-9]*)_(\d{4})$")

# Tracks that name the main track and carry the area after a prefix (AAAI, IJCAI).
_AREA_PREFIXES = re.compile(
    r"^(?:AAAI Technical Track(?: on|:)|Technical Papers:|Main Track:|Main:)\s*(?P<area>.+?)(?:\s+[IVXL]+)?$")
_ROMAN = re.compile(r"\s+[IVXL]+$")
_RETRACTED = re.compile(r"\s*RETRACTED\s*:\s*")
# An ACL Anthology id: new style "2023.acl-long.48", old style "P16-1001".
_ACL_ID = re.compile(r"aclanthology\.org/+(\d{4}\.[a-z0-9-]+\.[a-z0-9]+|[A-Z]\d{2}-\d{4})(?:\.bib|\.pdf)?/?$")


class AiTopConfReader:
    name = "aitopconf"
    version = 1

    def sniff(self, src: SourceFile) -> bool:
        head = src.data[:2048].lstrip()
        return bool(NAME_RE.match(src.stem)) and head.startswith(b"[") and b'"url"' in head \
            and b'"title"' in head

    def file_key(self, src: SourceFile) -> str:
        return f"aitopconf:{src.stem}"

    def parse(self, src: SourceFile) -> Parsed:
        m = NAME_RE.match(src.stem)
        if not m:
            raise SourceError(f"file name {src.basename!r} has no year (expected <conf>_<year>.json, e.g. "
                              "icml_2026.json)")
        venue, year = venues.canonical(m.group(1)), nz.year(m.group(2))
        try:
            data = orjson.loads(src.data)
        except orjson.JSONDecodeError as e:
            raise SourceError(f"not valid JSON: {str(e).splitlines()[0]}") from None
        if not isinstance(data, list):
            raise SourceError("expected a JSON list of papers")
        glued = GluedNames([r.get("title") for r in data if isinstance(r, dict)]) \
            if venues.family(venue) in ("acl", "emnlp") else None
        fkey = self.file_key(src)
        col = Collector()
        seen: set[tuple[str, str | None]] = set()
        for i, raw in enumerate(data):
            col.add(f"record {i}", partial(self._record, raw, fkey, venue, year, glued, seen))
        return col.out

    def _record(self, r: Any, fkey: str, venue: str, year: int, glued: GluedNames | None,
                seen: set[tuple[str, str | None]]) -> Record:
        raw_title = _checked_title(r)
        base = "https://aclanthology.org" if glued is not None else None   # ACL's lists have relative links
        url = nz.url(r.get("url"), base) if r.get("url") else None
        ids, links, venue, track = _page(url, venue, r.get("track"))
        title, extra = _title(raw_title, glued)
        area, track = _area_track(venue, r.get("track"), url or "", track)
        # A list that names one title twice in one track lists one paper twice (IJCAI 2020 #215 and
        # #216); in two tracks, they are two publications (an AAAI paper and its student abstract).
        if (title_key(title), track) in seen:
            raise nz.RecordError("lists the same title again in the same track (kept the first)")
        seen.add((title_key(title), track))
        sub = clean(r.get("subtrack"))
        return nz.record(
            # the key: the paper's id, else its page's address (unique in a list, and what a user
            # may paste to find it), else its title
            source=self.name, file=fkey, key=ids.get("acl") or ids.get("openreview") or ids.get("doi")
            or url or f"t:{title_key(title)[:120]}",
            venue=venue, year=year, title=title, authors=[], track=track, status="accepted",
            primary_area=area, keywords=[sub] if sub else [], links=links, ids=ids, extra=extra,
            biblio=_journal(venue),
        )


def _checked_title(r: Any) -> str:
    """The title of a well-formed entry: an object with a title, its other fields text."""
    if not isinstance(r, dict):
        raise nz.RecordError("expected an object")
    raw_title = r.get("title")
    if not isinstance(raw_title, str) or not clean(raw_title):
        raise nz.RecordError("record has no title")
    for f in ("url", "track", "subtrack"):
        if r.get(f) is not None and not isinstance(r[f], str):
            raise nz.RecordError(f"'{f}' should be text")
    return raw_title


def _page(url: str | None, venue: str,
          raw_track: object) -> tuple[dict[str, str], dict[str, str], str, str | None]:
    """(ids, links, venue, track) from the paper's page: an ACL Anthology page gives the id, the
    track and, for a Findings paper, its venue; an OpenReview forum or a DOI an id; any other page
    is the link."""
    ids: dict[str, str] = {}
    links: dict[str, str] = {}
    track = None
    acl = _ACL_ID.search(url or "")
    if acl:
        aid = acl.group(1)
        if _front_matter(aid):
            raise nz.RecordError("front matter of a volume, not a paper")
        ids["acl"] = aid
        links["site"] = f"https://aclanthology.org/{aid}/"
        venue = venues.canonical(f"findings-{venue}") if ".findings-" in aid else venue
        track = _acl_track(aid, raw_track)
    elif url:
        if o := nz.openreview_id(url):
            ids["openreview"] = o
        elif d := (nz.doi(url) if "doi.org/" in url else None):
            ids["doi"] = d
        else:
            links["site"] = url
    return ids, links, venue, track


def _title(raw_title: str, glued: GluedNames | None) -> tuple[str, dict[str, Any]]:
    """The title without a glued author name or a RETRACTED mark, and the extra facts that keep
    what was removed."""
    extra: dict[str, Any] = {}
    title = raw_title
    if glued is not None:
        title = glued.strip(raw_title)
        if title != raw_title:
            extra["title_raw"] = raw_title
    if m := _RETRACTED.match(title):
        # AAAI marks a retraction in the title; the acl reader keeps it as a fact too
        title = title[m.end():]
        extra["retracted"] = {"note": "marked RETRACTED in the proceedings listing"}
    return title, extra


def _journal(venue: str) -> dict[str, str]:
    """BibTeX fields of a journal article (TPAMI, IJCV, TIP): the list gives no volume or pages."""
    v = venues.get(venue)
    return {"entrytype": "article", "journal": v.name} if v.kind == "journal" else {}


def _front_matter(aid: str) -> bool:
    """"2023.acl-long.0" and "P16-1000" open a volume: its title page and table of contents."""
    return aid.endswith(".0") or bool(re.fullmatch(r"[A-Z]\d{2}-\d000", aid))


def _acl_track(aid: str, raw: object) -> str:
    low = clean(raw).lower()
    if "short" in low or re.search(r"-short\.|^[A-Z]\d{2}-2", aid):
        return "short"
    if "long" in low or re.search(r"-long\.|^P\d{2}-1", aid):
        return "long"
    return "main"


def _area_track(venue: str, raw: object, url: str, track: str | None) -> tuple[str | None, str | None]:
    """(primary area, track) from the ``track`` field, as each conference uses it."""
    text = clean(raw)
    fam = venues.family(venue)
    if fam in ("acl", "emnlp"):
        return None, track
    if fam in ("iclr", "icml", "neurips"):
        if fam == "neurips":
            track = "datasets-and-benchmarks" \
                if "Datasets_and_Benchmarks" in url or text == "Datasets and Benchmarks" else "main"
        return text or None, track or "main"
    if not text:
        return None, "journal" if venues.get(venue).kind == "journal" else "main"
    m = _AREA_PREFIXES.match(text)
    if m:
        return clean(_ROMAN.sub("", m.group("area"))), "main"
    return None, nz.track(_ROMAN.sub("", text))


class GluedNames:
    """Repairs titles that carry the first author's given name glued to their end, a scraping
    artifact of the ACL and EMNLP lists: "…Question AnsweringSujay ", "…EnsemblingHaw-",
    "…Right Reasons?Terne Sasha ", "…in NLPAmanda", "…StructureAastha A ".

    A glued name starts with no space after a lower-case letter, a digit, closing punctuation or
    an acronym, and runs to the end of the title as capitalised name parts. The scraper left a
    trailing space, hyphen or parenthesis after most of them: that sign confirms a repair. A title
    without it is repaired only on stronger evidence from the same file: the name part is a short
    romanised syllable ("TransformerSi", "MemesEun") that no title of the file uses as a word of
    its own, the word it is glued to is one that other titles use, and the glued word itself
    appears nowhere else (real CamelCase words such as "TreeBank", "NameGuess" or "WordNet" fail
    one of these)."""

    _NAME = r"[A-Z](?:[a-zà-ɏ'’]+\.?|\.)"           # "Sujay", "Lluís", "Ling.", "A", "V."
    _PART = rf"(?:{_NAME}|[A-Z])"
    TAIL = re.compile(
        rf"(?:(?<=[a-z0-9?!.)\]”’\"'])|(?<=[A-Z]{{2}}))\u202a?"
        rf"(?P<name>{_PART}(?:[ -](?:{_PART}|(?:de|la|van|von|der|da|di|du|le|el|bin)\b))*[A-Z.]*)"
        r"[\s(\-\u202c]*$")
    SIGN = re.compile(r"[\s(\-\u202c]$")
    # Without the sign, only a one-syllable romanised given name (the scraper cut "Zhi-Hua" at its
    # hyphen): "Zhao", "Hyo", "Eun", "Cheng"; not English words such as "Bank" or "Guess".
    SHORT = re.compile(r"(?<=[a-z]{3})((?:(?:[BCDFGHJKLMNPQRSTWXYZ]|Ch|Zh|Sh)[aeiouy]{1,3}"
                       r"|[AEIOUY][aeiouy]{0,2})(?:ng|n|m)?)$")

    def __init__(self, titles: list[object]) -> None:
        self.words: dict[str, int] = {}
        for t in titles:
            if isinstance(t, str):
                for w in set(re.findall(r"[\w'’-]+", t.lower())):
                    self.words[w] = self.words.get(w, 0) + 1

    def strip(self, title: str) -> str:
        if self.SIGN.search(title):
            m = self.TAIL.search(title)
            return title[: m.start()].rstrip() if m and m.start() >= 8 else title
        last = title.split()[-1] if title.split() else ""
        m = self.SHORT.search(last)
        if not m:
            return title
        name, word = m.group(1), last[: m.start()]
        if self.words.get(name.rstrip(".").lower()) or not self.words.get(word.lower()) \
                or self.words.get(last.lower(), 0) > 1:
            return title
        return title[: len(title) - len(name)].rstrip()
