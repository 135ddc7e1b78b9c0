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
spent (or, at a root where the opponent moves, as soon as one reply leads to a disproved position:
the opponent plays it). Why the combination ends in time: each move kept comes from a strategy under which its
position's plays end by ply N, and the positions that move leads to are good under the same
strategy, so by induction on the plies left every play of the combination ends by ply N.

Jumping levels. Where the plan is wrong at the root of a subproblem, nearly every sub-search low
in it is disproved, and going up one level at a time spends the run on thousands of small failed
searches. With `jump` J > 1, a level (a round searches one: the deepest ply of positions ready) more than JUMP_RATE
disproved makes the next J - 1 levels of the player's positions above it *skipped*: failed without a
search, so their parents J levels up are searched directly (their searches are free there, so they
find what the skipped ones would have); a level below the rate searches every level again. Skipping
only withholds moves from the plan, never adds any, so it cannot make the result unsound.

Symmetric images. Where the family offers `symmetries()` (solver/games/game.py: Ultimate
tic-tac-toe's eight grid symmetries, a positional game's line automorphisms), a sub-result is
shared with the position's images: a failed position's images fail alike (a disproof is the game's
fact, and a budget stop only withholds moves), and a sub-proof mapped move by move through each
symmetry is a proof from the image, added to the plan as any sub-proof is (so the checker judges it
like every other move). The log keeps only searched results; a resumed repair shares them again.

The log. With `log`, each settled sub-result (a proved one with its moves, by position and move in
the family's notation) is appended to a file of JSON lines as it comes; `resume` takes a log of
the same repair (same rules, player, bound, root and plan) and goes on from it. A proved sub-result
read back is only a plan's move again: the final certificate is the checker's to accept.

The checker knows nothing of this: the certificate is a plain bounded strategy certificate.
"""

from __future__ import annotations

import hashlib
import json
import resource
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from certify.files import FileProblem, parse_json, read_text, write_atomic
from certify.proving.single import Attempt, prove, strategy_certificate, strategy_moves
from certify.record.schema import StrategyCertificate
from solver.games.game import Game
from solver.search.pns import Claim, Progress
from solver.search.prooftree import ProofTree, canonical_strategy


FIRST_TRY = 10_000  # a sub-search's first node budget: the table is sized up front for the budget, so a small one first
JUMP_RATE = 0.9  # with jump > 1: a level disproved more often than this is taken as the plan's dead end, and skipped over
JUMP_MIN = 8  # fewer sub-searches at a level say too little to skip the next ones
LOG_FORMAT = "certify-repair-log"
LOG_VERSION = 1
SETTLED = ("proved", "disproved", "no room", "skipped")  # the sub-results a resumed repair takes as they are


class RepairError(ValueError):
    """A plan that cannot be repaired into the claim asked (another game, claim or root); one line."""


@dataclass(frozen=True)
class SubSearch:
    """One bounded win search from a bad position of the prover."""

    position: str
    ply: int  # from the root
    within: int  # the plies left before the bound
    status: str  # proved, disproved, no room (no move left before the bound), skipped (jump), or the budget that stopped it
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
    skipped: int = 0  # bad positions passed over unsearched (jump)


@dataclass
class Repair:
    """A repair's outcome: `status` proved (then `tree` and `certificate`), disproved (the root's own
    search disproved the claim), failed (the root's search out of its budget), or the budget or
    interruption that stopped the repair."""

    status: str
    searches: list[SubSearch] = field(default_factory=list)
    kept: int = 0  # the plan's moves the new strategy keeps
    bad_before: int = 0  # the prover's bad positions in the plan itself
    longest_before: int = 0  # the plan's longest play, in plies
    bad_at_start: int = 0  # the bad positions this run began with: fewer than bad_before once a resumed log proved some
    tree: ProofTree | None = None
    certificate: StrategyCertificate | None = None
    seconds: float = 0.0
    resumed: int = 0  # the first `resumed` searches come from a --resume log
    by_symmetry: int = 0  # bad positions settled by a symmetric image's sub-result (the family's `symmetries`), unsearched

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


def plan_digest(plan: StrategyCertificate) -> str:
    """What a repair log is about: the plan's rules, claim and moves."""
    about = json.dumps([plan.rules_sha256, plan.claim.player, plan.claim.result, plan.claim.root, plan.proof.turns, plan.proof.moves])
    return hashlib.sha256(about.encode()).hexdigest()


class RepairLog:
    """The repair's settled sub-results, one line of JSON each after a header, appended as they come
    (a run stopped anywhere loses at most the line it was writing; a torn last line is ignored)."""

    def __init__(self, path: Path, header: dict[str, Any], lines: list[dict[str, Any]]) -> None:
        """Start the log at `path` with `header` and the `lines` a resumed log held."""
        text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in [header, *lines])
        write_atomic(path, text.encode())
        self.file = path.open("a", encoding="utf-8")

    def add(self, line: dict[str, Any]) -> None:
        self.file.write(json.dumps(line, separators=(",", ":")) + "\n")
        self.file.flush()

    def close(self) -> None:
        self.file.close()


def read_log(path: Path, header: dict[str, Any]) -> list[dict[str, Any]]:
    """The lines of a repair log of the same repair (`header`); RepairError, one line, if it is not one."""
    try:
        text = read_text(path, "repair log")
        rows = text.split("\n")
        try:
            first = json.loads(rows[0])
        except ValueError:  # JSON of another kind (a certificate) is not a log; a bad header in the words every reader uses
            first = parse_json(path, text)
    except FileProblem as err:
        raise RepairError(str(err)) from None
    if not isinstance(first, dict) or first.get("format") != LOG_FORMAT:
        raise RepairError(f"{path}: not a certify repair log (--from-proof ... --checkpoint FILE writes one)")
    differs = [name for name in header if first.get(name) != header[name]]
    if differs:
        raise RepairError(f"{path}: the log of another repair (its {', '.join(differs)} differ)")
    lines = []
    for number, row in enumerate(rows[1:], 2):
        try:
            line = json.loads(row)
        except ValueError:
            if number >= len(rows) - 1:  # the line a stopped run was writing
                break
            raise RepairError(f"{path}: line {number} is not JSON") from None
        if not isinstance(line, dict) or not ("skip_above" in line or isinstance(line.get("position"), str)):
            raise RepairError(f"{path}: line {number} is not a sub-result")
        lines.append(line)
    return lines


def repair(
    game: Game[Any, Any],
    plan: StrategyCertificate,
    within: int,
    job_nodes: int,
    max_nodes: int | None = None,
    max_memory_mb: float | None = None,
    progress: Callable[[RepairProgress], None] | None = None,
    command: str = "",
    jump: int = 1,
    log: Path | None = None,
    resume: Path | None = None,
) -> Repair:
    """Make `plan` (a proof that its player wins) a proof of the win within `within` plies (module
    doc). Each sub-search has `job_nodes` nodes and `max_memory_mb`; `max_nodes` bounds the nodes of
    this run's sub-searches together. `jump` > 1: after a level of the player's positions whose
    sub-searches were more than JUMP_RATE disproved, the next `jump` - 1 levels up are skipped and the
    search goes on `jump` levels up. `log`: every settled sub-result is appended there; `resume`: a
    log of the same repair, whose results are taken as they are (its budget-stopped ones are searched again)."""
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
    skip_above: int | None = None  # skip the bad positions deeper than this ply, unsearched
    symmetries = list(getattr(game, "symmetries", list)())[1:]  # the family's, without the identity (solver/games/game.py)
    shared: set[Any] = set()  # keys settled by an image's sub-result, not searched

    def share_failure(state: Any, status: str) -> None:  # a failed position's images fail alike
        if status in ("skipped", "no room"):  # the level's verdict, not the position's: an image has its own
            return
        for image, _ in symmetries:
            key = game.key(image(state))
            if key not in failed:
                failed[key] = status
                shared.add(key)

    def share_proof(pairs: list[tuple[Any, Any]]) -> None:  # a sub-proof's images are proofs of the images
        for image, move_image in symmetries:
            for state, move in pairs:
                key = game.key(image(state))
                if key not in good:
                    good[key] = move_image(move)
                    shared.add(key)

    header = {"format": LOG_FORMAT, "version": LOG_VERSION, "rules_sha256": game.rules.sha256(), "player": player,
              "within": within, "root": claim.root, "plan": plan_digest(plan)}
    before = [] if resume is None else read_log(resume, header)
    for line in before:
        if "skip_above" in line:
            skip_above = line["skip_above"]
            continue
        try:
            state = game.parse_position(line["position"])
            done = SubSearch(**{name: line[name] for name in SubSearch.__dataclass_fields__ if name in line})
            pairs = [(game.parse_position(p), game.parse_move(m)) for p, m in line["moves"]] if done.status == "proved" else []
        except (KeyError, TypeError, ValueError) as err:
            raise RepairError(f"{resume}: a sub-result that does not fit the game ({err})") from None
        good.update((game.key(s), m) for s, m in pairs)
        share_proof(pairs)
        if done.status != "proved" and done.status in SETTLED:
            failed[game.key(state)] = done.status
            share_failure(state, done.status)
        if done.status in SETTLED:
            out.searches.append(done)
    out.resumed = len(out.searches)
    record = None if log is None else RepairLog(log, header, before)
    first = True
    tally = {"proved": sum(s.status == "proved" for s in out.searches), "skipped": sum(s.status == "skipped" for s in out.searches),
             "nodes": sum(s.nodes for s in out.searches), "here": 0}  # running sums: a repair may make tens of thousands

    def tell(ply: int | None = None, left: int | None = None, search: Progress | None = None, bad: int = 0) -> None:
        if progress is not None:
            searched = len(out.searches) - tally["skipped"]
            progress(RepairProgress(searched, tally["proved"], searched - tally["proved"],
                                    tally["nodes"] + (0 if search is None else search.nodes), bad, ply, left, search, tally["skipped"]))

    def note(done: SubSearch, sub: dict[Any, Any] | None = None, states: dict[Any, Any] | None = None) -> None:
        out.searches.append(done)
        if record is not None:
            line: dict[str, Any] = {name: getattr(done, name) for name in SubSearch.__dataclass_fields__}
            if sub is not None and states is not None:
                line["moves"] = [[game.format_position(states[key]), game.format_move(move)] for key, move in sub.items()]
            record.add(line)

    def policy(_game: Any, state: Any) -> tuple[Any, ...]:
        move = good.get(game.key(state))
        return () if move is None else (move,)

    seen_bad: set[Any] = set()  # every bad position a walk found: the images that settled one are counted
    read_back = bool(good)  # the log's proofs: the first walk is then not the plan's own
    changed = True
    try:
        while True:
            if changed:  # the walk changes only when a sub-search proved: a round of failures keeps it
                combined = {**moves, **good}
                steps = walk(game, root, player, combined)
                fits = {key for key, ply in steps.ply.items() if key in steps.states and ply + steps.height[key] <= within}
                good.update((key, combined[key]) for key in fits)
                bad = {key for key in steps.states if key not in fits}
                seen_bad |= bad
                changed = False
            if first:  # the plan's own figures: a walk of the plan alone when the log's proofs changed this one
                alone = walk(game, root, player, moves) if read_back else steps
                out.longest_before = alone.height[game.key(root)]
                out.bad_before = sum(alone.ply[key] + alone.height[key] > within for key in alone.states)
                out.bad_at_start, first = len(bad), False
            if game.key(root) in fits or game.is_terminal(root):
                break
            if game.to_move(root) != player and any(steps.ply[key] == 1 and failed.get(key) == "disproved" for key in bad):
                out.status = "disproved"  # the opponent moves from the root to a position the player cannot win in time
                return out
            frontier = sorted((key for key in bad if key not in failed and all(g in failed for g in steps.below[key] if g in bad)),
                              key=lambda key: -steps.ply[key])
            if not frontier:  # the root failed too: disproved there means the claim is false
                out.status = "disproved" if failed.get(game.key(root)) == "disproved" else "failed"
                return out
            frontier = [key for key in frontier if steps.ply[key] == steps.ply[frontier[0]]]  # a round is one level
            level: Counter[tuple[int, bool]] = Counter()  # (ply, disproved) of this round's sub-searches
            for key in frontier:
                if key in good or key in failed:  # settled in this round already: by a sub-proof reaching it, or by an image
                    continue
                ply, left = steps.ply[key], within - steps.ply[key]
                text = game.format_position(steps.states[key])
                if left < 1 or (skip_above is not None and ply > skip_above):
                    failed[key] = "no room" if left < 1 else "skipped"
                    tally["skipped"] += failed[key] == "skipped"
                    note(SubSearch(text, ply, left, failed[key]))
                    continue
                if max_nodes is not None and tally["here"] >= max_nodes:
                    out.status = "node budget"
                    return out
                budget = job_nodes if max_nodes is None else min(job_nodes, max_nodes - tally["here"])
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
                tally["here"] += nodes
                tally["proved"] += o.status == "proved"
                done = SubSearch(text, ply, left, o.status, nodes, cpu_seconds() - cpu, o.peak_rss_mb, o.root_pn, o.root_dn)
                if o.status == "interrupted":
                    out.searches.append(done)
                    out.status = "interrupted"
                    return out
                level[ply, o.status == "disproved"] += 1
                if o.status == "proved":
                    assert attempt.certificate is not None  # a proved attempt carries its certificate
                    sub, states = strategy_moves(attempt.certificate, game), {}
                    if record is not None or symmetries:  # the log names positions, images map them: the states, once more
                        canonical_strategy(game, game.parse_position(text), player, lambda s: sub[game.key(s)], within=left,
                                           visit=lambda s, _ply: states.setdefault(game.key(s), s))
                    good.update(sub)
                    share_proof([(states[k], move) for k, move in sub.items()] if symmetries else [])
                    changed = True
                    note(done, sub, states)
                else:
                    failed[key] = o.status
                    share_failure(steps.states[key], o.status)
                    note(done)
                    if o.status == "disproved" and ply == 1 and game.to_move(root) != player:
                        out.status = "disproved"  # as above: the opponent's reply from the root settles it
                        return out
            if level:
                top = min(ply for ply, _ in level)
                searched, disproved = level[top, False] + level[top, True], level[top, True]
                base = 0 if game.to_move(root) == player else 1  # the player's shallowest ply: the root's level is never skipped
                leap = max(base, top - 2 * jump) if jump > 1 and searched >= JUMP_MIN and disproved > JUMP_RATE * searched else None
                if leap != skip_above:
                    skip_above = leap
                    if record is not None:
                        record.add({"skip_above": skip_above})
            tell(bad=len(bad))
    finally:
        out.seconds = time.perf_counter() - started
        out.by_symmetry = len(shared & seen_bad)
        if record is not None:
            record.close()
    bounded = Claim(player, "win", within)

    def choose(state: Any) -> Any:
        key = game.key(state)
        out.kept += good[key] == moves.get(key)
        return good[key]

    tree = canonical_strategy(game, root, player, choose, within=within)
    out.certificate, _ = strategy_certificate(game, bounded, claim.root, root, tree, command, started, False)
    out.tree, out.status, out.seconds = tree, "proved", time.perf_counter() - started
    return out
