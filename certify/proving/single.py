"""Prove a claim by proof-number search and write it as a strategy certificate (kind `strategy`).

The search (solver/search/pns.py) proves the claim; the canonical traversal
(solver/search/prooftree.py) turns the proof into the prover's moves, one byte each; the
certificate embeds the rules, the claim and those bytes (docs/certificate-format.md). Only a
proved claim gives a certificate.
"""

from __future__ import annotations

import base64
import json
import resource
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from operator import itemgetter
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from certify.version import __version__
from certify.proving.checkpoint import load_checkpoint, save_checkpoint
from certify.files import write_atomic
from certify.record.format import FORMAT
from certify.record.schema import PairingCertificate, Proof, Provenance, StrategyCertificate, StrategyClaim
from solver.games.families import game_from_rules
from solver.games.game import Game, NoHooks, hooks_for_claim
from solver.search.pns import Claim, Outcome, ProofSearch, Progress, rss_mb
from solver.search.prooftree import CLOSE, IMAGE, NO_FIRST_MOVE, TRAVERSAL_BUDGET, ProofTree, after_move, canonical_strategy, closure_record  # noqa: F401 (re-exported)
from solver.games.positional.rules import RulesError
from solver.games.positional.symmetry import line_automorphisms
from solver.search.policy import PlanPolicy, PolicyHooks

Core = Literal["auto", "python", "native"]  # which df-pn searches: the compiled one where it can (auto)
STRATEGY_VERSION = 2
ZLIB_LEVEL = 9  # a proof is written once and read many times
CLOSURE_FIELDS = {"uttt": "counts"}  # the proof field of a family's closure records; others: "pairings"


class CoreUnavailable(ValueError):
    """`--core native` asked for a game or build the compiled df-pn cannot search; one line."""


class FirstMoveError(ValueError):
    """A --first-move that cannot be the claim's first move: not legal at the root, the opponent's,
    or the whole of a claim within 1 ply; one line."""


class ProofFileError(ValueError):
    """A file that is not a well-formed strategy certificate; the message is one line."""


@dataclass(frozen=True)
class RootMove:
    """A move at an unsettled search's root and what the search knows after it."""

    move: str  # as the game writes it
    status: Literal["proved", "disproved", "open"]
    pn: int  # proof and disproof numbers of the claim after the move: pn 0 once proved, dn 0 once disproved
    dn: int


@dataclass(frozen=True)
class Attempt:
    """A proof search's outcome and, when proved, its strategy and certificate."""

    claim: Claim
    root: str | None
    outcome: Outcome
    tree: ProofTree | None
    certificate: StrategyCertificate | None
    seconds: float  # search and traversal
    first_moves: tuple[RootMove, ...] = ()  # unsettled: each first move proved, disproved or open
    core: str = "python"  # which df-pn searched: "python" (solver/search/pns.py) or "native" (solver/search/native.py)
    # a compiled search's disproof: the search itself, whose table holds the opposite claim's proof
    # less what it evicted, for `prove(..., inherit=)` to start from (it takes the table; until
    # then the attempt holds it)
    search: Any = field(default=None, repr=False, compare=False)
    adopted: int = 0  # entries this search started with from `inherit`'s table (0: an empty table)
    resumed: int = 0  # nodes its --resume checkpoint had already searched (counted in outcome.nodes, not in seconds)

    @property
    def text(self) -> str | None:
        """The certificate file's exact text, if proved."""
        return None if self.certificate is None else certificate_text(self.certificate)


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MiB (Linux reports KiB): what a command reports
    as its peak, since walking the strategy and writing the certificate may pass the search's."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pack_moves(moves: list[int]) -> str:
    """One byte per move index, zlib, base64."""
    return base64.b64encode(zlib.compress(bytes(moves), ZLIB_LEVEL)).decode("ascii")


def unpack_moves(text: str, count: int) -> list[int]:
    """Inverse of pack_moves; raises ValueError unless exactly `count` bytes decode."""
    try:
        raw = zlib.decompressobj().decompress(base64.b64decode(text, validate=True), count + 1)
    except (ValueError, zlib.error) as err:
        raise ValueError(f"bad packed moves: {err}") from None
    if len(raw) != count:
        raise ValueError(f"packed moves hold {len(raw)} bytes, expected {count}")
    return list(raw)


def prove_command(game: str, claim: Claim, options: list[str]) -> str:
    """The `certify prove` command recorded in a certificate's provenance: the command that writes
    the same file again (anyone quoting a certificate's hash quotes this command beside it)."""
    return " ".join([f"certify prove {game} --claim {claim.result} --player {claim.player}", *options])


def prove_options(within: int | None = None, position: str | None = None, first_move: str | None = None,
                  plain: bool = False, pairings: bool = False, closure_budget: int | None = None,
                  potential: bool = False, threads: int = 1, images: bool = False, blocks: bool = False,
                  estimate: bool = False) -> list[str]:
    """The options `prove_command` records after the claim, in the one order every caller writes
    them (the command line, a batch line, the Python API), so that the same words give the same
    file; `position` and `first_move` as the game formats them."""
    options = [] if within is None else [f"--within {within}"]
    options += [] if position is None else [f"--position '{position}'"]
    options += [] if first_move is None else [f"--first-move {first_move}"]
    options += ["--plain"] * plain + ["--pairings"] * pairings
    options += [] if closure_budget is None else [f"--closure-budget {closure_budget}"]
    options += ["--potential"] * potential + ["--images"] * images + ["--blocks"] * blocks + ["--estimate"] * estimate
    return options + ([f"--threads {threads}"] if threads > 1 else [])  # a threaded file is one of the claim's proofs, not the serial run's bytes


def prove(
    game: Game[Any, Any],
    claim: Claim,
    root: str | None = None,
    max_nodes: int | None = None,
    max_memory_mb: float | None = None,
    progress: Callable[[Progress], None] | None = None,
    command: str = "",
    timed: bool = False,
    max_seconds: float | None = None,
    plain: bool = False,
    policy: PlanPolicy | None = None,
    checkpoint: Path | None = None,
    checkpoint_seconds: float = 600.0,
    resume: Path | None = None,
    pairings: bool = False,
    core: Core = "auto",
    table_mb: float | None = None,
    potential: bool = False,
    closure_budget: int | None = None,
    threads: int = 1,
    inherit: Attempt | None = None,
    images: bool = False,
    blocks: bool = False,
    estimate: bool = False,
) -> Attempt:
    """Search the claim from `root` (family notation; None: the start) and certify it if proved.

    With `resume`, the search starts from that checkpoint's table (certify/proving/checkpoint.py; the
    nodes reported then include the ones spent before). With `checkpoint`, the table is saved
    there every `checkpoint_seconds` and when the search stops unsettled (a budget, Ctrl-C).
    With `pairings`, the family's `closure` hook (positional: solver/games/positional/blocking.py) may
    close a prover's position of a no-loss proof by a pairing that blocks every line left to the opponent.
    With `potential` too, a closure's pairs may leave lines of potential below 1/2 unblocked (blocking.py);
    `closure_budget` caps the steps of each closure's search (the search's and the walk's).
    With `policy`, the prover plays the policy's moves wherever it names any (PolicyHooks).
    `core` picks the df-pn: `native` the compiled one (CoreUnavailable if it cannot search this
    game), `python` solver/search/pns.py, `auto` the compiled one where the game has a kernel (with
    `pairings`, a kernel with a compiled closure, dfpn.h `close`). `threads` > 1: that many threads
    of the compiled search share its table (CoreUnavailable where the compiled search cannot run,
    or with a policy, which calls Python at every prover's position). `table_mb`: the compiled
    table's cap, below what the memory budget leaves (a benchmark gives it its peer's table size).
    `images`: the certificate names a prover's position that a symmetry of the game maps to
    another already in the proof as that image (`image_symmetries`; a smaller file, read by the
    stdlib checker). `blocks`: at the opponent's positions where the prover has a line to complete
    and the opponent none, the certificate lists only the blocks (`blocking_replies`: every other
    reply loses at once, which the stdlib checker sees for itself). `estimate`: positions the search
    has not seen start from the family's first numbers (`estimate` of its hooks; ValueError where
    they have none): fewer nodes, another (often larger) proof. `inherit`: the attempt that disproved this claim's opposite from the same root; where both
    searches are compiled and key positions alike, this one takes that search's table, its numbers
    swapped (solver/search/native.py `adopt`), and starts from the disproof, not from nothing
    (not with `resume`, whose table is this claim's own).
    """
    started = time.perf_counter()
    named_by = image_symmetries(game) if images else ()  # refused before any search
    replies = blocking_replies(game, claim.player) if blocks else None  # refused before any search too
    state = game.initial() if root is None else game.parse_position(root)
    hooks = NoHooks() if plain else hooks_for_claim(game.search_hooks(), claim.result, claim.within, state)
    if threads > 1 and policy is not None:
        raise CoreUnavailable("--threads: a --policy is asked at every prover's position in Python, which the search "
                              "threads cannot call; leave out --threads (or use --workers)")
    if potential:
        hooks.potential = True
    if estimate:
        require_estimate(game, plain)
        hooks.estimating = True
    if closure_budget is not None:
        hooks.closure_budget = closure_budget
    searching = hooks if policy is None else PolicyHooks(game, policy, hooks)  # a policy's keys are exact (policy.py)
    search, used = proof_search(game, claim, searching, progress,
                                "native" if threads > 1 and core == "auto" else core, max_memory_mb, pairings, threads, table_mb)
    about = {"game": game.rules.name, "rules_sha256": game.rules.sha256(), "player": claim.player,
             "result": claim.result, "position": root, "plain": plain, **({"pairings": True} if pairings else {}),
             **({"potential": True} if potential else {}), **({"estimate": True} if estimate else {}),
             **({"closure_budget": closure_budget} if closure_budget is not None else {})}
    if claim.within is not None or policy is not None:  # a bounded or guided search is another search
        about.update(within=claim.within, policy=getattr(policy, "__qualname__", None))
    if used == "native":  # its checkpoints are its own
        about["core"] = used
    if closing(hooks, pairings) and hasattr(hooks, "closure_version"):  # another closure: another search's numbers
        about["closure"] = hooks.closure_version
    symmetries = len(getattr(searching, "symmetries", ()))
    if symmetries > 1:  # keys canonical under them: another table
        about["keys"] = f"canonical under {symmetries} symmetries"
    adopted = resumed = 0
    if resume is not None:
        load_checkpoint(resume, about, search, None if used == "native" else search.table_key(state))
        resumed = search.nodes
    elif inherit is not None and inherit.search is not None and used == "native" and inherit.root == root:
        entries = inherit.search.entries
        adopted = entries if search.adopt(inherit.search) else 0
    if used == "native" and max_seconds is not None:  # the table sized for what the time allows (native.py reserve)
        search.reserve(max_nodes, max_memory_mb, max_seconds)
    outcome = searched(search, state, max_nodes, max_memory_mb, max_seconds, checkpoint, checkpoint_seconds, about)
    if outcome.status != "proved":
        settled = first_moves(game, search, state) if outcome.status != "disproved" else ()
        kept = search if outcome.status == "disproved" and used == "native" else None
        return Attempt(claim, root, outcome, None, None, time.perf_counter() - started, settled, used, kept, adopted,
                       resumed)
    walk = getattr(search, "strategy", None)  # the compiled search walks its strategy itself, closures included
    closure = getattr(hooks, "closure", None) if walk is None and closing(hooks, pairings) else None
    close = None if closure is None else (  # may search longer: a position the search closed must close here too
        lambda position, left: closure_record(closure(position, claim.player, claim.result, TRAVERSAL_BUDGET, left)))
    walked = None if progress is None else walk_progress(progress, outcome)
    tree = (walk(state, 0, named_by, blocks, walked) if walk is not None
            else canonical_strategy(game, state, claim.player, search.proved_move, close, claim.within,
                                    symmetries=[image for image, _ in game.symmetries()[1:]] if named_by else (),
                                    replies=replies, walked=walked))
    certificate, seconds = strategy_certificate(game, claim, root, state, tree, command, started, timed, blocks)
    return Attempt(claim, root, outcome, tree, certificate, seconds, core=used, adopted=adopted, resumed=resumed)


def walk_progress(progress: Callable[[Progress], None], outcome: Outcome) -> Callable[[int], None]:
    """Progress reports while a proved claim's proof is walked (hours for millions of positions):
    the search's last numbers, with the positions walked so far and the memory now."""
    def walked(positions: int) -> None:
        progress(Progress(outcome.nodes, outcome.root_pn, outcome.root_dn, outcome.entries, outcome.seconds, rss_mb(),
                          outcome.evictions, walked=positions))

    return walked


def opening_move(game: Game[Any, Any], claim: Claim, state: Any, first_move: str) -> Any:
    """The move `first_move` names, if it can open `claim` at `state`: legal there and the prover's,
    and not the whole claim (within 1); raises FirstMoveError otherwise."""
    try:
        move = game.parse_move(first_move)
    except ValueError as err:
        raise FirstMoveError(f"'{first_move}': {err}") from None
    if game.is_terminal(state) or move not in game.legal_moves(state):
        raise FirstMoveError(f"{first_move} is not a legal move at {game.format_position(state)}")
    if game.to_move(state) != claim.player:
        raise FirstMoveError(f"{first_move} is player {game.to_move(state)}'s move; the claim is player {claim.player}'s")
    if claim.within == 1:
        raise FirstMoveError("with --within 1 the first move is the whole claim: leave out --first-move")
    return move


def prove_first_move(game: Game[Any, Any], claim: Claim, root: str | None, first_move: str, command: str = "",
                     timed: bool = False, run: Callable[[Claim, str], Attempt] | None = None, **search: Any) -> Attempt:
    """`prove` with the prover's first move fixed, as an opening book fixes it: the search runs from
    the position after `first_move` (a bounded claim one ply shorter there) and, if that is proved,
    the certificate is the claim's from `root`, the move first. It is exactly the search `prove`
    runs from that position (`--position` of it), so either one's --checkpoint resumes the other.
    A disproof refutes the move, not the claim: status "first move fails". `run(claim, position)`:
    the search of the claim after the move (default: `prove` with `search`, its other options; the
    parallel driver's otherwise). Raises FirstMoveError for a move that is not the prover's to play
    at the root."""
    started = time.perf_counter()
    state = game.initial() if root is None else game.parse_position(root)
    move = opening_move(game, claim, state, first_move)
    legal = game.legal_moves(state)
    child = game.apply(state, move)
    after = Claim(claim.player, claim.result, None if claim.within is None else claim.within - 1)
    if run is None:
        attempt = prove(game, after, game.format_position(child), command=command, timed=timed, **search)
    else:
        attempt = run(after, game.format_position(child))
    if attempt.outcome.status == "disproved":
        return replace(attempt, claim=claim, root=root, outcome=replace(attempt.outcome, status="first move fails"), search=None)
    if attempt.tree is None:
        return replace(attempt, claim=claim, root=root)
    tree = after_move(attempt.tree, legal.index(move))
    certificate, seconds = strategy_certificate(game, claim, root, state, tree, command, started, timed,
                                                attempt.certificate is not None and attempt.certificate.proof.replies == "blocks")
    return replace(attempt, claim=claim, root=root, tree=tree, certificate=certificate, seconds=seconds)


def prove_claim(game: Game[Any, Any], claim: Claim, root: str | None, first_move: str | None = None,
                **search: Any) -> tuple[Attempt, Attempt | None]:
    """What `certify prove` does with a claim: the search of it (after `first_move`, when given) and,
    when it is disproved, the search of its opposite from the disproof's table (none after a
    refuted first move, which certifies nothing). Returns (the claim's attempt, the opposite's)."""
    if first_move is not None:
        return prove_first_move(game, claim, root, first_move, **search), None
    attempt = prove(game, claim, root, **search)
    if attempt.outcome.status != "disproved":
        return attempt, None
    opposite = prove(game, claim.opposite(), root, **search, inherit=attempt)
    return replace(attempt, search=None), opposite  # its table went to the opposite's search


def require_pairings(game: Game[Any, Any]) -> None:
    """Raises ValueError unless `--pairings` means something for `game`: its hooks close by pairings
    (positional own-mark games), not by a count asked always (uttt's, which needs no flag)."""
    hooks = game.search_hooks()
    if not hasattr(hooks, "closure") or getattr(hooks, "always_close", False):
        raise ValueError(f"--pairings: {game.rules.name} has no pairing closures (positional games with own marks have them)")


def closing(hooks: Any, pairings: bool) -> bool:
    """Whether the search asks the hooks' `closure`: with --pairings, or always where the hooks say
    so (uttt's meta-line count, which closes bounded no-loss claims only)."""
    return pairings or bool(getattr(hooks, "always_close", False))


def proof_search(game: Game[Any, Any], claim: Claim, hooks: Any, progress: Callable[[Progress], None] | None,
                 core: Core, max_memory_mb: float | None, pairings: bool = False, threads: int = 1,
                 table_mb: float | None = None) -> tuple[Any, str]:
    """The search `core` asks for, and its name; the compiled one is imported only here."""
    asked = "--threads" if threads > 1 else "--core native"
    if core != "python":
        try:
            from solver.search.native import NativeProofSearch, has_closure, kernel_for, table_mb_for
        except ImportError as err:
            if core == "native":
                raise CoreUnavailable(f"{asked}: the compiled df-pn is not built ({err}); run `pip install -e .`") from None
        else:
            kernel = kernel_for(game, hooks)
            if kernel is not None and (not pairings or has_closure(kernel)):
                cap = table_mb_for(max_memory_mb) if table_mb is None else min(table_mb, table_mb_for(max_memory_mb))
                return NativeProofSearch(game, claim, hooks, progress, table_mb=cap,
                                         closures=closing(hooks, pairings) and has_closure(kernel), threads=threads), "native"
            if core == "native" and kernel is not None:
                raise CoreUnavailable(f"{asked}: --pairings: the compiled kernel of {game.rules.name} has no closure; leave out {asked.split()[0]}")
            if core == "native":
                raise CoreUnavailable(f"{asked}: no compiled kernel searches {game.rules.name} (positional boards up to 64 cells, Ultimate tic-tac-toe under either rules with its own hooks or none, and a --policy over them)")
    return ProofSearch(game, claim, hooks, progress, pairings=pairings), "python"


def searched(
    search: ProofSearch,
    state: Any,
    max_nodes: int | None,
    max_memory_mb: float | None,
    max_seconds: float | None,
    checkpoint: Path | None,
    every: float,
    about: dict[str, Any],
) -> Outcome:
    """`search.search` within the budgets, in slices of `every` seconds with the table saved to
    `checkpoint` after each and when the search stops unsettled; one Outcome for the whole run."""
    if checkpoint is None:
        return search.search(state, max_nodes, max_memory_mb, max_seconds)
    started, first_node = time.perf_counter(), search.nodes
    peak = 0.0
    while True:
        spent = time.perf_counter() - started
        left_seconds = None if max_seconds is None else max(0.0, max_seconds - spent)
        left_nodes = None if max_nodes is None else max(0, max_nodes - (search.nodes - first_node))
        slice_seconds = every if left_seconds is None else min(every, left_seconds)
        outcome = search.search(state, left_nodes, max_memory_mb, slice_seconds)
        peak = max(peak, outcome.peak_rss_mb)
        sliced = outcome.status == "time budget" and (left_seconds is None or left_seconds > slice_seconds)
        if outcome.status not in ("proved", "disproved"):
            save_checkpoint(checkpoint, about, search)
        if not sliced:
            return replace(outcome, seconds=time.perf_counter() - started, peak_rss_mb=peak)


def first_moves(game: Game[Any, Any], search: ProofSearch, state: Any) -> tuple[RootMove, ...]:
    """What an unsettled search did settle at the root: each candidate first move and whether
    the claim holds after it (`proved`), fails after it (`disproved`) or is still `open`, with the
    table's proof and disproof numbers there (what says which open move is nearest to settling)."""
    if game.is_terminal(state):
        return ()
    out = []
    for move in search.hooks.candidates(state, game.legal_moves(state), game.to_move(state) == search.claim.player, search.claim.player):
        pn, dn = search.numbers(game.apply(state, move))
        out.append(RootMove(game.format_move(move), "proved" if pn == 0 else "disproved" if dn == 0 else "open", pn, dn))
    return tuple(out)


GameValue = Literal["win", "draw", "loss"]
FLIP: dict[GameValue | None, GameValue | None] = {"win": "loss", "loss": "win", "draw": "draw", None: None}


@dataclass(frozen=True)
class Settled:
    """A position's value for the player to move, the proofs that certify it, and what it cost."""

    value: GameValue | None  # None: a budget ran out (or the search was interrupted)
    proofs: list[Attempt]  # a win or a loss: one; a draw: both players' no-loss proofs; else none
    searches: list[Attempt]  # every search made, in order, proved or not
    nodes: int
    seconds: float


def settle_value(
    game: Game[Any, Any],
    root: str | None = None,
    nodes: int | None = None,
    seconds: float | None = None,
    max_memory_mb: float | None = None,
    plain: bool = False,
    progress: Callable[[Progress], None] | None = None,
    command: Callable[[Claim], str] = lambda claim: "",
    table_mb: float | None = None,
    estimate: bool = False,
) -> Settled:
    """The game value of `root` (None: the start) for the player to move, by the searches it needs.

    Win: "the mover wins" proved. Loss: "the opponent wins" proved. Draw: both refuted, then a
    no-loss proof for each side (the certificate of a draw is the pair). `nodes` bounds each
    search; `seconds` all of them together; `table_mb` caps each compiled search's table;
    `estimate`: each search from the family's first numbers (`prove`).
    """
    started = time.perf_counter()
    deadline = None if seconds is None else started + seconds
    state = game.initial() if root is None else game.parse_position(root)
    mover = game.to_move(state)
    attempts: list[Attempt] = []

    def run(claim: Claim) -> Attempt:
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        attempt = prove(game, claim, root, nodes, max_memory_mb, progress, command(claim), max_seconds=left, plain=plain,
                        table_mb=table_mb, estimate=estimate)
        attempts.append(replace(attempt, search=None))  # a disproof's table is not kept beside the next search's
        return attempt

    def done(value: GameValue | None, proofs: list[Attempt]) -> Settled:
        return Settled(value, proofs, attempts, sum(a.outcome.nodes for a in attempts), time.perf_counter() - started)

    value = value_by_claims(mover, lambda claim: run(claim).outcome.status)
    return done(value, [] if value is None else attempts[-2:] if value == "draw" else attempts[-1:])


def value_by_claims(mover: int, run: Callable[[Claim], str]) -> GameValue | None:
    """The value for `mover` from the statuses `run` gives the claims it is asked, in order: the
    mover wins, the opponent wins (a win or loss once one is proved), then a no-loss claim for each
    side (a draw when both are proved). None as soon as a search ends without a verdict."""
    for claim in (Claim(mover, "win"), Claim(3 - mover, "win")):
        status = run(claim)
        if status == "proved":
            return "win" if claim.player == mover else "loss"
        if status != "disproved":
            return None
    if all(run(Claim(player, "no-loss")) == "proved" for player in (mover, 3 - mover)):
        return "draw"
    return None


def move_values(
    game: Game[Any, Any], state: Any, nodes: int, progress: Callable[[int, int], None] | None = None
) -> list[dict[str, Any]]:
    """Each legal move's value for the player making it, by proof search within `nodes` per search.

    A move's value is None where a budget ran out (shown as `unknown`). `progress(done, total)`
    is called before each move is valued.
    """
    out = []
    mover = game.to_move(state)
    moves = game.legal_moves(state)
    for done, move in enumerate(moves):
        if progress is not None:
            progress(done, len(moves))
        child = game.apply(state, move)
        if game.is_terminal(child):
            value: GameValue | None = {1: "win", 0: "draw", -1: "loss"}[game.returns(child)[mover - 1]]
            spent = 0
        else:
            settled = settle_value(game, game.format_position(child), nodes=nodes)
            value, spent = FLIP[settled.value], settled.nodes
        out.append({"move": game.format_move(move), "value": value, "nodes": spent})
    return out


def image_symmetries(game: Game[Any, Any]) -> tuple[tuple[int, ...], ...]:
    """The cell permutations a proof names images by (`--images`): a positional game's line
    automorphisms but the identity, in their order (solver/games/positional/symmetry.py); raises
    ValueError for a game of another family."""
    if game.rules.canonical().get("family") != "positional":
        raise ValueError(f"--images: {game.rules.name} is not a positional game (only their proofs name images)")
    return line_automorphisms(game.rules)[1:]


def require_estimate(game: Game[Any, Any], plain: bool = False) -> None:
    """Raises ValueError unless the game's search hooks have first numbers of their own (an
    `estimate` hook, turned on by `estimating`: `certify prove --estimate`) and the search uses
    them (not `plain`, which leaves the hooks out)."""
    if not hasattr(game.search_hooks(), "estimating"):
        raise ValueError(f"--estimate: the search of {game.rules.name} has no first numbers of its own "
                         "(uttt and uttt:open have them, for win claims and bounded no-loss claims)")
    if plain:
        raise ValueError("--estimate: the first numbers are the family's search hooks', which --plain leaves out")


def blocking_replies(game: Game[Any, Any], prover: int) -> Callable[[Any, list[Any]], list[Any]]:
    """The opponent's moves a proof with `--blocks` lists at a position: where `prover` has a line
    to complete and the opponent none, the moves on those cells (any other loses at once); else
    every move. Raises ValueError unless the game is positional with own marks and the first line
    winning (checker/proof.py `blocks_of`)."""
    rules = game.rules
    if rules.canonical().get("family") != "positional" or rules.marks != "own" or rules.goal != "first-line-wins":
        raise ValueError(f"--blocks: {rules.name} is not a game of own marks whose first line wins")

    # not the hooks' `_completions`: that one needs a mark of the player on the line, and the
    # checker's rule counts a lone empty cell as a line either player completes. Each line's marks
    # read by one itemgetter: this runs at every opponent's position of a replay (Qubic: 3 M)
    lines = [(line, itemgetter(*line) if len(line) > 1 else (lambda board, c=line[0]: (board[c],))) for line in rules.lines]

    def completions(board: tuple[int, ...], player: int) -> set[int]:
        cells = set()
        for line, marks_of in lines:
            marks = marks_of(board)
            if marks.count(0) == 1 and marks.count(player) == len(line) - 1:
                cells.add(line[marks.index(0)])
        return cells

    def replies(state: Any, legal: list[Any]) -> list[Any]:
        board = game.board(state)
        threats = completions(board, prover)
        if not threats or completions(board, 3 - prover):
            return legal
        return [move for move in legal if move.cell in threats]

    return replies


def strategy_certificate(
    game: Game[Any, Any],
    claim: Claim,
    root: str | None,
    state: Any,
    tree: ProofTree,
    command: str,
    started: float,
    timed: bool,
    blocks: bool = False,
) -> tuple[StrategyCertificate, float]:
    """The certificate of a proved claim whose strategy's canonical traversal is `tree`;
    (certificate, seconds since `started`). The root is written as the game draws `state`,
    whatever way `root` was typed. Any search that found the strategy writes the same file
    through here."""
    packed = b"".join(tree.closures)
    field = CLOSURE_FIELDS.get(game.rules.canonical().get("family", ""), "pairings")
    seconds = time.perf_counter() - started
    certificate = StrategyCertificate(
        format=FORMAT,
        version=STRATEGY_VERSION,
        kind="strategy",
        rules=game.rules.canonical(),
        rules_sha256=game.rules.sha256(),
        claim=StrategyClaim(player=claim.player, result=claim.result, root=None if root is None else game.format_position(state),
                             within=claim.within),
        proof=Proof(traversal="dfs-preorder", positions=tree.positions, turns=len(tree.moves), moves=pack_moves(tree.moves),
                    **({"closures": len(tree.closures), "closure_bytes": len(packed), field: pack_moves(list(packed))}
                       if tree.closures else {}),
                    **({"symmetries": [list(p) for p in image_symmetries(game)], "image_count": len(tree.images),
                        "images": pack_moves(list(tree.images))} if tree.images else {}),
                    **({"replies": "blocks"} if blocks else {})),
        provenance=Provenance(tool=f"certify {__version__}", command=command, elapsed_seconds=round(seconds, 3) if timed else None),
    )
    return certificate, seconds


def certificate_text(certificate: StrategyCertificate | PairingCertificate) -> str:
    """The exact text of the file: sorted keys, 2-space indent, final newline (deterministic)."""
    unbounded = {"claim": {"within"}} if getattr(certificate.claim, "within", None) is None else None  # files as before
    data = certificate.model_dump(mode="json", exclude=unbounded)
    proof = data.get("proof", {})
    for key in ("closures", "closure_bytes", "pairings", "counts", "symmetries", "image_count", "images", "replies"):  # absent when unused: the format before them
        if key in proof and proof[key] is None:
            del proof[key]
    return json.dumps(data, sort_keys=True, indent=2) + "\n"


def write_proof(certificate: StrategyCertificate, path: Path) -> None:
    """Write the certificate atomically."""
    write_atomic(path, certificate_text(certificate))


def read_proof(path: Path) -> tuple[StrategyCertificate, Game[Any, Any]]:
    """A strategy certificate and the game its rules state; raises ProofFileError with one line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
        certificate = StrategyCertificate.model_validate_json(text)
        return certificate, game_from_rules(certificate.rules)
    except (OSError, UnicodeDecodeError) as err:
        raise ProofFileError(f"{path}: cannot read: {err}") from None
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "document"
        raise ProofFileError(f"{path}: not a valid strategy certificate: {where}: {first['msg']}") from None
    except RulesError as err:
        raise ProofFileError(f"{path}: {err}") from None


CLOSED = "closed"  # strategy_moves(..., closures=True): a prover's position the proof closes (pairing or count)


def strategy_moves(certificate: StrategyCertificate, game: Game[Any, Any], closures: bool = False,
                   images: bool = False, progress: Callable[[int], None] | None = None) -> dict[Any, Any]:
    """Position key → the prover's move, by replaying the canonical traversal; raises ProofFileError.

    A proof with closures is refused unless `closures`: then a closed position maps to CLOSED (its
    record is the checker's to read; a reader that draws the proof shows where it closes). A proof
    naming images is refused unless `images`: then a position named an image is left out, as the
    traversal does not go past it (`strategy_lookup` finds its move through the symmetries).
    `progress(positions)`: called as the replay goes (Qubic's 6.2 M positions take some 20 minutes)."""
    claim = certificate.claim
    if certificate.proof.image_count and not images:
        raise ProofFileError(f"proof: {certificate.proof.image_count:,} positions are named as symmetric images of others; "
                             "replaying such a proof as moves is not supported here (`python -m checker FILE` checks it)")
    if certificate.proof.closures and not closures:
        raise ProofFileError(f"proof: {certificate.proof.closures:,} positions are closed (by a pairing or a count); replaying "
                             "such a proof as moves is not supported here (`python -m checker FILE` checks it)")
    try:
        moves = unpack_moves(certificate.proof.moves, certificate.proof.turns)
        root = game.initial() if claim.root is None else game.parse_position(claim.root)
    except ValueError as err:
        raise ProofFileError(f"proof: {err}") from None
    chosen: dict[Any, Any] = {}
    at = 0  # the next move byte

    def close(state: Any, _left: int | None) -> bytes | None:  # the traversal asks this just before `choose`
        nonlocal at
        if at < len(moves) and moves[at] == IMAGE and images:
            at += 1
            return b""  # a leaf for the traversal, as for the checker
        if at < len(moves) and moves[at] == CLOSE and closures:
            at += 1
            chosen[game.key(state)] = CLOSED
            return b""
        return None

    def choose(state: Any) -> Any:
        nonlocal at
        legal = game.legal_moves(state)
        if at >= len(moves) or moves[at] >= len(legal):
            raise ProofFileError("proof: the moves do not fit the game (run `certify check`)")
        move = chosen[game.key(state)] = legal[moves[at]]
        at += 1
        return move

    replies = blocking_replies(game, claim.player) if certificate.proof.replies == "blocks" else None
    visited = 0

    def visit(_state: Any, _ply: int) -> None:
        nonlocal visited
        visited += 1
        if progress is not None and visited % 16384 == 0:
            progress(visited)

    canonical_strategy(game, root, claim.player, choose, close=close if closures or images else None, within=claim.within,
                       replies=replies, visit=visit if progress is not None else None)
    return chosen


def strategy_lookup(certificate: StrategyCertificate, game: Game[Any, Any], closures: bool = False,
                    progress: Callable[[int], None] | None = None) -> Callable[[Any], Any]:
    """The prover's move at a position its strategy reaches (CLOSED where the proof closes it), or
    None; raises ProofFileError. Besides the positions the traversal replays, this answers where
    the file leaves moves out: at and below a position named an image, the move of the position a
    symmetry of the game maps it to, mapped back (the game's symmetries form a group, so chains of
    images resolve in one step); after a reply a `blocks` proof does not list, the prover's move
    that completes a line (the checker's rule: such a reply loses at once)."""
    chosen = strategy_moves(certificate, game, closures=closures, images=True, progress=progress)
    symmetries = list(getattr(game, "symmetries", list)())[1:] if certificate.proof.image_count else []
    prover, blocks = certificate.claim.player, certificate.proof.replies == "blocks"

    def move_at(state: Any) -> Any:
        if (move := chosen.get(game.key(state))) is not None:
            return move
        for image, move_image in symmetries:
            there = chosen.get(game.key(image(state)))
            if there == CLOSED:
                return CLOSED
            if there is not None:
                return next(m for m in game.legal_moves(state) if move_image(m) == there)
        if blocks:
            return next((m for m in game.legal_moves(state) if game.is_terminal(child := game.apply(state, m))
                         and game.returns(child)[prover - 1] == 1), None)
        return None

    return move_at


def required_move(lookup: Callable[[Any], Any], game: Game[Any, Any], prover: int, state: Any) -> Any:
    """`lookup(state)` (a strategy_lookup), or ProofFileError naming the position where the file has
    no move: a reader that draws an unchecked file says where it fails."""
    if (move := lookup(state)) is None:
        raise ProofFileError(f"proof: no move of player {prover} at {game.format_position(state)} (`certify check` the file)")
    return move
