"""Proof-search hooks of the positional family: threat-aware move ordering and safe pruning.

Table keys: the least image of the board under the automorphisms of the line set
(solver/games/positional/symmetry.py), so symmetric positions share one entry: the whole group up to
GROUP_PLIES marks, where most symmetric transpositions meet and the positions are few, and past it the
board's geometric symmetries only (a subgroup of at most 8, cheap in the compiled kernel). The key
depends on the position alone either way, and is one of its true images. Ordering: cells on more lines first (the centre of a k-in-a-row board), immediate line
completions and blocks before everything else. Pruning, only where it is sound: under
`own` marks and `first-line-wins`, when the opponent of the side to move threatens to complete a
line next turn and the side to move cannot complete one now, every move but a block loses, so the
prover searches only the blocks (with `threat_space` off, the opponent's moves are never pruned).

Threat space (`threat_space`, on by default; Allis 1994's threat-space search, restricted to
threats that complete a line next move), for either side to move, where it cannot complete a line:
- forced replies: facing one completion of the other side, only the block; facing two or more,
  nothing (every move loses: the searches value a position without candidates as lost for its mover);
- victory by continuous threats (`_vcf`): a sequence of moves, each making a threat so that the
  reply is forced, ending in a move that makes two at once, the other side never completing a line
  first; where one is found within THREAT_BUDGET steps its first move is searched first (df-pn
  takes the first of equal children, so it proves the sequence in a few nodes). Not alone: the
  sequence found depends on the board's orientation (cells are tried in order), while a table
  entry is shared by every symmetric image of a position, so an image must still find the move its
  entry was proved by. The proof then walks the sequence move by move, its forced replies and
  every other reply (each lost at once): a proof tree the checker reads as any other;
- ordering: moves making two threats first, then those making one, then the rest.
Every pruned move loses for its mover, so verdicts do not change (tests/test_threats.py). Bounded
claims (`within`) take no threat space: a forced win may come past the bound.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from copy import copy
from operator import itemgetter
from typing import Protocol, TypeVar

from solver.games.positional.blocking import CLOSING_GOALS, Closure, closing_pairing
from solver.games.positional.rules import Permutation, Rules, board_symmetries
from solver.games.positional.symmetry import line_automorphisms

# Marks on the board up to which keys use the whole group: each key then builds |group| images, so a
# large group pays near the root only (docs/proof-search.md, measured: 4x4 with k = 4, 32 elements,
# 12 marks: 2-3x fewer nodes at the same rate; Qubic, 192: 4 marks keep the node rate, 8 cut it 4x)
GROUP_PLIES, LARGE_GROUP, LARGE_GROUP_PLIES = 12, 32, 4
THREAT_BUDGET = 256  # steps (threat moves tried) of one victory-by-continuous-threats search


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

    def __init__(self, rules: Rules, board: Callable[[int], tuple[int, ...]], group_plies: int | None = None,
                 threat_space: bool = True) -> None:
        """`group_plies`: keys use the whole group up to this many marks (-1: the geometric
        symmetries everywhere; None: GROUP_PLIES, or LARGE_GROUP_PLIES for a group over LARGE_GROUP).
        `threat_space`: forced replies of either side, victory by continuous threats and threat
        ordering (the module docstring); off: only the prover's forced blocks."""
        self.rules, self.board = rules, board
        weight = [0] * rules.cells
        for line in rules.lines:
            for cell in line:
                weight[cell] += 1
        self.weight = weight
        self.threats = rules.marks == "own" and rules.goal == "first-line-wins"
        self.threat_space = self.threats and threat_space
        self.potential = False  # closures may leave lines of potential below 1/2 unpaired (blocking.py, --potential)
        self.closure_budget: int | None = None  # steps per closure at most (--closure-budget; None: the caller's)
        self.masks = [sum(1 << c for c in line) for line in rules.lines]
        self.order = sorted(range(rules.cells), key=lambda c: -weight[c])
        self.fast: list[Permutation] = board_symmetries(rules)
        off = group_plies is not None and group_plies < 0
        self.group: list[Permutation] = [tuple(range(rules.cells))] if off else list(line_automorphisms(rules))
        if group_plies is None:
            group_plies = GROUP_PLIES if len(self.group) <= LARGE_GROUP else LARGE_GROUP_PLIES
        self.group_plies = group_plies
        self.images, self.group_images = _images(self.fast, rules.cells), _images(self.group, rules.cells)

    def exact(self) -> PositionalHooks:
        """These hooks with exact table keys, no symmetry shared (a policy's search,
        solver/search/policy.py: a plan need not be symmetric)."""
        hooks = copy(self)
        hooks.fast = hooks.group = [tuple(range(self.rules.cells))]
        hooks.images = hooks.group_images = _images(hooks.fast, self.rules.cells)
        return hooks

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
        if not self.threat_space:
            if blocks and prover_moves:
                return [m for m in ordered if m.cell in blocks]
            return _first(ordered, blocks)
        if blocks:  # either side: the block, or nothing when one block leaves another completion
            return [m for m in ordered if m.cell in blocks] if len(blocks) == 1 else []
        me = sum(1 << c for c, mark in enumerate(board) if mark == mine)
        them = sum(1 << c for c, mark in enumerate(board) if mark == theirs)
        empty = sum(1 << c for c, mark in enumerate(board) if mark == 0)
        first = self._vcf(me, them, empty, [0])
        if first is not None:  # first, not alone: a symmetric image of this position shares its table entry and may take another
            return _first(ordered, {first})
        made = self._threat_moves(them, empty)
        doubles = {c for c, cells in made.items() if cells & (cells - 1)}
        return _first(_first(ordered, set(made)), doubles)

    def closure(self, state: int, prover: int, result: str, budget: int,
                plies_left: int | None = None, written: bool = True) -> Closure | bytes | None:
        """A pairing that proves a no-loss claim for `prover` (to move) here (with `potential`: or a
        potential record, bytes), or None (solver/games/positional/blocking.py); it holds to the end of
        play, so a bound (`plies_left`) changes nothing, and one pairing is found either way (`written`,
        the search asking only whether, changes nothing either: dfpn.h `close`)."""
        if result != "no-loss" or self.rules.marks != "own" or self.rules.goal not in CLOSING_GOALS:
            return None
        if self.closure_budget is not None:  # the search's and the walk's alike: the walk finds what the search found
            budget = min(budget, self.closure_budget)
        return closing_pairing(self.rules.lines, self.board(state), prover, budget, self.potential)

    def _line_completions(self, me: int, them: int, empty: int) -> int:
        """kernel.c completions: the cells (a mask) where `me` completes a line now."""
        cells = 0
        for line in self.masks:
            e = line & empty
            if e and not e & (e - 1) and not line & them and line & me:
                cells |= e
        return cells

    def _threat_moves(self, them: int, empty: int) -> dict[int, int]:
        """Each empty cell making a threat for the player without marks `them`, and the cells (a mask)
        that player would complete a line on once it is marked there."""
        made: dict[int, int] = {}
        for line in self.masks:
            e = line & empty
            if line & them or e.bit_count() != 2:
                continue
            a, b = e & -e, e & (e - 1)
            made[a.bit_length() - 1] = made.get(a.bit_length() - 1, 0) | b
            made[b.bit_length() - 1] = made.get(b.bit_length() - 1, 0) | a
        return made

    def _vcf(self, me: int, them: int, empty: int, steps: list[int]) -> int | None:
        """Victory by continuous threats for `me` to move (no line to complete now): its first move,
        or None (the module docstring; kernel.c vcf step for step, the same THREAT_BUDGET)."""
        forced = self._line_completions(them, me, empty)
        if forced & (forced - 1):
            return None
        made = self._threat_moves(them, empty)
        for cell in self.order:
            bit = 1 << cell
            if not empty & bit or not made.get(cell) or (forced and not forced & bit):
                continue
            steps[0] += 1
            if steps[0] > THREAT_BUDGET:
                return None
            mine, left = me | bit, empty & ~bit
            wins = self._line_completions(mine, them, left)
            if self._line_completions(them, mine, left):
                continue
            if wins & (wins - 1):
                return cell
            if left & ~wins and self._vcf(mine, them | wins, left & ~wins, steps) is not None:
                return cell
        return None

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
