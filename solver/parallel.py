"""Parallel proof-number search: one driver, a proof-number tree at the root, workers on its frontier.

The scheme is job-level proof-number search (Wu, Lin et al., 2010), the shape parallel df-pn
systems share: the driver keeps a small proof-number tree over the first plies; it repeatedly
selects a most-proving leaf and hands that position to a worker with a node budget; the worker
runs the ordinary serial search (solver/pns.py) from it and answers proved, disproved, or its
proof and disproof numbers when the budget ran out. The driver folds answers back into the tree;
a leaf that came back unresolved is expanded by the driver one ply, and its children become new
jobs. Workers share nothing: each gets a position and a budget, each returns an answer.

To keep every worker busy, a leaf whose job is running is taken out of selection ("busy"): the
numbers used for selecting ignore busy leaves, so the next selection goes to the next most-proving
leaf; the true numbers, which decide proved and disproved, are untouched by this.

A proof found this way is one ordinary strategy: the driver's own moves down to the leaves, and
below each leaf the strategy its worker proved. `collect_strategy` walks it from the root, so the
certificate holds exactly the positions the strategy reaches, and the checker sees nothing new.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Literal

from solver.engines import Engine, EngineSpec, WorkerLost

INF = 1 << 40  # a proof or disproof number that stands for infinity
Status = Literal["proved", "disproved", "unknown"]


@dataclass(frozen=True)
class Goal:
    """What is being proved: `player` reaches at least `need` (1: a win, 0: no loss)."""

    player: int
    need: int

    def met(self, returns: tuple[int, int]) -> bool:
        """Whether a terminal position's returns satisfy the goal."""
        return returns[self.player - 1] >= self.need


@dataclass(frozen=True)
class Answer:
    """A worker's answer about one position.

    `moves` is the winning side's strategy below the position when it is resolved: the move at
    each position of that side the strategy reaches ((position, move) pairs); for a disproof
    it is the opponent's strategy, when the search provides one, else empty.
    """

    status: Status
    pn: int
    dn: int
    nodes: int
    seconds: float = 0.0
    moves: tuple[tuple[Any, Any], ...] = ()


Search = Callable[[Any, Any, Goal, int], Answer]  # (game, position, goal, max_nodes) -> Answer


@dataclass(frozen=True)
class Context:
    """What every worker is given once: the game, the goal and the search to run."""

    game: Any
    goal: Goal
    search: Search


@dataclass(frozen=True)
class Job:
    """One position for a worker, with its node budget."""

    position: Any
    budget: int
    die_once: str | None = None  # tests only: a marker path; see `run_job`


def run_job(context: Context, job: Job) -> Answer:
    """Worker side: the serial search from `job.position` within `job.budget` nodes.

    `die_once` is a fault-injection hook for tests (CERTIFY_TEST_DIE_ONCE): the first worker to
    create the marker file kills its own process, as the OOM killer would.
    """
    if job.die_once and _claim_marker(job.die_once):
        os.kill(os.getpid(), signal.SIGKILL)
    start = time.perf_counter()
    answer = context.search(context.game, job.position, context.goal, job.budget)
    return Answer(answer.status, answer.pn, answer.dn, answer.nodes, time.perf_counter() - start, answer.moves)


def _claim_marker(path: str) -> bool:
    """Create `path` if it does not exist; True for the one caller that created it."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


# ---- the driver's tree --------------------------------------------------------------------


@dataclass(eq=False)
class Node:
    """A position in the driver's tree. OR nodes: the goal's player to move; AND nodes: the other."""

    position: Any
    key: Hashable
    move: Any
    parent: Node | None
    is_or: bool
    pn: int = 1
    dn: int = 1
    children: list[Node] | None = None  # None: a leaf
    searched: bool = False  # a worker answered "unknown" here: expand it when selected again
    busy: bool = False  # a job for this position is running
    spn: int = 1  # selection numbers: pn and dn with busy leaves left out
    sdn: int = 1
    open: bool = True  # some leaf below is neither busy nor resolved

    @property
    def resolved(self) -> bool:
        """Proved (pn 0) or disproved (dn 0)."""
        return self.pn == 0 or self.dn == 0


def _refresh(node: Node) -> None:
    """Recompute `node`'s numbers from its children (a leaf keeps its own)."""
    if node.children is None:
        node.open = not node.busy and not node.resolved
        node.spn, node.sdn = node.pn, node.dn
        return
    kids = node.children
    live = [c for c in kids if c.open]
    if node.is_or:
        node.pn, node.dn = min(c.pn for c in kids), min(INF, sum(c.dn for c in kids))
        node.spn = min((c.spn for c in live), default=INF)
        node.sdn = min(INF, sum(c.sdn for c in live))
    else:
        node.pn, node.dn = min(INF, sum(c.pn for c in kids)), min(c.dn for c in kids)
        node.spn = min(INF, sum(c.spn for c in live))
        node.sdn = min((c.sdn for c in live), default=INF)
    node.open = bool(live) and not node.resolved


def _refresh_up(node: Node | None) -> None:
    while node is not None:
        _refresh(node)
        node = node.parent


def _select(root: Node) -> Node | None:
    """The most-proving open leaf, or None when every leaf is busy or resolved."""
    if not root.open:
        return None
    node = root
    while node.children is not None:
        live = [c for c in node.children if c.open]
        node = min(live, key=(lambda c: c.spn) if node.is_or else (lambda c: c.sdn))
    return node


# ---- the driver -----------------------------------------------------------------------------


@dataclass
class Stats:
    """What the driver did: jobs, their outcomes, nodes searched, faults."""

    jobs: int = 0
    proved: int = 0
    disproved: int = 0
    unknown: int = 0
    retried: int = 0
    lost: int = 0
    worker_nodes: int = 0
    worker_seconds: float = 0.0
    driver_nodes: int = 0
    seconds: float = 0.0


@dataclass
class Outcome:
    """The driver's result: the root's status and numbers, and the winning strategy if resolved."""

    status: Status
    pn: int
    dn: int
    stats: Stats
    strategy: dict[Hashable, tuple[Any, Any]] = field(default_factory=dict)  # key -> (position, move)


Progress = Callable[[Node, Stats, int], None]  # (root, stats, jobs running)


class JobFailed(RuntimeError):
    """A job's worker died more often than the retry bound allows."""


class Driver:
    """Job-level proof-number search of `goal` from `position`, on `engine`."""

    def __init__(self, game: Any, position: Any, goal: Goal, engine: Engine, *, budget: int,
                 max_jobs: int | None = None, max_attempts: int = 3, progress: Progress | None = None) -> None:
        self.game, self.goal, self.engine = game, goal, engine
        self.budget, self.max_jobs, self.max_attempts, self.progress = budget, max_jobs, max_attempts, progress
        self.stats = Stats()
        self.known: dict[Hashable, Answer] = {}  # resolved positions, by key
        self.root = self._node(position, None, None)
        self.waiting: dict[Hashable, list[Node]] = {}  # running jobs: position key -> leaves that wait
        self.jobs: dict[int, tuple[Job, int]] = {}  # engine handle -> (job, attempt)
        self.die_once = os.environ.get("CERTIFY_TEST_DIE_ONCE")

    def _node(self, position: Any, move: Any, parent: Node | None) -> Node:
        game = self.game
        node = Node(position, game.key(position), move, parent, game.to_move(position) == self.goal.player)
        if game.is_terminal(position):
            node.pn, node.dn = (0, INF) if self.goal.met(game.returns(position)) else (INF, 0)
        elif node.key in self.known:
            self._settle(node, self.known[node.key])
        _refresh(node)
        return node

    def _settle(self, node: Node, answer: Answer) -> None:
        if answer.status == "proved":
            node.pn, node.dn = 0, INF
        elif answer.status == "disproved":
            node.pn, node.dn = INF, 0
        else:
            node.pn, node.dn, node.searched = max(1, answer.pn), max(1, answer.dn), True

    def _expand(self, leaf: Node) -> None:
        game = self.game
        leaf.children = [self._node(game.apply(leaf.position, m), m, leaf) for m in game.legal_moves(leaf.position)]
        self.stats.driver_nodes += len(leaf.children)
        _refresh_up(leaf)

    def _dispatch(self) -> None:
        """Fill free workers with jobs on the most-proving open leaves."""
        while self.engine.pending() < self.engine.workers and (self.max_jobs is None or self.stats.jobs < self.max_jobs):
            leaf = _select(self.root)
            if leaf is None:
                return
            if leaf.searched:
                self._expand(leaf)
                continue
            leaf.busy = True
            if leaf.key not in self.waiting:
                self.waiting[leaf.key] = []
                self._submit(Job(leaf.position, self.budget, self.die_once), 1)
            self.waiting[leaf.key].append(leaf)
            _refresh_up(leaf)

    def _submit(self, job: Job, attempt: int) -> None:
        self.jobs[self.engine.submit(run_job, job)] = (job, attempt)
        self.stats.jobs += attempt == 1

    def _receive(self, handle: int, answer: Answer | WorkerLost) -> None:
        job, attempt = self.jobs.pop(handle)
        if isinstance(answer, WorkerLost):
            self.stats.lost += 1
            if attempt >= self.max_attempts:
                raise JobFailed(f"a job failed {attempt} times ({answer.reason})")
            self.stats.retried += 1
            self._submit(job, attempt + 1)
            return
        stats = self.stats
        stats.worker_nodes += answer.nodes
        stats.worker_seconds += answer.seconds
        setattr(stats, answer.status, getattr(stats, answer.status) + 1)
        key = self.game.key(job.position)
        if answer.status != "unknown":
            self.known[key] = answer
        for leaf in self.waiting.pop(key):
            leaf.busy = False
            self._settle(leaf, answer)
            _refresh_up(leaf)

    def run(self) -> Outcome:
        """Search until the root is resolved or `max_jobs` jobs ran; the outcome."""
        start = time.perf_counter()
        root = self.root
        while not root.resolved:
            self._dispatch()
            if not self.engine.pending():
                break  # the job limit is reached
            for handle, answer in self.engine.wait():
                self._receive(handle, answer)
            if self.progress:
                self.progress(root, self.stats, self.engine.pending())
        self.stats.seconds = time.perf_counter() - start
        status: Status = "proved" if root.pn == 0 else "disproved" if root.dn == 0 else "unknown"
        outcome = Outcome(status, root.pn, root.dn, self.stats)
        if status != "unknown":
            outcome.strategy = collect_strategy(self.game, root, self.known, self.goal, status == "proved")
        return outcome


def collect_strategy(game: Any, root: Node, known: dict[Hashable, Answer], goal: Goal,
                     proved: bool) -> dict[Hashable, tuple[Any, Any]]:
    """The winning side's strategy from the root: key -> (position, move), each position it reaches.

    The winning side is the goal's player if `proved`, else the opponent. Its move at a position
    is the driver's (a resolved child of a resolved node) or else a worker's (from the answer that
    resolved the position or a position it contains). Raises ValueError if a reached position has
    no move: a disproof whose workers gave no opponent strategy, or a bug.
    """
    moves: dict[Hashable, Any] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if node.children is None:
            continue
        wins = [c for c in node.children if (c.pn == 0 if proved else c.dn == 0)]
        if node.is_or == proved:  # the winning side moves here
            if wins:
                moves.setdefault(node.key, wins[0].move)
                stack.append(wins[0])
        else:
            stack.extend(wins)
    for answer in known.values():
        if (answer.status == "proved") == proved:
            for position, move in answer.moves:
                moves.setdefault(game.key(position), move)
    winner = goal.player if proved else 3 - goal.player
    strategy: dict[Hashable, tuple[Any, Any]] = {}
    seen: set[Hashable] = set()
    stack_positions = [root.position]
    while stack_positions:
        position = stack_positions.pop()
        key = game.key(position)
        if key in seen or game.is_terminal(position):
            continue
        seen.add(key)
        if game.to_move(position) == winner:
            if key not in moves:
                raise ValueError(f"no move for a position the strategy reaches: {position!r}")
            strategy[key] = (position, moves[key])
            stack_positions.append(game.apply(position, moves[key]))
        else:
            stack_positions.extend(game.apply(position, m) for m in game.legal_moves(position))
    return strategy


def prove_parallel(game: Any, position: Any, goal: Goal, search: Search, spec: EngineSpec, *,
                   budget: int = 20_000, max_jobs: int | None = None, max_attempts: int = 3,
                   progress: Progress | None = None) -> Outcome:
    """Run the driver for `goal` from `position` with `search` on the workers of `spec`."""
    engine = spec.open(Context(game, goal, search))
    try:
        return Driver(game, position, goal, engine, budget=budget, max_jobs=max_jobs,
                      max_attempts=max_attempts, progress=progress).run()
    finally:
        engine.close()
