"""`certify bench --suite parallel`: the parallel driver on compiled workers with 1 and 2 workers,
against the serial compiled search, and a simulation of more workers from the recorded job logs.

Every figure is measured in one run on the same claims: the serial compiled search's time and
nodes as the reference (solver/search/native.py, the search `certify prove` runs), then the driver
on the process pool (and on Ray, if installed) with 1 and 2 workers, jobs sized by time
(`job_seconds`). The claims are mnk:4,5,4 player 2 win from the start and Ultimate tic-tac-toe
positions from seeded random play (random legal moves from the start to a given ply), claim "the
side to move wins"; proved and disproved both count.

Speedup is the serial search's wall time over the run's; efficiency is speedup per worker; node
overhead is the run's nodes over the serial search's. Overhead per job is the worker time not spent
searching, per job: (wall × workers − Σ job CPU seconds) / jobs: dispatch, pickling, the driver's
own work, idle workers, and on a loaded machine CPU starvation (the load average is reported).

`simulate` replays a run's job log for more workers (assumptions in its docstring, repeated in
the output): a bound from the jobs' dependencies, not a measurement.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import asdict, dataclass
from typing import Any

from solver.workers import EngineSpec, RayMissing, import_ray
from solver.games.families import resolve_game
from solver.search.parallel import DEFAULT_JOB_SECONDS, JobRecord, prove_parallel
from solver.search.pns import Claim

SIMULATED_WORKERS = (16, 64, 1024)
SIMULATION_ASSUMPTIONS = (
    "the same jobs as the recorded run (its log: each job's CPU seconds and the job whose answer created its position); "
    "a job starts when the job that created its position has answered and a worker is free; "
    "each worker is as fast as one core of this machine; one driver, busy for the measured driver CPU per job "
    "on every job it sends; no network time. More workers would also run speculative jobs the log does not hold "
    "(the measured node overhead from 1 to 2 workers shows how many), so these are upper bounds on speedup."
)


@dataclass(frozen=True)
class BenchPosition:
    """One benchmark claim: its label, game, state and claim."""

    label: str
    game_text: str
    state: Any
    claim: Claim


@dataclass(frozen=True)
class Run:
    """One configuration over every claim: totals, the verdicts and the job logs."""

    engine: str
    workers: int
    wall_s: float
    cpu_s: float  # Σ CPU seconds of the search (the serial search's own, or every job's)
    nodes: int
    jobs: int
    lost: int
    driver_cpu_s: float
    verdicts: list[str]
    logs: tuple[tuple[JobRecord, ...], ...] = ()

    def overhead_per_job_ms(self) -> float | None:
        """(wall × workers − Σ job CPU) / jobs, in milliseconds."""
        if not self.jobs:
            return None
        return 1000 * (self.wall_s * self.workers - self.cpu_s) / self.jobs

    def figures(self, serial: Run) -> dict[str, Any]:
        """JSON-ready: the run's totals with speedup, efficiency and node overhead against `serial`."""
        speedup = serial.wall_s / self.wall_s if self.wall_s else None
        data = {k: v for k, v in asdict(self).items() if k != "logs"}
        return {**data, "overhead_per_job_ms": self.overhead_per_job_ms(), "speedup": speedup,
                "efficiency": None if speedup is None else speedup / self.workers,
                "node_overhead": self.nodes / serial.nodes if serial.nodes else None,
                "agrees_with_serial": self.verdicts == serial.verdicts}


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
    """mnk:4,5,4 player 2 win from the start, then `count` seeded Ultimate tic-tac-toe positions at
    `ply` (the side to move wins). Returns a note saying which, and the claims."""
    mnk = resolve_game("mnk:4,5,4")
    positions = [BenchPosition("mnk:4,5,4 start", "mnk:4,5,4", mnk.initial(), Claim(2, "win"))]
    game = resolve_game("uttt")
    for seed in range(count):
        state = seeded_position(game, ply, seed)
        positions.append(BenchPosition(f"uttt ply {ply} seed {seed}", "uttt", state, Claim(game.to_move(state), "win")))
    return f"mnk:4,5,4 player 2 win from the start; Ultimate tic-tac-toe, {count} positions after {ply} seeded random plies", positions


def serial_run(positions: list[BenchPosition]) -> Run:
    """The serial compiled search (solver/search/native.py) in this process, the reference."""
    from solver.search.native import NativeProofSearch

    wall = cpu = 0.0
    nodes = 0
    verdicts = []
    for p in positions:
        game = resolve_game(p.game_text)
        start, start_cpu = time.perf_counter(), time.process_time()
        outcome = NativeProofSearch(game, p.claim, game.search_hooks()).search(p.state)
        wall += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        nodes += outcome.nodes
        verdicts.append(outcome.status)
    return Run("serial (compiled)", 1, wall, cpu, nodes, 0, 0, 0.0, verdicts)


def parallel_run(positions: list[BenchPosition], spec: EngineSpec, budget: int, job_seconds: float) -> Run:
    """The driver on `spec`'s workers, one claim after another."""
    wall = cpu = driver = 0.0
    nodes = jobs = lost = 0
    verdicts, logs = [], []
    for p in positions:
        game = resolve_game(p.game_text)
        start = time.perf_counter()
        outcome = prove_parallel(game, p.state, p.claim, spec, budget=budget, job_seconds=job_seconds)
        wall += time.perf_counter() - start
        stats = outcome.stats
        driver += stats.driver_cpu_seconds
        cpu += stats.worker_cpu_seconds
        nodes += stats.worker_nodes
        jobs += stats.jobs
        lost += stats.lost
        verdicts.append(outcome.status)
        logs.append(tuple(outcome.log))
    return Run(spec.kind, spec.workers, wall, cpu, nodes, jobs, lost, driver, verdicts, tuple(logs))


def simulate(log: tuple[JobRecord, ...], workers: int, driver_s_per_job: float) -> float:
    """The wall time the jobs of `log` would take on `workers` workers, under SIMULATION_ASSUMPTIONS:
    jobs are sent in their recorded order, each once its creating job has answered, a worker is
    free and the driver is free; each runs its recorded CPU seconds."""
    answered: dict[int, float] = {}
    free = [0.0] * workers  # when each worker is next free
    driver = 0.0
    end = 0.0
    for record in sorted(log, key=lambda r: r.job):
        slot = min(range(workers), key=free.__getitem__)
        start = max(answered.get(record.parent, 0.0), free[slot], driver)
        driver = start + driver_s_per_job
        answered[record.job] = free[slot] = start + driver_s_per_job + record.cpu_seconds
        end = max(end, answered[record.job])
    return end


def simulation(run: Run, serial: Run) -> list[dict[str, Any]]:
    """For each of SIMULATED_WORKERS: the simulated wall time over every claim of `run`, and the
    speedup and efficiency against the serial compiled search's CPU time."""
    per_job = run.driver_cpu_s / run.jobs if run.jobs else 0.0
    rows = []
    for workers in SIMULATED_WORKERS:
        wall = sum(simulate(log, workers, per_job) for log in run.logs)
        speedup = serial.cpu_s / wall if wall else None
        rows.append({"workers": workers, "wall_s": wall, "speedup": speedup,
                     "efficiency": None if speedup is None else speedup / workers})
    return rows


def parallel_benchmark(ply: int = 40, count: int = 2, budget: int = 20_000, job_seconds: float = DEFAULT_JOB_SECONDS,
                       use_ray: bool = True) -> dict[str, Any]:
    """Serial compiled search, then process pool ×1 and ×2, then Ray ×1 and ×2 (if installed), on
    the same claims; and the simulation from the process pool ×2 run's job logs."""
    note, positions = bench_positions(ply, count)
    load_before = os.getloadavg()[0]
    serial = serial_run(positions)
    runs = [serial]
    for workers in (1, 2):
        runs.append(parallel_run(positions, EngineSpec("process", workers), budget, job_seconds))
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
                    runs.append(parallel_run(positions, EngineSpec("ray", workers), budget, job_seconds))
            finally:
                ray.shutdown()
    return {
        "positions": note,
        "labels": [p.label for p in positions],
        "first_budget_nodes_per_job": budget,
        "job_seconds": job_seconds,
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "ray_start_s": ray_start_s,
        "ray_note": ray_note,
        "runs": [r.figures(serial) for r in runs],
        "simulation": {"from": "process pool ×2", "assumptions": SIMULATION_ASSUMPTIONS,
                       "rows": simulation(runs[2], serial)},
    }
