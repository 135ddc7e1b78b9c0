"""The search players: real searches that agree with the solver, and seed 002's Fig. 3 behaviour."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st

from certify.papers.search_audit import FIG3_BOARD
from certify.policy.search import search
from solver.games.positional.engine import Game
from solver.search.retrograde import solve
from solver.games.positional.rules import resolve

RULES = resolve("tictactoe")
SOLUTION = solve(RULES)
GAME = Game(RULES)
MARKS = (GAME.decode(SOLUTION.codes) != 0).sum(axis=1)
# states with at least two marks: small enough trees for plain minimax in a test
SEARCHABLE = SOLUTION.codes[(~SOLUTION.terminal) & (MARKS >= 2)].tolist()


def value_optimal(code: int) -> set:
    """The moves the solver says keep the value of `code`."""
    value = SOLUTION.value(code)
    return {m for m in GAME.legal_moves(code) if -SOLUTION.value(GAME.apply(code, m)) == value}


def fastest(code: int) -> set:
    """The value-optimal moves that win fastest or lose slowest."""
    best = SOLUTION.distances[SOLUTION.index(code)]
    return {m for m in value_optimal(code) if SOLUTION.distances[SOLUTION.index(GAME.apply(code, m))] + 1 == best}


@given(st.sampled_from(SEARCHABLE))
def test_every_search_finds_the_solver_value(code):
    value = SOLUTION.value(code)
    ties = {alg: search(GAME, code, alg, "all") for alg in ("minimax", "alphabeta", "alphabeta-depth")}
    assert ties["minimax"].score == ties["alphabeta"].score == value
    assert np.sign(ties["alphabeta-depth"].score) == value
    assert set(ties["minimax"].moves) == set(ties["alphabeta"].moves) == value_optimal(code)
    assert set(ties["alphabeta-depth"].moves) == fastest(code)


@given(st.sampled_from(SEARCHABLE))
def test_first_best_is_the_first_of_the_ties(code):
    for algorithm in ("minimax", "alphabeta", "alphabeta-depth"):
        first = search(GAME, code, algorithm, "first").moves
        assert first == search(GAME, code, algorithm, "all").moves[:1]


def test_alpha_beta_prunes():
    code = GAME.apply(GAME.apply(0, GAME.legal_moves(0)[4]), GAME.legal_moves(GAME.apply(0, GAME.legal_moves(0)[4]))[0])
    plain, pruned = search(GAME, code, "minimax"), search(GAME, code, "alphabeta")
    assert pruned.moves == plain.moves and pruned.nodes < plain.nodes


def test_fig3_minimax_and_alphabeta_take_a_slower_win_and_aba_the_fastest():
    code = sum(mark * 3**cell for cell, mark in enumerate(FIG3_BOARD))
    assert SOLUTION.value(code) == 1
    quickest = fastest(code)
    for algorithm in ("minimax", "alphabeta"):
        (move,) = search(GAME, code, algorithm).moves
        assert move in value_optimal(code) and move not in quickest
    (move,) = search(GAME, code, "alphabeta-depth").moves
    assert move in quickest


def test_a_finished_game_has_nothing_to_search():
    terminal = int(SOLUTION.codes[SOLUTION.terminal][0])
    with pytest.raises(ValueError):
        search(GAME, terminal, "alphabeta")


def test_cached_game_refuses_illegal_moves_like_game():
    with pytest.raises(ValueError):
        GAME.apply(GAME.apply(0, GAME.legal_moves(0)[0]), GAME.legal_moves(0)[0])
