"""Pairing strategies: Z3's verdicts agree with plain enumeration of every allowed play; searches
find working pairings or prove none exists, with refutations that replay."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from certify.smt.bmc import check_side
from certify.smt.pairing import (
    Pairing,
    PairingStrategy,
    blocking_test,
    check_pairing,
    maximal_pairings,
    obeys,
    parse_pairing,
    search_pairings,
    urgent_cells,
)
from solver.games.positional.engine import Game, Move
from solver.games.positional.rules import resolve

CLAIM_HOLDS = {"no-loss": lambda r: r != -1, "draw": lambda r: r == 0, "win": lambda r: r == 1}


def allowed_results(game_name: str, strategy: PairingStrategy) -> set[int]:
    """The strategy player's result in every play the strategy allows, by plain enumeration."""
    rules = resolve(game_name)
    game = Game(rules)
    results = set()

    def walk(state: int, history: list[Move]) -> None:
        if game.is_terminal(state):
            results.add(game.returns(state)[strategy.player - 1])
            return
        cells = strategy.allowed(rules, history).cells
        for move in game.legal_moves(state):
            if cells is None or move.cell in cells:
                walk(game.apply(state, move), history + [move])

    walk(game.initial(), [])
    return results


PAIRINGS = list(maximal_pairings(range(9)))


@settings(max_examples=12)
@given(
    st.sampled_from(PAIRINGS),
    st.integers(0, 8),
    st.integers(0, 8),
    st.sampled_from(["cumulative", "tictactoe"]),
    st.booleans(),
)
def test_z3_agrees_with_enumeration(pairing, opening, reply, game_name, tactics):
    rules = resolve(game_name)
    strategies = [PairingStrategy(1, pairing, opening, tactics=tactics)]
    if reply != opening:
        strategies.append(PairingStrategy(2, pairing, opening, reply, tactics=tactics))
    for strategy in strategies:
        results = allowed_results(game_name, strategy)
        for claim, holds in CLAIM_HOLDS.items():
            status = check_side(rules, strategy, claim, 120).status
            assert status == ("proved" if all(holds(r) for r in results) else "refuted")


def test_the_point_symmetric_pairing_draws_exactly_for_both_roles_by_enumeration():
    """Independent of Z3: cumulative's 0-8,1-7,2-6,3-5 pairing (the search's answer below)."""
    pairing = Pairing(((0, 8), (1, 7), (2, 6), (3, 5)))
    assert allowed_results("cumulative", PairingStrategy(1, pairing, 4)) == {0}
    assert allowed_results("cumulative", PairingStrategy(2, pairing)) == {0}


def test_opponent_tactics_complete_or_block_a_line():
    # X0 X1 . / O3 O4 . / . . . : cell 2 completes X's row, cell 5 completes O's
    assert urgent_cells(resolve("cumulative"), [1, 1, 0, 2, 2, 0, 0, 0, 0]) == {2, 5}
    assert urgent_cells(resolve("cumulative"), [1, 2, 0, 0, 0, 0, 0, 0, 0]) == set()


def test_a_true_pairing_claim_is_proved():
    rules = resolve("tictactoe")
    strategy = PairingStrategy(1, parse_pairing("1-4,2-3,6-9,7-8", 9, one_based=True), 4)
    report = check_pairing(rules, strategy)
    assert report.results[0].status == "proved"  # never loses
    assert report.blocking is not None and report.blocking.passes


def test_the_blocking_test_names_an_unblocked_line():
    strategy = PairingStrategy(1, Pairing(((0, 3), (1, 2), (5, 8))), 4)
    test = blocking_test(resolve("tictactoe"), strategy)
    assert not test.passes and test.unblocked == [(6, 7, 8)]


def test_maximal_pairings_are_counted_and_distinct():
    assert len(PAIRINGS) == 9 * 105 == len({p.pairs for p in PAIRINGS})
    assert len(list(maximal_pairings(range(4)))) == 3


def test_search_finds_a_pairing_that_is_then_proved():
    rules = resolve("cumulative")
    outcome = search_pairings(rules, "1", "no-loss")
    assert outcome.result.status == "proved" and outcome.found is not None
    strategy = PairingStrategy(1, outcome.found.pairing, outcome.found.opening)
    assert -1 not in allowed_results("cumulative", strategy)


def test_search_proves_no_pairing_exists_and_every_candidate_is_refuted_by_a_kept_play():
    rules = resolve("tictactoe")
    outcome = search_pairings(rules, "2", "no-loss")
    assert outcome.result.status == "refuted" and outcome.found is None
    assert outcome.result.details["pairings_enumerated"] == 945
    game = Game(rules)
    for refutation in outcome.refutations:  # each kept play is a real game player 2 loses
        state = game.initial()
        for move in refutation.play:
            state = game.apply(state, Move(move.cell, move.mark))
        assert game.returns(state)[1] == -1
    plays = [[Move(m.cell, m.mark) for m in r.play] for r in outcome.refutations]
    assert all(any(obeys(rules, PairingStrategy(2, p), play) for play in plays) for p in PAIRINGS)


@pytest.mark.parametrize(
    "text, message",
    [("1-1", "itself"), ("1-2,2-3", "more than one pair"), ("1-10", "not a number"), ("1+2", "expected two cells")],
)
def test_bad_pairings_are_rejected(text, message):
    with pytest.raises(ValueError, match=message):
        parse_pairing(text, 9, one_based=True)
