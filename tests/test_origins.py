"""Where the corpus comes from: the shared folder, or the public repositories (served here by a
real local HTTP server laid out like GitHub's API and raw file hosts)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from paperlist import origins

from .conftest import FIXTURES, PAPERCOPILOT, run_cli, serve_dir


def fake_github(root: Path) -> None:
    """Two origins: papercopilot (listing + files) and mlanthology (listing only: files 404)."""
    trees = root / "repos" / "papercopilot" / "paperlists" / "git" / "trees"
    trees.mkdir(parents=True)
    (trees / "main").write_text(json.dumps({"tree": [
        {"path": "nips/nips2018.json", "type": "blob"}, {"path": "README.md", "type": "blob"},
        {"path": "kdd/kdd2024.json", "type": "blob"}, {"path": "nips/extra.json", "type": "blob"},
        {"path": "nips", "type": "tree"}]}))
    raw = root / "papercopilot" / "paperlists" / "main"
    shutil.copytree(PAPERCOPILOT / "nips", raw / "nips")
    shutil.copytree(PAPERCOPILOT / "kdd", raw / "kdd")
    mt = root / "repos" / "rbnyng" / "mlanthology" / "git" / "trees"
    mt.mkdir(parents=True)
    (mt / "main").write_text(json.dumps({"tree": [{"path": "data/papers/jmlr-2013.json.gz", "type": "blob"}]}))
    shutil.copy(FIXTURES / "merge" / "mlanthology" / "papers" / "jmlr-2013.json",
                root / "jmlr-2013.json")      # not where the raw URL points: it must 404


def test_plan_lists_each_origin_and_maps_to_the_shared_layout(tmp_path: Path) -> None:
    fake_github(tmp_path)
    with serve_dir(tmp_path) as url:
        plan = origins.plan(["papercopilot", "mlanthology"], api=url, raw=url, timeout=5)
    assert [(d.url.removeprefix(url), d.local) for d in plan] == [
        ("/papercopilot/paperlists/main/kdd/kdd2024.json", "papercopilot/kdd/kdd2024.json"),
        ("/papercopilot/paperlists/main/nips/nips2018.json", "papercopilot/nips/nips2018.json"),
        ("/rbnyng/mlanthology/main/data/papers/jmlr-2013.json.gz", "mlanthology/papers/jmlr-2013.json.gz"),
    ]


def test_known_lists_when_the_api_cannot_be_reached() -> None:
    plan = origins.plan(["papercopilot", "openreview"], api="http://127.0.0.1:9", raw="https://raw.example",
                        timeout=2)
    pc = [d for d in plan if d.local.startswith("papercopilot/")]
    assert len(pc) == 277 and any(d.local == "papercopilot/3dv/3dv2025.json" for d in pc)
    locals_ = {d.local for d in plan} - {d.local for d in pc}
    assert "openreview-exports/iclr2025/iclr2025-decisions.csv" in locals_
    assert "openreview-exports/iclr2026/accepted-reinforcement-learning.csv" in locals_
    assert len([x for x in locals_ if x.startswith("openreview-exports/iclr2026/accepted-")]) == 12


def test_fetch_is_resumable_and_counts_what_is_missing(tmp_path: Path) -> None:
    www = tmp_path / "www"
    fake_github(www)
    dest = tmp_path / "sources"
    with serve_dir(www) as url:
        plan = origins.plan(["papercopilot", "mlanthology"], api=url, raw=url, timeout=5)
        first = origins.fetch(plan, dest)
        assert (first.fetched, first.kept, first.missing, first.failed) == (2, 0, 1, [])
        assert not list(dest.rglob("*.part"))
        again = origins.fetch(plan, dest)
        assert (again.fetched, again.kept, again.missing) == (0, 2, 1)
    assert (dest / "papercopilot" / "nips" / "nips2018.json").read_bytes() == \
        (PAPERCOPILOT / "nips" / "nips2018.json").read_bytes()


def test_corpus_command_ingests_a_folder(tmp_path: Path) -> None:
    r = run_cli(tmp_path / "h", "corpus", "-q", "--data", str(PAPERCOPILOT))
    assert r.exit_code == 0, r.stderr
    assert "papers:  new 16" in r.stdout
    bad = run_cli(tmp_path / "h", "corpus", "--data", str(tmp_path / "missing"))
    assert bad.exit_code == 2 and "no such folder" in bad.stderr


def test_corpus_folder_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERLIST_DATA", str(PAPERCOPILOT))      # what ./run.sh passes through
    r = run_cli(tmp_path / "h", "corpus", "-q")
    assert r.exit_code == 0, r.stderr
    assert "papers:  new 16" in r.stdout


def test_corpus_command_downloads_then_ingests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    www = tmp_path / "www"
    fake_github(www)
    home = tmp_path / "h"
    with serve_dir(www) as url:
        monkeypatch.setenv("PAPERLIST_GITHUB_API", url)
        monkeypatch.setenv("PAPERLIST_GITHUB_RAW", url)
        r = run_cli(home, "corpus", "--download", "--source", "papercopilot")
    assert r.exit_code == 0, r.stderr
    assert "downloads: 2 new, 0 kept, 0 not at the origin, 0 failed" in r.stderr
    assert "papers:  new 4" in r.stdout                       # nips2018 (3) + kdd2024 (1)
    assert (home / "sources" / "papercopilot" / "kdd" / "kdd2024.json").exists()


def test_file_names_with_spaces_and_commas_are_quoted_and_fetched(tmp_path: Path) -> None:
    """The ICLR 2026 exports are named after primary areas ("alignment, fairness, ..."): their
    raw URLs must be quoted, and the file lands under its own name."""
    www = tmp_path / "www"
    with serve_dir(www) as url:
        plan = origins.plan(["openreview"], api="http://127.0.0.1:9", raw=url, timeout=2)
        assert plan and all(" " not in d.url and "," not in d.url.removeprefix(url) for d in plan)
        spaced = next(d for d in plan if ", " in d.url.replace("%2C%20", ", ").removeprefix(url)
                      or "%20" in d.url)
        remote = www / spaced.url.removeprefix(url + "/").replace("%20", " ").replace("%2C", ",")
        remote.parent.mkdir(parents=True)
        remote.write_text("a,b\n1,2\n")
        rep = origins.fetch([spaced], tmp_path / "sources")
    assert (rep.fetched, rep.failed) == (1, [])
    assert (tmp_path / "sources" / spaced.local).read_text() == "a,b\n1,2\n"
