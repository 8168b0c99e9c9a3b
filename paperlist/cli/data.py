"""Data commands: ingest, merge, venues, show, coverage."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from .. import venues as venue_registry
from ..citation import bibtex
from ..ingest import FileReport, IngestReport, merge_pending
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
from .index import step_lines
from .topics import derived_report


class LineProgress:
    """Progress as plain lines on stderr: position, rate and ETA (works in CI logs and terminals)."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self.t0 = time.perf_counter()
        self.m0: float | None = None
        self.last_merge = 0.0

    def _eta(self, n: int, total: int, t0: float) -> str:
        dt = time.perf_counter() - t0
        rate = n / dt if dt > 0 else 0.0
        eta = (total - n) / rate if rate > 0 else 0.0
        return f"{rate:6.1f}/s  ETA {eta:5.0f}s"

    def file_done(self, n: int, total: int, r: FileReport) -> None:
        c = r.counts
        if r.status in ("ingested", "unchanged"):
            line = (f"{r.status:<9} {r.key:<40} new {c.new:>6}  updated {c.updated:>5}  unchanged "
                    f"{c.unchanged:>6}  removed {c.removed:>4}  skipped {c.skipped:>4}")
        else:
            line = f"{r.status:<9} {r.name}: {r.error}"
        click.echo(line, err=r.status == "failed")
        if r.status == "ingested":
            for msg in r.problems[:3]:
                click.echo(f"          skipped {r.name}: {msg}", err=True)
        if not self.quiet:
            click.echo(f"  [{n}/{total} files  {self._eta(n, total, self.t0)}]", err=True)

    def merge_step(self, n: int, total: int, block: str) -> None:
        if self.m0 is None:
            self.m0 = time.perf_counter()
        now = time.perf_counter()
        if not self.quiet and (n == total or now - self.last_merge > 2.0):
            self.last_merge = now
            click.echo(f"  merging [{n}/{total} blocks  {self._eta(n, total, self.m0)}] {block}", err=True)


def _print_totals(rep: IngestReport) -> None:
    t, p = rep.totals(), rep.papers
    click.echo(f"records: new {t.new}  updated {t.updated}  unchanged {t.unchanged}  removed {t.removed}"
               f"  skipped {t.skipped}")
    click.echo(f"papers:  new {p.new}  updated {p.updated}  unchanged {p.unchanged}  removed {p.removed}")
    click.echo(f"files:   {len(rep.files)} ({rep.failed} failed)  in {rep.seconds:.1f}s")


def _run_ingest(targets: list[str], fmt: str | None, force: bool, as_json: bool, quiet: bool,
                jobs: int | None, build_index: bool = True) -> None:
    progress = LineProgress(quiet=quiet or as_json)
    try:
        # the library keeps topics and the index in step with the papers (service.derived)
        rep, derived = ingest(current_home(must_exist=False), targets, fmt=fmt, force=force,
                              progress=None if as_json else progress, jobs=jobs, derive=build_index,
                              step_progress=step_lines(quiet or as_json))
    except KeyboardInterrupt:
        click.echo("interrupted: finished files are stored; run the same command again to continue", err=True)
        sys.exit(130)
    out = rep.to_dict()
    if not as_json:
        _print_totals(rep)
    derived_report(out, derived, as_json)
    if as_json:
        echo_json(out)
    sys.exit(1 if rep.failed else 0)


_jobs_option = click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
                            help="Worker processes for parsing and merging (default: CPUs, at most 4).")
_index_option = click.option("--index/--no-index", "build_index", default=True, show_default=True,
                             help="Rebuild the search index afterwards when papers changed.")


@click.command("ingest")
@click.argument("targets", nargs=-1, required=True, metavar="PATH_OR_URL...")
@click.option("--format", "fmt", type=click.Choice(sorted(READERS)), help="Source format (default: detect).")
@click.option("--force", is_flag=True, help="Re-parse files even when their bytes did not change.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
@_jobs_option
@_index_option
@with_home
@catch_store_errors
def ingest_cmd(targets: tuple[str, ...], fmt: str | None, force: bool, as_json: bool, quiet: bool,
               jobs: int | None, build_index: bool) -> None:
    """Ingest paper lists from files, directories or http(s) URLs, then merge them.

    Each file is one transaction; re-ingesting unchanged files changes nothing. Reports new /
    updated / unchanged / removed / skipped records per file and merged papers in total, then
    rebuilds the search index if papers changed. Exits with 1 when any file failed. Interrupt it
    at any time: run it again to continue.
    """
    _run_ingest(list(targets), fmt, force, as_json, quiet, jobs, build_index)


@click.command("corpus")
@click.option("--data", "data_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              envvar="PAPERLIST_DATA", show_envvar=True,
              help="Folder of source files (default: ../shared/data when it exists).")
@click.option("--download", is_flag=True, help="Download from the public origins even when a folder exists.")
@click.option("--source", "only", multiple=True, type=click.Choice(sorted(origins.ORIGINS)),
              help="With downloads: only these sources (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines.")
@_jobs_option
@_index_option
@with_home
@catch_store_errors
def corpus_cmd(data_dir: Path | None, download: bool, only: tuple[str, ...], as_json: bool, quiet: bool,
               jobs: int | None, build_index: bool) -> None:
    """Ingest the standard corpus: the shared data folder when present, else download it from the
    public origins (papercopilot, mlanthology, ACL Anthology, OpenReview exports on GitHub) into
    HOME/sources and ingest that. Downloads resume where they stopped."""
    if data_dir is not None and not data_dir.is_dir():
        fail(f"no such folder: {data_dir}")
    folder = None if download else (data_dir or origins.default_data_dir())
    if folder is None:
        folder = home_dir() / "sources"
        if not quiet:
            click.echo(f"no local data folder: downloading the public sources into {folder}", err=True)
        plan = origins.plan(list(only) or None)

        def show(n: int, total: int, rate: str) -> None:
            if not quiet and (n == total or n % 20 == 0):
                click.echo(f"  downloaded [{n}/{total} files  {rate}]", err=True)

        fetched = origins.fetch(plan, folder, show)
        for line in fetched.failed or []:
            click.echo(f"failed    {line}", err=True)
        if not quiet:
            click.echo(f"downloads: {fetched.fetched} new, {fetched.kept} kept, {fetched.missing} not "
                       f"at the origin, {len(fetched.failed or [])} failed", err=True)
        if not any(folder.rglob("*.*")):
            fail("nothing could be downloaded (no network?)")
    _run_ingest([str(folder)], None, False, as_json, quiet, jobs, build_index)


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
    merge_pending(store, rep, LineProgress())
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
@output_format("bib")
@with_home
@catch_store_errors
def show_cmd(ref: str, as_json: bool, fmt: str) -> None:
    """Show one paper by its id, a retired id, or an external id (DOI, arXiv, OpenReview, ACL, source id);
    --format bib prints its BibTeX entry."""
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
