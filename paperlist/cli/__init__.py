"""The `paperlist` command. Each command module parses input, calls one library function and
formats its output; the group here only holds the shared --home option."""

from __future__ import annotations

import click

from .common import home_option
from .data import corpus_cmd, coverage_cmd, ingest_cmd, merge_cmd, show_cmd, venues_cmd
from .doctor import doctor_cmd
from .embed import embed_cmd
from .export import export_cmd
from .index import index_cmd
from .mcp import mcp_cmd
from .replicas import drain_cmd, follow_cmd, publish_cmd
from .resolve import resolve_cmd
from .search import search_cmd
from .serve import serve_cmd
from .stats import stats_cmd
from .topics import topics_cmd
from .update import update_cmd


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@home_option
@click.version_option(package_name="paperlist")
def main() -> None:
    """paperlist: a library of AI top-conference papers.

    Ingest paper lists, merge them into one record per paper, search and serve them.
    The data directory is --home, or $PAPERLIST_HOME, or ./data.
    """


for _cmd in (ingest_cmd, corpus_cmd, merge_cmd, index_cmd, search_cmd, export_cmd, stats_cmd, venues_cmd,
             show_cmd, coverage_cmd, serve_cmd, mcp_cmd, embed_cmd, topics_cmd, doctor_cmd, resolve_cmd,
             update_cmd, publish_cmd, follow_cmd, drain_cmd):
    main.add_command(_cmd)
