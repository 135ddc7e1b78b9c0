"""What a Z3 cross-check returns, and running a query against a time budget."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Literal, TypeVar

import z3

from certify.limits import TimedOut, run_bounded

T = TypeVar("T")

Status = Literal["proved", "refuted", "unknown"]


@dataclass(frozen=True)
class PlayedMove:
    """One move of a counterexample play; `role` says why it was played (strategy, reply, ...)."""

    player: int
    cell: int
    mark: int
    role: str


@dataclass(frozen=True)
class SmtResult:
    """The outcome of one cross-check: proved, refuted (with a counterexample play) or unknown."""

    check: str  # what was checked, in words
    status: Status
    seconds: float
    details: dict[str, object] = field(default_factory=dict)
    counterexample: tuple[PlayedMove, ...] | None = None

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        data = asdict(self)
        data["seconds"] = round(self.seconds, 4)
        return data


class Deadline:
    """A wall-clock budget shared by the queries of one check."""

    def __init__(self, seconds: float) -> None:
        self.start = time.perf_counter()
        self.seconds = seconds

    def elapsed(self) -> float:
        """Seconds since the check started."""
        return time.perf_counter() - self.start

    def check(self, solver: z3.Solver, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
        """`solver.check` limited to the time left; `unknown` once the budget is spent."""
        left = self.seconds - self.elapsed()
        if left <= 0:
            return z3.unknown
        solver.set("timeout", max(1, int(left * 1000)))
        return solver.check(*assumptions)


def bounded_check(check: str, timeout: float, function: Callable[..., T], *args: object) -> T | SmtResult:
    """`function(*args)` run by certify.limits.run_bounded, the one runner of every Z3 step: in a
    child process killed at `timeout` and capped at the memory available, so neither Z3 nor the
    encoding around it can outlast --timeout, exhaust the machine or ignore Ctrl-C. Its result, or
    an `unknown` SmtResult naming `check` when time or memory ran out."""
    started = time.perf_counter()
    try:
        return run_bounded(timeout, function, *args)
    except TimedOut:
        reason = f"timeout after {timeout:g} s"
    except MemoryError:
        reason = "out of memory"
    return SmtResult(check, "unknown", time.perf_counter() - started, {"reason": reason})
