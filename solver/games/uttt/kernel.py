"""Ultimate tic-tac-toe's compiled kernel (solver/games/uttt/kernel.c) as the wrapper sees it.

`kernel_for(game, hooks)` hands the kernel what the rules and the hooks decide: the rules `uttt`
or the open rules (`uttt:open`); with the family's CriticalSquares it orders and prunes exactly
as they do, with NoHooks it searches every legal move in ascending order. It takes a policy
(solver/search/native.py): the kernel exports a position as the engine's fields, `state` reads them. The table key is the
exact position, who won each board included, or with CriticalSquares canonical under their grid
`symmetries` (the search root's stabilizer: CriticalSquares.for_claim) the least image in the kernel's
own packing (another representative than the Python hooks' `table_key`, of the same class). Only the
rules the engine implements have a kernel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.games.game import NoHooks
from solver.games.uttt.engine import GRID_SYMMETRIES, OPEN_RULES, CriticalSquares, Position, Uttt, UtttRules

LOW64 = (1 << 64) - 1


@dataclass(frozen=True)
class UtttKernel:
    """The kernel's configuration and the translation of positions and moves."""

    game: Uttt
    config: tuple[Any, ...]
    family: str = "uttt"

    @property
    def keys(self) -> tuple[Any, ...]:
        """What the table's keys depend on: the grid symmetries they are canonical under."""
        return self.config[3]

    def position(self, state: Position) -> tuple[int, int, int, int, int, int, int]:
        """(X low, X high, O low, O high, sent, X won, O won): the 81-bit marks split at bit 64,
        the board sent to, the boards each player won (9-bit masks)."""
        return state.x & LOW64, state.x >> 64, state.o & LOW64, state.o >> 64, state.sent, state.xw, state.ow

    def move(self, code: int) -> int:
        """The kernel's move code is the engine's: the global cell `9 * board + cell`."""
        return code

    def code(self, move: int) -> int:
        """The kernel's code of an engine move (the same number)."""
        return move

    def state(self, exported: tuple[int, int, int, int, int, int]) -> Position:
        """The engine's position for the kernel's exported fields (x, o, xw, ow, closed, sent)."""
        return Position._make(exported)


def kernel_for(game: Uttt, hooks: object) -> UtttKernel | None:  # registered in solver/search/native.py
    """The kernel searching `game` with `hooks` (CriticalSquares of the game's rules, or NoHooks), or None."""
    if not isinstance(game, Uttt) or game.rules.sha256() not in (UtttRules().sha256(), OPEN_RULES.sha256()):
        return None
    open_rules = game.rules.open
    if type(hooks) is CriticalSquares and hooks.open_rules == open_rules:
        return UtttKernel(game, (True, open_rules, hooks.win_by, hooks.symmetries, hooks.estimating))
    if type(hooks) is NoHooks:
        return UtttKernel(game, (False, open_rules, -1, GRID_SYMMETRIES[:1], False))
    return None
