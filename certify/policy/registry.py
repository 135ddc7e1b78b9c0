"""Built-in policies by name: each name maps to a factory that builds the policy for a game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from certify.policy import Policy, PolicySpecError
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

# ---- Seed-specific players -------------------------------------------------------------------
# Added by their authors: `t3dt` (certify/papers/t3dt.py, seed 002) and `td-*` (certify/papers/td.py,
# seed 004). A factory that does not apply to a game raises PolicySpecError with one line.
from certify.papers import t3dt, td  # noqa: E402  (the seed players, kept apart from the general ones above)

SEED_POLICIES: dict[str, BuiltinPolicy] = {
    "t3dt": BuiltinPolicy(t3dt.t3dt_factory("t3dt"), "T3DT decision tree (seed 002, 4.1-4.5); fork-making corners where the text wants a fork"),
    "t3dt-alt": BuiltinPolicy(t3dt.t3dt_factory("t3dt-alt"), "T3DT decision tree (seed 002, 4.1-4.5); any free corner where the text wants a fork"),
    "td-tcd": BuiltinPolicy(td.td_factory("tcd"), "greedy policy of one-step TD self-play, TCD-seeded (seed 004; cumulative; trains seed 126 first)"),
    "td-random": BuiltinPolicy(td.td_factory("random"), "greedy policy of one-step TD self-play, random-seeded (seed 004; cumulative; trains seed 126 first)"),
    "td-zero": BuiltinPolicy(td.td_factory("zero"), "greedy policy of one-step TD self-play, zero-seeded (seed 004; cumulative; trains seed 126 first)"),
}
# ---- end of seed-specific players ------------------------------------------------------------


def builtin_policies() -> dict[str, BuiltinPolicy]:
    """Every built-in policy by name."""
    return {**CORE_POLICIES, **SEED_POLICIES}


def builtin_policy(name: str, rules: Rules) -> Policy:
    """The built-in policy `name` for `rules`; raises PolicySpecError for an unknown name."""
    known = builtin_policies()
    if name not in known:
        raise PolicySpecError(
            f"unknown policy '{name}' (built-ins: {', '.join(known)}; or module:function; or a .json table)"
        )
    return known[name].factory(rules)
