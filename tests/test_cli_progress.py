"""What long commands print: outside a terminal a few lines and a report file of every skipped
record; ``--verbose`` restores the per-file lines; ``--json`` is unchanged; in a terminal (a real
pty around the real CLI) a live progress display redrawn in place, and a clean terminal after Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from paperlist.cli.ingest_summary import IngestProgress
from paperlist.cli.progress import Display, LineDisplay, steps
from paperlist.ingest import FileReport, IngestReport
from paperlist.reports import write_ingest_report
from paperlist.service import Home, derived
from paperlist.store import Store

from .conftest import PAPERCOPILOT, shared_data
from .curated_util import write_lists

BAD_RECORDS = [{"title": "Good One", "author": "A B"}, {"author": "No Title"}, {"title": ["not", "text"]},
               {"title": "Good Two", "author": 7}]
PER_FILE = re.compile(r"^(ingested|unchanged|ignored|failed) ", re.M)


def _cli() -> list[str]:
    exe = Path(sys.executable).parent / "paperlist"
    return [str(exe)] if exe.exists() else [sys.executable, "-c", "from paperlist.cli import main; main()"]


def _run(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*_cli(), "--home", str(home), *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Two paper lists (one with three bad records, one good) and a file that is not a paper list."""
    d = tmp_path / "lists"
    d.mkdir()
    (d / "icml2020.json").write_text(json.dumps(BAD_RECORDS))
    shutil.copy(PAPERCOPILOT / "kdd" / "kdd2024.json", d)
    (d / "notes.json").write_text('{"what": "not a paper list"}')
    return d


def _report(output: str) -> list[dict[str, str]]:
    m = re.search(r"^report:  (\S+\.jsonl)", output, re.M)
    assert m, output
    return [json.loads(line) for line in Path(m.group(1)).read_text().splitlines()]


def test_non_terminal_ingest_is_a_few_lines_and_a_report_of_every_skipped_record(tmp_path: Path,
                                                                              folder: Path) -> None:
    r = _run(tmp_path / "home", "ingest", str(folder))
    assert r.returncode == 0, r.stderr
    out = r.stdout + r.stderr
    assert len(out.splitlines()) <= 12, out
    assert not re.search(r"^(ingested|unchanged) ", out, re.M) and "\r" not in out and "\x1b" not in out
    assert "records: new 2  updated 0  unchanged 0  removed 0  skipped 3" in r.stdout
    assert re.search(r"^papercopilot +2 +2 +0 +0 +0 +3$", r.stdout, re.M)      # the per-source table
    assert "ignored   " in r.stdout and "notes.json: unrecognized file format" in r.stdout
    assert re.search(r"^time:    files \d+\.\ds  merge \d+\.\ds  topics \d+\.\ds  stats \d+\.\ds"
                     r"  lists \d+\.\ds  index \d+\.\ds", r.stdout, re.M)
    # one time per phase, measured once (issue 45: "stats: … in 13.8s" and "time: … stats 145.3s"
    # named two clocks over different spans)
    assert not re.search(r"^(files|topics|stats|index): .* in \d+\.\ds", r.stdout, re.M), r.stdout
    rows = _report(r.stdout)
    bad = str(folder / "icml2020.json")
    assert [(x["kind"], x["file"], x["reason"]) for x in rows if x["kind"] == "skipped"] == [
        ("skipped", bad, "record 1: record has no title"),
        ("skipped", bad, "record 2: 'title' should be text, found a list"),
        ("skipped", bad, "record 3: 'author' should be text or a list of names, found a number")]
    assert [x["file"] for x in rows if x["kind"] == "ignored"] == [str(folder / "notes.json")]


def test_each_phase_is_timed_once_and_the_phases_are_the_whole_run(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 45: "stats: … in 13.8s" and then "time: … stats 145.3s" were two clocks over different
    spans under one name. The summary's "time:" line is now the only clock: its phases follow one
    another with no gap and no overlap, so each agrees with what its step measures of itself and
    together they are the run. Reading the curated lists is slowed here: it is a phase of its own,
    not hidden in the merge's time."""
    read_lists = derived.read_lists

    def slow_read(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.5)
        return read_lists(*args, **kwargs)

    monkeypatch.setattr(derived, "read_lists", slow_read)
    data = tmp_path / "data"
    shutil.copytree(PAPERCOPILOT, data / "papercopilot")
    write_lists(data)
    (tmp_path / "home").mkdir()
    display = Display()                  # the displays' clock, without their output
    t0 = time.perf_counter()
    rep, built = derived.ingest(Home(tmp_path / "home"), [str(data)], progress=IngestProgress(display),
                                step_progress=steps(display), jobs=1)
    display.close()
    wall = time.perf_counter() - t0
    t = display.times
    assert list(t) == ["files", "merge", "curated", "topics", "stats", "lists", "index"]
    assert built is not None and built.lists is not None and rep.lists is not None

    def agree(phase: float, own: float) -> bool:
        return abs(phase - own) <= 0.15 + 0.1 * own

    assert agree(t["files"] + t["merge"], rep.seconds), (t, rep.seconds)
    assert agree(t["curated"], 0.5 + rep.lists.seconds), (t, rep.lists.seconds)
    for phase, own in (("topics", built.topics), ("stats", built.stats), ("lists", built.lists),
                       ("index", built.index)):
        assert agree(t[phase], own.seconds), (phase, t, own.seconds)
    assert agree(sum(t.values()), wall), (t, wall)


def test_verbose_restores_the_per_file_lines(tmp_path: Path, folder: Path) -> None:
    r = _run(tmp_path / "home", "ingest", "--verbose", str(folder))
    assert r.returncode == 0, r.stderr
    lines = PER_FILE.findall(r.stdout)
    assert lines.count("ingested") == 2 and "ignored" in lines, r.stdout     # (the summary names ignored too)
    assert f"skipped {folder / 'icml2020.json'}: record 1: record has no title" in r.stderr
    again = _run(tmp_path / "home", "ingest", "-v", str(folder))
    assert PER_FILE.findall(again.stdout).count("unchanged") == 2
    assert not PER_FILE.findall(_run(tmp_path / "home", "ingest", str(folder)).stdout.replace("ignored", ""))


def test_failures_are_named_and_the_exit_code_says_so(tmp_path: Path, folder: Path) -> None:
    (folder / "nips2020.json").write_bytes(b"{not json")
    r = _run(tmp_path / "home", "ingest", str(folder))
    assert r.returncode == 1
    failed = [ln for ln in r.stderr.splitlines() if ln.startswith("failed")]
    assert failed == [f"failed    {folder / 'nips2020.json'}: not valid JSON"] or (
        len(failed) == 1 and "nips2020.json" in failed[0] and "not valid JSON" in failed[0])
    assert "files:   4 (1 failed)" in r.stdout
    assert [x["file"] for x in _report(r.stdout) if x["kind"] == "failed"] == [str(folder / "nips2020.json")]


def test_json_keeps_its_shape_and_the_report_keeps_every_record(tmp_path: Path) -> None:
    d = tmp_path / "many"
    d.mkdir()
    records = [{"title": "Kept", "author": "A B"}] + [{"x": i} for i in range(25)]
    (d / "icml2021.json").write_text(json.dumps(records))
    r = _run(tmp_path / "home", "ingest", "--json", str(d))
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)                   # nothing but the JSON on stdout, nothing on stderr
    assert r.stderr == ""
    assert set(rep) >= {"files", "totals", "papers", "failed", "blocks_merged", "seconds", "index"}
    assert rep["totals"]["skipped"] == 25 and len(rep["files"][0]["problems"]) == 20
    reports = list((tmp_path / "home" / "reports").glob("ingest-*.jsonl"))
    assert len(reports) == 1 and len(reports[0].read_text().splitlines()) == 25


def test_reports_are_rotated(tmp_path: Path) -> None:
    rep = IngestReport(files=[FileReport("a.json", "failed", error="broken")])
    paths = [write_ingest_report(tmp_path, rep, keep=3) for _ in range(5)]
    kept = list((tmp_path / "reports").glob("ingest-*.jsonl"))
    assert len(kept) == 3 and paths[-1] in kept and paths[-2] in kept
    assert json.loads(kept[0].read_text()) == {"kind": "failed", "file": "a.json", "source": None,
                                               "key": None, "reason": "broken"}
    assert write_ingest_report(tmp_path, IngestReport()) is None        # nothing set aside: no file


def test_line_progress_prints_every_few_seconds_not_per_item(capsys: pytest.CaptureFixture[str]) -> None:
    display = LineDisplay(interval=0.05)
    t0 = time.perf_counter()
    n = 0
    while time.perf_counter() - t0 < 0.4:
        n += 1
        display.update("files", n, 10**9)
    display.close()
    lines = capsys.readouterr().err.splitlines()
    assert 1 <= len(lines) <= 5 < n                    # gaps of 0.05, 0.1, 0.2 s ...
    assert re.fullmatch(r"  reading files [\d,]+/1,000,000,000 files +\d+%  [\d,.]+/s  ETA [\d:]+", lines[0])
    assert set(display.times) == {"files"}


def test_a_slow_phase_still_prints_at_most_a_few_lines(capsys: pytest.CaptureFixture[str]) -> None:
    """However slow the machine, a phase's progress lines are capped: a loaded run of run.sh
    printed 48 lines before serving (the target is 40); each phase now adds at most two."""
    from paperlist.cli.progress import LINES_PER_PHASE

    display = LineDisplay(interval=0.001)
    for phase in ("files", "merge"):
        t0 = time.perf_counter()
        n = 0
        while time.perf_counter() - t0 < 0.3:
            n += 1
            display.update(phase, n, 10**9)
    display.close()
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 * LINES_PER_PHASE, lines


# --- a real terminal: a pty around the real CLI ---------------------------------------------------

def _in_pty(args: list[str], interrupt_when: bytes | None = None) -> tuple[int, bytes]:
    """Run the CLI with a pty as its terminal; with ``interrupt_when``, press Ctrl-C (SIGINT to its
    process group, as a terminal does) once the output shows those bytes."""
    master, slave = os.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40"}
    env.pop("NO_COLOR", None)
    # SIGINT as a terminal's child gets it: a harness that runs the tests in the background (a
    # shell without job control) hands its children SIGINT ignored, and Python keeps that
    proc = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509
    os.close(slave)
    out, sent, deadline = b"", False, time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:           # EIO: the child closed the terminal
                    break
                if not chunk:
                    break
                out += chunk
            elif proc.poll() is not None:
                break
            if interrupt_when and not sent and re.search(interrupt_when, out):
                os.killpg(proc.pid, signal.SIGINT)
                sent = True
        return proc.wait(timeout=60), out
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()


def test_a_terminal_shows_one_progress_display_redrawn_in_place(tmp_path: Path, folder: Path) -> None:
    shutil.copytree(PAPERCOPILOT, folder / "papercopilot")
    rc, out = _in_pty([*_cli(), "--home", str(tmp_path / "home"), "ingest", str(folder)])
    assert rc == 0, out
    text = out.decode()
    assert "\x1b[?25l" in text and "\x1b[?25h" in text               # cursor hidden, then shown again
    live, summary = text.rsplit("\x1b[?25h", 1)
    assert "\r" in live and ("\x1b[1A" in live or "\x1b[2K" in live)  # redrawn in place
    for phase in ("reading files", "merging", "assigning topics", "indexing"):
        assert phase in live
    assert "records: new" in summary and "report:  " in summary and "Traceback" not in text
    assert not PER_FILE.search(summary.replace("ignored", ""))


def test_ctrl_c_in_a_terminal_leaves_it_clean_and_says_what_was_kept(tmp_path: Path) -> None:
    data = shared_data("papercopilot")
    home = tmp_path / "home"
    rc, out = _in_pty([*_cli(), "--home", str(home), "ingest", "-j", "1", str(data)],
                      interrupt_when=rb"reading files .*\b[1-9]\d*/\d+")
    text = out.decode()
    assert rc == 130, text
    m = re.search(r"interrupted while reading files \(([\d,]+)/[\d,]+ files\): ([\d,]+) files are stored",
                  text)
    assert m, text[-2000:]
    assert text.rindex("\x1b[?25h") < text.index("interrupted while")  # the cursor is back before the message
    assert "Traceback" not in text
    stored = int(m.group(2).replace(",", ""))
    kept = Store(home / "paperlist.db", readonly=True).file_versions()     # the next run skips these
    assert len(kept) >= stored > 0


def test_failed_downloads_are_named_once_per_reason() -> None:
    """Offline, every one of 670 downloads fails alike: a few are named, the rest counted."""
    from paperlist.cli.data import failure_lines

    failed = [f"https://example.org/{i}.json: [Errno -2] Name or service not known" for i in range(670)]
    failed.append("https://example.org/x.json: HTTP 404")
    lines = failure_lines(failed)
    assert len(lines) == 5 + 1 + 1
    assert lines[5] == "failed    … and 665 more downloads: [Errno -2] Name or service not known"
    assert lines[-1] == "failed    https://example.org/x.json: HTTP 404"
