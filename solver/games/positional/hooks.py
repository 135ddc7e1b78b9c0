"""Proof-search hooks of the positional family: threat-aware move ordering and safe pruning.

Table keys: the least image of the board under the automorphisms of the line set
(solver/games/positional/symmetry.py), so symmetric positions share one entry: the whole group up to
GROUP_PLIES marks, where most symmetric transpositions meet and the positions are few, and past it the
board's geometric symmetries only (a subgroup of at most 8, cheap in the compiled kernel). The key
depends on the position alone either way, and is one of its true images. Ordering: cells on more lines first (the centre of a k-in-a-row board), immediate line
completions and blocks before everything else. Pruning, only where it is sound: under
`own` marks and `first-line-wins`, when the opponent of the side to move threatens to complete a
line next turn and the side to move cannot complete one now, every move but a block loses, so the
prover searches only the blocks (the opponent's moves are never pruned).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Protocol, TypeVar

from solver.games.positional.blocking import CLOSING_GOALS, Closure, closing_pairing
from solver.games.positional.rules import Permutation, Rules, board_symmetries
from solver.games.positional.symmetry import line_automorphisms

# Marks on the board up to which keys use the whole group: each key then builds |group| images, so a
# large group pays near the root only (docs/proof-search.md, measured: 4x4 with k = 4, 32 elements,
# 12 marks: 2-3x fewer nodes at the same rate; Qubic, 192: 4 marks keep the node rate, 8 cut it 4x)
GROUP_PLIES, LARGE_GROUP, LARGE_GROUP_PLIES = 12, 32, 4


class Placement(Protocol):
    """A positional move as the hooks read it (solver.games.positional.engine.Move): a mark placed on a cell."""

    @property
    def cell(self) -> int: ...

    @property
    def mark(self) -> int: ...


P = TypeVar("P", bound=Placement)


class PositionalHooks:
    """`SearchHooks` (solver/games/game.py) for the positional game of `rules`, whose states `board` decodes.

    Given the rules and the decoder rather than the engine, so the engine can offer these hooks
    without the two modules importing each other.
    """

    def __init__(self, rules: Rules, board: Callable[[int], tuple[int, ...]], group_plies: int | None = None) -> None:
        """`group_plies`: keys use the whole group up to this many marks (-1: the geometric
        symmetries everywhere; None: GROUP_PLIES, or LARGE_GROUP_PLIES for a group over LARGE_GROUP)."""
        self.rules, self.board = rules, board
        weight = [0] * rules.cells
        for line in rules.lines:
            for cell in line:
                weight[cell] += 1
        self.weight = weight
        self.threats = rules.marks == "own" and rules.goal == "first-line-wins"
        self.fast: list[Permutation] = board_symmetries(rules)
        off = group_plies is not None and group_plies < 0
        self.group: list[Permutation] = [tuple(range(rules.cells))] if off else list(line_automorphisms(rules))
        if group_plies is None:
            group_plies = GROUP_PLIES if len(self.group) <= LARGE_GROUP else LARGE_GROUP_PLIES
        self.group_plies = group_plies
        self.images, self.group_images = _images(self.fast, rules.cells), _images(self.group, rules.cells)

    def table_key(self, state: int) -> bytes:
        """The least symmetric image of the board, as bytes: symmetric positions share an entry."""
        board = self.board(state)
        near_root = self.rules.cells - board.count(0) <= self.group_plies
        return bytes(min(image(board) for image in (self.group_images if near_root else self.images)))

    def candidates(self, state: int, moves: Sequence[P], prover_moves: bool, prover: int) -> list[P]:
        """The moves to search in `state`, best first (see the module docstring)."""
        weight = self.weight
        ordered = sorted(moves, key=lambda m: -weight[m.cell])
        if not self.threats or not ordered:
            return ordered
        board = self.board(state)
        mine = ordered[0].mark
        theirs = 3 - mine
        wins, blocks = self._completions(board, mine, theirs)
        if wins:
            return [m for m in ordered if m.cell in wins] if prover_moves else _first(ordered, wins | blocks)
        if blocks and prover_moves:
            return [m for m in ordered if m.cell in blocks]
        return _first(ordered, blocks)

    def closure(self, state: int, prover: int, result: str, budget: int, plies_left: int | None = None) -> Closure | None:
        """A pairing that proves a no-loss claim for `prover` (to move) here, or None (solver/games/positional/blocking.py);
        it holds to the end of play, so a bound (`plies_left`) changes nothing."""
        if result != "no-loss" or self.rules.marks != "own" or self.rules.goal not in CLOSING_GOALS:
            return None
        return closing_pairing(self.rules.lines, self.board(state), prover, budget)

    def _completions(self, board: tuple[int, ...], mine: int, theirs: int) -> tuple[set[int], set[int]]:
        """Cells completing a line of `mine` now, and cells where `theirs` would complete one."""
        wins: set[int] = set()
        blocks: set[int] = set()
        for line in self.rules.lines:
            empty = [c for c in line if board[c] == 0]
            if len(empty) != 1:
                continue
            owners = {board[c] for c in line if board[c]}
            if owners == {mine}:
                wins.add(empty[0])
            elif owners == {theirs}:
                blocks.add(empty[0])
        return wins, blocks


def _images(perms: list[Permutation], cells: int) -> list[Callable[[tuple[int, ...]], tuple[int, ...]]]:
    """For each permutation, the function from a board to its image (the mark on cell i moved to perm[i])."""
    images = []
    for perm in perms:
        inverse = [0] * cells
        for cell, image in enumerate(perm):
            inverse[image] = cell
        images.append(itemgetter(*inverse) if cells > 1 else lambda board: board)
    return images


def _first(moves: list[P], cells: set[int]) -> list[P]:
    """All `moves`, those on `cells` first (stable)."""
    return [m for m in moves if m.cell in cells] + [m for m in moves if m.cell not in cells]
