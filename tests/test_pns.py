"""Proof-number search against the table solver: the same values at the root and elsewhere."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.games.positional.engine import Game
from solver.games.game import NoHooks
from solver.search.pns import Claim, ProofSearch
from solver.search.prooftree import canonical_strategy
from solver.search.retrograde import solve
from solver.games.positional.rules import BUILTIN_DESCRIPTIONS, make_rules, resolve

SMALL_GAMES = [*(name for name in BUILTIN_DESCRIPTIONS if resolve(name).cells <= 9), "mnk:3,4,3", "mnk:2,4,2,wild", "mnk:2,4,2,misere"]


def sample_states(game: Game, rng: random.Random, count: int) -> list[int]:
    """The root and non-terminal states of random plays."""
    states = [game.initial()]
    while len(states) < count:
        state = game.initial()
        while not game.is_terminal(state):
            if rng.random() < 0.3:
                states.append(state)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    return states[:count]


def assert_agrees(game: Game, states: list[int], hooks: object) -> None:
    """For both players and both claims, PNS proves exactly what the table says."""
    table = solve(game.rules)
    for state in states:
        mover_value = table.value(state)
        for player in (1, 2):
            value = mover_value if game.to_move(state) == player else -mover_value
            for result, holds in (("win", value == 1), ("no-loss", value >= 0)):
                search = ProofSearch(game, Claim(player, result), hooks)  # type: ignore[arg-type]
                outcome = search.search(state)
                assert outcome.status == ("proved" if holds else "disproved"), (state, player, result)


@pytest.mark.parametrize("name", SMALL_GAMES)
def test_pns_matches_the_table(name: str) -> None:
    game = Game(resolve(name))
    states = sample_states(game, random.Random(name), 4)
    assert_agrees(game, states, game.search_hooks())
    assert_agrees(game, states[:1], NoHooks())


@settings(max_examples=20)
@given(
    rows=st.integers(1, 3), cols=st.integers(1, 3), k=st.integers(1, 3),
    marks=st.sampled_from(["own", "either", "x-only"]),
    goal=st.sampled_from(["first-line-wins", "first-line-loses", "most-lines"]),
    seed=st.integers(0, 2**16),
)
def test_pns_matches_the_table_on_random_specs(rows: int, cols: int, k: int, marks: str, goal: str, seed: int) -> None:
    if k > max(rows, cols) or (goal == "most-lines" and marks != "own"):
        return
    game = Game(make_rules("spec", rows, cols, marks, goal, k=k))
    assert_agrees(game, sample_states(game, random.Random(seed), 3), game.search_hooks())


def test_strategy_of_a_proof_ends_every_play_as_claimed() -> None:
    game = Game(resolve("mnk:4,4,3"))
    search = ProofSearch(game, Claim(1, "win"), game.search_hooks())
    assert search.search(game.initial()).status == "proved"
    tree = canonical_strategy(game, game.initial(), 1, search.proved_move)
    strategy: dict[int, int] = {}

    def follow(state: int) -> None:  # plain recursion, independent of the traversal order
        if game.is_terminal(state):
            assert game.returns(state)[0] == 1
        elif game.to_move(state) == 1:
            strategy.setdefault(state, 0)
            follow(game.apply(state, search.proved_move(state)))
        else:
            for move in game.legal_moves(state):
                follow(game.apply(state, move))

    follow(game.initial())
    assert len(strategy) == len(tree.moves)
    assert tree.positions > len(tree.moves) and tree.terminals > 0


def test_budget_stops_and_resumes() -> None:
    game = Game(resolve("misere"))
    search = ProofSearch(game, Claim(1, "no-loss"), game.search_hooks())
    first = search.search(game.initial(), max_nodes=50)
    assert first.status == "node budget" and first.nodes == 50
    assert first.root_pn > 0 and first.root_dn > 0
    assert search.search(game.initial()).status == "proved"


def test_ctrl_c_is_a_clean_interrupted_result() -> None:
    game = Game(resolve("mnk:4,4,3"))

    class Interrupting:
        calls = 0

        def candidates(self, state, moves, prover_moves, prover):  # type: ignore[no-untyped-def]
            self.calls += 1
            if self.calls == 30:
                raise KeyboardInterrupt
            return list(moves)

    outcome = ProofSearch(game, Claim(1, "win"), Interrupting()).search(game.initial())  # type: ignore[arg-type]
    assert outcome.status == "interrupted"


SMALL_PROOF_BYTES = 50_000  # larger proofs take the checker minutes: the slow test checks them


@pytest.mark.parametrize("small", [pytest.param(True), pytest.param(False, marks=pytest.mark.slow)])
def test_published_proofs_are_valid(small: bool) -> None:
    """Every proof in certificates/proofs checks VALID with the independent checker."""
    import json
    from pathlib import Path

    import checker
    from certify.publish.record import large_limits

    files = sorted((Path(__file__).resolve().parents[1] / "certificates" / "proofs").glob("*.json"))
    for path in [f for f in files if (f.stat().st_size <= SMALL_PROOF_BYTES) == small]:
        document = json.loads(path.read_text(encoding="utf-8"))
        result = checker.check_document(document, large_limits(path))  # the proof's own budget, as publish gives it
        assert result.exit_code == 0, (path.name, result.message)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "player"), [("mnk:4,4,3,misere", 2), ("mnk:4,4,3", 1)])
def test_4x4_wins_agree_with_the_4x4_tables(name: str, player: int) -> None:
    """The two methods agree at the root of the 4x4 games whose proofs are published."""
    game = Game(resolve(name))
    value = solve(game.rules).value(0)  # for player 1, who moves first
    for_player = value if player == 1 else -value
    assert for_player == 1
    outcome = ProofSearch(game, Claim(player, "win"), game.search_hooks()).search(game.initial())
    assert outcome.status == "proved"
