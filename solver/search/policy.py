"""A policy as proof-search hooks: the prover's moves fixed by a plan wherever it names any.

A policy (`PlanPolicy`) is a function of (game, state) giving the moves the plan allows the
prover there, or none to leave the choice to the search. `PolicyHooks` wraps the family's hooks
with it for either df-pn (solver/search/pns.py, and solver/search/native.py, which hands the
policy to the compiled core as a callback at the prover's positions).

A policy whose function has the attribute `symmetric` set true promises that it names the images
of its moves at the images of a position under the game's symmetries (up to the position's own
symmetries: Patashnik's Qubic dictionary, looked up by canonical form, certify/papers/patashnik.py).
Its search keeps the family's symmetric table keys, so a position's images share one entry; any
other policy's search takes exact keys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from solver.games.game import Game

PlanPolicy = Callable[[Any, Any], Sequence[Any]]  # (game, state) → the moves the plan allows, () for any


class PolicyMoveError(ValueError):
    """The policy named an illegal move; the message is one line."""


class PolicyHooks:
    """The family's search hooks with the prover's moves fixed by a policy wherever it names any.

    A proof found with them is the policy's strategy, checked against every reply; a disproof is
    only a disproof of the policy (its moves were the only ones tried), not of the claim.
    """

    def __init__(self, game: Game[Any, Any], policy: PlanPolicy, inner: Any) -> None:
        # keys exact, and the inner hooks' optional ones but `table_key`: a plan need not be symmetric, so
        # a symmetric image sharing the position's table entry could be proved by moves the plan forbids
        # here (`exact`: hooks whose keys are symmetric give them up, the compiled kernel's too); a
        # symmetric plan keeps them (the module docstring)
        symmetric = bool(getattr(policy, "symmetric", False))
        self.game, self.policy = game, policy
        self.inner = inner.exact() if hasattr(inner, "exact") and not symmetric else inner
        for name in ("closure", "always_close") + (("table_key",) if symmetric else ()):
            if hasattr(self.inner, name):
                setattr(self, name, getattr(self.inner, name))

    def named(self, state: Any, moves: Sequence[Any] | None = None) -> list[Any]:
        """The policy's moves in `state`, [] where it names none; raises PolicyMoveError if it
        names a move that is not legal (`moves`, or the game's legal moves, listed only then)."""
        named = list(self.policy(self.game, state))
        if named:
            legal = set(self.game.legal_moves(state) if moves is None else moves)
            illegal = [m for m in named if m not in legal]
            if illegal:
                raise PolicyMoveError(f"the policy names {self.game.format_move(illegal[0])}, not legal in "
                                      f"{self.game.format_position(state)}")
        return named

    def candidates(self, state: Any, moves: Sequence[Any], prover_moves: bool, prover: int) -> list[Any]:
        """The policy's moves at the prover's turns where it names any; else the family's choice."""
        named = self.named(state, moves) if prover_moves else []
        return named or self.inner.candidates(state, moves, prover_moves, prover)
