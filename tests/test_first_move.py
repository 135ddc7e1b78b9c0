"""`certify prove --first-move MOVE`: the search from the position after the move, written as the
claim's proof from the start; a disproof refutes the move only; the same search as --position."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import checker
from certify.cli import app
from certify.proving.single import unpack_moves
from solver.games.families import resolve_game

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def proof_of(path) -> dict:
    return json.loads(path.read_text())


@pytest.mark.parametrize("game, claim, player, move, within", [
    ("mnk:3,3,3", "no-loss", "1", "X0", None),
    ("mnk:3,3,3", "no-loss", "1", "X1", None),
    ("mnk:4,4,3", "win", "1", "X5", None),
    ("mnk:4,4,3", "win", "1", "X5", 9),
    ("uttt:open", "no-loss", "1", "4.4", 19),
])
def test_the_proof_starts_with_the_move_and_checks(tmp_path, game, claim, player, move, within):
    bound = [] if within is None else ["--within", str(within)]
    fixed, after = tmp_path / "fixed.json", tmp_path / "after.json"
    result = run("prove", game, "--claim", claim, "--player", player, "--first-move", move, *bound, "-o", str(fixed), "--json")
    assert result.exit_code == 0, result.stdout
    assert json.loads(result.stdout)["first_move"] == move
    rules = resolve_game(game)
    start = rules.initial()
    child = rules.apply(start, rules.parse_move(move))
    shorter = [] if within is None else ["--within", str(within - 1)]
    result = run("prove", game, "--claim", claim, "--player", player, "--position", rules.format_position(child), *shorter,
                 "-o", str(after), "--json")
    assert result.exit_code == 0, result.stdout
    whole, sub = proof_of(fixed), proof_of(after)
    assert whole["claim"]["root"] is None and whole["claim"].get("within") == within
    assert whole["provenance"]["command"].endswith(f"--first-move {move}") or f"--first-move {move} " in whole["provenance"]["command"]
    moves = unpack_moves(whole["proof"]["moves"], whole["proof"]["turns"])
    assert moves[0] == rules.legal_moves(start).index(rules.parse_move(move))
    assert moves[1:] == unpack_moves(sub["proof"]["moves"], sub["proof"]["turns"])  # the same search, the move before it
    assert whole["proof"]["positions"] == sub["proof"]["positions"] + 1
    verdict = checker.check_file(str(fixed), checker.Limits(), rules.rules.sha256()).message
    assert verdict.startswith("VALID") and "from the start" in verdict


def test_a_refuted_first_move_writes_nothing_and_searches_no_opposite(tmp_path):
    path = tmp_path / "x.json"
    result = run("prove", "tictactoe", "--claim", "win", "--player", "1", "--first-move", "X4", "-o", str(path), "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["status"] == "first move fails" and "opposite" not in data
    assert not path.exists()
    text = run("prove", "tictactoe", "--claim", "win", "--player", "1", "--first-move", "X4", "-o", str(path)).stdout
    assert "first move fails" in text and "not refuted" in text


def test_a_stopped_search_names_the_replies_not_first_moves(tmp_path):
    result = run("prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--first-move", "X5", "--max-nodes", "3",
                 "-o", str(tmp_path / "x.json"), "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert "first_moves" not in data and all(row["move"].startswith("O") for row in data["replies"])
    text = run("prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--first-move", "X5", "--max-nodes", "3",
               "-o", str(tmp_path / "x.json")).stdout
    assert "replies to X5 after which" in " ".join(text.split())


def test_a_position_checkpoint_resumes_under_first_move(tmp_path):
    ckpt, fresh, resumed = tmp_path / "c.ckpt", tmp_path / "fresh.json", tmp_path / "resumed.json"
    position = ".X../..../..../...."
    stopped = run("prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--position", position, "--max-nodes", "5",
                  "--checkpoint", str(ckpt), "-o", str(tmp_path / "p.json"))
    assert stopped.exit_code == 1 and ckpt.exists()
    result = run("prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--first-move", "X1", "--resume", str(ckpt),
                 "-o", str(resumed), "--json")
    assert result.exit_code == 0, result.stdout
    assert json.loads(result.stdout)["nodes_resumed"] == 5 and not ckpt.exists()
    assert run("prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--first-move", "X1", "-o", str(fresh)).exit_code == 0
    assert resumed.read_text() == fresh.read_text()


@pytest.mark.parametrize("args, message", [
    (["tictactoe", "--claim", "win", "--player", "1", "--first-move", "Z9"], "error: --first-move: 'Z9'"),
    (["tictactoe", "--claim", "no-loss", "--player", "2", "--first-move", "X4"], "error: --first-move: X4 is player 1's move"),
    (["mnk:3,3,3", "--claim", "win", "--player", "1", "--first-move", "O4", "--position", "X../.../..."],
     "error: --first-move: O4 is player 2's move"),
    (["mnk:3,3,3", "--claim", "no-loss", "--player", "2", "--first-move", "O0", "--position", "X../.../..."],
     "error: --first-move: O0 is not a legal move"),
    (["tictactoe", "--claim", "win", "--player", "1", "--first-move", "X4", "--within", "1"], "error: --first-move: with --within 1"),
    (["tictactoe", "--claim", "win", "--player", "1", "--first-move", "X4", "--value"], "error: --first-move fixes"),
    (["tictactoe", "--claim", "win", "--player", "1", "--first-move", "X4", "--workers", "2", "--within", "1"],
     "error: --first-move: with --within 1"),
])
def test_bad_first_moves_are_one_line_errors(tmp_path, args, message):
    result = run("prove", *args, "-o", str(tmp_path / "x.json"))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), result.output
    assert not (tmp_path / "x.json").exists()


def test_the_parallel_driver_searches_after_the_first_move(tmp_path):
    """--workers: the driver's jobs search the position after the move; the proof is written from the start."""
    path = tmp_path / "p.json"
    result = run("prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--first-move", "X5", "--workers", "2",
                 "--job-nodes", "40", "-o", str(path), "--json")
    assert result.exit_code == 0, result.stdout
    data = json.loads(result.stdout)
    assert data["first_move"] == "X5" and data["parallel"]["jobs"] > 0
    rules = resolve_game("mnk:4,4,3")
    whole = proof_of(path)
    assert unpack_moves(whole["proof"]["moves"], whole["proof"]["turns"])[0] == rules.legal_moves(rules.initial()).index(
        rules.parse_move("X5"))
    assert "--first-move X5" in whole["provenance"]["command"]
    assert checker.check_file(str(path)).message.startswith("VALID")
    refuted = run("prove", "tictactoe", "--claim", "win", "--player", "1", "--first-move", "X4", "--workers", "2",
                  "--job-nodes", "40", "-o", str(tmp_path / "x.json"), "--json")
    assert refuted.exit_code == 1 and json.loads(refuted.stdout)["status"] == "first move fails"
    assert not (tmp_path / "x.json").exists()


def test_a_policy_plays_after_the_first_move(tmp_path):
    """--policy: the plan is asked from the position after the move on; where it fails there, the
    report says the policy fails, not that the claim fails after the move."""
    plans = tmp_path / "plans.py"
    plans.write_text("def mirror(game, state):  # after X4 and O's corner, the opposite corner\n"
                     "    legal = game.legal_moves(state)\n"
                     "    if len(legal) != 7:\n"
                     "        return []\n"
                     "    (cell,) = set(range(9)) - {m.cell for m in legal} - {4}\n"
                     "    return [m for m in legal if m.cell == 8 - cell] if cell in (0, 2, 6, 8) else []\n"
                     "def edges(game, state):\n"
                     "    return [m for m in game.legal_moves(state) if m.cell in (1, 3, 5, 7)][:1]\n")
    path = tmp_path / "p.json"
    result = run("prove", "tictactoe", "--claim", "no-loss", "--player", "1", "--first-move", "X4",
                 "--policy", f"{plans}:mirror", "-o", str(path), "--json")
    assert result.exit_code == 0, result.stdout
    assert checker.check_file(str(path)).message.startswith("VALID")
    assert f"--first-move X4 --policy {plans}:mirror" in proof_of(path)["provenance"]["command"]
    failing = run("prove", "tictactoe", "--claim", "no-loss", "--player", "1", "--first-move", "X4",
                  "--policy", f"{plans}:edges", "-o", str(tmp_path / "x.json"), "--json")
    assert failing.exit_code == 1 and json.loads(failing.stdout)["status"] == "policy fails"
    assert not (tmp_path / "x.json").exists()
