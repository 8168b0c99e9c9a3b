"""One reading list's markdown, read with markdown-it-py, as entries: a paper's title as the list
writes it, the ids its links name (links.py), a year it mentions, and the chain of headings above it.

Lists differ in shape: a bullet per paper with the title in bold (``- **Title.** NIPS 2016. [paper]``),
a bullet whose link text is the title (``- [Title](arxiv)``), a table row per paper (title in the
first cell), or a heading per paper with its links in bullets under it. An entry is a list item, a
table row or a paragraph with at least one link; its title is, in that order: the bold text, the
first link text that reads like a title, a quoted title, the first table cell, the text before the
first link. Links alone identify a paper too (by id), so an entry with ids and no title is kept.
HTML inside the markdown (some lists are HTML tables) is read with lxml: a row, an item, or a run
between blank lines (two ``<br>``) per paper.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree
from lxml import html as lxml_html
from markdown_it import MarkdownIt
from markdown_it.token import Token

from .links import ids_of

MAX_TITLE = 300
MAX_HEADING = 120
_YEAR = re.compile(r"(?<!\d)(19[89]\d|20[0-3]\d)(?!\d)")
_QUOTED = re.compile(r"[\"“]([^\"”]{12,300})[\"”]")
_WORD = re.compile(r"[^\W_]{2,}")
_LEAD = re.compile(r"^[\s\d.)\-–—*•|:#\[\]]+")
_TRAIL = re.compile(r"[\s.,;:|\-–—(\[]+$")
_TAG = re.compile(r"^\W{0,3}[\[(][^\])]{1,24}[\])]\s*")
# link texts that name a kind of link, not a paper
_GENERIC = re.compile(
    r"^\W*(paper|pdf|code|arxiv|project|project page|github|link|website|page|blog|video|demo|data(set)?|"
    r"slides?|poster|openreview|abs|abstract|html|official|bib(tex)?|doi|url|here|home ?page|pub|"
    r"论文|代码|论文链接|代码链接|项目|主页|\w{0,4}\d{4}\w{0,4})\W*$", re.I)
_SKIP_HEADINGS = re.compile(r"^\W*(table of )?contents?\W*$|^\W*(license|contribut\w*|citation|star history|"
                            r"acknowledge?ments?|references?|news|updates?|todo|目录)\W*$", re.I)


@dataclass(slots=True)
class Entry:
    """One entry of a list."""

    position: int
    title: str                  # as the list writes it ("" when only its links name it)
    alternatives: list[str]     # other readings of the title (its first sentence: "Title. Authors.")
    year: int | None
    ids: list[tuple[str, str]]
    headings: list[str]


@dataclass(slots=True)
class _Unit:
    text: list[str] = field(default_factory=list)
    strong: list[list[str]] = field(default_factory=list)   # each bold run's text pieces
    links: list[tuple[str, list[str]]] = field(default_factory=list)   # (href, text pieces)
    cells: list[str] = field(default_factory=list)
    before_link: list[str] = field(default_factory=list)


_MD = MarkdownIt("commonmark", {"html": True}).enable("table")


def entries(markdown: str) -> list[Entry]:
    """Every entry of a list's markdown, in order."""
    out: list[Entry] = []
    headings: list[tuple[int, str]] = []
    stack: list[_Unit] = []
    tokens = _MD.parse(markdown)
    level = 0
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            level = int(tok.tag[1])
        elif tok.type == "inline" and i > 0 and tokens[i - 1].type == "heading_open":
            text = _plain(tok)[:MAX_HEADING].strip()
            headings = [(lv, h) for lv, h in headings if lv < level]
            if text and not _SKIP_HEADINGS.match(text):
                headings.append((level, text))
            if _unit_links(tok):            # a heading that is itself an entry (a title with its link)
                _emit(out, _collect(tok, _Unit()), [h for _, h in headings[:-1]])
        elif tok.type in ("list_item_open", "tr_open"):
            stack.append(_Unit())
        elif tok.type in ("list_item_close", "tr_close") and stack:
            _emit(out, stack.pop(), [h for _, h in headings])
        elif tok.type == "inline" and stack:
            unit = _collect(tok, stack[-1])
            if tokens[i - 1].type in ("td_open", "th_open"):
                unit.cells.append(_plain(tok))
        elif tok.type == "inline" and tokens[i - 1].type == "paragraph_open":
            unit = _collect(tok, _Unit())
            if any(ids_of(h) for h, _ in unit.links) or any("".join(r).strip() for r in unit.strong):
                # a paragraph is an entry by its ids or a bold title
                _emit(out, unit, [h for _, h in headings])
        elif tok.type == "html_block":
            _html_entries(out, tok.content, [h for _, h in headings])
    return out


def _unit_links(tok: Token) -> bool:
    return any(c.type == "link_open" for c in tok.children or ())


def _collect(tok: Token, unit: _Unit) -> _Unit:
    """Add an inline token's text, bold run and links to a unit."""
    in_strong = in_link = False
    for c in tok.children or ():
        if c.type == "strong_open":
            in_strong = True
            unit.strong.append([])
        elif c.type == "strong_close":
            in_strong = False
        elif c.type == "link_open":
            unit.links.append((str(c.attrs.get("href", "")), []))
            in_link = True
        elif c.type == "link_close":
            in_link = False
        elif c.type in ("text", "code_inline"):
            unit.text.append(c.content)
            if in_strong:
                unit.strong[-1].append(c.content)
            if in_link:
                unit.links[-1][1].append(c.content)
            elif not unit.links:
                unit.before_link.append(c.content)
        elif c.type in ("softbreak", "hardbreak"):
            unit.text.append(" ")
            if not unit.links:
                unit.before_link.append(" ")
        elif c.type == "html_inline":
            _html_link(unit, c.content)
    return unit


def _fragment(html: str) -> lxml_html.HtmlElement | None:
    """A piece of HTML as one element (its parts under a <div>); None for nothing readable."""
    try:
        return lxml_html.fragment_fromstring(html, create_parent="div")
    except (etree.ParserError, ValueError):
        return None


def _hrefs(el: lxml_html.HtmlElement) -> list[str]:
    return [str(a.get("href")).strip() for a in el.iter("a") if a.get("href")]


def _html_link(unit: _Unit, html: str) -> None:
    """An inline tag (``<a href="…">`` arrives alone, its text and ``</a>`` as tokens after it)."""
    root = _fragment(html)
    for href in _hrefs(root) if root is not None else []:
        unit.links.append((href, []))


def _html_entries(out: list[Entry], html: str, headings: list[str]) -> None:
    """Entries in a block of HTML: a table row or list item per paper (the innermost ones), else the
    runs between blank lines; its title the text before its first link."""
    root = _fragment(html)
    if root is None:
        return
    parts = root.xpath(".//tr[not(.//tr)] | .//li[not(.//li)]")
    if not parts:
        parts = [p for chunk in re.split(r"(?i)<br\s*/?>\s*<br\s*/?>", html)
                 if (p := _fragment(chunk)) is not None]
    for part in parts:
        hrefs = _hrefs(part)
        if not hrefs:
            continue
        text = " ".join(" ".join(part.itertext()).split())          # cells and lines apart
        first = next(part.iter("a"))
        lead = " ".join(" ".join(first.itertext()).split())
        before = text[:text.find(lead)] if lead and lead in text else text
        _emit(out, _Unit(links=[(h, []) for h in hrefs], before_link=[before], text=[text]), headings)


def _emit(out: list[Entry], unit: _Unit, headings: list[str]) -> None:
    ids: list[tuple[str, str]] = []
    hrefs = [h for h, _ in unit.links] + _BARE_URL.findall(" ".join(unit.text))
    for href in hrefs:
        for kv in ids_of(href):
            if kv not in ids:
                ids.append(kv)
    titles = _titles(unit)
    if not ids and not titles:
        return
    if not hrefs and not any("".join(r).strip() for r in unit.strong):
        return                                  # prose, not an entry
    title = titles[0] if titles else ""
    if headings and len(headings) >= 2 and _titlelike(headings[-1]):
        # some lists give each paper a heading and put only its links and notes under it
        titles.append(_clean(headings[-1])[:MAX_TITLE])
    years = _YEAR.findall(" ".join(unit.text))      # the last: a venue's year follows the title
    out.append(Entry(len(out), title, titles[1:], int(years[-1]) if years else None, ids, list(headings)))


_BARE_URL = re.compile(r"https?://[^\s)\]>\"']+")
_SENTENCE = re.compile(r"(?<=[a-z0-9)?])[.?] (?=[A-Z0-9])|\s+\|\s+")
# a venue and year after a title: " NeurIPS 2023", " (ICLR'20)", " Arxiv 2023", ", CVPR 2019 Oral"
_VENUE_TAIL = re.compile(r"[\s,(\[]+[A-Za-z][\w-]*(?: [A-Z][\w-]*)?\s*'?(?:19|20)?\d{2}\b[\w ]{0,12}[)\]]?$")
MAX_READINGS = 6


def _titles(unit: _Unit) -> list[str]:
    """The title and other readings of it: without a venue after it, each of its sentences
    ("Authors. Title. Venue, 2016")."""
    for c in _candidates(unit):
        t = _clean(c)
        out: list[str] = []
        for reading in (t, _VENUE_TAIL.sub("", t), *_SENTENCE.split(t)):
            reading = _clean(reading)[:MAX_TITLE]
            if _titlelike(reading) and reading not in out:
                out.append(reading)
        if out:
            return out[:MAX_READINGS]
    return []


def _candidates(unit: _Unit) -> list[str]:
    candidates = ["".join(r) for r in unit.strong]
    candidates += ["".join(t) for _, t in unit.links if not _GENERIC.match("".join(t))]
    joined = " ".join(unit.text)
    m = _QUOTED.search(joined)
    if m:
        candidates.append(m.group(1))
    candidates += unit.cells[:1]
    candidates.append(_BARE_URL.sub(" ", "".join(unit.before_link)))
    return candidates


def _clean(s: str) -> str:
    s = " ".join(s.split())
    s = _TAG.sub("", s)                  # "[CNN] Title", "(arXiv 2024.07) Title", "[2023/11] Title"
    s = _LEAD.sub("", s)
    return _TRAIL.sub("", s).strip()


def _titlelike(s: str) -> bool:
    """Three words, or two long ones: not a venue, a year or a link's kind."""
    if s.lower().startswith(("http://", "https://", "www.")) or _GENERIC.match(s):
        return False
    words = _WORD.findall(s)
    return len(words) >= 3 or (len(words) == 2 and len(s) >= 12)


def _plain(tok: Token) -> str:
    parts = [c.content for c in tok.children or () if c.type in ("text", "code_inline")]
    return " ".join("".join(parts).split())
