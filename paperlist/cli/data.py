"""Data commands: ingest, merge, venues, show, coverage."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .. import venues as venue_registry
from ..citation import bibtex
from ..cite import cite
from ..cite.ris import dumps as ris_dumps
from ..cite.styles import CSL_STYLES
from ..ingest import IngestReport, merge_pending
from ..reports import write_ingest_report
from ..service import ingest
from ..sources import READERS, origins
from .common import (
    catch_store_errors,
    current_home,
    echo_json,
    fail,
    home_dir,
    open_store,
    output_format,
    with_home,
)
from .ingest_summary import NAMED_IGNORED, IngestProgress, print_summary
from .progress import Display, make_display, running, steps
from .topics import derived_report


def _run_ingest(targets: list[str], fmt: str | None, force: bool, as_json: bool, quiet: bool,
                jobs: int | None, build_index: bool = True, verbose: bool = False,
                display: Display | None = None) -> None:
    home = current_home(must_exist=False)
    display = display or make_display(quiet or as_json)
    progress = IngestProgress(display, verbose and not as_json)
    with running(display, progress.kept):
        # the library keeps topics and the index in step with the papers (service.derived)
        rep, derived = ingest(home, targets, fmt=fmt, force=force, progress=progress, jobs=jobs,
                              derive=build_index, step_progress=steps(display))
    report = write_ingest_report(home.path, rep, named=0 if as_json else NAMED_IGNORED)
    if as_json:
        out = rep.to_dict()
        derived_report(out, derived, True)
        echo_json(out)
    else:
        print_summary(rep, derived, display, report)
    sys.exit(1 if rep.failed else 0)


_jobs_option = click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
                            help="Worker processes for parsing and merging (default: CPUs, at most 4).")
_quiet_option = click.option("--quiet", "-q", is_flag=True,
                             help="No progress display (the summary still prints).")
_verbose_option = click.option("--verbose", "-v", is_flag=True,
                               help="A line per file (and its first skipped records) as it is read.")
_index_option = click.option("--index/--no-index", "build_index", default=True, show_default=True,
                             help="Rebuild the search index afterwards when papers changed.")


@click.command("ingest")
@click.argument("targets", nargs=-1, required=True, metavar="PATH_OR_URL...")
@click.option("--format", "fmt", type=click.Choice(sorted(READERS)), help="Source format (default: detect).")
@click.option("--force", is_flag=True, help="Re-parse files even when their bytes did not change.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@_quiet_option
@_verbose_option
@_jobs_option
@_index_option
@with_home
@catch_store_errors
def ingest_cmd(targets: tuple[str, ...], fmt: str | None, force: bool, as_json: bool, quiet: bool,
               verbose: bool, jobs: int | None, build_index: bool) -> None:
    """Ingest paper lists from files, directories or http(s) URLs, then merge them.

    Each file is one transaction; re-ingesting unchanged files changes nothing. Reports new /
    updated / unchanged / removed / skipped records per file and merged papers in total, then
    rebuilds the search index if papers changed. Exits with 1 when any file failed. Interrupt it
    at any time: run it again to continue.

    Shows a live progress display in a terminal (a line every few seconds elsewhere), then a
    summary; skipped records, failed and ignored files are listed with their reasons in
    HOME/reports/ingest-<UTC time>.jsonl (the newest 10 are kept), which the summary names.
    """
    _run_ingest(list(targets), fmt, force, as_json, quiet, jobs, build_index, verbose)


@click.command("corpus")
@click.option("--data", "data_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              envvar="PAPERLIST_DATA", show_envvar=True,
              help="Folder of source files (default: ../shared/data when it exists).")
@click.option("--download", is_flag=True, help="Download from the public origins even when a folder exists.")
@click.option("--source", "only", multiple=True, type=click.Choice(sorted(origins.ORIGINS)),
              help="With downloads: only these sources (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@_quiet_option
@_verbose_option
@_jobs_option
@_index_option
@with_home
@catch_store_errors
def corpus_cmd(data_dir: Path | None, download: bool, only: tuple[str, ...], as_json: bool, quiet: bool,
               verbose: bool, jobs: int | None, build_index: bool) -> None:
    """Ingest the standard corpus: the shared data folder when present, else download it from the
    public origins (papercopilot, mlanthology, ACL Anthology, OpenReview exports on GitHub) into
    HOME/sources and ingest that. Downloads resume where they stopped."""
    if data_dir is not None and not data_dir.is_dir():
        fail(f"no such folder: {data_dir}")
    folder = None if download else (data_dir or origins.default_data_dir())
    display = make_display(quiet or as_json)
    if folder is None:
        folder = home_dir() / "sources"
        if not quiet:
            click.echo(f"no local data folder: downloading the public sources into {folder}", err=True)
        with running(display, lambda: "finished downloads are kept; run the same command again to continue"):
            fetched = origins.fetch(origins.plan(list(only) or None), folder,
                                    lambda n, total, _rate: display.update("download", n, total))
            for line in failure_lines(fetched.failed or []):
                display.note(line, err=True)
            if not quiet:
                display.note(f"downloads: {fetched.fetched} new, {fetched.kept} kept, {fetched.missing} not "
                             f"at the origin, {len(fetched.failed or [])} failed", err=True)
        if not any(folder.rglob("*.*")):
            fail("nothing could be downloaded (no network?)")
    _run_ingest([str(folder)], None, False, as_json, quiet, jobs, build_index, verbose, display)


def failure_lines(failed: list[str], shown: int = 5) -> list[str]:
    """Failed downloads ("URL: reason"), each reason's first few named and the rest counted: with no
    network all 670 fail alike, and one line per file would bury the reason."""
    by_reason: dict[str, list[str]] = {}
    for line in failed:
        url, _, reason = line.partition(": ")
        by_reason.setdefault(reason, []).append(url)
    out: list[str] = []
    for reason, urls in by_reason.items():
        out += [f"failed    {u}: {reason}" for u in urls[:shown]]
        if len(urls) > shown:
            out.append(f"failed    … and {len(urls) - shown:,} more downloads: {reason}")
    return out


@click.command("merge")
@click.option("--all", "everything", is_flag=True, help="Re-merge every block, not only changed ones.")
@with_home
@catch_store_errors
def merge_cmd(everything: bool) -> None:
    """Finish or redo the merge of records into papers (after an interrupted ingest, or --all)."""
    store = open_store(readonly=False)
    if everything:
        store.mark_all_dirty()
    rep = IngestReport()
    progress = IngestProgress(make_display())
    with running(progress.display, lambda: "merged blocks are kept; run the same command again to continue"):
        merge_pending(store, rep, progress)
    p = rep.papers
    click.echo(f"blocks {rep.blocks_merged}  papers: new {p.new}  updated {p.updated}  unchanged "
               f"{p.unchanged}  removed {p.removed}")


@click.command("venues")
@output_format()
@click.option("--all", "show_all", is_flag=True, help="Include registry venues without papers.")
@with_home
@catch_store_errors
def venues_cmd(as_json: bool, show_all: bool) -> None:
    """Venues with their field, kind, years and paper counts."""
    rows = [r for r in open_store().venue_rows() if show_all or r["papers"]]
    if as_json:
        echo_json(rows)
        return
    for r in sorted(rows, key=lambda r: (r["field"], r["kind"], r["key"])):
        years = f"{r['years'][0]}-{r['years'][-1]}" if r["years"] else "-"
        field = venue_registry.FIELDS.get(r["field"], (r["field"],))[0]
        click.echo(f"{r['key']:<16} {r['short']:<20} {field:<28} {r['kind']:<10} {years:<10} "
                   f"{r['papers']:>7,}")


@click.command("show")
@click.argument("ref", metavar="PAPER_ID")
@output_format("bib", "ris", *CSL_STYLES)
@with_home
@catch_store_errors
def show_cmd(ref: str, as_json: bool, fmt: str) -> None:
    """Show one paper by its id, a retired id, or an external id (DOI, arXiv, OpenReview, ACL, source id);
    --format bib prints its BibTeX entry, ris its RIS record, and apa, mla, chicago, ieee or gbt7714
    (GB/T 7714-2015) its reference in that citation style."""
    store = open_store()
    ids = store.resolve_id(ref)
    if not ids:
        fail(f"no paper with id {ref!r}", 1)
    if len(ids) > 1:
        click.echo(f"{len(ids)} papers match {ref!r}:", err=True)
        for c in store.get_papers(ids):
            click.echo(f"  {c.id}  {venue_registry.get(c.venue).short} {c.year}  {c.title}")
        sys.exit(1)
    p = store.get_paper(ids[0])
    assert p is not None
    if fmt == "bib":
        click.echo(bibtex(p))
        return
    if fmt == "ris":
        click.echo(ris_dumps([p]), nl=False)
        return
    if fmt in CSL_STYLES:
        click.echo(cite(p, fmt))
        return
    if as_json:
        echo_json(p.to_dict())
        return
    v = venue_registry.get(p.venue)
    click.echo(p.title)
    click.echo(", ".join(a.name for a in p.authors) or "(no authors listed)")
    click.echo(f"{v.short} {p.year}" + (f" · {p.track}" if p.track and p.track != "main" else "")
               + (f" · {p.status}" if p.status else "") + f"   [{p.id}]")
    if p.abstract:
        click.echo("")
        click.echo(p.abstract)
    if p.links:
        click.echo("")
        for kind, url in p.links:
            click.echo(f"{kind:<14} {url}")
    click.echo("")
    click.echo("sources: " + ", ".join(p.sources))


@click.command("coverage")
@click.option("--venue", default=None, help="Only this venue (aliases work: nips, NeurIPS).")
@output_format()
@with_home
@catch_store_errors
def coverage_cmd(venue: str | None, as_json: bool) -> None:
    """Per venue and year: papers, accepted, with abstract, contributing sources, when ingested."""
    key = venue_registry.canonical(venue) if venue else None
    rows = open_store().coverage(key)
    if venue and not rows:
        fail(f"no papers for venue {venue!r}", 1)
    if as_json:
        echo_json(rows)
        return
    click.echo(f"{'venue':<16} {'year':>4} {'papers':>7} {'accepted':>8} {'abstract':>9} {'authors':>8}"
               "  sources (records, ingested)")
    for r in rows:
        n = r["papers"] or 1
        srcs = ", ".join(f"{s['file']} ({s['records']}, {s['ingested_at'][:10]})" for s in r["sources"])
        click.echo(f"{r['venue']:<16} {r['year']:>4} {r['papers']:>7,} {r['accepted']:>8,}"
                   f" {100 * r['with_abstract'] / n:>8.0f}% {100 * r['with_authors'] / n:>7.0f}%  {srcs}")
