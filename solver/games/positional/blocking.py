"""Closing a no-loss proof by a pairing: at a position, pairs of empty cells that block every line
still open to the opponent (docs/certificate-format.md, kind `pairing`, has the argument).

A bounded backtracking search over bit masks, fast enough to try at every prover position of a
proof search on small boards: the open line with the fewest usable pairs is blocked first, each of
its pairs in turn; a branch is cut when more lines remain than the free cells' pairs can block.
Past `budget` steps it gives up (None: no closure here, which only costs the proof its shortcut).
The positional family offers it as the proof-search hook `closure` (solver/games/positional/hooks.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

Pairs = tuple[tuple[int, int], ...]
Closure = tuple[int | None, Pairs]  # the prover's first move (or None) and the pairs
DEFAULT_BUDGET = 2_000
CLOSING_GOALS = ("first-line-wins", "most-lines")


def blocking_pairs(lines: Sequence[Sequence[int]], board: Sequence[int], prover: int,
                   budget: int = DEFAULT_BUDGET) -> Pairs | None:
    """Disjoint pairs of empty cells such that every line without a mark of `prover` holds one; None
    if there are none or the search passes `budget` steps. Own marks: `prover`'s mark is `prover`."""
    open_masks = []
    for line in lines:
        if any(board[cell] == prover for cell in line):
            continue
        mask = sum(1 << cell for cell in line if board[cell] == 0)
        if mask & (mask - 1) == 0:  # fewer than two empty cells: no pair fits
            return None
        open_masks.append(mask)
    steps = [0]

    def usable(mask: int, used: int) -> list[int]:
        cells = [cell for cell in range(mask.bit_length()) if mask >> cell & 1 and not used >> cell & 1]
        return [(1 << a) | (1 << b) for a, b in combinations(cells, 2)]

    def solve(remaining: list[int], used: int) -> list[int] | None:
        if not remaining:
            return []
        steps[0] += 1
        if steps[0] > budget:
            return None
        options = [usable(mask, used) for mask in remaining]
        fewest = min(range(len(remaining)), key=lambda i: len(options[i]))
        for pair in options[fewest]:
            rest = solve([mask for mask in remaining if mask & pair != pair], used | pair)
            if rest is not None:
                return [pair, *rest]
        return None

    found = solve(open_masks, 0)
    if found is None:
        return None
    return tuple(sorted(tuple(cell for cell in range(pair.bit_length()) if pair >> cell & 1) for pair in found))  # type: ignore[misc]


def closing_pairing(lines: Sequence[Sequence[int]], board: Sequence[int], prover: int,
                    budget: int = DEFAULT_BUDGET) -> Closure | None:
    """At a position with `prover` to move: pairs blocking every open line, or else a first move of
    the prover (cells in order) after which pairs block the rest; None if neither is found."""
    pairs = blocking_pairs(lines, board, prover, budget)
    if pairs is not None:
        return None, pairs
    for cell in (cell for cell, mark in enumerate(board) if mark == 0):
        after = [prover if each == cell else mark for each, mark in enumerate(board)]
        pairs = blocking_pairs(lines, after, prover, budget)
        if pairs is not None:
            return cell, pairs
    return None
