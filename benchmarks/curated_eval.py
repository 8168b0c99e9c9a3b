"""The curated reading lists' signal switched off, on with one list in five held out, and on in
full, side by side in one run: topical quality (benchmarks/topical_eval.py: nDCG@10 en and zh,
P@10, canonical works in the top 10) and known-item hit@1 (benchmarks/search_eval.py, seeds 7,
11 and 23), each system over the same store.

The signal is fixed when an index is built (``PAPERLIST_CURATED``, curated/signal.py), so each
system is a home: the same store (hard-linked) with its own index. ``--prepare`` makes the homes
``<out>/off``, ``<out>/heldout`` and ``<out>/all`` beside a home whose store has the lists matched
(its index is rebuilt in each, a few minutes each):

    .venv/bin/python benchmarks/curated_eval.py --home /tmp/hc --out /tmp/curated-eval --prepare
    .venv/bin/python benchmarks/curated_eval.py --out /tmp/curated-eval [--workdir /tmp/te]

The held-out lists (one in five, by a hash of the name: ``signal.held_out``) were chosen before
any result was seen; the judged queries were written before the lists were read.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MODES = ("off", "heldout", "all")
SEEDS = (7, 11, 23)
_OVERALL = re.compile(r"^overall\s+\d+\s+([\d.]+)", re.M)


def prepare(home: Path, out: Path) -> None:
    """A home per mode: the store hard-linked (read only here), the index built with the mode."""
    exe = Path(sys.executable).parent / "paperlist"
    for mode in MODES:
        dest = out / mode
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir(parents=True)
        os.link(home / "paperlist.db", dest / "paperlist.db")
        for extra in ("topics-textprobe.pickle",):
            if (home / extra).exists():
                shutil.copy(home / extra, dest / extra)
        env = {**os.environ, "PAPERLIST_CURATED": mode}
        subprocess.run([str(exe), "--home", str(dest), "index", "--full", "--quiet"], env=env, check=True)


def topical(home: Path, workdir: Path) -> dict[str, Any]:
    r = subprocess.run([sys.executable, str(HERE / "topical_eval.py"), "--home", str(home), "--workdir",
                        str(workdir), "--json"], capture_output=True, text=True, check=True)
    out: dict[str, Any] = orjson.loads(r.stdout)
    return out


def hit_at_1(home: Path, seed: int) -> float:
    r = subprocess.run([sys.executable, str(HERE / "search_eval.py"), "--home", str(home),
                        "--seed", str(seed)], capture_output=True, text=True, check=True)
    m = _OVERALL.search(r.stdout)
    if m is None:
        raise SystemExit(f"search_eval printed no overall line for {home}:\n{r.stdout[-500:]}")
    return float(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, help="with --prepare: the home whose store has the lists matched")
    ap.add_argument("--out", type=Path, required=True, help="where the three homes are (or go)")
    ap.add_argument("--prepare", action="store_true", help="build the three homes first")
    ap.add_argument("--workdir", type=Path, default=None, help="topical_eval's BM25 baseline index (reused)")
    args = ap.parse_args()
    if args.prepare:
        if args.home is None:
            ap.error("--prepare needs --home")
        prepare(args.home, args.out)
    workdir = args.workdir or args.out / "bm25"
    rows: dict[str, tuple[dict[str, Any], list[float]]] = {}
    for mode in MODES:
        rows[mode] = (topical(args.out / mode, workdir), [hit_at_1(args.out / mode, s) for s in SEEDS])
    print(f"curated lists' signal, {args.out}: topical_eval (72 queries) and search_eval (seeds {SEEDS})")
    print(f"{'signal':<8} {'nDCG en':>8} {'nDCG zh':>8} {'P@10':>6} {'canonical en':>13} {'canonical zh':>13}"
          f" {'unjudged':>9} {'hit@1 7 / 11 / 23':>20} {'p99 ms':>7}")
    for mode in MODES:
        t, hits = rows[mode]
        en, zh, al = t["en"]["ours"], t["zh"]["ours"], t["all"]["ours"]
        print(f"{mode:<8} {en['ndcg@10']:>8.3f} {zh['ndcg@10']:>8.3f} {al['p@10']:>6.3f}"
              f" {en['canonical']:>13} {zh['canonical']:>13} {al['unjudged']:>9}"
              f" {' / '.join(f'{h:.3f}' for h in hits):>20}"
              f" {t['ours_ms']['p99']:>7.1f}")


if __name__ == "__main__":
    main()
