"""Layer: the general players, above Z3 — policies, the search and certified players, the policy audit.

Policies: players as functions from a position to the moves they may play.

A policy is called as `policy(game, code)` for a non-terminal state with its player to move and
returns every move it may choose there (a deterministic policy returns one move, a randomised
one every move it might pick). Audits quantify over all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from solver.games.positional.engine import Game, Move

Policy = Callable[[Game, int], Sequence[Move]]


class PolicySpecError(ValueError):
    """A policy that cannot be named or built for this game; the message is one line."""
