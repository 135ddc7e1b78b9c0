"""The solving commands: output, determinism, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from certify.cli import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_solve_writes_byte_identical_files(tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert run("solve", "w3t", "-o", str(first)).exit_code == 0
    assert run("solve", "w3t", "-o", str(second)).exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    data = json.loads(first.read_text())
    assert data["claim"]["root_value"] == "win" and data["provenance"]["elapsed_seconds"] is None


def test_timed_solve_records_the_time(tmp_path):
    out = tmp_path / "t.json"
    assert run("solve", "tictactoe", "--timed", "-o", str(out), "--json").exit_code == 0
    assert json.loads(out.read_text())["provenance"]["elapsed_seconds"] >= 0


def test_stats_json_has_the_documented_fields():
    result = run("stats", "tictactoe", "--json")
    data = json.loads(result.stdout)
    for key in ("reachable_states", "terminal_states", "nonterminal_states", "edges", "games",
                "states_up_to_symmetry", "root_value", "first_moves"):
        assert key in data
    assert data["reachable_states"] == 5478


def test_show_lists_every_move_with_its_child():
    data = json.loads(run("show", "w3t", "--code", "9371", "--json").stdout)
    assert [(m["mark"], m["cell"], m["child"]) for m in data["moves"]] == [
        (1, 1, 9374), (2, 1, 9377), (1, 2, 9380), (2, 2, 9389), (1, 6, 10100), (2, 6, 10829)
    ]
    moves = json.loads(run("show", "tictactoe", "--moves", "X4,O0", "--json").stdout)
    assert moves["code"] == 1 * 3**4 + 2 * 3**0


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "chess"],
        ["stats", "mnk:9,9,3"],
        ["show", "tictactoe", "--code", "19682"],
        ["show", "tictactoe", "--code", "-5"],
        ["show", "tictactoe", "--moves", "X4,X0"],
        ["show", "tictactoe", "--moves", "Q1"],
        ["solve", "missing-spec.toml"],
    ],
)
def test_bad_input_exits_2_with_one_line(args):
    result = subprocess.run([sys.executable, "-m", "certify", *args], capture_output=True, text=True)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().startswith("error:") or "Usage" in result.stderr


def test_unwritable_output_exits_2(tmp_path):
    target = tmp_path / "dir"
    target.mkdir()
    result = subprocess.run([sys.executable, "-m", "certify", "solve", "tictactoe", "-o", str(target)],
                            capture_output=True, text=True)
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_tree_draws_the_winning_strategy_and_every_reply():
    data = json.loads(run("tree", "w3t", "--depth", "1", "--json").stdout)
    assert data["player"] == 1 and data["guarantees"] == "win"
    root = data["tree"]
    assert root["play"] in ("X4", "O4")  # only the centre wins in w3t
    assert len(root["then"]["replies"]) == 16  # 8 empty cells, two marks each
    assert run("tree", "w3t", "--player", "2").exit_code == 2


def test_schema_covers_every_kind_and_the_published_files_match_it():
    from pathlib import Path

    schema = json.loads(run("schema").stdout)
    mapping = schema["discriminator"]["mapping"]
    assert set(mapping) == {"table", "strategy", "pairing"}
    root = Path(__file__).resolve().parents[1] / "certificates"
    examples = {"table": root / "w3t.json", "strategy": next((root / "proofs").glob("*.json")),
                "pairing": next((root / "pairings").glob("*.json"))}
    for kind, path in examples.items():
        definition = schema["$defs"][mapping[kind].rsplit("/", 1)[1]]
        document = json.loads(path.read_text(encoding="utf-8"))
        assert document["kind"] == kind
        assert set(definition["required"]) <= set(document) <= set(definition["properties"]), kind
