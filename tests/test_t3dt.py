"""T3DT (seed 002) as a policy: legality everywhere, the text's moves, and its exhaustive results
checked against an independent state-level walk with solver values."""

from __future__ import annotations

from functools import cache

import pytest

from certify.papers.t3dt import (
    CASES,
    READINGS,
    STRICT,
    board_of,
    case_results,
    code_of,
    outcome_counts,
    plays,
    t3dt_choices,
    t3dt_policy,
    tictactoe_solution,
)
from solver.games.positional.engine import Game
from solver.games.positional.rules import builtin

ROLES = (1, 2)


@cache
def game() -> Game:
    return Game(builtin("tictactoe"))


def every_state_to_move(player: int) -> list[int]:
    """Every reachable nonterminal tic-tac-toe state with `player` to move."""
    solution = tictactoe_solution()
    return [int(c) for c in solution.codes[~solution.terminal] if game().to_move(int(c)) == player]


@pytest.mark.parametrize("reading", READINGS.values(), ids=READINGS)
@pytest.mark.parametrize("player", ROLES)
def test_only_legal_moves_in_every_reachable_state(reading, player):
    policy = t3dt_policy(reading)
    states = every_state_to_move(player)
    assert len(states) > 2000
    for code in states:
        moves = policy(game(), code)
        assert moves, code
        assert set(moves) <= set(game().legal_moves(code)), code
        assert all(move.mark == player for move in moves)


def state_walk(policy, player: int) -> tuple[set[int], bool]:
    """Terminal states reached with `policy` as `player` against every opponent move, and
    whether the policy ever moves into a position the solver rates lost for it."""
    solution = tictactoe_solution()
    frontier, finals, blunder = {0}, set(), False
    while frontier:
        following = set()
        for code in frontier:
            if game().is_terminal(code):
                finals.add(code)
                continue
            if game().to_move(code) == player:
                for move in policy(game(), code):
                    child = game().apply(code, move)
                    blunder |= solution.value(child) == 1  # the opponent, to move, wins
                    following.add(child)
            else:
                following.update(game().apply(code, m) for m in game().legal_moves(code))
        frontier = following
    return finals, blunder


@pytest.mark.parametrize("reading", READINGS.values(), ids=READINGS)
@pytest.mark.parametrize("player", ROLES)
def test_exhaustive_results_agree_with_the_state_walk(reading, player):
    games = list(plays(player, reading))
    finals, blunder = state_walk(t3dt_policy(reading), player)
    # the state policy reaches exactly the final boards of the move-order-aware bot
    assert finals == {code_of(board_of(h)) for h in games}
    results = {int(game().returns(code)[player - 1]) for code in finals}
    counts = outcome_counts(player, reading)
    assert {w for w, n in counts.items() if n} == {{1: "win", 0: "draw", -1: "loss"}[r] for r in results}
    assert sum(counts.values()) == len(games)
    # against every opponent reply, a loss is reachable exactly when the bot steps into a lost position
    assert (counts["loss"] > 0) == blunder


def test_strict_reading_never_loses_in_either_role():
    # computed by both walks above; stated here because it is seed 002's central claim
    assert outcome_counts(1, STRICT)["loss"] == 0
    assert outcome_counts(2, STRICT)["loss"] == 0


@pytest.mark.parametrize(
    ("history", "expected"),
    [
        ((), set(range(9))),  # 4.1 step 1: any square
        ((0, 1), {4}),  # 4.2.1a corner, edge -> centre
        ((0, 8), {2, 6}),  # 4.2.1b corner, corner -> a remaining corner
        ((0, 4), {8}),  # 4.2.1c corner, centre -> opposite corner
        ((0, 5, 4, 8), {2}),  # 4.2.1a third move: O threatens 2; blocking comes first
        ((0, 1, 4, 8), {6}),  # 4.2.1a third move: the corner that makes the V fork
        ((1, 0), {4}),  # 4.2.2a edge, corner -> centre
        ((1, 0, 4, 7), {3, 5}),  # 4.2.2a third move: a remaining edge
        ((1, 3), {0}),  # 4.2.2b-i the square next to X1 and O1
        ((1, 3, 0, 2), {4}),  # then the centre
        ((1, 7), {0, 2}),  # 4.2.2b-ii a corner next to X1
        ((1, 7, 0, 2), {8}),  # then the corner closest to O1 and O2
        ((1, 4), {0, 2}),  # 4.2.2c a corner next to X1
        ((4, 1), {0, 2, 6, 8}),  # 4.2.3a any corner
        ((4, 0), {8}),  # 4.2.3b the opposite corner
        ((4, 0, 8, 5), {6}),  # 4.2.3b then the fork corner
        ((0,), {4}),  # 4.4.1 as O: corner -> centre
        ((0, 4, 8), {1, 3, 5, 7}),  # 4.4.1a any edge
        ((0, 4, 5), {2}),  # 4.4.1b the corner blocking both
        ((1,), {0, 2}),  # 4.4.2 a corner next to the opening edge
        ((1, 0, 5), {4}),  # 4.4.2 then the centre
        ((4,), {0, 2, 6, 8}),  # 4.4.3 a corner
        ((4, 0, 8), {2, 6}),  # 4.4.3 a remaining corner
        ((0, 4, 1, 2), {6}),  # 4.5: block before anything else
        ((0, 3, 1, 4, 8, 5), {2}),  # 4.5: win before blocking
    ],
)
def test_the_texts_moves(history, expected):
    assert t3dt_choices(history, STRICT) == frozenset(expected)


def test_loose_reading_allows_any_corner_where_the_text_motivates_a_fork():
    assert t3dt_choices((0, 1, 4, 8), READINGS["t3dt-alt"]) == frozenset({2, 6})


@pytest.mark.parametrize("reading", READINGS.values(), ids=READINGS)
def test_cases_partition_the_games_and_optimal_play_is_a_subset(reading):
    results = case_results(reading)
    assert [r.case for r in results] == list(CASES)
    total = {w: sum(r.games[w] for r in results) for w in ("win", "draw", "loss")}
    assert total == outcome_counts(1, reading)
    for result in results:
        assert result.outcomes
        assert result.optimal_outcomes <= result.outcomes
        assert result.position_values <= {"win", "draw"}  # O's first replies cannot win for O


def test_case_position_values_come_from_the_solver():
    # edge opening, O in a far corner: the solver says X wins; next to it, a draw
    solution = tictactoe_solution()
    far = code_of(board_of((1, 6)))
    near = code_of(board_of((1, 0)))
    assert solution.value(far) == 1 and solution.value(near) == 0
    edge_corner = next(r for r in case_results(STRICT) if r.case.label == "edge / corner")
    assert edge_corner.position_values == {"win", "draw"}


def test_rejects_other_games():
    with pytest.raises(ValueError, match="tic-tac-toe only"):
        t3dt_policy()(Game(builtin("misere")), 0)


@pytest.mark.parametrize("player", ROLES)
def test_state_policy_agrees_with_the_move_order_aware_bot(player):
    policy = t3dt_policy()
    for history in plays(player):
        for ply in range(player - 1, len(history), 2):
            prefix = history[:ply]
            code = code_of(board_of(prefix))
            assert {m.cell for m in policy(game(), code)} == t3dt_choices(prefix), prefix
