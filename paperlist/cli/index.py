"""The index command: build the search index from the store."""

from __future__ import annotations

import time

import click

from ..index import fulltext
from ..service.derived import StepProgress
from .common import catch_store_errors, current_home, echo_json, open_store, with_home


def step_lines(quiet: bool = False) -> StepProgress | None:
    """Progress of the derived steps as lines on stderr: "assigning topics ...", then "indexing
    [n/total papers  t s]" (None when quiet)."""
    if quiet:
        return None
    started: dict[str, float] = {}

    def show(phase: str, n: int, total: int) -> None:
        t0 = started.setdefault(phase, time.perf_counter())
        if phase == "topics":
            click.echo("  assigning topics ...", err=True)
        elif phase == "stats":
            click.echo("  computing conference statistics ...", err=True)
        else:
            click.echo(f"  indexing [{n}/{total} papers  {time.perf_counter() - t0:5.1f}s]", err=True)

    return show


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
    progress = step_lines(quiet or as_json)
    rep = fulltext.build(open_store(), current_home().path, force=force,
                         progress=(lambda n, total: progress("index", n, total)) if progress else None)
    if as_json:
        echo_json(rep.to_dict())
    else:
        print_build(rep)
