"""The embed command: vectors for semantic search and similar papers (optional extra)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from ..index.encoder import DEFAULT_MAX_TOKENS, SemanticUnavailable, missing_reason
from ..service import refresh as refresh_derived
from .common import catch_store_errors, current_home, echo_json, fail, home_dir, open_store, with_home
from .progress import make_display, running, steps, times_line
from .topics import derived_report

if TYPE_CHECKING:                   # the embedding code is imported when a run starts, not for --help
    from ..index.embed import EmbedReport
    from ..service.derived import DerivedReport


@click.command("embed")
@click.option("--max-tokens", type=click.IntRange(16, 512), default=DEFAULT_MAX_TOKENS, show_default=True,
              help="Word pieces embedded per paper (title first, then the abstract). Cost grows with it.")
@click.option("--batch-size", type=click.IntRange(1, 4096), default=256, show_default=True,
              help="Texts per batch; each finished batch is saved at once.")
@click.option("--max-batches", type=click.IntRange(0, None), default=None,
              help="Stop after this many batches (a trial run; run again to continue).")
@click.option("--publish/--no-publish", default=True, show_default=True,
              help="Publish the vectors for searching at the end (also after --max-batches).")
@click.option("--threads", type=click.IntRange(1, 64), default=None, help="CPU threads for the model.")
@click.option("--topics/--no-topics", "refresh", default=True, show_default=True,
              help="After publishing, reassign topics (vectors are evidence) and rebuild the index.")
@click.option("--background", is_flag=True,
              help="Run as the site's background job (what `serve --embed` starts): idle CPU priority, "
                   "partial generations published on the way, progress in HOME/vectors/JOB.json and a "
                   "log line a minute instead of the display.")
@click.option("--parent-pid", type=int, default=None, hidden=True,
              help="(--background) Stop when this process, the server that started the job, is gone.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@with_home
@catch_store_errors
def embed_cmd(max_tokens: int, batch_size: int, max_batches: int | None, publish: bool, threads: int | None,
              refresh: bool, background: bool, parent_pid: int | None, as_json: bool, quiet: bool) -> None:
    """Embed papers (title and abstract) for semantic search and similar papers.

    Needs the semantic extra: pip install 'paperlist[semantic]'. Incremental and resumable:
    vectors are cached by a hash of the text, so only new or changed papers are embedded; each
    batch is saved as it finishes, so Ctrl-C (or SIGTERM) loses at most one batch and running the
    command again continues. Newest papers are embedded first. At the end the vectors are
    published under HOME/vectors/ (switched atomically) for `paperlist serve` and search, and
    topics are reassigned with the vectors as evidence, then the search index rebuilt to carry
    them (both skipped when already current; --no-topics skips them). The encoder runs in
    bfloat16 where the CPU computes in it natively (about twice as fast, vectors within cosine
    0.9999 of float32's); PAPERLIST_ENCODER_PRECISION=float32 forces float32.
    """
    from ..index.embed import embed
    from ..index.encoder import Encoder

    reason = missing_reason()
    if reason:
        fail(f"semantic search is unavailable: {reason}")
    if background:
        _background(threads, batch_size, parent_pid)
        return
    store = open_store()
    try:
        enc = Encoder(max_tokens, threads=threads)
    except SemanticUnavailable as e:
        fail(f"semantic search is unavailable: {e}")
        return
    display = make_display(quiet or as_json)
    with running(display, lambda: "finished batches are saved, published vectors and topics are kept; "
                                  "run the same command again to continue"):
        rep = embed(store, home_dir(), max_tokens=max_tokens, batch_size=batch_size, max_batches=max_batches,
                    progress=lambda done, total, _seconds: display.update("embed", done, total),
                    do_publish=publish, encoder=enc)
        derived = None
        if refresh and rep.generation and not rep.interrupted:
            # the vectors are topic evidence, and the index carries the topics; the store exists
            # (the read-only open above succeeded)
            derived = refresh_derived(current_home(), open_store(readonly=False), force=False,
                                      progress=steps(display))
    if as_json:
        out = rep.to_dict()
        derived_report(out, derived, True)
        echo_json(out)
    else:
        _print_report(rep, derived, max_tokens, display.times)
    sys.exit(130 if rep.interrupted else 0)


def _print_report(rep: EmbedReport, derived: DerivedReport | None, max_tokens: int,
                  times: dict[str, float]) -> None:
    """The run as text: papers embedded, the encoding rate, what was published, the steps after."""
    click.echo(f"papers:   {rep.papers:,}  cached {rep.cached:,}  embedded {rep.embedded:,}  "
               f"remaining {rep.remaining:,}")
    click.echo(f"encoding: {rep.rate:.1f} texts/s  (max {max_tokens} tokens, "
               f"{rep.precision or 'nothing to encode'})  total {rep.seconds:.1f}s")
    if rep.generation:
        click.echo(f"vectors:  {rep.published:,} published -> {rep.generation}")
    derived_report({}, derived, False, timed=not times)
    if times:
        click.echo(times_line(times))
    if rep.interrupted:
        click.echo("interrupted: finished batches are saved; run the same command again to continue",
                   err=True)


def _background(threads: int | None, batch_size: int, parent_pid: int | None) -> None:
    """``--background``: the job of ``service.embedding``, its progress as log lines."""
    from ..index.encoder import Encoder
    from ..service.embedding import AlreadyRunning, idle_priority, run_job

    priority = idle_priority()          # before torch starts its threads: they inherit it

    def log(line: str) -> None:
        click.echo(f"paperlist embed: {line}", err=True)

    try:
        enc = Encoder(threads=threads)
        log(f"started at {priority} CPU priority ({enc.precision})")
        job = run_job(current_home(), log, parent=parent_pid, encoder=enc, batch_size=batch_size)
    except AlreadyRunning as e:
        log(f"{e}; leaving it to finish")
        return
    except SemanticUnavailable as e:
        fail(f"semantic search is unavailable: {e}")
    except KeyboardInterrupt:
        log("stopped; finished batches are kept, the next start continues")
        sys.exit(130)
    sys.exit(0 if job.state == "done" else 130)
