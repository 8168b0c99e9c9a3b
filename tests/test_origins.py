"""Where the corpus comes from: the shared folder, or the public papercopilot URLs."""

from __future__ import annotations

import json
from pathlib import Path

from paperlist import origins

from .conftest import PAPERCOPILOT, run_cli


def test_papercopilot_urls_from_the_tree_listing(http_root: str, tmp_path: Path) -> None:
    # the fixture server serves tmp_path/www: drop a GitHub-style tree listing there
    listing = {"tree": [{"path": "nips/nips2018.json", "type": "blob"}, {"path": "README.md", "type": "blob"},
                        {"path": "kdd/kdd2024.json", "type": "blob"}, {"path": "nips/extra.json", "type": "blob"}]}
    tree_file = tmp_path / "www" / "tree.json"
    tree_file.write_text(json.dumps(listing))
    urls = origins.papercopilot_urls(f"{http_root}/tree.json", http_root)
    assert urls == [f"{http_root}/kdd/kdd2024.json", f"{http_root}/nips/nips2018.json"]


def test_known_list_when_the_api_cannot_be_reached() -> None:
    urls = origins.papercopilot_urls("http://127.0.0.1:9/unreachable", "https://raw.example/x", timeout=2)
    assert len(urls) == 277
    assert "https://raw.example/x/nips/nips2018.json" in urls and "https://raw.example/x/3dv/3dv2025.json" in urls


def test_corpus_command_ingests_a_folder(tmp_path: Path) -> None:
    r = run_cli(tmp_path / "h", "corpus", "-q", "--data", str(PAPERCOPILOT))
    assert r.exit_code == 0, r.stderr
    assert "papers:  new 16" in r.stdout
    bad = run_cli(tmp_path / "h", "corpus", "--data", str(tmp_path / "missing"))
    assert bad.exit_code == 2 and "no such folder" in bad.stderr
