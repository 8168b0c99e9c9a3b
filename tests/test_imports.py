"""No import circles (issue 45): between modules, and between the packages of ``paperlist``
(``index``, ``topics``, ``web`` …), counting the imports inside functions too. A function-local
import that closes a circle still ties two packages into one; the README promises none."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "paperlist"


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    out = {}
    for p in package.rglob("*.py"):
        name = ".".join(p.relative_to(package.parent).with_suffix("").parts).removesuffix(".__init__")
        out[name] = p
    return out


def imports(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Each module's imports of other modules of the package, wherever they are written."""
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, path in mods.items():
        pkg = m if path.name == "__init__.py" else m.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            for target in _targets(node, pkg, mods):
                if target != m:
                    edges[m].add(target)
    return edges


def _targets(node: ast.AST, pkg: str, mods: dict[str, Path]) -> Iterator[str]:
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
        base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1] if node.level else []
        mod = ".".join([*base, *([node.module] if node.module else [])])
        names = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in mods else mod for a in node.names]
    for name in names:
        while name not in mods and "." in name:
            name = name.rpartition(".")[0]
        if name in mods:
            yield name


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while (w := stack.pop()) != v:
                comp.append(w)
            if comp:
                out.append(sorted([v, *comp]))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def packages(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """The same graph between ``paperlist.<package>`` (or top-level module)."""
    def top(m: str) -> str:
        return ".".join(m.split(".")[:2])
    out: dict[str, set[str]] = {}
    for m, targets in edges.items():
        out.setdefault(top(m), set()).update(top(t) for t in targets if top(t) != top(m))
    return out


def test_the_checker_sees_function_local_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "paperlist"
    for sub in ("index", "topics"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "index" / "a.py").write_text("def f():\n    from ..topics import b\n")
    (pkg / "topics" / "b.py").write_text("from ..index.a import f\n")
    edges = imports(modules(pkg))
    assert circles(edges) == [["paperlist.index.a", "paperlist.topics.b"]]
    assert circles(packages(edges)) == [["paperlist.index", "paperlist.topics"]]


def test_no_import_circles() -> None:
    edges = imports(modules())
    assert circles(edges) == []
    assert circles(packages(edges)) == []
