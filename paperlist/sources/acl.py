"""ACL Anthology XML: one ``<collection>`` per file, ``<year>.<venue>.xml``.

A collection holds volumes (long, short, demo, findings-of-X ...), each with a ``<meta>`` block
(booktitle, editors, publisher ...) and ``<paper>`` elements. Titles and abstracts carry inline
markup (``<fixed-case>``, ``<i>``, ``<b>``, ``<tex-math>``, ``<url>``); we turn it into the
display conventions the rest of the project uses (markdown emphasis, ``$…$`` math), so that
``text.plain()`` yields the markup-free form. Every paper in the Anthology was published, so every
record is "accepted"; the volume decides venue and track.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree

from .. import venues
from ..models import Author, Record
from ..names import author_key, display_name, make_authors
from ..text import clean
from . import normalize as nz
from .base import Parsed, SourceError, SourceFile

BASE = "https://aclanthology.org/"
ATTACHMENTS = BASE + "attachments/"

_COLLECTION_RE = re.compile(rb"<collection\s+id=\"([^\"]{1,64})\"")
_SPACE_AFTER_EMPH = re.compile(r"(?<=\S)(\*+)\s+(?=[,.;:!?)\]])")

# Collection name -> venue key. Findings volumes are named after their conference instead.
# "lrec": only the 2024 edition was the joint LREC-COLING conference (the one file we have).
_COLLECTION_VENUES = {
    "acl": "acl", "emnlp": "emnlp", "naacl": "naacl", "eacl": "eacl", "aacl": "aacl",
    "coling": "coling", "tacl": "tacl", "lrec": "lrec-coling",
}

# Volume id -> track, for every volume id the conference collections in the shared corpus use
# (tests/test_corpus_sources.py::test_every_acl_volume_is_mapped). Numeric ids are "main"
# (COLING 2022's single volume "1"), or "journal" for TACL.
VOLUME_TRACKS = {
    "main": "main", "long": "long", "short": "short",
    "srw": "srw", "demo": "demo", "demos": "demo", "industry": "industry",
    "tutorial": "tutorial", "tutorials": "tutorial",
}

# Booktitle words that tell what an unknown volume is (workshops are separate collections in the
# Anthology, but a collection we do not know may still be one).
_BOOKTITLE_TRACKS = (
    ("student research workshop", "srw"), ("workshop", "workshop"), ("demonstration", "demo"),
    ("tutorial", "tutorial"), ("industry", "industry"), ("short paper", "short"), ("long paper", "long"),
)

# Attachment type (lower case) -> link kind. Software, data and optional material are
# supplementary; copyright forms are not links worth showing.
_ATTACHMENT_KINDS = {
    "software": "supplementary", "data": "supplementary", "dataset": "supplementary",
    "optionalsupplementarymaterial": "supplementary", "note": "supplementary",
    "poster": "poster", "presentation": "slides", "video": "video",
}


class AclReader:
    name = "acl"
    version = 1

    def sniff(self, src: SourceFile) -> bool:
        head = src.data[:1024].removeprefix(b"\xef\xbb\xbf")
        return head.lstrip().startswith(b"<") and _COLLECTION_RE.search(head) is not None

    def file_key(self, src: SourceFile) -> str:
        m = _COLLECTION_RE.search(src.data[:1024])
        return f"acl:{m.group(1).decode('utf-8', 'replace') if m else src.stem}"

    def parse(self, src: SourceFile) -> Parsed:
        root = _parse_xml(src.data)
        cid = root.get("id") or ""
        name = cid.split(".", 1)[1] if "." in cid else cid
        out = Parsed()
        volumes = root.findall("volume")
        if not volumes:
            raise SourceError(f"collection {cid!r} has no <volume>")
        fkey = self.file_key(src)
        seen: set[str] = set()
        for vol in volumes:
            ctx = _Volume(vol, cid, name)
            for paper in vol.findall("paper"):
                aid = _anthology_id(paper, ctx)
                try:
                    if aid in seen:
                        raise nz.RecordError("duplicate anthology id")
                    rec = self._record(paper, aid, ctx, fkey)
                except nz.RecordError as e:
                    out.skipped.append(f"paper {aid}: {e}")
                    continue
                seen.add(aid)
                out.records.append(rec)
        return out

    def _record(self, p: etree._Element, aid: str, ctx: _Volume, fkey: str) -> Record:
        title = inline(p.find("title"))
        abstract_el = p.find("abstract")
        authors, person_ids = _authors(p.findall("author"))
        links, extra = _links(p, aid)
        ids = {"acl": aid}
        if d := nz.doi(_text(p.find("doi"))):
            ids["doi"] = d
        if person_ids:
            extra["anthology_person_ids"] = person_ids
        if (ret := p.find("retracted")) is not None:
            # A retraction is kept as a fact, not as a status: the paper was published.
            extra["retracted"] = {"date": ret.get("date") or "", "note": _text(ret)}
        if ctx.volume_id:
            extra["volume"] = ctx.volume_id
        biblio = dict(ctx.biblio)
        if bibkey := _text(p.find("bibkey")):
            biblio["bibkey"] = bibkey
        if pages := _text(p.find("pages")):
            biblio["pages"] = re.sub(r"\s*[-–—]+\s*", "--", pages)    # BibTeX's page-range dash
        awards = [_text(a) for a in p.findall("award")]
        return nz.record(
            source=self.name, file=fkey, key=aid, venue=ctx.venue, year=ctx.year,
            title=title, authors=authors,
            abstract=nz.abstract(inline(abstract_el)) if abstract_el is not None else None,
            track=ctx.track, status="accepted", links=links, ids=ids,
            award="; ".join(a for a in awards if a) or None, biblio=biblio, extra=extra,
        )


class _Volume:
    """What a volume's papers share: venue, year, track and the bibliographic fields."""

    def __init__(self, vol: etree._Element, cid: str, name: str) -> None:
        meta = vol.find("meta")
        self.cid = cid
        self.volume_id = vol.get("id") or ""
        booktitle = clean(inline(meta.find("booktitle"))) if meta is not None else ""
        self.year = _year(cid, meta)
        self.venue, self.track = _venue_track(name, self.volume_id, vol.get("type") or "", booktitle, meta)
        self.biblio = _volume_biblio(meta, booktitle, self.track == "journal")


def _parse_xml(data: bytes) -> etree._Element:
    # No entities, no network, no DTDs: the file is untrusted input.
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True,
                             remove_pis=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as e:
        raise SourceError(f"not valid XML: {str(e).splitlines()[0] if str(e) else 'syntax error'}") from None
    if root is None or root.tag != "collection":
        raise SourceError(f"expected an ACL Anthology <collection>, found <{getattr(root, 'tag', '?')}>")
    return root


def _year(cid: str, meta: etree._Element | None) -> int:
    m = re.match(r"(\d{4})\.", cid)
    raw = m.group(1) if m else _text(meta.find("year")) if meta is not None else ""
    try:
        return nz.year(raw)
    except nz.RecordError:
        raise SourceError(f"collection {cid!r} has no year") from None


def _venue_track(name: str, vid: str, vtype: str, booktitle: str,
                 meta: etree._Element | None) -> tuple[str, str]:
    """Venue key and track for a volume: findings volumes are named after their conference, TACL
    is a journal, known volume ids map through VOLUME_TRACKS, others are read from the booktitle."""
    if name == "findings":
        return venues.canonical(f"findings-{vid}"), "main"
    if name == "tacl" or vtype == "journal":
        venue = _COLLECTION_VENUES.get(name) or venues.canonical(name)
        return venue, "journal"
    known = _COLLECTION_VENUES.get(name)
    # A collection we have no entry for (a workshop, an older conference): its own <venue>.
    own = _text(meta.find("venue")) if meta is not None else ""
    venue = known or venues.canonical(own or name)
    if vid in VOLUME_TRACKS:
        return venue, VOLUME_TRACKS[vid]
    if vid.isdigit() and "workshop" not in booktitle.lower():
        return venue, "main"
    low = booktitle.lower()
    for word, track in _BOOKTITLE_TRACKS:
        if word in low:
            return venue, track
    return venue, nz.track(vid) or "main"


def _volume_biblio(meta: etree._Element | None, booktitle: str, journal: bool) -> dict[str, str]:
    if meta is None:
        return {}
    b: dict[str, str] = {}
    if journal:
        b["entrytype"] = "article"
        # "Transactions of the ACL, Volume 11" -> journal + volume
        m = re.fullmatch(r"(.+?),\s*Volume\s+(\d+)", booktitle)
        b["journal"] = m.group(1) if m else booktitle
        vol = _text(meta.find("journal-volume")) or (m.group(2) if m else "")
        if vol:
            b["volume"] = vol
        if num := _text(meta.find("journal-issue")):
            b["number"] = num
    else:
        b["entrytype"] = "inproceedings"
        if booktitle:
            b["booktitle"] = booktitle
    editors = [display_name(_text(e.find("first")), _text(e.find("last"))) for e in meta.findall("editor")]
    if editors := [e for e in editors if e]:
        b["editor"] = ", ".join(editors)
    for tag in ("publisher", "address", "month"):
        if v := _text(meta.find(tag)):
            b[tag] = v
    return {k: v for k, v in b.items() if v}


def _anthology_id(p: etree._Element, ctx: _Volume) -> str:
    """The id in ``<url>`` ("2023.acl-long.1"); built from the collection when the paper has none
    (a few papers lack ``<url>``) or when ``<url>`` holds an external address."""
    u = _text(p.find("url"))
    if u and "/" not in u and ":" not in u:
        return u
    return f"{ctx.cid}-{ctx.volume_id}.{p.get('id') or '?'}"


def _authors(elems: Iterable[etree._Element]) -> tuple[list[Author], dict[str, str]]:
    names: list[str] = []
    affs: list[str] = []
    orcids: list[str | None] = []
    person_ids: dict[str, str] = {}
    for a in elems:
        name = display_name(_text(a.find("first")), _text(a.find("last")))
        if not author_key(name):
            continue           # an <author/> with no name at all
        names.append(name)
        affs.append(_text(a.find("affiliation")))
        orcid = (a.get("orcid") or "").strip()
        orcids.append(orcid if re.fullmatch(r"\d{4}-\d{4}-\d{4}-\d{3}[\dX]", orcid) else None)
        if pid := a.get("id"):
            person_ids[name] = pid
    authors = make_authors(names, affs)
    for author, oid in zip(authors, orcids, strict=True):
        author.orcid = oid
    return authors, person_ids


def _links(p: etree._Element, aid: str) -> tuple[dict[str, str], dict[str, object]]:
    links = {"pdf": f"{BASE}{aid}.pdf", "site": f"{BASE}{aid}/"}
    extra: dict[str, object] = {}
    video = p.find("video")
    if video is not None and (u := nz.url(video.get("href"), BASE) or _relative(video.get("href"), BASE)):
        links["video"] = u
    code = p.find("pwccode")
    if code is not None and (u := nz.url(code.get("url"))):
        links["code"] = u
    attachments: dict[str, str] = {}
    for att in p.findall("attachment"):
        kind = (att.get("type") or "").strip()
        u = nz.url(_text(att)) or _relative(_text(att), ATTACHMENTS)
        if not u:
            continue
        attachments.setdefault(kind or "attachment", u)
        lk = _ATTACHMENT_KINDS.get(kind.lower())
        if lk and lk not in links:
            links[lk] = u
    if attachments:
        extra["attachments"] = attachments
    revisions = p.findall("revision")
    if revisions:
        extra["revisions"] = len(revisions)
    return links, extra


def _relative(value: str | None, base: str) -> str | None:
    """A bare Anthology file name ("2022.acl-long.1.mp4") under ``base``; None for anything else."""
    s = clean(value)
    if s and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", s):
        return base + s
    return None


def _text(el: etree._Element | None) -> str:
    return clean(_raw_text(el)) if el is not None else ""


def _raw_text(el: etree._Element) -> str:
    """All text inside an element (comments and processing instructions are removed at parse time)."""
    return "".join(str(t) for t in el.itertext())


# --- inline markup ------------------------------------------------------------------------------

def inline(el: etree._Element | None) -> str:
    """The display form of a title or abstract element: <fixed-case> kept as its text, <i> as
    ``*…*``, <b> as ``**…**``, <tex-math> as ``$…$``, <url> as its text, <sup>/<sub> as math
    super/subscripts. Whitespace is folded by the caller (normalize)."""
    if el is None:
        return ""
    s = "".join(_inline_parts(el))
    # "<b>\n  <i>X</i>\n</b>," is pretty-printing, not a space before the comma
    return _SPACE_AFTER_EMPH.sub(r"\1", s) if "*" in s else s


def _inline_parts(el: etree._Element, active: frozenset[str] = frozenset()) -> list[str]:
    out = [el.text or ""]
    for child in el:
        tag = child.tag if isinstance(child.tag, str) else ""
        if tag == "tex-math":
            math = _raw_text(child).strip()
            out.append(f"${math}$" if math else "")
        elif tag in ("i", "b"):
            inner = "".join(_inline_parts(child, active | {tag}))
            # <i> inside <i> (seen in real abstracts) is one emphasis, not two
            out.append(inner if tag in active else _wrap(inner, "*" if tag == "i" else "**"))
        elif tag in ("sup", "sub"):
            inner = clean(_raw_text(child))
            if inner:
                out.append(f"${'^' if tag == 'sup' else '_'}{{\\text{{{inner}}}}}$")
        else:   # fixed-case, url and anything unknown: the text itself
            out.append("".join(_inline_parts(child, active)))
        out.append(child.tail or "")
    return out


def _wrap(inner: str, mark: str) -> str:
    """Emphasis markers must touch the text ("*Not* All", never "* Not*"): edge whitespace moves
    outside as one space."""
    core = inner.strip()
    if not core:
        return inner
    lead = inner[: len(inner) - len(inner.lstrip())]
    trail = inner[len(inner.rstrip()):]
    return f"{' ' if lead else ''}{mark}{core}{mark}{' ' if trail else ''}"
