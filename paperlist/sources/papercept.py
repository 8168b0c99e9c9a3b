"""PaperPlaza (papercept) conference programs, one day per file, in two layouts (ICRA 2026).

* ``<venue><year>-titles-<day>.txt``: the program page as text (UTF-8, CRLF). A session is a
  header line "TuI1I  Interactive Session, Hall C<TAB>Add to My Program" and its title (which may
  wrap; its last line ends with a tab); a paper is "09:00-10:30, Paper TuI1I.1<TAB> Add to My
  Program", its title, then one "Last, First<TAB>Affiliation" line per author. Keynote, panel,
  lunch and social sessions list no papers.
* ``<venue><year>-program-<day>.html``: the program page itself, windows-1252 as it declares (a
  page in UTF-8 is read as UTF-8). ``tr.sHdr`` rows head a session, ``tr.pHdr`` a paper (time and
  code); the title is ``span.pTtl``, each author a row of name link and ``td.r`` affiliation, and a
  hidden ``div id="Ab…"`` holds the keywords and the abstract (cut by PaperPlaza at ~2,000
  characters; ``<p>`` breaks fall mid-sentence and are read as spaces).

Both give the same title and author strings for a paper; the key is its code ("TuI1I.2"), the
session goes to ``extra``. Venue and year come from the file name, else the page ("ICRA 2026
Program | …", "… (ICRA)" with "Technical Program for Tuesday June 2, 2026"). Every paper was
accepted; papers of the award sessions are award finalists, those of the late-breaking sessions
are in the ``late-breaking-results`` track. The IROS index (explorer) shares ``person_name``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial

import lxml.html
from lxml import etree

from .. import venues
from ..models import Record
from ..names import make_authors
from ..text import clean
from . import normalize as nz
from .base import Collector, Parsed, SourceError, SourceFile

_NAME = re.compile(r"^(?P<venue>[a-z]+)(?P<year>(?:19|20)\d{2})-(?P<layout>titles|program)-", re.IGNORECASE)
_DAY = re.compile(r"Technical Program for (?P<day>[A-Z][a-z]+day) (?P<date>[A-Z][a-z]+ \d{1,2}, "
                  r"(?P<year>(?:19|20)\d{2}))")
_PAPER = re.compile(r"^(?P<time>\d{1,2}:\d{2}-\d{1,2}:\d{2}), Paper (?P<code>\S+)$")
_SESSION = re.compile(r"^(?P<code>\S+)\s{2,}(?P<what>\S.*)$")
_ACRONYM = re.compile(r"\(([A-Z][A-Za-z]{1,15})\)")
_PAGE_TITLE = re.compile(r"^([A-Za-z]+)\s+((?:19|20)\d{2})\b")
_CHARSET = re.compile(rb"""charset\s*=\s*["']?([A-Za-z0-9_.:-]{1,40})""", re.IGNORECASE)
_SUFFIX = re.compile(r"^(jr|sr|ii|iii|iv)\.?$", re.IGNORECASE)
_TEST_ENTRY = re.compile(r"\bplease ignore\b", re.IGNORECASE)     # "Test Paper - Please Ignore - …"
_ADD = "Add to My Program"
_BREAKS = frozenset({"br", "p", "div", "li", "tr", "td"})


@dataclass(slots=True)
class _Session:                # "TuI1I", "Interactive Session", "Hall C", "Interactive Session 1"
    code: str = ""
    kind: str = ""
    room: str = ""
    title: str = ""


@dataclass(slots=True)
class _Paper:
    line: int
    code: str
    time: str
    session: _Session
    title: str = ""
    authors: list[tuple[str, str]] = field(default_factory=list)     # ("Last, First", affiliation)
    keywords: list[str] = field(default_factory=list)
    abstract: str = ""
    anchor: str = ""           # the paper's name on the page ("tui1i_01")
    link: str | None = None


class PaperceptReader:
    name = "papercept"
    version = 1

    def sniff(self, src: SourceFile) -> bool:
        m = _NAME.match(src.stem)
        return m is not None and _layout(src) == ("text" if m.group("layout").lower() == "titles" else "html")

    def file_key(self, src: SourceFile) -> str:
        return f"papercept:{src.stem}"

    def parse(self, src: SourceFile) -> Parsed:
        layout = _layout(src)
        if layout == "text":
            text = src.text()
            papers = _text_papers(text)
            day, acronym = _DAY.search(text[:16384]), _ACRONYM.search(text[:16384])      # "… (ICRA)"
            guess = (acronym.group(1) if acronym else "", day.group("year") if day else "")
        elif layout == "html":
            doc = _html_document(src.data)
            papers = _html_papers(doc)
            day = _DAY.search(" ".join(_text(h) for h in doc.iter("h3")))
            page = _PAGE_TITLE.match(clean(doc.findtext(".//title")))      # "ICRA 2026 Program | Tuesday …"
            guess = (page.group(1), page.group(2)) if page else ("", "")
        else:
            raise SourceError("not a PaperPlaza program (no 'Add to My Program' entries, no "
                              "class=\"pHdr\" rows)")
        if not papers:
            raise SourceError(f"no papers found in the {layout} program (expected 'HH:MM-HH:MM, Paper "
                              "<code>' entries)")
        venue, year = _venue_year(src, *guess)
        fkey = self.file_key(src)
        col = Collector()
        for p in papers:
            col.add(f"line {p.line}", partial(self._record, p, fkey, venue, year, day))
        return col.out

    def _record(self, p: _Paper, fkey: str, venue: str, year: int, day: re.Match[str] | None) -> Record:
        if not p.code:
            raise nz.RecordError("paper header without 'HH:MM-HH:MM, Paper <code>'")
        if _TEST_ENTRY.search(p.title):
            raise nz.RecordError(f"a test entry of the program, not a paper ({p.title!r})")
        s = p.session
        extra = {k: v for k, v in (("session", s.code), ("session_type", s.kind), ("room", s.room),
                                   ("session_title", s.title), ("time", p.time),
                                   ("day", day.group("day") if day else ""), ("date", _iso_date(day))) if v}
        kind = s.kind.lower()
        names = [person_name(n) for n, _ in p.authors]
        return nz.record(
            source=self.name, file=fkey, key=p.code, venue=venue, year=year, title=p.title,
            authors=make_authors([n for n in names if n],
                                 [a for (_, a), n in zip(p.authors, names, strict=True) if n]),
            abstract=nz.abstract(p.abstract), status="accepted", keywords=nz.keywords(p.keywords),
            track="late-breaking-results" if "late breaking" in kind else None,
            award="award finalist" if "award" in kind else None,
            links={"site": p.link} if p.link else {}, extra=extra,
        )


def person_name(raw: str) -> str:
    """PaperPlaza's "Last, First" as "First Last". A third part is a middle name or a nickname
    ("Walas, Krzysztof, Tadeusz" -> "Krzysztof Tadeusz Walas") or a suffix ("…, Jr."), unless it
    repeats the name ("Wu, Yecheng, Yecheng", "Nakka, Rushiil, Rushiil Nakka")."""
    parts = [p for p in (clean(x) for x in raw.split(",")) if p]
    if len(parts) < 2:
        return parts[0] if parts else ""
    family, given, *rest = parts
    seen = {given.casefold(), family.casefold(), f"{given} {family}".casefold()}
    suffix = [r for r in rest if _SUFFIX.match(r)]
    middle = [r for r in rest if r.casefold() not in seen and r not in suffix]
    return " ".join([given, *middle, family, *suffix])


# --- layout and file facts -------------------------------------------------------------------------

def _layout(src: SourceFile) -> str | None:
    """"html" or "text" from the first bytes' PaperPlaza markers; None for anything else."""
    head = src.data[:1 << 20]
    if b'class="pHdr"' in head or (b"papercept" in head[:65536] and b'class="sHdr"' in head):
        return "html"
    start = head[:16384]
    if b"Technical Program for" in start and _ADD.encode() in start and b"<html" not in start[:2048].lower():
        return "text"
    return None


def _venue_year(src: SourceFile, venue: str, year: str) -> tuple[str, int]:
    """From the file name ("icra2026-titles-tue"), else from the page (``venue``, ``year``)."""
    m = _NAME.match(src.stem)
    if m:
        venue, year = m.group("venue"), m.group("year")
    if not venue or not year:
        raise SourceError(f"no venue and year in the file name {src.basename!r} or the program's title "
                          "(expected e.g. icra2026-titles-tue.txt)")
    return venues.canonical(venue.lower()), int(year)


def _iso_date(day: re.Match[str] | None) -> str:
    """"June 2, 2026" -> "2026-06-02"."""
    try:
        return datetime.strptime(day.group("date"), "%B %d, %Y").date().isoformat() if day else ""
    except ValueError:
        return ""


def _session(code: str, what: str, title: str) -> _Session:
    kind, _, room = clean(what).partition(", ")
    return _Session(clean(code), kind, room, clean(title))


# --- the text layout -----------------------------------------------------------------------------------

def _text_papers(text: str) -> list[_Paper]:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    papers: list[_Paper] = []
    session = _Session()
    i = 0
    while i < len(lines):
        n, cells = i + 1, lines[i].split("\t")
        i += 1
        if len(cells) < 2 or _ADD not in cells[1]:
            continue
        head = cells[0].strip()
        if m := _PAPER.match(head):
            title, i = _until_tab(lines, i, keep_last=False)
            paper = _Paper(n, m.group("code"), m.group("time"), session, title)
            while i < len(lines) and "\t" in lines[i] and _ADD not in lines[i]:
                name, aff = lines[i].split("\t", 1)
                paper.authors.append((clean(name), clean(aff)))
                i += 1
            papers.append(paper)
        elif m := _SESSION.match(head):
            title, i = _until_tab(lines, i, keep_last=True)
            session = _session(m.group("code"), m.group("what"), title)
    return papers


def _until_tab(lines: list[str], i: int, keep_last: bool) -> tuple[str, int]:
    """The wrapped text starting at line ``i``: lines up to a blank line or a line with a tab. A
    session title's last line ends with a tab (kept, ``keep_last``); a paper title is followed by
    its first author line (not taken)."""
    parts: list[str] = []
    while i < len(lines) and clean(lines[i]):
        if "\t" in lines[i]:
            if keep_last and _ADD not in lines[i]:
                parts.append(lines[i].split("\t", 1)[0])
                i += 1
            break
        parts.append(lines[i])
        i += 1
    return clean(" ".join(parts)), i


# --- the HTML layout -----------------------------------------------------------------------------------

def _html_document(data: bytes) -> etree._Element:
    """The page parsed from its real encoding: UTF-8 when the bytes are UTF-8, else the charset it
    declares (PaperPlaza: windows-1252)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        m = _CHARSET.search(data[:4096])
        charset = m.group(1).decode("ascii") if m else "windows-1252"
        try:
            text = data.decode(charset)
        except LookupError:
            raise SourceError(f"not UTF-8 and its charset {charset!r} is unknown (byte {e.start})") from None
        except UnicodeDecodeError as e2:
            raise SourceError(f"neither UTF-8 nor the {charset} it declares (byte {e2.start})") from None
    parser = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True, no_network=True)
    try:
        return lxml.html.document_fromstring(text.encode("utf-8"), parser=parser)
    except (etree.LxmlError, ValueError) as e:
        raise SourceError("not readable HTML: "
                          f"{str(e).splitlines()[0] if str(e) else 'parse error'}") from None


def _html_papers(doc: etree._Element) -> list[_Paper]:
    papers: list[_Paper] = []
    session = _Session()
    paper: _Paper | None = None
    for tr in doc.iter("tr"):
        if tr.find(".//tr") is not None:
            continue                            # a layout row around the program, not a program row
        classes = (tr.get("class") or "").split()
        cells = tr.findall("td")
        if "sHdr" in classes:
            bold = tr.find("td/a/b")
            # "<b>TuI1I</b>&nbsp; Interactive Session, Hall C"
            if bold is not None and bold.getparent().get("name"):
                session = _session(_text(bold), bold.tail or "", "")
            elif bold is not None:
                session.title = _text(bold)
            paper = None
        elif "pHdr" in classes:
            m = _PAPER.match(_text(cells[0]) if cells else "")
            paper = _Paper(tr.sourceline or 0, m.group("code") if m else "",
                           m.group("time") if m else "", session)
            anchor = tr.find("td/a[@name]")
            paper.anchor = (anchor.get("name") or "") if anchor is not None else ""
            papers.append(paper)
        elif paper is not None:
            _paper_row(tr, cells, paper)
    return papers


def _paper_row(tr: etree._Element, cells: list[etree._Element], paper: _Paper) -> None:
    """One row under a paper header: its title, an author, or the keywords and abstract."""
    title = tr.find(".//span[@class='pTtl']")
    if title is not None:
        paper.title = _text(title)
        a = title.find(".//a[@href]")
        page = nz.url(a.get("href")) if a is not None else None
        paper.link = f"{page.split('#', 1)[0]}#{paper.anchor}" if page and paper.anchor else None
        return
    box = next((d for d in tr.iter("div") if (d.get("id") or "").startswith("Ab")), None)
    if box is not None:
        for label in box.iter("strong"):
            name = _text(label).rstrip(":").lower()
            if name == "keywords":
                for sib in label.itersiblings():
                    if sib.tag in ("br", "strong"):
                        break
                    if sib.tag == "a":
                        paper.keywords.append(_text(sib))
            elif name == "abstract":
                paper.abstract = clean((label.tail or "") + "".join(_flat(sib, True)
                                                                    for sib in label.itersiblings()))
    elif len(cells) == 2 and cells[0].find("a") is not None and "r" in (cells[1].get("class") or "").split():
        paper.authors.append((_text(cells[0]), _text(cells[1])))


def _text(el: etree._Element) -> str:
    return clean(_flat(el))


def _flat(el: etree._Element, tail: bool = False) -> str:
    """The text inside an element, with a space at each line or paragraph break ("and<p>high")."""
    brk = " " if el.tag in _BREAKS else ""
    text = brk + (el.text or "") + "".join(_flat(child, True) for child in el) + brk
    return text + (el.tail or "") if tail else text
