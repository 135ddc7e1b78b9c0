"""The compiled df-pn (solver/search/dfpn.c) behind the same contract as solver/search/pns.py's ProofSearch.

A family with a compiled kernel registers it in KERNELS: a function that, given a game and its
search hooks, gives the kernel's name in the extension, its configuration, and how its positions
and moves translate (or None when the kernel cannot search with those hooks). `NativeProofSearch` then searches exactly as `ProofSearch` does (the same numbers,
child choice and thresholds; the same node counts while the table evicts nothing), with a
table of 48-byte entries in buckets of 15 (a 4-byte tag each, and the bucket's lock for threads) capped from a memory budget and
sized up front when a search's budget is known (`reserve`), and answers `numbers` and
`proved_move`, and walks a proved strategy in C (`strategy`): the same traversal, so the same
certificate, as solver/search/prooftree.py's with `proved_move`. With `threads` > 1, that many
threads search the one table together (dfpn.c "threads": SPDFPN-style, virtual proof numbers
spreading them over the children); the node counts and the certificate then vary from run to run,
and every certificate is checked as any other. A search may start from the table of a search of
its claim's complement (`adopt`: a disproof's table, numbers swapped, is the opposite's proof). With `closures`, a kernel that has
a compiled closure (dfpn.h `close`; `has_closure`) proves the prover's positions it closes, and
the walk writes them as CLOSE and the closure's record, as the Python search with `pairings`. With PolicyHooks
(solver/search/policy.py) the core calls the policy back at the prover's positions, given the
position as the kernel exports it; a kernel wrapper that reads that back into the engine's state
(`state`) and gives a move's code (`code`) takes a policy.

Importing this module loads the extension; import it only where a search runs.
"""

from __future__ import annotations

import os
import resource
from collections.abc import Callable, Sequence
import weakref
from importlib import import_module
from pathlib import Path
from typing import Any, Protocol

from solver.search import _dfpn
from solver.games.game import Game, NoHooks, SearchHooks
from solver.search.pns import Claim, Outcome, Progress, Status, rss_mb
from solver.search.policy import PolicyHooks
from solver.search.prooftree import ProofTree

ENTRY_BYTES: int = _dfpn.ENTRY_BYTES  # one position's entry, as checkpoints store it
SLOT_BYTES: int = _dfpn.SLOT_BYTES  # what the table spends per slot: the entry and its tag
# the table's cap without a memory budget, a third of the machine's memory; it grows to it only as
# needed. The table's size is 48 bytes times a power of two, so a quarter (5.9 GB on 24 GB) held it
# at 3 GB, evicting (uttt:open from the empty board thrashed there); a third lets it reach 6 GB,
# 9 GB resident while it doubles.
DEFAULT_TABLE_MB = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / 3 / 2**20
# while the table doubles, the old and the new copy are both resident (and mapped): dfpn.c never
# maps more than this times the table's cap at once, so the cap is what a budget leaves over this
GROWTH_HEADROOM: float = _dfpn.GROWTH_HEADROOM
DEFAULT_SPREAD = 4  # threads: the virtual proof number's spread (dfpn.c `mid`), as `_dfpn.Search.search` defaults
# a time budget's node estimate, to size the table up front (`reserve`): the fastest rate measured on
# the development machine (AMD EPYC, uttt at ply 30: 0.92 M nodes per CPU-second), so a search within
# its time budget never outgrows the table reserved for it; within the table's cap
NODES_PER_SECOND = 1_000_000


class Kernel(Protocol):
    """A family's compiled kernel as the wrapper sees it (e.g. solver/games/positional/kernel.py)."""

    family: str  # the kernel's name in the extension (solver/games/kernels.c)
    config: tuple[Any, ...]

    def position(self, state: Any) -> tuple[Any, ...]:
        """The state in the kernel's form."""
        ...

    def move(self, code: int) -> Any:
        """The game's move for a kernel move code."""
        ...

    @property
    def keys(self) -> tuple[Any, ...]:
        """What of the configuration the table's keys depend on: two searches of one game whose
        kernels agree on it can share a table (`NativeProofSearch.adopt`)."""
        ...


# family (as its rules' canonical form names it) → "module:function" giving the family's kernel
# for a game and hooks, or None; imported only when asked for, like solver/games/families.py
KERNELS: dict[str, str] = {
    "positional": "solver.games.positional.kernel:kernel_for",
    "uttt": "solver.games.uttt.kernel:kernel_for",
}


def kernel_for(game: Game[Any, Any], hooks: SearchHooks[Any, Any]) -> Kernel | None:
    """The compiled kernel that searches `game` with exactly these hooks, or None. PolicyHooks:
    the kernel of their inner hooks, if it takes a policy."""
    if isinstance(hooks, PolicyHooks):
        kernel = kernel_for(game, hooks.inner)
        return kernel if hasattr(kernel, "state") and hasattr(kernel, "code") else None
    target = KERNELS.get(game.rules.canonical().get("family", ""))
    if target is None:
        return None
    module, function = target.split(":")
    offer: Callable[[Any, Any], Kernel | None] = getattr(import_module(module), function)
    return offer(game, hooks)


def has_closure(kernel: Kernel) -> bool:
    """Whether the kernel's family has a compiled closure (dfpn.h `close`)."""
    return bool(_dfpn.closes(kernel.family))


def table_mb_for(max_memory_mb: float | None, held_mb: float = 0.0) -> float:
    """The table's cap: what a memory budget leaves beside the process as it is, and what the
    address-space limit leaves (`ulimit -v`: a table doubling past it cannot be allocated, and
    stays where it is, evicting), growth included. `held_mb`: a table the process already holds,
    which a resize frees (not counted as the process's own)."""
    cap = DEFAULT_TABLE_MB if max_memory_mb is None else (max_memory_mb - rss_mb() + held_mb) / GROWTH_HEADROOM
    left = address_space_left_mb()
    return max(1.0, cap if left is None else min(cap, (left + held_mb) / GROWTH_HEADROOM))


def address_space_left_mb() -> float | None:
    """MiB this process may still map under its address-space limit (RLIMIT_AS less what it maps
    now, VmSize), or None without a limit."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            mapped = next(int(line.split()[1]) * 1024 for line in handle if line.startswith("VmSize:"))
    except (OSError, StopIteration, ValueError):
        mapped = 0
    return max(0, soft - mapped) / 2**20


class NativeProofSearch:
    """df-pn for one claim over one game in C; the table persists across `search` calls."""

    def __init__(
        self,
        game: Game[Any, Any],
        claim: Claim,
        hooks: SearchHooks[Any, Any] | None = None,
        progress: Callable[[Progress], None] | None = None,
        progress_seconds: float = 0.5,
        table_mb: float = DEFAULT_TABLE_MB,
        closures: bool = False,
        threads: int = 1,
        spread: int = DEFAULT_SPREAD,
    ) -> None:
        hooks = hooks if hooks is not None else NoHooks()
        kernel = kernel_for(game, hooks)
        if kernel is None:
            raise ValueError(f"{game.rules.name}: no compiled kernel searches this game with these hooks")
        self.game, self.claim, self.hooks, self.kernel = game, claim, hooks, kernel
        self.progress, self.progress_seconds = progress, progress_seconds
        policy = None
        if isinstance(hooks, PolicyHooks):  # through a weak reference: the core holding self would be a cycle it never frees
            method = weakref.WeakMethod(self._policy_codes)
            policy = lambda exported: method()(exported)  # noqa: E731
        if threads > 1 and policy is not None:
            raise ValueError("a search with a policy calls Python at the prover's positions: it runs on one thread")
        self.threads = threads  # threads > 1: that many threads search the one table (dfpn.c "threads")
        self.spread = spread  # threads: a child another thread searches looks (1 + spread/4) times harder, plus 1
        closures = closures or (bool(getattr(hooks, "always_close", False)) and has_closure(kernel))  # as ProofSearch
        self._core = _dfpn.Search(kernel.family, kernel.config, claim.player, claim.result == "no-loss",
                                  int(table_mb * 2**20), policy, -1 if claim.within is None else claim.within, closures)

    @property
    def nodes(self) -> int:
        """Expansions so far, over every search call."""
        return int(self._core.nodes)

    @property
    def entries(self) -> int:
        """Positions in the table."""
        return int(self._core.entries)

    @property
    def evictions(self) -> int:
        """Entries a new position has replaced since the table reached its cap."""
        return int(self._core.evictions)

    @property
    def table_bytes(self) -> int:
        """The table's size now."""
        return int(self._core.table_bytes)

    @property
    def full_evictions(self) -> int:
        """`evictions` once the table is at its cap (it cannot double: the cap asked for, or where
        an allocation failed), else 0: below the cap a rare long cluster evicts too, and the table
        is not full."""
        return self.evictions if 2 * self.table_bytes > self._core.table_cap else 0

    def search(self, state: Any, max_nodes: int | None = None, max_memory_mb: float | None = None,
               max_seconds: float | None = None, limits: tuple[int, int] | None = None) -> Outcome:
        """As ProofSearch.search: until proved or disproved, a budget runs out, or Ctrl-C; with
        `limits` (pn, dn), also until the root's pn or dn reaches it (status `threshold`: a parallel
        driver's job, solver/search/parallel.py)."""
        report = None if self.progress is None else self._report
        more: dict[str, int] = {} if limits is None else {"pn_limit": min(limits[0], 1 << 60), "dn_limit": min(limits[1], 1 << 60)}
        if self.threads > 1:
            more["threads"] = self.threads
            more["spread"] = self.spread
        self.reserve(max_nodes, max_memory_mb)
        status, pn, dn, seconds, peak = self._core.search(
            self.kernel.position(state),
            -1 if max_nodes is None else max_nodes,
            -1.0 if max_memory_mb is None else float(max_memory_mb),
            -1.0 if max_seconds is None else float(max_seconds),
            report, self.progress_seconds, **more)
        typed: Status = status
        return Outcome(typed, pn, dn, self.nodes, self.entries, seconds, peak, self.full_evictions)

    def _report(self, nodes: int, pn: int, dn: int, entries: int, seconds: float, mb: float) -> None:
        assert self.progress is not None
        self.progress(Progress(nodes, pn, dn, entries, seconds, mb, self.full_evictions))

    def _policy_codes(self, exported: Any) -> list[int] | None:
        """The core's policy callback: the move codes the policy names at this prover's position
        (as the kernel exports it), or None."""
        assert isinstance(self.hooks, PolicyHooks)
        kernel: Any = self.kernel
        state = kernel.state(exported)
        named = self.hooks.named(state)
        return [kernel.code(move) for move in named] or None

    def reserve(self, max_nodes: int | None, max_memory_mb: float | None, max_seconds: float | None = None) -> None:
        """Size the table up front for a search with these budgets (within its cap) and fault it in,
        so the search pays no table growth and no page faults: a node stores at most one entry, so
        `max_nodes` more entries at the 3/4 load where the table would double; a time budget, the
        nodes NODES_PER_SECOND would spend in it; a memory budget, what table_mb_for leaves beside
        the process less its table; the least of those given (and, while the old table is mapped
        beside the new, at most GROWTH_HEADROOM times the cap in all: dfpn.c buckets_allowed). With none, the table grows as the search needs.
        `search` sizes by its node and memory budgets; a caller whose time budget is the search's
        (certify/proving/single.py `prove`) asks for the time too: a checkpoint's slices are not."""
        wanted = []
        if max_seconds is not None:
            max_nodes = min(max_nodes if max_nodes is not None else 1 << 62, int(max_seconds * NODES_PER_SECOND))
        if max_nodes is not None:
            wanted.append((self.entries + max_nodes + 1) * 4 // 3 * SLOT_BYTES + 16 * SLOT_BYTES)
        if max_memory_mb is not None:
            wanted.append(int(table_mb_for(max_memory_mb, self.table_bytes / 2**20) * 2**20))  # dfpn.c keeps its resize within the cap's headroom
        if wanted:
            self._core.reserve(min(wanted))

    def numbers(self, state: Any) -> tuple[int, int]:
        """(pn, dn) of `state` as far as the table knows: exact at terminals, 1/1 if unseen."""
        pn, dn = self._core.numbers(self.kernel.position(state))
        return int(pn), int(dn)

    def proved_move(self, state: Any, ply: int = 0) -> Any:
        """A move of the prover from proved `state` to a proved child (re-searching if needed).
        `ply`: the state's ply from the search's root, where a bounded claim's bound counts from."""
        position = self.kernel.position(state)
        code = self._core.proved_move(position, ply)
        if code is None and (self.claim.within is None or ply == 0):  # the table lost it: expand it again
            self._core.search(position, again=True)
            code = self._core.proved_move(position)
        if code is None:
            raise ValueError(f"position {self.game.format_position(state)} is not proved for {self.claim.words()}")
        return self.kernel.move(code)

    def strategy(self, state: Any, ply: int = 0, images: Sequence[Sequence[int]] = (), blocks: bool = False,
                 walked: Callable[[int], None] | None = None) -> ProofTree:
        """The proved strategy from `state` as prooftree.canonical_strategy traverses it with
        `proved_move` and, with closures, the family's closure (the same moves and counts), walked in C.
        `ply`: the state's ply from the search's root, where a bounded claim's bound counts from.
        `images`: cell permutations (the game's symmetries but the identity) naming a prover's
        position that one maps to another already seen as that image (prooftree.py). `blocks`: the
        opponent's positions list only the replies the family's `listed` keeps (certify/proving/single.py
        blocking_replies). `walked(positions)`: called as the walk goes (every 65,536 positions, and
        once at the end with the tree's positions), for a progress display."""
        if images and any(sorted(p) != list(range(self.game.rules.cells)) for p in images):  # the core reads cell i's image at byte i
            raise ValueError("an image's symmetry is not a permutation of the board's cells")
        permutations = tuple(bytes(p) for p in images) or None
        moves, positions, terminals, depth, closures, named = self._core.strategy(self.kernel.position(state), ply,
                                                                                 permutations, blocks, walked)
        return ProofTree(list(moves), positions, terminals, depth, tuple(closures), tuple(named))

    def adopt(self, other: NativeProofSearch) -> bool:
        """Take the table of `other`, a search of this claim's opposite from the same root (a
        disproof's: its table holds the opposite's proof, less what it evicted), its numbers
        swapped (dfpn.c `adopt`), so this search starts where `other` stopped instead of from an
        empty table beside it. Only where the two kernels key positions alike (the same game, the
        same family and `keys`); False, and nothing taken, otherwise. `other` keeps an empty table."""
        mine, theirs = self.kernel, other.kernel
        if (self.claim.opposite() != other.claim or self.game.rules.sha256() != other.game.rules.sha256()
                or mine.family != theirs.family or mine.keys != theirs.keys):
            return False
        self._core.adopt(other._core)
        return True

    def table_checksum(self) -> int:
        """The checksum of the table's used entries, as `dump_table` writes them."""
        return int(self._core.checksum())

    def dump_table(self, fd: int) -> int:
        """Write the table's used entries, raw, to the open file descriptor `fd`; how many."""
        return int(self._core.dump(fd))

    def load_table(self, path: Path, offset: int, entries: int, nodes: int, checksum: int) -> None:
        """Read back `entries` entries dumped at `offset` of `path`, then count `nodes` as spent;
        ValueError if they are not what was dumped (the search is then not to be used)."""
        self._core.load(str(path), offset, entries, nodes, checksum)
