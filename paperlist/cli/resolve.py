"""`paperlist resolve`: a bibliography (BibTeX, or a list of references one per line) matched to the
library, and its cleaned version with each matched entry rewritten as the published paper."""

from __future__ import annotations

import sys
from typing import BinaryIO, TextIO

import click

from ..service import ServiceError
from ..service.resolve import MAX_BYTES, decode_upload, resolve
from ..service.types import ResolveReport
from .common import catch_store_errors, current_home, echo_json, fail, with_home

_MARK = {"matched": "=", "ambiguous": "?", "not_found": "-", "error": "!"}


@click.command("resolve")
@click.argument("bib", type=click.File("rb"), metavar="FILE.bib")
@click.option("--output", "-o", type=click.File("w", encoding="utf-8", lazy=True), metavar="OUT.bib",
              help="Write the cleaned bibliography here (without it: to standard output, the report to "
                   "standard error).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (with the cleaned BibTeX).")
@click.option("--quiet", "-q", is_flag=True, help="Only the counts, not one line per entry.")
@with_home
@catch_store_errors
def resolve_cmd(bib: BinaryIO, output: TextIO | None, as_json: bool, quiet: bool) -> None:
    """Find the paper each entry of FILE.bib cites ('-' reads standard input) and write the
    cleaned bibliography: each matched entry rewritten as the published version (entry type,
    venue, year, pages, DOI, URL), keeping its citation key and the fields it cannot improve;
    entries that match nothing, or more than one paper, are left as written.

    \b
    Each entry is matched (=), ambiguous (?), not in the library (-) or unreadable (!); the
    counts end the report. Precision first: a paper whose title does not match is never taken
    unless its authors and year agree.

    \b
    Examples:
      paperlist resolve refs.bib -o refs.clean.bib
      paperlist resolve refs.bib --json | jq .counts
    """
    data = bib.read(MAX_BYTES + 1)
    home = current_home()
    try:
        report = resolve(home, decode_upload(data))
    except ServiceError as e:
        fail(f"{e.message} {e.detail}".strip() if e.detail else e.message)
        return
    if as_json:
        echo_json(report)
        if output is not None:
            output.write(report["bibtex"])
        return
    if output is None:
        sys.stdout.write(report["bibtex"])
    _print_report(report, err=output is None, quiet=quiet)
    if output is not None:
        output.write(report["bibtex"])


def _print_report(report: ResolveReport, err: bool, quiet: bool) -> None:
    def say(line: str) -> None:
        click.echo(line, err=err)

    if not quiet:
        for e in report["entries"]:
            line = f"{_MARK[e['status']]} {e['key']}"
            p = e["paper"]
            if p is not None:
                why = "a rejected submission" if not p["accepted"] else "the library has it at another venue"
                kept = "" if e["rewritten"] else f"  (left as written: {why})"
                say(f"{line} -> {p['venue_short']} {p['year']} [{p['id']}] "
                    f"confidence {p['confidence']:.2f}{kept}")
            elif e["status"] == "ambiguous":
                say(f"{line}: ambiguous, " + ", ".join(f"{c['venue_short']} {c['year']} [{c['id']}]"
                                                      for c in e["candidates"]))
            elif e["status"] == "error":
                say(f"{line}: {e['error']}")
            else:
                say(f"{line}: not in the library")
        for d in report["duplicates"]:
            say(f"same paper [{d['paper_id']}] under several keys: {', '.join(d['keys'])}")
    c = report["counts"]
    say(f"{c['entries']} entries: {c['matched']} matched ({c['rewritten']} rewritten), "
        f"{c['ambiguous']} ambiguous, "
        f"{c['not_found']} not found, {c['errors']} unreadable, {c['duplicates']} duplicates "
        f"({report['took_ms'] / 1000:.2f} s)")
