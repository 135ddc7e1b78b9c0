"""Batch proving: many positions, each to its own certificate in one folder, on a parallel engine.

A batch file holds one proof per line: what you would type after `certify prove`, that is GAME,
`--claim win|no-loss`, `--player 1|2` and optionally `--position P` (shell quoting; `#` starts a
comment; blank lines are skipped). Each line's certificate is written to the output folder
under a name derived from the line's content (`name_for`), so a rerun skips every line whose
certificate is already there: an interrupted batch resumes where it stopped. Certificates are
written by the driver with atomic writes only, so a killed run never leaves a partial file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shlex
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from certify.files import write_atomic
from solver.workers import EngineSpec, WorkerLost, die_once_for_tests
from solver.games.families import resolve_game


class BatchError(ValueError):
    """A batch file that cannot be read; the message names the line."""


@dataclass(frozen=True)
class Item:
    """One line of a batch file: a claim about one position of one game."""

    line: int
    game: str
    position: str | None
    claim: str
    player: int

    def identity(self) -> dict[str, Any]:
        """What the proof is about (the line number is not part of it)."""
        return {"game": self.game, "position": self.position, "claim": self.claim, "player": self.player}

    def command(self) -> str:
        """The `certify prove` command of this line, as its provenance records it."""
        words = [f"certify prove {self.game}", f"--claim {self.claim}", f"--player {self.player}"]
        if self.position is not None:
            words.append(f"--position '{self.position}'")
        return " ".join(words)

    def words(self) -> str:
        """`mnk:4,4,3 [position] player 1 win`."""
        where = f" at {self.position}" if self.position else ""
        return f"{self.game}{where}: player {self.player} {self.claim}"


class _LineParser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse would print usage and exit
        raise BatchError(message)


def _line_parser() -> argparse.ArgumentParser:
    parser = _LineParser(prog="line", add_help=False)
    parser.add_argument("game")
    parser.add_argument("--position", "-p", default=None)
    parser.add_argument("--claim", choices=("win", "no-loss"), required=True)
    parser.add_argument("--player", type=int, choices=(1, 2), required=True)
    return parser


def parse_batch(text: str) -> list[Item]:
    """The items of a batch file; raises BatchError naming the first bad line."""
    parser = _line_parser()
    items = []
    for number, raw in enumerate(text.splitlines(), start=1):
        try:
            words = shlex.split(raw, comments=True)
            if not words:
                continue
            args = parser.parse_args(words)
        except (ValueError, BatchError) as err:
            raise BatchError(f"line {number}: {err}") from None
        items.append(Item(number, args.game, args.position, args.claim, args.player))
    if not items:
        raise BatchError("the batch file lists no positions")
    return items


def name_for(item: Item) -> str:
    """The certificate's file name: readable, and a hash of everything the proof is about."""
    digest = hashlib.sha256(json.dumps(item.identity(), sort_keys=True).encode()).hexdigest()[:12]
    slug = re.sub(r"[^A-Za-z0-9]+", "-", item.game).strip("-")[:40] or "game"
    return f"{slug}-p{item.player}-{item.claim}-{digest}.json"


ItemStatus = Literal["proved", "refuted", "unresolved", "failed", "existing"]


@dataclass(frozen=True)
class ItemAnswer:
    """A worker's answer for one item: the certificate text if proved, else why not."""

    status: ItemStatus
    certificate: str | None = None
    nodes: int = 0
    seconds: float = 0.0
    note: str = ""


@dataclass(frozen=True)
class ItemResult:
    """An item's outcome in this run, with the file it went to."""

    item: Item
    status: ItemStatus
    file: Path
    nodes: int = 0
    seconds: float = 0.0
    note: str = ""

    def row(self) -> dict[str, Any]:
        """JSON-ready summary."""
        return {"line": self.item.line, **self.item.identity(), "status": self.status, "file": str(self.file),
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
    """Worker side: `certify prove` of one item (the serial search), and its certificate if proved.

    The certificate is the one `certify prove` writes for the same line, byte for byte.
    """
    from certify.proving.single import prove
    from solver.search.pns import Claim

    die_once_for_tests(options.die_once)
    game = resolve_game(item.game)
    claim = Claim(item.player, item.claim)  # type: ignore[arg-type]
    attempt = prove(game, claim, item.position, max_nodes=options.max_nodes, max_memory_mb=options.max_memory_mb, command=item.command())
    outcome = attempt.outcome
    if outcome.status == "proved":
        return ItemAnswer("proved", attempt.text, outcome.nodes, attempt.seconds)
    if outcome.status == "disproved":
        return ItemAnswer("refuted", None, outcome.nodes, attempt.seconds, f"{claim.words()} is false")
    return ItemAnswer("unresolved", None, outcome.nodes, attempt.seconds, outcome.status)


@dataclass
class Batch:
    """A batch being run: its items, output folder and results so far."""

    items: list[Item]
    folder: Path
    results: list[ItemResult] = field(default_factory=list)

    def validate(self) -> None:
        """Resolve every line's game and position now, so a bad line stops the batch before any work."""
        for item in self.items:
            try:
                start_of(item)
            except ValueError as err:  # RulesError is a ValueError too
                raise BatchError(f"line {item.line}: {err}") from None

    def todo(self) -> Iterator[Item]:
        """Items whose certificate is not in the folder yet (and each item once)."""
        seen = set()
        for item in self.items:
            name = name_for(item)
            if name in seen:
                continue
            seen.add(name)
            if (self.folder / name).is_file():
                self.results.append(ItemResult(item, "existing", self.folder / name))
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
        path = self.folder / name_for(item)
        if isinstance(answer, WorkerLost):
            result = ItemResult(item, "failed", path, note=answer.reason)
        else:
            if answer.status == "proved" and answer.certificate is not None:
                write_atomic(path, answer.certificate)
            result = ItemResult(item, answer.status, path, answer.nodes, answer.seconds, answer.note)
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
