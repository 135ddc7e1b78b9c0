"""The certified player: proved never to lose where the game allows, and built on checked certificates."""

from __future__ import annotations

import json

import pytest

from certify.record.certificate import CertificateError, build_certificate, certificate_json
from certify.policy.audit import audit_policy
from certify.policy.certified import CertificateRejected, certified_policy, checked_labels
from certify.players.registry import builtin_policy
from solver.search.retrograde import solve
from solver.games.positional.rules import resolve


@pytest.mark.parametrize("name", ["tictactoe", "w3t", "cumulative"])
def test_certified_never_loses_unless_the_game_is_lost(name):
    rules = resolve(name)
    solution = solve(rules)
    policy = certified_policy(rules)
    for player in (1, 2):
        result = audit_policy(rules, policy, player, "certified", solution)
        root_for_player = solution.value(0) if player == 1 else -solution.value(0)
        assert result.never_loses == (root_for_player >= 0)
        assert result.value_errors == () and result.slow_wins == ()


def test_w3t_second_player_loss_is_forced_and_certified_proves_the_rest():
    rules = resolve("w3t")
    solution = solve(rules)
    assert solution.value(0) == 1  # the first player wins: no second-player policy can never lose
    assert audit_policy(rules, certified_policy(rules), 1, solution=solution).never_loses


@pytest.mark.parametrize("player", [1, 2])
def test_certified_does_at_least_as_well_against_random_as_aba(player):
    rules = resolve("tictactoe")
    solution = solve(rules)
    ours = audit_policy(rules, certified_policy(rules), player, solution=solution).random_opponent
    aba = audit_policy(rules, builtin_policy("alphabeta-depth", rules), player, solution=solution).random_opponent
    assert ours.expected >= aba.expected


def test_ties_are_returned_whole():
    rules = resolve("tictactoe")
    player = certified_policy(rules)
    # the empty board: the four corners are symmetric, so a chosen corner comes with all four
    chosen = {m.cell for m in player.choices(0)}
    assert chosen & {0, 2, 6, 8} in (set(), {0, 2, 6, 8})


def write(path, certificate) -> None:
    path.write_text(certificate_json(certificate))


def test_a_certificate_for_other_rules_is_refused(tmp_path):
    path = tmp_path / "w3t.json"
    write(path, build_certificate(resolve("w3t")))
    with pytest.raises(CertificateError, match="not for 'tictactoe'"):
        checked_labels(resolve("tictactoe"), path)


def test_a_false_certificate_is_rejected_by_the_checker(tmp_path):
    rules = resolve("tictactoe")
    path = tmp_path / "tictactoe.json"
    write(path, build_certificate(rules))
    data = json.loads(path.read_text())
    data["claim"]["root_value"] = "win"  # tic-tac-toe is a draw
    path.write_text(json.dumps(data))
    with pytest.raises(CertificateRejected, match="INVALID"):
        checked_labels(rules, path)


def test_a_checked_certificate_gives_the_same_player_as_solving(tmp_path):
    rules = resolve("tictactoe")
    path = tmp_path / "tictactoe.json"
    write(path, build_certificate(rules))
    from_file = certified_policy(rules, checked_labels(rules, path))
    solved = certified_policy(rules)
    for code in (0, 1, 3**4, 1 + 2 * 3**4):
        assert from_file.choices(code) == solved.choices(code)
