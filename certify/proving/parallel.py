"""One claim proved by the parallel driver (solver/search/parallel.py), written as a certificate.

The driver returns the prover's move at every position its strategy reaches; the canonical
traversal (solver/search/prooftree.py) turns that into the same kind of certificate the serial
search writes (certify/proving/single.py), so the checker cannot tell, and need not know, how it
was found.
"""

from __future__ import annotations

import time
from typing import Any

from certify.proving.single import Attempt, peak_rss_mb, strategy_certificate
from solver.workers import EngineSpec
from solver.search.parallel import Progress, Stats, prove_parallel
from solver.search.pns import Claim, Outcome
from solver.search.prooftree import canonical_strategy


def prove_on_engine(game: Any, claim: Claim, root: str | None, spec: EngineSpec, *, job_nodes: int,
                    max_nodes: int | None = None, progress: Progress | None = None, command: str = "",
                    timed: bool = False) -> tuple[Attempt, Stats]:
    """Search the claim from `root` (None: the start) on `spec`'s workers; certify it if proved.

    The Attempt reads like the serial one: nodes are the workers' expansions, table entries the
    driver's tree nodes, peak memory the driver's.
    """
    started = time.perf_counter()
    state = game.initial() if root is None else game.parse_position(root)
    result = prove_parallel(game, state, claim, spec, budget=job_nodes, max_nodes=max_nodes, progress=progress)
    stats = result.stats
    status = result.status if result.status != "unknown" else result.stopped
    outcome = Outcome(status, result.pn, result.dn, stats.worker_nodes, stats.driver_nodes, stats.seconds, peak_rss_mb())
    if result.status != "proved":
        return Attempt(claim, root, outcome, None, None, time.perf_counter() - started), stats
    tree = canonical_strategy(game, state, claim.player, lambda s: result.strategy[game.key(s)])
    certificate, seconds = strategy_certificate(game, claim, root, state, tree, command, started, timed)
    return Attempt(claim, root, outcome, tree, certificate, seconds), stats
