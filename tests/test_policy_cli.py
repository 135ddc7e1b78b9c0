"""`certify policy list|audit` and `certify play`: output, exit codes, one-line errors, the play loop."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from certify.record.certificate import build_certificate, certificate_json
from certify.cli import app
from solver.games.positional.rules import resolve

runner = CliRunner()
TINY_SPEC = {"name": "tiny", "rows": 1, "cols": 3, "k": 2, "marks": "own", "goal": "first-line-wins"}


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin, catch_exceptions=False)


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY_SPEC))
    return str(path)


def test_list_names_the_builtins():
    names = json.loads(run("policy", "list", "--json").stdout)
    assert {"random", "minimax", "alphabeta", "alphabeta-depth", "certified"} <= set(names)


def test_audit_of_random_is_refuted_with_exit_1(tiny):
    result = run("policy", "audit", tiny, "--policy", "random", "--player", "2")
    assert result.exit_code == 1
    assert "REFUTED" in result.stdout and "3-move game" in result.stdout


def test_audit_json_of_certified_proves_both_sides(tiny):
    result = run("policy", "audit", tiny, "--policy", "certified", "--json")
    assert result.exit_code == 1  # X1 wins the tiny game, so O can lose
    audits = json.loads(result.stdout)["audits"]
    assert [a["player"] for a in audits] == [1, 2]
    assert audits[0]["never_loses"] and audits[0]["random_opponent"]["win"] == "1"
    assert not audits[1]["never_loses"] and audits[1]["random_opponent"]["loss"] == "1/3"


def test_a_json_table_policy_is_audited(tiny, tmp_path):
    table = tmp_path / "table.json"
    # X: take the middle; then the only free cell
    table.write_text(json.dumps({"0": [[1, 1]], "5": [[2, 1]], "21": [[0, 1]]}))
    result = run("policy", "audit", tiny, "--policy", str(table), "--player", "1", "--json")
    assert result.exit_code == 0, result.stdout
    (audit,) = json.loads(result.stdout)["audits"]
    assert audit["never_loses"] and audit["random_opponent"]["win"] == "1" and audit["value_errors"] == []


def test_a_module_function_policy_is_audited(tiny, tmp_path):
    module = tmp_path / "mine.py"
    module.write_text("def first(game, code):\n    return game.legal_moves(code)[:1]\n")
    result = run("policy", "audit", tiny, "--policy", f"{module}:first", "--player", "1", "--json")
    (audit,) = json.loads(result.stdout)["audits"]
    assert audit["value_errors"][0]["chosen"] == ["X0"]  # the first move gives up the win


def test_a_table_missing_a_state_fails_the_audit_in_one_line(tiny, tmp_path):
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"0": [[0, 1]]}))
    result = run("policy", "audit", tiny, "--policy", str(table), "--player", "1")
    assert result.exit_code == 1
    assert "no entry for state" in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("spec, words", [
    ("nope", "unknown policy 'nope'"),
    ("os:no_such_function", "has no attribute"),
    ("no_such_module_xyz:f", "cannot be imported"),
    ("missing.json", "missing.json: no such file"),
    ("missing.py:f", "no such file"),
    ("os:sep", "not callable"),
])
def test_bad_policy_specs_exit_2_with_one_line(spec, words):
    result = run("policy", "audit", "tictactoe", "--policy", spec)
    assert result.exit_code == 2
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_malformed_table_exits_2(tmp_path):
    table = tmp_path / "bad.json"
    for text, words in (('{"0": [[0]]}', "[cell, mark] pairs"), ('{"x": []}', "not a state code"), ("[1]", "must be an object"), ("{", "not valid JSON")):
        table.write_text(text)
        result = run("policy", "audit", "tictactoe", "--policy", str(table))
        assert result.exit_code == 2 and words in result.stderr


def test_play_a_whole_game_with_illegal_input_reasked():
    # try every cell in turn: taken cells are refused and asked again until the game ends
    moves = "\n".join(["hello", *[str(c) for c in range(9)] * 2]) + "\n"
    result = run("play", "tictactoe", "--player", "1", "--seed", "7", stdin=moves)
    assert result.exit_code == 0
    assert "is not a move" in result.stdout and "is taken" in result.stdout
    assert "game over" in result.stdout
    assert ("The certified player wins." in result.stdout) or ("Draw." in result.stdout)
    assert "You win." not in result.stdout
    assert result.stdout.count("┌") >= 6  # the board drawn after every move


def test_play_wild_asks_for_a_mark_and_stops_cleanly_at_end_of_input():
    result = run("play", "w3t", "--player", "2", "--seed", "1", stdin="4\n")
    assert result.exit_code == 0
    assert "say which mark, X4 or O4" in result.stdout and "end of input" in result.stdout
    assert "you play second;" in result.stdout  # either mark: no "you play O"


def test_play_is_reproducible_with_a_seed():
    moves = "\n".join(str(c) for c in range(9)) * 2 + "\n"
    first = run("play", "tictactoe", "--player", "2", "--seed", "3", stdin=moves).stdout
    assert first == run("play", "tictactoe", "--player", "2", "--seed", "3", stdin=moves).stdout


def test_play_from_a_certificate(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(certificate_json(build_certificate(resolve("tictactoe"))))
    result = run("play", "tictactoe", "--cert", str(path), stdin="")
    assert result.exit_code == 0 and "VALID by the independent checker" in " ".join(result.stdout.split())
    wrong = run("play", "w3t", "--cert", str(path), stdin="")
    assert wrong.exit_code == 2 and "not for 'w3t'" in wrong.stderr
