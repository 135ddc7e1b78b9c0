"""`certify z3 ...`: results with exit 0, one-line errors with exit 2, exit 1 on a disagreement."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from certify.record.certificate import build_certificate, write_certificate
from certify.cli import app
from certify.smt.bmc import ReplayDisagreement
from solver.games.positional.rules import resolve

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, ["z3", *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def w3t_certificate(tmp_path_factory):
    path = tmp_path_factory.mktemp("certs") / "w3t.json"
    write_certificate(build_certificate(resolve("w3t")), path)
    return path


def test_value_of_a_certificate_is_proved(w3t_certificate):
    result = run("value", str(w3t_certificate), "--json")
    assert result.exit_code == 0
    (only,) = json.loads(result.stdout)["results"]
    assert only["status"] == "proved" and only["details"]["claimed"] == "win"


def test_a_wrong_claimed_value_is_refuted_with_exit_1():
    result = run("value", "tictactoe", "--claim", "win", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["results"][0]["status"] == "refuted"


def test_strategy_of_a_certificate_is_proved(w3t_certificate):
    result = run("strategy", str(w3t_certificate))
    assert result.exit_code == 0 and "PROVED" in result.stdout


def test_cert_gives_the_claim_and_the_strategies_of_a_certificate_about_game(w3t_certificate):
    value = run("value", "w3t", "--cert", str(w3t_certificate), "--json")
    assert value.exit_code == 0
    assert json.loads(value.stdout)["results"][0]["details"]["claimed"] == "win"
    from_file = run("strategy", "w3t", "--cert", str(w3t_certificate), "--json")
    solved_now = run("strategy", "w3t", "--json")
    assert from_file.exit_code == solved_now.exit_code == 0
    checks = [[r["check"] for r in json.loads(result.stdout)["results"]] for result in (from_file, solved_now)]
    assert checks[0] == checks[1] == ["w3t: player 1's strategy table (97 entries) wins every play"]


@pytest.mark.parametrize("command", ["value", "strategy"])
def test_cert_about_another_game_is_one_line_exit_2(command, w3t_certificate):
    result = run(command, "tictactoe", "--cert", str(w3t_certificate))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == f"error: {w3t_certificate}: certificate is for 'w3t', not for 'tictactoe' (rules differ)"
    twice = run(command, str(w3t_certificate), "--cert", str(w3t_certificate))
    assert twice.exit_code == 2 and twice.stderr.startswith(f"error: {w3t_certificate} is a certificate already")


def test_pairing_check_draws_its_counterexample_one_based():
    result = run("pairing", "cumulative", "--player", "1", "--pairs", "1-2,3-6,4-7,8-9", "--opening", "5", "--one-based", "--json")
    assert result.exit_code == 1  # some of the pairing's properties are refuted
    refuted = [r for r in json.loads(result.stdout)["results"] if r["status"] == "refuted"]
    assert refuted and all(r["counterexample_moves"][0] == "X5 (opening)" for r in refuted)


def test_pairing_search_json_lists_the_refutations():
    result = run("pairing", "tictactoe", "--search", "--player", "2", "--json")
    assert result.exit_code == 1  # no pairing exists: the search's claim is refuted
    data = json.loads(result.stdout)
    assert data["results"][0]["status"] == "refuted" and data["refutations"]
    assert all(r["verdict"] == "player 2 loses" for r in data["refutations"])


@pytest.mark.parametrize(
    "args",
    [
        ["value", "nosuchgame"],
        ["value", "w3t", "--claim", "maybe"],
        ["value", "w3t", "--margin", "1"],
        ["strategy", "mnk:5,5,3"],
        ["strategy", "w3t", "--cert", "no-such-certificate.json"],
        ["value", "w3t", "--cert", "no-such-certificate.json"],
        ["pairing", "cumulative"],
        ["pairing", "cumulative", "--pairs", "1-1", "--one-based"],
        ["pairing", "cumulative", "--pairs", "1-2,2-3"],
        ["pairing", "cumulative", "--pairs", "1-2", "--opening", "10", "--one-based"],
        ["pairing", "cumulative", "--player", "3", "--pairs", "1-2"],
        ["pairing", "cumulative", "--player", "1", "--pairs", "1-2", "--reply", "3"],
        ["pairing", "cumulative", "--player", "both", "--pairs", "1-2"],
        ["pairing", "cumulative", "--search", "--property", "sometimes"],
        ["pairing", "cumulative", "--search", "--pairs", "1-2"],
    ],
)
def test_bad_input_exits_2_with_one_line(args):
    result = run(*args)
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "error:" in result.stderr


def test_a_certificate_whose_rules_do_not_match_their_hash_is_bad_input(w3t_certificate, tmp_path):
    data = json.loads(w3t_certificate.read_text())
    data["rules"]["marks"] = "own"  # the name is outside the hash; the marks are not
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    result = run("strategy", str(forged))
    assert result.exit_code == 2 and "rules_sha256" in result.stderr


def test_a_counterexample_that_does_not_replay_exits_1(monkeypatch, w3t_certificate):
    def disagree(*_args, **_kwargs):
        raise ReplayDisagreement("the engine says player 1 wins")

    monkeypatch.setattr("certify.cli.z3.check_side", disagree)
    result = run("strategy", str(w3t_certificate))
    assert result.exit_code == 1 and "internal disagreement" in result.stderr
