"""Strategies by bounded model checking: certificate strategies proved, false claims refuted with
counterexamples that replay through the engine as real violations."""

from __future__ import annotations

import pytest

from certify.record.certificate import build_certificate
from certify.smt.bmc import ReplayDisagreement, TableStrategy, certificate_strategies, check_side, replay
from solver.games.positional.engine import Game, Move
from solver.games.positional.rules import resolve


def lowest_cell_strategy(game_name: str, player: int) -> TableStrategy:
    """`player` always takes the lowest empty cell (own mark): a strategy for every reachable turn."""
    rules = resolve(game_name)
    game = Game(rules)
    moves: dict[tuple[int, ...], Move] = {}
    stack = [game.initial()]
    seen = set()
    while stack:
        state = stack.pop()
        if state in seen or game.is_terminal(state):
            continue
        seen.add(state)
        legal = game.legal_moves(state)
        if game.to_move(state) == player:
            legal = [min(legal)]
            moves[game.board(state)] = legal[0]
        stack += [game.apply(state, m) for m in legal]
    return TableStrategy(player, "no-loss", moves)


def replays_as(rules, moves):
    """The engine's result of a play for both players, after checking every move is legal."""
    game = Game(rules)
    state = game.initial()
    for move in moves:
        state = game.apply(state, move)
    assert game.is_terminal(state)
    return game.returns(state)


@pytest.mark.parametrize("game", ["tictactoe", "w3t", "cumulative", "notakto"])
def test_certificate_strategies_are_proved(game):
    rules = resolve(game)
    for strategy in certificate_strategies(build_certificate(rules)):
        claim = "win" if strategy.guarantees == "win" else "no-loss"
        assert check_side(rules, strategy, claim, 120).status == "proved"


def test_a_false_strategy_claim_is_refuted_by_a_real_loss():
    rules = resolve("tictactoe")
    strategy = lowest_cell_strategy("tictactoe", 1)
    result = check_side(rules, strategy, "no-loss", 120)
    assert result.status == "refuted"
    moves = [Move(m.cell, m.mark) for m in result.counterexample]
    assert replays_as(rules, moves)[0] == -1  # player 1 really loses
    for ply, move in enumerate(result.counterexample):
        if move.player == 1:  # and really played by the strategy
            board = [0] * rules.cells
            for earlier in moves[:ply]:
                board[earlier.cell] = earlier.mark
            assert strategy.moves[tuple(board)] == moves[ply]


def test_claiming_a_win_for_a_drawing_strategy_is_refuted_by_a_draw():
    rules = resolve("tictactoe")
    (first, _) = certificate_strategies(build_certificate(rules))
    result = check_side(rules, first, "win", 120)
    assert result.status == "refuted"
    assert replays_as(rules, [Move(m.cell, m.mark) for m in result.counterexample])[0] == 0


def test_a_strategy_with_a_missing_entry_is_refuted_where_it_has_no_move():
    rules = resolve("w3t")
    (strategy,) = certificate_strategies(build_certificate(rules))
    deep = max(strategy.moves, key=lambda board: sum(1 for m in board if m))
    holed = TableStrategy(1, "win", {b: m for b, m in strategy.moves.items() if b != deep})
    result = check_side(rules, holed, "win", 120)
    assert result.status == "refuted" and "no move" in result.details["replay"]
    board = [0] * rules.cells
    for move in result.counterexample:
        board[move.cell] = move.mark
    assert tuple(board) == deep


def test_replay_rejects_a_play_that_does_not_violate_the_claim():
    rules = resolve("tictactoe")
    (first, _) = certificate_strategies(build_certificate(rules))
    game = Game(rules)
    state, moves = game.initial(), []
    while not game.is_terminal(state):  # the strategy against the lowest-cell opponent: a draw
        board = game.board(state)
        move = first.moves[board] if game.to_move(state) == 1 else min(game.legal_moves(state))
        moves.append(move)
        state = game.apply(state, move)
    with pytest.raises(ReplayDisagreement):
        replay(rules, first, "no-loss", moves)
