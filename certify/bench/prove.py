"""`certify bench --suite prove`: proof search and strategy certificates, measured in one run.

Each proof runs once (proofs are long; the ratios between rows are what compare): search time,
expansions, nodes/s, peak memory, certificate size, and the independent checker's time.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass

import checker
from certify.proving.single import prove
from solver.games.families import resolve_game
from solver.search.pns import Claim

PROVE_SUITE = [  # (game, player, claim)
    ("tictactoe", 1, "no-loss"),
    ("tictactoe", 2, "no-loss"),
    ("mnk:3,3,3,misere", 1, "no-loss"),
    ("mnk:3,3,3,misere", 2, "no-loss"),
    ("mnk:4,4,3", 1, "win"),
    ("mnk:3,4,3,misere", 2, "win"),
]


@dataclass(frozen=True)
class ProofRun:
    """One measured proof."""

    game: str
    player: int
    claim: str
    status: str
    nodes: int
    seconds: float
    nodes_per_second: float
    peak_rss_mb: float
    prover_moves: int
    positions: int
    certificate_bytes: int
    check_seconds: float
    verdict: str


def prove_benchmarks(suite: list[tuple[str, int, str]] = PROVE_SUITE) -> list[dict]:
    """Prove each claim, check its certificate, and record the figures."""
    rows = []
    for game_text, player, result in suite:
        attempt = prove(resolve_game(game_text), Claim(player, result))
        outcome = attempt.outcome
        text = attempt.text or ""
        check_seconds, verdict = 0.0, "no certificate"
        if text:
            start = time.perf_counter()
            verdict = checker.check_document(json.loads(text)).message
            check_seconds = time.perf_counter() - start
        rows.append(asdict(ProofRun(
            game=game_text, player=player, claim=result, status=outcome.status, nodes=outcome.nodes,
            seconds=round(attempt.seconds, 3),
            nodes_per_second=round(outcome.nodes / outcome.seconds) if outcome.seconds else 0.0,
            peak_rss_mb=round(outcome.peak_rss_mb, 1),
            prover_moves=len(attempt.tree.moves) if attempt.tree else 0,
            positions=attempt.tree.positions if attempt.tree else 0,
            certificate_bytes=len(text.encode()), check_seconds=round(check_seconds, 3), verdict=verdict.split()[0],
        )))
    return rows
