"""`paperlist stats`: the corpus's figures; with --venue, a venue's figures year over year; with
--venue and --year, a conference-year's statistics (the same function as the stats page and the
API, so the numbers are the same everywhere)."""

from __future__ import annotations

import click

from .. import venues as venue_registry
from ..service import ServiceError
from ..service.conference_stats import conference_stats
from ..service.reviews import venue_series
from ..service.types import ConferenceStats, VenueStatsRow
from ..service.venues import canonical_venue
from .common import (
    catch_store_errors,
    current_home,
    echo_json,
    fail,
    fail_service,
    open_store,
    output_format,
    with_home,
)

LISTINGS = {"all-submissions": "the sources list every submission",
            "public-rejections": "the sources list accepted papers and the rejections made public: "
                                 "the rate is an upper bound",
            "accepted-only": "the sources list accepted papers only: no acceptance rate"}


def _n(x: int) -> str:
    return f"{x:,}"


def _f(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _papers(n: int) -> str:
    return f"{n:,} paper" + ("" if n == 1 else "s")


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _row(label: str, text: str) -> None:
    click.echo(f"{label:<22} {text}")


def _print_ratings(s: ConferenceStats) -> None:
    r = s["ratings"]
    if r is None:
        _row("ratings", "no source gives review scores for this conference-year")
        return
    own = f", {_n(r['from_source_mean'])} of them the source's mean only" if r["from_source_mean"] else ""
    own += "".join(f", {_n(n)} of them scores as of {date} (before decisions)"
                   for date, n in r.get("as_of", {}).items())
    _row("rated papers", f"{_n(r['papers'])} ({_n(r['without'])} without ratings){own}")
    _row("reviews", f"{_n(r['reviews'])} ({_f(r['reviews_per_paper'])} per paper), scale seen "
                    f"{_f(r['min'], 1)}-{_f(r['max'], 1)}")
    _row("mean rating", f"{_f(r['mean'])} (median {_f(r['median'])}); accepted papers "
                        f"{_f(r['accepted_mean'])} (median {_f(r['accepted_median'])})")
    for status, mean in r["mean_by_status"].items():
        _row(f"  {status}", f"mean {_f(mean)}  median {_f(r['median_by_status'].get(status))}"
                            f"  ({_papers(r['papers_by_status'].get(status, 0))})")
    if r["rating_confidence_r"] is not None:
        _row("rating~confidence r", f"{_f(r['rating_confidence_r'], 3)} over "
                                    f"{_n(r['rating_confidence_pairs'])} reviews "
                                    f"(mean confidence {_f(r['confidence_mean'])})")
    for dim, d in s["dimensions"].items():
        _row(dim.replace("_", " "), f"mean {_f(d['mean'])} over {_n(d['papers'])} papers")
    statuses = [k for k in s["by_status"] if any(b["by_status"].get(k) for b in r["histogram"])]
    click.echo("")
    click.echo("mean rating   " + " ".join(f"{k[:9]:>9}" for k in statuses) + "   accepted")
    for b in r["histogram"]:
        counts = " ".join(f"{b['by_status'].get(k, 0):>9,}" for k in statuses)
        click.echo(f"{b['from']:>4.1f}-{b['to']:<4.1f}    {counts}   {_pct(b['acceptance_rate']):>8}")


def _print_ranked(s: ConferenceStats) -> None:
    for what, rows, with_any in (("institutions", s["institutions"], s["institutions_papers"]),
                                 ("countries", s["countries"], s["countries_papers"]),
                                 ("authors", s["authors"], s["authors_papers"])):
        if not rows:
            continue
        click.echo("")
        click.echo(f"top {what} by accepted papers ({_n(with_any)} of {_n(s['papers'])} papers name any)")
        for i, x in enumerate(rows[:10], 1):
            click.echo(f"{i:>3}. {x['name'][:60]:<60} {x['accepted']:>5,} accepted of {x['papers']:,}")


def print_conference_stats(s: ConferenceStats) -> None:
    click.echo(f"{s['venue']['short']} {s['year']} · {s['venue']['name']}")
    _row("submissions listed", f"{_n(s['papers'])}  ({LISTINGS.get(s['listing'], s['listing'])})")
    rate = f"  acceptance rate {_pct(s['acceptance_rate'])}" if s["acceptance_rate"] is not None else ""
    _row("accepted", _n(s["accepted"]) + rate)
    _row("by decision", " · ".join(f"{k} {_n(v)}" for k, v in s["by_status"].items() if v))
    _print_ratings(s)
    _print_ranked(s)
    click.echo("")
    sources = s["coverage"]["sources"]
    click.echo("sources: " + ", ".join(f"{x['name']} ({_n(x['papers'])} papers)" for x in sources))
    if s["review_sources"]:
        given = s["review_sources"].items()
        click.echo("review scores from: " + ", ".join(f"{k} ({_n(v)})" for k, v in given))


def print_series(short: str, rows: list[VenueStatsRow]) -> None:
    click.echo(f"{short}: year  submissions  accepted  rate      rated  mean  accepted mean")
    for r in rows:
        rate = _pct(r["acceptance_rate"]) if r["acceptance_rate"] is not None else (
            "acc. only" if r["listing"] == "accepted-only" else "-")
        click.echo(f"{'':<{len(short) + 2}}{r['year']}  {r['papers']:>11,}  {r['accepted']:>8,}  {rate:<9} "
                   f"{r['rated']:>6,}  {_f(r['mean_rating']):>4}  {_f(r['accepted_mean_rating']):>13}")


@click.command("stats")
@click.option("--venue", default=None,
              help="A venue (aliases work: nips, NeurIPS): its figures year over year.")
@click.option("--year", default=None, help="With --venue: that conference-year's statistics (submissions, "
                                           "acceptance, review scores, institutions, countries, authors).")
@output_format()
@with_home
@catch_store_errors
def stats_cmd(venue: str | None, year: str | None, as_json: bool) -> None:
    """Corpus figures; with --venue a venue's figures by year; with --venue and --year a conference-year's
    statistics, the same as its stats page."""
    if year is not None and venue is None:
        fail("--year needs --venue")
    if venue is None:
        _corpus(as_json)
        return
    home = current_home()
    key = venue_registry.resolve(venue) or venue.lower()     # aliases and other spellings
    try:
        if year is None:
            rows = venue_series(home, canonical_venue(home, key))
            echo_json(rows) if as_json else print_series(venue_registry.get(key).short, rows)
            return
        s = conference_stats(home, key, year)
    except ServiceError as e:
        fail_service(e)
        return
    echo_json(s) if as_json else print_conference_stats(s)


def _corpus(as_json: bool) -> None:
    s = open_store().stats()
    if as_json:
        echo_json(s)
        return
    for k in ("papers", "accepted", "with_abstract", "venues", "venue_years", "authors", "records", "files"):
        click.echo(f"{k:<14} {s[k]:>9,}")
    click.echo("sources        " + ", ".join(f"{k} ({v} files)" for k, v in s["sources"].items()))
    if s["pending_merge"]:
        click.echo(f"pending merge  {s['pending_merge']} blocks (run 'paperlist merge')")
