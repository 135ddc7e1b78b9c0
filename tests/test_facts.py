"""Established facts about tic-tac-toe, found independently of any paper under audit."""

from __future__ import annotations

from solver.search.analysis import board_symmetries, path_counts, predecessors, stats
from solver.search.retrograde import solve
from solver.games.positional.rules import make_rules, resolve


def test_tictactoe_counts():
    result = stats(solve(resolve("tictactoe")))
    assert result.reachable_states == 5478
    assert result.terminal_states == {"first_player_wins": 626, "second_player_wins": 316, "draws": 16}
    assert result.nonterminal_states == 5478 - 958
    assert sum(result.games.values()) == 255168
    assert result.games == {"first_player_wins": 131184, "second_player_wins": 77904, "draws": 46080}
    assert result.states_up_to_symmetry == {"board": 765}
    assert result.root_value == "draw"
    assert all(move["value"] == "draw" for move in result.first_moves)


def test_square_board_has_eight_symmetries_and_rectangle_four():
    assert len(board_symmetries(resolve("tictactoe"))) == 8
    assert len(board_symmetries(resolve("mnk:3,4,3"))) == 4


def test_symmetries_respect_an_explicit_line_set():
    # only the first row is a line: the left-right mirror keeps it, rotations do not
    rules = make_rules("row", 3, 3, "own", "first-line-wins", lines=[[0, 1, 2]])
    assert board_symmetries(rules) == [(0, 1, 2, 3, 4, 5, 6, 7, 8), (2, 1, 0, 5, 4, 3, 8, 7, 6)]


def test_paths_to_a_board_without_a_line_are_orderings_of_its_marks():
    solution = solve(resolve("tictactoe"))
    code = 1 * 3**0 + 2 * 3**4 + 1 * 3**8  # X0 O4 X8: 2 orders of the Xs, 1 of the O
    assert path_counts(solution)[solution.index(code)] == 2
    assert predecessors(solution, code) == sorted([code - 3**0, code - 3**8])


def test_small_games_known_by_hand():
    # 1x1, one line: the first mark completes it
    assert solve(make_rules("one", 1, 1, "own", "first-line-wins", k=1)).values[0] == 1
    assert solve(make_rules("one", 1, 1, "own", "first-line-loses", k=1)).values[0] == -1
    # 1x2 with K=2 under own marks: nobody can complete a line, a draw at the full board
    solution = solve(make_rules("pair", 1, 2, "own", "first-line-wins", k=2))
    assert (solution.values[0], solution.distances[0]) == (0, 2)
    # ...but with wild marks the second player completes it
    assert solve(make_rules("pair", 1, 2, "either", "first-line-wins", k=2)).values[0] == -1


def test_notakto_and_misere():
    assert solve(resolve("notakto")).values[0] == 1  # centre first wins a single board
    assert solve(resolve("misere")).values[0] == 0
