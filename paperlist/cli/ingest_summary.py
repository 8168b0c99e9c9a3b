"""What `ingest` and `corpus` print: progress on a ``Display`` while they run (per-file lines with
``--verbose``), then a short summary: records per source, papers, failures named, the derived
steps, the time of each phase and the report file of what was set aside."""

from __future__ import annotations

from pathlib import Path

import click

from ..ingest import FileReport, IngestReport
from ..service.derived import DerivedReport
from .progress import Display, times_line
from .topics import derived_report

NAMED_IGNORED = 5          # ignored files named in the summary (all are in the report)


def file_line(r: FileReport) -> str:
    """The per-file line of ``--verbose``."""
    c = r.counts
    if r.status in ("ingested", "unchanged"):
        return (f"{r.status:<9} {r.key:<40} new {c.new:>6}  updated {c.updated:>5}  unchanged "
                f"{c.unchanged:>6}  removed {c.removed:>4}  skipped {c.skipped:>4}")
    return f"{r.status:<9} {r.name}: {r.error}"


class IngestProgress:
    """ingest.Progress on a display: files, then merge; with ``verbose`` a line per file and its
    first skipped records."""

    def __init__(self, display: Display, verbose: bool = False) -> None:
        self.display, self.verbose = display, verbose
        self.stored = 0

    def file_done(self, n: int, total: int, report: FileReport) -> None:
        if report.status in ("ingested", "unchanged"):
            self.stored += 1
        if self.verbose:
            self.display.note(file_line(report), err=report.status == "failed")
            if report.status == "ingested":
                for msg in report.problems[:3]:
                    self.display.note(f"          skipped {report.name}: {msg}", err=True)
        self.display.update("files", n, total)

    def merge_step(self, n: int, total: int, block: str) -> None:
        self.display.update("merge", n, total)

    def kept(self) -> str:
        """What an interrupted ingest kept."""
        return (f"{self.stored:,} files are stored (each file is one transaction) and merged blocks are "
                "kept; run the same command again to continue")


def _source_rows(rep: IngestReport) -> list[str]:
    by: dict[str, list[FileReport]] = {}
    for f in rep.files:
        if f.source:
            by.setdefault(f.source, []).append(f)
    if not by:
        return []
    lines = [f"{'source':<14} {'files':>6} {'new':>8} {'updated':>8} {'unchanged':>10} {'removed':>8}"
             f" {'skipped':>8}"]
    for src in sorted(by):
        fs = by[src]

        def col(k: str, fs: list[FileReport] = fs) -> int:
            return sum(getattr(f.counts, k) for f in fs)

        lines.append(f"{src:<14} {len(fs):>6,} {col('new'):>8,} {col('updated'):>8,} {col('unchanged'):>10,}"
                     f" {col('removed'):>8,} {col('skipped'):>8,}")
    return lines


def print_summary(rep: IngestReport, derived: DerivedReport | None, display: Display,
                  report: Path | None) -> None:
    """The summary after an ingest: stdout for the figures, stderr for every failed file."""
    for line in _source_rows(rep):
        click.echo(line)
    t, p = rep.totals(), rep.papers
    click.echo(f"records: new {t.new}  updated {t.updated}  unchanged {t.unchanged}  removed {t.removed}"
               f"  skipped {t.skipped}")
    click.echo(f"papers:  new {p.new}  updated {p.updated}  unchanged {p.unchanged}  removed {p.removed}")
    # one time per phase, measured once: the "time:" line's when the display timed the phases
    took = "" if display.times else f"  in {rep.seconds:.1f}s"
    click.echo(f"files:   {len(rep.files)} ({rep.failed} failed){took}")
    ignored = [f for f in rep.files if f.status == "ignored"]
    for f in ignored[:NAMED_IGNORED]:
        click.echo(file_line(f))
    if len(ignored) > NAMED_IGNORED:
        click.echo(f"ignored   {len(ignored) - NAMED_IGNORED} more files (listed in the report)")
    for f in rep.files:
        if f.status == "failed":
            click.echo(file_line(f), err=True)
    derived_report({}, derived, False, timed=not display.times)
    if display.times:
        click.echo(times_line(display.times))
    if report is not None:
        skipped = sum(len(f.problems) for f in rep.files)
        click.echo(f"report:  {report}  ({skipped:,} skipped records, {rep.failed} failed and "
                   f"{len(ignored)} ignored files, with reasons)")
    elif t.skipped:
        click.echo(f"report:  no file was parsed this time; the {t.skipped:,} skipped records are listed in "
                   "the report of the ingest that parsed their files (or run again with --force)")
