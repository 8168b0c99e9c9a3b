"""The index command: build the search index from the store."""

from __future__ import annotations

import click

from ..index.fulltext import BuildReport
from ..service.derived import build_index
from .common import catch_store_errors, current_home, echo_json, open_store, with_home
from .progress import make_display, running


def print_build(rep: BuildReport, timed: bool = True) -> None:
    if rep.skipped:
        click.echo(f"index:   current ({rep.generation}, {rep.papers:,} papers)")
    else:
        how = f" ({rep.changed:,} documents replaced)" if rep.changed is not None else ""
        took = f" in {rep.seconds:.1f}s" if timed else ""
        click.echo(f"index:   {rep.papers:,} papers{took} -> {rep.generation}{how}")


@click.command("index")
@click.option("--force/--if-stale", default=True, show_default=True,
              help="Rebuild even when the index already matches the store.")
@click.option("--full", is_flag=True, help="Write every document anew, even when few papers changed.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@with_home
@catch_store_errors
def index_cmd(force: bool, full: bool, as_json: bool, quiet: bool) -> None:
    """Build the full-text search index from the store.

    Writes a new generation under HOME/index/ and switches to it atomically: running searches
    keep answering from the previous generation until they see the new one. When few papers
    changed since the live generation, the new one is a copy of it with only their documents
    replaced (--full writes every document). `paperlist ingest` runs this automatically when
    papers changed.
    """
    store, home = open_store(readonly=False), current_home()
    with running(make_display(quiet or as_json),
                 lambda: "the previous index generation is still the one searched; run the same command "
                         "again to build it") as display:
        rep = build_index(home, store, force=force, full=full,
                          progress=lambda n, total: display.update("index", n, total))
    if as_json:
        echo_json(rep.to_dict())
    else:
        print_build(rep)
