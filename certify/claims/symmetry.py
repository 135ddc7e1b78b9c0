"""Counting moves and games up to the board's symmetries (optionally with X↔O swapped)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np

from solver.search.analysis import path_counts, symmetric_image
from solver.games.positional.rules import board_symmetries
from solver.search.retrograde import Solution

Symmetry = tuple[tuple[int, ...], bool]  # a cell permutation, and whether X and O swap


def group(solution: Solution, swap: bool) -> list[Symmetry]:
    """The board symmetries, times the X↔O swap when `swap`."""
    return list(product(board_symmetries(solution.rules), (False, True) if swap else (False,)))


def edge_orbits(solution: Solution, rows: np.ndarray, swap: bool) -> np.ndarray:
    """For each move of the states at `rows` (shape (n, 2*cells), -1 if illegal), a key naming its orbit.

    Two moves (state, cell, mark) share a key exactly when a symmetry maps one onto the other.
    """
    game = solution.game
    boards = game.decode(solution.codes[rows])
    width = 2 * game.cells
    legal = solution.children(rows) >= 0
    columns = np.arange(width)
    best = np.full(legal.shape, np.iinfo(np.int64).max, dtype=np.int64)
    for symmetry in group(solution, swap):
        perm, swapped = symmetry
        codes = symmetric_image(boards, perm, swapped).astype(np.int64) @ game.pow3
        cells = np.array(perm)[columns // 2]
        marks = columns % 2 if not swapped else 1 - columns % 2
        best = np.minimum(best, codes[:, None] * width + (2 * cells + marks)[None, :])
    return np.where(legal, best, -1)


def edges_up_to_symmetry(solution: Solution, swap: bool) -> int:
    """Number of orbits of moves (state, cell, mark) over all reachable states."""
    keys = edge_orbits(solution, np.arange(len(solution)), swap)
    return len(np.unique(keys[keys >= 0]))


def _games_fixed_by(solution: Solution, symmetry: Symmetry) -> int:
    """Complete games (empty board to an end) that `symmetry` maps onto themselves, move by move."""
    perm, swapped = symmetry
    if swapped:  # no move keeps its mark under the swap, so only the empty game is fixed
        return 0
    fixed_columns = np.repeat([perm[c] == c for c in range(solution.rules.cells)], 2)
    return int(path_counts(solution, fixed_columns)[solution.terminal].sum())


def games_up_to_symmetry(solution: Solution, swap: bool) -> int:
    """Number of orbits of complete games under the symmetries (Burnside's lemma)."""
    symmetries = group(solution, swap)
    total = sum(_games_fixed_by(solution, s) for s in symmetries)
    orbits = Fraction(total, len(symmetries))
    if orbits.denominator != 1:
        raise ArithmeticError(f"Burnside count {orbits} is not an integer")
    return int(orbits)
