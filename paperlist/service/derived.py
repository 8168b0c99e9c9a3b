"""What the library derives from the papers, kept in step with them: topics, the conference-year
statistics, then the search index that carries topics and ratings. The rule belongs here, not in
the CLI, so that every caller of ``ingest`` (a Python program too) gets them current:

    from paperlist.service import Home, ingest
    report = ingest(Home("data"), ["../shared/data"])

Each step is skipped when current (the topics and the index know what they were built from) and
converge when rerun after an interruption.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..curated import folder as lists_folder
from ..curated import match as lists_match
from ..curated.read import read_lists
from ..index import fulltext
from ..index.fulltext import BuildReport
from ..ingest import FileReport, IngestReport, Progress
from ..ingest import ingest as ingest_files
from ..stats import StatsReport, build_stats
from ..stats import is_current as stats_current
from ..store import Store
from ..topics.build import AssignReport, assign_topics
from ..topics.build import is_current as topics_current
from .home import Home

# Progress of an ingest's own steps and the derived ones: (phase, done, total). "files" (0/0 as the
# ingest starts: its file and merge progress go to its ``Progress``), "curated" (reading curated
# lists), "topics", "stats", "lists" (matching them; 0/0 when they start) and "index". Each phase
# runs until the next one starts, so a display's times add up to the whole run.
StepProgress = Callable[[str, int, int], None]


@dataclass(slots=True)
class DerivedReport:
    topics: AssignReport
    stats: StatsReport
    index: BuildReport
    lists: lists_match.MatchReport | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"topics": self.topics.to_dict(), "stats": self.stats.to_dict(), "index": self.index.to_dict(),
                "lists_matched": self.lists.to_dict() if self.lists else None}


def refresh(home: Home, store: Store, force: bool = False,
            progress: StepProgress | None = None) -> DerivedReport:
    """Topics, the statistics, then the search index that carries them (each skipped when current
    and not ``force``): what ingest and embed run after changing what they depend on."""
    if progress:
        progress("topics", 0, 0)
    topics = assign_topics(store, home.path, force=force)
    if progress:
        progress("stats", 0, 0)
    stats = build_stats(store, force=force)
    if progress:
        progress("lists", 0, 0)
    lists = lists_match.match_lists(store, force=force)
    if progress:
        progress("index", 0, 0)      # the index's phase starts here, not at its first document
    index = fulltext.build(store, home.path, force=force,
                           progress=(lambda n, total: progress("index", n, total)) if progress else None)
    return DerivedReport(topics, stats, index, lists)


def build_index(home: Home, store: Store, force: bool = True, full: bool = False,
                progress: Callable[[int, int], None] | None = None) -> BuildReport:
    """The search index alone (``paperlist index``), with the curated lists' matches it carries
    brought up to date first (skipped when current)."""
    lists_match.match_lists(store)
    return fulltext.build(store, home.path, force=force, full=full, progress=progress)


def stale(home: Home, store: Store) -> bool:
    """True when the topics, the statistics or the index do not match the papers (or there is no
    usable index)."""
    return fulltext.needs_build(home.path) or not topics_current(store, home.path) \
        or not stats_current(store) or not lists_match.is_current(store) \
        or not fulltext.is_current(store, home.path)


def ingest(home: Home, targets: list[str], fmt: str | None = None, force: bool = False,
           progress: Progress | None = None, jobs: int | None = None, derive: bool = True,
           step_progress: StepProgress | None = None) -> tuple[IngestReport, DerivedReport | None]:
    """Ingest files, folders or URLs into the home's store, then (with ``derive``) bring the
    topics and the index up to date when the papers changed or they are stale."""
    if step_progress:
        step_progress("files", 0, 0)          # the files' time starts here, not at the first file read
    store = home.writable_store()
    rep = ingest_files(store, targets, fmt=fmt, force=force, progress=progress, jobs=jobs)
    folders = lists_folder.find(targets)
    if folders:
        if step_progress:
            step_progress("curated", 0, 0)    # reading the lists is its own phase, not the merge's
        rep.lists = read_lists(store, folders, force=force)
        for problem in rep.lists.problems:          # a list file that cannot be read fails the run
            name, _, why = problem.partition(": ")
            rep.files.append(FileReport(name, "failed", error=why or problem))
    p = rep.papers
    changed = p.new + p.updated + p.removed > 0       # changed lists: stale() has the match and the index
    derived = None
    if derive and (changed or stale(home, store)):
        derived = refresh(home, store, force=changed, progress=step_progress)
    return rep, derived
