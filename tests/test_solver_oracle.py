"""The numpy solver agrees, state by state, with a naive minimax and with OpenSpiel."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from naive import naive_labels
from solver.games.positional.rules import BUILTIN_DESCRIPTIONS, make_rules, resolve
from solver.search.retrograde import solve


def solver_labels(rules) -> dict[int, tuple[int, int, int]]:
    solution = solve(rules)
    margins = solution.margins if solution.margins is not None else np.zeros(len(solution), np.int8)
    return {
        int(c): (int(v), int(d), int(m))
        for c, v, d, m in zip(solution.codes, solution.values, solution.distances, margins)
    }


@pytest.mark.parametrize("game", sorted(name for name in BUILTIN_DESCRIPTIONS if resolve(name).cells <= 9))  # naive minimax: 3x3
def test_builtin_games_match_naive_minimax(game):
    rules = resolve(game)
    assert solver_labels(rules) == naive_labels(rules)


@st.composite
def small_specs(draw):
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(1, 3 if rows < 3 else 2))
    cells = rows * cols
    line = st.lists(st.integers(0, cells - 1), min_size=1, max_size=min(cells, 3), unique=True)
    lines = draw(st.lists(line.map(tuple), min_size=1, max_size=6, unique_by=frozenset))
    marks = draw(st.sampled_from(["own", "either", "x-only"]))
    goal = draw(st.sampled_from(["first-line-wins", "first-line-loses"] + (["most-lines"] if marks == "own" else [])))
    return make_rules("random", rows, cols, marks, goal, lines=[list(x) for x in lines])


@settings(max_examples=60, deadline=None)
@given(small_specs())
def test_random_specs_match_naive_minimax(rules):
    assert solver_labels(rules) == naive_labels(rules)


def test_solution_is_sorted_and_rooted():
    solution = solve(resolve("w3t"))
    assert solution.codes[0] == 0
    assert np.all(np.diff(solution.codes.astype(np.int64)) > 0)


def test_best_child_realises_the_label():
    solution = solve(resolve("tictactoe"))
    live = np.flatnonzero(~solution.terminal)
    best = solution.best[live]
    assert np.array_equal(solution.values[live], -solution.values[best])
    assert np.array_equal(solution.distances[live], solution.distances[best] + 1)


def _openspiel_states(pyspiel):
    """Every reachable tic_tac_toe state of OpenSpiel → its minimax value for the side to move."""
    game = pyspiel.load_game("tic_tac_toe")
    seen: dict[int, int] = {}

    def code(state) -> int:
        text = str(state).replace("\n", "")
        return sum({".": 0, "x": 1, "o": 2}[ch] * 3**i for i, ch in enumerate(text))

    def visit(state) -> int:
        key = code(state)
        if key in seen:
            return seen[key]
        if state.is_terminal():
            returns = state.returns()
            mover = sum(1 for i in range(9) if (key // 3**i) % 3) % 2  # 0 = first player
            value = int(returns[mover])
        else:
            value = max(-visit(state.child(action)) for action in state.legal_actions())
        seen[key] = value
        return value

    visit(game.new_initial_state())
    return seen


def test_openspiel_tic_tac_toe_agrees():
    pyspiel = pytest.importorskip("pyspiel")
    oracle = _openspiel_states(pyspiel)
    solution = solve(resolve("tictactoe"))
    ours = {int(c): int(v) for c, v in zip(solution.codes, solution.values)}
    assert ours == oracle
