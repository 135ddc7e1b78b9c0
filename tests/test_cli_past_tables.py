"""Past the 4×4 tables (issue 25): moves valued by proof search, values in one command, positions round-trip."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from certify.cli import app
from certify.proving import move_values
from solver.engine import Game
from solver.retrograde import solve
from solver.rules import resolve

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_show_values_moves_past_the_table_by_proof_search():
    result = run("show", "mnk:5,5,3", "--moves", "X12,O6", "--solve", "2000", "--json")
    assert result.exit_code == 0, result.stderr
    view = json.loads(result.stdout)
    assert [row["move"] for row in view["move_values"]] == [f"X{m['cell']}" for m in view["moves"]]
    assert {row["value"] for row in view["move_values"]} <= {"win", "draw", "loss", None}
    assert "win" in {row["value"] for row in view["move_values"]}  # X to move with a free-standing X wins 3 in a row


def test_show_says_unknown_where_the_budget_runs_out():
    result = run("show", "mnk:5,5,4", "--moves", "X12", "--solve", "5")
    assert result.exit_code == 0, result.stderr
    assert "unknown" in result.stdout and "5 nodes per question" in result.stdout


def test_searched_move_values_agree_with_the_table():
    rules = resolve("mnk:3,4,3")
    game = Game(rules)
    state = game.parse_position("X.../.O../....")
    solution = solve(rules)
    table = {}
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        table[game.format_move(move)] = {1: "loss", 0: "draw", -1: "win"}[int(solution.values[solution.index(child)])]
    searched = {row["move"]: row["value"] for row in move_values(game, state, 100_000)}
    assert searched == table


@pytest.mark.parametrize("game", ["tictactoe", "mnk:5,5,4"])
def test_show_takes_the_position_it_prints(game):
    shown = json.loads(run("show", game, "--moves", "X4,O0", "--json").stdout)
    again = run("show", game, "--position", shown["position"], "--json")
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)["code"] == shown["code"]
    assert shown["position"] in run("show", game, "--moves", "X4,O0").stdout


@pytest.mark.parametrize(
    ("args", "first"),
    [
        (["show", "tictactoe", "--solve", "10"], "error: --solve: tictactoe fits a table (at most 16 cells)"),
        (["show", "tictactoe", "--code", "3", "--position", "X../.../..."], "error: give one of --code, --moves and --position, not --code and --position"),
        (["show", "mnk:5,5,4", "--position", "X..."], "error: --position: position 'X...': expected 5 rows of 5 cells"),
    ],
)
def test_show_refuses_in_one_line(args, first):
    result = run(*args)
    assert result.exit_code == 2 and result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith(first), result.stderr
