"""The update command: the newest papers from the official sources (OpenReview, OpenAlex)."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import click

from ..service import BadRequest
from ..service.replicas import PublishError, publish
from ..service.updating import DEFAULT_SOURCES, SOURCES, plan, update
from ..snapshots.manifest import LATEST_FILE
from ..update.run import UpdateReport
from .common import catch_store_errors, current_home, echo_json, fail, with_home
from .progress import make_display, running, steps
from .topics import derived_report


@click.command("update")
@click.option("--venue", "venues", multiple=True, metavar="VENUE",
              help="An OpenReview venue group (NeurIPS.cc/2026/Conference) or a venue and year "
                   "(neurips2026, iclr2027); repeatable. Default: NeurIPS, ICLR, ICML, COLM and CoRL of "
                   "this year and next.")
@click.option("--since", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="Only what changed on or after this date (YYYY-MM-DD), added to what we hold; "
                   "default: each venue read whole.")
@click.option("--source", "sources", multiple=True, type=click.Choice(SOURCES),
              help="Ask only these sources (repeatable). Default: openreview and openalex; with --venue, "
                   "OpenReview only. 'citations': OpenAlex's citation count of every paper it matches with "
                   "certainty (asked again after 30 days), only when named.")
@click.option("--budget", type=click.IntRange(1, 1_000_000), default=None,
              help="Requests per source for this run (default 2,000); a run that spends it stops cleanly "
                   "and the next one goes on.")
@click.option("--index/--no-index", "derive", default=True, show_default=True,
              help="Rebuild topics, statistics and the search index afterwards when papers changed.")
@click.option("--publish", "publish_to", metavar="DIR", type=click.Path(file_okay=False, path_type=Path),
              help="Then publish a snapshot into DIR for the followers (`paperlist publish`), when papers "
                   "changed or DIR has none yet.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines (the summary still prints).")
@with_home
@catch_store_errors
def update_cmd(venues: tuple[str, ...], since: dt.datetime | None, sources: tuple[str, ...],
               budget: int | None, derive: bool, publish_to: Path | None, as_json: bool, quiet: bool) -> None:
    """Fetch the newest papers from their official sources into the store, then merge them.

    OpenReview (API v2, through openreview-py, as a guest): each venue's submissions with authors,
    abstracts, keywords, decisions and reviews, read by their final venue id, paged. OpenAlex
    (through pyalex): authors, DOI, abstract and citation count for papers of this year and last that
    lack them, where the match is certain; with --source citations, the citation count of every paper
    OpenAlex matches with certainty, dated. PAPERLIST_OPENREVIEW_URL and PAPERLIST_OPENALEX_URL point at
    a mirror. Polite (rate limits, Retry-After, backoff), bounded (--budget), resumable (kill it: run it
    again), and one line per source that cannot be reached, with exit status 1.
    """
    if publish_to is not None and not derive:
        fail("--publish needs the index brought up to date: drop --no-index")
    chosen = list(sources) or (["openreview"] if venues else list(DEFAULT_SOURCES))
    try:
        run = plan(list(venues), since.date() if since else None, chosen, budget)
    except BadRequest as e:
        fail(e.message)
    home = current_home(must_exist=False)
    display = make_display(quiet or as_json)
    with running(display, lambda: "finished venues are kept; run the same command again to go on"):
        report, derived = update(home, run, say=None if quiet or as_json else click.echo, derive=derive,
                                 step_progress=steps(display))
    published = None
    if publish_to is not None and derive and (derived is not None or not (publish_to / LATEST_FILE).exists()):
        try:
            published = publish(home, publish_to, say=None if quiet or as_json else click.echo)
        except PublishError as e:
            fail(str(e), code=1)
    if as_json:
        out = report.to_dict()
        derived_report(out, derived, True)
        if published is not None:
            out["published"] = published.to_dict()
        echo_json(out)
    else:
        _summary(report)
        derived_report({}, derived, False)
        if published is not None:
            click.echo(f"published  {published.id}: {published.new_bytes / 1e6:,.1f} MB new of "
                       f"{published.stored / 1e6:,.1f} MB, in {published.seconds:.1f}s")
    sys.exit(1 if report.failed else 0)


def _summary(report: UpdateReport) -> None:
    for s in report.sources:
        line = f"{s.name:<11} {s.meter.requests:,} requests ({s.meter.retries} retried) in {s.seconds:.1f}s"
        click.echo(line + (f"; stopped: {s.stopped}" if s.stopped else ""))
    p = report.papers
    click.echo(f"papers:     new {p.new}  updated {p.updated}  unchanged {p.unchanged}  removed {p.removed}")
    for s in report.sources:
        if s.error:
            click.echo(f"failed      {s.name}: {s.error}", err=True)
