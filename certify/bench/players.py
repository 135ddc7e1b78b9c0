"""`certify bench --suite players`: time per move (TPM_j) and per game (TPG) in self-play (seed 002)."""

from __future__ import annotations

import random
import statistics
import time

from certify.policy import Policy
from certify.policy import PolicySpecError
from certify.players.registry import builtin_policies
from solver.games.positional.engine import Game
from solver.games.positional.rules import resolve

BENCH_POLICIES = ("t3dt", "minimax", "alphabeta", "alphabeta-depth", "certified")


def self_play_times(game: Game, policy: Policy, rng: random.Random) -> list[int]:
    """Nanoseconds of each policy call in one game of the policy against itself."""
    state, times = game.initial(), []
    while not game.is_terminal(state):
        start = time.perf_counter_ns()
        moves = policy(game, state)
        times.append(time.perf_counter_ns() - start)
        state = game.apply(state, rng.choice(list(moves)))
    return times


def policy_benchmark(games: int = 5, seed: int = 0, game: str = "tictactoe") -> list[dict]:
    """TPM_j (mean ns of the j-th move over the games that reach it) and TPG (mean ns per game).

    Each registered policy of BENCH_POLICIES that applies to `game` plays `games` timed games against itself after one
    untimed warm-up game (seed 002 also dropped its first games); ties among returned moves are
    broken by a seeded random choice. `setup_s` is the time to build the policy (the certified
    player solves the game then).
    """
    rules = resolve(game)
    known = builtin_policies()
    rows = []
    for name in BENCH_POLICIES:
        if name not in known:
            continue
        start = time.perf_counter()
        try:
            policy = known[name].factory(rules)
        except PolicySpecError:  # a seed player made for another game
            continue
        setup = time.perf_counter() - start
        board_game = Game(rules)
        rng = random.Random(seed)
        self_play_times(board_game, policy, rng)
        matrix = [self_play_times(board_game, policy, rng) for _ in range(games)]
        longest = max(len(times) for times in matrix)
        tpm = [statistics.fmean(times[j] for times in matrix if len(times) > j) for j in range(longest)]
        rows.append({
            "policy": name,
            "game": rules.name,
            "games": games,
            "setup_s": setup,
            "tpm_ns": tpm,
            "tpg_ns": statistics.fmean(sum(times) for times in matrix),
        })
    return rows
