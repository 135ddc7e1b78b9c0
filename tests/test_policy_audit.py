"""Exhaustive audits: refutations that replay to a loss, exact odds on a hand-computed game, flaws."""

from __future__ import annotations

from fractions import Fraction

import pytest

from certify.policy.audit import Outcome, PolicyError, audit_policy
from certify.players.registry import builtin_policy
from certify.policy.registry import uniform_random
from solver.games.positional.engine import Game, Move
from solver.search.retrograde import solve
from solver.games.positional.rules import make_rules, resolve

# 1x3 board, lines {0,1} and {1,2}, X then O; worked by hand in the comments below.
TINY = make_rules("tiny", 1, 3, "own", "first-line-wins", k=2)


def replay(rules, moves) -> int:
    game = Game(rules)
    state = game.initial()
    for move in moves:
        state = game.apply(state, move)
    return state


@pytest.mark.parametrize("player", [1, 2])
def test_random_play_is_refuted_by_a_game_that_really_loses(player):
    rules = resolve("tictactoe")
    result = audit_policy(rules, uniform_random, player, "random")
    assert not result.never_loses
    final = replay(rules, result.losing_game)
    game = Game(rules)
    assert game.is_terminal(final) and game.returns(final)[player - 1] == -1
    # shortest: no terminal state with fewer marks is a loss for `player` (random reaches them all)
    solution = solve(rules)
    lost = [len([c for c in game.board(int(code)) if c]) for code, end in zip(solution.codes, solution.terminal)
            if end and game.returns(int(code))[player - 1] == -1]
    assert len(result.losing_game) == min(lost)


def test_random_against_random_on_the_tiny_game():
    # X0 or X2 (2/3): O takes the middle -> draw, or the far end -> X completes a line; X1 (1/3) always wins.
    first = audit_policy(TINY, uniform_random, 1, "random")
    assert first.random_opponent == Outcome(Fraction(2, 3), Fraction(1, 3), Fraction(0))
    assert first.never_loses  # O never has two marks
    second = audit_policy(TINY, uniform_random, 2, "random")
    assert second.random_opponent == Outcome(Fraction(0), Fraction(1, 3), Fraction(2, 3))
    assert len(second.losing_game) == 3 and replay(TINY, second.losing_game) in (14, 22)


def test_flaws_on_the_tiny_game():
    # only X1 wins the empty board; X0 and X2 let O draw. No other X choice is ever free.
    result = audit_policy(TINY, uniform_random, 1, "random")
    (flaw,) = result.value_errors
    assert flaw.code == 0 and set(flaw.chosen) == {Move(0, 1), Move(2, 1)} and flaw.optimal == (Move(1, 1),)
    assert result.slow_wins == ()


def test_certified_on_the_tiny_game():
    policy = builtin_policy("certified", TINY)
    assert audit_policy(TINY, policy, 1).random_opponent == Outcome(Fraction(1), Fraction(0), Fraction(0))
    # as O: after X1 every reply loses; after X0 or X2, O takes the middle and draws
    assert audit_policy(TINY, policy, 2).random_opponent == Outcome(Fraction(0), Fraction(2, 3), Fraction(1, 3))


def test_slower_wins_are_counted_for_minimax_and_not_for_aba():
    rules = resolve("tictactoe")
    solution = solve(rules)
    slow = audit_policy(rules, builtin_policy("alphabeta", rules), 1, solution=solution)
    quick = audit_policy(rules, builtin_policy("alphabeta-depth", rules), 1, solution=solution)
    assert slow.never_loses and quick.never_loses
    assert slow.slow_wins and not quick.slow_wins
    for flaw in slow.slow_wins:  # each listed move really is slower than each listed fastest one
        game = Game(rules)
        plies = lambda m: int(solution.distances[solution.index(game.apply(flaw.code, m))]) + 1  # noqa: E731
        assert min(plies(m) for m in flaw.chosen) > max(plies(m) for m in flaw.optimal)


def broken(kind):
    def policy(game, code):
        if kind == "illegal":
            return [Move(0, 2)]  # O's mark on X's turn at the start
        if kind == "empty":
            return []
        if kind == "twice":
            return [game.legal_moves(code)[0]] * 2
        raise RuntimeError("boom")

    return policy


@pytest.mark.parametrize("kind, words", [("illegal", "not a legal move"), ("empty", "no move"),
                                         ("twice", "twice"), ("raises", "RuntimeError: boom")])
def test_a_broken_policy_is_reported_with_the_state(kind, words):
    with pytest.raises(PolicyError, match=words) as err:
        audit_policy(TINY, broken(kind), 1)
    assert "state 0" in str(err.value) and "\n" not in str(err.value)
