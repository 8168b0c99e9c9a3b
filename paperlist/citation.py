"""Citations: the BibTeX of a paper — the source's own when it has one, else one generated from the
merged fields with bibtexparser, so that it always parses and LaTeX's special characters are escaped."""

from __future__ import annotations

import logging
import re

import bibtexparser
from bibtexparser import Library
from bibtexparser.middlewares.names import split_multiple_persons_names
from bibtexparser.model import Entry, Field

from . import venues
from .models import Paper
from .text import fold, plain

# Order of the fields in a generated entry (the order BibTeX styles and people expect).
_ORDER = ("title", "author", "editor", "booktitle", "journal", "volume", "number", "pages", "year", "month",
          "publisher", "address", "doi", "eprint", "archivePrefix", "url")
_SPECIAL = re.compile(r"([&%#_$])")
_STOP = {"a", "an", "the", "on", "of", "for", "in", "to", "and", "with", "towards", "toward", "via", "is"}
# Which link a citation's url field prefers.
_URL_KINDS = ("proceedings", "site", "openreview", "doi", "oa", "arxiv", "pdf")
# A source's broken BibTeX is detected (``problems``) and replaced; bibtexparser's warning about
# each one would only fill the server's log.
logging.getLogger("bibtexparser").setLevel(logging.ERROR)


def bibtex(paper: Paper) -> str:
    """The paper's BibTeX entry: the source's own when it is one you can paste (``problems``), else
    one generated from our fields. Where the paper's author order is not known, always generated
    (a source's key names the alphabetical list's first author)."""
    if paper.bibtex and paper.author_order_known and not problems(paper.bibtex, paper):
        return paper.bibtex.strip()
    return generate_bibtex(paper)


def bibtex_source(paper: Paper) -> str:
    """Which entry ``bibtex`` gives: "source" (the source's own) or "generated" (and why not the source's)."""
    if not paper.bibtex:
        return "generated"
    if not paper.author_order_known:
        return "generated: the source's author order is alphabetical"
    found = problems(paper.bibtex, paper)
    return f"generated: the source's {found[0]}" if found else "source"


def problems(text: str, paper: Paper | None = None) -> list[str]:
    """What stops a BibTeX entry from being pasted as it is: it does not parse to exactly one entry, a
    field is empty, a value's braces do not balance, or LaTeX escaped as text (``\\textbackslash``,
    a source's double escaping); with ``paper``, also an entry that says another year or other
    authors than the paper (OpenReview's entry of a submission has the year it was posted and
    "Anonymous"). Empty for a good entry."""
    try:
        lib = bibtexparser.parse_string(text)
    except Exception:  # noqa: BLE001 - a source's BibTeX we cannot read is replaced, not shown broken
        return ["entry does not parse"]
    if len(lib.entries) != 1 or lib.failed_blocks:
        return ["entry does not parse as one entry"]
    out = []
    for f in lib.entries[0].fields:
        v = str(f.value).strip()
        if not v or v in ("{}", '""'):
            out.append(f"{f.key} is empty")
        elif v.count("{") != v.count("}"):
            out.append(f"{f.key} has unbalanced braces")
        elif "\\textbackslash" in v or "\\$" in v:
            out.append(f"{f.key} holds LaTeX escaped as text")
    if paper is not None:
        out += _disagreements(lib.entries[0], paper)
    return out


def _family(name: str) -> str:
    """The last word of a name's family name, folded: "van der Schaar, Mihaela", "Mihaela van der
    Schaar" and "Mihaela Schaar" all give "schaar" (a source that drops the particle still agrees)."""
    name = plain(name).strip()
    family = name.split(",")[0] if "," in name else name
    words = re.findall(r"[a-z]+", fold(family).lower())
    words = [w for w in words if w not in ("jr", "sr", "ii", "iii", "iv")] or words
    return words[-1] if words else ""


def _disagreements(entry: Entry, paper: Paper) -> list[str]:
    fields = {f.key.lower(): str(f.value).strip().strip("{}") for f in entry.fields}
    out = []
    year = fields.get("year", "")
    if year.isdigit() and int(year) != paper.year:
        out.append(f"year is {year}, the paper's {paper.year}")
    if "author" in fields and paper.authors:
        # bibtexparser's own split, on the value as written: "{… Science and Technology}" is one name
        value = str(next(f.value for f in entry.fields if f.key.lower() == "author")).strip()
        cited = [_family(a) for a in split_multiple_persons_names(value) if a.strip()]
        ours = [_family(a.name) for a in paper.authors]
        if cited != ours:               # the order too: OpenReview's entry can predate a reordering
            out.append("author list is not the paper's")
    return out


def escape_latex(s: str) -> str:
    """Plain text made safe inside a braced BibTeX value: LaTeX specials escaped, braces balanced."""
    s = _SPECIAL.sub(r"\\\1", s).replace("{", "").replace("}", "")
    return s.replace("~", r"\textasciitilde{}").replace("^", r"\textasciicircum{}")


def _protect_case(title: str) -> str:
    """Brace words with inner capitals ("BERT", "GPT-4", "iPhone") so styles do not lower-case them."""
    return re.sub(r"(?<![\\\w{])([A-Za-z]*[A-Z][\w-]*[A-Z0-9][\w-]*)", r"{\1}", title)


def _bib_name(name: str) -> str:
    """A name for BibTeX's author list: braced whole when it holds the word "and" (an institution a
    source lists as an author, "Hong Kong University of Science and Technology"), which BibTeX would
    otherwise split into two people."""
    s = escape_latex(name)
    return f"{{{s}}}" if re.search(r"\band\b", s, re.IGNORECASE) else s


def _title(p: Paper) -> str:
    t = p.title
    # The display title keeps its LaTeX math when it has any and its braces balance; else plain text.
    if "$" in t and t.count("{") == t.count("}") and t.count("$") % 2 == 0 and "\\url" not in t:
        parts = re.split(r"(\$[^$]*\$)", t)
        # a source's text-mode backslash inside math ("Skip $\textbackslash n$") is math's \backslash
        return "".join(x.replace("\\textbackslash", "\\backslash") if x.startswith("$")
                       else _protect_case(escape_latex(plain(x) if "\\" in x else x)) for x in parts)
    return _protect_case(escape_latex(p.title_plain or plain(t)))


def citation_key(p: Paper) -> str:
    """A key in the common style: first author's family name, year, first significant title word; the
    venue instead of a name when the paper's author order is not known (an alphabetical list's first
    name is nobody's first author)."""
    if p.biblio.get("bibkey") and re.fullmatch(r"[\w:.+/-]+", p.biblio["bibkey"]):
        return p.biblio["bibkey"]
    last = "" if p.author_order_known else p.venue
    if p.authors and p.author_order_known:
        name = p.authors[0].name
        last = name.split(",")[0] if "," in name else name.split()[-1] if name.split() else ""
    word = next((w for w in re.findall(r"[A-Za-z0-9]+", fold(p.title_plain or plain(p.title)))
                 if len(w) > 2 and w.lower() not in _STOP), "paper")
    key = re.sub(r"[^a-z0-9]", "", fold(last).lower()) + str(p.year) + word.lower()
    return key or f"paper{p.year}"


def _url(p: Paper) -> str | None:
    by_kind: dict[str, str] = {}
    for kind, url in p.links:
        by_kind.setdefault(kind, url)
    return next((by_kind[k] for k in _URL_KINDS if k in by_kind), None)


def generate_bibtex(p: Paper) -> str:
    """A BibTeX entry generated from the paper's fields (round-trips through bibtexparser)."""
    v = venues.get(p.venue)
    b = p.biblio
    is_journal = b.get("entrytype") == "article" or (not b.get("entrytype") and v.kind == "journal")
    fields: dict[str, str] = {"title": _title(p)}
    if p.authors:
        fields["author"] = " and ".join(_bib_name(a.name) for a in p.authors)
    if b.get("editor"):
        fields["editor"] = " and ".join(escape_latex(e.strip()) for e in b["editor"].split(",") if e.strip())
    if is_journal:
        fields["journal"] = escape_latex(b.get("journal") or v.name)
    else:
        fields["booktitle"] = escape_latex(b.get("booktitle") or f"{v.name} ({v.short} {p.year})")
    for k in ("volume", "number", "publisher", "address", "month"):
        if b.get(k):
            fields[k] = escape_latex(b[k])
    if b.get("pages"):
        fields["pages"] = re.sub(r"\s*[-\u2013\u2014]+\s*", "--", b["pages"])
    fields["year"] = str(p.year)
    if p.ids.get("doi"):
        fields["doi"] = escape_latex(p.ids["doi"]).replace(r"\_", "_").replace(r"\%", "%")
    if p.ids.get("arxiv"):
        fields["eprint"] = p.ids["arxiv"]
        fields["archivePrefix"] = "arXiv"
    url = _url(p)
    if url and "{" not in url and "}" not in url:
        fields["url"] = url
    entry = Entry("article" if is_journal else "inproceedings", citation_key(p),
                  [Field(k, fields[k]) for k in _ORDER if k in fields])
    fmt = bibtexparser.BibtexFormat()
    fmt.indent = "  "
    return bibtexparser.write_string(Library([entry]), bibtex_format=fmt).strip()
