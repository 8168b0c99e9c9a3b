"""Progress of long commands on stderr, behind one small interface (``Display``):

- in a terminal, ``LiveDisplay``: one rich.progress row per phase (files, merge, topics, stats,
  index, embed, download) with count, rate and ETA, redrawn in place;
- elsewhere (logs, CI, a pipe), ``LineDisplay``: a plain line every few seconds, never per item.

Both time each phase for the summary (``Display.times``), print detail lines (``note``) above the
live rows, and leave the terminal clean when closed, also on Ctrl-C (use them as context managers).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import TracebackType

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    SpinnerColumn,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..service.derived import StepProgress

# phase -> (what it does, what it counts); a phase without a unit has no count (topics, stats)
PHASES: dict[str, tuple[str, str]] = {
    "download": ("downloading", "files"),
    "files": ("reading files", "files"),
    "merge": ("merging", "blocks"),
    "topics": ("assigning topics", ""),
    "stats": ("conference statistics", ""),
    "curated": ("reading curated lists", ""),
    "lists": ("matching curated lists", ""),
    "index": ("indexing", "papers"),
    "embed": ("embedding", "texts"),
}
INTERVAL = 10.0         # seconds before the first progress line of a phase when not in a terminal;
MAX_INTERVAL = 60.0     # the gap then doubles up to this: a 3-minute phase prints 4 lines
LINES_PER_PHASE = 2          # a phase's progress lines in a log, at most (the summary follows)


class Display:
    """Phases in order: ``update(phase, done, total)`` starts a phase (ending the one before) or
    advances it; ``close()`` ends the last one. ``times`` holds each ended phase's seconds."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}
        self.phase: str | None = None
        self.done = 0
        self.total = 0
        self._t0 = 0.0
        self.stopped_at = "starting"

    def update(self, phase: str, done: int, total: int) -> None:
        if phase != self.phase:
            self._finish(True)
            self.phase, self._t0 = phase, time.perf_counter()
            self._start(phase, total)
        self.done, self.total = done, total
        self._show(phase, done, total, time.perf_counter() - self._t0)

    def note(self, line: str, err: bool = False) -> None:
        """A detail line (``--verbose``), printed above any live rows."""
        click.echo(line, err=err)

    def close(self, complete: bool = True) -> None:
        """End the last phase (``complete``: it finished, rather than being interrupted)."""
        if self.phase is not None:
            self.stopped_at = self.position()
        self._finish(complete)

    def _finish(self, complete: bool) -> None:
        if self.phase is not None:
            self.times[self.phase] = self.times.get(self.phase, 0.0) + time.perf_counter() - self._t0
            self._end(self.phase, complete)
            self.phase = None

    def _start(self, phase: str, total: int) -> None: ...
    def _show(self, phase: str, done: int, total: int, seconds: float) -> None: ...
    def _end(self, phase: str, complete: bool) -> None: ...

    def position(self) -> str:
        """Where the work is, for an interrupted command: "merging (1,200/5,000 blocks)"."""
        if self.phase is None:
            return "starting"
        what, unit = PHASES.get(self.phase, (self.phase, ""))
        return f"{what} ({self.done:,}/{self.total:,} {unit})" if unit and self.total else what

    def __enter__(self) -> Display:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close(complete=exc_type is None)


def rate_eta(done: int, total: int, seconds: float) -> tuple[float, float]:
    rate = done / seconds if seconds > 0 else 0.0
    return rate, ((total - done) / rate if rate > 0 else 0.0)


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds + 0.5), 60)
    return f"{m // 60}:{m % 60:02d}:{s:02d}" if m >= 60 else f"{m}:{s:02d}"


class LineDisplay(Display):
    """A line on stderr ``interval`` seconds into a phase, then after gaps doubling up to
    ``MAX_INTERVAL``, at most ``LINES_PER_PHASE`` per phase (a long job's log stays short however
    slow the machine); none with ``quiet`` (phases are still timed).
    A phase that reports no progress of its own (topics, stats) gets the same lines from a timer."""

    def __init__(self, quiet: bool = False, interval: float = INTERVAL) -> None:
        super().__init__()
        self.quiet, self.interval = quiet, interval
        self._last = self._gap = 0.0
        self._lines = 0
        self._lock = threading.Lock()
        self._beat: threading.Event | None = None

    def _start(self, phase: str, total: int) -> None:
        self._last, self._gap, self._lines = time.perf_counter(), self.interval, 0
        if not self.quiet and self.interval > 0:
            stop = self._beat = threading.Event()
            threading.Thread(target=self._heartbeat, args=(stop, phase), daemon=True).start()

    def _heartbeat(self, stop: threading.Event, phase: str) -> None:
        while not stop.wait(1.0):
            if self.phase == phase:
                self._show(phase, self.done, self.total, time.perf_counter() - self._t0)

    def _end(self, phase: str, complete: bool) -> None:
        if self._beat is not None:
            self._beat.set()
            self._beat = None

    def _show(self, phase: str, done: int, total: int, seconds: float) -> None:
        with self._lock:
            now = time.perf_counter()
            if self.quiet or now - self._last < self._gap or self._lines >= LINES_PER_PHASE:
                return
            self._last, self._gap = now, min(max(self.interval, MAX_INTERVAL), 2 * self._gap)
            self._lines += 1
            what, unit = PHASES.get(phase, (phase, ""))
            if not unit or not total:
                click.echo(f"  {what} ... {_clock(seconds)}", err=True)
                return
            rate, eta = rate_eta(done, total, seconds)
            click.echo(f"  {what} {done:,}/{total:,} {unit}  {100 * done / total:3.0f}%  {rate:,.1f}/s"
                       f"  ETA {_clock(eta)}", err=True)


class LiveDisplay(Display):
    """rich.progress rows on stderr, redrawn in place: a finished phase keeps its row (count,
    elapsed time), the running one shows its bar, count, rate and ETA."""

    def __init__(self, console: Console | None = None) -> None:
        super().__init__()
        self.console = console or Console(stderr=True)
        self._progress = Progress(
            SpinnerColumn(finished_text="[green]✓"),
            TextColumn("{task.description:<22}"),
            BarColumn(bar_width=30),
            TextColumn("{task.fields[count]}"),
            TaskProgressColumn(),
            TextColumn("{task.fields[rate]}"),
            TextColumn("ETA"), TimeRemainingColumn(),
            TextColumn("elapsed"), TimeElapsedColumn(),
            console=self.console, redirect_stdout=sys.stdout.isatty(), transient=False,
        )
        self._task: TaskID | None = None
        self._running = False

    def _start(self, phase: str, total: int) -> None:
        if not self._running:
            self._progress.start()
            self._running = True
        what, _ = PHASES.get(phase, (phase, ""))
        self._task = self._progress.add_task(what, total=total or None, rate="", count="")

    def _show(self, phase: str, done: int, total: int, seconds: float) -> None:
        if self._task is None:
            return
        unit = PHASES.get(phase, (phase, ""))[1]
        counted = bool(unit and total)
        rate = f"{rate_eta(done, total, seconds)[0]:,.1f} {unit}/s" if counted else ""
        count = f"{done:>{len(f'{total:,}')},}/{total:,}" if counted else ""
        self._progress.update(self._task, completed=done, total=total or None, rate=rate, count=count)

    def _end(self, phase: str, complete: bool) -> None:
        if self._task is not None:
            task = self._progress.tasks[-1]
            if complete:            # a phase without a count shows a full bar when it is done
                self._progress.update(self._task, total=task.total or max(task.completed, 1),
                                      completed=task.total or max(task.completed, 1))
            self._progress.stop_task(self._task)
            self._task = None

    def note(self, line: str, err: bool = False) -> None:
        if self._running and (err or sys.stdout.isatty()):
            self.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            click.echo(line, err=err)

    def close(self, complete: bool = True) -> None:
        super().close(complete)
        if self._running:
            self._progress.stop()          # shows the cursor again, leaves the rows as they are
            self._running = False
            for task in list(self._progress.task_ids):      # printed: a restart shows only new rows
                self._progress.remove_task(task)


def make_display(quiet: bool = False) -> Display:
    """A live display when stderr is an interactive terminal (and not ``quiet``), else lines.
    ``PAPERLIST_PROGRESS_INTERVAL`` sets the seconds before the first line (default 10)."""
    console = Console(stderr=True)
    if not quiet and console.is_interactive:
        return LiveDisplay(console)
    try:
        interval = float(os.environ.get("PAPERLIST_PROGRESS_INTERVAL") or INTERVAL)
    except ValueError:
        interval = INTERVAL
    return LineDisplay(quiet=quiet, interval=interval)


@contextlib.contextmanager
def running(display: Display, kept: Callable[[], str]) -> Iterator[Display]:
    """Run a command's work on ``display``; on Ctrl-C stop the display (the terminal is left
    clean), say where it stopped and what was kept (``kept()``), and exit with 130."""
    try:
        with display:
            yield display
    except KeyboardInterrupt:
        click.echo(f"interrupted while {display.stopped_at}: {kept()}", err=True)
        sys.exit(130)


def steps(display: Display) -> StepProgress:
    """The derived steps' progress (topics, stats, index) on a display."""
    return display.update


def times_line(times: dict[str, float]) -> str:
    """"time:    files 41.2s  merge 30.1s  ...  total 2:43" for the summary."""
    parts = "  ".join(f"{p} {s:.1f}s" for p, s in times.items())
    total = sum(times.values())
    return f"time:    {parts}  (total {_clock(total) if total >= 60 else f'{total:.1f}s'})"
