"""One claim proved by the parallel driver (solver/search/parallel.py), written as a certificate.

The workers run the compiled df-pn where the family has a kernel (solver/search/parallel.py
`worker_search`). The driver returns the prover's move at every position its strategy reaches; the canonical
traversal (solver/search/prooftree.py) turns that into the same kind of certificate the serial
search writes (certify/proving/single.py), so the checker cannot tell, and need not know, how it
was found.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from certify.proving.checkpoint import load_driver_checkpoint, save_driver_checkpoint
from certify.proving.single import Attempt, peak_rss_mb, strategy_certificate
from solver.workers import EngineSpec
from solver.search.parallel import Options, Progress, Stats, prove_parallel
from solver.search.pns import Claim, Outcome


def prove_on_engine(game: Any, claim: Claim, root: str | None, spec: EngineSpec, *, job_nodes: int,
                    max_nodes: int | None = None, progress: Progress | None = None, command: str = "",
                    timed: bool = False, job_seconds: float | None = None, checkpoint: Path | None = None,
                    checkpoint_seconds: float = 600.0, resume: Path | None = None,
                    options: Options = Options()) -> tuple[Attempt, Stats]:
    """Search the claim from `root` (None: the start) on `spec`'s workers; certify it if proved.

    `job_nodes` is the first jobs' budget; with `job_seconds` the budget follows how long jobs
    take. With `checkpoint`, the driver's state is saved there every `checkpoint_seconds` and when
    the search stops unresolved; `resume` starts from such a file (CheckpointError if it is not
    one of this search). The Attempt reads like the serial one: nodes are the workers' expansions,
    table entries the driver's tree nodes, peak memory the driver's. `options` (plain, pairings,
    policy) set up the driver's and the workers' search as the serial one's; a bounded claim
    (`claim.within`) is searched within its bound; the certificate carries the closures the search
    used, as the serial one's does. The checkpoint records the closure's version (the hooks'
    `closure_version`) as the serial one's does: a checkpoint of another closure is refused.
    """
    started = time.perf_counter()
    state = game.initial() if root is None else game.parse_position(root)
    about = {"game": game.rules.name, "rules_sha256": game.rules.sha256(), "player": claim.player,
             "result": claim.result, "position": root, "parallel": True, "plain": options.plain,
             **({"pairings": True} if options.pairings else {})}
    if claim.within is not None or options.policy is not None:  # a bounded or guided search is another search
        about.update(within=claim.within, policy=getattr(options.policy, "__qualname__", None))
    hooks = options.hooks(game)
    if options.closes(hooks) and hasattr(hooks, "closure_version"):  # another closure: another search's results
        about["closure"] = hooks.closure_version
    saved = None if resume is None else load_driver_checkpoint(resume, about)
    keep = None if checkpoint is None else (lambda driver_state: save_driver_checkpoint(checkpoint, about, driver_state))
    result = prove_parallel(game, state, claim, spec, budget=job_nodes, max_nodes=max_nodes, progress=progress,
                            job_seconds=job_seconds, checkpoint=keep, checkpoint_seconds=checkpoint_seconds, resume=saved,
                            options=options)
    stats = result.stats
    status = result.status if result.status != "unknown" else result.stopped
    outcome = Outcome(status, result.pn, result.dn, stats.worker_nodes, stats.driver_nodes, stats.seconds, peak_rss_mb())
    if result.status != "proved":
        return Attempt(claim, root, outcome, None, None, time.perf_counter() - started), stats
    assert result.walk is not None
    tree = result.walk.tree()
    certificate, seconds = strategy_certificate(game, claim, root, state, tree, command, started, timed)
    return Attempt(claim, root, outcome, tree, certificate, seconds), stats
