"""Where parallel work runs: a local process pool (the default) or Ray tasks on a Ray cluster.

An engine is a small adapter with one job: run `fn(context, task)` somewhere and say when a
call finishes. The driver (solver/search/parallel.py, certify/proving/batch.py) decides what to run
and what to do with results; engines do no scheduling of their own beyond what concurrent.futures
and Ray do.

`context` is shipped to the workers once (a process-pool initializer, a Ray object), so a task
carries only what differs between tasks. A worker that dies (killed, out of memory) turns into a
`WorkerLost` result for every call it took down; `Retrying` resubmits those calls a bounded
number of times, so a fault costs one task, never the run.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import signal
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol

Fn = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class WorkerLost:
    """A call that did not finish because its worker died or ran out of memory."""

    reason: str


class EngineError(RuntimeError):
    """An engine that cannot start (Ray missing, a cluster that cannot be joined); one line."""


class RayMissing(EngineError):
    """`--ray` was asked for but the optional `ray` package is not installed."""


class Engine(Protocol):
    """Runs calls `fn(context, task)` in parallel; `wait` returns those that finished."""

    workers: int

    def submit(self, fn: Fn, task: Any) -> int:
        """Start `fn(context, task)`; returns a handle (an int unique within this engine)."""
        ...

    def wait(self) -> list[tuple[int, Any]]:
        """Block until at least one call finishes; its handles with results (or WorkerLost)."""
        ...

    def pending(self) -> int:
        """Calls submitted and not yet returned by `wait`."""
        ...

    def close(self) -> None:
        """Cancel what is still running and release the workers."""
        ...


class Retrying:
    """`engine` with lost calls resubmitted: after `max_attempts` tries a call returns WorkerLost.

    `lost` counts worker deaths seen, `retried` the resubmissions they caused.
    """

    def __init__(self, engine: Engine, max_attempts: int = 3) -> None:
        self.engine = engine
        self.max_attempts = max_attempts
        self.lost = self.retried = 0
        self._calls: dict[int, tuple[int, Fn, Any, int]] = {}  # inner handle -> (handle, fn, task, attempt)
        self._next = 0

    @property
    def workers(self) -> int:
        """The engine's workers now (a Ray cluster's may change while it runs)."""
        return self.engine.workers

    def submit(self, fn: Fn, task: Any) -> int:
        handle = self._next
        self._next += 1
        self._calls[self.engine.submit(fn, task)] = (handle, fn, task, 1)
        return handle

    def wait(self) -> list[tuple[int, Any]]:
        out: list[tuple[int, Any]] = []
        while not out:
            for inner, result in self.engine.wait():
                handle, fn, task, attempt = self._calls.pop(inner)
                if isinstance(result, WorkerLost):
                    self.lost += 1
                    if attempt < self.max_attempts:
                        self.retried += 1
                        self._calls[self.engine.submit(fn, task)] = (handle, fn, task, attempt + 1)
                        continue
                    result = WorkerLost(f"{result.reason}; gave up after {attempt} attempts")
                out.append((handle, result))
        return out

    def pending(self) -> int:
        return self.engine.pending()

    def close(self) -> None:
        self.engine.close()


@dataclass(frozen=True)
class EngineSpec:
    """Which engine to open: `kind` "process" or "ray", with `workers` (0: all cores)."""

    kind: str = "process"
    workers: int = 0
    address: str | None = None  # ray only: None starts a local Ray instance

    def open(self, context: Any = None, max_attempts: int = 3) -> Retrying:
        """An engine ready to take calls, with `context` on every worker and lost calls retried."""
        if self.kind == "ray":
            return Retrying(RayEngine(self.workers, context, self.address), max_attempts)
        return Retrying(ProcessEngine(self.workers or default_workers(), context), max_attempts)

    def describe(self) -> str:
        """One word or two for tables: `process pool ×2`, `ray (local)`."""
        if self.kind == "ray":
            return f"ray ({self.address or 'local'})"
        return f"process pool ×{self.workers or default_workers()}"


def die_once_for_tests(marker: str | None) -> None:
    """Fault injection (tests only, CERTIFY_TEST_DIE_ONCE=PATH): the first worker call to create
    the marker file kills its own process, as the kernel's OOM killer would; later calls run."""
    if not marker:
        return
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return
    os.kill(os.getpid(), signal.SIGKILL)


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


# ---- process pool ---------------------------------------------------------------------------

_context: Any = None  # set once per worker process by the pool's initializer


def _set_context(context: Any) -> None:
    global _context
    _context = context


def _call_with_context(fn: Fn, task: Any) -> Any:
    return fn(_context, task)


class ProcessEngine:
    """A `concurrent.futures.ProcessPoolExecutor` of `workers` processes.

    When a worker process dies, the standard library marks the whole pool broken and fails every
    call in it; this engine reports each such call as WorkerLost and starts a fresh pool, so the
    caller can resubmit.
    """

    def __init__(self, workers: int, context: Any = None) -> None:
        self.workers = workers
        self._context = context
        self._pool = self._new_pool()
        self._futures: dict[cf.Future, tuple[int, cf.ProcessPoolExecutor]] = {}  # -> (handle, its pool)
        self._next = 0

    def _new_pool(self) -> cf.ProcessPoolExecutor:
        return cf.ProcessPoolExecutor(self.workers, initializer=_set_context, initargs=(self._context,))

    def _renew(self, broken: cf.ProcessPoolExecutor) -> None:
        """Replace the pool if `broken` is still the current one."""
        if broken is self._pool:
            broken.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()

    def submit(self, fn: Fn, task: Any) -> int:
        handle = self._next
        self._next += 1
        try:
            future = self._pool.submit(_call_with_context, fn, task)
        except BrokenProcessPool:  # a worker died since the last wait
            self._renew(self._pool)
            future = self._pool.submit(_call_with_context, fn, task)
        self._futures[future] = (handle, self._pool)
        return handle

    def wait(self) -> list[tuple[int, Any]]:
        done, _ = cf.wait(self._futures, return_when=cf.FIRST_COMPLETED)
        out = []
        for future in done:
            handle, pool = self._futures.pop(future)
            try:
                out.append((handle, future.result()))
            except BrokenProcessPool:
                self._renew(pool)
                out.append((handle, WorkerLost("a worker process died (killed or out of memory)")))
            except MemoryError:
                out.append((handle, WorkerLost("a worker ran out of memory")))
        return out

    def pending(self) -> int:
        return len(self._futures)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._futures.clear()


# ---- Ray ------------------------------------------------------------------------------------


def import_ray() -> Any:
    """The `ray` module, or RayMissing with the one line that says how to install it."""
    try:
        import ray
    except ImportError:
        raise RayMissing("--ray needs the optional ray package: pip install -e '.[ray]'") from None
    return ray


def _call_ray(fn: Fn, context: Any, task: Any) -> Any:
    return fn(context, task)


class RayEngine:
    """The same calls as Ray tasks (one CPU each) on a Ray cluster.

    `address` None starts a private local Ray instance with `workers` CPUs (all cores if 0) and
    stops it on close; an address (`auto`, `HOST:PORT`, `ray://HOST:PORT`) joins a running cluster
    (docs/scaling.md), whose CPUs set `workers` unless given: then nodes that join or leave the
    cluster while it runs change `workers` (read again at most every REFRESH_SECONDS). Ray's own
    task retries are off: the caller sees a dead worker as WorkerLost and decides, as with the
    process pool.
    """

    REFRESH_SECONDS = 2.0

    def __init__(self, workers: int, context: Any = None, address: str | None = None) -> None:
        ray = self._ray = import_ray()
        self._owned = not ray.is_initialized()
        if self._owned:
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
            if address is None:
                options["num_cpus"] = workers or default_workers()
            try:
                ray.init(address=address, **options)
            except (ConnectionError, RuntimeError, ValueError) as err:
                raise EngineError(f"cannot start or join Ray at {address or 'a local instance'}: {str(err).splitlines()[0]}") from None
        self._fixed = workers
        self._workers, self._read = self._cluster_cpus(), time.monotonic()
        self._context = ray.put(context)
        self._remote = ray.remote(num_cpus=1, max_retries=0)(_call_ray)
        self._refs: dict[Any, int] = {}
        self._next = 0

    def _cluster_cpus(self) -> int:
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    @property
    def workers(self) -> int:
        if self._fixed:
            return self._fixed
        if time.monotonic() - self._read > self.REFRESH_SECONDS:
            self._workers, self._read = self._cluster_cpus(), time.monotonic()
        return self._workers

    def submit(self, fn: Fn, task: Any) -> int:
        handle = self._next
        self._next += 1
        self._refs[self._remote.remote(fn, self._context, task)] = handle
        return handle

    def wait(self) -> list[tuple[int, Any]]:
        ray = self._ray
        ready, _ = ray.wait(list(self._refs), num_returns=1)
        out = []
        for ref in ready:
            handle = self._refs.pop(ref)
            try:
                out.append((handle, ray.get(ref)))
            except (ray.exceptions.WorkerCrashedError, ray.exceptions.OutOfMemoryError, ray.exceptions.NodeDiedError,
                    ray.exceptions.ObjectLostError) as err:  # the last: an answer kept on a node that left
                out.append((handle, WorkerLost(f"a Ray worker died: {type(err).__name__}")))
            except ray.exceptions.RayTaskError as err:
                if isinstance(err.cause, MemoryError):
                    out.append((handle, WorkerLost("a Ray worker ran out of memory")))
                else:
                    raise err.cause from None
        return out

    def pending(self) -> int:
        return len(self._refs)

    def close(self) -> None:
        for ref in self._refs:
            self._ray.cancel(ref, force=True)
        self._refs.clear()
        if self._owned:
            self._ray.shutdown()
