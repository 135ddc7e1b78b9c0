"""The position readers (issue 19, items 1-3): the checker's and the solver's accept exactly the same
positions, and every position they accept is reachable in play or documented as a starting position.

Positional games: a position is accepted iff play from the empty board reaches it (docs/rules.md,
"Positions"), checked on every board of small random games. Ultimate tic-tac-toe: both readers
accept the same positions, and refuse those docs/uttt.md names.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import checker.positional
import checker.uttt
from checker.load import NotACertificate
from solver.games.positional.engine import Game
from solver.games.families import resolve_game
from solver.games.positional.rules import Rules, make_rules
from solver.games.uttt.engine import PositionError
from test_checker_helpers import random_rules


def text_of(rules: Rules, board: tuple[int, ...]) -> str:
    marks = "".join(".XO"[mark] for mark in board)
    return "/".join(marks[start:start + rules.cols] for start in range(0, rules.cells, rules.cols))


@cache
def reachable(rules: Rules) -> frozenset[tuple[int, ...]]:
    """Every board play reaches from the empty board, by the checker's own move generator."""
    game = checker_game(rules)
    seen = {checker.positional.initial(game)}
    frontier = list(seen)
    while frontier:
        frontier = list({child for board in frontier for _, child in checker.positional.moves(game, board)} - seen)
        seen.update(frontier)
    return frozenset(tuple(board) for board in seen)  # the checker's boards are bytes


@cache
def checker_game(rules: Rules) -> checker.positional.Game:
    return checker.positional.parse_rules(rules.canonical())


@cache
def solver_game(rules: Rules) -> Game:
    return Game(rules)


def checker_accepts(rules: Rules, text: str) -> bool:
    try:
        checker.positional.parse_position(checker_game(rules), text)
    except NotACertificate:
        return False
    return True


def solver_accepts(rules: Rules, text: str) -> bool:
    try:
        solver_game(rules).parse_position(text)
    except ValueError:
        return False
    return True


def boards(rules: Rules) -> st.SearchStrategy[tuple[int, ...]]:
    return st.lists(st.sampled_from((0, 0, 1, 2)), min_size=rules.cells, max_size=rules.cells).map(tuple)


@settings(max_examples=200)
@given(st.data())
def test_positional_readers_accept_exactly_the_reachable_boards(data: st.DataObject) -> None:
    rules = data.draw(random_rules())
    board = data.draw(boards(rules))
    text = text_of(rules, board)
    expected = board in reachable(rules)
    assert checker_accepts(rules, text) == expected, (rules, text)
    assert solver_accepts(rules, text) == expected, (rules, text)


@pytest.mark.parametrize("name", ["tictactoe", "w3t", "misere", "notakto", "cumulative"])
def test_every_3x3_board_is_accepted_iff_reachable(name: str) -> None:
    rules = resolve_game(name).rules
    every = range(3**rules.cells)
    for number in every:
        board = tuple(number // 3**cell % 3 for cell in range(rules.cells))
        text = text_of(rules, board)
        expected = board in reachable(rules)
        assert checker_accepts(rules, text) == solver_accepts(rules, text) == expected, text


@pytest.mark.parametrize(("game", "position"), [
    ("mnk:3,3,3", "XXX/OO./O.."),  # issue 19: O "wins" a board where X has three in a row
    ("mnk:3,3,3", "XXX/OOO/X.."),  # lines of both marks
    ("mnk:3,3,3,misere", "XXX/OO./..O"),  # misère: X to move "wins" after completing its own line
    ("w3t", "XXX/OOO/X.."),  # wild: two lines no single move completed
    ("mnk:4,4,3", "XXX./OOO./X.../O..."),
])
def test_impossible_positions_are_refused_by_both_readers(game: str, position: str) -> None:
    rules = resolve_game(game).rules
    assert not checker_accepts(rules, position)
    assert not solver_accepts(rules, position)


def test_a_line_through_the_last_move_is_accepted() -> None:
    rules = make_rules("wild", 3, 3, "either", "first-line-wins", k=3)
    assert checker_accepts(rules, "XXX/X../X..") and solver_accepts(rules, "XXX/X../X..")


# ---- ultimate tic-tac-toe ----------------------------------------------------------------------


def uttt_checker_accepts(text: str) -> bool:
    try:
        checker.uttt.parse_position(checker.uttt.RULES, text)
    except NotACertificate:
        return False
    return True


def uttt_solver_accepts(text: str) -> bool:
    try:
        resolve_game("uttt").parse_position(text)
    except PositionError:
        return False
    return True


def uttt_text(cells: list[int], sent: str) -> str:
    """Cells given board by board (9 * board + cell), written in reading order of the grid."""
    rows = ["".join(".XO"[cells[9 * (r // 3 * 3 + c // 3) + r % 3 * 3 + c % 3]] for c in range(9)) for r in range(9)]
    return "/".join(rows) + " " + sent


@st.composite
def uttt_positions(draw: st.DrawFn) -> str:
    """Boards drawn as a whole from few patterns, so that won boards and meta lines are common."""
    patterns = [[0] * 9, [1, 1, 1, 0, 2, 0, 2, 0, 0], [2, 2, 2, 1, 0, 1, 0, 1, 0], [1, 2, 1, 1, 2, 2, 2, 1, 1],
                [1, 0, 0, 0, 2, 0, 0, 0, 0]]
    cells = [mark for _ in range(9) for mark in draw(st.sampled_from(patterns))]
    for _ in range(draw(st.integers(0, 3))):
        cells[draw(st.integers(0, 80))] = draw(st.integers(0, 2))
    return uttt_text(cells, draw(st.sampled_from([*"012345678", "*"])))


@settings(max_examples=300)
@given(uttt_positions())
def test_uttt_readers_accept_the_same_positions(text: str) -> None:
    assert uttt_checker_accepts(text) == uttt_solver_accepts(text), text


def test_uttt_both_meta_lines_are_refused_by_both_readers() -> None:
    x_board, o_board, empty = [1, 1, 1, 2, 2, 0, 0, 0, 0], [2, 2, 2, 1, 1, 0, 0, 0, 0], [0] * 9
    cells = [m for board in (x_board, x_board, x_board, o_board, o_board, o_board, empty, empty, empty) for m in board]
    text = uttt_text(cells, "*")
    assert not uttt_solver_accepts(text)
    assert not uttt_checker_accepts(text)


def test_uttt_sent_to_a_board_on_the_empty_grid_is_refused_by_both_readers() -> None:
    text = uttt_text([0] * 81, "4")
    assert not uttt_solver_accepts(text)
    assert not uttt_checker_accepts(text)
    assert uttt_checker_accepts(uttt_text([0] * 81, "*")) and uttt_solver_accepts(uttt_text([0] * 81, "*"))
