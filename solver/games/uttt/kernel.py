"""Ultimate tic-tac-toe's compiled kernel (solver/games/uttt/kernel.c) as the wrapper sees it.

`kernel_for(game, hooks)` hands the kernel what the hooks decide: with the family's
CriticalSquares it orders and prunes exactly as they do, with NoHooks it searches every legal
move in ascending order. The table key is the exact position. Only the rules the engine
implements (OpenSpiel's, UtttRules' defaults) have a kernel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.games.game import NoHooks
from solver.games.uttt.engine import CriticalSquares, Position, Uttt, UtttRules

LOW64 = (1 << 64) - 1


@dataclass(frozen=True)
class UtttKernel:
    """The kernel's configuration and the translation of positions and moves."""

    game: Uttt
    config: tuple[Any, ...]
    family: str = "uttt"

    def position(self, state: Position) -> tuple[int, int, int, int, int]:
        """(X low, X high, O low, O high, sent): the 81-bit marks split at bit 64, the board sent to."""
        return state.x & LOW64, state.x >> 64, state.o & LOW64, state.o >> 64, state.sent

    def move(self, code: int) -> int:
        """The kernel's move code is the engine's: the global cell `9 * board + cell`."""
        return code


def kernel_for(game: Uttt, hooks: object) -> UtttKernel | None:  # registered in solver/search/native.py
    """The kernel searching `game` with `hooks` (CriticalSquares or NoHooks), or None."""
    defaults = {k: v for k, v in UtttRules().canonical().items() if k != "name"}
    if not isinstance(game, Uttt) or {k: v for k, v in game.rules.canonical().items() if k != "name"} != defaults:
        return None
    if type(hooks) is CriticalSquares:
        return UtttKernel(game, (True,))
    if type(hooks) is NoHooks:
        return UtttKernel(game, (False,))
    return None
