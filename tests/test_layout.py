"""The package's layout holds: no import cycle (imports inside functions counted) and no private
name imported from another package.

The import graph is read from the source with :mod:`ast`, so it sees the imports a function makes
only when it runs.  ``from . import x`` where ``x`` is a module is an arrow to that module, not to the
package (whose face loads its names lazily).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for f in (SRC / "baccara").rglob("*.py"):
        parts = list(f.relative_to(SRC).with_suffix("").parts)
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (f, package)
    return out


def imports(mods: dict[str, tuple[Path, bool]]):
    """(importer, imported module, names) for every ``from baccara... import``, anywhere in a file."""
    for m, (f, package) in mods.items():
        for node in ast.walk(ast.parse(f.read_text())):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = m.split(".") if package else m.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] == "baccara":
                yield m, target, [a.name for a in node.names]


def graph() -> dict[str, set[str]]:
    mods = modules()
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, target, names in imports(mods):
        subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in mods]
        edges[m].update(subs)
        if len(subs) < len(names) and target in mods and target != m:
            edges[m].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def test_no_import_cycle():
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    # a test that cannot fail proves nothing: the same finder on a graph with a cycle
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]


def test_no_private_name_across_packages():
    mods = modules()

    def package(m: str) -> str:
        parts = m.split(".")
        return parts[1] if len(parts) > 2 or (len(parts) == 2 and mods[m][1]) else "(core)"

    crossing = [(m, target, n) for m, target, names in imports(mods) for n in names
                if n.startswith("_") and not n.startswith("__")
                and package(m) != package(target if target in mods else target.rsplit(".", 1)[0])]
    assert crossing == []


def undeclared_lazy_imports(source: str) -> list[int]:
    """Lines of the imports of baccara made inside a function without a ``# lazy: reason`` comment."""
    lines = source.splitlines()
    found = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            ours = (isinstance(node, ast.ImportFrom) and (node.level > 0 or (node.module or "").startswith("baccara"))
                    or isinstance(node, ast.Import) and any(a.name.startswith("baccara") for a in node.names))
            if ours and "# lazy:" not in lines[node.lineno - 1]:
                found.append(node.lineno)
    return sorted(set(found))


def test_imports_inside_functions_are_declared_lazy_loading():
    # The command line and the packages' faces load their modules when used; anywhere else an import
    # inside a function is either a cycle patched over or start-up work deferred, and must say which.
    found = {}
    for m, (f, package) in modules().items():
        if package or m.startswith("baccara.cli."):
            continue
        lines = undeclared_lazy_imports(f.read_text())
        if lines:
            found[m] = lines
    assert found == {}


def test_the_lazy_import_check_finds_an_undeclared_one():
    source = ("from . import a\n\ndef f():\n    from .b import c\n    from .d import e  # lazy: start-up\n"
              "    import numpy\n    return c, e, numpy\n")
    assert undeclared_lazy_imports(source) == [4]


def test_the_package_ships_its_licence_and_type_hints():
    # PEP 561: the type hints are part of the interface only with a py.typed marker, which must also be
    # package data (an editable install would find it without); the MIT licence pyproject names is a file
    import tomllib

    root = Path(__file__).parent.parent
    meta = tomllib.loads((root / "pyproject.toml").read_text())
    assert (root / "src" / "baccara" / "py.typed").is_file()
    assert "py.typed" in meta["tool"]["setuptools"]["package-data"]["baccara"]
    assert meta["project"]["license"] == {"text": "MIT"}
    assert (root / "LICENSE").read_text().startswith("MIT License")
