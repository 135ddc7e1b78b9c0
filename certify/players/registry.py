"""Every built-in player by name: the general ones (certify/policy/registry.py) and the papers'.

The registry sits above both certify/policy/ and certify/papers/ so that the general players never
import the papers' reproductions.
"""

from __future__ import annotations

from certify.papers import t3dt, td
from certify.policy import Policy, PolicySpecError
from certify.policy.registry import CORE_POLICIES, BuiltinPolicy
from solver.games.positional.rules import Rules

# ---- Seed-specific players -------------------------------------------------------------------
# Added by their authors: `t3dt` (certify/papers/t3dt.py, seed 002) and `td-*` (certify/papers/td.py,
# seed 004). A factory that does not apply to a game raises PolicySpecError with one line.

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
