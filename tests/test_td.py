"""One-step TD self-play for cumulative tic-tac-toe (seed 004): determinism, the convergence test,
the TCD evaluation, and the frozen greedy policy (short runs only; full runs are in the report)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from certify.papers.td import (
    INITS,
    TdParams,
    cumulative_solution,
    first_converged,
    frozen_policy,
    head_to_head,
    initial_tables,
    tcd,
    tcd_range,
    train,
)
from solver.games.positional.engine import Game
from solver.games.positional.rules import builtin

SHORT = TdParams(max_episodes=3_000, window=500, threshold=1e-8)


def boards_of(*codes: int) -> np.ndarray:
    return Game(builtin("cumulative")).decode(np.array(codes))


def code_from_rows(rows: str) -> int:
    """`..X/OXO/X..` → state code."""
    marks = {".": 0, "X": 1, "O": 2}
    cells = [marks[c] for c in rows.replace("/", "")]
    return sum(m * 3**i for i, m in enumerate(cells))


@pytest.mark.parametrize("init", INITS)
def test_training_is_deterministic_for_a_seed(init):
    first, again = train(init, 7, SHORT), train(init, 7, SHORT)
    assert (first.episodes, first.player1_wins, first.draws) == (again.episodes, again.player1_wins, again.draws)
    assert np.array_equal(first.v1, again.v1) and np.array_equal(first.v2, again.v2)
    other = train(init, 8, SHORT)
    assert not np.array_equal(first.v1, other.v1)


def test_training_moves_the_tables_and_keeps_terminal_payoffs():
    solution = cumulative_solution()
    start = initial_tables(solution, "tcd", np.random.default_rng(0))
    run = train("tcd", 3, SHORT)
    assert not np.array_equal(run.v1, start[0])
    assert np.array_equal(run.v1[solution.terminal], start[0][solution.terminal])
    assert run.player1_wins + run.draws <= run.episodes


def test_first_converged_matches_direct_sample_variances():
    rng = np.random.default_rng(1)
    rates = np.cumsum(rng.integers(0, 2, 4_000)) / np.arange(1, 4_001)
    draws = np.cumsum(rng.integers(0, 2, 4_000)) / np.arange(1, 4_001)
    window = 300
    variances = [
        max(rates[n - window : n].var(ddof=1), draws[n - window : n].var(ddof=1)) for n in range(window, 4_001)
    ]
    threshold = float(np.quantile(variances, 0.05))
    expected = window + next(i for i, v in enumerate(variances) if v < threshold)
    assert first_converged(rates, draws, 1, window, threshold) == expected
    assert first_converged(rates, draws, expected + 1, window, threshold) > expected
    assert first_converged(rates, draws, 1, window, 0.0) is None


def test_tcd_by_hand():
    # empty board: 8 - 8; X in the centre, O to move: 4 lines free of X, 8 free of O
    assert tcd(boards_of(0, code_from_rows(".../.X./...")), builtin("cumulative").lines).tolist() == [0, -4]
    # O to move; no line is free of X, five are free of O (one is X's complete diagonal)
    board = boards_of(code_from_rows("..X/OXO/X.."))
    assert tcd(board, builtin("cumulative").lines).tolist() == [-5]
    assert tcd(board, builtin("cumulative").lines, view="player-1").tolist() == [5]


def test_tcd_range_is_computed_over_reachable_states():
    span = tcd_range(cumulative_solution())
    assert span.side_to_move[0] <= -5  # the hand-checked board above is reachable
    assert span.side_to_move[0] <= span.side_to_move[1]
    assert span.side_to_move_all[0] <= span.side_to_move[0] and span.side_to_move[1] <= span.side_to_move_all[1]


def test_tcd_initialisation_is_zero_sum_and_scaled():
    solution = cumulative_solution()
    v1, v2 = initial_tables(solution, "tcd", np.random.default_rng(0))
    assert np.array_equal(v1, -v2)
    assert v1[0] == pytest.approx(-1 / 3)  # empty board: d_TCD = 0 for player 1, (0 - 1)/3
    after_centre = solution.index(code_from_rows(".../.X./..."))
    assert v2[after_centre] == pytest.approx((-4 - 1) / 3)  # the mover's table holds the mover's score


@pytest.mark.parametrize("init", INITS)
def test_frozen_policy_plays_only_legal_moves(init):
    solution = cumulative_solution()
    game = solution.game
    policy = frozen_policy(train(init, 11, SHORT), solution)
    for code in solution.codes[~solution.terminal]:
        code = int(code)
        moves = policy(game, code)
        assert moves and set(moves) <= set(game.legal_moves(code))


def test_frozen_policy_returns_every_tie():
    solution = cumulative_solution()
    untrained = train("zero", 0, TdParams(max_episodes=0))
    moves = frozen_policy(untrained, solution)(solution.game, 0)
    assert len(moves) == 9  # every successor of the empty board is valued 0


def test_head_to_head_reaches_only_full_boards():
    solution = cumulative_solution()
    finals = head_to_head(solution, frozen_policy(train("tcd", 5, SHORT), solution))
    assert sum(finals.values()) >= 1


def test_frozen_policy_rejects_other_games():
    policy = frozen_policy(train("zero", 0, TdParams(max_episodes=0)))
    with pytest.raises(ValueError, match="trained on"):
        policy(Game(builtin("tictactoe")), 0)


def test_literal_update_never_teaches_the_second_players_table():
    # the text updates only the mover's table at the state it left, toward its value at a state
    # where the other player moves; player 2 never makes the last move, so V2 never changes
    solution = cumulative_solution()
    start = initial_tables(solution, "zero", np.random.default_rng(0))
    literal = train("zero", 2, SHORT)
    assert np.array_equal(literal.v2, start[1])
    both = train("zero", 2, TdParams(update="both", max_episodes=3_000, window=500))
    assert not np.array_equal(both.v2, start[1])


def test_literal_update_with_tcd_changes_only_entries_the_policy_never_reads():
    # with TCD initialisation the literal rule does write V2, but only at states where player 2
    # moves; player 2's greedy choice reads V2 at the successors (player 1 to move), so its
    # frozen policy is the initial one
    solution = cumulative_solution()
    game = Game(solution.rules)
    start = initial_tables(solution, "tcd", np.random.default_rng(126))
    run = train("tcd", 126, SHORT, solution)
    changed = np.flatnonzero(run.v2 != start[1])
    assert len(changed) > 0
    assert all(game.to_move(int(solution.codes[row])) == 2 for row in changed)
    trained = frozen_policy(run, solution)
    initial = frozen_policy(dataclasses.replace(run, v1=start[0], v2=start[1]), solution)
    for row in np.flatnonzero(~solution.terminal):
        code = int(solution.codes[row])
        if game.to_move(code) == 2:
            assert trained(game, code) == initial(game, code)
