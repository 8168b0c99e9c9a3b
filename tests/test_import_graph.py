"""No import circles (issue 45), at every level of ``paperlist``:

- between the packages of ``paperlist`` (``index``, ``topics``, ``web`` …; a top-level module such
  as ``taxonomy.py`` is a node of its own);
- between the modules (and subpackages) inside each package, down to single modules.

Every import counts, wherever it is written: at module level, inside a function, under ``if
TYPE_CHECKING:`` (none is excluded), and an import string of the form ``"paperlist.mod:attr"``
(what uvicorn is handed, and imports in each worker). A function-local import that closes a
circle still ties two packages into one; the README promises none. Parsed with ``ast`` only: the
code is never imported."""

from __future__ import annotations

import ast
import functools
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "paperlist"
IMPORT_STRING = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):[A-Za-z_]\w*")

Graph = dict[str, dict[str, str]]           # module -> {imported module: "path:line" of the first import}


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module under ``package`` by dotted name (a package by its own name, for its __init__)."""
    out = {}
    for p in sorted(package.rglob("*.py")):
        name = ".".join(p.relative_to(package.parent).with_suffix("").parts).removesuffix(".__init__")
        out[name] = p
    return out


def imports(mods: dict[str, Path]) -> Graph:
    """Each module's imports of other modules of the package, wherever they are written."""
    graph: Graph = {m: {} for m in mods}
    for m, path in mods.items():
        pkg = m if path.name == "__init__.py" else m.rpartition(".")[0]
        where = path.relative_to(path.parents[len(m.split(".")) - (path.name != "__init__.py")])
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            for target in _targets(node, pkg, mods):
                if target != m:
                    graph[m].setdefault(target, f"{where}:{getattr(node, 'lineno', '?')}")
    return graph


def _targets(node: ast.AST, pkg: str, mods: dict[str, Path]) -> Iterator[str]:
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
        if node.level:
            parts = pkg.split(".")
            base = parts[: len(parts) - node.level + 1]
            if not base:
                raise ValueError(f"relative import beyond the top package in {pkg}: level {node.level}")
            mod = ".".join([*base, *([node.module] if node.module else [])])
        else:
            mod = node.module or ""
        # ``from . import x``: the module x when x is a module, else a name of the package
        names = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in mods else mod for a in node.names]
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        match = IMPORT_STRING.fullmatch(node.value)
        if match and match[1] in mods:        # "paperlist.web.app:app_from_env"
            yield match[1]
        return
    for name in names:
        while name not in mods and "." in name:
            name = name.rpartition(".")[0]
        if name in mods:
            yield name


@functools.cache
def graph_of(package: Path) -> Graph:
    """The import graph of the modules under ``package`` (read once per test run)."""
    return imports(modules(package))


def collapse(graph: Graph, package: str) -> Graph:
    """The graph between the children of ``package``: its own __init__ (named ``package``), its
    modules, and its subpackages each taken whole. For the top package this is the graph between
    ``paperlist.index``, ``paperlist.topics`` … and the top-level modules."""
    depth = package.count(".") + 2

    def child(m: str) -> str | None:
        if m == package:
            return m
        return ".".join(m.split(".")[:depth]) if m.startswith(package + ".") else None

    out: Graph = {}
    for m, targets in graph.items():
        if (a := child(m)) is None:
            continue
        out.setdefault(a, {})
        for t, where in targets.items():
            if (b := child(t)) is not None and b != a:
                out[a].setdefault(b, where)
    return out


def strongly_connected(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's, without recursion),
    each sorted, in order of their first node."""
    nodes = sorted(set(graph) | {t for ts in graph.values() for t in ts})
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    work: list[tuple[str, Iterator[str]]] = []

    def enter(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        work.append((v, iter(sorted(graph.get(v, {})))))

    for root in nodes:
        if root in index:
            continue
        enter(root)
        while work:
            v, successors = work[-1]
            for w in successors:
                if w not in index:
                    enter(w)
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return sorted(out)


def shortest_cycle(graph: Graph, component: list[str]) -> list[str]:
    """A shortest circle through the component's first node, as [a, b, …, a]."""
    start, inside = component[0], set(component)
    came: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph.get(v, {})):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return [*reversed(path), start]
                if w in inside and w not in came:
                    came[w] = v
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"not strongly connected: {component}")


def circles(graph: Graph) -> list[list[str]]:
    """One circle spelled out for each strongly connected component of more than one node."""
    return [shortest_cycle(graph, comp) for comp in strongly_connected(graph)]


def spelled(graph: Graph, cycle: list[str]) -> str:
    steps = (f"-> {b}   ({graph[a][b]})" for a, b in zip(cycle, cycle[1:], strict=False))
    return "\n    ".join([cycle[0], *steps])


def problems(package: Path = PACKAGE) -> list[str]:
    """Every circle, between modules and between the children of each package, spelled out: one
    for each set of nodes that import each other round, with the file and line of each import. A
    circle already told between modules is not told again for their package."""
    graph = graph_of(package)
    levels = {"modules": graph}
    for p in sorted(m for m, path in modules(package).items() if path.name == "__init__.py"):
        levels[f"the children of {p}"] = collapse(graph, p)
    out: list[str] = []
    told: set[str] = set()
    for level, g in levels.items():
        for comp in strongly_connected(g):
            cycle = shortest_cycle(g, comp)
            text = spelled(g, cycle)
            if text not in told:
                told.add(text)
                rest = sorted(set(comp) - set(cycle))
                more = f"\n    (and with it, round other imports: {', '.join(rest)})" if rest else ""
                out.append(f"an import circle between {level}:\n    {text}{more}")
    return out


# -- the checker, on graphs and packages made by hand --------------------------------------------


def g(edges: str) -> Graph:
    """A graph from "a>b b>c" (each edge's place is its own name)."""
    out: Graph = {}
    for e in edges.split():
        a, b = e.split(">")
        out.setdefault(a, {})[b] = e
        out.setdefault(b, {})
    return out


@pytest.mark.parametrize(("edges", "found"), [
    ("a>b b>c a>c", []),                                         # a diamond is no circle
    ("a>b b>a", [["a", "b", "a"]]),
    ("x>a a>b b>c c>a c>y", [["a", "b", "c", "a"]]),             # x and y are outside it
    ("a>b b>c c>a a>c", [["a", "c", "a"]]),                      # the shortest through a
    ("a>b b>a c>d d>e e>c", [["a", "b", "a"], ["c", "d", "e", "c"]]),
])
def test_circles_on_hand_made_graphs(edges: str, found: list[list[str]]) -> None:
    assert circles(g(edges)) == found


def test_a_long_chain_needs_no_recursion() -> None:
    chain = {f"m{i:05}": {f"m{i + 1:05}": "x"} for i in range(20_000)}
    assert circles(chain) == []
    chain[f"m{20_000:05}"] = {"m00000": "x"}
    assert len(circles(chain)[0]) == 20_002


def test_collapse_takes_subpackages_whole() -> None:
    graph = g("p.a>p.sub.x p.sub.y>p.a p.sub.x>q")
    assert collapse(graph, "p") == {"p.a": {"p.sub": "p.a>p.sub.x"}, "p.sub": {"p.a": "p.sub.y>p.a"}}
    assert circles(collapse(graph, "p")) == [["p.a", "p.sub", "p.a"]]
    assert circles(graph) == []                   # no circle between the modules themselves


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return root / "paperlist"


@pytest.mark.parametrize("closing", [
    "def f():\n    from ..index import a\n",                     # inside a function
    "def f():\n    import paperlist.index.a\n",                   # absolute, inside a function
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..index.a import x\n",
    "from .. import index\n",                                     # from . import <a package>
    "APP = 'paperlist.index.a:app'\n",                            # an import string
])
def test_the_checker_sees_every_kind_of_import(tmp_path: Path, closing: str) -> None:
    pkg = _package(tmp_path, {
        "paperlist/__init__.py": "", "paperlist/index/__init__.py": "", "paperlist/topics/__init__.py": "",
        "paperlist/index/a.py": "from ..topics.b import y\nx = app = 1\n",
        "paperlist/topics/b.py": f"y = 1\n{closing}",
    })
    found = problems(pkg)
    assert any(p.startswith("an import circle between the children of paperlist:\n    paperlist.index\n")
               for p in found), found
    assert "paperlist/topics/b.py:" in "\n".join(found)             # where the import is written


def test_relative_imports_resolve_to_modules_or_their_package(tmp_path: Path) -> None:
    pkg = _package(tmp_path, {
        "paperlist/__init__.py": "", "paperlist/web/__init__.py": "from .pages import routes\n",
        "paperlist/web/pages.py": "from . import forms\nroutes = 1\n",
        "paperlist/web/forms.py": "from . import routes\n",        # a name of web/__init__.py
        "paperlist/web/views/__init__.py": "", "paperlist/web/views/v.py": "from ...web import forms\n",
    })
    graph = imports(modules(pkg))
    assert graph == {"paperlist": {}, "paperlist.web": {"paperlist.web.pages": "paperlist/web/__init__.py:1"},
                     "paperlist.web.pages": {"paperlist.web.forms": "paperlist/web/pages.py:1"},
                     "paperlist.web.forms": {"paperlist.web": "paperlist/web/forms.py:1"},
                     "paperlist.web.views": {},
                     "paperlist.web.views.v": {"paperlist.web.forms": "paperlist/web/views/v.py:1"}}
    web = ["paperlist.web", "paperlist.web.pages", "paperlist.web.forms", "paperlist.web"]
    assert circles(graph) == [web]


def test_a_circle_added_to_a_copy_of_paperlist_is_found(tmp_path: Path) -> None:
    """The real tree, copied, with one function-local import that closes a circle: store -> web."""
    copy = tmp_path / "paperlist"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    base = copy / "store" / "base.py"
    closing = "\n\ndef _circle():\n    from ..web import app  # noqa: F401\n"
    base.write_text(base.read_text("utf-8") + closing, "utf-8")
    found = problems(copy)
    assert len(found) == 2, found
    assert found[0].startswith("an import circle between modules:\n")
    assert "-> paperlist.web.app   (paperlist/store/base.py:" in found[0]
    assert found[1].startswith("an import circle between the children of paperlist:\n")
    assert "-> paperlist.web   (paperlist/store/base.py:" in found[1]


# -- the package itself --------------------------------------------------------------------------


def test_no_import_circles() -> None:
    found = problems()
    assert not found, "\n\n".join(found)


def test_the_graph_is_read() -> None:
    """The check above means something only if the imports are found: a few known edges."""
    graph = graph_of(PACKAGE)
    assert "paperlist.service" in collapse(graph, "paperlist")["paperlist.web"]
    assert "paperlist.web.error_page" in graph["paperlist.web.list_forms"]
    assert "paperlist.service.serving" in graph["paperlist.cli.serve"]      # inside a function
    assert "paperlist.web.app" in graph["paperlist.cli.serve"]              # an import string


def test_nothing_outside_web_imports_it_but_the_server() -> None:
    """The README: nothing outside ``web/`` imports it; ``paperlist serve`` names its app and
    protocol to uvicorn by import path."""
    graph = graph_of(PACKAGE)
    outside = {m for m, targets in graph.items() if not m.startswith("paperlist.web")
               for t in targets if t.startswith("paperlist.web")}
    assert outside == {"paperlist.cli.serve"}
