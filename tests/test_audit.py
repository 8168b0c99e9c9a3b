"""benchmarks/audit.py on a home of the papercopilot fixtures: its figures have their shape, and a
paper whose shown title no record gives is counted as a title error (the audit can fail)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.conftest import PAPERCOPILOT, run_cli

ROOT = Path(__file__).resolve().parents[1]
FIELDS = {"title", "authors", "author_order", "year", "venue", "status", "links", "bibtex"}


def audit(home: Path) -> dict:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "audit.py"), "--home", str(home),
                          "--n", "50", "--json", "--failures"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, check=True)
    return json.loads(out.stdout)


def test_audit_counts_a_corrupted_title(tmp_path: Path) -> None:
    home = tmp_path / "home"
    r = run_cli(home, "ingest", "-q", "--no-index", str(PAPERCOPILOT))
    assert r.exit_code == 0, r.output
    before = audit(home)
    assert set(before["sources"]) == {"papercopilot"}
    row = before["sources"]["papercopilot"]
    assert set(row) == FIELDS and set(before["total"]) == FIELDS
    assert all(0 <= x["errors"] <= x["n"] <= 50 for x in row.values())
    assert row["title"]["n"] == before["papers"] > 0 and row["title"]["errors"] == 0

    db = sqlite3.connect(home / "paperlist.db")
    pid = db.execute("SELECT id FROM papers ORDER BY id LIMIT 1").fetchone()[0]
    db.execute("UPDATE papers SET title = 'A Title No Source Gives', title_plain = NULL WHERE id = ?", (pid,))
    db.commit()
    db.close()
    after = audit(home)["sources"]["papercopilot"]["title"]
    assert after["errors"] == 1
    assert [f["paper"] for f in after["failures"]] == [pid]
