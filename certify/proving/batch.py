"""Batch proving: many positions, each to its own certificate in one folder, on a parallel engine.

A batch file holds one proof per line: what you would type after `certify prove`, that is GAME,
`--claim win|no-loss` and `--player 1|2`, or `--value`, and optionally `--position P`, `--plain`
and, with a claim, `--within N`, `--first-move MOVE`, `--pairings`, `--images`, `--blocks` and `--threads N` (shell quoting;
`#` starts a comment; blank lines are skipped). A line
does what `certify prove` does with the same words: a claim is certified, or its opposite when it
is refuted (a refuted first move certifies nothing: other first moves were not searched);
`--value` writes every certificate of the position's value. Each certificate is written to the
output folder under a name derived from the line's content (`name_for`), so a rerun skips every
line whose certificates are already there: an interrupted batch resumes where it stopped.
Certificates are written by the driver with atomic writes only, so a killed run never leaves a
partial file.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import re
import shlex
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, get_args

from certify.files import proof_stem, write_atomic
from solver.workers import EngineSpec, WorkerLost, die_once_for_tests
from solver.games.families import resolve_game
from solver.search.pns import Claim


class BatchError(ValueError):
    """A batch file that cannot be read; the message names the line."""


@dataclass(frozen=True)
class Item:
    """One line of a batch file: a claim (or, with `claim == "value"`, the value) of one position of one game."""

    line: int
    game: str
    position: str | None
    claim: str  # win, no-loss, or value
    player: int | None  # None for a value line
    first_move: str | None = None  # the prover's first move, fixed (`certify prove --first-move`)
    within: int | None = None  # a bounded claim (`certify prove --within N`)
    plain: bool = False  # how the search runs or writes, not what it proves: none of the five is part of the identity
    pairings: bool = False
    threads: int = 1
    images: bool = False
    blocks: bool = False

    @property
    def target(self) -> Claim:
        """The line's claim (a claim line only)."""
        assert self.player is not None, "a value line states no claim"
        return Claim(self.player, self.claim, self.within)  # type: ignore[arg-type]

    def identity(self) -> dict[str, Any]:
        """What the proof is about (the line number and how the search runs are not part of it)."""
        extra = {name: getattr(self, name) for name in ("first_move", "within") if getattr(self, name) is not None}
        return {"game": self.game, "position": self.position, "claim": self.claim, "player": self.player, **extra}

    def command(self, claim: Claim) -> str:
        """The `certify prove` command of `claim` at this line's position, as its provenance records it
        (the words `certify prove` records, in its order, so the certificate is the same byte for byte)."""
        from certify.proving.single import prove_command, prove_options

        return prove_command(self.game, claim, prove_options(self.within, self.position, self.first_move, self.plain, self.pairings,
                                                             threads=self.threads, images=self.images,
                                                             blocks=self.blocks))

    def words(self) -> str:
        """`mnk:4,4,3 at POSITION: player 1 win` or `tictactoe: value`."""
        where = f" at {self.position}" if self.position else ""
        said = "value" if self.player is None else f"player {self.player} {self.claim}"
        bound = "" if self.within is None else f" within {self.within} plies"
        opening = "" if self.first_move is None else f", {self.first_move} first"
        return f"{self.game}{where}: {said}{bound}{opening}"


class _LineParser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse would print usage and exit
        raise BatchError(message)


def _line_parser() -> argparse.ArgumentParser:
    parser = _LineParser(prog="line", add_help=False)
    parser.add_argument("game")
    parser.add_argument("--position", "-p", default=None)
    parser.add_argument("--claim", choices=("win", "no-loss"))
    parser.add_argument("--player", type=int, choices=(1, 2))
    parser.add_argument("--value", action="store_true")
    parser.add_argument("--first-move", default=None)
    parser.add_argument("--within", type=int, default=None)
    parser.add_argument("--plain", action="store_true")
    parser.add_argument("--pairings", action="store_true")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--images", action="store_true")
    parser.add_argument("--blocks", action="store_true")
    return parser


def _item(number: int, args: argparse.Namespace) -> Item:
    """The item of one parsed line; raises BatchError when the claim is not stated exactly once."""
    if args.within is not None and args.within < 1:
        raise BatchError(f"--within {args.within}: give a number of plies, 1 or more")
    if not 1 <= args.threads <= 64:
        raise BatchError(f"--threads {args.threads}: give a number of threads from 1 to 64")
    if args.value:
        if args.claim is not None or args.player is not None:
            raise BatchError("--value settles both players' claims; leave out --claim and --player")
        for given, name, why in ((args.first_move is not None, "--first-move", "fixes the first move of a claim's proof"),
                                 (args.within is not None, "--within", "bounds a claim"),
                                 (args.pairings, "--pairings", "closes a claim's branches"),
                                 (args.images, "--images", "names images in a claim's proof"),
                                 (args.blocks, "--blocks", "lists blocks in a claim's proof"),
                                 (args.threads != 1, "--threads", "runs one claim's search")):
            if given:
                raise BatchError(f"{name} {why}; leave out --value")
        return Item(number, args.game, args.position, "value", None, plain=args.plain)
    missing = [name for name in ("claim", "player") if getattr(args, name) is None]
    if missing:
        raise BatchError(f"the following arguments are required: {', '.join('--' + m for m in missing)} (or --value)")
    return Item(number, args.game, args.position, args.claim, args.player, args.first_move, args.within,
                args.plain, args.pairings, args.threads, args.images, args.blocks)


def parse_batch(text: str) -> list[Item]:
    """The items of a batch file; raises BatchError naming the first bad line."""
    parser = _line_parser()
    items = []
    for number, raw in enumerate(text.splitlines(), start=1):
        try:
            words = shlex.split(raw, comments=True)
            if not words:
                continue
            items.append(_item(number, parser.parse_args(words)))
        except (ValueError, BatchError) as err:
            raise BatchError(f"line {number}: {err}") from None
    if not items:
        raise BatchError("the batch file lists no positions")
    return items


def name_for(item: Item, claim: Claim) -> str:
    """The file name of `claim`'s certificate for this line: `certify prove`'s stem
    (`mnk-4-4-3.p1-win`, `uttt-open.p1-win-within-41`), then a hash of the game and position (and
    first move), which tells them apart."""
    start = {"game": item.game, "position": item.position} | ({"first_move": item.first_move} if item.first_move is not None else {})
    digest = hashlib.sha256(json.dumps(start, sort_keys=True).encode()).hexdigest()[:12]
    return f"{proof_stem(game_name(item.game), claim.player, claim.result, claim.within)}.{digest}.json"


@functools.lru_cache(maxsize=64)
def game_name(text: str) -> str:
    """The name of the game GAME text states (a spec file's own name; `mnk:4,4,3` itself)."""
    return resolve_game(text).rules.name


def outcomes(item: Item) -> list[tuple[Claim, ...]]:
    """The sets of claims whose certificates settle this line, the line's own answer first.

    A claim: itself, or its opposite (certified when it is refuted). A value: player 1 wins,
    player 2 wins, or both do not lose (a draw). With a first move, the claim alone: its refutation
    refutes the move, which certifies nothing.
    """
    if item.player is None:
        return [(Claim(1, "win"),), (Claim(2, "win"),), (Claim(1, "no-loss"), Claim(2, "no-loss"))]
    claim = item.target
    return [(claim,)] if item.first_move is not None else [(claim,), (claim.opposite(),)]


ItemStatus = Literal["proved", "existing", "refuted", "first move fails", "unresolved", "failed"]
ITEM_STATUSES: tuple[ItemStatus, ...] = get_args(ItemStatus)  # in the order a summary counts them


@dataclass(frozen=True)
class ItemAnswer:
    """A worker's answer for one item: the certificates it proved (claim, text) and what happened."""

    status: ItemStatus
    certificates: tuple[tuple[Claim, str], ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    note: str = ""


@dataclass(frozen=True)
class ItemResult:
    """An item's outcome in this run, with the files its certificates went to."""

    item: Item
    status: ItemStatus
    files: tuple[Path, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    note: str = ""

    def row(self) -> dict[str, Any]:
        """JSON-ready summary; `file` is the first certificate (None if none was written)."""
        return {"line": self.item.line, **self.item.identity(), "status": self.status,
                "file": str(self.files[0]) if self.files else None, "files": [str(f) for f in self.files],
                "nodes": self.nodes, "seconds": round(self.seconds, 3), "note": self.note}


@dataclass(frozen=True)
class Options:
    """What every batch worker is given once: the per-item search budgets."""

    max_nodes: int | None = None
    max_memory_mb: float | None = None
    die_once: str | None = field(default_factory=lambda: os.environ.get("CERTIFY_TEST_DIE_ONCE"))  # tests only


def start_of(item: Item) -> tuple[Any, Any]:
    """The item's game and position; raises RulesError or ValueError with one line."""
    game = resolve_game(item.game)
    return game, game.initial() if item.position is None else game.parse_position(item.position)


def prove_item(options: Options, item: Item) -> ItemAnswer:
    """Worker side: `certify prove` of one line (the serial search) and the certificates it writes.

    Each certificate is the one `certify prove` writes for the same words, byte for byte: a proved
    claim's; a refuted claim's opposite (status `refuted`); a value line's every proof of the value;
    none after a refuted first move (status `first move fails`).
    """
    from certify.proving.single import prove_claim, settle_value

    die_once_for_tests(options.die_once)
    game = resolve_game(item.game)
    if item.player is None:
        settled = settle_value(game, item.position, options.max_nodes, None, options.max_memory_mb, item.plain, command=item.command)
        nodes, seconds = settled.nodes, settled.seconds
        if settled.value is None:
            return ItemAnswer("unresolved", (), nodes, seconds, settled.searches[-1].outcome.status)
        return ItemAnswer("proved", tuple((p.claim, p.text or "") for p in settled.proofs), nodes, seconds, settled.value)
    claim = item.target
    budgets = dict(max_nodes=options.max_nodes, max_memory_mb=options.max_memory_mb, command=item.command(claim),
                   plain=item.plain, pairings=item.pairings, threads=item.threads, images=item.images,
                   blocks=item.blocks)
    attempt, opposite = prove_claim(game, claim, item.position, item.first_move, **budgets)
    if attempt.outcome.status == "proved":
        return ItemAnswer("proved", ((claim, attempt.text or ""),), attempt.outcome.nodes, attempt.seconds)
    if attempt.outcome.status == "first move fails":
        return ItemAnswer("first move fails", (), attempt.outcome.nodes, attempt.seconds,
                          f"{claim.words()} fails after {item.first_move}; the claim itself is not refuted")
    if opposite is None:
        return ItemAnswer("unresolved", (), attempt.outcome.nodes, attempt.seconds, attempt.outcome.status)
    nodes, seconds = attempt.outcome.nodes + opposite.outcome.nodes, attempt.seconds + opposite.seconds
    if opposite.outcome.status != "proved":
        return ItemAnswer("refuted", (), nodes, seconds, f"{claim.words()} is false; the opposite: {opposite.outcome.status}")
    return ItemAnswer("refuted", ((claim.opposite(), opposite.text or ""),), nodes, seconds,
                      f"{claim.words()} is false; certified: {claim.opposite().words()}")


@dataclass
class Batch:
    """A batch being run: its items, output folder and results so far."""

    items: list[Item]
    folder: Path
    results: list[ItemResult] = field(default_factory=list)

    def validate(self) -> None:
        """Resolve every line's game, position and first move now, so a bad line stops the batch
        before any work; a position and a first move are then written as `certify prove` records them."""
        from certify.proving.single import FirstMoveError, blocking_replies, image_symmetries, opening_move, require_pairings

        for number, item in enumerate(self.items):
            try:
                game, state = start_of(item)
                if item.pairings:
                    require_pairings(game)
                if item.images:
                    image_symmetries(game)
                if item.blocks:
                    blocking_replies(game, item.target.player)
                if item.position is not None:
                    item = self.items[number] = replace(item, position=game.format_position(state))
                if item.first_move is not None:
                    move = opening_move(game, item.target, state, item.first_move)
                    self.items[number] = replace(item, first_move=game.format_move(move))
            except FirstMoveError as err:
                raise BatchError(f"line {item.line}: --first-move: {err}") from None
            except ValueError as err:  # RulesError is a ValueError too
                raise BatchError(f"line {item.line}: {err}") from None

    def todo(self) -> Iterator[Item]:
        """Items whose certificates are not in the folder yet (and each item once).

        A claim line whose opposite's certificate is there was refuted before: `refuted` again.
        """
        seen = set()
        for item in self.items:
            if (key := json.dumps(item.identity(), sort_keys=True)) in seen:
                continue
            seen.add(key)
            for number, claims in enumerate(outcomes(item)):
                files = tuple(self.folder / name_for(item, claim) for claim in claims)
                if all(f.is_file() for f in files):
                    refuted = item.player is not None and number == 1
                    note = "certificate of the opposite already there" if refuted else ""
                    self.results.append(ItemResult(item, "refuted" if refuted else "existing", files, note=note))
                    break
            else:
                yield item

    def run(self, prove: ProveItem, options: Options, spec: EngineSpec, max_attempts: int = 3,
            progress: Progress | None = None) -> list[ItemResult]:
        """Prove every item still to do on `spec`'s workers; write each certificate as it arrives.

        The output folder is created if missing (its parent must exist); raises BatchError if not.
        """
        try:
            self.folder.mkdir(exist_ok=True)
        except OSError as err:
            raise BatchError(f"{self.folder}: cannot create the output folder: {err.strerror or err}") from None
        engine = spec.open(options, max_attempts)
        try:
            running: dict[int, Item] = {}
            queue = list(self.todo())
            failed = 0
            while queue or running:
                while queue and len(running) < engine.workers:
                    item = queue.pop(0)
                    running[engine.submit(prove, item)] = item
                if progress:
                    progress(len(self.results), len(running), failed)
                for handle, answer in engine.wait():
                    result = self._record(running.pop(handle), answer)
                    failed += result.status == "failed"
            if progress:
                progress(len(self.results), 0, failed)
        finally:
            engine.close()
        self.results.sort(key=lambda r: r.item.line)
        return self.results

    def _record(self, item: Item, answer: ItemAnswer | WorkerLost) -> ItemResult:
        if isinstance(answer, WorkerLost):
            result = ItemResult(item, "failed", note=answer.reason)
        else:
            files = []
            for claim, text in answer.certificates:
                files.append(self.folder / name_for(item, claim))
                write_atomic(files[-1], text)
            result = ItemResult(item, answer.status, tuple(files), answer.nodes, answer.seconds, answer.note)
        self.results.append(result)
        return result


def load_batch(path: Path, folder: Path) -> Batch:
    """Read a batch file; raises BatchError with one line if it cannot be used."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise BatchError(f"cannot read: not UTF-8 text (bad byte at offset {err.start})") from None
    except OSError as err:
        raise BatchError(f"cannot read: {err.strerror or err}") from None
    if folder.exists() and not folder.is_dir():
        raise BatchError(f"{folder}: exists and is not a folder")
    return Batch(parse_batch(text), folder)
