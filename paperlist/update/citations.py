"""Citation counts from OpenAlex for every paper it can match with certainty
(``paperlist update --source citations``).

Each count is an annotation record of the file ``openalex:citations`` keyed by the paper's id:
the count (``citations``), the day it was read (``citations_as_of``), the paper's own ids (so the
merge joins it to its paper) and OpenAlex's id of the work. The merge (merge/fields.py) takes each
source's newest count and shows the largest, and writes the file and the date of the count it
shows into the paper's provenance (``citations``, ``citations_as_of``).

What is asked, in the order of ``Store.papers_for_counts`` (accepted papers first, newest years
first, then venue and id): every paper without a count, or whose count is ``refresh_days`` old;
a paper OpenAlex did not have is asked again after ``RETRY_MISS_DAYS`` (the misses are kept in a
small file, tried.py; the hits are the stored records themselves). The papers with a DOI or an
arXiv id go first, fifty DOIs a request (a paper with both asks both: the DOI's work wins); those
OpenAlex does not find by id, then the papers without ids, by title, one request each, taken only
when ``openalex.certain`` says the match is sure. Every batch is one transaction: a run stopped at
any point (the budget, kill -9) has stored whole batches and nothing of the next, and the next run
goes on with the papers still due.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..models import Record
from ..sources.normalize import RecordError
from ..store import CountWanted, Store, encode_record
from .openalex import BATCH, OpenAlex, Wanted, cited_by
from .tried import Tried

CITATIONS_FILE = "openalex:citations"
REFRESH_DAYS = 30  # a count this old is asked again
# what a count needs of a work: the match (DOI, title, year, venue) and the count
FIELDS = ("id", "doi", "display_name", "publication_year", "cited_by_count", "ids", "primary_location")
_JOIN_IDS = ("openreview", "acl", "arxiv", "doi")  # the paper's ids the merge joins the record by


@dataclass(slots=True)
class Tally:
    """What a run did: papers asked, counts stored, and of those the new or different numbers."""

    asked: int = 0
    counts: int = 0
    changed: int = 0
    records_new: int = 0
    records_updated: int = 0


def today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


def due(papers: Iterable[CountWanted], tried: Tried, day: str, refresh_days: int) -> list[CountWanted]:
    """The papers to ask: no count yet or one ``refresh_days`` old, and not a recent miss."""
    d = dt.date.fromisoformat(day)
    out = []
    for p in papers:
        fresh = p.as_of is not None and (d - dt.date.fromisoformat(p.as_of)).days < refresh_days
        if not fresh and tried.due(p.paper_id):
            out.append(p)
    return out


def fill_counts(store: Store, api: OpenAlex, tried: Tried, tally: Tally, refresh_days: int = REFRESH_DAYS,
                say: Callable[[str], None] | None = None) -> None:
    """Ask OpenAlex for the due papers' counts and store them batch by batch. Raises what the client
    raises (BudgetSpent, Unreachable) after committing the batch it was in."""
    day = today()
    wanted = due(store.papers_for_counts(CITATIONS_FILE), tried, day, refresh_days)
    by_id = [p for p in wanted if _dois(p)]
    by_title = [p for p in wanted if not _dois(p)]
    batches = _id_batches(by_id) + [by_title[i : i + BATCH] for i in range(0, len(by_title), BATCH)]
    for n, batch in enumerate(batches, 1):
        found: dict[str, Record] = {}
        try:
            _ask(api, batch, tried, found, day)
        finally:
            _commit(store, batch, found, tried, tally)
        if say and n % 20 == 0:
            say(f"citations   {tally.asked:,} of {len(wanted):,} papers asked")


def _dois(p: CountWanted) -> list[str]:
    """The DOIs to ask OpenAlex by, surest first: the paper's DOI, then arXiv's DOI of its id."""
    out = []
    if doi := p.ids.get("doi"):
        out.append(doi.lower())
    if arxiv := p.ids.get("arxiv"):
        out.append(f"10.48550/arxiv.{arxiv}".lower())
    return out


def _id_batches(papers: list[CountWanted]) -> list[list[CountWanted]]:
    """Papers in their order, as many a batch as fill ``BATCH`` DOIs."""
    out: list[list[CountWanted]] = []
    cur: list[CountWanted] = []
    size = 0
    for p in papers:
        n = len(_dois(p))
        if cur and size + n > BATCH:
            out.append(cur)
            cur, size = [], 0
        cur.append(p)
        size += n
    if cur:
        out.append(cur)
    return out


def _ask(api: OpenAlex, batch: list[CountWanted], tried: Tried, found: dict[str, Record], day: str) -> None:
    """Fill ``found`` (paper id -> record) for the batch, marking each paper once every way to
    find it was tried (a stop in between leaves it unmarked: due again)."""
    dois = [d for p in batch for d in _dois(p)]
    works = api.by_doi(dois) if dois else {}
    for p in batch:
        work = next((works[d] for d in _dois(p) if d in works), None)
        if work is None:
            work = api.by_title(_wanted(p))
        rec = _record(p, work, day) if work is not None else None
        if rec is not None:
            found[p.paper_id] = rec
        else:
            tried.mark(p.paper_id, False)


def _wanted(p: CountWanted) -> Wanted:
    return Wanted(p.paper_id, p.venue, p.year, p.title, p.ids.get("doi"), p.ids.get("arxiv"), p.ids)


def _record(p: CountWanted, work: dict[str, Any], day: str) -> Record | None:
    """The count as an annotation of the paper, or None when the work gives no count."""
    from ..sources import normalize as nz

    cited = cited_by(work)
    if cited is None:
        return None
    ids = {k: v for k, v in p.ids.items() if k in _JOIN_IDS}
    if isinstance(work.get("id"), str):
        ids["openalex"] = work["id"].rsplit("/", 1)[-1]
    try:
        return nz.record(source="openalex", file=CITATIONS_FILE, key=p.paper_id, venue=p.venue, year=p.year,
                         title=p.title, authors=[], ids=ids, citations=cited, citations_as_of=day,
                         annotation=True)
    except RecordError:
        return None


def _commit(store: Store, batch: list[CountWanted], found: dict[str, Record], tried: Tried,
            tally: Tally) -> None:
    """The batch's misses into the tried file, then its counts into the store (one transaction). A
    run killed between the two asks the found papers again; nothing is half-written."""
    for pid in found:
        tried.forget(pid)
    tried.save()
    asked = [p for p in batch if p.paper_id in found or not tried.due(p.paper_id)]
    tally.asked += len(asked)
    if found:
        c = store.add_file_records(CITATIONS_FILE, "openalex", "openalex",
                                   [encode_record(r) for r in found.values()])
        tally.records_new += c.new
        tally.records_updated += c.updated
        tally.counts += len(found)
        tally.changed += sum(found[p.paper_id].citations != p.citations for p in batch if p.paper_id in found)

