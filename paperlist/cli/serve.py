"""`paperlist serve`: the site under uvicorn, over a read-only store (and index, when built)."""

from __future__ import annotations

import os

import click

from ..service import STORE_FILE
from .common import catch_store_errors, fail, home_dir, with_home


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes (each opens the store read-only).")
@click.option("--access-log/--no-access-log", default=False, show_default=True, help="Log every request.")
@click.option("--rate-limit", type=click.FloatRange(0), default=None, metavar="N",
              help="Requests per second per client address and worker (default 10; 0: no limit).")
@click.option("--rate-burst", type=click.IntRange(1), default=None, metavar="N",
              help="Burst size (default 120).")
@click.option("--rate-limit-loopback", is_flag=True,
              help="Also limit clients on 127.0.0.1 / ::1 (exempt by default).")
@with_home
@catch_store_errors
def serve_cmd(host: str, port: int, workers: int, access_log: bool, rate_limit: float | None,
              rate_burst: int | None, rate_limit_loopback: bool) -> None:
    """Serve the site: Chinese at /, English at /en/, JSON twins with ?format=json, the JSON API
    under /api/v1 (reference at /api, OpenAPI at /openapi.json).

    The store is opened read-only; /search needs the index (`paperlist index`). Each client
    address gets a token bucket of requests (loopback clients are exempt unless
    --rate-limit-loopback); with N workers a client may get up to N times the rate."""
    import uvicorn

    home = home_dir().resolve()
    if not (home / STORE_FILE).exists():
        fail(f"no store in {home} (run 'paperlist ingest PATH' or 'paperlist corpus' first, or set --home)")
    os.environ["PAPERLIST_HOME"] = str(home)        # the workers build their app from it
    if rate_limit is not None:
        os.environ["PAPERLIST_RATE_LIMIT"] = str(rate_limit)
    if rate_burst is not None:
        os.environ["PAPERLIST_RATE_BURST"] = str(rate_burst)
    if rate_limit_loopback:
        os.environ["PAPERLIST_RATE_LOOPBACK"] = "1"
    click.echo(f"paperlist: serving {home} on http://{host}:{port}/  (English: http://{host}:{port}/en/)",
               err=True)
    uvicorn.run("paperlist.web.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                access_log=access_log, log_level="info", proxy_headers=True, server_header=False)
