"""Z3 value equations: the encoder's own game graph and root value agree with the numpy solver."""

from __future__ import annotations

import pytest

from certify.record.format import VALUE_WORDS
from certify.smt.graph import enumerate_graph
from certify.smt.value import cross_check_root, prove_value
from solver.search.retrograde import solve
from solver.games.positional.rules import BUILTIN_DESCRIPTIONS, TABLE_MAX_CELLS, resolve

# the built-in games the table solver takes (qubic's 64 cells are for proof search)
GAMES = [*(name for name in BUILTIN_DESCRIPTIONS if resolve(name).cells <= TABLE_MAX_CELLS),
         "mnk:2,2,2,wild", "mnk:3,3,3,misere", "mnk:2,3,2"]


@pytest.fixture(scope="module", params=GAMES)
def solved(request):
    rules = resolve(request.param)
    return rules, solve(rules)


def test_graph_holds_exactly_the_solvers_reachable_states(solved):
    rules, solution = solved
    assert sorted(enumerate_graph(rules).nodes) == [int(c) for c in solution.codes]


def test_z3_value_equals_the_solvers(solved):
    rules, solution = solved
    result = prove_value(rules, timeout=120)
    assert result.status == "proved"
    assert result.details["claimed"].split()[0] == VALUE_WORDS[int(solution.values[0])]
    if solution.margins is not None:
        assert f"(margin {int(solution.margins[0]):+d})" in result.details["claimed"]


@pytest.mark.parametrize("game", ["tictactoe", "w3t", "cumulative"])
def test_every_wrong_value_is_refuted_with_the_true_one(game):
    rules = resolve(game)
    truth = VALUE_WORDS[int(solve(rules).values[0])]
    assert cross_check_root(rules, truth, 120).status == "proved"
    for wrong in {"win", "draw", "loss"} - {truth}:
        result = cross_check_root(rules, wrong, 120)
        assert result.status == "refuted" and result.details["actual"] == truth


def test_a_wrong_margin_is_refuted():
    rules = resolve("cumulative")
    margin = int(solve(rules).margins[0])
    result = prove_value(rules, "draw" if margin == 0 else "win", margin + 1, 120)
    assert result.status == "refuted" and result.details["actual_margin"] == margin


def test_bad_claims_are_rejected():
    with pytest.raises(ValueError):
        prove_value(resolve("tictactoe"), "maybe")
    with pytest.raises(ValueError):
        prove_value(resolve("tictactoe"), "draw", 0)
