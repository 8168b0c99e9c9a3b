"""One update run: ask each official source for what it has, store it as records, merge.

Each venue of a source is one "file" of records in the store (``openreview-api:NeurIPS.cc/2026/
Conference``), written in one transaction once all its pages are in: a run stopped at any point
has written whole venues or nothing of one, and the pages it fetched wait in the spool for the
next run (spool.py). Records go through the same merge and field provenance as every source file.
A source that cannot be reached is one line in the report, and the run goes on with the next.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..ingest import merge_pending
from ..models import Record
from ..sources.normalize import RecordError
from ..sources.openreview_api import SOURCE as OPENREVIEW_SOURCE
from ..sources.openreview_api import OpenReviewApiReader, note_record, replies_review
from ..store import FileCounts, PaperCounts, Store, encode_record
from .citations import CITATIONS_FILE, FIELDS, REFRESH_DAYS, Tally, fill_counts, today
from .openalex import OpenAlex, Wanted, work_fields
from .openreview import OpenReview, replies_of
from .polite import BudgetSpent, Meter, Policy, UpdateError
from .spool import Spool
from .tried import Tried

OPENALEX_FILE = "openalex:works"
OPENALEX_COMMIT = 200  # papers looked up between two commits (a killed run loses at most these)

Say = Callable[[str], None]


@dataclass(slots=True)
class VenueReport:
    name: str  # the venue group ("NeurIPS.cc/2026/Conference")
    notes: int = 0
    counts: FileCounts = field(default_factory=FileCounts)
    skipped: list[str] = field(default_factory=list)


@dataclass(slots=True)
class SourceReport:
    name: str  # "openreview", "openalex"
    url: str
    error: str | None = None  # one line: why the source stopped
    stopped: str | None = None  # a bounded stop (the budget): the next run goes on
    venues: list[VenueReport] = field(default_factory=list)
    meter: Meter = field(default_factory=Meter)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "url": self.url,
            "error": self.error,
            "stopped": self.stopped,
            "requests": self.meter.requests,
            "retries": self.meter.retries,
            "waited_s": round(self.meter.waited, 2),
            "seconds": round(self.seconds, 2),
            "venues": [
                {"name": v.name, "notes": v.notes, **asdict(v.counts), "problems": v.skipped[:20]}
                for v in self.venues
            ],
        }


@dataclass(slots=True)
class UpdateReport:
    sources: list[SourceReport] = field(default_factory=list)
    papers: PaperCounts = field(default_factory=PaperCounts)
    seconds: float = 0.0

    @property
    def failed(self) -> int:
        return sum(s.error is not None for s in self.sources)

    @property
    def changed(self) -> bool:
        p = self.papers
        return p.new + p.updated + p.removed > 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "sources": [s.to_dict() for s in self.sources],
            "papers": asdict(self.papers),
            "failed": self.failed,
            "seconds": round(self.seconds, 2),
        }


@dataclass(slots=True)
class Plan:
    """What one run asks for."""

    openreview_url: str
    groups: list[str]  # OpenReview venue groups
    since_ms: int | None = None  # only notes modified since (epoch ms); None: each venue whole
    policy: Policy = field(default_factory=Policy)
    page: int = 1000
    openalex_url: str | None = None  # None: OpenAlex is not asked
    openalex_from: int = 2025  # papers of this year and later that lack authors or an abstract
    openalex_max: int = 5000  # papers looked up per run at most
    openalex_policy: Policy = field(default_factory=lambda: Policy(budget=2000, min_interval=0.11))
    citations_url: str | None = None  # None: no citation counts are asked (OpenAlex's URL otherwise)
    citations_days: int = REFRESH_DAYS  # a count this old is asked again
    citations_policy: Policy = field(default_factory=lambda: Policy(budget=2000, min_interval=0.11))


def update_store(store: Store, root: Path, plan: Plan, say: Say | None = None) -> UpdateReport:
    """Run the plan against ``store`` (spool under ``root``), then merge what changed."""
    t0 = time.perf_counter()
    report = UpdateReport()
    say = say or (lambda _: None)
    if plan.groups:
        report.sources.append(_openreview(store, root / "openreview", plan, say))
    if plan.openalex_url:
        report.sources.append(_openalex(store, root / "openalex-tried.json", plan, say))
    if plan.citations_url:
        report.sources.append(_citations(store, root / "citations-tried.json", plan, say))
    # merge what this run wrote, or what an interrupted run left dirty; a run that wrote nothing
    # into a merged store leaves it byte for byte as it was
    if store.dirty_blocks() or store.pending_authors() or store.venues_stale():
        report.papers = merge_pending(store)
    report.seconds = time.perf_counter() - t0
    return report


def _openreview(store: Store, spool_root: Path, plan: Plan, say: Say) -> SourceReport:
    rep = SourceReport("openreview", plan.openreview_url)
    t0 = time.perf_counter()
    try:
        api = OpenReview(plan.openreview_url, plan.policy, rep.meter)
        for group in plan.groups:
            rep.venues.append(_venue(store, api, Spool(spool_root, group), group, plan, say))
    except BudgetSpent as e:
        rep.stopped = f"{e}; run again to go on"
    except UpdateError as e:
        rep.error = str(e)
    rep.seconds = time.perf_counter() - t0
    return rep


def _venue(store: Store, api: OpenReview, spool: Spool, group: str, plan: Plan, say: Say) -> VenueReport:
    """Fetch one venue group (reusing spooled pages), then replace (or, with ``since``, add to) its
    records in one transaction."""
    vr = VenueReport(group)
    spool.open()
    notes: list[dict[str, Any]] = []
    for page in api.pages(group, spool, plan.since_ms, plan.page):
        notes.extend(page)
    vr.notes = len(notes)
    file_key = f"{OPENREVIEW_SOURCE}:{group}"
    records: dict[str, Record] = {}
    for i, note in enumerate(notes):
        try:
            rec = note_record(note, file_key, review=replies_review(replies_of(note)))
        except RecordError as e:
            vr.skipped.append(f"note {note.get('id', i)}: {e}")
            continue
        records[rec.key] = rec  # a note listed twice (it moved between pages) counts once
    rows = [encode_record(r) for r in records.values()]
    if plan.since_ms is not None:
        fetched = {r[0] for r in rows}
        rows += [r for r in store.file_rows(file_key) if r[0] not in fetched]
    if rows or store.file_state(file_key) is not None:
        if not rows:
            # an empty answer where we held records is more likely a glitch than a venue emptied
            vr.skipped.append("the service listed no notes for a venue we hold: kept what we had")
        else:
            rows.sort()
            digest = hashlib.sha256(b"".join(r[2].encode() for r in rows)).hexdigest()
            vr.counts = store.replace_file_records(
                file_key,
                OPENREVIEW_SOURCE,
                f"{plan.openreview_url}/notes?content.venueid={group}",
                digest,
                OpenReviewApiReader.version,
                rows,
                len(vr.skipped),
            )
    spool.clear()
    c = vr.counts
    say(
        f"openreview  {group}: {vr.notes:,} notes  new {c.new}  updated {c.updated}  unchanged {c.unchanged}"
        f"  removed {c.removed}"
    )
    return vr


# --- OpenAlex -------------------------------------------------------------------------------------


def _openalex(store: Store, tried_path: Path, plan: Plan, say: Say) -> SourceReport:
    """Look up the papers that lack authors or an abstract; store each certain match as an
    annotation of its paper (source "openalex"), committing every ``OPENALEX_COMMIT`` papers."""
    assert plan.openalex_url is not None
    rep = SourceReport("openalex", plan.openalex_url)
    vr = VenueReport("works")
    rep.venues.append(vr)
    t0 = time.perf_counter()
    tried = Tried(tried_path)
    wanted = [w for w in _wanted(store, plan) if tried.due(w.paper_id)]
    found: dict[str, Record] = {}
    try:
        api = OpenAlex(plan.openalex_url, plan.openalex_policy, rep.meter)
        by_id = [w for w in wanted if w.doi or w.arxiv]
        for i in range(0, len(by_id), OPENALEX_COMMIT):
            chunk = by_id[i : i + OPENALEX_COMMIT]
            works = api.by_doi([_id_doi(w) for w in chunk])
            for w in chunk:
                work = works.get(_id_doi(w))
                tried.mark(w.paper_id, work is not None)
                if work is not None:
                    found[w.paper_id] = _work_record(w, work)
            _commit_openalex(store, found, tried, vr)
        by_title = [w for w in wanted if not (w.doi or w.arxiv)]
        for n, w in enumerate(by_title, 1):
            work = api.by_title(w)
            tried.mark(w.paper_id, work is not None)
            if work is not None:
                found[w.paper_id] = _work_record(w, work)
            if n % OPENALEX_COMMIT == 0:
                _commit_openalex(store, found, tried, vr)
    except BudgetSpent as e:
        rep.stopped = f"{e}; run again to go on"
    except UpdateError as e:
        rep.error = str(e)
    finally:
        _commit_openalex(store, found, tried, vr)
    vr.notes = len(wanted)
    rep.seconds = time.perf_counter() - t0
    say(f"openalex    {len(wanted):,} papers looked up: {vr.counts.new + vr.counts.updated} filled")
    return rep


def _wanted(store: Store, plan: Plan) -> list[Wanted]:
    out = []
    for pid, venue, year, title, ids in store.papers_lacking(plan.openalex_from, plan.openalex_max):
        out.append(Wanted(pid, venue, year, title, ids.get("doi"), ids.get("arxiv"), ids))
    return out


def _id_doi(w: Wanted) -> str:
    return (w.doi or f"10.48550/arxiv.{w.arxiv}").lower()


def _work_record(w: Wanted, work: dict[str, Any]) -> Record:
    from ..names import make_authors
    from ..sources import normalize as nz

    f = work_fields(work)
    ids = {k: v for k, v in w.ids.items() if k in ("openreview", "acl", "arxiv", "doi")}
    ids.update(f["ids"])
    return nz.record(
        source="openalex",
        file=OPENALEX_FILE,
        key=w.paper_id,
        venue=w.venue,
        year=w.year,
        title=f["title"] or w.title,
        authors=make_authors(f["names"], f["affiliations"]),
        abstract=nz.abstract(f["abstract"]),
        ids=ids,
        citations=f["citations"],
        citations_as_of=today() if f["citations"] is not None else None,
        annotation=True,
    )


def _commit_openalex(store: Store, found: dict[str, Record], tried: Tried, vr: VenueReport) -> None:
    """Add what was found to the OpenAlex file's records (one transaction), then remember what was
    asked. A run killed before this asks those papers again; nothing is half-written."""
    if found:
        rows = {r[0]: r for r in store.file_rows(OPENALEX_FILE)}
        for rec in found.values():
            row = encode_record(rec)
            rows[row[0]] = row
        ordered = sorted(rows.values())
        digest = hashlib.sha256(b"".join(r[2].encode() for r in ordered)).hexdigest()
        c = store.replace_file_records(OPENALEX_FILE, "openalex", "openalex", digest, 1, ordered, 0)
        vr.counts.new += c.new
        vr.counts.updated += c.updated
        found.clear()
    tried.save()


# --- citation counts ------------------------------------------------------------------------------


def _citations(store: Store, tried_path: Path, plan: Plan, say: Say) -> SourceReport:
    """Citation counts from OpenAlex for every paper it matches with certainty (citations.py)."""
    assert plan.citations_url is not None
    rep = SourceReport("citations", plan.citations_url)
    vr = VenueReport(CITATIONS_FILE)
    rep.venues.append(vr)
    t0 = time.perf_counter()
    tally = Tally()
    try:
        api = OpenAlex(plan.citations_url, plan.citations_policy, rep.meter, select=FIELDS)
        fill_counts(store, api, Tried(tried_path), tally, plan.citations_days, say)
    except BudgetSpent as e:
        rep.stopped = f"{e}; run again to go on"
    except UpdateError as e:
        rep.error = str(e)
    vr.notes = tally.asked
    vr.counts.new, vr.counts.updated = tally.records_new, tally.records_updated
    rep.seconds = time.perf_counter() - t0
    say(f"citations   {tally.asked:,} papers asked: {tally.counts:,} counts ({tally.changed:,} changed)")
    return rep
