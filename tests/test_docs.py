"""The map stays true (issue 45): every source path that README.md and ARCHITECTURE.md name
exists. A path with a slash must be a file or folder of the repository (from its root, or from
paperlist/, tests/ or benchmarks/, as the docs write them); a bare file name must be some file's
name. Runtime paths (a home's files, ``<id>`` patterns, absolute and parent paths) are not
source paths and are not checked."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["README.md", "ARCHITECTURE.md"]
SOURCE = re.compile(r"\.(?:py|md|sql|cfg|service|toml|sh|tsv|lua)$|^(?:paperlist|tests|benchmarks|deploy)/"
                    r"|^[a-z_]+/[a-z_/]+/$")     # or a package's folder ("web/api_models/")
TOKEN = re.compile(r"`([^`\s]+)`")


def _tracked() -> tuple[set[str], set[str], set[str]]:
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("not a git checkout: the repository's files cannot be listed")
    files = set(out.stdout.split())
    folders = {str(p) for f in files for p in Path(f).parents if str(p) != "."}
    return files, folders, {Path(f).name for f in files}


def named_paths(text: str) -> list[tuple[int, str]]:
    """(line, path) of each source path a document names in backticks."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        for tok in TOKEN.findall(line):
            if any(c in tok for c in "<>*…$=()") or tok.startswith(("/", "~", "..", "http", "-")):
                continue
            path = tok.split("#")[0].split(":")[0].removeprefix("./")
            if path.strip("/") and SOURCE.search(path):
                out.append((n, path))
    return out


def test_named_paths_are_found_in_prose() -> None:
    text = "see `paperlist/search/rank.py`, `web/api_models/`, `base.py` and `<home>/index`, `x = 1`"
    assert named_paths(text) == [(1, "paperlist/search/rank.py"), (1, "web/api_models/"), (1, "base.py")]


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_the_docs_name_exists(doc: str) -> None:
    files, folders, names = _tracked()
    missing = []
    for n, path in named_paths((ROOT / doc).read_text("utf-8")):
        if path.endswith("/"):
            found = any(base + path.rstrip("/") in folders for base in ("", "paperlist/"))
        elif "/" not in path:
            found = path in names
        else:
            found = any(base + path in files for base in ("", "paperlist/", "tests/", "benchmarks/"))
        if not found:
            missing.append(f"{doc}:{n}: {path}")
    assert not missing, missing
