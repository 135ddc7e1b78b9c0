"""Pairing certificates (kind `pairing`): a found pairing written as a file the checker verifies.

docs/certificate-format.md states the fields and the condition checker/pairing.py verifies.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import checker
from certify.files import file_stem
from certify.version import __version__
from certify.record.format import FORMAT
from certify.proving.single import certificate_text
from certify.record.schema import PairingCertificate, PairingClaim, PairingSpec, Provenance
from certify.smt.cover import Cover, Position, search
from certify.smt.pairing import Pairing
from solver.games.positional.engine import Game
from solver.games.positional.rules import Rules

PAIRING_VERSION = 2
LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"  # a pairing of 64 cells has at most 32 pairs


def pairing_certificate(rules: Rules, player: int, root: str | None, pairing: Pairing, first_move: int | None,
                        command: str) -> PairingCertificate:
    """The certificate that `player` does not lose from `root` (None: the start) by `pairing`.

    Pairs are written smaller cell first, in ascending order, so one pairing has one file.
    """
    pairs = sorted((min(pair), max(pair)) for pair in pairing.pairs)
    return PairingCertificate(
        format=FORMAT,
        version=PAIRING_VERSION,
        kind="pairing",
        rules=rules.canonical(),
        rules_sha256=rules.sha256(),
        claim=PairingClaim(player=player, result="no-loss", root=root),  # type: ignore[arg-type]
        pairing=PairingSpec(first_move=first_move, pairs=pairs),
        provenance=Provenance(tool=f"certify {__version__}", command=command, elapsed_seconds=None),
    )


@dataclass(frozen=True)
class PairingSearch:
    """A pairing search and, when it found one, the certificate and the independent checker's verdict."""

    rules: Rules
    player: int
    root: str | None
    cover: Cover
    certificate: PairingCertificate | None
    verdict: str | None

    @property
    def text(self) -> str | None:
        """The certificate file's exact text, if found."""
        return None if self.certificate is None else certificate_text(self.certificate)

    def drawing(self) -> str:
        """The board, each pair's two cells marked by one letter, the first move by `*`, the position's
        marks as X and O, the other cells `.`; "" if none found."""
        pairing, first_move = self.cover.pairing, self.cover.first_move
        if pairing is None:
            return ""
        board = root_position(self.rules, self.player, self.root).board
        marks = [" XO"[mark] if mark else "." for mark in board]
        for label, pair in zip(LABELS, sorted(tuple(sorted(p)) for p in pairing.pairs)):
            for cell in pair:
                marks[cell] = label
        if first_move is not None:
            marks[first_move] = "*"
        cols = self.rules.cols
        return "\n".join(" ".join(marks[row * cols:(row + 1) * cols]) for row in range(self.rules.rows))


def after_opening(rules: Rules, cell: int) -> str:
    """The position after player 1's first mark on `cell`, in the family's notation."""
    board = ["X" if each == cell else "." for each in range(rules.cells)]
    return "/".join("".join(board[row * rules.cols:(row + 1) * rules.cols]) for row in range(rules.rows))


def pairing_stem(game: str, player: int, opening: int | None = None) -> str:
    """A pairing certificate's file name without `.json`: `mnk-8-8-8.p2-pairing`, or after player 1's
    opening on cell 5, `mnk-4-4-4.p2-after-x5-pairing`."""
    after = "" if opening is None else f"-after-x{opening}"
    return f"{file_stem(game)}.p{player}{after}-pairing"


def search_command_line(game: str, player: int, root: str | None = None) -> str:
    """The `certify pairing search` command a certificate records: the same words from the CLI, the
    API and `certify publish`, so each writes the same bytes."""
    return f"certify pairing search {game} --player {player}" + ("" if root is None else f" --position '{root}'")


def root_position(rules: Rules, player: int, root: str | None) -> Position:
    """The search's start: the empty board, or `root` in the family's notation; raises ValueError."""
    if root is None:
        return Position((0,) * rules.cells, player)
    engine = Game(rules)
    return Position(engine.board(engine.parse_position(root)), player)


def search_pairing(rules: Rules, player: int, root: str | None, timeout: float, command: str) -> PairingSearch:
    """Search a pairing for `player` from `root`; when found, its certificate, checked by `checker`.

    Raises ValueError for rules a pairing proves nothing about or a bad root; RuntimeError if the
    checker refuses a certificate the search built (a bug in one of them).
    """
    cover = search(rules, root_position(rules, player, root), timeout)
    if cover.pairing is None:
        return PairingSearch(rules, player, root, cover, None, None)
    certificate = pairing_certificate(rules, player, root, cover.pairing, cover.first_move, command)
    result = checker.check_document(json.loads(certificate_text(certificate)))
    if result.exit_code != 0:
        raise RuntimeError(f"the checker refuses the pairing found: {result.message}")
    return PairingSearch(rules, player, root, cover, certificate, result.message)
