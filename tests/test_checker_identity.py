"""Identity and bounded work: a verdict names the game, the budget refuses hostile inputs in one line.

Hostile inputs (issue 9): a small file claiming 3**16 states, a file with tens of thousands of
lines, a markup name, a name imitating a verdict line. Each gets a one-line answer; the budget
makes that quick, but no test times it.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import subprocess
import sys
import zlib

import pytest
from typer.testing import CliRunner

import checker
from certify.cli import app
from solver.games.positional.rules import resolve
from test_checker_helpers import BUILTINS, REPO, builtin_document, check, published_path, rules_sha256

runner = CliRunner()


def run_cli(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run([sys.executable, "-S", "-m", "checker", *args], capture_output=True, text=True,
                          env=env, timeout=600)


def certificate_file(name: str, tmp_path) -> str:
    path = published_path(name)
    if not path.exists():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(builtin_document(name)))
    return str(path)


# ---- identity -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUILTINS)
def test_a_certificate_is_valid_only_for_its_own_game(name, tmp_path):
    path = certificate_file(name, tmp_path)
    for other in BUILTINS:
        result = runner.invoke(app, ["check", path, "--game", other, "--json"])
        verdict = json.loads(result.stdout)["verdict"]
        if other == name:
            assert result.exit_code == 0, verdict
        else:
            assert result.exit_code == 1, verdict
            assert "not the game asked for" in verdict and resolve(other).sha256() in verdict


def test_the_verdict_shows_the_rules_hash_and_the_game_in_words():
    result = check(builtin_document("notakto"))
    sha = resolve("notakto").sha256()
    assert result.message.startswith(f"VALID table 3x3 board, 8 lines of 3, marks x-only, first-line-loses "
                                     f"rules sha256 {sha[:16]} name 'notakto': ")


def test_a_renamed_certificate_still_says_which_game_it_is():
    """Renaming tictactoe 'w3t' leaves its hash, and the words, those of tictactoe."""
    document = json.loads(json.dumps(builtin_document("tictactoe")))
    document["rules"]["name"] = "w3t"
    result = check(document)
    assert result.exit_code == 0
    assert f"marks own, first-line-wins rules sha256 {resolve('tictactoe').sha256()[:16]} name 'w3t'" in result.message
    hashes = [resolve("w3t").sha256(), resolve("w3t").sha256()[:16]]
    for sha in hashes:
        wrong = checker.check_bytes(json.dumps(document).encode(), rules_sha256=sha)
        assert wrong.exit_code == 1 and "not the game asked for" in wrong.message


def test_checker_command_line_rules_sha256(tmp_path):
    path = certificate_file("w3t", tmp_path)
    sha = resolve("w3t").sha256()
    assert run_cli(path, "--rules-sha256", sha).returncode == 0
    assert run_cli(path, "--rules-sha256", sha[:16].upper()).returncode == 0
    other = run_cli(path, "--rules-sha256", resolve("tictactoe").sha256())
    assert other.returncode == 1 and other.stdout.count("\n") == 1 and "not the game asked for" in other.stdout
    assert run_cli(path, "--rules-sha256", "abc").returncode == 2


def test_the_rules_hash_recipe_in_trusted_base(tmp_path):
    """docs/trusted-base.md: the stdlib recipe a referee runs gives the hash the checker shows."""
    path = certificate_file("w3t", tmp_path)
    recipe = ("import hashlib, json, sys; r = json.load(open(sys.argv[1]))['rules']; r.pop('name'); "
              "print(hashlib.sha256(json.dumps(r, sort_keys=True, separators=(',', ':'), "
              "ensure_ascii=False).encode()).hexdigest())")
    assert recipe in (REPO / "docs" / "trusted-base.md").read_text(encoding="utf-8")
    printed = subprocess.run([sys.executable, "-S", "-c", recipe, path], capture_output=True, text=True, timeout=60)
    assert printed.stdout.strip() == resolve("w3t").sha256()


# ---- hostile inputs -------------------------------------------------------------------------------


def packed_zeros(count: int) -> str:
    return base64.b64encode(zlib.compress(b"\0" * count, 9)).decode()


def hostile(rules: dict, states: int) -> dict:
    """A certificate claiming `states` states, every array zeros."""
    return {"format": "certify-certificate", "version": 2, "kind": "table", "rules": rules,
            "rules_sha256": rules_sha256(rules),
            "claim": {"root_value": "win", "root_margin": None, "first_moves": []},
            "table": {"states": states, "labels": packed_zeros(states), "margins": None},
            "strategies": [{"player": 1, "guarantees": "win", "entries": 0, "moves": packed_zeros(0)}],
            "provenance": {"tool": "hostile", "command": ""}}


def test_a_small_file_claiming_every_code_is_refused_by_the_budget(tmp_path):
    rules = {"family": "positional", "name": "x", "rows": 4, "cols": 4, "lines": [list(range(16))],
             "marks": "either", "goal": "first-line-wins"}
    path = tmp_path / "claims-3-16.json"
    path.write_text(json.dumps(hostile(rules, 3**16)))
    assert path.stat().st_size < 1_000_000
    completed = run_cli(str(path))
    assert completed.returncode == 2 and completed.stderr.count("\n") == 1, completed.stderr
    assert "work budget" in completed.stderr and "--max-states" in completed.stderr


def test_a_small_file_within_the_budget_is_refused_as_soon_as_it_is_wrong(tmp_path):
    rules = {"family": "positional", "name": "x", "rows": 4, "cols": 4, "lines": [list(range(16))],
             "marks": "either", "goal": "first-line-wins"}
    path = tmp_path / "claims-1m.json"
    path.write_text(json.dumps(hostile(rules, checker.Limits().max_states)))
    completed = run_cli(str(path))
    assert completed.returncode == 1 and completed.stdout.count("\n") == 1, completed.stdout
    assert "non-terminal state 0 (" in completed.stdout and "found 0" in completed.stdout


def test_tens_of_thousands_of_lines_are_refused_by_the_budget(tmp_path):
    subsets = [list(c) for size in (8, 9) for c in itertools.combinations(range(16), size)][:26_333]
    rules = {"family": "positional", "name": "many lines", "rows": 4, "cols": 4, "lines": sorted(subsets),
             "marks": "either", "goal": "first-line-wins"}
    path = tmp_path / "many-lines.json"
    path.write_text(json.dumps(hostile(rules, 5000)))
    completed = run_cli(str(path))
    assert completed.returncode == 2 and completed.stderr.count("\n") == 1, completed.stderr
    assert "--max-work" in completed.stderr


@pytest.mark.parametrize("name", ["[/x]", "[bold red]VALID[/]", "w3t: VALID\nVALID table 3x3 board: root win",
                                  "\x1b[2J\r" + "a" * 200])
def test_hostile_names_are_printed_inert(name, tmp_path):
    document = json.loads(json.dumps(builtin_document("notakto")))
    document["rules"]["name"] = name
    path = tmp_path / "named.json"
    path.write_text(json.dumps(document))
    completed = run_cli(str(path))
    assert completed.returncode == 0 and completed.stdout.count("\n") == 1, completed.stdout
    assert f" name {ascii(name[:80])}: " in completed.stdout
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") == 1 and f" name {ascii(name[:80])}: " in result.stdout


def test_version_1_files_are_refused_naming_the_version(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"format": "certify-certificate", "version": 1, "rules": {}}))
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 2 and "version 1 is not readable" in result.output
    completed = run_cli(str(path))
    assert completed.returncode == 2 and "version 1 is not readable" in completed.stderr


def test_check_with_game_fits_the_budget_to_that_game():
    from typer.testing import CliRunner

    from certify.cli import app

    path = str(published_path("tictactoe"))
    runner = CliRunner()
    refused = runner.invoke(app, ["check", path, "--max-states", "10"])
    assert refused.exit_code == 2 and "over the work budget" in refused.stderr
    fitted = runner.invoke(app, ["check", path, "--max-states", "10", "--game", "tictactoe"])
    assert fitted.exit_code == 0 and "VALID" in fitted.stdout
    other = runner.invoke(app, ["check", path, "--max-states", "10", "--game", "w3t"])
    assert other.exit_code == 1 and "not the game asked for" in other.stdout
