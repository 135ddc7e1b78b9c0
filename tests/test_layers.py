"""A folder is one layer and imports only go down (docs/architecture.md draws the same order).

LAYERS is the one place the order is written, bottom to top. Every module of certify/, solver/ and
checker/ belongs to exactly one layer (the longest entry its path starts with), and every import
it makes, at the top of the file or inside a function, must name a module of its own layer or of a
layer below. An import that climbs fails the test, naming the file, the line and both layers; there
is no list of exceptions. Each folder layer's `__init__.py` opens with a line saying its layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOTS = ("certify", "solver", "checker")

LAYERS = (  # bottom to top; a folder stands for every module under it
    "checker",  # the trusted base: standard library only, imports nothing of ours
    "solver/__init__.py",
    "solver/games",
    "solver/workers.py",
    "solver/search",
    "certify/version.py",
    "certify/errors.py",
    "certify/files.py",
    "certify/limits.py",
    "certify/verified_checker.py",  # runs the verified checker (verified/), a program of its own
    "certify/record",  # what a certificate is: format, schema, writing and reading
    "certify/render",
    "certify/pipeline.py",
    "certify/proving",
    "certify/explorer",
    "certify/smt",
    "certify/policy",
    "certify/papers",
    "certify/players",
    "certify/claims",
    "certify/bench",
    "certify/verify.py",
    "certify/api.py",
    "certify/publish",
    "certify/cli",
    "certify/__init__.py",
    "certify/__main__.py",
)
RANK = {layer: rank for rank, layer in enumerate(LAYERS)}


def modules() -> dict[str, Path]:
    """Every module of ROOTS by dotted name (a package by its own name), relative to the repository."""
    found = {}
    for root in ROOTS:
        for path in sorted((REPO / root).rglob("*.py")):
            relative = path.relative_to(REPO)
            found[".".join(relative.with_suffix("").parts).removesuffix(".__init__")] = relative
    return found


def layer_of(path: Path) -> str | None:
    """The longest LAYERS entry that is `path` or a folder holding it."""
    text = path.as_posix()
    matches = [layer for layer in LAYERS if text == layer or text.startswith(layer + "/")]
    return max(matches, key=len, default=None)


def imports(path: Path, name: str, known: dict[str, Path]) -> list[tuple[int, str]]:
    """(line, module) for every import of one of `known` in the file, wherever it stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse((REPO / path).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            # `from package import module` imports the module; `from module import name`, the module
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target:
                found.append((node.lineno, target))
    return found


def test_every_module_has_a_layer() -> None:
    homeless = [str(path) for path in modules().values() if layer_of(path) is None]
    assert not homeless, f"modules in no layer (place them in LAYERS): {homeless}"


def test_every_layer_exists() -> None:
    missing = [layer for layer in LAYERS if not (REPO / layer).exists()]
    assert not missing, f"LAYERS names what is not there: {missing}"


def test_imports_only_go_down() -> None:
    known = modules()
    climbs = []
    for name, path in known.items():
        here = layer_of(path)
        for line, target in imports(path, name, known):
            there = layer_of(known[target])
            if here is not None and there is not None and RANK[there] > RANK[here]:
                climbs.append(f"{path}:{line} imports {target}: layer {here} climbs to layer {there}")
    assert not climbs, "imports that climb:\n" + "\n".join(climbs)


def test_no_folder_cycle() -> None:
    """No two layers import each other, even through others (implied by the order; checked directly)."""
    known = modules()
    edges: dict[str, set[str]] = {layer: set() for layer in LAYERS}
    for name, path in known.items():
        here = layer_of(path)
        for _, target in imports(path, name, known):
            there = layer_of(known[target])
            if here and there and there != here:
                edges[here].add(there)
    done: set[str] = set()

    def walk(layer: str, trail: tuple[str, ...]) -> None:
        assert layer not in trail, "folder cycle: " + " -> ".join((*trail[trail.index(layer) :], layer))
        if layer not in done:
            for below in sorted(edges[layer]):
                walk(below, (*trail, layer))
            done.add(layer)

    for layer in LAYERS:
        walk(layer, ())


def test_each_folder_says_its_layer() -> None:
    """A folder layer's `__init__.py` opens with `Layer: ...`, what the layer holds."""
    silent = []
    for layer in LAYERS:
        init = REPO / layer / "__init__.py"
        if init.exists():
            docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
            if not docstring.startswith("Layer: "):
                silent.append(f"{layer}/__init__.py: {docstring.splitlines()[0] if docstring else '(no docstring)'}")
    assert not silent, "folders whose __init__.py does not open with 'Layer: ':\n" + "\n".join(silent)
