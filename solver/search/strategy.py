"""Strategies extracted from a solution: one move for each of a player's reachable turns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from solver.search.retrograde import NO_MOVE, Solution, drain, mark_children

Guarantee = Literal["win", "no-loss"]


@dataclass(frozen=True)
class Strategy:
    """For `player`, the state codes where it moves and the child code it moves to."""

    player: int
    guarantees: Guarantee
    codes: np.ndarray  # uint32, ascending
    children: np.ndarray  # uint32, the state after the chosen move

    def __len__(self) -> int:
        return len(self.codes)


def follow(solution: Solution, player: int, moves: np.ndarray | None = None) -> np.ndarray:
    """Codes (uint32, ascending) of the states `player` must answer when it always plays the best move.

    The opponent plays every legal move; these are `player`'s non-terminal turns reachable so.
    `moves` is `solution.move_table()`, computed here if not given. The walk goes layer by
    layer over a bitmap of codes, so no per-state matrix of children is ever built.
    """
    game = solution.game
    moves = solution.move_table() if moves is None else moves
    reached = np.zeros(3**game.cells, dtype=bool)
    frontier = np.zeros(1, dtype=np.int64)  # the empty board
    turns = []
    for depth in range(game.cells + 1):
        live = frontier[moves[frontier] != NO_MOVE]
        if not len(live):
            break
        mover = 1 + depth % 2
        if mover == player:
            turns.append(live)
            reached[live + game.move_offsets[moves[live]]] = True
        else:
            mark_children(game, reached, live, game.rules.marks_for(mover))
        frontier = drain(reached).astype(np.int64)
    return np.sort(np.concatenate(turns)).astype(np.uint32) if turns else np.zeros(0, dtype=np.uint32)


def strategy_for(solution: Solution, player: int, guarantees: Guarantee) -> Strategy:
    """The best-move strategy of `player`, which keeps whatever the root value gives it."""
    moves = solution.move_table()
    codes = follow(solution, player, moves)
    offsets = solution.game.move_offsets[moves[codes]]
    return Strategy(
        player=player,
        guarantees=guarantees,
        codes=codes,
        children=(codes + offsets).astype(np.uint32),
    )


def root_strategies(solution: Solution) -> list[Strategy]:
    """The winner's winning strategy, or each player's non-losing strategy for a draw."""
    root = int(solution.values[0])
    if root == 1:
        return [strategy_for(solution, 1, "win")]
    if root == -1:
        return [strategy_for(solution, 2, "win")]
    return [strategy_for(solution, 1, "no-loss"), strategy_for(solution, 2, "no-loss")]
