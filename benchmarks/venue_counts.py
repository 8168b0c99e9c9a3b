"""Papers per venue-year of a store, saved or compared with a saved copy: what a new source
changed (which venue-years grew or shrank, which are new).

    .venv/bin/python benchmarks/venue_counts.py --home /tmp/before --save /tmp/before.json
    .venv/bin/python benchmarks/venue_counts.py --home /tmp/after --compare /tmp/before.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paperlist.store import Store


def counts(home: Path) -> dict[str, int]:
    store = Store(home / "paperlist.db", readonly=True)
    return {f"{r['venue']} {r['year']}": r["papers"] for r in store.coverage()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", required=True, type=Path)
    ap.add_argument("--save", type=Path, help="write the counts to this JSON file")
    ap.add_argument("--compare", type=Path, help="compare with counts saved earlier")
    args = ap.parse_args()
    now = counts(args.home)
    if args.save:
        args.save.write_text(json.dumps(now, indent=1, sort_keys=True))
        print(f"{len(now)} venue-years, {sum(now.values()):,} papers -> {args.save}")
    if not args.compare:
        return
    before: dict[str, int] = json.loads(args.compare.read_text())
    changed = [(k, before[k], now.get(k, 0)) for k in sorted(before) if now.get(k, 0) != before[k]]
    print("venue-years present before whose count changed (before -> now):")
    for k, b, n in changed:
        pct = 100 * (n - b) / b
        print(f"  {k:<20} {b:>7,} -> {n:>7,}  {pct:+.2f}%{'  (over 1%)' if abs(pct) >= 1 else ''}")
    if not changed:
        print("  none")
    fresh = {k: n for k, n in now.items() if k not in before}
    print(f"new venue-years: {len(fresh)}, {sum(fresh.values()):,} papers")
    for k in sorted(fresh):
        print(f"  {k:<20} {fresh[k]:>7,}")
    print(f"total {sum(before.values()):,} -> {sum(now.values()):,} papers")


if __name__ == "__main__":
    main()
