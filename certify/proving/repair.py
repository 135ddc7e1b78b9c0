"""Shorten a proved win: a proof that the player wins within N plies, built from a proof of the win.

Contract. Given a strategy certificate proving "player P wins" from a root (with no bound or a
larger one) and a bound N, `repair` returns a certificate of "P wins within N plies" from the
same root, or says honestly where it failed. The existing strategy is the plan: at a position
whose plays under it all end by ply N (a *good* position) its move is kept; the search works only
at the *bad* positions, whose plays under the plan may end later than ply N.

How. Walk the strategy from the root, each position's ply and the longest play under it. A bad
position of P lies on a play that ends too late; repair it by a bounded win search from there
(`certify.proving.single.prove`, --within the plies left) that keeps the plan wherever the plan
already fits (a `--policy` naming the good position's move; elsewhere the search chooses, so a
failed search is a failure of the claim there, not of the plan). Start at the deepest bad
positions of P and go up: a position is searched only once every bad position of P two plies
below it has failed (disproved, out of its node budget, or without a move left before ply N).
A proved sub-search's moves join the plan (every position of a bounded proof is good), the walk
is redone, and the loop ends when the root is good — the new certificate is the combined
strategy's canonical traversal, bounded by N — or when the root itself fails or the budget is
spent. Why the combination ends in time: each move kept comes from a strategy under which its
position's plays end by ply N, and the positions that move leads to are good under the same
strategy, so by induction on the plies left every play of the combination ends by ply N.

The checker knows nothing of this: the certificate is a plain bounded strategy certificate.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from certify.proving.single import Attempt, prove, strategy_certificate, strategy_moves
from certify.record.schema import StrategyCertificate
from solver.games.game import Game
from solver.search.pns import Claim, Progress
from solver.search.prooftree import ProofTree, canonical_strategy


FIRST_TRY = 10_000  # a sub-search's first node budget: the table is sized up front for the budget, so a small one first


class RepairError(ValueError):
    """A plan that cannot be repaired into the claim asked (another game, claim or root); one line."""


@dataclass(frozen=True)
class SubSearch:
    """One bounded win search from a bad position of the prover."""

    position: str
    ply: int  # from the root
    within: int  # the plies left before the bound
    status: str  # proved, disproved, no room (no move left before the bound), or the budget that stopped it
    nodes: int = 0
    cpu_seconds: float = 0.0
    peak_rss_mb: float = 0.0
    root_pn: int = 0
    root_dn: int = 0


@dataclass(frozen=True)
class RepairProgress:
    """Where a repair stands, for progress displays: the searches so far and the one running."""

    searches: int
    proved: int
    failed: int
    nodes: int
    bad: int  # the prover's bad positions the last walk found
    ply: int | None = None  # the running sub-search's position's ply and bound
    within: int | None = None
    search: Progress | None = None


@dataclass
class Repair:
    """A repair's outcome: `status` proved (then `tree` and `certificate`), disproved (the root's own
    search disproved the claim), failed (the root's search out of its budget), or the budget or
    interruption that stopped the repair."""

    status: str
    searches: list[SubSearch] = field(default_factory=list)
    kept: int = 0  # the plan's moves the new strategy keeps
    bad_before: int = 0  # the prover's bad positions in the plan
    longest_before: int = 0  # the plan's longest play, in plies
    tree: ProofTree | None = None
    certificate: StrategyCertificate | None = None
    seconds: float = 0.0

    @property
    def nodes(self) -> int:
        return sum(s.nodes for s in self.searches)

    @property
    def cpu_seconds(self) -> float:
        return sum(s.cpu_seconds for s in self.searches)


@dataclass
class Walk:
    """The strategy from the root: per position reached, its ply and longest play; the prover's
    positions two plies below each prover's position."""

    ply: dict[Any, int] = field(default_factory=dict)
    height: dict[Any, int] = field(default_factory=dict)
    below: dict[Any, list[Any]] = field(default_factory=dict)  # prover's key → the prover's keys two plies on
    states: dict[Any, Any] = field(default_factory=dict)  # prover's key → its state


def walk(game: Game[Any, Any], root: Any, prover: int, moves: dict[Any, Any]) -> Walk:
    """Follow `moves` (key → the prover's move) from `root` through every reply; KeyError names a
    prover's position the strategy reaches without a move, RepairError an end that is not the prover's win."""
    out = Walk()

    replies: dict[Any, list[Any]] = {}  # opponent's key → the keys its moves lead to

    def visit(state: Any, ply: int) -> int:  # as deep as a play is long: at most the board's cells
        key = game.key(state)
        if key in out.height:
            return out.height[key]
        out.ply[key] = ply
        if game.is_terminal(state):
            if game.returns(state)[prover - 1] < 1:  # a plan is not trusted: its plays must end in the win
                raise RepairError(f"the plan lets a play end without player {prover}'s win, at {game.format_position(state)}")
            height = 0
        elif game.to_move(state) == prover:
            out.states[key] = state
            child = game.apply(state, moves[key])
            height = 1 + visit(child, ply + 1)
            out.below[key] = replies.get(game.key(child), [])
        else:
            children = [game.apply(state, move) for move in game.legal_moves(state)]
            replies[key] = [game.key(child) for child in children]
            height = 1 + max(visit(child, ply + 1) for child in children)
        out.height[key] = height
        return height

    visit(root, 0)
    return out


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def repair(
    game: Game[Any, Any],
    plan: StrategyCertificate,
    within: int,
    job_nodes: int,
    max_nodes: int | None = None,
    max_memory_mb: float | None = None,
    progress: Callable[[RepairProgress], None] | None = None,
    command: str = "",
) -> Repair:
    """Make `plan` (a proof that its player wins) a proof of the win within `within` plies (module
    doc). Each sub-search has `job_nodes` nodes and `max_memory_mb`; `max_nodes` bounds them all."""
    started = time.perf_counter()
    claim = plan.claim
    if claim.result != "win":
        raise RepairError(f"the plan proves {claim.result} for player {claim.player}; only a win can be made shorter")
    player = claim.player
    root = game.initial() if claim.root is None else game.parse_position(claim.root)
    moves = strategy_moves(plan, game)
    good: dict[Any, Any] = {}  # the moves known to end every play by the bound (module doc)
    failed: dict[Any, str] = {}
    out = Repair("failed")
    first = True
    tally = {"proved": 0, "nodes": 0}  # running sums of out.searches: a repair may make tens of thousands

    def tell(ply: int | None = None, left: int | None = None, search: Progress | None = None, bad: int = 0) -> None:
        if progress is not None:
            progress(RepairProgress(len(out.searches), tally["proved"], len(out.searches) - tally["proved"],
                                    tally["nodes"] + (0 if search is None else search.nodes), bad, ply, left, search))

    def policy(_game: Any, state: Any) -> tuple[Any, ...]:
        move = good.get(game.key(state))
        return () if move is None else (move,)

    while True:
        combined = {**moves, **good}
        steps = walk(game, root, player, combined)
        fits = {key for key, ply in steps.ply.items() if key in steps.states and ply + steps.height[key] <= within}
        good.update((key, combined[key]) for key in fits)
        bad = {key for key in steps.states if key not in fits}
        if first:
            out.bad_before, out.longest_before, first = len(bad), steps.height[game.key(root)], False
        if game.key(root) in fits or game.is_terminal(root):
            break
        frontier = sorted((key for key in bad if key not in failed and all(g in failed for g in steps.below[key] if g in bad)),
                          key=lambda key: -steps.ply[key])
        if not frontier:  # the root failed too: disproved there means the claim is false
            out.status = "disproved" if failed.get(game.key(root)) == "disproved" else "failed"
            out.seconds = time.perf_counter() - started
            return out
        for key in frontier:
            if key in good:  # a sub-proof found in this round reaches it already
                continue
            ply, left = steps.ply[key], within - steps.ply[key]
            text = game.format_position(steps.states[key])
            if left < 1:
                failed[key] = "no room"
                out.searches.append(SubSearch(text, ply, left, "no room"))
                continue
            spent = tally["nodes"]
            if max_nodes is not None and spent >= max_nodes:
                out.status, out.seconds = "node budget", time.perf_counter() - started
                return out
            budget = job_nodes if max_nodes is None else min(job_nodes, max_nodes - spent)
            tell(ply, left, bad=len(bad))
            cpu, nodes = cpu_seconds(), 0
            for tried in dict.fromkeys((min(budget, FIRST_TRY), budget)):  # most are small: a small table first
                attempt: Attempt = prove(game, Claim(player, "win", left), text, tried, max_memory_mb,
                                         None if progress is None else lambda p: tell(ply, left, p, len(bad)), policy=policy)
                nodes += attempt.outcome.nodes
                if attempt.outcome.status not in ("node budget",):
                    break
            o = attempt.outcome
            tally["nodes"] += nodes
            tally["proved"] += o.status == "proved"
            out.searches.append(SubSearch(text, ply, left, o.status, nodes, cpu_seconds() - cpu, o.peak_rss_mb, o.root_pn, o.root_dn))
            if o.status == "interrupted":
                out.status, out.seconds = "interrupted", time.perf_counter() - started
                return out
            if o.status == "proved":
                assert attempt.certificate is not None  # a proved attempt carries its certificate
                good.update(strategy_moves(attempt.certificate, game))
            else:
                failed[key] = o.status
        tell(bad=len(bad))
    bounded = Claim(player, "win", within)

    def choose(state: Any) -> Any:
        key = game.key(state)
        out.kept += good[key] == moves.get(key)
        return good[key]

    tree = canonical_strategy(game, root, player, choose, within=within)
    out.certificate, _ = strategy_certificate(game, bounded, claim.root, root, tree, command, started, False)
    out.tree, out.status, out.seconds = tree, "proved", time.perf_counter() - started
    return out
