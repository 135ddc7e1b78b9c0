"""The general players by name: each name maps to a factory that builds the policy for a game.

The papers' players (certify/papers/) join them in certify/players/registry.py, where
`builtin_policy` looks up any built-in name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from certify.policy import Policy
from certify.policy.certified import certified_policy
from certify.policy.search import Algorithm, Ties, search_policy
from solver.games.positional.engine import Game, Move
from solver.games.positional.rules import Rules

PolicyFactory = Callable[[Rules], Policy]


@dataclass(frozen=True)
class BuiltinPolicy:
    """A policy factory and a one-line description of the player it builds."""

    factory: PolicyFactory
    summary: str


def uniform_random(game: Game, code: int) -> list[Move]:
    """Every legal move: the player that picks one uniformly at random."""
    return game.legal_moves(code)


def _search(algorithm: Algorithm, ties: Ties) -> PolicyFactory:
    return lambda rules: search_policy(rules, algorithm, ties)


_FIRST = "ties to the first move by cell, then mark"
_ALL = "ties broken uniformly at random"

SEARCH_POLICIES: dict[str, BuiltinPolicy] = {
    "minimax": BuiltinPolicy(_search("minimax", "first"), f"plain minimax, full depth; {_FIRST}"),
    "minimax-random": BuiltinPolicy(_search("minimax", "all"), f"plain minimax, full depth; {_ALL}"),
    "alphabeta": BuiltinPolicy(_search("alphabeta", "first"), f"minimax with alpha-beta pruning (ABP); {_FIRST}"),
    "alphabeta-random": BuiltinPolicy(_search("alphabeta", "all"), f"minimax with alpha-beta pruning (ABP); {_ALL}"),
    "alphabeta-depth": BuiltinPolicy(
        _search("alphabeta-depth", "first"), f"depth-aware alpha-beta (seed 002's ABA): fastest win, slowest loss; {_FIRST}"
    ),
    "alphabeta-depth-random": BuiltinPolicy(
        _search("alphabeta-depth", "all"), f"depth-aware alpha-beta (seed 002's ABA): fastest win, slowest loss; {_ALL}"
    ),
}

CORE_POLICIES: dict[str, BuiltinPolicy] = {
    "random": BuiltinPolicy(lambda rules: uniform_random, "uniformly random over the legal moves"),
    **SEARCH_POLICIES,
    "certified": BuiltinPolicy(
        certified_policy,
        "value-optimal from the solved game, fastest win / slowest loss, best expected result against random",
    ),
}
