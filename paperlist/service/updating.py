"""`update`: the newest papers from the official sources, then the derived data kept in step.

The run itself is ``paperlist.update``; here it meets a home: the store it writes, the spool it
resumes from (``HOME/update/``), and the topics, statistics and index that are rebuilt (and
published as new generations, which a serving site switches to) when papers changed.
"""

from __future__ import annotations

import datetime as dt
import os
import re

from ..update.openalex import base_url as openalex_url
from ..update.openreview import base_url as openreview_url
from ..update.openreview import default_groups
from ..update.polite import Policy
from ..update.run import Plan, Say, UpdateReport, update_store
from ..venues import OPENREVIEW_GROUPS
from .derived import DerivedReport, StepProgress, refresh, stale
from .errors import BadRequest
from .home import Home

SOURCES = ("openreview", "openalex", "citations")
# what a run asks when no source is named: the citation counts of the whole store are asked only on
# request (`--source citations`), being thousands of requests for a large store
DEFAULT_SOURCES = ("openreview", "openalex")
# Our venue keys -> their OpenReview group, for `--venue neurips2026`
OPENREVIEW_VENUES = OPENREVIEW_GROUPS
_VENUE_YEAR = re.compile(r"^([a-z]+)[-_ ]?((?:19|20)\d{2})$")
_GROUP = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9._-]+){1,5}$")


def openreview_group(venue: str) -> str:
    """An OpenReview venue group from what a user types: the group itself
    ("NeurIPS.cc/2026/Conference") or our venue and year ("neurips2026", "iclr 2027")."""
    v = venue.strip()
    if _GROUP.match(v):
        return v
    m = _VENUE_YEAR.match(v.lower())
    if m and m.group(1) in OPENREVIEW_VENUES:
        return OPENREVIEW_VENUES[m.group(1)].format(y=m.group(2))
    known = ", ".join(sorted(OPENREVIEW_VENUES))
    raise BadRequest(f"unknown venue {venue!r}: give an OpenReview group (NeurIPS.cc/2026/Conference) or one "
                     f"of {known} with a year (neurips2026)")


def plan(venues: list[str], since: dt.date | None, sources: list[str], budget: int | None = None,
         today: dt.date | None = None) -> Plan:
    """What `paperlist update` asks for: the named venues (else this year's and next year's OpenReview
    conferences), OpenAlex for the papers that lack authors or an abstract, and with "citations" the
    citation counts of every paper (a count PAPERLIST_CITATIONS_DAYS old, default 30, is asked again)."""
    today = today or dt.date.today()
    # a deployment may name the venues it follows (PAPERLIST_UPDATE_VENUES=neurips2026,iclr2027)
    venues = venues or [v for v in os.environ.get("PAPERLIST_UPDATE_VENUES", "").split(",") if v.strip()]
    groups = [openreview_group(v) for v in venues] if venues else default_groups(today.year)
    since_ms = int(dt.datetime.combine(since, dt.time(), dt.UTC).timestamp() * 1000) if since else None
    p = Plan(openreview_url=openreview_url(), groups=groups if "openreview" in sources else [],
             since_ms=since_ms, openalex_url=openalex_url() if "openalex" in sources else None,
             openalex_from=today.year - 1, citations_url=openalex_url() if "citations" in sources else None)
    p.policy, p.openalex_policy = _policy(p.policy, budget), _policy(p.openalex_policy, budget)
    p.citations_policy = _policy(p.citations_policy, budget)
    if days := os.environ.get("PAPERLIST_CITATIONS_DAYS"):
        try:
            p.citations_days = max(0, int(days))
        except ValueError:
            raise BadRequest(f"PAPERLIST_CITATIONS_DAYS must be a number of days, not {days!r}") from None
    if page := os.environ.get("PAPERLIST_OPENREVIEW_PAGE"):
        p.page = max(1, min(1000, int(page)))
    return p


def _policy(default: Policy, budget: int | None) -> Policy:
    """The default policy with the run's budget, and the pace a mirror or a test may set:
    PAPERLIST_UPDATE_INTERVAL (seconds between requests), PAPERLIST_UPDATE_BACKOFF (the first retry's
    wait, doubled after)."""
    def number(name: str, default: float) -> float:
        try:
            return max(0.0, float(os.environ.get(name, default)))
        except ValueError:
            return default

    return Policy(budget=budget or default.budget,
                  min_interval=number("PAPERLIST_UPDATE_INTERVAL", default.min_interval),
                  retries=default.retries, backoff=number("PAPERLIST_UPDATE_BACKOFF", default.backoff),
                  max_wait=default.max_wait, timeout=default.timeout)


def update(home: Home, run: Plan, say: Say | None = None, derive: bool = True,
           step_progress: StepProgress | None = None) -> tuple[UpdateReport, DerivedReport | None]:
    """Run ``run`` against the home's store, then bring topics, statistics and the index up to date
    when papers changed (or they are stale)."""
    store = home.writable_store()
    report = update_store(store, home.path / "update", run, say)
    derived = None
    if derive and (report.changed or stale(home, store)):
        derived = refresh(home, store, force=report.changed, progress=step_progress)
    return report, derived
