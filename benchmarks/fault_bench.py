"""Kill -9 trials: does an interrupted `paperlist ingest` or `paperlist index`, run again, end
exactly where a clean run ends?

    .venv/bin/python benchmarks/fault_bench.py                      # the test fixtures, 20 + 20 trials
    .venv/bin/python benchmarks/fault_bench.py --data ../shared/data --trials 5 --home /tmp/h6

First one clean run of ``ingest DATA`` into an empty home (the reference). Then each ingest trial
starts ``ingest DATA`` into an empty home (or a copy of ``--home``), kills the main process with
SIGKILL at a random moment of the clean run's duration, checks that its worker processes exit
by themselves, runs the same command again to the end, and compares the home with the reference:
``paperlist stats --json``, a digest of every table (ordered; timestamps left out), the live
index's documents, and the index generations (only the live and the previous one may remain).
Index trials do the same with ``paperlist index`` on a copy of the reference home.

Prints one line per trial and, last, ``ingest: converged X/N ...`` and ``index: converged X/N``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))   # run as a script or imported by the tests
from proctree import children  # noqa: E402 - benchmarks/proctree.py

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
# columns that say when, not what: two clean runs differ in them
VOLATILE = {("papers", "updated_at"), ("files", "ingested_at"), ("files", "location")}
VOLATILE_META = {"created_at"}
# a progress line on stderr -> the phase it belongs to (loose: the wording may change)
# The line that shows a phase under way: a file read (its workers running), a block merged; the
# "reading files ..." and "merging 0/N" lines come as the phase starts, before any worker exists.
PHASES = {"parse": r"files \d+/\d+", "merge": r"merging [1-9]\d*/", "topics": r"topic", "stats": r"statistic",
          "index": r"index"}


# --- the state of a home --------------------------------------------------------------------------
def table_digests(db_path: Path) -> dict[str, str]:
    """Table name -> sha1 of its rows in a fixed order (without the VOLATILE columns)."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        out = {}
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        for t in tables:
            cols = [r[1] for r in conn.execute(f"PRAGMA table_info({t})") if (t, r[1]) not in VOLATILE]
            col_list = ", ".join(f'"{c}"' for c in cols)
            where = f" WHERE key NOT IN ({', '.join('?' * len(VOLATILE_META))})" if t == "meta" else ""
            args = sorted(VOLATILE_META) if t == "meta" else []
            h = hashlib.sha1()
            n = 0
            for row in conn.execute(f"SELECT {col_list} FROM {t}{where} ORDER BY {col_list}", args):  # noqa: S608
                h.update(repr(tuple(row)).encode())
                n += 1
            out[t] = f"{n}:{h.hexdigest()[:16]}"
        return out
    finally:
        conn.close()


def index_state(home: Path) -> dict[str, Any]:
    """The live index generation's document count and a digest of its documents, and the
    generations on disk beyond the live and the previous one."""
    import tantivy

    from paperlist.index import fulltext, generations

    root = fulltext.index_root(home)
    gen = fulltext.current_generation(root)
    found = root.iterdir() if root.is_dir() else iter(())
    dirs = sorted(d.name for d in found if d.is_dir() and d.name.startswith("g"))
    keep = {gen, generations.previous_generation(root, fulltext.INFO_FILE)}
    state: dict[str, Any] = {"generations": len(dirs), "leftover": [d for d in dirs if d not in keep]}
    if gen is None:
        return state | {"docs": None}
    index = fulltext.open_index(root / gen)
    index.reload()
    searcher = index.searcher()
    n = searcher.num_docs
    blobs = sorted(searcher.doc(addr)["doc"][0] for _, addr in
                   searcher.search(tantivy.Query.all_query(), limit=max(n, 1)).hits) if n else []
    ids = sorted(json.loads(b)["id"] for b in blobs)
    return state | {"docs": n, "ids": hashlib.sha1("\n".join(ids).encode()).hexdigest()[:16],
                    "content": hashlib.sha1(b"\n".join(blobs)).hexdigest()[:16]}


def home_state(home: Path) -> dict[str, Any]:
    stats = subprocess.run([sys.executable, "-m", "paperlist", "--home", str(home), "stats", "--json"],
                           capture_output=True, text=True, cwd=ROOT, check=True).stdout
    return {"stats": json.loads(stats), "tables": table_digests(home / "paperlist.db"),
            "index": index_state(home)}


def differences(got: dict[str, Any], want: dict[str, Any]) -> list[str]:
    """What differs between two home states (empty: the same), leftovers included."""
    out = []
    if got["stats"] != want["stats"]:
        out.append("stats " + ", ".join(f"{k} {got['stats'].get(k)} != {v}" for k, v in want["stats"].items()
                                        if got["stats"].get(k) != v))
    out += [f"table {t} {got['tables'].get(t)} != {d}" for t, d in want["tables"].items()
            if got["tables"].get(t) != d]
    gi, wi = got["index"], want["index"]
    out += [f"index {k} {gi.get(k)} != {wi.get(k)}" for k in ("docs", "ids", "content")
            if gi.get(k) != wi.get(k)]
    if gi["leftover"] or gi["generations"] > 2:
        out.append(f"index generations {gi['generations']}, leftover {gi['leftover']}")
    return out


# --- running and killing ----------------------------------------------------------------------------


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def command(home: Path, args: list[str]) -> list[str]:
    return [sys.executable, "-m", "paperlist", "--home", str(home), *args]


def env() -> dict[str, str]:
    return os.environ | {"PAPERLIST_PROGRESS_INTERVAL": "0", "HF_HUB_OFFLINE": "1"}


def run_killed(home: Path, args: list[str], after: float | None = None, phase: str | None = None,
               timeout: float = 600) -> dict[str, Any]:
    """Run ``paperlist --home HOME ARGS`` and SIGKILL its main process ``after`` seconds, or as soon
    as a progress line of ``phase`` appears on stderr. Returns whether it was killed (or exited
    first), and how many of its worker processes were still alive 5 s after the kill."""
    proc = subprocess.Popen(command(home, args), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=env(), start_new_session=True)
    assert proc.stderr is not None
    workers: set[int] = set()
    seen = threading.Event()
    pattern = re.compile(PHASES[phase]) if phase else None

    def read() -> None:
        assert proc.stderr is not None
        for raw in proc.stderr:
            if pattern is not None and pattern.search(raw.decode("utf-8", "replace")):
                workers.update(children(proc.pid))
                seen.set()
        seen.set()                                  # exited before the phase

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + (after if after is not None else timeout)
    while proc.poll() is None and time.monotonic() < deadline:
        workers.update(children(proc.pid))
        if phase and seen.wait(0.0):
            break
        time.sleep(0.002 if after is not None else 0.0005)
    killed = False
    if proc.poll() is None:
        workers.update(children(proc.pid))
        os.kill(proc.pid, signal.SIGKILL)
        killed = True
    proc.wait()
    end = time.monotonic() + 5.0
    while time.monotonic() < end and any(_alive(w) for w in workers):
        time.sleep(0.05)
    orphans = [w for w in workers if _alive(w)]
    for w in orphans:                               # never leave them behind, whatever the result
        try:
            os.kill(w, signal.SIGKILL)
        except ProcessLookupError:
            pass
    reader.join(timeout=5)
    proc.stderr.close()
    return {"killed": killed, "returncode": proc.returncode, "workers": len(workers), "orphans": len(orphans)}


def run_ok(home: Path, args: list[str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(command(home, args), cwd=ROOT, capture_output=True, text=True, env=env())
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} exited {proc.returncode}:\n{proc.stderr[-2000:]}")
    return time.perf_counter() - t0


def fresh_home(work: Path, name: str, start: Path | None) -> Path:
    home = work / name
    if home.exists():
        shutil.rmtree(home)
    if start is not None:
        shutil.copytree(start, home)
    return home


# --- the trials -----------------------------------------------------------------------------------
def trials(kind: str, n: int, args: list[str], want: dict[str, Any], duration: float, work: Path,
           start: Path | None, rng: random.Random, reuse: bool = False) -> int:
    """``n`` trials of ``args``, each on a fresh copy of ``start`` (or, with ``reuse``, all on one
    copy: each trial then starts where the one before converged)."""
    converged = orphans = killed = 0
    home = fresh_home(work, f"{kind}-trial", start)
    for i in range(1, n + 1):
        if i > 1 and not reuse:
            home = fresh_home(work, f"{kind}-trial", start)
        at = rng.uniform(0.0, duration)
        res = run_killed(home, args, after=at)
        run_ok(home, args)
        diff = differences(home_state(home), want)
        killed += res["killed"]
        orphans += res["orphans"]
        converged += not diff and not res["orphans"]
        what = "killed" if res["killed"] else f"exited {res['returncode']} first"
        print(f"{kind} trial {i:>2}: {what} at {at:5.2f}s, {res['workers']} workers ({res['orphans']} left)"
              f"  -> {'converged' if not diff else 'DIFFERS: ' + '; '.join(diff)}", flush=True)
    shutil.rmtree(home, ignore_errors=True)
    print(f"{kind}: converged {converged}/{n}  (killed {killed}/{n}, orphan workers {orphans})", flush=True)
    return converged


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=FIXTURES, help="What to ingest (default: tests/fixtures).")
    ap.add_argument("--trials", type=int, default=20, help="Trials per command (default 20).")
    ap.add_argument("--only", choices=("ingest", "index"), help="Only this command's trials.")
    ap.add_argument("--home", type=Path, default=None,
                    help="Start every trial from a copy of this home (never modified), not an empty one.")
    ap.add_argument("--jobs", type=int, default=2, help="ingest --jobs (default 2: worker processes).")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", type=Path, default=None, help="Folder for the homes (default: a temp dir).")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    work = a.work or Path(tempfile.mkdtemp(prefix="fault-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    ingest = ["ingest", "-q", "--jobs", str(a.jobs), str(a.data.resolve())]
    try:
        ref = fresh_home(work, "reference", a.home)
        duration = run_ok(ref, ingest)
        want = home_state(ref)
        print(f"reference: ingest {a.data} in {duration:.2f}s: {want['stats'].get('papers')} papers,"
              f" {want['index'].get('docs')} indexed", flush=True)
        if a.only != "index":
            trials("ingest", a.trials, ingest, want, duration, work, a.home, rng)
        if a.only != "ingest":
            t_index = run_ok(ref, ["index", "-q"])
            want = home_state(ref)
            print(f"reference: index in {t_index:.2f}s", flush=True)
            # `index` writes only the index: every trial on one copy of the reference home
            trials("index", a.trials, ["index", "-q"], want, t_index, work, ref, rng, reuse=True)
    finally:
        if a.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
