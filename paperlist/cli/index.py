"""The index command: build the search index from the store."""

from __future__ import annotations

import time

import click

from ..index import fulltext
from ..store import Store
from .common import catch_store_errors, echo_json, home_dir, open_store, with_home


def rebuild_index(store: Store, force: bool, quiet: bool = False) -> fulltext.BuildReport:
    """Build a new index generation (unless current and not ``force``), with progress on stderr."""
    t0 = time.perf_counter()

    def progress(n: int, total: int) -> None:
        if not quiet:
            click.echo(f"  indexing [{n}/{total} papers  {time.perf_counter() - t0:5.1f}s]", err=True)

    return fulltext.build(store, home_dir(), force=force, progress=progress)


def print_build(rep: fulltext.BuildReport) -> None:
    if rep.skipped:
        click.echo(f"index:   current ({rep.generation}, {rep.papers:,} papers)")
    else:
        click.echo(f"index:   {rep.papers:,} papers in {rep.seconds:.1f}s -> {rep.generation}")


@click.command("index")
@click.option("--force/--if-stale", default=True, show_default=True,
              help="Rebuild even when the index already matches the store.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
@with_home
@catch_store_errors
def index_cmd(force: bool, as_json: bool, quiet: bool) -> None:
    """Build the full-text search index from the store.

    Writes a new generation under HOME/index/ and switches to it atomically: running searches
    keep answering from the previous generation until they see the new one. `paperlist ingest`
    runs this automatically when papers changed.
    """
    rep = rebuild_index(open_store(), force=force, quiet=quiet or as_json)
    if as_json:
        echo_json(rep.to_dict())
    else:
        print_build(rep)
