"""The doctor command: check that everything derived from the records is in step with them, as
the store and the index directories say (and with --repair, bring it in step)."""

from __future__ import annotations

import sys

import click

from ..service import doctor
from .common import catch_store_errors, current_home, echo_json, with_home


@click.command("doctor")
@click.option("--repair", is_flag=True, help="Finish what is pending and rebuild what is stale.")
@click.option("--json", "as_json", is_flag=True, help="Print the checks as JSON.")
@with_home
@catch_store_errors
def doctor_cmd(repair: bool, as_json: bool) -> None:
    """Check pending merge blocks, pending author refreshes, stale topics, statistics and index, and
    index generations left by killed builds: one line per check. Exits with 1 while anything is
    stale (after --repair: when anything could not be repaired)."""
    home = current_home()
    checks = doctor.repair(home) if repair else doctor.check(home)
    if as_json:
        echo_json([c.to_dict() for c in checks])
    else:
        for c in checks:
            click.echo(c.line())
    sys.exit(0 if all(c.ok or c.repaired for c in checks) else 1)
