"""Certificates: build one from a solution, write it deterministically, read one back."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from pydantic import ValidationError

from certify import __version__
from certify.files import write_atomic
from certify.schema import (
    FORMAT,
    VALUE_WORDS,
    VERSION,
    Certificate,
    Claim,
    FirstMove,
    Provenance,
    StrategyTable,
    Table,
    pack,
    unpack,
)
from solver.analysis import first_move_values
from solver.engine import Game
from solver.retrograde import Solution, solve
from solver.rules import Rules
from solver.strategy import Strategy, root_strategies


class CertificateError(ValueError):
    """A file that is not a well-formed certificate; the message is one line."""


def build_certificate(
    rules: Rules,
    solution: Solution | None = None,
    command: str = "",
    elapsed_seconds: float | None = None,
) -> Certificate:
    """The certificate of `rules`' root value, solving the game unless a solution is given."""
    solution = solve(rules) if solution is None else solution
    game = Game(rules)
    first_moves = [
        FirstMove(cell=cell, mark=mark, value=VALUE_WORDS[value])
        for cell, mark, value in first_move_values(solution)
    ]
    margins = solution.margins
    return Certificate(
        format=FORMAT,
        version=VERSION,
        rules=rules.canonical(),
        rules_sha256=rules.sha256(),
        claim=Claim(
            root_value=VALUE_WORDS[int(solution.values[0])],
            root_margin=None if margins is None else int(margins[0]),
            first_moves=first_moves,
        ),
        table=Table(
            states=len(solution),
            codes=pack(solution.codes, "uint32"),
            values=pack(solution.values, "int8"),
            distances=pack(solution.distances, "uint8"),
            margins=None if margins is None else pack(margins, "int8"),
        ),
        strategies=[_strategy_table(game, s) for s in root_strategies(solution)],
        provenance=Provenance(
            tool=f"certify {__version__}", command=command, elapsed_seconds=elapsed_seconds
        ),
    )


def _strategy_table(game: Game, strategy: Strategy) -> StrategyTable:
    """Pack a strategy, turning each (state, child) pair into the cell and mark played."""
    placed = game.decode(strategy.children.astype(np.int64) - strategy.codes.astype(np.int64))
    cells = placed.argmax(axis=1)
    marks = placed[np.arange(len(cells)), cells]
    return StrategyTable(
        player=strategy.player,
        guarantees=strategy.guarantees,
        entries=len(strategy),
        codes=pack(strategy.codes, "uint32"),
        cells=pack(cells, "uint8"),
        marks=pack(marks, "uint8"),
    )


def certificate_json(certificate: Certificate) -> str:
    """The exact text of the certificate file: sorted keys, 2-space indent, final newline."""
    return json.dumps(certificate.model_dump(mode="json"), sort_keys=True, indent=2) + "\n"


def write_certificate(certificate: Certificate, path: Path) -> None:
    """Write the certificate atomically."""
    write_atomic(path, certificate_json(certificate))


def read_certificate(path: Path) -> Certificate:
    """Read and schema-validate a certificate; raises CertificateError with one line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CertificateError(f"{path}: cannot read: {err}") from None
    try:
        return Certificate.model_validate_json(text)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "document"
        raise CertificateError(
            f"{path}: not a valid certificate: {where}: {first['msg']} ({err.error_count()} {'error' if err.error_count() == 1 else 'errors'})"
        ) from None


@dataclass(frozen=True)
class LabelTable:
    """The decoded label table of a certificate."""

    codes: np.ndarray
    values: np.ndarray
    distances: np.ndarray
    margins: np.ndarray | None

    def lookup(self, code: int) -> int:
        """Row of `code`; raises KeyError if the table does not hold it."""
        row = int(np.searchsorted(self.codes, code))
        if row >= len(self.codes) or int(self.codes[row]) != code:
            raise KeyError(code)
        return row


def label_table(certificate: Certificate) -> LabelTable:
    """Unpack the certificate's table; raises CertificateError on a bad array."""
    table = certificate.table
    try:
        return LabelTable(
            codes=unpack(table.codes, "uint32", table.states),
            values=unpack(table.values, "int8", table.states),
            distances=unpack(table.distances, "uint8", table.states),
            margins=None if table.margins is None else unpack(table.margins, "int8", table.states),
        )
    except ValueError as err:
        raise CertificateError(f"table: {err}") from None
