"""`paperlist serve`: the site under uvicorn, over a read-only store (and index, when built)."""

from __future__ import annotations

import ipaddress
import os
import sys
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

import click

from ..lists import redact_url
from ..service import STORE_FILE, Home
from ..service.replicas import drain
from ..snapshots.layout import LIVE
from .common import catch_store_errors, fail, home_dir, with_home

# The web layer, by import path: uvicorn imports it in each worker. Named here, above both the web
# and the service, so that service/serving.py (which web/ imports) does not depend on web/.
APP_FACTORY = "paperlist.web.app:app_from_env"      # builds each worker's app from the environment
PROTOCOL = "paperlist.web.guard:GuardedProtocol"    # the HTTP protocol that enforces the limits


def _csv(value: str | None) -> list[str]:
    return [x.strip() for x in (value or "").split(",") if x.strip()]


def _proxies(value: str | None) -> list[str]:
    items = _csv(value)
    for item in items:
        if item != "*":
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                fail(f"--forwarded-allow-ips: not an IP address or network: {item!r}")
    return items


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes (each opens the store read-only).")
@click.option("--access-log/--no-access-log", default=False, show_default=True, help="Log every request.")
@click.option("--base-url", envvar="PAPERLIST_BASE_URL", metavar="URL",
              help="The site's public address, the root of every absolute URL it writes (feeds, exports); "
                   "default http://HOST:PORT. Never taken from the Host header. [env: PAPERLIST_BASE_URL]")
@click.option("--allowed-hosts", metavar="H1,H2", help="Answer only these Host names (*.example.org "
              "allowed); others get 400. Default: any.")
@click.option("--forwarded-allow-ips", metavar="IP,NET", help="Trusted reverse proxies whose "
              "X-Forwarded-For gives the client address (for rate limits). Default: none, the header is "
              "never read.")
@click.option("--rate-limit", type=click.FloatRange(0), default=None, metavar="N",
              help="Requests per second per client address and worker (default 10; 0: no limit).")
@click.option("--rate-burst", type=click.IntRange(1), default=None, metavar="N",
              help="Burst size (default 120).")
@click.option("--rate-limit-loopback", is_flag=True,
              help="Also limit clients on 127.0.0.1 / ::1 (exempt by default).")
@click.option("--max-inflight", type=click.IntRange(1), default=None, metavar="N",
              help="Requests in progress per worker; beyond them a fast 503 with Retry-After (default 64).")
@click.option("--max-queue-wait", type=click.FloatRange(0), default=None, metavar="S",
              help="Seconds an accepted request may wait for its turn before it gets 503 (default 1; "
                   "0: no limit).")
@click.option("--max-connections", type=click.IntRange(1), default=None, metavar="N",
              help="Open connections per worker; beyond them 503 and close (default 2048).")
@click.option("--header-timeout", type=click.FloatRange(0.1), default=None, metavar="S",
              help="Seconds a client has to send a request's headers (default 10).")
@click.option("--keep-alive", type=click.IntRange(1), default=None, metavar="S",
              help="Seconds an idle keep-alive connection stays open (default 5).")
@click.option("--lists-url", envvar="PAPERLIST_LISTS_URL", metavar="URL",
              help="Where reading lists live: an SQLite file (default HOME/lists.db) or postgresql://… "
                   "shared by every serving machine. [env: PAPERLIST_LISTS_URL]")
@click.option("--embed/--no-embed", "embed", default=False, show_default=True,
              help="Once the site answers, compute the papers' vectors in the background (idle CPU "
                   "priority; resumes where a previous job stopped): search by meaning and similar "
                   "papers by vector appear as they are published, with no restart. Needs the "
                   "semantic extra; without it the site serves keyword search and says so.")
@click.option("--update-every", "update_every", metavar="DURATION", default=None,
              help="Run `paperlist update` beside the site every DURATION (6h, 30m, 1d), the first time once "
                   "the site answers; new papers appear as their index generation is published. The "
                   "builder's option: a follower refuses it.")
@click.option("--publish", "publish_to", metavar="DIR", type=click.Path(file_okay=False, path_type=Path),
              help="With --update-every: publish a snapshot into DIR after each update that changed papers, "
                   "for the followers (`paperlist publish`).")
@click.option("--follow", "follow_url", metavar="URL", default=None,
              help="Serve the snapshots a builder publishes at URL (http(s)://… or a path): the home is a "
                   "follower's (its own directory), filled on the first start and switched to each new "
                   "snapshot without a restart.")
@click.option("--follow-every", metavar="DURATION", default="30s", show_default=True,
              help="With --follow: how often to look for a new snapshot.")
@click.option("--disk-budget", metavar="SIZE", default=None,
              help="With --follow: bytes the snapshots may take (20G); a snapshot that does not fit is "
                   "refused.")
@with_home
@catch_store_errors
def serve_cmd(host: str, port: int, workers: int, access_log: bool, base_url: str | None,
              allowed_hosts: str | None, forwarded_allow_ips: str | None, rate_limit: float | None,
              rate_burst: int | None, rate_limit_loopback: bool, max_inflight: int | None,
              max_queue_wait: float | None, max_connections: int | None, header_timeout: float | None,
              keep_alive: int | None, lists_url: str | None, embed: bool, update_every: str | None,
              publish_to: Path | None, follow_url: str | None, follow_every: str,
              disk_budget: str | None) -> None:
    """Serve the site: Chinese at /, English at /en/, JSON twins with ?format=json, the JSON API
    under /api/v1 (reference at /api, OpenAPI at /openapi.json).

    The store is opened read-only; /search needs the index (`paperlist index`). Each client
    address gets a token bucket of requests (loopback clients are exempt unless
    --rate-limit-loopback); with N workers a client may get up to N times the rate. Request
    heads are limited (32 KB, 100 headers, --header-timeout) and each worker takes on at most
    --max-inflight requests at once: the rest get 503 + Retry-After at once."""
    import uvicorn

    from ..service.serving import ServerLimits, public_base_url, uvicorn_options

    home = home_dir().resolve()
    root, follow_s = home, None
    every = _duration("--update-every", update_every, 60.0) if update_every is not None else None
    if publish_to is not None and every is None:
        fail("--publish goes with --update-every (or run `paperlist publish DIR` after an update)")
    if follow_url is not None:
        follow_s = _follow_options(home, follow_url, follow_every, disk_budget, every, embed)
        home = home / LIVE
    if not (home / STORE_FILE).exists():
        fail(f"no store in {home} (run 'paperlist ingest PATH' or 'paperlist corpus' first, or set --home)")
    shown = f"[{host}]" if ":" in host else host
    try:
        base = public_base_url(base_url or f"http://{shown}:{port}")
    except ValueError as e:
        fail(f"--base-url: {e}")
    _worker_env(home, root, base, _csv(allowed_hosts),
                f"{root}\t{follow_s}" if follow_url is not None else None, lists_url, rate_limit, rate_burst,
                rate_limit_loopback)
    given = {"max_inflight": max_inflight, "max_queue_wait": max_queue_wait,
             "max_connections": max_connections, "header_timeout": header_timeout, "keep_alive": keep_alive}
    limits = ServerLimits(**{k: v for k, v in given.items() if v is not None})  # type: ignore[arg-type]
    click.echo(f"paperlist: serving {home} on http://{shown}:{port}/  (English: http://{shown}:{port}/en/; "
               f"public address {base})", err=True)
    options = uvicorn_options(limits, _proxies(forwarded_allow_ips), PROTOCOL)
    job = _embedding_job(home, host, port) if embed else nullcontext()
    updates = _update_job(home, host, port, every, publish_to) if every else nullcontext()
    follows = (_follow_job(root, follow_url, follow_s, disk_budget) if follow_url and follow_s
               else nullcontext())
    with job, updates, follows:
        uvicorn.run(APP_FACTORY, factory=True, host=host, port=port, workers=workers,
                    access_log=access_log, log_level="info", **options)


def _worker_env(home: Path, root: Path, base: str, allowed_hosts: list[str], follow: str | None,
                lists_url: str | None, rate_limit: float | None, rate_burst: int | None,
                rate_limit_loopback: bool) -> None:
    """The environment the workers build their app from; the reading lists' store is created or
    migrated here, once, before they start."""
    env = os.environ
    env["PAPERLIST_HOME"] = str(home)
    env["PAPERLIST_BASE_URL"] = base
    env["PAPERLIST_ALLOWED_HOSTS"] = ",".join(allowed_hosts)
    # a drain before a restart ends with the restart
    env["PAPERLIST_DRAIN_FILE"] = str(drain(root, on=False))
    if follow is not None:
        env["PAPERLIST_FOLLOW"] = follow
    lists = Home(root, lists_url=lists_url or None, find_searcher=False)
    env["PAPERLIST_LISTS_URL"] = lists.lists_url
    try:
        lists.prepare_lists()
    except Exception as e:  # noqa: BLE001 - a bad URL or an unreachable database: one line, exit 1
        fail(f"reading lists store {redact_url(env['PAPERLIST_LISTS_URL'])}: {str(e).splitlines()[0][:300]}")
    if rate_limit is not None:
        env["PAPERLIST_RATE_LIMIT"] = str(rate_limit)
    if rate_burst is not None:
        env["PAPERLIST_RATE_BURST"] = str(rate_burst)
    if rate_limit_loopback:
        env["PAPERLIST_RATE_LOOPBACK"] = "1"


def _duration(name: str, value: str, least: float) -> float:
    from .background import parse_duration

    try:
        return parse_duration(value, least=least)
    except ValueError as e:
        fail(f"{name}: {e}")
        raise


def _follow_options(root: Path, url: str, every: str, budget: str | None, update_every: float | None,
                    embed: bool) -> float:
    """Check a follower's options and take its first snapshot when it has none: the seconds
    between looks for a new one."""
    from ..snapshots.layout import is_follower, live_id
    from .replicas import follow_step, parse_size

    if update_every is not None:
        fail("--update-every belongs on the builder; a follower serves what the builder publishes")
    if embed:
        fail("--embed belongs on the builder; a follower gets the vectors with each snapshot")
    if (root / STORE_FILE).exists() and not is_follower(root):
        fail(f"{root} holds a builder's store; give the follower a --home of its own")
    try:
        size = parse_size(budget) if budget else None
    except ValueError as e:
        fail(f"--disk-budget: {e}")
        raise
    seconds = _duration("--follow-every", every, 1.0)
    if live_id(root) is None:
        click.echo(f"paperlist: taking the first snapshot from {url} into {root} ...", err=True)
        if follow_step(root, url, size, quiet=False) != 0:
            sys.exit(1)
    return seconds


def _follow_job(root: Path, url: str, every: float, budget: str | None) -> AbstractContextManager[None]:
    from .background import follow_job

    return follow_job(root, url, every, budget)


def _update_job(home: Path, host: str, port: int, every: float,
                publish_to: Path | None) -> AbstractContextManager[None]:
    from .background import update_job

    return update_job(home, host, port, every, publish_to)


def _embedding_job(home: Path, host: str, port: int) -> AbstractContextManager[None]:
    from ..index.encoder import missing_reason
    from .background import embedding_job

    reason = missing_reason()
    if reason:
        click.echo(f"paperlist: search by meaning is not set up here ({reason}); serving keyword search",
                   err=True)
        return nullcontext()
    return embedding_job(home, host, port)
