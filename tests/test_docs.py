"""The map stays true (issue 45).

Every repository path that README.md, ARCHITECTURE.md and BENCHMARKS.md name exists: in backticks
(`paperlist/web/api.py`, `web/api_models/`, `web/views/…`, `base.py`), bare in prose or a command
(paperlist/web/api.py, benchmarks/search_bench.py), or as a link's target. A path with a slash must
be a file or folder of the repository, from its root or from paperlist/, tests/ or benchmarks/ (as
the docs write them); a bare file name must be some file's name. Runtime paths (a home's files,
``<id>`` patterns, absolute and parent paths, URLs) are not source paths and are not checked.

And every import between the packages of ``paperlist`` is one that ARCHITECTURE.md's package table
allows, and every package has its row."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from .test_import_graph import PACKAGE, collapse, graph_of

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["README.md", "ARCHITECTURE.md", "BENCHMARKS.md"]
BASES = ("", "paperlist/", "tests/", "benchmarks/")
EXT = r"\.(?:py|md|sql|cfg|service|toml|sh|tsv|lua)"
TOP = r"(?:paperlist|tests|benchmarks|deploy)/"
# a source extension, a top folder, or a package's folder ("web/api_models/")
SOURCE = re.compile(EXT + r"$|^" + TOP + r"|^[a-z_]+/[a-z_/]+/$")
TOKEN = re.compile(r"`([^`\s]+)`")
# bare in prose or a command: under a top folder, or a relative path ending in a source extension;
# not part of a URL, an absolute or parent path, or a longer word
BARE = re.compile(r"(?<![\w/.:~$<-])((?:" + TOP + r"[\w./-]*[\w/]|[a-z_]+(?:/[\w.-]+)+" + EXT + r"))"
                  r"(?![\w/<>-])")
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)\s]*)?\)")
ELLIPSIS = "…"


def _source_path(tok: str) -> str | None:
    """The repository path a backticked token names, or None."""
    if tok.endswith("/" + ELLIPSIS):                   # "web/views/…": the folder
        tok = tok.removesuffix(ELLIPSIS)
    if any(c in tok for c in "<>*…$=()") or tok.startswith(("/", "~", "..", "http", "-")):
        return None
    path = tok.split("#")[0].split(":")[0].removeprefix("./")
    return path if path.strip("/") and SOURCE.search(path) else None


def named_paths(text: str) -> list[tuple[int, str]]:
    """(line, path) of each repository path a document names, in the order written."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        found: list[tuple[int, str]] = []
        for m in TOKEN.finditer(line):
            path = _source_path(m.group(1))
            if path:
                found.append((m.start(), path))
        prose = TOKEN.sub(lambda m: " " * len(m.group(0)), line)     # what backticks hold is read above
        for m in LINK.finditer(prose):
            target = m.group(1)
            if "://" not in target and not target.startswith(("/", "mailto:")):
                found.append((m.start(1), target.removeprefix("./")))
        prose = LINK.sub(lambda m: " " * len(m.group(0)), prose)
        found += [(m.start(1), m.group(1).rstrip(".")) for m in BARE.finditer(prose)]
        out += [(n, path) for _, path in sorted(found)]
    return out


def missing(text: str, files: set[str], folders: set[str], doc: str = "doc") -> list[str]:
    """``doc:line: path`` for each path ``text`` names that is neither in ``files`` nor ``folders``."""
    names = {Path(f).name for f in files}
    out = []
    for n, path in named_paths(text):
        if path.endswith("/"):
            found = any(base + path.rstrip("/") in folders for base in BASES)
        elif "/" not in path:
            found = path in names or path in folders
        else:
            found = any(base + path in files or base + path in folders for base in BASES)
        if not found:
            out.append(f"{doc}:{n}: {path}")
    return out


def _tracked() -> tuple[set[str], set[str]]:
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("not a git checkout: the repository's files cannot be listed")
    files = set(out.stdout.split())
    folders = {str(p) for f in files for p in Path(f).parents if str(p) != "."}
    return files, folders


def test_named_paths_are_found_in_prose() -> None:
    text = ("see `paperlist/search/rank.py`, `web/api_models/`, `base.py` and `<home>/index`, `x = 1`\n"
            "run .venv/bin/python benchmarks/search_bench.py --home /tmp/h3, then web/views/… and "
            "[the map](ARCHITECTURE.md#a-search), not https://github.com/a/b/README.md or /work/x/y.py\n"
            "`web/views/…` and `tests/` and paperlist/web/api.py.")
    assert named_paths(text) == [
        (1, "paperlist/search/rank.py"), (1, "web/api_models/"), (1, "base.py"),
        (2, "benchmarks/search_bench.py"), (2, "ARCHITECTURE.md"),
        (3, "web/views/"), (3, "tests/"), (3, "paperlist/web/api.py")]


def test_a_stale_path_fails() -> None:
    files = {"paperlist/web/api.py", "paperlist/web/api_models/search.py", "README.md"}
    folders = {"paperlist", "paperlist/web", "paperlist/web/api_models"}
    text = ("`web/api.py` and `web/api_models/` exist; `web/api_models.py`, `web/views/…`, `resources.py`\n"
            "and paperlist/web/views/resources.py do not; [readme](README.md), [gone](OLD.md)")
    assert missing(text, files, folders, "README.md") == [
        "README.md:1: web/api_models.py", "README.md:1: web/views/", "README.md:1: resources.py",
        "README.md:2: paperlist/web/views/resources.py", "README.md:2: OLD.md"]


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_the_docs_name_exists(doc: str) -> None:
    files, folders = _tracked()
    stale = missing((ROOT / doc).read_text("utf-8"), files, folders, doc)
    assert not stale, stale


def package_table(text: str) -> dict[str, set[str]]:
    """ARCHITECTURE.md's "| `package` | what it is for | may import |" rows: package -> allowed."""
    out = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and re.fullmatch(r"`[\w_]+(?:/|\.py)`", cells[0]):
            name = cells[0].strip("`").removesuffix("/").removesuffix(".py")
            out[name] = set() if cells[2] == "nothing" else {x.strip() for x in cells[2].split(",")}
    return out


def test_the_package_table_is_read() -> None:
    text = "| `store/` | the store | models, venues |\n| `text.py` | text | nothing |\n| a | b | c |"
    assert package_table(text) == {"store": {"models", "venues"}, "text": set()}


def test_every_import_between_packages_is_one_the_map_allows() -> None:
    table = package_table((ROOT / "ARCHITECTURE.md").read_text("utf-8"))
    graph = {k.removeprefix("paperlist."): {t.removeprefix("paperlist.") for t in v}
             for k, v in collapse(graph_of(PACKAGE), "paperlist").items() if k != "paperlist"}
    assert sorted(set(graph) - set(table)) == [], "packages without a row in ARCHITECTURE.md"
    assert sorted(set(table) - set(graph)) == [], "rows of ARCHITECTURE.md for no package"
    unlisted = {k: sorted(v - table[k]) for k, v in graph.items() if v - table[k]}
    assert unlisted == {}, "imports ARCHITECTURE.md's table does not allow"
