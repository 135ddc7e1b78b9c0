"""Prove a claim by proof-number search and write it as a strategy certificate (kind `strategy`).

The search (solver/search/pns.py) proves the claim; the canonical traversal
(solver/search/prooftree.py) turns the proof into the prover's moves, one byte each; the
certificate embeds the rules, the claim and those bytes (docs/certificate-format.md). Only a
proved claim gives a certificate.
"""

from __future__ import annotations

import base64
import json
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from certify import __version__
from certify.files import write_atomic
from certify.record.format import FORMAT
from certify.record.schema import Proof, Provenance, StrategyCertificate, StrategyClaim
from solver.games.families import game_from_rules
from solver.games.game import Game, NoHooks
from solver.search.pns import Claim, Outcome, ProofSearch, Progress
from solver.search.prooftree import ProofTree, canonical_strategy
from solver.games.positional.rules import RulesError

Core = Literal["auto", "python", "native"]  # which df-pn searches: the compiled one where it can (auto)
STRATEGY_VERSION = 2
ZLIB_LEVEL = 9  # a proof is written once and read many times


class CoreUnavailable(ValueError):
    """`--core native` asked for a game or build the compiled df-pn cannot search; one line."""


class ProofFileError(ValueError):
    """A file that is not a well-formed strategy certificate; the message is one line."""


@dataclass(frozen=True)
class Attempt:
    """A proof search's outcome and, when proved, its strategy and certificate."""

    claim: Claim
    root: str | None
    outcome: Outcome
    tree: ProofTree | None
    certificate: StrategyCertificate | None
    seconds: float  # search and traversal
    core: str = "python"  # which df-pn searched: "python" (solver/search/pns.py) or "native" (solver/search/native.py)

    @property
    def text(self) -> str | None:
        """The certificate file's exact text, if proved."""
        return None if self.certificate is None else certificate_text(self.certificate)


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
    core: Core = "auto",
) -> Attempt:
    """Search the claim from `root` (family notation; None: the start) and certify it if proved.

    `core` picks the df-pn: `native` the compiled one (CoreUnavailable if it cannot search this
    game), `python` solver/search/pns.py, `auto` the compiled one where the game has a kernel.
    """
    started = time.perf_counter()
    state = game.initial() if root is None else game.parse_position(root)
    hooks = NoHooks() if plain else game.search_hooks()
    search, used = proof_search(game, claim, hooks, progress, core, max_memory_mb)
    outcome = search.search(state, max_nodes, max_memory_mb, max_seconds)
    if outcome.status != "proved":
        return Attempt(claim, root, outcome, None, None, time.perf_counter() - started, used)
    tree, certificate, seconds = strategy_certificate(game, claim, root, state, search.proved_move, command, started, timed)
    return Attempt(claim, root, outcome, tree, certificate, seconds, used)


def proof_search(game: Game[Any, Any], claim: Claim, hooks: Any, progress: Callable[[Progress], None] | None,
                 core: Core, max_memory_mb: float | None) -> tuple[Any, str]:
    """The search `core` asks for, and its name; the compiled one is imported only here."""
    if core != "python":
        try:
            from solver.search.native import NativeProofSearch, kernel_for, table_mb_for
        except ImportError as err:
            if core == "native":
                raise CoreUnavailable(f"--core native: the compiled df-pn is not built ({err}); run `pip install -e .`") from None
        else:
            if kernel_for(game, hooks) is not None:
                return NativeProofSearch(game, claim, hooks, progress, table_mb=table_mb_for(max_memory_mb)), "native"
            if core == "native":
                raise CoreUnavailable(f"--core native: no compiled kernel searches {game.rules.name} (positional boards up to 64 cells, Ultimate tic-tac-toe with its own hooks or none)")
    return ProofSearch(game, claim, hooks, progress), "python"


def strategy_certificate(
    game: Game[Any, Any],
    claim: Claim,
    root: str | None,
    state: Any,
    choose: Callable[[Any], Any],
    command: str,
    started: float,
    timed: bool,
) -> tuple[ProofTree, StrategyCertificate, float]:
    """The certificate of a proved claim whose prover plays `choose(position)`; (tree, certificate,
    seconds since `started`). Any search that found the strategy writes the same file through here."""
    tree = canonical_strategy(game, state, claim.player, choose)
    seconds = time.perf_counter() - started
    certificate = StrategyCertificate(
        format=FORMAT,
        version=STRATEGY_VERSION,
        kind="strategy",
        rules=game.rules.canonical(),
        rules_sha256=game.rules.sha256(),
        claim=StrategyClaim(player=claim.player, result=claim.result, root=root),
        proof=Proof(traversal="dfs-preorder", positions=tree.positions, turns=len(tree.moves), moves=pack_moves(tree.moves)),
        provenance=Provenance(tool=f"certify {__version__}", command=command, elapsed_seconds=round(seconds, 3) if timed else None),
    )
    return tree, certificate, seconds


def certificate_text(certificate: StrategyCertificate) -> str:
    """The exact text of the file: sorted keys, 2-space indent, final newline (deterministic)."""
    return json.dumps(certificate.model_dump(mode="json"), sort_keys=True, indent=2) + "\n"


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


def strategy_moves(certificate: StrategyCertificate, game: Game[Any, Any]) -> dict[Any, Any]:
    """Position key → the prover's move, by replaying the canonical traversal; raises ProofFileError."""
    claim = certificate.claim
    try:
        moves = iter(unpack_moves(certificate.proof.moves, certificate.proof.turns))
        root = game.initial() if claim.root is None else game.parse_position(claim.root)
    except ValueError as err:
        raise ProofFileError(f"proof: {err}") from None
    chosen: dict[Any, Any] = {}

    def choose(state: Any) -> Any:
        legal = game.legal_moves(state)
        index = next(moves, None)
        if index is None or index >= len(legal):
            raise ProofFileError("proof: the moves do not fit the game (run `certify check`)")
        chosen[game.key(state)] = legal[index]
        return legal[index]

    canonical_strategy(game, root, claim.player, choose)
    return chosen
