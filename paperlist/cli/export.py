"""`paperlist export`: every paper of a search (or of filters alone) as BibTeX, CSV or JSON Lines,
the same files the API's ``format=bib|csv|jsonl`` streams."""

from __future__ import annotations

import sys
from typing import TextIO

import click

from .. import exports
from ..search import NoIndex, SearchRequest, Searcher
from ..search.model import SORTS
from ..search.query import parse_years
from ..web.views.base import Ctx, DataCache, PageError, paper_path
from ..web.views.papers import paper_fields
from ..web.views.resources import search_ids
from ..web.views.search import run_search
from .common import catch_store_errors, fail, home_dir, open_store, with_home


@click.command("export")
@click.argument("query", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(exports.FORMATS), default="bib", show_default=True,
              help="bib: BibTeX (unique keys); csv: one row per paper (spreadsheet-safe); jsonl: one JSON "
                   "object per paper (the API's paper fields).")
@click.option("--venue", "venues", multiple=True, metavar="V", help="Venue key or alias (repeatable; OR-ed).")
@click.option("--year", "year", metavar="Y|A..B", help="A year or an inclusive range.")
@click.option("--status", "statuses", multiple=True, metavar="S", help="oral, spotlight, poster ... (repeatable).")
@click.option("--sort", type=click.Choice(SORTS), default="relevance", show_default=True)
@click.option("--limit", "-n", type=click.IntRange(1, exports.MAX_ROWS), default=exports.MAX_ROWS, show_default=True,
              help="Papers at most.")
@click.option("--output", "-o", type=click.File("w", encoding="utf-8", lazy=True), default="-", metavar="FILE",
              help="Write here instead of standard output.")
@click.option("--base-url", default="", metavar="URL", help="Site address for the CSV url column "
              "(e.g. https://papers.example.org); paths alone without it.")
@with_home
@catch_store_errors
def export_cmd(query: tuple[str, ...], fmt: str, venues: tuple[str, ...], year: str | None,
               statuses: tuple[str, ...], sort: str, limit: int, output: TextIO, base_url: str) -> None:
    """Export every paper a search finds (the query language of `paperlist search`; an empty
    query with filters lists them all, e.g. a whole conference-year), at most 10,000.

    \b
    Examples:
      paperlist export 'author:"Yoshua Bengio"' --format bib -o bengio.bib
      paperlist export --venue iclr --year 2024 --status oral --format csv -o iclr2024-orals.csv
      paperlist export diffusion --year 2023..2025 --format jsonl | jq .title
    """
    year_from = year_to = None
    if year:
        rng = parse_years(year)
        if rng is None:
            fail(f"bad --year {year!r} (use 2024, 2020..2024, >=2022)")
            return
        year_from, year_to = rng
    q = " ".join(query).strip()
    if not (q or venues or statuses or year):
        fail("give a query or at least one filter (--venue, --year, --status)")
    store = open_store()
    try:
        searcher = Searcher.open(home_dir())
    except NoIndex as e:
        fail(str(e))
        return
    ctx = Ctx(store=store, lang="en", cache=DataCache(store), searcher=searcher)
    req = SearchRequest(q=q, venues=list(venues), year_from=year_from, year_to=year_to, statuses=list(statuses),
                        sort=sort, per_page=1, facets=False, snippets=False)
    base = base_url.rstrip("/")
    try:
        total = run_search(ctx, req).total
        for chunk in exports.export(store, search_ids(ctx, req, limit), fmt, record=paper_fields,
                                    paper_url=lambda pid: base + paper_path(pid)):
            output.write(chunk)
    except PageError as e:
        fail(f"{e.message} {e.detail}".strip())
        return
    except BrokenPipeError:               # `| head`: the reader has what it wanted
        sys.stderr.close()
        return
    output.flush()
    rows = min(total, limit)
    click.echo(f"exported {rows:,} of {total:,} matching papers as {fmt}"
               + ("" if rows == total else f" (--limit {limit}; at most {exports.MAX_ROWS:,})"), err=True)
