"""Parallel proof-number search: one driver, a proof-number tree at the root, workers on its frontier.

The scheme is job-level proof-number search (Wu, Lin et al., 2010), the shape parallel df-pn
systems share: the driver keeps a small proof-number tree over the first plies; it repeatedly
selects a most-proving leaf and hands that position to a worker with a node budget; the worker
runs the serial search from it (`worker_search`: the compiled df-pn, solver/search/native.py, where
the family has a kernel, else solver/search/pns.py) and answers proved, disproved, or, when the
budget ran out, the proof and disproof numbers of the position's children. The driver folds
answers back into the tree: a leaf that came back unresolved is expanded one ply with the
worker's numbers (children the worker settled stay settled), and its open children become new
jobs. Workers share nothing: each gets a position and a budget, each returns an answer; a worker
process keeps its own table between the jobs of one run (`run_job`), a private cache. The budget
can follow the time jobs take (`job_seconds`), and the driver's whole state can be saved and
resumed (`Driver.state`, `resume`): a lost driver loses only the jobs it was waiting for.

To keep every worker busy, a leaf whose job is running is taken out of selection ("busy"): the
numbers used for selecting ignore busy leaves, so the next selection goes to the next most-proving
leaf; the true numbers, which decide proved and disproved, are untouched by this.

A proof found this way is one ordinary strategy: the driver's own moves down to the leaves, and
below each leaf the strategy its worker proved. `Strategy` walks it from the root, so the
certificate holds exactly the positions the strategy reaches, and the checker sees nothing new.
"""

from __future__ import annotations

import dataclasses
import os
import time
import uuid
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Literal

from solver.search.prooftree import ProofTree
from solver.workers import EngineSpec, Retrying, WorkerLost, die_once_for_tests

INF = 1 << 60  # a proof or disproof number that stands for infinity (as in solver/search/pns.py)
Status = Literal["proved", "disproved", "unknown"]


@dataclass(frozen=True)
class Answer:
    """A worker's answer about one position.

    `proofs` holds the prover's strategy below every position the worker proved (the job's
    position or, when the budget ran out, some of its children): (position, packed moves,
    closures), the moves as the canonical traversal from that position visits the prover's
    positions (solver/search/prooftree.py), one byte each (CLOSE where a closure proves the
    position), and the closures' records in the same order, as a certificate stores them; the driver replays
    only those its final strategy reaches (`Strategy`). `children`, when the budget ran out, is
    what the worker learnt of each move it would search from the position: (move, pn, dn), pn 0
    for a proved child, dn 0 for a disproved one; the driver expands the position with it, so the
    children the worker settled are not searched again.
    """

    status: Status
    pn: int
    dn: int
    nodes: int
    cpu_seconds: float = 0.0
    proofs: tuple[tuple[Any, bytes, tuple[bytes, ...]], ...] = ()
    children: tuple[tuple[Any, int, int], ...] = ()
    worker: str = ""  # which worker answered (host and process): whose table holds what it searched


Search = Callable[[Any, Any, Any, int, dict, Any, Any], Answer]  # (game, position, claim, max_nodes, memo, Options, limits) -> Answer


@dataclass(frozen=True)
class Options:
    """How the serial search is set up, so the driver and every worker search alike (`certify
    prove --plain`, `--pairings`, `--policy`; the claim carries `--within`): `plain` searches every
    legal move in order (NoHooks), `policy` fixes the prover's moves where it names any
    (PolicyHooks), `pairings` asks the family's closure at the prover's positions (the hooks ask it
    always where they say so: uttt's count)."""

    plain: bool = False
    pairings: bool = False
    policy: Any = None  # solver.search.policy.PlanPolicy
    table_mb: float | None = None  # each compiled worker's table cap (None: the default share, `native_search`)

    def hooks(self, game: Any, claim: Any = None, root: Any = None) -> Any:
        """The search hooks these options give for `game`, set up for `claim` (solver.search.pns.Claim)
        searched from `root` as the serial search sets them up (`hooks_for_claim`), where a claim is
        given: a job's claim is within what is left from its position, so its bound is the run's."""
        from solver.games.game import NoHooks, hooks_for_claim
        from solver.search.policy import PolicyHooks

        hooks = NoHooks() if self.plain else game.search_hooks()
        if claim is not None:
            hooks = hooks_for_claim(hooks, claim.result, claim.within, root)
        return hooks if self.policy is None else PolicyHooks(game, self.policy, hooks)

    def closes(self, hooks: Any) -> bool:
        """Whether the search asks `hooks`' closure (as certify/proving/single.py `closing`)."""
        return hasattr(hooks, "closure") and (self.pairings or bool(getattr(hooks, "always_close", False)))


@dataclass(frozen=True)
class Context:
    """What every worker is given once: the game, the claim (solver.search.pns.Claim), the search
    and its options.

    `token` names one run: a worker process keeps a private memo per token between jobs (see
    `run_job`), never across runs.
    """

    game: Any
    claim: Any
    search: Search
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    options: Options = Options()


@dataclass(frozen=True)
class Job:
    """One position for a worker, with its node budget and its ply from the root (a bounded claim's
    bound counts from the root: the worker searches the claim within what is left)."""

    position: Any
    budget: int
    die_once: str | None = None  # tests only: see engines.die_once_for_tests
    ply: int = 0
    limits: tuple[int, int] | None = None  # df-pn's thresholds (pn, dn) at the position: the job stops there too


_memo: dict[str, dict] = {}  # per worker process: the memo of the run it last served
WORKER = f"{os.uname().nodename}:{os.getpid()}"  # this process, as answers name it (set again in a forked worker by run_job)


def run_job(context: Context, job: Job) -> Answer:
    """Worker side: the serial search from `job.position` within `job.budget` nodes.

    The search gets a memo private to this process that lives as long as this process serves
    the same run: a search may keep its transposition table there, so a worker that is handed a
    position below one it searched before starts from what it learnt (a cache: correct without
    it, faster with it; nothing in it is shared with another worker).
    """
    global WORKER
    die_once_for_tests(job.die_once)
    WORKER = f"{os.uname().nodename}:{os.getpid()}"
    if context.token not in _memo:
        _memo.clear()
        _memo[context.token] = {}
    claim = context.claim
    if claim.within is not None:
        claim = dataclasses.replace(claim, within=claim.within - job.ply)
    start = time.process_time()
    answer = context.search(context.game, job.position, claim, job.budget, _memo[context.token], context.options, job.limits)
    return dataclasses.replace(answer, cpu_seconds=time.process_time() - start, worker=WORKER)


# ---- the driver's tree --------------------------------------------------------------------


@dataclass(eq=False)
class Node:
    """A position in the driver's tree. OR nodes: the claim's player to move; AND nodes: the other."""

    position: Any
    key: Hashable
    move: Any
    parent: Node | None
    is_or: bool
    ply: int = 0  # from the root: where a bounded claim's bound counts from
    pn: int = 1
    dn: int = 1
    children: list[Node] | None = None  # None: a leaf
    busy: bool = False  # a job for this position is running
    spn: int = 1  # selection numbers: pn and dn with busy leaves left out
    sdn: int = 1
    open: bool = True  # some leaf below is neither busy nor resolved
    prove_free: bool = True  # a proof needs work here no running job does (see `_select`)
    territory: str = ""  # the worker that last answered a job at or below this node: its table knows it best
    disprove_free: bool = True  # the same for a disproof

    @property
    def resolved(self) -> bool:
        """Proved (pn 0) or disproved (dn 0)."""
        return self.pn == 0 or self.dn == 0


def _refresh(node: Node) -> None:
    """Recompute `node`'s numbers from its children (a leaf keeps its own)."""
    if node.children is None:
        node.open = node.prove_free = node.disprove_free = not node.busy and not node.resolved
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
    if node.open:
        critical = min(kids, key=(lambda c: c.pn) if node.is_or else (lambda c: c.dn))
        if node.is_or:  # a proof needs one child: the most-proving one; a disproof needs them all
            node.prove_free, node.disprove_free = critical.prove_free, any(c.disprove_free for c in live)
        else:
            node.prove_free, node.disprove_free = any(c.prove_free for c in live), critical.disprove_free
    else:
        node.prove_free = node.disprove_free = False


def _refresh_up(node: Node | None) -> None:
    while node is not None:
        _refresh(node)
        node = node.parent


def leans_to_proof(root: Node) -> bool:
    """Whether the root's numbers lean to a proof: its pn at most its dn, each first brought to where
    b unsettled children of equal numbers would put them (an AND node's pn sums its children's, an
    OR node's dn sums theirs), so the sum alone does not decide."""
    kids = [c for c in root.children or () if not c.resolved]
    b = max(1, len(kids))
    return root.pn <= root.dn * b if not root.is_or else root.pn * b <= root.dn


VIRTUAL = True  # `_select` takes running jobs to succeed (False: the rule before, for measuring the difference)
MIN_JOB_SHARE = 0.25  # a job stopped by its thresholds early goes on without them to this share of its budget
THRESHOLDS = True  # a job stops at df-pn's thresholds from the root (False: at its budget only, for measuring)
AFFINITY = True  # `_select` sends a job to its worker's own territory where any order would do (False: for measuring)


def _select(root: Node, worker: str = "") -> tuple[Node, tuple[int, int]] | None:
    """The leaf for the next job and its thresholds (pn, dn), or None when every leaf is busy or resolved.

    Running jobs are taken to succeed in the direction the root leans (`leans_to_proof`: a proof or
    a disproof), as virtual proof numbers do (Kaneko 2010; Pawlewicz and Hayward
    2013): for a proof, an OR node whose most-proving child is being searched needs nothing more, so
    the next job goes where the proof needs work besides, a sibling under an AND node (work
    any proof needs, not a guess among OR siblings). Where a proof needs every child (an AND node;
    an OR node for a disproof), the order costs little, so the job goes to the `worker`'s own
    territory where it has one: the children below which it answered last, which its table knows.
    Where all that leaves nothing, the most-proving open leaf with the running ones left out
    (`spn`, `sdn`).

    The thresholds are df-pn's along the path from the root (with its 1+epsilon widening, as
    dfpn.c's): the job stops once its leaf is no longer where the root's search would be, instead
    of digging on for its whole budget (`THRESHOLDS`)."""
    if not root.open:
        return None
    proving = leans_to_proof(root)
    free = "prove_free" if proving else "disprove_free"
    virtual = VIRTUAL and getattr(root, free)
    pn_of: Callable[[Node], int] = (lambda c: c.pn) if virtual else (lambda c: c.spn)
    dn_of: Callable[[Node], int] = (lambda c: c.dn) if virtual else (lambda c: c.sdn)
    node, pn_limit, dn_limit = root, INF, INF
    while node.children is not None:
        if virtual:
            live = [c for c in node.children if getattr(c, free)]
            if worker and node.is_or != proving:  # every child is needed: the worker's own first
                live = [c for c in live if c.territory == worker] or live
        else:
            live = [c for c in node.children if c.open]
        near, far = (pn_of, dn_of) if node.is_or else (dn_of, pn_of)
        child = min(live, key=near)
        second = min((near(c) for c in live if c is not child), default=INF)
        widened = min(INF, second + 1 + second // 4)
        summed = INF if (dn_limit if node.is_or else pn_limit) >= INF else max(
            far(child) + 1, (dn_limit if node.is_or else pn_limit) - far(node) + far(child))
        if node.is_or:
            pn_limit, dn_limit = max(pn_of(child) + 1, min(pn_limit, widened)), summed
        else:
            pn_limit, dn_limit = summed, max(dn_of(child) + 1, min(dn_limit, widened))
        node = child
    return node, (pn_limit, dn_limit) if THRESHOLDS else (INF, INF)


# ---- the driver -----------------------------------------------------------------------------


@dataclass
class Stats:
    """What the driver did: jobs, their outcomes, nodes searched, faults."""

    jobs: int = 0
    proved: int = 0
    disproved: int = 0
    unknown: int = 0
    lost: int = 0  # worker deaths (each job retried, within the bound)
    worker_nodes: int = 0
    worker_cpu_seconds: float = 0.0
    driver_nodes: int = 0
    driver_cpu_seconds: float = 0.0  # the driver's own work (selection, expansion, answers), engine included
    seconds: float = 0.0


@dataclass
class JobRecord:
    """One job as the driver saw it: when it was sent and answered (seconds from the run's start),
    its budget and outcome, and which earlier job's answer created its position (-1: the root).

    The bench's scaling simulation replays these (certify/bench/parallel.py)."""

    job: int
    parent: int
    sent: float
    answered: float
    budget: int
    nodes: int
    cpu_seconds: float
    status: str
    worker: str = ""  # who answered it (host:process)
    warm: bool = False  # the worker that answered had answered the job that created its position


@dataclass
class Outcome:
    """The driver's result: the root's status and numbers, and the winning strategy if resolved."""

    status: Status
    pn: int
    dn: int
    stats: Stats
    stopped: str = ""  # why an unresolved search stopped: "node budget" or "interrupted"
    walk: Strategy | None = None  # proved: the winning strategy, walked when asked
    log: list[JobRecord] = field(default_factory=list)  # every job answered, in order

    @property
    def strategy(self) -> dict[Hashable, Any]:
        """Proved: position key -> the prover's move (or Closed) at each prover's position the
        strategy reaches (one walk of it); else empty."""
        return {} if self.walk is None else self.walk.as_dict()


Progress = Callable[[Node, Stats, int], None]  # (root, stats, jobs running)
Checkpoint = Callable[[dict[str, Any]], None]  # given the driver's state (`Driver.state`) to keep


class JobFailed(RuntimeError):
    """A job's worker died more often than the retry bound allows."""


DEFAULT_JOB_SECONDS = 0.1  # `certify prove --job-seconds` and the bench: the CPU time a job aims at (docs/scaling.md)
MIN_JOB_NODES = 1_000  # an adapted budget never goes below this (dispatch costs a few ms)
MAX_JOB_NODES = 1 << 34


class Driver:
    """Job-level proof-number search of `claim` (player, win or no-loss) from `position`, on `engine`.

    `budget` is the node budget of a job; with `job_seconds`, it adapts after every answer so a job
    takes about that many CPU seconds (the answers' own nodes per CPU second), between MIN_JOB_NODES
    and MAX_JOB_NODES. With `checkpoint`, the driver's state (`state`) is handed to it every
    `checkpoint_seconds` and when the run stops unresolved; `resume` starts from such a state:
    every settled position and every proof it holds is kept, and only the jobs that were running
    are sent again.
    """

    def __init__(self, game: Any, position: Any, claim: Any, engine: Retrying, *, budget: int,
                 max_nodes: int | None = None, progress: Progress | None = None, job_seconds: float | None = None,
                 checkpoint: Checkpoint | None = None, checkpoint_seconds: float = 600.0,
                 resume: dict[str, Any] | None = None, options: Options = Options()) -> None:
        self.game, self.claim, self.engine = game, claim, engine
        self.budget, self.max_nodes, self.progress = budget, max_nodes, progress
        self.job_seconds, self.checkpoint, self.checkpoint_seconds = job_seconds, checkpoint, checkpoint_seconds
        self.hooks = options.hooks(game, claim, position)
        self.closure = self.hooks.closure if options.closes(self.hooks) else None
        self.stats = Stats()
        self.known: dict[Hashable, tuple[int, int]] = {}  # resolved positions: key -> (pn, dn)
        self.closed: dict[Hashable, bytes] = {}  # the driver's own closures: key -> the closure's record
        self.proofs: dict[Hashable, tuple[Any, bytes, tuple[bytes, ...]]] = {}  # the workers' proofs: key -> (position, packed moves, closures)
        self.waiting: dict[Hashable, list[Node]] = {}  # running jobs: position key -> leaves that wait
        self.jobs: dict[int, tuple[Hashable, int, float, int]] = {}  # engine handle -> (key, job number, sent, budget)
        self.origin: dict[Hashable, int] = {}  # position key -> the job whose answer made its leaf
        self.log: list[JobRecord] = []
        self.answered_by: list[str] = []  # job number -> the worker that answered it
        self.free_worker = ""  # the worker that answered last: the one the next job goes to (the only one free)
        self.die_once = os.environ.get("CERTIFY_TEST_DIE_ONCE")
        self.clock = time.perf_counter()
        if resume is None:
            self.root = self._node(position, None, None)
        else:
            self._restore(resume)

    def state(self) -> dict[str, Any]:
        """What a checkpoint keeps: the tree (running jobs' leaves as plain open leaves), the settled
        positions, the proofs, the counters and the job size reached. Picklable."""
        return {"root": self.root, "known": self.known, "proofs": self.proofs, "stats": self.stats,
                "budget": self.budget, "log": self.log, "origin": self.origin, "closed": self.closed}

    def _restore(self, saved: dict[str, Any]) -> None:
        self.root, self.known, self.proofs = saved["root"], saved["known"], saved["proofs"]
        self.stats, self.budget, self.log, self.origin = saved["stats"], saved["budget"], saved["log"], saved["origin"]
        self.closed = saved.get("closed", {})  # checkpoints before closures in the driver have none
        order, stack = [], [self.root]
        while stack:  # the jobs that were running are lost with their driver: their leaves are open again
            node = stack.pop()
            node.busy = False
            order.append(node)
            stack.extend(node.children or ())
        for node in reversed(order):  # children before parents
            _refresh(node)

    def _node(self, position: Any, move: Any, parent: Node | None, numbers: tuple[int, int] = (1, 1)) -> Node:
        """A new node: an end, a bounded claim's leaf (at ply `within`), settled before, closed by
        the closure (the serial search's: asked once per prover's position), or with `numbers`."""
        game, claim = self.game, self.claim
        ply = 0 if parent is None else parent.ply + 1
        node = Node(position, game.key(position), move, parent, game.to_move(position) == claim.player, ply)
        if game.is_terminal(position):
            numbers = (0, INF) if claim.holds_at_end(game.returns(position)) else (INF, 0)
        elif ply == claim.within:
            numbers = claim.cut()
        elif node.key in self.known:
            numbers = self.known[node.key]
        elif node.is_or and self.closure is not None:
            from solver.search.pns import CLOSURE_BUDGET
            from solver.search.prooftree import closure_record

            left = None if claim.within is None else claim.within - ply
            record = closure_record(self.closure(position, claim.player, claim.result, CLOSURE_BUDGET, left))
            if record is not None:
                self.closed[node.key] = record
                numbers = (0, INF)
        node.pn, node.dn = numbers
        if node.resolved:
            self.known[node.key] = (node.pn, node.dn)
        _refresh(node)
        return node

    def _expand(self, leaf: Node, learnt: dict[Any, tuple[int, int]]) -> None:
        """Give `leaf` its children: the moves the family's search hooks offer, as the workers do,
        with the numbers a worker `learnt` for them (1/1 for the others).

        A prover position with no candidate is disproved (the hooks leave out only losing moves).
        """
        game, position = self.game, leaf.position
        moves = self.hooks.candidates(position, game.legal_moves(position), leaf.is_or, self.claim.player)
        if not moves:
            leaf.pn, leaf.dn = (INF, 0) if leaf.is_or else (0, INF)
        else:
            leaf.children = [self._node(game.apply(position, m), m, leaf, learnt.get(m, (1, 1))) for m in moves]
        self.stats.driver_nodes += len(moves)
        _refresh_up(leaf)

    def _dispatch(self) -> None:
        """Fill free workers with jobs on the most-proving open leaves."""
        while self.engine.pending() < self.engine.workers and self._within_budget():
            chosen = _select(self.root, self.free_worker)
            if chosen is None:
                return
            leaf, limits = chosen
            leaf.busy = True
            if leaf.key not in self.waiting:
                self.waiting[leaf.key] = []
                handle = self.engine.submit(run_job, Job(leaf.position, self.budget, self.die_once, leaf.ply,
                                                         None if limits == (INF, INF) else limits))
                self.jobs[handle] = (leaf.key, self.stats.jobs, time.perf_counter() - self.clock, self.budget)
                self.stats.jobs += 1
            self.waiting[leaf.key].append(leaf)
            _refresh_up(leaf)

    def _within_budget(self) -> bool:
        """Whether one more job fits in `max_nodes`, counting running jobs at their full budget."""
        committed = self.stats.worker_nodes + (self.engine.pending() + 1) * self.budget
        return self.max_nodes is None or committed <= self.max_nodes

    def _receive(self, handle: int, answer: Answer | WorkerLost) -> None:
        key, number, sent, budget = self.jobs.pop(handle)
        if isinstance(answer, WorkerLost):
            raise JobFailed(f"a job's worker died too often ({answer.reason})")
        stats = self.stats
        stats.worker_nodes += answer.nodes
        stats.worker_cpu_seconds += answer.cpu_seconds
        setattr(stats, answer.status, getattr(stats, answer.status) + 1)
        parent = self.origin.get(key, -1)
        warm = parent >= 0 and parent < len(self.answered_by) and self.answered_by[parent] == answer.worker
        self.log.append(JobRecord(number, parent, sent, time.perf_counter() - self.clock, budget,
                                  answer.nodes, answer.cpu_seconds, answer.status, answer.worker, warm))
        self.answered_by.extend([""] * (number + 1 - len(self.answered_by)))
        self.answered_by[number] = answer.worker
        self.free_worker = answer.worker
        if AFFINITY:
            for leaf in self.waiting.get(key, ()):
                node: Node | None = leaf
                while node is not None:
                    node.territory = answer.worker
                    node = node.parent
        game = self.game
        for position, packed, closures in answer.proofs:
            self.proofs.setdefault(game.key(position), (position, packed, closures))
        if answer.status != "unknown":
            self.known[key] = (0, INF) if answer.status == "proved" else (INF, 0)
        learnt = {move: (pn, dn) for move, pn, dn in answer.children}
        for leaf in self.waiting.pop(key):
            leaf.busy = False
            if answer.status == "unknown":
                self._expand(leaf, learnt)
                for child in leaf.children or ():
                    self.origin.setdefault(child.key, number)
                    child.territory = answer.worker
            else:
                leaf.pn, leaf.dn = self.known[key]
                _refresh_up(leaf)
        self._adapt(answer)

    def _adapt(self, answer: Answer) -> None:
        """With `job_seconds`: the next jobs' budget from this answer's speed (a moving average)."""
        if self.job_seconds is None or answer.status != "unknown" or answer.cpu_seconds <= 0:
            return  # a settled job may have stopped early: its speed says little
        target = answer.nodes / answer.cpu_seconds * self.job_seconds
        self.budget = int(min(MAX_JOB_NODES, max(MIN_JOB_NODES, (self.budget + target) / 2)))

    def run(self) -> Outcome:
        """Search until the root is resolved, `max_nodes` are spent, or Ctrl-C; the outcome."""
        start, start_cpu = time.perf_counter(), time.process_time()
        saved = start
        root, stopped = self.root, ""
        try:
            while not root.resolved:
                self._dispatch()
                if not self.engine.pending():
                    stopped = "node budget"
                    break
                for handle, answer in self.engine.wait():
                    self._receive(handle, answer)
                if self.progress:
                    self.progress(root, self.stats, self.engine.pending())
                if self.checkpoint is not None and time.perf_counter() - saved >= self.checkpoint_seconds:
                    self.checkpoint(self.state())
                    saved = time.perf_counter()
        except KeyboardInterrupt:
            stopped = "interrupted"
        self.stats.seconds += time.perf_counter() - start
        self.stats.driver_cpu_seconds += time.process_time() - start_cpu
        self.stats.lost += self.engine.lost
        status: Status = "proved" if root.pn == 0 else "disproved" if root.dn == 0 else "unknown"
        if status == "unknown" and self.checkpoint is not None:
            self.checkpoint(self.state())
        outcome = Outcome(status, root.pn, root.dn, self.stats, "" if status != "unknown" else stopped, log=self.log)
        if status == "proved":
            outcome.walk = Strategy(self.game, root, self.proofs, self.claim, self.closed)
        return outcome


@dataclass(frozen=True)
class Closed:
    """A strategy's entry for a prover's position a closure proves: the closure's record, as the
    certificate stores it (solver/search/prooftree.py `closure_record`), in place of a move."""

    record: bytes


class Strategy:
    """The prover's strategy from a proved root, as the canonical traversal (solver/search/prooftree.py)
    asks for it: a move (or a closure's record) at each prover's position it reaches.

    The move at a position is the driver's (a proved child of a proved node, or its own closure,
    `closed`) or else a worker's: the traversal replays a worker's proof when it reaches that
    proof's position (`visit`), so only the proofs the strategy uses are replayed, in one walk with
    the traversal itself. Mixing strategies is sound: a move taken from a proof of position X proves
    X whoever found it (and a closure proves its position by itself), and every position it leads to
    has a move of its own, down to the end of the (finite) game or, for a bounded claim, its bound
    (a position's ply from the root is fixed by the position: the marks placed).
    """

    def __init__(self, game: Any, root: Node, proofs: dict[Hashable, tuple[Any, bytes, tuple[bytes, ...]]], claim: Any,
                 closed: dict[Hashable, bytes] | None = None) -> None:
        self.game, self.root, self.proofs, self.claim = game, root, proofs, claim
        self.moves: dict[Hashable, Any] = {key: Closed(record) for key, record in (closed or {}).items()}
        self.replayed: set[Hashable] = set()
        stack = [root]
        while stack:  # the driver's proved part of the tree
            node = stack.pop()
            if node.children is None or (node.is_or and node.key in self.moves):
                continue
            proved = [c for c in node.children if c.pn == 0]
            if node.is_or:
                self.moves[node.key] = proved[0].move
                stack.append(proved[0])
            else:
                stack.extend(proved)

    def visit(self, state: Any, ply: int) -> None:
        """At each position the traversal reaches: a worker's proof from here, replayed once."""
        key = self.game.key(state)
        if key in self.proofs and key not in self.replayed:
            self.replayed.add(key)
            within = self.claim.within
            replay(self.game, *self.proofs[key], self.claim.player, self.moves, None if within is None else within - ply)

    def choose(self, state: Any) -> Any:
        """The prover's move; ValueError if a reached position has none, which would be a bug.

        The driver expands its tree with the family's search hooks, which leave out an opponent's
        reply that loses at once (threat space: the reply ignores the prover's threat); the
        traversal visits every reply, so below a node the driver expanded it reaches such a reply,
        which no worker's proof covers: there the prover's move is the one that wins at once."""
        move = self.moves.get(self.game.key(state))
        if move is None:
            move = self._winning_at_once(state)
        if move is None or isinstance(move, Closed):
            raise ValueError(f"no move for a position the strategy reaches: {self.game.format_position(state)}")
        return move

    def _winning_at_once(self, state: Any) -> Any:
        """A move of the prover that ends the game satisfying the claim, or None."""
        game = self.game
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            if game.is_terminal(child) and self.claim.holds_at_end(game.returns(child)):
                self.moves[game.key(state)] = move
                return move
        return None

    def close(self, state: Any, _left: int | None) -> bytes | None:
        """The record of the closure that proves this prover's position, if one does."""
        step = self.moves.get(self.game.key(state))
        return step.record if isinstance(step, Closed) else None

    def tree(self) -> ProofTree:
        """The strategy's canonical traversal from the root: what the certificate stores."""
        from solver.search.prooftree import canonical_strategy

        return canonical_strategy(self.game, self.root.position, self.claim.player, self.choose, self.close,
                                  self.claim.within, self.visit)

    def as_dict(self) -> dict[Hashable, Any]:
        """Position key -> the prover's move (or Closed) at each prover's position the strategy reaches."""
        used: dict[Hashable, Any] = {}

        def choose(state: Any) -> Any:
            used[self.game.key(state)] = move = self.choose(state)
            return move

        def close(state: Any, left: int | None) -> bytes | None:
            record = self.close(state, left)
            if record is not None:
                used[self.game.key(state)] = Closed(record)
            return record

        from solver.search.prooftree import canonical_strategy

        canonical_strategy(self.game, self.root.position, self.claim.player, choose, close, self.claim.within, self.visit)
        return used


def replay(game: Any, position: Any, packed: bytes, closures: tuple[bytes, ...], prover: int, moves: dict[Hashable, Any],
           within: int | None = None) -> None:
    """Add the prover's moves (and closures) of a worker's proof (`packed`, `closures`, from
    `position`, `within` plies left of a bounded claim) to `moves` where it has none."""
    from solver.search.prooftree import CLOSE, canonical_strategy

    indices, records = list(packed), iter(closures)
    at = 0

    def close(state: Any, _left: int | None) -> bytes | None:
        nonlocal at
        if indices[at] != CLOSE:
            return None
        at += 1
        record = next(records)
        moves.setdefault(game.key(state), Closed(record))
        return record

    def choose(state: Any) -> Any:
        nonlocal at
        move = game.legal_moves(state)[indices[at]]
        at += 1
        moves.setdefault(game.key(state), move)
        return move

    canonical_strategy(game, position, prover, choose, close if closures else None, within)


MAX_TABLE_ENTRIES = 2_000_000  # the Python search's kept table starts over past this (about 0.5 GB)


def pns_search(game: Any, position: Any, claim: Any, max_nodes: int, memo: dict, options: Options = Options(),
               limits: tuple[int, int] | None = None) -> Answer:
    """The serial Python df-pn (solver/search/pns.py) from `position` within `max_nodes`: the
    workers' search for a family without a compiled kernel.

    The search and its table are kept in `memo` for the worker's next job (one per claim: a bounded
    claim's bound left differs with the job's ply). When the budget runs out, the answer carries
    each candidate child's numbers from the table, and the proofs of the children it proved. It
    takes no thresholds (`limits`): its job runs to its budget.
    """
    from solver.search.pns import ProofSearch
    from solver.search.prooftree import TRAVERSAL_BUDGET, canonical_strategy, closure_record

    search = memo.get(("pns", claim))
    if search is None or len(search.table) > MAX_TABLE_ENTRIES:
        search = memo[("pns", claim)] = ProofSearch(game, claim, options.hooks(game, claim, position), pairings=options.pairings)
    closure = search.closure
    close = None if closure is None else (  # may search longer: a position the search closed must close here too
        lambda state, left: closure_record(closure(state, claim.player, claim.result, TRAVERSAL_BUDGET, left)))

    def proof(state: Any, ply: int) -> tuple[bytes, tuple[bytes, ...]]:
        within = None if claim.within is None else claim.within - ply
        tree = canonical_strategy(search.game, state, claim.player, search.proved_move, close, within)
        return bytes(tree.moves), tree.closures

    return _answer(search, position, claim, max_nodes, proof)


def native_search(game: Any, position: Any, claim: Any, max_nodes: int, memo: dict, options: Options = Options(),
                  limits: tuple[int, int] | None = None) -> Answer:
    """The compiled df-pn (solver/search/native.py), with the search's hooks and closures as the
    serial search has them, from `position` within `max_nodes`: the workers' search where the
    family has a kernel. Its table lives in `memo` for the worker's next job (one per claim: a
    bounded claim's bound left differs with the job's ply); it is capped at `options.table_mb`, by
    default the compiled search's default share of this machine's memory divided by its cores (one
    worker per core), and evicts past that rather than starting over.
    """
    from solver.search.native import DEFAULT_TABLE_MB, NativeProofSearch, has_closure, kernel_for
    from solver.workers import default_workers

    search = memo.get(("native", claim))
    if search is None:
        hooks = options.hooks(game, claim, position)
        closures = options.closes(hooks) and has_closure(kernel_for(game, hooks))  # as certify/proving/single.py
        table_mb = options.table_mb or DEFAULT_TABLE_MB / default_workers()
        search = memo[("native", claim)] = NativeProofSearch(game, claim, hooks, table_mb=table_mb, closures=closures)

    def proof(state: Any, ply: int) -> tuple[bytes, tuple[bytes, ...]]:
        tree = search.strategy(state, ply)
        return bytes(tree.moves), tree.closures

    return _answer(search, position, claim, max_nodes, proof, limits)


def _answer(search: Any, position: Any, claim: Any, max_nodes: int, proof: Callable[[Any, int], tuple[bytes, tuple[bytes, ...]]],
            limits: tuple[int, int] | None = None) -> Answer:
    """Run `search` from `position` and answer: proved (with its proof), disproved, or each
    candidate child's numbers (with the proofs of the children proved). `proof(state, ply)` packs
    the proof of a proved state at `ply` from `position`."""
    game = search.game  # the memo's copy: the one its table's keys were made with
    before = search.nodes
    if limits is None:
        outcome = search.search(position, max_nodes=max_nodes)
    else:  # df-pn's thresholds, but at least a share of the budget: a job's round trip costs the driver milliseconds
        outcome = search.search(position, max_nodes=max_nodes, limits=limits)
        floor = int(max_nodes * MIN_JOB_SHARE) - (search.nodes - before)
        if outcome.status == "threshold" and floor > 0:
            outcome = search.search(position, max_nodes=floor)
    status: Status = outcome.status if outcome.status in ("proved", "disproved") else "unknown"
    proofs: list[tuple[Any, bytes, tuple[bytes, ...]]] = []
    children: list[tuple[Any, int, int]] = []
    if status == "proved":
        proofs.append((position, *proof(position, 0)))
    elif status == "unknown":
        prover_moves = game.to_move(position) == claim.player
        for move in search.hooks.candidates(position, game.legal_moves(position), prover_moves, claim.player):
            child = game.apply(position, move)
            pn, dn = search.numbers(child)
            children.append((move, pn, dn))
            if pn == 0 and not game.is_terminal(child) and claim.within != 1:
                proofs.append((child, *proof(child, 1)))
    return Answer(status, outcome.root_pn, outcome.root_dn, search.nodes - before, proofs=tuple(proofs), children=tuple(children))


def worker_search(game: Any, options: Options = Options()) -> Search:
    """The search the workers run for `game` with `options`: the compiled one where the family has
    a kernel for those hooks (and a compiled closure, if they close) and the extension is built,
    else the Python one, as certify/proving/single.py `proof_search` chooses."""
    try:
        from solver.search.native import has_closure, kernel_for
    except ImportError:  # the extension is not built
        return pns_search
    hooks = options.hooks(game)
    kernel = kernel_for(game, hooks)
    if kernel is None or (options.pairings and not has_closure(kernel)):
        return pns_search
    return native_search


def prove_parallel(game: Any, position: Any, claim: Any, spec: EngineSpec, *, search: Search | None = None,
                   budget: int = 20_000, max_nodes: int | None = None, max_attempts: int = 3,
                   progress: Progress | None = None, job_seconds: float | None = None,
                   checkpoint: Checkpoint | None = None, checkpoint_seconds: float = 600.0,
                   resume: dict[str, Any] | None = None, options: Options = Options()) -> Outcome:
    """Prove `claim` from `position` with the driver, running `search` (default: `worker_search`)
    on the workers of `spec`, the driver and the workers searching with `options`."""
    engine = spec.open(Context(game, claim, search or worker_search(game, options), options=options), max_attempts)
    try:
        return Driver(game, position, claim, engine, budget=budget, max_nodes=max_nodes, progress=progress,
                      job_seconds=job_seconds, checkpoint=checkpoint, checkpoint_seconds=checkpoint_seconds,
                      resume=resume, options=options).run()
    finally:
        engine.close()
