"""The topics commands: assign topics to papers, print topic statistics, list the taxonomy."""

from __future__ import annotations

from typing import Any, Literal

import click

from ..curated.match import MatchReport
from ..service.derived import DerivedReport
from ..stats import StatsReport
from ..taxonomy import taxonomy
from ..topics.build import AssignReport, assign_topics
from .common import catch_store_errors, current_home, echo_json, open_store, with_home
from .index import print_build
from .progress import make_display, running


def derived_report(out: dict[str, Any], derived: DerivedReport | None, as_json: bool,
                   timed: bool = True) -> None:
    """Add the topics and index reports to a JSON report, or print their lines (without their
    seconds when not ``timed``: a summary whose "time:" line gives each phase's once)."""
    if derived is None:
        return
    if as_json:
        out.update(derived.to_dict())
    else:
        print_assign(derived.topics, timed)
        print_stats_build(derived.stats, timed)
        if derived.lists is not None:
            print_lists(derived.lists, timed)
        print_build(derived.index, timed)


def print_lists(rep: MatchReport, timed: bool = True) -> None:
    """The curated lists' line: entries matched to our papers (the per-list shares are in the JSON
    report and ``paperlist lists``)."""
    if rep.skipped:
        click.echo("lists:   current")
    elif rep.entries:
        click.echo(f"lists:   {len(rep.lists):,} curated lists, {rep.matched:,} of {rep.entries:,} entries"
                   f" ({rep.matched / rep.entries:.1%}) matched to {rep.papers:,} papers"
                   + (f" in {rep.seconds:.1f}s" if timed else ""))


def print_stats_build(rep: StatsReport, timed: bool = True) -> None:
    if rep.skipped:
        click.echo("stats:   current")
    else:
        click.echo(f"stats:   {rep.venue_years:,} venue-years, {rep.rated_papers:,} papers with ratings"
                   + (f" in {rep.seconds:.1f}s" if timed else ""))


def print_assign(rep: AssignReport, timed: bool = True) -> None:
    if rep.skipped:
        click.echo("topics:  current")
    else:
        share = rep.with_topics / rep.papers if rep.papers else 0.0
        click.echo(f"topics:  {rep.with_topics:,} of {rep.papers:,} papers ({share:.1%}), {rep.rows:,} "
                   f"assignments{f', {rep.vectors:,} with vectors' if rep.vectors else ''}"
                   + (f" in {rep.seconds:.1f}s" if timed else ""))


@click.group("topics")
def topics_cmd() -> None:
    """Topics: assign them to papers, show statistics, list the taxonomy."""


@topics_cmd.command("assign")
@click.option("--force/--if-stale", default=True, show_default=True,
              help="Reassign even when papers, taxonomy and vectors are unchanged.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@with_home
@catch_store_errors
def assign_cmd(force: bool, as_json: bool, quiet: bool) -> None:
    """Assign 1-3 topics to every paper from its title, keywords, abstract, primary area and (when
    `paperlist embed` has run) its vector. Ingest runs this when papers changed; run it after
    `paperlist embed`, then `paperlist index`, to let vectors refine the topics."""
    store, home = open_store(readonly=False), current_home().path
    with running(make_display(quiet or as_json),
                 lambda: "the topics are unchanged; run the same command again to assign them") as display:
        display.update("topics", 0, 0)
        rep = assign_topics(store, home, force=force)
    if as_json:
        echo_json(rep.to_dict())
    else:
        print_assign(rep)


@topics_cmd.command("stats")
@click.option("--venue", help="Only this venue (key, e.g. iclr).")
@click.option("--year", type=int, help="Only this year.")
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@with_home
@catch_store_errors
def stats_cmd(venue: str | None, year: int | None, lang: Literal["en", "zh"], as_json: bool) -> None:
    """Papers per topic (and per year), overall or for one venue and/or year."""
    from ..topics.stats import overview

    data = overview(open_store(), venue=venue, year=year)
    if as_json:
        echo_json(data)
        return
    for area in data:
        click.echo(f"{area[lang]:<60} {area['papers']:>8,}")
        for t in area["topics"]:
            recent = " ".join(f"{y}:{n}" for y, n in list(t["years"].items())[-4:])
            click.echo(f"  {t[lang]:<58} {t['papers']:>8,}   {recent}")


@topics_cmd.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the taxonomy as JSON.")
def list_cmd(as_json: bool) -> None:
    """The taxonomy: areas and their topics, with slugs and names in English and Chinese."""
    tax = taxonomy()
    if as_json:
        echo_json([{"slug": a.slug, "en": a.en, "zh": a.zh, "topics": [
            {"slug": t.slug, "en": t.en, "zh": t.zh, "desc_en": t.desc_en, "desc_zh": t.desc_zh}
            for t in tax.children(a.slug)]} for a in tax.areas])
        return
    for a in tax.areas:
        click.echo(f"{a.slug:<28} {a.en} / {a.zh}")
        for t in tax.children(a.slug):
            click.echo(f"  {t.slug:<26} {t.en} / {t.zh}")
