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


# ---- the targets: whole processes, serial against 2 workers ----------------------------

TARGET_TABLE_MB = 810.0  # each process's (serial search, each worker) table cap: 2^24 entries of 48 bytes
# The threads' one table is capped at what their number of workers' tables take between them
# (`target_benchmark`'s threads_table_mb): N threads are compared with N workers, each given the
# memory of one serial search. Docs and the bench's output say what each run got.
TARGET_RSS_SECONDS = 0.1  # how often the process tree's resident memory is read


@dataclass(frozen=True)
class Target:
    """One claim of the target benchmark: the game, the position (None: the start), the claim."""

    label: str
    game_text: str
    position: str | None
    player: int
    result: str  # "win" or "no-loss"


TARGET_MNK = Target("mnk:5,5,4 player 2 no-loss", "mnk:5,5,4", None, 2, "no-loss")
UTTT_PLY = 30
UTTT_SERIAL_SECONDS = (60.0, 300.0)  # a ply-30 position qualifies when the serial search settles it within these (the 1-5 min)
UTTT_SCAN_SECONDS = 300.0  # the scan for one stops trying new positions after this long (the run must fit a 20-minute slot)
# Where the scan starts, a recorded index: sample position 6, which the serial search proved in
# 114,811,339 nodes (246 s of CPU on the shared machine, 2026-11-26). Before it, positions 1, 3, 4
# and 5 settle in under 60 s, and 0 and 2 were not settled within 57.1 M and 110 M nodes (docs/scaling.md
# "The targets" lists each), so a run does not spend up to 5 minutes on each of them again.
# The rule stays "the first from here that qualifies".
UTTT_FIRST = 6


def uttt_candidates() -> list[Target]:
    """`certify bench --suite uttt`'s sample at ply 30 (certify/bench/uttt.py `sample([30], 10, 2026 + 30)`),
    claim "player 1 (to move) wins" (every position of the sample has player 1 to move)."""
    from certify.bench.uttt import sample
    from solver.games.uttt.engine import Uttt

    game = Uttt()
    return [Target(f"uttt ply {UTTT_PLY} (sample position {i}), player {game.to_move(s)} wins", "uttt", game.format_position(s),
                   game.to_move(s), "win") for i, s in enumerate(sample([UTTT_PLY], 10, 2026 + UTTT_PLY)[UTTT_PLY])]


def one_search(game_text: str, position: str | None, player: int, result: str, workers: int, job_seconds: float,
               table_mb: float, max_seconds: float | None = None, max_nodes: int | None = None,
               threads: int = 1) -> dict[str, Any]:
    """One search in this process: the serial compiled search (`workers` 0; with `threads` > 1, that
    many threads sharing its one table, `certify prove --threads`) or the driver on a process pool of
    `workers`, each table capped at `table_mb`; the figures as JSON. No certificate is written: the
    search is what is compared (the parallel strategy's walk is Python, the serial one C)."""
    from solver.search.native import NativeProofSearch
    from solver.search.parallel import Context, Driver, Options, worker_search

    game = resolve_game(game_text)
    state = game.initial() if position is None else game.parse_position(position)
    claim = Claim(player, result)  # type: ignore[arg-type]
    start, start_cpu = time.perf_counter(), time.process_time()
    if workers == 0:
        search = NativeProofSearch(game, claim, game.search_hooks(), table_mb=table_mb, threads=threads)
        outcome = search.search(state, max_nodes=max_nodes, max_seconds=max_seconds)
        return {"status": outcome.status, "nodes": outcome.nodes, "search_wall_s": time.perf_counter() - start,
                "search_cpu_s": time.process_time() - start_cpu, "jobs": 0, "driver_cpu_s": 0.0, "threads": threads,
                "table_mb": table_mb, "entries": search.entries, "evictions": search.evictions, "table_bytes": search.table_bytes}
    options = Options(table_mb=table_mb)
    samples: list[dict[str, Any]] = []
    engine = EngineSpec("process", workers).open(Context(game, claim, worker_search(game, options), options=options))
    try:
        driver = Driver(game, state, claim, engine, budget=20_000, job_seconds=job_seconds, options=options, max_nodes=max_nodes,
                        checkpoint=lambda saved: samples.append(footprint(saved)), checkpoint_seconds=FOOTPRINT_SECONDS)
        run = driver.run()
        samples.append(footprint(driver.state()))
    finally:
        engine.close()
    stats = run.stats
    return {"status": run.status, "nodes": stats.worker_nodes, "search_wall_s": stats.seconds,
            "search_cpu_s": stats.worker_cpu_seconds + stats.driver_cpu_seconds, "jobs": stats.jobs,
            "driver_cpu_s": stats.driver_cpu_seconds, "job_cpu_s": stats.worker_cpu_seconds,
            "driver_nodes": stats.driver_nodes, "table_mb": table_mb, "footprint": samples}


FOOTPRINT_SECONDS = 30.0  # how often a target run measures the driver's state, as a checkpoint would save it (it costs the driver a pickling)


def footprint(state: dict[str, Any]) -> dict[str, Any]:
    """What the driver holds (`Driver.state`) and what a checkpoint of it takes: jobs answered, nodes
    searched, the tree's nodes, settled positions, workers' proofs (count and packed bytes), the
    state pickled, and compressed as certify/proving/checkpoint.py writes it; this process's RSS."""
    import pickle
    import zlib

    from certify.proving.single import peak_rss_mb
    from solver.search.pns import rss_mb

    tree, stack = 0, [state["root"]]
    while stack:
        node = stack.pop()
        tree += 1
        stack.extend(node.children or ())
    raw = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    stats = state["stats"]
    return {"jobs": stats.jobs, "worker_nodes": stats.worker_nodes, "tree_nodes": tree, "settled": len(state["known"]),
            "proofs": len(state["proofs"]), "proof_bytes": sum(len(p[1]) + sum(map(len, p[2])) for p in state["proofs"].values()),
            "pickle_bytes": len(raw), "checkpoint_bytes": len(zlib.compress(raw, 1)), "rss_mb": rss_mb(),
            "peak_rss_mb": peak_rss_mb()}


def _tree_rss_kb(root: int) -> int:
    """Resident memory of process `root` and every descendant (Linux /proc), in KiB."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE") // 1024
    tree, total = {root}, 0
    changed = True
    while changed:
        changed = False
        for pid, parent in parents.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                changed = True
    return sum(rss.get(pid, 0) for pid in tree)


def measured_process(target: Target, workers: int, job_seconds: float, table_mb: float, max_seconds: float | None = None,
                     max_nodes: int | None = None, threads: int = 1) -> dict[str, Any]:
    """`one_search` as a whole process of its own (`nice` as the caller is): its figures, with the
    process's wall time, CPU time (its own and its workers', from wait4) and the peak of the
    resident memory summed over it and its workers (read every TARGET_RSS_SECONDS)."""
    import json
    import subprocess
    import sys

    call = (f"import json; from certify.bench.parallel import one_search; print(json.dumps(one_search("
            f"{target.game_text!r}, {target.position!r}, {target.player}, {target.result!r}, {workers}, {job_seconds}, {table_mb}, "
            f"{max_seconds!r}, {max_nodes!r}, {threads})))")
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", call], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = 0
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        peak = max(peak, _tree_rss_kb(child.pid))
        time.sleep(TARGET_RSS_SECONDS)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    out, err = child.communicate()
    if child.returncode != 0:
        raise RuntimeError(f"{target.label}, {workers or f'{threads} thread(s)'}: exit {child.returncode}: {err.decode()[-400:]}")
    figures = json.loads(out.decode().strip().splitlines()[-1])
    return {**figures, "workers": workers, "process_wall_s": wall, "process_cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_rss_mb": max(peak, usage.ru_maxrss) / 1024, "largest_process_rss_mb": usage.ru_maxrss / 1024}


def versus(serial: dict[str, Any], run: dict[str, Any], cores: int) -> dict[str, Any]:
    """A run against the serial search: speedup (the serial search's wall time over the run's, both
    from search start to settled), efficiency (speedup per core), CPU and node overhead."""
    speedup = serial["search_wall_s"] / run["search_wall_s"]
    return {"speedup": speedup, "efficiency": speedup / cores, "process_speedup": serial["process_wall_s"] / run["process_wall_s"],
            "cpu_overhead": run["process_cpu_s"] / serial["process_cpu_s"] if serial["process_cpu_s"] else None,
            "node_overhead": run["nodes"] / serial["nodes"] if serial["nodes"] else None, "agrees": serial["status"] == run["status"]}


def target_row(target: Target, serial: dict[str, Any], parallel: dict[str, Any] | None, workers: int,
               threaded: dict[str, Any] | None = None) -> dict[str, Any]:
    """One claim's figures: the runs, and each parallel one `versus` the serial search (the driver's
    at the row's top level, as before the threads; the threads' under `threads_versus`)."""
    row = {"claim": target.label, "game": target.game_text, "position": target.position, "player": target.player,
           "result": target.result, "serial": serial, "parallel": parallel}
    if parallel is not None:
        row.update(versus(serial, parallel, workers))
    if threaded is not None:
        row.update(threads=threaded, threads_versus=versus(serial, threaded, threaded["threads"]))
    return row


def target_benchmark(targets: list[Target] | None = None, workers: int = 2, job_seconds: float = DEFAULT_JOB_SECONDS,
                     table_mb: float = TARGET_TABLE_MB, uttt: bool = True, driver: bool = True, threads: int = 2,
                     uttt_first: int | None = None, uttt_seconds: tuple[float, float] | None = None,
                     scan_seconds: float | None = None, threads_table_mb: float | None = None) -> dict[str, Any]:
    """For each target claim (default: TARGET_MNK), the serial compiled search, then (`threads` > 1)
    that many threads sharing its table, then (`driver`) the driver on `workers` workers, each a
    whole process run after the other (`target_row`). With `uttt`, then the first position of
    `uttt_candidates` from `uttt_first` (default UTTT_FIRST) on whose serial search settles within `uttt_seconds`
    (default UTTT_SERIAL_SECONDS; each tried with the upper bound as its time limit, for at most
    `scan_seconds` in all, default UTTT_SCAN_SECONDS; the
    ones tried and passed over are listed), and the same runs on it (time limits twice the serial's
    time; the driver's node budget 3x its nodes).
    The serial search and each worker get a table of `table_mb`; the threads' one table gets
    `threads_table_mb` (default: `table_mb` times `threads`, what as many workers' tables take
    between them); each run's figures say its cap (`table_mb`)."""
    rows, passed_over = [], []
    load_before = os.getloadavg()[0]
    uttt_seconds = uttt_seconds or UTTT_SERIAL_SECONDS
    uttt_first = UTTT_FIRST if uttt_first is None else uttt_first
    scan_seconds = UTTT_SCAN_SECONDS if scan_seconds is None else scan_seconds
    threads_table_mb = table_mb * threads if threads_table_mb is None else threads_table_mb

    def runs(target: Target, serial: dict[str, Any], max_nodes: int | None, max_seconds: float | None = None) -> dict[str, Any]:
        # the threads' bound is time alone, as the serial search's: a node budget would size their table up front
        threaded = measured_process(target, 0, job_seconds, threads_table_mb, max_seconds, threads=threads) if threads > 1 else None
        parallel = measured_process(target, workers, job_seconds, table_mb, max_seconds, max_nodes) if driver else None
        return target_row(target, serial, parallel, workers, threaded)

    for target in targets or [TARGET_MNK]:  # the parallel runs bounded (a measurement slot ends), loosely on small claims
        serial = measured_process(target, 0, job_seconds, table_mb)
        rows.append(runs(target, serial, max(5 * serial["nodes"], 10**6), 5 * serial["search_wall_s"] + 60))
    if uttt:
        low, high = uttt_seconds
        scan_start = time.perf_counter()
        for target in uttt_candidates()[uttt_first:]:
            if time.perf_counter() - scan_start > scan_seconds:
                break
            serial = measured_process(target, 0, job_seconds, table_mb, max_seconds=high)
            if serial["status"] not in ("proved", "disproved") or serial["search_wall_s"] < low:
                passed_over.append({"claim": target.label, "position": target.position, "status": serial["status"],
                                    "nodes": serial["nodes"], "search_wall_s": serial["search_wall_s"]})
                continue
            rows.append(runs(target, serial, 3 * serial["nodes"], 2 * serial["search_wall_s"]))
            break
    return {"workers": workers if driver else 0, "threads": threads, "job_seconds": job_seconds, "table_mb": table_mb,
            "threads_table_mb": threads_table_mb,
            "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)], "rows": rows,
            "uttt_passed_over": passed_over, "uttt_rule": {"ply": UTTT_PLY, "serial_seconds": list(uttt_seconds),
                                                           "scan_seconds": scan_seconds, "first": uttt_first}}
