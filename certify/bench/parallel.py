"""`certify bench --suite parallel`: the parallel driver with 1 and 2 workers, process pool and Ray.

Every figure is measured in one run on the same positions: the serial search's time and nodes
as the reference, then each engine and worker count. The positions are Ultimate tic-tac-toe
positions from seeded random play (the same recipe as `--suite uttt`: random legal moves from the
start to a given ply), or, when the uttt family is not available, m,n,k positions, and the result
says which. The claim is always "the side to move wins"; proved and disproved both count.

Overhead per job is the worker time not spent searching, per job: (wall × workers − Σ job CPU
seconds) / jobs. It holds dispatch, pickling, the driver's own work, and workers left idle while
the driver has nothing to hand out; on a loaded machine it also holds CPU starvation, which is
why the load average is reported beside it.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import asdict, dataclass
from typing import Any

from certify.render.text import plural
from solver.workers import EngineSpec, RayMissing, import_ray
from solver.games.families import resolve_game
from solver.search.parallel import prove_parallel
from solver.search.pns import Claim, ProofSearch
from solver.games.positional.rules import RulesError


@dataclass(frozen=True)
class BenchPosition:
    """One benchmark position: its label, game, state and claim."""

    label: str
    game_text: str
    state: Any
    claim: Claim


@dataclass(frozen=True)
class Run:
    """One configuration over every position: totals and the verdicts."""

    engine: str
    workers: int
    wall_s: float
    cpu_s: float  # Σ CPU seconds of the search (the serial search's own, or every job's)
    nodes: int
    jobs: int
    lost: int
    driver_cpu_s: float
    verdicts: list[str]

    def overhead_per_job_ms(self) -> float | None:
        """(wall × workers − Σ job CPU) / jobs, in milliseconds."""
        if not self.jobs:
            return None
        return 1000 * (self.wall_s * self.workers - self.cpu_s) / self.jobs


def seeded_position(game: Any, ply: int, seed: int) -> Any:
    """The position after `ply` random legal moves (seeded), redrawn until it is not terminal."""
    rng = random.Random(seed)
    while True:
        state = game.initial()
        for _ in range(ply):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            return state


def bench_positions(ply: int, count: int) -> tuple[str, list[BenchPosition]]:
    """`count` seeded positions at `ply` of Ultimate tic-tac-toe, or of mnk:4,5,4 if uttt is missing.

    Returns a note saying which, and the positions.
    """
    try:
        game_text, game = "uttt", resolve_game("uttt")
        note = f"Ultimate tic-tac-toe, {plural(count, 'position')} after {plural(ply, 'seeded random ply', 'seeded random plies')}"
    except RulesError:
        game_text, ply = "mnk:4,5,4", min(ply, 6)
        game = resolve_game(game_text)
        note = f"uttt family not available: {game_text}, {plural(count, 'position')} after {plural(ply, 'seeded random ply', 'seeded random plies')}"
    positions = []
    for seed in range(count):
        state = seeded_position(game, ply, seed)
        positions.append(BenchPosition(f"{game_text} ply {ply} seed {seed}", game_text, state, Claim(game.to_move(state), "win")))
    return note, positions


def serial_run(positions: list[BenchPosition]) -> Run:
    """The serial search (solver/search/pns.py) in this process, the reference."""
    wall = cpu = 0.0
    nodes = 0
    verdicts = []
    for p in positions:
        game = resolve_game(p.game_text)
        start, start_cpu = time.perf_counter(), time.process_time()
        outcome = ProofSearch(game, p.claim, hooks=game.search_hooks()).search(p.state)
        wall += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        nodes += outcome.nodes
        verdicts.append(outcome.status)
    return Run("serial (no engine)", 1, wall, cpu, nodes, 0, 0, 0.0, verdicts)


def parallel_run(positions: list[BenchPosition], spec: EngineSpec, budget: int) -> Run:
    """The driver on `spec`'s workers, one position after another."""
    wall = cpu = driver = 0.0
    nodes = jobs = lost = 0
    verdicts = []
    for p in positions:
        game = resolve_game(p.game_text)
        start = time.perf_counter()
        outcome = prove_parallel(game, p.state, p.claim, spec, budget=budget)
        wall += time.perf_counter() - start
        stats = outcome.stats
        driver += stats.driver_cpu_seconds
        cpu += stats.worker_cpu_seconds
        nodes += stats.worker_nodes
        jobs += stats.jobs
        lost += stats.lost
        verdicts.append(outcome.status)
    return Run(spec.kind, spec.workers, wall, cpu, nodes, jobs, lost, driver, verdicts)


def parallel_benchmark(ply: int = 45, count: int = 6, budget: int = 5000, use_ray: bool = True) -> dict[str, Any]:
    """Serial, then process pool ×1 and ×2, then Ray ×1 and ×2 (if installed) on the same positions."""
    note, positions = bench_positions(ply, count)
    load_before = os.getloadavg()[0]
    runs = [serial_run(positions)]
    for workers in (1, 2):
        runs.append(parallel_run(positions, EngineSpec("process", workers), budget))
    ray_note, ray_start_s = "", None
    if use_ray:
        try:
            ray = import_ray()
        except RayMissing as err:
            ray_note = str(err)
        else:
            start = time.perf_counter()
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
            ray_start_s = time.perf_counter() - start
            try:
                for workers in (1, 2):
                    runs.append(parallel_run(positions, EngineSpec("ray", workers), budget))
            finally:
                ray.shutdown()
    reference = runs[0].verdicts
    return {
        "positions": note,
        "labels": [p.label for p in positions],
        "budget_nodes_per_job": budget,
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "ray_start_s": ray_start_s,
        "ray_note": ray_note,
        "runs": [{**asdict(r), "overhead_per_job_ms": r.overhead_per_job_ms(),
                  "agrees_with_serial": r.verdicts == reference} for r in runs],
    }
