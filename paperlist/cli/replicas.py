"""`paperlist publish`, `paperlist follow` and `paperlist drain`: serving from several machines."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import click

from ..service import Home
from ..service.replicas import PublishError, SyncError, drain, follow_once, publish, rollback
from .background import parse_duration
from .common import catch_store_errors, echo_json, fail, home_dir, with_home

_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([kmgt]?)b?", re.IGNORECASE)


def parse_size(text: str) -> int:
    """"20G", "500M", "1.5T" or a number of bytes -> bytes."""
    m = _SIZE.fullmatch(text.strip())
    if not m:
        raise ValueError(f"{text!r} is not a size (e.g. 20G, 500M)")
    return int(float(m.group(1)) * 1024 ** " kmgt".index(m.group(2).lower() or " "))


@click.command("publish")
@click.argument("out", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
@click.option("--keep", type=click.IntRange(2, 100), default=3, show_default=True,
              help="Snapshots kept in DIR (followers still fetching an older one need it).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@with_home
@catch_store_errors
def publish_cmd(out: Path, keep: int, as_json: bool) -> None:
    """Write a consistent snapshot of the home into DIR, for followers (`serve --follow URL`).

    The store is copied with SQLite's backup API, the live index and vector generations go with
    it, and every file is cut into chunks stored once under their sha256 (the store in blocks of
    whole pages, the rest content-defined): a snapshot that changes one venue adds only the
    chunks that changed. DIR/LATEST names the newest
    snapshot; serve DIR with any static web server (or copy it to an object store)."""
    try:
        report = publish(Home(home_dir()), out, keep=keep,
                         say=None if as_json else lambda text: click.echo(text, err=True))
    except PublishError as e:
        fail(str(e), code=1)
    if as_json:
        echo_json(report.to_dict())
        return
    click.echo(f"published {report.id} in {report.seconds:.1f}s: {report.files:,} files, "
               f"{report.size / 1e9:.2f} GB in {report.chunk_count:,} chunks "
               f"({report.stored / 1e9:.2f} GB stored); "
               f"new: {report.new_chunks:,} chunks, {report.new_bytes / 1e6:,.1f} MB"
               + (f"; removed {', '.join(report.removed)}" if report.removed else ""))


@click.command("follow")
@click.argument("url")
@click.option("--every", metavar="DURATION", default=None,
              help="Look for a new snapshot every DURATION (30s, 5m); default: once, then exit.")
@click.option("--disk-budget", metavar="SIZE", default=None,
              help="Bytes the snapshots here may take (20G); a snapshot that does not fit is refused.")
@click.option("--rollback", "roll_back", is_flag=True,
              help="Serve the previous snapshot again, and hold the live one back until a newer one comes.")
@click.option("--quiet", "-q", is_flag=True, help="Print only errors and switches.")
@with_home
def follow_cmd(url: str, every: str | None, disk_budget: str | None, roll_back: bool, quiet: bool) -> None:
    """Take the newest snapshot published at URL (http(s)://… or a path) into this follower home.

    Fetches only the chunks it does not hold, checks every chunk and file against the snapshot's
    manifest, and switches the home's `live` link atomically: a running `serve --follow` picks it
    up without a restart. A snapshot that fails a check is refused in one line and the live one
    keeps serving."""
    root = home_dir()
    if roll_back:
        try:
            click.echo(f"now serving {rollback(root)}")
        except SyncError as e:
            fail(str(e), code=1)
        return
    budget = _size_option("--disk-budget", disk_budget)
    period = _duration_option("--every", every, least=1.0) if every else None
    while True:
        code = follow_step(root, url, budget, quiet)
        if period is None:
            sys.exit(code)
        time.sleep(period)


def follow_step(root: Path, url: str, budget: int | None, quiet: bool) -> int:
    """One sync, reported in one line; the exit status (0 taken or current, 1 refused)."""
    try:
        report = follow_once(root, url, budget, say=None if quiet else click.echo)
    except SyncError as e:
        click.echo(f"paperlist follow: {e}", err=True)
        return 1
    if report.switched:
        click.echo(f"paperlist follow: now serving {report.id}: fetched {report.fetched:,} chunks "
                   f"({report.downloaded / 1e6:,.1f} MB), reused {report.reused:,}, in {report.seconds:.1f}s",
                   err=True)
    elif not quiet:
        click.echo(f"paperlist follow: {report.id} is the newest", err=True)
    return 0


@click.command("drain")
@click.option("--wait", type=click.FloatRange(0, 600), default=5.0, show_default=True,
              help="Seconds to wait after /healthz starts failing (the balancer's checks times their fall).")
@click.option("--undo", is_flag=True, help="Answer /healthz again (serve also does it when it starts).")
@with_home
def drain_cmd(wait: float, undo: bool) -> None:
    """Take this server out of its load balancer before a restart: /healthz answers 503
    "draining", requests keep being served, and the command returns after --wait seconds (a
    systemd unit's ExecStop, before the server is stopped)."""
    drain(home_dir(), on=not undo)
    if not undo:
        time.sleep(wait)


def _size_option(name: str, value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return parse_size(value)
    except ValueError as e:
        fail(f"{name}: {e}")
        raise


def _duration_option(name: str, value: str, least: float = 60.0) -> float:
    try:
        return parse_duration(value, least=least)
    except ValueError as e:
        fail(f"{name}: {e}")
        raise
