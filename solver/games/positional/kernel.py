"""The positional family's compiled kernel (solver/games/positional/kernel.c) as the wrapper sees it.

`kernel_for(game, hooks)` hands the kernel exactly what the hooks decide — the cell order
(cells on more lines first), the symmetries of the table key (the line set's automorphism group up
to the hooks' group_plies marks, the geometric subgroup past it), whether threats prune and the
threat space (forced replies, continuous threats, threat ordering, THREAT_BUDGET) — so
the compiled search orders and prunes as the Python one does, and closes by pairings (the hooks'
`closure`, solver/games/positional/blocking.py, with its default budget: the one the Python search
passes, solver/search/pns.py CLOSURE_BUDGET, and the hooks' `potential`) where it does.
Boards of up to 64 cells, every mark rule and goal. Plain search (NoHooks) is the canonical order
and the exact board as key, and closes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from solver.games.positional.engine import Game, Move
from solver.games.game import NoHooks
from solver.games.positional.rules import GOALS, MARK_RULES
from solver.games.positional.hooks import THREAT_BUDGET, PositionalHooks
from solver.games.positional.blocking import DEFAULT_BUDGET

MAX_CELLS = 64  # two 64-bit bitboards


@dataclass(frozen=True)
class PositionalKernel:
    """The kernel's configuration and the translation of codes to bitboards and moves."""

    game: Game
    config: tuple[Any, ...]
    family: str = "positional"

    @property
    def keys(self) -> tuple[Any, ...]:
        """What the table's keys depend on: the cells and the symmetries they are canonical under."""
        return self.config[0], self.config[5]

    def position(self, state: int) -> tuple[int, int]:
        """(X bitboard, O bitboard) of a state code: bit i is cell i."""
        board = self.game.board(state)
        x = o = 0
        for cell, mark in enumerate(board):
            if mark == 1:
                x |= 1 << cell
            elif mark == 2:
                o |= 1 << cell
        return x, o

    def move(self, code: int) -> Move:
        """The kernel's move code `4 * cell + mark`."""
        return Move(code >> 2, code & 3)

    def code(self, move: Move) -> int:
        """The kernel's code of an engine move (`move`'s inverse), for a policy's moves."""
        return 4 * move.cell + move.mark

    def state(self, exported: tuple[int, int]) -> int:
        """The engine's state code of the kernel's exported marks (X bitboard, O bitboard), for a policy:
        sum(mark * 3**cell), a byte of each bitboard at a time (a policy is called at every prover's position)."""
        x, o = exported
        tables = _byte_codes()
        return sum(table[x >> 8 * k & 255] + 2 * table[o >> 8 * k & 255] for k, table in enumerate(tables))


@cache
def _byte_codes() -> tuple[tuple[int, ...], ...]:
    """[k][b]: sum(3**(8k + i)) over the bits i of the byte b."""
    return tuple(tuple(sum(3 ** (8 * k + i) for i in range(8) if b >> i & 1) for b in range(256)) for k in range(MAX_CELLS // 8))


def kernel_for(game: Game, hooks: object) -> PositionalKernel | None:  # registered in solver/search/native.py
    """The kernel searching `game` with `hooks` (PositionalHooks of its rules, or NoHooks), or None."""
    rules = game.rules
    if rules.cells > MAX_CELLS:
        return None
    cells = range(rules.cells)
    if isinstance(hooks, PositionalHooks) and hooks.rules == rules:
        order = sorted(cells, key=lambda c: -hooks.weight[c])  # stable: as the hooks sort the moves
        symmetries, budget = (tuple(hooks.fast), tuple(hooks.group), hooks.group_plies), DEFAULT_BUDGET
        potential = int(hooks.potential)
        if hooks.closure_budget is not None:
            budget = min(budget, hooks.closure_budget)
        threats = 2 if hooks.threat_space else int(hooks.threats)  # kernel.c's levels: none, forced, threat space
    elif type(hooks) is NoHooks:
        order, symmetries, threats, budget, potential = list(cells), ((tuple(cells),), (tuple(cells),), -1), 0, 0, 0
    else:
        return None
    lines = tuple(sum(1 << c for c in line) for line in rules.lines)
    config = (rules.cells, lines, MARK_RULES.index(rules.marks), GOALS.index(rules.goal), tuple(order),
              symmetries, (threats, THREAT_BUDGET), budget, potential)
    return PositionalKernel(game, config)
