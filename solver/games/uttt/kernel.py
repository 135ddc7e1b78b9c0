"""Ultimate tic-tac-toe's compiled kernel (solver/games/uttt/kernel.c) as the wrapper sees it.

`kernel_for(game, hooks)` hands the kernel what the rules and the hooks decide: the rules `uttt`
or the open rules (`uttt:open`); with the family's CriticalSquares it orders and prunes exactly
as they do, with NoHooks it searches every legal move in ascending order. It takes a policy
(solver/search/native.py): `state` reads an exported position back. The table key is the
exact position, who won each board included. Only the rules the engine implements have a kernel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.games.game import NoHooks
from solver.games.uttt.engine import FULL9, OPEN_RULES, CriticalSquares, Position, Uttt, UtttRules, chunk

LOW64 = (1 << 64) - 1


@dataclass(frozen=True)
class UtttKernel:
    """The kernel's configuration and the translation of positions and moves."""

    game: Uttt
    config: tuple[Any, ...]
    family: str = "uttt"

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

    def state(self, position: tuple[int, int, int, int, int, int, int]) -> Position:
        """The engine's position for the kernel's form (`position`'s inverse)."""
        x_low, x_high, o_low, o_high, sent, xw, ow = position
        x, o = x_low | x_high << 64, o_low | o_high << 64
        full = sum(1 << b for b in range(9) if chunk(x | o, b) == FULL9)
        return Position(x, o, xw, ow, full if self.game.rules.open else full | xw | ow, sent)


def kernel_for(game: Uttt, hooks: object) -> UtttKernel | None:  # registered in solver/search/native.py
    """The kernel searching `game` with `hooks` (CriticalSquares of the game's rules, or NoHooks), or None."""
    if not isinstance(game, Uttt) or game.rules.sha256() not in (UtttRules().sha256(), OPEN_RULES.sha256()):
        return None
    open_rules = game.rules.open
    if type(hooks) is CriticalSquares and hooks.open_rules == open_rules:
        return UtttKernel(game, (True, open_rules))
    if type(hooks) is NoHooks:
        return UtttKernel(game, (False, open_rules))
    return None
