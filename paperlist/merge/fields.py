"""Building the merged Paper from its records: each field from the most trusted source that has
it (priority.py), links, ids and keywords unioned, provenance kept."""

from __future__ import annotations

from rapidfuzz import fuzz

from ..models import Author, Paper, Record, Review, is_accepted
from ..sources.normalize import current_url, link_key
from ..text import fold, title_key
from .damage import damage
from .priority import _rank


def ref(rec: Record) -> str:
    return f"{rec.file}#{rec.key}"


def _pick(recs: list[Record], fld: str, attr: str | None = None) -> tuple[object, Record | None]:
    attr = attr or fld
    best: tuple[int, int] | None = None
    chosen: tuple[object, Record | None] = (None, None)
    for n, r in enumerate(recs):
        v = getattr(r, attr)
        if v in (None, "", [], {}):
            continue
        k = (_rank(fld, r.source), n)
        if best is None or k < best:
            best, chosen = k, (v, r)
    return chosen


def _proper(authors: list[Author]) -> bool:
    """Full names, not initials only or e-mail-like junk."""
    for a in authors:
        toks = a.name.replace(".", " ").split()
        if len(toks) < 2 or max(map(len, toks)) < 2 or "@" in a.name or any(c.isdigit() for c in a.name):
            return False
    return True


def _pick_title(recs: list[Record]) -> tuple[str, Record]:
    """The published wording (proceedings first: titles change after submission); but when a
    more trusted source spells the same wording with LaTeX, its spelling (mlanthology drops
    the braces of "$\\widetilde{\\mathcal{O}}$", papercopilot keeps them)."""
    published = min(recs, key=lambda r: (_rank("published_title", r.source), recs.index(r)))
    pk = title_key(published.title)
    for r in sorted(recs, key=lambda r: (_rank("title", r.source), recs.index(r))):
        if r is published or _rank("title", r.source) >= _rank("title", published.source):
            break
        if ("$" in r.title or "\\" in r.title) and fuzz.ratio(title_key(r.title), pk) >= 90:
            return r.title, r
    return published.title, published


def _pick_authors(recs: list[Record]) -> tuple[list[Author], Record | None]:
    best: tuple[bool, bool, int, int, int] | None = None
    chosen: Record | None = None
    for n, r in enumerate(recs):
        if not r.authors:
            continue
        # a list in the paper's order before an alphabetical one, whatever their lengths
        k = (not r.authors_sorted, _proper(r.authors), len(r.authors), -_rank("authors", r.source), -n)
        if best is None or k > best:
            best, chosen = k, r
    if chosen is None:
        return [], None
    authors = [Author(a.name, a.key, a.affiliation, a.orcid) for a in chosen.authors]
    # affiliations and ORCIDs from any source that lists the same person
    extra: dict[str, Author] = {}
    for r in sorted(recs, key=lambda r: _rank("authors", r.source)):
        for a in r.authors:
            extra.setdefault(a.key, a)
    for a in authors:
        other = extra.get(a.key)
        if other:
            a.affiliation = a.affiliation or other.affiliation
            a.orcid = a.orcid or other.orcid
    return authors, chosen


def _pick_abstract(recs: list[Record]) -> tuple[str | None, Record | None]:
    """The cleanest abstract that is not much shorter than the longest (a truncated copy): where the
    copies differ, the one with the fewest extraction artifacts (merge.damage: glued words, broken
    hyphenation, LaTeX as text), then the most trusted source."""
    cands = [r for r in recs if r.abstract]
    if not cands:
        return None, None
    longest = max(len(r.abstract or "") for r in cands)
    ok = [r for r in cands if len(r.abstract or "") >= 0.6 * longest]
    r = min(ok, key=lambda r: (_rank("abstract", r.source), recs.index(r)))
    # another copy of the same text (its letters alike, not another version of the abstract) with
    # fewer extraction artifacts wins
    same = [o for o in ok if o is r or _same_text(o.abstract or "", r.abstract or "")]
    if len({" ".join((o.abstract or "").split()) for o in same}) > 1:
        hurt = {id(o): damage(o.abstract or "") for o in same}
        r = min(same, key=lambda o: (hurt[id(o)], _rank("abstract", o.source), recs.index(o)))
    return r.abstract, r


def _same_text(a: str, b: str) -> bool:
    """Two copies of one text: their letters, in order, at least 95% alike."""
    la, lb = "".join(ch for ch in a.lower() if ch.isalpha()), "".join(ch for ch in b.lower() if ch.isalpha())
    return fuzz.ratio(la, lb) >= 95


def _prov(rec: Record | None) -> str | None:
    return rec.file if rec else None          # file keys start with the source name


def _pick_review(recs: list[Record]) -> tuple[Review | None, Record | None]:
    """The review of the record with each review's scores (then the one with most ratings, then by
    source priority); a record with only a mean comes after every record with a list."""
    have = [(r, r.review) for r in recs if r.review is not None]
    if not have:
        return None, None
    # final scores before a snapshot taken while they could still change, then the most ratings,
    # then the newest snapshot
    rec, review = min(have, key=lambda rv: (rv[1].from_mean, rv[1].as_of is not None, -(rv[1].count or 0),
                                            _newest_first(rv[1].as_of), _rank("review", rv[0].source),
                                            rv[0].file, rv[0].key))
    return review, rec


def _newest_first(date: str | None) -> tuple[int, ...]:
    """A sort key putting later ISO dates first."""
    return tuple(-int(x) for x in (date or "0").split("-") if x.isdigit())


def _pick_citations(recs: list[Record]) -> tuple[int | None, Record | None]:
    """Each source's newest count (a dated count before an undated one, then the later date, then
    the larger number), then the largest of those: sources count differently (Google Scholar's
    numbers, from papercopilot, run higher than OpenAlex's), and the merge has always shown the
    largest. Without dates this is the plain maximum."""
    newest: dict[str, Record] = {}
    for r in recs:
        if r.citations is None:
            continue
        k = (r.citations_as_of or "", r.citations)
        best = newest.get(r.source)
        if best is None or k > (best.citations_as_of or "", best.citations or 0):
            newest[r.source] = r
    if not newest:
        return None, None
    r = max(newest.values(), key=lambda r: (r.citations or 0, r.citations_as_of or "", r.source))
    return r.citations, r


def paper_from_records(all_recs: list[Record], paper_id: str) -> Paper:
    """One Paper from its records (already in a deterministic order). Annotations add keywords,
    ids, links, institutions and citation counts, never the paper's title, venue or status; their
    authors and abstract (an enrichment source's: OpenAlex) fill a paper no other record gives them,
    their bibliographic fields (pages) the fields no other record has."""
    recs = [r for r in all_recs if not r.annotation] or all_recs
    fill = [r for r in all_recs if r.annotation]
    title, t_rec = _pick_title(recs)
    venue, v_rec = _pick(recs, "venue")
    track, tr_rec = _pick(recs, "track")
    status, status_prov = _pick_status(recs, all_recs)
    authors, a_rec = _pick_authors(recs)
    if not authors and fill:
        authors, a_rec = _pick_authors(fill)
    abstract, ab_rec = _pick_abstract(recs)
    if abstract is None and fill:
        abstract, ab_rec = _pick_abstract(fill)
    provenance = {"title": _prov(t_rec), "venue": _prov(v_rec), "track": _prov(tr_rec), "status": status_prov,
                  "authors": _prov(a_rec), "abstract": _prov(ab_rec)}
    if a_rec is not None and a_rec.authors_sorted:
        provenance["author_order"] = "alphabetical"
    texts = _pick_texts(recs, provenance)
    review, rv_rec = _pick_review(all_recs)
    cites, c_rec = _pick_citations(all_recs)
    _scores_provenance(provenance, rv_rec, c_rec)
    links, ids = _links_and_ids(all_recs)
    st = _text(status)
    return Paper(
        id=paper_id, venue=str(venue), year=recs[0].year, title=str(title), title_plain="",
        authors=authors, abstract=abstract, track=_text(track), status=st,
        accepted=is_accepted(st), keywords=_keywords(all_recs), primary_area=texts["primary_area"],
        links=links, ids=dict(sorted(ids.items())), citations=cites, bibtex=texts["bibtex"],
        tldr=texts["tldr"], summary_zh=texts["summary_zh"], award=texts["award"],
        biblio=dict(sorted(_biblio(recs, fill, all_recs).items())), institutions=_institutions(all_recs),
        review=review, countries=_countries(all_recs), sources=sorted(ref(r) for r in all_recs),
        provenance={k: v for k, v in provenance.items() if v},
        extra={ref(r): r.extra for r in all_recs if r.extra},
    )


def _text(v: object) -> str | None:
    return v if isinstance(v, str) else None


def _pick_status(recs: list[Record], all_recs: list[Record]) -> tuple[object, str | None]:
    """The status and its provenance: a paper that no source gives one but that a census lists
    (every public submission) was rejected, and its provenance says the status was inferred."""
    status, s_rec = _pick(recs, "status")
    census = next((r for r in all_recs if r.census), None)
    if status is None and census is not None:
        return "rejected", f"inferred:{census.file}"     # listed among every submission, accepted by none
    return status, _prov(s_rec)


_TEXT_FIELDS = ("primary_area", "bibtex", "tldr", "summary_zh", "award")


def _pick_texts(recs: list[Record], provenance: dict[str, str | None]) -> dict[str, str | None]:
    """The optional text fields, each from the most trusted source that has it (its provenance
    added to ``provenance``)."""
    picked: dict[str, str | None] = {}
    for fld in _TEXT_FIELDS:
        v, r = _pick(recs, fld)
        picked[fld] = _text(v)
        provenance[fld] = _prov(r)
    return picked


def _scores_provenance(provenance: dict[str, str | None], rv_rec: Record | None,
                       c_rec: Record | None) -> None:
    """Where the review scores and the citation count came from (and the count's date)."""
    if rv_rec is not None:
        provenance["review"] = rv_rec.file
    if c_rec is not None:
        provenance["citations"] = c_rec.file
        if c_rec.citations_as_of:
            provenance["citations_as_of"] = c_rec.citations_as_of


def _links_and_ids(all_recs: list[Record]) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """Every record's links (one per place, in link priority) and ids (the most trusted source's
    value of each kind)."""
    links: list[tuple[str, str]] = []
    seen_urls: set[str] = set()
    ids: dict[str, str] = {}
    for r in sorted(all_recs, key=lambda r: _rank("links", r.source)):
        for kind, url in r.links.items():
            # one place linked by two hosts (papers.nips.cc and proceedings.neurips.cc) is one link
            norm = link_key(url)
            if norm not in seen_urls:
                seen_urls.add(norm)
                links.append((kind, current_url(url)))
        for k, v in r.ids.items():
            ids.setdefault(k, v)
    return links, ids


def _keywords(all_recs: list[Record]) -> list[str]:
    """Every record's keywords in keyword priority, each once whatever its case or accents."""
    keywords: list[str] = []
    seen_kw: set[str] = set()
    for r in sorted(all_recs, key=lambda r: _rank("keywords", r.source)):
        for k in r.keywords:
            if fold(k).lower() not in seen_kw:
                seen_kw.add(fold(k).lower())
                keywords.append(k)
    return keywords


def _biblio(recs: list[Record], fill: list[Record], all_recs: list[Record]) -> dict[str, str]:
    """Bibliographic fields: the listing records' first; an annotation's (DBLP's pages, from the
    atlas) fill what they lack."""
    biblio: dict[str, str] = {}
    for r in [*sorted(recs, key=lambda r: _rank("biblio", r.source)),
              *(sorted(fill, key=lambda r: _rank("biblio", r.source)) if recs is not all_recs else [])]:
        for k, v in r.biblio.items():
            biblio.setdefault(k, v)
    return biblio


def _institutions(all_recs: list[Record]) -> list[str]:
    institutions: list[str] = []
    for r in sorted(all_recs, key=lambda r: _rank("institutions", r.source)):
        for inst in r.institutions:
            if inst not in institutions:
                institutions.append(inst)
    return institutions


def _countries(all_recs: list[Record]) -> list[str]:
    countries: list[str] = []
    for r in sorted(all_recs, key=lambda r: _rank("countries", r.source)):
        countries.extend(c for c in r.countries if c not in countries)
    return countries
