"""Every game family against the game interface (solver/games/game.py), by random playouts.

A family joins by adding GAME strings to FAMILY_GAMES; the tests only use the interface.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.games.positional.engine import Game as PositionalGame
from solver.games.families import resolve_game
from solver.games.game import Game, SearchHooks
from solver.search.retrograde import solve
from solver.games.positional.rules import RulesError, make_rules, resolve

FAMILY_GAMES = [
    "tictactoe", "w3t", "misere", "notakto", "cumulative",
    "mnk:4,4,3", "mnk:5,5,4", "mnk:4,5,4,wild", "mnk:7,7,5,misere", "mnk:6,7,4", "uttt",
]


def playout(game: Game, rng: random.Random) -> list:
    """The states of one random game from the start, checking the interface at every step."""
    state = game.initial()
    states = [state]
    mover = game.to_move(state)
    while not game.is_terminal(state):
        moves = game.legal_moves(state)
        assert moves and moves == game.legal_moves(state)  # deterministic, non-empty
        assert game.to_move(state) == mover
        move = rng.choice(moves)
        assert game.parse_move(game.format_move(move)) == move
        state = game.apply(state, move)
        states.append(state)
        mover = 3 - mover
        assert len(states) < 10_000
    assert game.legal_moves(state) == []
    p1, p2 = game.returns(state)
    assert p1 in (-1, 0, 1) and p2 == -p1
    return states


@pytest.mark.parametrize("name", FAMILY_GAMES)
def test_interface_by_playouts(name: str) -> None:
    game = resolve_game(name)
    assert isinstance(game, Game)
    assert game.rules.describe() and len(game.rules.sha256()) == 64
    rng = random.Random(name)
    for _ in range(20):
        states = playout(game, rng)
        keys = [game.key(s) for s in states]
        assert len(set(keys)) == len(keys)  # play never returns to a position
        for state in states:
            text = game.format_position(state)
            again = game.parse_position(text)
            assert game.key(again) == game.key(state)
            assert game.format_position(again) == text


def wins_at_once(game, state, player: int) -> bool:
    """Whether `player`, to move at `state`, has a move that ends the game in its win."""
    for move in game.legal_moves(state):
        after = game.apply(state, move)
        if game.is_terminal(after) and game.returns(after)[player - 1] > game.returns(after)[2 - player]:
            return True
    return False


@pytest.mark.parametrize("name", FAMILY_GAMES)
def test_hooks_keep_every_reply_that_does_not_lose_at_once_and_only_legal_moves(name: str) -> None:
    """At the opponent's turn the hooks may leave out only a reply after which the prover wins at
    once (threat space's forced replies: the proof still covers it, by that win)."""
    game = resolve_game(name)
    hooks: SearchHooks = game.search_hooks()
    rng = random.Random(name)
    for state in playout(game, rng)[:-1]:
        moves = game.legal_moves(state)
        prover = 3 - game.to_move(state)
        replies = hooks.candidates(state, moves, prover_moves=False, prover=prover)
        kept = set(map(game.format_move, replies))
        assert kept <= set(map(game.format_move, moves))
        for move in moves:
            if game.format_move(move) not in kept:
                after = game.apply(state, move)
                assert not game.is_terminal(after) and wins_at_once(game, after, prover), game.format_move(move)
        mover = game.to_move(state)
        mine = hooks.candidates(state, moves, prover_moves=True, prover=mover)
        assert set(map(game.format_move, mine)) <= set(map(game.format_move, moves))
        if not mine:  # only where every move loses at once (threat space: facing two completions)
            assert all(wins_at_once(game, game.apply(state, move), 3 - mover) for move in moves)


@pytest.mark.parametrize("name", FAMILY_GAMES)
def test_bad_positions_and_moves_are_refused(name: str) -> None:
    game = resolve_game(name)
    for text in ("", "?", "X" * 200, "/" * 9):
        with pytest.raises(ValueError):
            game.parse_position(text)
    with pytest.raises(ValueError):
        game.parse_move("nonsense")


def test_transpositions_share_a_key() -> None:
    game = resolve_game("mnk:5,5,4")
    a = game.play([game.parse_move(m) for m in ("X0", "O1", "X2")])
    b = game.play([game.parse_move(m) for m in ("X2", "O1", "X0")])
    assert game.key(a) == game.key(b)


def test_table_solver_refuses_boards_past_16_cells() -> None:
    with pytest.raises(RulesError, match="at most 16"):
        solve(resolve("mnk:5,5,4"))


def test_unknown_game_is_one_line() -> None:
    with pytest.raises(RulesError) as err:
        resolve_game("chess")
    assert "\n" not in str(err.value)


@given(st.sampled_from(["mnk:4,4,3", "w3t", "cumulative", "mnk:3,4,3,misere", "notakto"]), st.randoms())
def test_scalar_rules_match_the_vectorised_rules(name: str, rng: random.Random) -> None:
    game = PositionalGame(resolve(name))
    for state in playout(game, rng):
        labels = game.terminal_labels(np.array([state]))
        assert game.is_terminal(state) == bool(labels.terminal[0])
        if game.is_terminal(state):
            value = game.returns(state)[game.to_move(state) - 1]
            assert value == int(labels.value[0])


def test_boards_up_to_8x8_any_k() -> None:
    for rows, cols, k in ((7, 7, 5), (8, 8, 1), (1, 8, 8), (8, 3, 3)):
        rules = make_rules(f"mnk:{rows},{cols},{k}", rows, cols, "own", "first-line-wins", k=k)
        assert rules.cells == rows * cols
    with pytest.raises(RulesError):
        resolve("mnk:9,9,5")
