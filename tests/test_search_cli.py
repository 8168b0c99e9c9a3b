"""`paperlist search`: text and JSON output, batches in order, options, help, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from paperlist.cli import main

from .conftest import run_cli


def test_text_output(search_home: Path) -> None:
    r = run_cli(search_home, "search", "graph", "neural", "networks", "molecule", "-n", "3")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "results for \"graph neural networks molecule\"" in lines[0]
    assert "1. Graph Neural Networks for Molecule Generation" in lines[1]
    assert "Yoshua Bengio, Emmanuel Bengio · NeurIPS 2023 · spotlight" in lines[2]
    assert any(line.startswith("venues:") for line in lines)


def test_text_output_shows_suggestions_and_browse(search_home: Path) -> None:
    assert "did you mean: diffusion" in run_cli(search_home, "search", "difusion").stdout
    out = run_cli(search_home, "search", "--venue", "nips", "--year", "2017", "--status", "oral").stdout
    assert "(browse)" in out and "Attention Is All You Need" in out and "Deep Sets" in out


def test_json_output(search_home: Path) -> None:
    r = run_cli(search_home, "search", "diffusion", "--venue", "iclr", "--year", "2020..2024", "--json")
    d = json.loads(r.stdout)
    assert d["total"] == 1 and d["hits"][0]["title"] == "Diffusion Policies for Robot Manipulation"
    assert d["request"]["venues"] == ["iclr"] and d["request"]["year_from"] == 2020
    assert "<mark>Diffusion</mark>" in d["hits"][0]["title_html"] and d["facets"]["venue"]


@pytest.mark.parametrize("sort", ["newest", "oldest", "title", "citations"])
def test_sort_and_page_options(search_home: Path, sort: str) -> None:
    d = json.loads(run_cli(search_home, "search", "learning", "--sort", sort, "--limit", "2", "--page", "2",
                           "--json").stdout)
    assert d["request"]["sort"] == sort and d["request"]["page"] == 2 and len(d["hits"]) == 2


def test_batch_prints_one_json_line_per_query_in_order(search_home: Path) -> None:
    queries = ["attention is all you need", "", '"unbalanced', "xqzzvk", "author:bengio", "deep sets"]
    r = CliRunner().invoke(main, ["--home", str(search_home), "search", "--batch", "-", "--limit", "2"],
                           input="\n".join(queries) + "\n", catch_exceptions=False)
    assert r.exit_code == 0
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [row["q"] for row in rows] == queries
    assert rows[0]["hits"][0]["title"] == "Attention Is All You Need" and len(rows[0]["hits"]) == 2
    assert set(rows[0]["hits"][0]) == {"id", "title", "authors", "venue", "year", "status"}
    assert rows[3]["total"] == 0 and rows[3]["hits"] == []
    assert rows[5]["hits"][0]["year"] == 2023


def test_batch_from_a_file_with_filters(search_home: Path, tmp_path: Path) -> None:
    f = tmp_path / "q.txt"
    f.write_text("transformers\nlanguage models\n", encoding="utf-8")
    r = run_cli(search_home, "search", "--batch", str(f), "--year", "2024", "--json")
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(rows) == 2 and all(h["year"] == 2024 for row in rows for h in row["hits"])


@pytest.mark.parametrize("args, message", [
    (["x", "--year", "20x4"], "bad --year"),
    (["x", "--batch", "-"], "either QUERY or --batch"),
])
def test_bad_options_fail_with_one_line(search_home: Path, args: list[str], message: str) -> None:
    r = run_cli(search_home, "search", *args)
    assert r.exit_code == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_limit_is_capped(search_home: Path) -> None:
    r = run_cli(search_home, "search", "x", "--limit", "101")
    assert r.exit_code == 2


def test_no_index_yet(tmp_path: Path) -> None:
    r = run_cli(tmp_path, "search", "anything")
    assert r.exit_code == 2 and "paperlist index" in r.stderr


@pytest.mark.parametrize("cmd, words", [
    ("search", ["author:", "venue:", "year:2020..2024", "status:", '"', "-", "--batch", "family:acl"]),
    ("index", ["generation", "atomically"]),
])
def test_help_documents_the_command(tmp_path: Path, cmd: str, words: list[str]) -> None:
    r = run_cli(tmp_path, cmd, "--help")
    assert r.exit_code == 0 and all(w in r.stdout for w in words)
