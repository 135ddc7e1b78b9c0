"""Proof-search hooks of the positional family: threat-aware move ordering and safe pruning.

Table keys: the least image of the board under the symmetries of the rules, so symmetric
positions share one entry. Ordering: cells on more lines first (the centre of a k-in-a-row board), immediate line
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
from solver.games.positional.rules import Rules, board_symmetries


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

    def __init__(self, rules: Rules, board: Callable[[int], tuple[int, ...]]) -> None:
        self.rules, self.board = rules, board
        weight = [0] * rules.cells
        for line in rules.lines:
            for cell in line:
                weight[cell] += 1
        self.weight = weight
        self.threats = rules.marks == "own" and rules.goal == "first-line-wins"
        images = []
        for perm in board_symmetries(rules):
            inverse = [0] * rules.cells
            for cell, image in enumerate(perm):
                inverse[image] = cell
            images.append(itemgetter(*inverse) if rules.cells > 1 else lambda board: board)
        self.images = images

    def table_key(self, state: int) -> bytes:
        """The least symmetric image of the board, as bytes: symmetric positions share an entry."""
        board = self.board(state)
        return bytes(min(image(board) for image in self.images))

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


def _first(moves: list[P], cells: set[int]) -> list[P]:
    """All `moves`, those on `cells` first (stable)."""
    return [m for m in moves if m.cell in cells] + [m for m in moves if m.cell not in cells]
