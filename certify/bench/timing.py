"""`certify bench --suite solver|z3`, and the timing every suite shares.

Wall times are measured in one run, so ratios between them are meaningful.
"""

from __future__ import annotations

import os
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import checker
from certify.record.certificate import write_certificate
from certify.pipeline import solve_and_certify
from solver.search.retrograde import solve
from solver.games.positional.rules import resolve


@dataclass(frozen=True)
class Timing:
    """Wall-clock seconds of repeated runs of one task."""

    name: str
    runs: list[float]
    note: str = ""

    @property
    def median(self) -> float:
        """Median seconds per run."""
        return statistics.median(self.runs)

    @property
    def best(self) -> float:
        """Fastest run in seconds."""
        return min(self.runs)


def time_runs(name: str, task: Callable[[], object], repeat: int, note: str = "") -> Timing:
    """Run `task` `repeat` times after one warm-up run and record each wall time."""
    task()
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        task()
        runs.append(time.perf_counter() - start)
    return Timing(name, runs, note)


def machine() -> dict[str, str]:
    """What the numbers were measured on."""
    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(),
    }


def solver_benchmarks(repeat: int) -> list[Timing]:
    """Solve-and-certify w3t, check its certificate, solve tictactoe (and OpenSpiel, if present)."""
    timings = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "w3t.json"

        def solve_and_write() -> None:
            write_certificate(solve_and_certify(resolve("w3t"), "w3t").certificate, path)

        timings.append(time_runs("solve w3t + write certificate", solve_and_write, repeat))
        timings.append(time_runs("check w3t certificate (independent checker)", lambda: checker.check_file(str(path)), repeat))
    tictactoe = resolve("tictactoe")
    timings.append(time_runs("solve tictactoe (certify, numpy retrograde)", lambda: solve(tictactoe), repeat))
    peer = openspiel_value_iteration()
    if peer is not None:
        timings.append(time_runs("solve tic_tac_toe (OpenSpiel value_iteration)", peer, max(1, repeat // 5)))
    return timings


def z3_benchmarks(repeat: int) -> list[Timing]:
    """The w3t proofs of issue 4: root value from the equations, the certificate's strategy."""
    from certify.smt.bmc import certificate_strategies, check_side
    from certify.smt.value import cross_check_root

    rules = resolve("w3t")
    certificate = solve_and_certify(rules, "w3t").certificate
    (strategy,) = certificate_strategies(certificate)
    return [
        time_runs("Z3: w3t root value from the minimax equations", lambda: cross_check_root(rules, "win", 60.0), repeat),
        time_runs("Z3: w3t certificate strategy wins every play (BMC)", lambda: check_side(rules, strategy, "win", 60.0), repeat),
    ]


def missing_peer_module() -> str | None:
    """The module the OpenSpiel peer needs but cannot import (open_spiel itself, or cvxpy), else None."""
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.algorithms import value_iteration  # noqa: F401
    except ImportError as err:
        return err.name or str(err)
    return None


def openspiel_value_iteration() -> Callable[[], object] | None:
    """OpenSpiel's value iteration on its tic_tac_toe, or None when it cannot be imported."""
    if missing_peer_module() is not None:
        return None
    import pyspiel
    from open_spiel.python.algorithms import value_iteration

    game = pyspiel.load_game("tic_tac_toe")
    return lambda: value_iteration.value_iteration(game, depth_limit=-1, threshold=0.01)
