"""Claims about learned players (seed 004): TD self-play converges and its frozen greedy
policies draw against each other.

Each seed is trained with the reproduction in certify.papers.td (docs/td-learning.md), once per
reading of the update rule; the frozen policies' head-to-head games are then enumerated exactly,
every tie taken, instead of sampled.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field

from certify.claims.base import ClaimBase
from certify.claims.facts import Bench, GameFacts
from certify.claims.result import ClaimError, Reading
from certify.papers.td import FrozenTd, TdParams, frozen_policy, head_to_head, train
from solver.search.retrograde import Solution

_UPDATE_WORDS = {
    "mover": "the text as written: a step updates only the mover's table",
    "both": "a step updates both players' tables (the alternative reading)",
}


def draw_probability(solution: Solution, policy: FrozenTd) -> Fraction:
    """The chance that one head-to-head game ends in a draw when each side breaks its ties
    uniformly at random (the paper: "ties among maximizers were resolved randomly")."""
    game = solution.game
    memo: dict[int, Fraction] = {}

    def chance(code: int) -> Fraction:
        if code not in memo:
            if solution.terminal[solution.index(code)]:
                memo[code] = Fraction(int(game.returns(code)[0] == 0))
            else:
                moves = policy(game, code)
                memo[code] = sum((chance(game.apply(code, m)) for m in moves), Fraction(0)) / len(moves)
        return memo[code]

    return chance(game.initial())


class TdSelfPlay(ClaimBase):
    """TD learning with `init` converges on every seed, and its two frozen greedy policies draw
    `games` of `games` head-to-head games; one reading per update rule in `updates`."""

    kind: Literal["td_self_play"]
    init: Literal["tcd", "random", "zero"]
    seeds: list[int] = Field(min_length=1)
    games: int = Field(ge=1)
    updates: list[Literal["mover", "both"]] = Field(["mover", "both"], min_length=1)

    def says(self) -> str:
        return f"converges on seeds {', '.join(map(str, self.seeds))}; the frozen policies draw {self.games} of {self.games} games"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        if facts.rules.goal != "most-lines":
            raise ClaimError(f"the TD reproduction plays cumulative tic-tac-toe (most lines), not {facts.rules.name}")
        solution = facts.solution
        readings = []
        for update in self.updates:
            parts, failures = [], []
            for seed in self.seeds:
                run = train(self.init, seed, TdParams(update=update), solution)
                policy = frozen_policy(run, solution)
                finals = head_to_head(solution, policy)
                p_draw = draw_probability(solution, policy)
                shown = " · ".join(f"{w} {n}" for w, n in finals.items() if n)
                all_draws = p_draw ** self.games
                parts.append(
                    f"seed {seed}: {'converged' if run.converged else 'not converged'} after {run.episodes:,} episodes; "
                    f"self-play final states {shown}; P(draw) = {_fraction(p_draw)}, P({self.games} of {self.games} draws) = {_fraction(all_draws)}"
                )
                if not run.converged:
                    failures.append(f"seed {seed} never met the stopping rule")
                if finals["win"] or finals["loss"]:
                    failures.append(f"seed {seed}: the frozen policies can play a decided game")
            readings.append(
                Reading(
                    f"update rule '{update}' ({_UPDATE_WORDS[update]}), {self.init} initialisation; "
                    "every head-to-head game the frozen policies can play (ties broken any way) is a draw",
                    "; ".join(parts),
                    not failures,
                    "; ".join(failures),
                )
            )
        return readings


def _fraction(value: Fraction) -> str:
    """0 and 1 exactly, otherwise the value to 4 significant digits."""
    if value in (0, 1):
        return str(int(value))
    approx = float(value)
    return f"{approx:.4g}" if approx > 0 else "< 1e-308"
