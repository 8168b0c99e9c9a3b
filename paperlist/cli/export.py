"""`paperlist export`: every paper of a search (or of filters alone) as BibTeX, CSV or JSON Lines,
the same files the API's ``format=bib|csv|jsonl`` streams."""

from __future__ import annotations

import sys
from typing import TextIO

import click

from .. import exports
from ..search.model import SORTS
from ..service import ServiceError, search_request
from ..service.papers import export_record
from ..service.paths import paper_path
from ..service.search import search_ids, total
from .common import catch_store_errors, current_home, fail, fail_service, with_home


@click.command("export")
@click.argument("query", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(exports.FORMATS), default="bib", show_default=True,
              help="bib: BibTeX (unique keys); csv: one row per paper (spreadsheet-safe); jsonl: one JSON "
                   "object per paper (the API's paper fields).")
@click.option("--venue", "venues", multiple=True, metavar="V", help="Venue key or alias (repeatable; OR-ed).")
@click.option("--year", "year", metavar="Y|A..B", help="A year or an inclusive range.")
@click.option("--status", "statuses", multiple=True, metavar="S",
              help="oral, spotlight, poster ... (repeatable).")
@click.option("--sort", type=click.Choice(SORTS), default="relevance", show_default=True)
@click.option("--limit", "-n", type=click.IntRange(1, exports.MAX_ROWS), default=exports.MAX_ROWS,
              show_default=True, help="Papers at most.")
@click.option("--output", "-o", type=click.File("w", encoding="utf-8", lazy=True), default="-",
              metavar="FILE", help="Write here instead of standard output.")
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
    q = " ".join(query).strip()
    if not (q or venues or statuses or year):
        fail("give a query or at least one filter (--venue, --year, --status)")
    home = current_home()
    base = base_url.rstrip("/")
    try:
        req = search_request(q=q, venues=venues, year=year, statuses=statuses, sort=sort, per_page=1,
                             facets=False, snippets=False)
        matching = total(home, req)
        for chunk in exports.export(home.store, search_ids(home, req, limit), fmt,
                                    record=export_record(home.store),
                                    paper_url=lambda pid: base + paper_path(pid)):
            output.write(chunk)
    except ServiceError as e:
        fail_service(e)
        return
    except BrokenPipeError:               # `| head`: the reader has what it wanted
        sys.stderr.close()
        return
    output.flush()
    rows = min(matching, limit)
    click.echo(f"exported {rows:,} of {matching:,} matching papers as {fmt}"
               + ("" if rows == matching else f" (--limit {limit}; at most {exports.MAX_ROWS:,})"), err=True)
