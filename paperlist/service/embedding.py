"""The background embedding job: vectors for search by meaning while the site serves.

``paperlist serve --embed`` (what ``./run.sh`` runs) starts ``paperlist embed --background``
once the site answers. The job runs at idle CPU priority (the site's workers always come first),
embeds newest papers first, publishes a partial generation at 10%, 30% and 60% of the papers
(each replaces the last; the servers switch to it with no restart), then the full one, and then
reassigns topics with the vectors as evidence and rebuilds the search index (both switched
atomically: searches go on meanwhile). It writes how far it has come to ``vectors/JOB.json``
(``index.embed_status``), which ``/healthz`` and the site read, and a line to its log every
minute. One job runs per home (a lock); a second start says so and leaves. Stopped at any point
(Ctrl-C, SIGTERM, its server gone, a crash) it keeps every finished batch, and the next start
continues from there.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..index import embed_status, generations
from ..index.embed import EmbedReport, Hooks, embed
from ..index.encoder import MODEL_NAME, Encoder
from ..index.vectors import vectors_root
from .derived import DerivedReport, refresh
from .home import Home

PARTIAL_AT = (0.10, 0.30, 0.60)    # shares of the papers at which a partial generation is published
WRITE_EVERY_S = 5.0
HEARTBEAT_S = 20.0
LOG_EVERY_S = 60.0
JOB_LOCK = ".job.lock"

Log = Callable[[str], None]


class AlreadyRunning(RuntimeError):
    """Another embedding job holds this home's lock."""


@contextmanager
def job_lock(home: Path) -> Iterator[None]:
    """Held for the job's whole life; a second job fails at once instead of waiting."""
    try:
        with generations.build_lock(vectors_root(home), JOB_LOCK, wait=False):
            yield
    except BlockingIOError:
        raise AlreadyRunning(f"an embedding job is already running for {home}") from None


def idle_priority() -> str:
    """Run this process (and the threads it starts later) only when the CPU has nothing else
    to do: SCHED_IDLE on Linux, else the lowest nice level. Returns which one was set."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return "idle"
    except (AttributeError, OSError):
        try:
            os.nice(19)
        except OSError:
            pass
        return "nice 19"


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


@dataclass(slots=True)
class JobReport:
    embed: EmbedReport
    derived: DerivedReport | None
    state: str


class _Job(Hooks):
    """Turns the embedding's progress into the status record, log lines and partial publishes."""

    def __init__(self, home: Path, log: Log, parent: int | None, partial_at: tuple[float, ...]) -> None:
        self.home, self.log, self.parent = home, log, parent
        self.partial_at = partial_at
        self.started_at = time.time()
        self.record: embed_status.JobRecord = {"state": "starting", "pid": os.getpid(), "model": MODEL_NAME,
                                               "started_at": self.started_at}
        self.published_share = 0.0
        self._written = self._logged = 0.0
        self._lock = threading.Lock()
        self._done = threading.Event()
        self.write()
        # publishing the graph and reassigning topics take minutes without a batch: the record
        # is rewritten meanwhile, so readers do not take the job for dead (embed_status.STALE_S)
        threading.Thread(target=self._heartbeat, name="embed-heartbeat", daemon=True).start()

    def write(self, **change: object) -> None:
        with self._lock:
            self.record.update(change)  # type: ignore[typeddict-item]
            embed_status.write(self.home, self.record)
            self._written = time.monotonic()

    def _heartbeat(self) -> None:
        while not self._done.wait(HEARTBEAT_S):
            try:
                self.write()
            except OSError:
                pass

    def close(self) -> None:
        self._done.set()

    def started(self, rep: EmbedReport, todo: int) -> None:
        live = embed_status.LiveInfo(self.home).get()
        if live["model"] == MODEL_NAME and rep.papers:
            self.published_share = live["count"] / rep.papers
        self.write(state="embedding", papers=rep.papers, covered=rep.cached, embedded=0, todo=todo,
                   rate=0.0, eta_s=None)
        self.log(f"embedding {todo:,} of {rep.papers:,} papers ({rep.cached:,} done before), newest first")

    def _covered(self, rep: EmbedReport) -> int:
        return rep.cached + rep.embedded

    def publish_now(self, rep: EmbedReport) -> bool:
        now = time.monotonic()
        todo = int(self.record.get("todo") or 0)
        eta = (todo - rep.embedded) / rep.rate if rep.rate > 0 else None
        covered = self._covered(rep)
        if now - self._written >= WRITE_EVERY_S:
            self.write(covered=covered, embedded=rep.embedded, rate=round(rep.rate, 1), eta_s=eta)
        if now - self._logged >= LOG_EVERY_S:
            self._logged = now
            share = covered / rep.papers if rep.papers else 1.0
            self.log(f"embedding: {share:.0%} of papers ({covered:,} of {rep.papers:,}), {rep.rate:.0f}/s, "
                     f"ETA {_clock(eta) if eta is not None else '?'}")
        share = covered / rep.papers if rep.papers else 1.0
        due = [f for f in self.partial_at if f <= share and f > self.published_share + 0.02]
        if due:
            self.write(state="publishing", covered=covered, embedded=rep.embedded)
            return True
        return False

    def published(self, generation: str, rows: int, partial: bool) -> None:
        papers = int(self.record.get("papers") or 0)
        self.published_share = rows / papers if papers else 1.0
        covered = max(rows, int(self.record.get("covered") or 0))
        self.write(state="embedding" if partial else "publishing", covered=covered)
        self.log(f"search by meaning: {rows:,} papers ({self.published_share:.0%}) published -> {generation}"
                 + (" (partial; embedding goes on)" if partial else ""))

    def should_stop(self) -> bool:
        # the server that started us is gone (it was killed): stop rather than run on unseen
        return self.parent is not None and os.getppid() != self.parent


def run_job(home: Home, log: Log, parent: int | None = None, encoder: Encoder | None = None,
            batch_size: int = 256, partial_at: tuple[float, ...] = PARTIAL_AT,
            max_batches: int | None = None) -> JobReport:
    """Embed, publish on the way and at the end, then bring topics and the index up to date.
    Raises ``AlreadyRunning`` when another job runs for this home."""
    with job_lock(home.path):
        job = _Job(home.path, log, parent, partial_at)
        try:
            return _run(job, home, log, encoder or Encoder(), batch_size, max_batches)
        except BaseException as e:
            job.write(state="stopped" if isinstance(e, KeyboardInterrupt) else "failed", message=str(e)[:300])
            raise
        finally:
            job.close()


def _run(job: _Job, home: Home, log: Log, enc: Encoder, batch_size: int,
         max_batches: int | None) -> JobReport:
    rep = embed(home.store, home.path, batch_size=batch_size, encoder=enc, hooks=job, max_batches=max_batches)
    if rep.interrupted or rep.remaining:
        job.write(state="stopped", covered=rep.cached + rep.embedded, embedded=rep.embedded)
        log(f"embedding stopped at {rep.cached + rep.embedded:,} of {rep.papers:,} papers; "
            "finished batches are kept, the next start continues")
        return JobReport(rep, None, "stopped")
    job.write(state="topics", covered=rep.papers, embedded=rep.embedded, eta_s=0.0)
    log("reassigning topics with the vectors, then rebuilding the search index (searches go on)")
    derived = refresh(home, home.writable_store(), force=False)
    job.write(state="done", message=f"{rep.published:,} papers in {rep.generation}")
    log(f"search by meaning is complete: {rep.published:,} papers ({rep.embedded:,} embedded by this run "
        f"in {rep.seconds / 60:.1f} min)")
    return JobReport(rep, derived, "done")
