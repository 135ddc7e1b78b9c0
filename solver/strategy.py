"""Strategies extracted from a solution: one move for each of a player's reachable turns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from solver.retrograde import Solution

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


def follow(solution: Solution, player: int) -> np.ndarray:
    """Indices of the states `player` must answer when it always plays the best move.

    The opponent plays every legal move; these are `player`'s non-terminal turns reachable so.
    """
    frontier = np.zeros(1, dtype=np.int64)  # the empty board
    turns = []
    mover = 1
    while len(frontier):
        live = frontier[~solution.terminal[frontier]]
        if mover == player:
            turns.append(live)
            frontier = np.unique(solution.best[live])
        else:
            children = solution.children(live)
            frontier = np.unique(children[children >= 0])
        mover = 3 - mover
    return np.sort(np.concatenate(turns)) if turns else np.zeros(0, dtype=np.int64)


def strategy_for(solution: Solution, player: int, guarantees: Guarantee) -> Strategy:
    """The best-move strategy of `player`, which keeps whatever the root value gives it."""
    turns = follow(solution, player)
    return Strategy(
        player=player,
        guarantees=guarantees,
        codes=solution.codes[turns],
        children=solution.codes[solution.best[turns]],
    )


def root_strategies(solution: Solution) -> list[Strategy]:
    """The winner's winning strategy, or each player's non-losing strategy for a draw."""
    root = int(solution.values[0])
    if root == 1:
        return [strategy_for(solution, 1, "win")]
    if root == -1:
        return [strategy_for(solution, 2, "win")]
    return [strategy_for(solution, 1, "no-loss"), strategy_for(solution, 2, "no-loss")]
