"""The search command: one query (text or JSON) or a batch of queries (JSON lines)."""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Callable
from typing import Any, TextIO

import click
import orjson

from ..search import Searcher, SearchRequest, SearchResult
from ..search.engine import NoIndex
from ..search.model import MAX_PER_PAGE, MODES, SORTS, Interpreted, Translated
from ..search.request import InvalidRequest
from ..service import Home, ServiceError, search_request
from ..service.search import run_search
from .common import echo_json, fail, fail_service, home_dir, output_format, with_home

_MARK = re.compile(r"<mark>(.*?)</mark>")

QUERY_HELP = """Search papers by title, author, abstract and keywords.

\b
The query language (also in the README):
  graph neural networks          plain words; papers with all of them first (typos and
                                 an unfinished last word are forgiven)
  "contrastive learning"         an exact phrase
  -survey  -"large language"     leave out papers with a word or phrase
  author:"Yoshua Bengio"         an author (also author:bengio, author:"Bengio, Yoshua")
  title:diffusion  abstract:"zero-shot"  keyword:robotics
                                 words in one field only
  venue:neurips  venue:nips,icml a venue, by key or alias (nips = NeurIPS); OR-ed
  family:acl                     ACL and its Findings (venue:acl is the main conference)
  year:2024  year:2020..2024  year:>=2022
  status:oral  accepted:true  track:main
  rating:>=6  rating:>6  rating:<5  rating:5..6  rating:5.5..
                                 mean review rating; rating:6 means at least 6
                                 (rating:=6 exactly); unrated papers never match
  -venue:cvpr  -status:rejected  negate a filter
Malformed syntax (an unbalanced quote, an unknown field, a bad year or rating) is searched
as text. --sort rating lists the highest mean rating first, unrated papers last; --sort listed
the papers in the most curated reading lists first, papers in none last.
An empty query with filters lists papers: orals first, then spotlights, posters ..., by title.

\b
Examples:
  paperlist search attention is all you need
  paperlist search 'author:"Kaiming He" year:2015..2017'
  paperlist search diffusion --venue iclr --year 2023 --status oral --json
  paperlist search --venue iclr --year 2023 --rating '>=6' --sort rating
  paperlist search --batch queries.txt --limit 5 > results.jsonl
"""


@click.command("search", help=QUERY_HELP)
@click.argument("query", nargs=-1)
@click.option("--venue", "venues", multiple=True, metavar="V", help="Venue key or alias (repeatable; OR-ed).")
@click.option("--year", "year", metavar="Y|A..B", help="A year or an inclusive range.")
@click.option("--status", "statuses", multiple=True, metavar="S",
              help="oral, spotlight, poster ... (repeatable).")
@click.option("--rating", "rating", metavar="R",
              help="Mean review rating: 6 or >=6 (at least), >6, <5, <=5.5, =6, 5..6, 5.5.. .")
@click.option("--sort", type=click.Choice(SORTS), default="relevance", show_default=True)
@click.option("--topic", "topics", multiple=True, metavar="SLUG",
              help="Topic or area slug (repeatable; OR-ed).")
@click.option("--mode", type=click.Choice(MODES), default="auto", show_default=True,
              help="keyword, semantic (by meaning; needs `paperlist embed`), hybrid, or auto (hybrid for "
                   "natural-language queries when vectors exist).")
@click.option("--limit", "-n", type=click.IntRange(1, MAX_PER_PAGE), default=10, show_default=True,
              help="Hits per query (per page).")
@click.option("--page", type=click.IntRange(1, None), default=1, show_default=True)
@output_format()
@click.option("--batch", type=click.File("r", encoding="utf-8"), metavar="FILE",
              help="Read one query per line ('-' for stdin); print one JSON object per line, in order.")
@with_home
def search_cmd(query: tuple[str, ...], venues: tuple[str, ...], year: str | None, statuses: tuple[str, ...],
               rating: str | None, sort: str, topics: tuple[str, ...], mode: str, limit: int, page: int,
               as_json: bool, batch: TextIO | None) -> None:
    def request(q: str, batch: bool = False) -> SearchRequest:
        return search_request(q=q, venues=venues, year=year, statuses=statuses, topics=topics, rating=rating,
                              sort=sort,
                              mode=mode, page=page, per_page=limit, facets=not batch, snippets=not batch)

    try:
        base = request("")            # the options are checked before anything is read
        searcher = Searcher.open(home_dir())
    except ServiceError as e:
        fail_service(e)
        return
    except NoIndex as e:
        fail(f"{e}")
        return
    try:
        if batch is not None:
            if query:
                fail("give either QUERY or --batch FILE, not both")
            _run_batch(searcher, lambda q: request(q, batch=True), batch)
            return
        # one query goes through the service, as on the site: a pasted reference is understood
        res = run_search(Home(home_dir(), searcher=searcher), request(" ".join(query))) if query else \
            searcher.search(base)
    except InvalidRequest as e:
        fail(str(e))
        return
    except ServiceError as e:
        fail(e.detail or e.message)
        return
    if as_json:
        echo_json(res.to_dict())
    else:
        _print_result(res)


def _run_batch(searcher: Searcher, request: Callable[[str], SearchRequest], lines: TextIO) -> None:
    out = sys.stdout
    for line in lines:
        res = searcher.search(request(line.rstrip("\r\n")))
        out.write(orjson.dumps(_batch_record(res)).decode() + "\n")
        out.flush()


def _batch_record(res: SearchResult) -> dict[str, Any]:
    return {"q": res.request.q, "total": res.total, "suggestion": res.suggestion,
            "hits": [{"id": h.id, "title": h.title, "authors": h.authors, "venue": h.venue, "year": h.year,
                      "status": h.status} for h in res.hits]}


def _terminal(html_text: str) -> str:
    """<mark> as bold, entities decoded (for a terminal, not a browser)."""
    return html.unescape(_MARK.sub(lambda m: click.style(m.group(1), bold=True), html_text))


def _print_result(res: SearchResult) -> None:
    req = res.request
    what = f'"{req.q}"' if req.q.strip() else "(browse)"
    click.echo(f"{res.total:,} results for {what}  ({res.took_ms:.1f} ms)")
    if res.suggestion:
        click.echo(f"did you mean: {res.suggestion}")
    _print_understood(res.interpreted)
    start = (req.page - 1) * req.per_page
    for i, h in enumerate(res.hits, start + 1):
        click.echo(f"{i:>3}. {_terminal(h.title_html)}")
        authors = ", ".join(h.authors[:4]) + (" et al." if len(h.authors) > 4 else "")
        meta = (f"{h.venue_short} {h.year}" + (f" · {h.status}" if h.status else "")
                + (f" · rating {h.rating:.2f}" if h.rating is not None else "")
                + (f" · {h.lists} list{'s' if h.lists != 1 else ''}" if h.lists else ""))
        click.echo(f"     {authors or '(no authors listed)'} · {meta}   [{h.id}]")
    for dim, label in (("venue", "venues:"), ("year", "years:"), ("status", "status:")):
        vals = res.facets.get(dim) or []
        if vals:
            shown = " · ".join(f"{v.label} {v.count:,}" for v in vals[:8])
            click.echo(f"{label:<9} {shown}" + (" …" if len(vals) > 8 else ""))


def _print_understood(interpreted: Interpreted) -> None:
    """How the query was understood: a pasted citation, a translation, the ranking, notes."""
    cited = interpreted.get("citation")
    if cited:
        rest = (", ".join(cited["authors"][:3]), cited["year"], cited["venue"])
        click.echo(f"understood as a citation: {cited['title']}" + "".join(f" · {x}" for x in rest if x))
    tr = interpreted.get("translated")
    if tr:
        _print_translation(tr)
    if interpreted.get("mode") in ("hybrid", "semantic"):
        click.echo(f"ranked by: {interpreted['mode']} (words and meaning)"
                   if interpreted["mode"] == "hybrid" else "ranked by: meaning")
    notes = interpreted.get("notes")
    if notes:
        click.echo("note: " + "; ".join(notes))


def _print_translation(tr: Translated) -> None:
    """A Chinese query as searched: its English, the terms guessed from papers' Chinese summaries,
    and what nothing translated."""
    guessed = [f"{t['zh']} → {t['en']}: guessed from {t['summaries']:,} papers' Chinese summaries"
               for t in tr["terms"] if t["learned"]]
    if tr["to"]:
        click.echo(f"searched as: {tr['to']}" + (f" ({'; '.join(guessed)})" if guessed else ""))
    if tr["unknown"]:
        n = tr["seeded"]
        papers = f"{n:,} paper{'s' if n != 1 else ''} whose Chinese summary has it"
        click.echo(f"not translated: {', '.join(tr['unknown'])}" + (
            f" (first the {papers}, then the papers nearest them)" if n and not tr["to"] else
            f" (its meaning from the {papers})" if n else " (left out)"))
