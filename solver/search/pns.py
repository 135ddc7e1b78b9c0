"""Depth-first proof-number search (df-pn, Nagai 2002) with a transposition table, over any game.

It uses only the game interface (solver/games/game.py).

A search proves or disproves one claim about one player from one position: "player P wins"
(every play under P's strategy ends in a win for P) or "player P does not lose" (a win or a
draw). A draw is two no-loss proofs, one per side. Positions where P moves are OR nodes, the
others AND nodes. Proof and disproof numbers are the usual ones (1/1 at a new leaf); a proved
terminal is (0, INF), a disproved one (INF, 0). The table maps a position key to its (pn, dn).

The search is the same for every family: the family's SearchHooks choose the moves to try and
their order. The driver runs budgeted searches (`ProofSearch.search`) that stop with a status —
proved, disproved, out of budget, interrupted — and can be resumed, so a parallel driver can
hand out subtrees. Why df-pn and not best-first PN: docs/proof-search.md.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Literal

from solver.games.game import Game, NoHooks, SearchHooks

EXPANDED_CACHE = 1 << 16  # nodes whose children are remembered between visits
INF = 1 << 60  # "infinite" proof or disproof number; sums are capped here
ClaimResult = Literal["win", "no-loss"]
Status = Literal["proved", "disproved", "node budget", "memory budget", "time budget", "interrupted",
                 "policy fails", "first move fails"]  # the last two: set by callers whose search tried
                                                      # only a policy's moves, or one first move


@dataclass(frozen=True)
class Claim:
    """Player `player` (1 or 2) wins (`win`) or does not lose (`no-loss`); with `within` N, a
    bounded claim: wins by ply N from the root, or is not beaten by ply N (a position at ply N
    counts as an end that is not a loss). Bounded claims need positions that fix their ply (the
    marks placed), as both families' do, since the table merges transpositions."""

    player: int
    result: ClaimResult
    within: int | None = None

    def cut(self) -> tuple[int, int]:
        """(pn, dn) of a position at ply `within` that is not an end: proved for no-loss only."""
        return (0, INF) if self.result == "no-loss" else (INF, 0)

    def holds_at_end(self, returns: tuple[int, int]) -> bool:
        """Whether a terminal with these returns satisfies the claim."""
        return returns[self.player - 1] >= (1 if self.result == "win" else 0)

    def opposite(self) -> Claim:
        """The claim that holds exactly when this one fails: against a win, the other player does
        not lose; against a no-loss, the other player wins (finite games are determined)."""
        return Claim(3 - self.player, "no-loss" if self.result == "win" else "win", self.within)

    def words(self) -> str:
        """`player 1 wins` / `player 2 does not lose` (`... within 43 plies`)."""
        bound = "" if self.within is None else f" within {self.within} plies"
        return f"player {self.player} {'wins' if self.result == 'win' else 'does not lose'}{bound}"


@dataclass(frozen=True)
class Progress:
    """A snapshot of a running search, for progress displays."""

    nodes: int
    root_pn: int
    root_dn: int
    entries: int
    seconds: float
    rss_mb: float
    evictions: int = 0  # entries replaced, once the compiled search's table is full (the Python one never evicts)
    walked: int | None = None  # once the claim is proved: the proof's positions walked so far (None: searching)

    @property
    def nodes_per_second(self) -> float:
        """Expansions per second so far."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True)
class Outcome:
    """How a search ended: the status and the root's numbers, work and time."""

    status: Status
    root_pn: int
    root_dn: int
    nodes: int
    entries: int
    seconds: float
    peak_rss_mb: float
    evictions: int = 0  # entries replaced, once the compiled search's table is full (the Python one never evicts)


class _Stop(Exception):
    """Raised inside the search when a budget runs out."""

    def __init__(self, status: Status) -> None:
        super().__init__(status)
        self.status = status


def rss_mb() -> float:
    """This process's resident memory now, in MiB (peak RSS where /proc is missing)."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


CLOSURE_BUDGET = 2_000  # steps of the closure hook per position (solver/games/positional/blocking.py)


class ProofSearch:
    """df-pn for one claim over one game; the table persists across `search` calls."""

    def __init__(
        self,
        game: Game[Any, Any],
        claim: Claim,
        hooks: SearchHooks[Any, Any] | None = None,
        progress: Callable[[Progress], None] | None = None,
        progress_seconds: float = 0.5,
        pairings: bool = False,
    ) -> None:
        self.game = game
        # optional hook: at the prover's positions, a closure (a pairing, a count) that proves the
        # claim there, or None; asked with --pairings, or always where the hooks say so (uttt's count)
        self.closure = getattr(hooks, "closure", None) if pairings or getattr(hooks, "always_close", False) else None
        self.closed: dict[Hashable, bool] = {}
        self.claim = claim
        self.hooks = hooks if hooks is not None else NoHooks()
        self.table_key: Callable[[Any], Hashable] = getattr(self.hooks, "table_key", game.key)  # optional hook
        self.estimate = getattr(self.hooks, "estimate", None)  # optional hook: an unseen position's first numbers
        self.table: dict[Hashable, tuple[int, int]] = {}
        self.plies: dict[Hashable, int] = {}  # table key → ply from the root, for bounded claims only
        self._expanded: dict[Any, list[tuple[Any, Hashable, tuple[int, int]]]] = {}  # position → its children
        self.nodes = 0
        self.progress = progress
        self.progress_seconds = progress_seconds
        self._limit_nodes = INF
        self._limit_mb = float("inf")
        self._root_key: Hashable = None
        self._started = 0.0
        self._deadline = float("inf")
        self._next_report = 0.0
        self._peak_mb = 0.0

    # ---- driver ----------------------------------------------------------------------------

    def search(self, state: Any, max_nodes: int | None = None, max_memory_mb: float | None = None,
               max_seconds: float | None = None) -> Outcome:
        """Search `state` until it is proved or disproved, a budget runs out, or Ctrl-C.

        Budgets count from this call: `max_nodes` more expansions, `max_memory_mb` of resident
        memory for the whole process, `max_seconds` of wall time (checked every 1,024 nodes).
        The table is kept, so a later call resumes the work.
        """
        self._limit_nodes = self.nodes + max_nodes if max_nodes is not None else INF
        self._limit_mb = max_memory_mb if max_memory_mb is not None else float("inf")
        self._root_key = self.table_key(state)
        self._started = time.perf_counter()
        self._deadline = self._started + max_seconds if max_seconds is not None else float("inf")
        self._next_report = self._started
        self._peak_mb = rss_mb()
        status: Status
        try:
            pn, dn = self.numbers(state)
            if pn and dn:
                self.plies.setdefault(self._root_key, 0)
                self._mid(state, self._root_key, INF, INF)
            pn, dn = self.numbers(state)
            status = "proved" if pn == 0 else "disproved"
        except _Stop as stop:
            status = stop.status
        except KeyboardInterrupt:
            status = "interrupted"
        pn, dn = self.numbers(state)
        if pn == 0 or dn == 0:  # settled as the stop came: settled (the compiled search says the same)
            status = "proved" if pn == 0 else "disproved"
        return Outcome(status, pn, dn, self.nodes, len(self.table), time.perf_counter() - self._started, self._peak_mb)

    def numbers(self, state: Any) -> tuple[int, int]:
        """(pn, dn) of `state` as far as the search knows: exact at terminals, 1/1 if unseen."""
        key = self.table_key(state)
        known = self.table.get(key)
        if known is not None:
            return known
        if self.game.is_terminal(state):
            known = (0, INF) if self.claim.holds_at_end(self.game.returns(state)) else (INF, 0)
            self.table[key] = known
            return known
        return 1, 1

    def proved_move(self, state: Any) -> Any:
        """A move of the prover from proved `state` to a proved child (re-searching if needed)."""
        for move in self._candidates(state):
            if self.numbers(self.game.apply(state, move))[0] == 0:
                return move
        self._mid(state, self.table_key(state), INF, INF)  # not searched here yet: prove it
        for move in self._candidates(state):
            if self.numbers(self.game.apply(state, move))[0] == 0:
                return move
        raise ValueError(f"position {self.game.format_position(state)} is not proved for {self.claim.words()}")

    # ---- df-pn -----------------------------------------------------------------------------

    def _candidates(self, state: Any) -> list[Any]:
        prover_moves = self.game.to_move(state) == self.claim.player
        return self.hooks.candidates(state, self.game.legal_moves(state), prover_moves, self.claim.player)

    def _mid(self, state: Any, key: Hashable, pn_limit: int, dn_limit: int) -> None:
        """Expand `state` until its pn reaches pn_limit or its dn reaches dn_limit, or it is solved."""
        self._tick()
        table = self.table
        or_node = self.game.to_move(state) == self.claim.player
        if or_node and self.closure is not None and self.closes(state, key):
            table[key] = (0, INF)
            return
        if not or_node and self.closure is not None and self.claim.result == "win" and self.refuted(state, key):
            table[key] = (INF, 0)
            return
        children = self._children(state, key)
        if not children:  # the prover has no candidate: every move loses (hooks prune only losers)
            table[key] = (INF, 0) if or_node else (0, INF)
            return
        while True:
            best = second = INF + 1
            chosen = 0
            total = 0
            for index, (_, child_key, first) in enumerate(children):
                pn, dn = table.get(child_key, first)
                near, far = (pn, dn) if or_node else (dn, pn)  # minimised, summed
                total = min(INF, total + far)
                if near < best:
                    best, second, chosen = near, best, index
                elif near < second:
                    second = near
            node = (best, total) if or_node else (total, best)
            table[key] = node
            if node[0] >= pn_limit or node[1] >= dn_limit or best == 0 or best >= INF:
                return
            child, child_key, first = children[chosen]
            child_pn, child_dn = table.get(child_key, first)
            widened = second + 1 + second // 4  # the 1+epsilon trick: fewer returns to the parent
            if or_node:
                self._mid(child, child_key, min(pn_limit, widened), min(INF, dn_limit - total + child_dn))
            else:
                self._mid(child, child_key, min(INF, pn_limit - total + child_pn), min(dn_limit, widened))

    def closes(self, state: Any, key: Hashable) -> bool:
        """Whether the closure hook closes this prover's position (asked once per table key). Only
        whether: the hook is told the record is not `written` (dfpn.h `close`), so it may take the
        first it finds; the certificate's walk asks again for the record it writes."""
        known = self.closed.get(key)
        if known is None:
            within = self.claim.within
            left = None if within is None else within - self.plies.get(key, 0)
            closure = self.closure(state, self.claim.player, self.claim.result, CLOSURE_BUDGET, left, written=False)  # type: ignore[misc]
            known = self.closed[key] = closure is not None
        return known

    def refuted(self, state: Any, key: Hashable) -> bool:
        """Under a win claim, at a position where the prover's opponent moves: whether the closure
        hook proves the opponent's no-loss claim there, so the prover cannot win (asked once per
        table key; dfpn.c `refuted`). Nothing of it is written: a proof holds no disproved position."""
        known = self.closed.get(key)
        if known is None:
            within = self.claim.within
            left = None if within is None else within - self.plies.get(key, 0)
            closure = self.closure(state, 3 - self.claim.player, "no-loss", CLOSURE_BUDGET, left, written=False)  # type: ignore[misc]
            known = self.closed[key] = closure is not None
        return known

    def _children(self, state: Any, key: Hashable) -> list[tuple[Any, Hashable, tuple[int, int]]]:
        """The candidate children, their table keys and the numbers each starts from while the table
        does not hold it (1/1, or the hooks' `estimate`), terminals valued in the table; remembered.

        df-pn returns to the same nodes many times; the bounded cache spares regenerating them. It is
        keyed by the position, not its table key: a symmetric image shares the key but orders its
        equally good moves by its own cells, as the compiled core (which regenerates them) does.
        """
        known = self._expanded.get(state)
        if known is not None:
            return known
        game, table, table_key, within = self.game, self.table, self.table_key, self.claim.within
        ply = self.plies.get(key, 0) + 1 if within is not None else 0
        children = []
        for move in self._candidates(state):
            child = game.apply(state, move)
            child_key = table_key(child)
            if child_key not in table and game.is_terminal(child):
                table[child_key] = (0, INF) if self.claim.holds_at_end(game.returns(child)) else (INF, 0)
            elif within is not None:
                self.plies[child_key] = ply
                if ply >= within and child_key not in table:
                    table[child_key] = self.claim.cut()
            first = None if self.estimate is None else self.estimate(
                child, self.claim.player, self.claim.result, None if within is None else within - ply)
            children.append((child, child_key, first or (1, 1)))
        if len(self._expanded) >= EXPANDED_CACHE:
            self._expanded.clear()
        self._expanded[state] = children
        return children

    def _tick(self) -> None:
        """Count one expansion; report progress and enforce the budgets now and then."""
        if self.nodes >= self._limit_nodes:
            raise _Stop("node budget")
        self.nodes += 1
        if self.nodes & 1023:
            return
        now = time.perf_counter()
        mb = rss_mb()
        self._peak_mb = max(self._peak_mb, mb)
        if mb > self._limit_mb:
            raise _Stop("memory budget")
        if now >= self._deadline:
            raise _Stop("time budget")
        if self.progress is not None and now >= self._next_report:
            self._next_report = now + self.progress_seconds
            pn, dn = self.table.get(self._root_key, (1, 1))
            self.progress(Progress(self.nodes, pn, dn, len(self.table), now - self._started, mb))
