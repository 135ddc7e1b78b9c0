"""`certify bench --suite uttt`: how deep into Ultimate tic-tac-toe checked proofs reach.

Positions come from seeded random games, a fixed number at each ply. Each is solved (its value
for the player to move settled by proof search) within a per-position time limit, with and
without the critical-square hooks, and each settled value's certificate is written and re-checked
by the independent checker. Everything is measured in one run, so the two modes compare.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import checker
from certify.proving.single import settle_value
from solver.games.uttt.engine import Position, Uttt, play

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Attempt:
    """One position solved (or not) in one mode."""

    ply: int
    position: str
    value: str | None  # win / draw / loss for the player to move, None when time ran out
    seconds: float
    nodes: int
    certificate_bytes: int
    check_seconds: float
    checked: bool


def sample(plies: list[int], per_ply: int, seed: int) -> dict[int, list[Position]]:
    """`per_ply` positions at each ply, from seeded random games that last past that ply."""
    game = Uttt()
    rng = random.Random(seed)
    out: dict[int, list[Position]] = {}
    for ply in plies:
        found: list[Position] = []
        while len(found) < per_ply:
            s = game.initial()
            for _ in range(ply):
                if game.is_terminal(s):
                    break
                s = play(s, rng.choice(game.legal_moves(s)))
            if not game.is_terminal(s) and (s.x | s.o).bit_count() == ply:
                found.append(s)
        out[ply] = found
    return out


def attempt(game: Uttt, ply: int, s: Position, seconds: float, plain: bool) -> Attempt:
    """Solve one position, and check its certificate(s) with the independent checker."""
    start = time.perf_counter()
    settled = settle_value(game, game.format_position(s), seconds=seconds, plain=plain)
    value, proofs, nodes = settled.value, settled.proofs, settled.nodes
    elapsed = time.perf_counter() - start
    size, check_seconds, checked = 0, 0.0, value is not None
    for proof in proofs:
        data = (proof.text or "").encode()
        size += len(data)
        started = time.perf_counter()
        verdict = checker.check_bytes(data)
        check_seconds += time.perf_counter() - started
        checked = checked and verdict.exit_code == 0
    return Attempt(ply, game.format_position(s), value, elapsed, nodes, size, check_seconds, checked)


def uttt_benchmark(plies: list[int], per_ply: int, seconds: float, seed: int = 2026,
                   progress: Progress | None = None, extend: bool = True) -> list[tuple[str, Attempt]]:
    """Every sampled position in both modes, as (mode, attempt) pairs.

    With `extend`, plies 5 earlier than the last are added while the last one solved anything.
    """
    game = Uttt()
    todo = list(plies)
    out: list[tuple[str, Attempt]] = []
    while todo:
        ply = todo.pop(0)
        for index, s in enumerate(sample([ply], per_ply, seed + ply)[ply]):
            for mode, plain in (("critical squares", False), ("plain", True)):
                if progress:
                    progress(f"ply {ply}, position {index + 1}/{per_ply}, {mode}")
                out.append((mode, attempt(game, ply, s, seconds, plain)))
        if extend and not todo and ply > 5 and any(a.ply == ply and a.value for _, a in out):
            todo.append(ply - 5)
    return out


def summary(results: list[tuple[str, Attempt]], seconds: float) -> list[dict]:
    """One row per ply and mode: share solved, median time, nodes/s, certificate size, checker time."""
    rows = []
    keys = sorted({(a.ply, mode) for mode, a in results}, key=lambda k: (-k[0], k[1]))
    for ply, mode in keys:
        runs = [a for m, a in results if m == mode and a.ply == ply]
        solved = [a for a in runs if a.value is not None]
        rows.append({
            "ply": ply,
            "mode": mode,
            "positions": len(runs),
            "solved": len(solved),
            "limit_s": seconds,
            "values": {v: sum(a.value == v for a in solved) for v in ("win", "draw", "loss")},
            "median_s": statistics.median(a.seconds for a in solved) if solved else None,
            "nodes_per_s": sum(a.nodes for a in runs) / max(1e-9, sum(a.seconds for a in runs)),
            "median_nodes": statistics.median(a.nodes for a in solved) if solved else None,
            "median_certificate_bytes": statistics.median(a.certificate_bytes for a in solved) if solved else None,
            "median_check_s": statistics.median(a.check_seconds for a in solved) if solved else None,
            "all_checked": all(a.checked for a in solved) if solved else None,
        })
    return rows


def playout_speed(games: int, seed: int = 2026) -> dict[str, float]:
    """Random playouts per second: certify's engine and, when installed, OpenSpiel's (same run).

    Both pick uniformly among legal moves with their own generator; OpenSpiel's free move is its
    two actions (board, then cell), so its games are not the same games, only the same work.
    """
    game = Uttt()
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        s = game.initial()
        while not game.is_terminal(s):
            s = play(s, rng.choice(game.legal_moves(s)))
    rates = {"certify": games / (time.perf_counter() - start)}
    try:
        import pyspiel
    except ImportError:
        return rates
    spiel = pyspiel.load_game("ultimate_tic_tac_toe")
    start = time.perf_counter()
    for _ in range(games):
        state = spiel.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    rates["openspiel"] = games / (time.perf_counter() - start)
    return rates
