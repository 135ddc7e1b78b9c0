"""The checker is independent of the solver: stdlib-only imports, runs under `python -S`, stays small.

`python tests/test_checker_independence.py` prints the code-line count of every checker file
(lines holding code, not counting blank lines, comments and docstrings).
"""

from __future__ import annotations

import ast
import io
import json
import os
import subprocess
import sys
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CHECKER = REPO / "checker"
MAX_CODE_LINES = 700  # issue 9: the envelope, the positional rules and the table kind
MAX_FILE_LINES = 300
TABLE_BASE = ("__init__.py", "__main__.py", "load.py", "positional.py", "codes.py", "table.py")


def checker_files() -> list[Path]:
    return sorted(CHECKER.rglob("*.py"))


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every module the file imports (relative imports count as 'checker')."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add("checker" if node.level else (node.module or "").split(".")[0])
    return names


def code_lines(path: Path) -> int:
    """Lines holding a token other than comments, and not inside a docstring."""
    source = path.read_text(encoding="utf-8")
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                docstrings.update(range(body[0].lineno, body[0].end_lineno + 1))
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENDMARKER}
    lines = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skip:
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines - docstrings)


def test_checker_imports_only_stdlib_and_itself():
    allowed = set(sys.stdlib_module_names) | {"checker"}
    assert checker_files(), "no checker files found"
    for path in checker_files():
        outside = imported_modules(path) - allowed
        assert not outside, f"{path.relative_to(REPO)} imports {sorted(outside)}"


def test_checker_stays_small():
    total = sum(code_lines(CHECKER / name) for name in TABLE_BASE)
    assert total <= MAX_CODE_LINES, f"the table kind's checker has {total} code lines"
    for path in checker_files():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= MAX_FILE_LINES, f"{path.relative_to(REPO)} has {lines} lines"


def test_checker_runs_without_site_packages(tmp_path):
    """`python -S -m checker certificates/w3t.json` with only the repo on PYTHONPATH: exit 0."""
    path = REPO / "certificates" / "w3t.json"
    if not path.exists():  # not published yet: check a freshly written one the same way
        from certify.record.certificate import build_certificate, certificate_json
        from solver.games.positional.rules import resolve

        path = tmp_path / "w3t.json"
        path.write_text(certificate_json(build_certificate(resolve("w3t"))))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(REPO)
    completed = subprocess.run([sys.executable, "-S", "-m", "checker", str(path)], capture_output=True,
                               text=True, env=env, cwd=tmp_path, timeout=120)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert completed.stdout.startswith("VALID table 3x3 board, 8 lines of 3, marks either, "), completed.stdout
    assert " name 'w3t': " in completed.stdout
    assert "18,753 states, 80,150 edges, root win, 1 strategy checked" in completed.stdout


def test_checker_loads_no_third_party_module():
    """Importing and running the checker in a fresh interpreter pulls in no non-stdlib module."""
    script = (
        "import sys, checker\n"
        "checker.check_bytes(b'{}')\n"
        "std = set(sys.stdlib_module_names) | {'checker', '__main__'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] not in std))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(REPO)
    completed = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True,
                               env=env, timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout.replace("'", '"')) == []


if __name__ == "__main__":
    counts = {str(path.relative_to(REPO)): code_lines(path) for path in checker_files()}
    for name, count in counts.items():
        print(f"{count:5d}  {name}")
    print(f"{sum(counts.values()):5d}  total code lines (limit {MAX_CODE_LINES})")
