"""OpenReview's API v2 through its maintained client, openreview-py (``OpenReviewClient``, as a guest).

For each venue group (``NeurIPS.cc/2026/Conference``) the submissions are read by their final
``content.venueid``: the group itself (accepted), and its ``/Submission`` (under review),
``/Rejected_Submission``, ``/Withdrawn_Submission`` and ``/Desk_Rejected_Submission`` tails, each
paged with ``offset``/``limit`` in submission-number order, with the forums' replies
(``details=replies``), from which the reviews come. One page is one request, so a venue of
10,000 submissions costs about a dozen requests. The notes become records through
``sources.openreview_api``, the mapping the file reader uses too.

``since`` (epoch ms) reads only the notes modified since then (newest first, stopping at the first
page older than that) and adds them to the venue's records; without it the venue is read whole
and its records are replaced.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from .polite import Meter, Policy, Unreachable, UpdateError, mount
from .spool import Spool

DEFAULT_URL = "https://api2.openreview.net"
TAILS = ("", "/Submission", "/Rejected_Submission", "/Withdrawn_Submission", "/Desk_Rejected_Submission")
PAGE = 1000  # the API's largest page
# The OpenReview venues we follow by default, this year and next (ICLR's next year is under review
# in the autumn).
GROUPS = (
    "NeurIPS.cc/{y}/Conference",
    "NeurIPS.cc/{y}/Datasets_and_Benchmarks_Track",
    "ICLR.cc/{y}/Conference",
    "ICML.cc/{y}/Conference",
    "colmweb.org/COLM/{y}/Conference",
    "robot-learning.org/CoRL/{y}/Conference",
)
_NOTE_FIELDS = (
    "id",
    "forum",
    "number",
    "domain",
    "invitations",
    "cdate",
    "pdate",
    "odate",
    "mdate",
    "tmdate",
    "content",
    "details",
)


def base_url() -> str:
    return (os.environ.get("PAPERLIST_OPENREVIEW_URL") or DEFAULT_URL).rstrip("/")


def default_groups(year: int) -> list[str]:
    return [g.format(y=y) for y in (year, year + 1) for g in GROUPS]


class OpenReview:
    """A guest client whose session follows our policy (polite.py)."""

    def __init__(self, url: str, policy: Policy, meter: Meter) -> None:
        try:
            import openreview
        except ImportError:
            raise UpdateError("openreview-py is not installed (pip install openreview-py)") from None
        self.url = url
        self.client = openreview.api.OpenReviewClient(baseurl=url)
        mount(self.client.session, policy, meter)
        self._error = openreview.OpenReviewException

    def pages(
        self, group: str, spool: Spool, since: int | None = None, page: int = PAGE
    ) -> Iterator[list[dict[str, Any]]]:
        """Every page of the group's submissions (see the module docstring). A page the spool holds
        (a run that was stopped) is not asked for again."""
        for tail in TAILS:
            offset = 0
            while True:
                name = f"{tail.strip('/') or 'venue'}-{offset}"
                notes = spool.page(name)
                if notes is None:
                    notes = self._get(group + tail, offset, page, since)
                    spool.save(name, notes)
                fresh = [n for n in notes if since is None or _modified(n) >= since]
                yield fresh
                if len(notes) < page or len(fresh) < len(notes):
                    break
                offset += len(notes)

    def _get(self, venueid: str, offset: int, limit: int, since: int | None) -> list[dict[str, Any]]:
        try:
            notes = self.client.get_notes(
                content={"venueid": venueid},
                offset=offset,
                limit=limit,
                details="replies",
                sort="tmdate:desc" if since else "number:asc",
            )
        except self._error as e:
            raise Unreachable(f"{self.url} refused the query for {venueid}: {_message(e)}") from None
        except ValueError as e:  # not JSON, or JSON without 'notes'
            raise Unreachable(
                f"{self.url} answered with something that is not a list of notes ({e})"
            ) from None
        except KeyError:
            raise Unreachable(f"{self.url} answered without a 'notes' list") from None
        return [note_dict(n) for n in notes]


def note_dict(note: Any) -> dict[str, Any]:
    """The API's JSON of a Note object (openreview-py's ``to_json`` leaves out number, domain and
    details, which the mapping needs)."""
    return {f: v for f in _NOTE_FIELDS if (v := getattr(note, f, None)) is not None}


def _modified(note: dict[str, Any]) -> int:
    t = note.get("tmdate") or note.get("mdate") or note.get("cdate") or 0
    return t if isinstance(t, int) else 0


def replies_of(note: dict[str, Any]) -> list[Any]:
    details = note.get("details")
    replies = details.get("replies") if isinstance(details, dict) else None
    return replies if isinstance(replies, list) else []


def _message(e: Exception) -> str:
    arg = e.args[0] if e.args else e
    if isinstance(arg, dict):
        return str(arg.get("message") or arg.get("name") or arg)[:200]
    return str(arg)[:200]
