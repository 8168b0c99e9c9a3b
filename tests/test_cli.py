"""The command line: help texts, JSON outputs, the data directory, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import PAPERCOPILOT, run_cli

COMMANDS = ["ingest", "merge", "stats", "venues", "show", "export", "mcp", "serve", "search", "coverage",
            "doctor", "resolve"]


@pytest.mark.parametrize("cmd", COMMANDS)
def test_every_command_has_help(tmp_path: Path, cmd: str) -> None:
    r = run_cli(tmp_path, cmd, "--help")
    assert r.exit_code == 0 and "Usage:" in r.stdout and len(r.stdout.splitlines()) > 4


def test_top_level_help_lists_commands(tmp_path: Path) -> None:
    r = run_cli(tmp_path, "--help")
    assert all(c in r.stdout for c in COMMANDS)


@pytest.fixture(scope="module")
def cli_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("cli")
    r = run_cli(home, "ingest", "-q", str(PAPERCOPILOT))
    assert r.exit_code == 0, r.stderr
    return home


def test_stats_json(cli_home: Path) -> None:
    s = json.loads(run_cli(cli_home, "stats", "--json").stdout)
    assert {"papers", "venues", "venue_years", "authors", "accepted", "with_abstract"} <= set(s)
    assert s["papers"] == 16 and s["with_abstract"] == 3 and s["venue_years"] == 9


def test_venues_json_and_text(cli_home: Path) -> None:
    rows = json.loads(run_cli(cli_home, "venues", "--json").stdout)
    neurips = next(r for r in rows if r["key"] == "neurips")
    assert neurips["short"] == "NeurIPS" and neurips["field"] == "ml" and "nips" in neurips["aliases"]
    assert neurips["papers"] == 3 and neurips["years"] == [2018]
    foobar = next(r for r in rows if r["key"] == "foobar")
    assert foobar["known"] is False and foobar["short"] == "FOOBAR"
    text = run_cli(cli_home, "venues").stdout
    assert "NeurIPS" in text and "Machine Learning" in text
    assert len(json.loads(run_cli(cli_home, "venues", "--json", "--all").stdout)) > len(rows)


def test_show_text_and_json(cli_home: Path) -> None:
    r = run_cli(cli_home, "show", "11127")
    assert r.exit_code == 0 and "Lijun Zhang, Zhi-Hua Zhou" in r.stdout and "NeurIPS 2018" in r.stdout
    d = json.loads(run_cli(cli_home, "show", "11127", "--json").stdout)
    assert d["venue"] == "neurips" and d["authors"][1]["key"] == "zhihua-zhou"
    assert (run_cli(cli_home, "show", d["id"], "--json").stdout
            == run_cli(cli_home, "show", "11127", "--json").stdout)


def test_show_unknown_id(cli_home: Path) -> None:
    r = run_cli(cli_home, "show", "no-such-paper")
    assert r.exit_code == 1 and r.stderr.strip() == "error: no paper with id 'no-such-paper'"


def test_reading_commands_without_a_store(tmp_path: Path) -> None:
    r = run_cli(tmp_path / "empty", "stats")
    assert r.exit_code == 2 and "no store in" in r.stderr and "Traceback" not in r.stderr


def test_console_script_and_paperlist_home(tmp_path: Path) -> None:
    """The installed `paperlist` entry point, with the data directory from $PAPERLIST_HOME."""
    env = {**os.environ, "PAPERLIST_HOME": str(tmp_path / "h")}
    exe = Path(sys.executable).with_name("paperlist")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-c", "from paperlist.cli import main; main()"]
    r = subprocess.run([*cmd, "ingest", "-q", str(PAPERCOPILOT / "kdd")], env=env, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([*cmd, "stats", "--json"], env=env, capture_output=True, text=True)
    assert json.loads(r.stdout)["papers"] == 1
    assert (tmp_path / "h" / "paperlist.db").exists()


def test_mcp_needs_a_store(tmp_path: Path) -> None:
    r = run_cli(tmp_path / "empty", "mcp")
    assert r.exit_code == 2 and "no store" in r.stderr


def test_embed_refuses_an_unknown_encoder_precision(cli_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERLIST_ENCODER_PRECISION", "fp8")
    r = run_cli(cli_home, "embed", "--max-batches", "0")
    assert (r.exit_code == 2
            and "PAPERLIST_ENCODER_PRECISION='fp8' is not one of: auto, float32, bfloat16" in r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1 and not (cli_home / "vectors").exists()
