"""`paperlist mcp`: the library over the Model Context Protocol (stdio)."""

from __future__ import annotations

import logging

import click

from ..service import STORE_FILE
from .common import fail, home_dir, with_home


@click.command("mcp")
@with_home
def mcp_cmd() -> None:
    """Serve the library to AI assistants over MCP (stdio): tools search_papers, get_paper,
    list_conferences, list_conference_papers, find_similar_papers, get_topic_stats.

    \b
    In an MCP client's configuration:
      {"mcpServers": {"paperlist": {"command": "paperlist", "args": ["--home", "/path/to/data", "mcp"]}}}
    """
    home = home_dir().resolve()
    if not (home / STORE_FILE).exists():
        fail(f"no store in {home} (run 'paperlist ingest PATH' or 'paperlist corpus' first, or set --home)")
    # stdout carries the protocol: everything else goes to stderr, and only warnings.
    logging.basicConfig(level=logging.WARNING, format="paperlist mcp: %(message)s")
    from ..mcp import serve

    serve(home)
