"""`certify bench --suite uttt`: how deep into Ultimate tic-tac-toe checked proofs reach.

Positions come from seeded random games, a fixed number at each ply. Each is solved (its value
for the player to move settled by proof search) within a per-position time limit, with the
critical-square hooks (and, in their own modes, with the first numbers of `certify prove
--estimate` too, and without the hooks), and each settled value's certificate is written and
re-checked by the independent checker. Proof search uses the compiled df-pn where it is built (`core` auto).
Beside them the C peer pns.c (kept outside the project, built with gcc -O2 into a temporary
directory for the run) settles the same positions by the same searches, with `peer_share` of the
limit (1: the same limit; issue 21's target took 0.5: certify within 60 s wherever the peer settles
within 30 s), and with a table of PEER_TABLE_MB; certify's table is capped at the same size.
Everything is measured in one run, so the modes compare.

What each clock covers: certify's limit and `seconds` are its whole `settle_value` (every search,
each table reserved and faulted in, the strategies walked and the certificates written; the
checker's time is apart); the peer's `seconds` is each pns.c process whole (its start and its
table zeroed included), its limit is handed to its searches, and its `search_seconds` its own
search clock. certify's `search_seconds` is its compiled core's search clock (after its table is
reserved), so the two search-only rates compare, and so do the two whole ones.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import checker
from certify.bench.prove import run_pns
from certify.bench.scale import build_peer
from certify.record.budget import proof_limits
from certify.proving.single import settle_value, value_by_claims
from solver.search.pns import Claim
from solver.games.uttt.engine import Position, Uttt, play

Progress = Callable[[str], None]
PEER_MODE = "pns.c"
CRITICAL_MODE = "critical squares"
ESTIMATE_MODE = "first numbers"  # critical squares, searched from the family's first numbers (`--estimate`)
PEER_SHARE = 1.0  # the peer's time limit over certify's (issue 21's target compared 30 s with 60 s: 0.5)
PEER_TABLE_MB = 512  # pns.c's fixed table, zeroed before each search; certify's table is capped at it too


@dataclass(frozen=True)
class Attempt:
    """One position solved (or not) in one mode."""

    ply: int
    position: str
    value: str | None  # win / draw / loss for the player to move, None when time ran out
    seconds: float  # the whole attempt (module docstring: what each side's clock covers)
    nodes: int
    certificate_bytes: int
    check_seconds: float
    checked: bool
    search_seconds: float = 0.0  # the searches' own clocks only


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


def peer_attempt(binary: Path, game: Uttt, ply: int, s: Position, seconds: float) -> Attempt:
    """Solve one position with the C peer pns.c (the same searches as `settle_value`, no certificate):
    a process per search, each given what is left of `seconds` after the processes before it."""
    position = game.format_position(s)
    nodes, searching = 0, 0.0
    start = time.perf_counter()

    def run(claim: Claim) -> str:
        nonlocal nodes, searching
        left = seconds - (time.perf_counter() - start)
        if left <= 0:
            return "time budget"
        status, spent, took, _ = run_pns(binary, ["uttt", claim.result, str(claim.player), "-p", position,
                                                  "-t", f"{left:.3f}", "-m", str(PEER_TABLE_MB)])
        nodes, searching = nodes + spent, searching + took
        return status

    value = value_by_claims(game.to_move(s), run)
    return Attempt(ply, position, value, time.perf_counter() - start, nodes, 0, 0.0, False, searching)


def attempt(game: Uttt, ply: int, s: Position, seconds: float, plain: bool, estimate: bool = False) -> Attempt:
    """Solve one position, and check its certificate(s) with the independent checker."""
    start = time.perf_counter()
    settled = settle_value(game, game.format_position(s), seconds=seconds, plain=plain, table_mb=PEER_TABLE_MB,
                           estimate=estimate)
    value, proofs, nodes = settled.value, settled.proofs, settled.nodes
    elapsed = time.perf_counter() - start
    searching = sum(search.outcome.seconds for search in settled.searches)
    size, check_seconds, checked = 0, 0.0, value is not None
    for proof in proofs:
        data = (proof.text or "").encode()
        size += len(data)
        started = time.perf_counter()
        verdict = checker.check_bytes(data, proof_limits(json.loads(data)))  # the budget its size needs
        check_seconds += time.perf_counter() - started
        checked = checked and verdict.exit_code == 0
    return Attempt(ply, game.format_position(s), value, elapsed, nodes, size, check_seconds, checked, searching)


def uttt_benchmark(plies: list[int], per_ply: int, seconds: float, seed: int = 2026,
                   progress: Progress | None = None, extend: bool = True, plain: bool = True,
                   peer_source: Path | None = None, peer_share: float = PEER_SHARE,
                   estimate: bool = False) -> list[tuple[str, Attempt]]:
    """Every sampled position in each mode, as (mode, attempt) pairs.

    Modes: critical squares, first numbers (with `estimate`), plain (unless `plain` is off), and the C peer pns.c when
    `peer_source` is given (built with gcc -O2 into a temporary directory; raises PeerError if it
    cannot be), with `peer_share` of the time limit. With `extend`, plies 5 earlier than the last
    are added while the last one solved anything.
    """
    game = Uttt()
    todo = list(plies)
    out: list[tuple[str, Attempt]] = []
    modes = [(CRITICAL_MODE, False, False)] + [(ESTIMATE_MODE, False, True)] * estimate + [("plain", True, False)] * plain
    with tempfile.TemporaryDirectory() as scratch:
        binary = None if peer_source is None else build_peer(peer_source, Path(scratch))
        while todo:
            ply = todo.pop(0)
            for index, s in enumerate(sample([ply], per_ply, seed + ply)[ply]):
                for mode, plain_mode, estimating in modes:
                    if progress:
                        progress(f"ply {ply}, position {index + 1}/{per_ply}, {mode}")
                    out.append((mode, attempt(game, ply, s, seconds, plain_mode, estimating)))
                if binary is not None:
                    if progress:
                        progress(f"ply {ply}, position {index + 1}/{per_ply}, {PEER_MODE}")
                    out.append((PEER_MODE, peer_attempt(binary, game, ply, s, seconds * peer_share)))
            if extend and not todo and ply > 5 and any(a.ply == ply and a.value for _, a in out):
                todo.append(ply - 5)
    return out


def summary(results: list[tuple[str, Attempt]], seconds: float, peer_share: float = PEER_SHARE) -> list[dict]:
    """One row per ply and mode: share solved, median time, nodes/s (over the searches' own clocks,
    and over the whole attempts), certificate size, checker time."""
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
            "limit_s": seconds * peer_share if mode == PEER_MODE else seconds,
            "values": {v: sum(a.value == v for a in solved) for v in ("win", "draw", "loss")},
            "median_s": statistics.median(a.seconds for a in solved) if solved else None,
            "nodes_per_s": rate(runs, lambda a: a.search_seconds),
            "whole_nodes_per_s": rate(runs, lambda a: a.seconds),
            "median_nodes": statistics.median(a.nodes for a in solved) if solved else None,
            "median_certificate_bytes": statistics.median(a.certificate_bytes for a in solved) if solved and mode != PEER_MODE else None,
            "median_check_s": statistics.median(a.check_seconds for a in solved) if solved and mode != PEER_MODE else None,
            "all_checked": all(a.checked for a in solved) if solved and mode != PEER_MODE else None,
        })
    return rows


def rate(runs: list[Attempt], seconds: Callable[[Attempt], float]) -> float | None:
    """Nodes per second over `runs`, timed by `seconds`; None without time."""
    spent = sum(seconds(a) for a in runs)
    return sum(a.nodes for a in runs) / spent if spent > 0 else None


def peer_target(results: list[tuple[str, Attempt]]) -> list[dict]:
    """Per ply and certify mode with critical squares (with and without first numbers): of the
    positions the peer settled (within its share of the limit), how many certify settled (issue
    21's target); how many each settled that the other did not (issue 36's: more than the peer);
    and on how many the two values differ."""
    rows = []
    modes = [m for m in (CRITICAL_MODE, ESTIMATE_MODE) if any(mode == m for mode, _ in results)]
    for ply, mode in ((p, m) for p in sorted({a.ply for m, a in results if m == PEER_MODE}, reverse=True) for m in modes):
        ours = {a.position: a.value for m, a in results if m == mode and a.ply == ply and a.value is not None}
        theirs = {a.position: a.value for m, a in results if m == PEER_MODE and a.ply == ply and a.value is not None}
        rows.append({"ply": ply, "mode": mode, "peer_settled": len(theirs), "certify_settled": len(ours),
                     "certify_settled_of_those": sum(p in ours for p in theirs),
                     "certify_only": sum(p not in theirs for p in ours), "peer_only": sum(p not in ours for p in theirs),
                     "disagreements": sum(ours.get(p) not in (None, v) for p, v in theirs.items())})
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
