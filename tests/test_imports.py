"""Imports run one way: solver/ never imports certify/, and no module imports itself back in a circle.

Every import counts, those inside functions too (a lazy import is still a dependency), except the
ones under `if TYPE_CHECKING:` (annotations only) and a package's own parent (imported anyway).
The checker's independence from both is tested in tests/test_checker_independence.py.
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("certify", "solver", "checker")


def module_files() -> dict[str, Path]:
    files = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return files


def imported(tree: ast.Module, modules: dict[str, Path]) -> set[str]:
    annotations_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for statement in node.body
        for inner in ast.walk(statement)
    }
    names = set()
    for node in ast.walk(tree):
        if id(node) in annotations_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names |= {f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in modules else node.module
                      for alias in node.names}
        elif isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
    return {name for name in names if name in modules}


def dependencies() -> dict[str, set[str]]:
    modules = module_files()
    graph = {}
    for name, path in modules.items():
        parents = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
        graph[name] = imported(ast.parse(path.read_text(encoding="utf-8")), modules) - parents - {name}
    return graph


def test_no_import_circles():
    try:
        list(TopologicalSorter(dependencies()).static_order())
    except CycleError as err:
        raise AssertionError(f"import circle: {' -> '.join(err.args[1])}") from None


def test_solver_imports_nothing_from_certify():
    offenders = {name: sorted(d for d in deps if d.split(".")[0] == "certify")
                 for name, deps in dependencies().items() if name.startswith("solver")}
    assert {name: deps for name, deps in offenders.items() if deps} == {}


def test_solver_does_not_use_pydantic():
    # games are plain frozen values; pydantic validates files read by certify (and costs startup time)
    users = []
    for name, path in module_files().items():
        if name.startswith("solver"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                roots = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                users += [name for root in roots if root.split(".")[0] == "pydantic"]
    assert users == []
