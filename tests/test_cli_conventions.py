"""The command line's conventions (docs/cli.md): lazy commands, one-line errors, help and README agree."""

from __future__ import annotations

import json
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from certify.cli import app
from certify.cli.registry import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def loaded_commands() -> dict:
    """Every command, with every command module imported."""
    for module, _ in COMMANDS.values():
        importlib.import_module(module)
    return typer.main.get_command(app).commands  # type: ignore[attr-defined]


def test_every_command_is_registered_with_its_docstring_summary():
    commands = loaded_commands()
    assert set(commands) == set(COMMANDS)
    for name, command in commands.items():
        first_line = (command.help or "").strip().splitlines()[0]
        assert first_line == COMMANDS[name][1], name


def test_help_imports_no_command_module():
    script = (
        "import sys; sys.argv = ['certify', '--help']\n"
        "from certify.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = ('numpy', 'pydantic', 'z3', 'solver', 'checker')\n"
        "print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in heavy or m in "
        + repr(sorted({m for m, _ in COMMANDS.values()}))
        + "))"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "LOADED []"


def test_solve_writes_its_certificate_without_loading_pydantic_or_the_schema(tmp_path):
    # pydantic costs ~0.1 s of import on every run; writing needs no validation (docs/benchmarks.md, startup)
    path = tmp_path / "w3t.json"
    script = (
        f"import sys; sys.argv = ['certify', 'solve', 'w3t', '-o', {str(path)!r}]\n"
        "from certify.cli import main\n"
        "try:\n    main()\nexcept SystemExit as stop:\n    assert not stop.code, stop.code\n"
        "print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'z3') or m == 'certify.record.schema'))"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "LOADED []"
    assert subprocess.run([sys.executable, "-m", "checker", str(path)], capture_output=True, text=True).stdout.startswith("VALID")


def test_help_lists_every_command_and_the_readme_table_matches_it():
    listed = re.findall(r"^  (\w+)\s", run("--help").stdout.split("Commands:\n")[1].split("\n\n")[0], flags=re.M)
    assert listed == list(COMMANDS)
    readme = (ROOT / "README.md").read_text(encoding="utf-8").split("## Commands")[1].split("\n## ")[0]
    in_readme = re.findall(r"`certify ([a-z0-9]+)", readme)
    assert sorted(set(in_readme)) == sorted(listed)


@pytest.mark.parametrize(
    ("args", "first"),
    [
        (["solve"], "error: certify solve: missing argument GAME (see 'certify solve --help')"),
        (["solve", "w3t", "--bogus"], "error: certify solve: no such option: --bogus"),
        (["tree", "w3t", "--depth", "99"], "error: certify tree: --depth 99: must be in 1..8"),
        (["sovle", "w3t"], "error: certify: no such command 'sovle'; did you mean 'solve'?"),
    ],
)
def test_usage_errors_are_one_line_on_stderr_with_exit_2(args, first):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(first), result.stderr


def test_version_and_short_help():
    version = run("--version")
    assert version.exit_code == 0 and version.stdout.startswith("certify ")
    short = run("solve", "-h")
    assert short.exit_code == 0 and short.stdout.startswith("Usage: certify solve")


def test_an_internal_error_is_one_line_with_exit_3(monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("boom")

    importlib.import_module("certify.cli.solving")
    monkeypatch.setattr("certify.cli.solving.game_stats", broken)
    monkeypatch.delenv("CERTIFY_DEBUG", raising=False)
    result = run("stats", "tictactoe", "--json")
    assert result.exit_code == 3
    assert result.stderr.strip().splitlines() == ["internal error: RuntimeError: boom (rerun with CERTIFY_DEBUG=1)"]


def leaf_commands() -> dict[str, object]:
    """Every runnable command by its full name (`z3 value`, `policy list`, `solve`, ...)."""
    leaves = {}
    for name, command in loaded_commands().items():
        for sub_name, sub in getattr(command, "commands", {}).items():
            leaves[f"{name} {sub_name}"] = sub
        if not hasattr(command, "commands"):
            leaves[name] = command
    return leaves


FAST_EXAMPLES = ("games", "show", "tree", "stats", "schema", "policy list", "z3 value", "z3 strategy", "z3 pairing", "prove")


def test_every_command_has_one_example_and_the_quick_ones_work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, command in leaf_commands().items():
        examples = re.findall(r"^\s*Example: certify (.+)$", command.help or "", flags=re.M)
        assert len(examples) == 1, name
        assert (examples[0] + " ").startswith(name + " "), (name, examples[0])
        if name in FAST_EXAMPLES:
            args = examples[0].split(">")[0].split()
            assert run(*args).exit_code == 0, examples[0]


def test_help_shows_choices_and_names_never_bare_types():
    assert "--player <1|2>" in run("tree", "--help").stdout
    for name in leaf_commands():
        shown = run(*name.split(), "--help").stdout
        assert not re.search(r"<(bool|str|int|float|path|int range|float range)>|BOOLEAN|TEXT|INTEGER", shown), (name, shown)


def test_one_name_per_meaning_the_side_the_time_limit_the_output_and_the_certificate():
    """The issue's four spellings of the side (--player, --role, --as x|o, --as first|second) are one."""
    seen: dict[str, set[str]] = {}
    for name, command in leaf_commands().items():
        for param in command.params:
            for option in getattr(param, "opts", []):
                seen.setdefault(option, set()).add(name)
    assert not {"--role", "--as", "--side", "--time-limit", "--limit", "--out", "--certificate"} & set(seen), seen
    assert {"tree", "play", "prove", "policy audit", "z3 strategy", "z3 pairing"} <= seen["--player"]
    assert {"z3 value", "z3 strategy", "z3 pairing", "verify"} <= seen["--timeout"]
    assert {"show", "tree", "stats", "play", "z3 value", "z3 strategy"} <= seen["--cert"]
    assert seen["-o"] == seen["--output"]


def test_default_output_names_share_one_stem(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("solve", "mnk:3,3,3,misere").exit_code == 0
    assert run("prove", "mnk:3,3,3,misere", "--claim", "no-loss", "--player", "1").exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mnk-3-3-3-misere.json", "mnk-3-3-3-misere.p1-no-loss.json"]


def test_a_disproved_claim_comes_with_the_certificate_of_its_opposite(tmp_path, monkeypatch):
    import checker

    monkeypatch.chdir(tmp_path)
    for claim, player, opposite, words in (("win", "1", "p2-no-loss", "player 2 does not lose"),
                                           ("no-loss", "1", "p2-win", "player 2 wins")):
        result = run("prove", "mnk:3,4,3,misere", "--claim", claim, "--player", player, "--json")
        assert result.exit_code == 1
        data = json.loads(result.stdout)
        assert data["status"] == "disproved" and data["opposite"]["status"] == "proved"
        path = tmp_path / f"mnk-3-4-3-misere.{opposite}.json"
        assert data["opposite"]["file"] == path.name
        verdict = checker.check_file(str(path)).message
        assert verdict.startswith("VALID") and words in verdict, verdict
        provenance = json.loads(path.read_text(encoding="utf-8"))["provenance"]["command"]
        assert provenance == f"certify prove mnk:3,4,3,misere --claim {claim} --player 1"  # the command that writes it
