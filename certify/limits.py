"""Bounded work: a wall-clock limit that holds even inside C code (Z3), and memory estimates.

`run_bounded` runs a function in a forked child process and kills it when its time is up, so a
`--timeout` bounds the whole step (enumerating, encoding, parsing, solving), not only the solver's
own queries. The child's address space is limited to the memory available when it starts: a step
that would exhaust the machine fails with MemoryError instead of pushing everything into swap.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class TimedOut(Exception):
    """The step did not finish within its time limit (its process was stopped)."""


def available_memory() -> int | None:
    """Bytes of memory available for new work (Linux MemAvailable), or None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def memory_shortfall(need: int) -> str | None:
    """A one-line warning when a step needs more than the machine has available, else None."""
    have = available_memory()
    if have is None or need <= have:
        return None
    return f"this step may need about {gigabytes(need)} of memory; {gigabytes(have)} is available"


def gigabytes(count: int) -> str:
    """`3.9 GB`, `512 MB`, `6.9e+24 GB` (past a petabyte, digits would say nothing more)."""
    if count >= 1e15:
        return f"{count / 1e9:.1e} GB"
    return f"{count / 1e9:.1f} GB" if count >= 1e9 else f"{count / 1e6:.0f} MB"


def cap_address_space(limit: int | None) -> None:
    """Lower this process's address-space limit to `limit` bytes, within the existing hard limit
    (`ulimit -v` on shared machines: an unprivileged process may lower it, never raise it)."""
    if limit is None:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    if soft == resource.RLIM_INFINITY or cap < soft:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def run_bounded(timeout: float, function: Callable[..., T], *args: object) -> T:
    """`function(*args)` in a child process; its result, its exception re-raised, or TimedOut.

    The child is forked (no re-import, no pickling of the arguments); its result and exceptions
    come back pickled. On timeout the child is killed.
    """
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)

    def child() -> None:
        cap_address_space(available_memory())
        try:
            outcome: tuple[str, object] = ("value", function(*args))
        except BaseException as err:  # sent back and re-raised in the parent
            outcome = ("error", err)
        try:
            sender.send(outcome)
        except Exception as err:  # an unpicklable result or exception: say what it was
            sender.send(("error", RuntimeError(f"{type(err).__name__}: {err}")))
        os._exit(0)

    process = context.Process(target=child, daemon=True)
    process.start()
    sender.close()
    try:
        if not receiver.poll(timeout):
            raise TimedOut(f"not finished within {timeout:g} s")
        try:
            kind, value = receiver.recv()
        except EOFError:
            process.join()
            raise RuntimeError(f"the bounded step ended without a result (exit code {process.exitcode})") from None
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receiver.close()
    if kind == "error":
        raise value  # type: ignore[misc]
    return value  # type: ignore[return-value]
