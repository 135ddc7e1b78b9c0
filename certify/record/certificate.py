"""Certificates: build one from a solution, write it deterministically, read one back.

Format version 2, kind `table` (docs/certificate-format.md): labels and strategy moves are stored in
ascending code order of the states they are about, without the codes; `label_table` and
`strategy_moves` find those states again from the rules.
"""

from __future__ import annotations

import heapq
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from certify.version import __version__
from certify.files import FileProblem, parse_json, read_text, write_atomic
from certify.record.format import FORMAT, VALUE_WORDS, VERSION, pack, unpack
from solver.search.analysis import first_move_values
from solver.games.positional.engine import Game, IllegalMove, Move
from solver.search.retrograde import Solution, enumerate_layers, solve
from solver.games.positional.rules import Rules, make_rules
from solver.search.strategy import Strategy, root_strategies

if TYPE_CHECKING:
    import checker
    from certify.record.schema import Certificate, PairingCertificate, StrategyCertificate, StrategyTable

# Writing builds the file's JSON object directly; the pydantic schema (certify.record.schema) is imported
# only to read a file or to hand out a validated model, so `certify solve` never loads pydantic.


class CertificateError(ValueError):
    """A file that is not a well-formed certificate; the message is one line."""


def certificate_document(
    rules: Rules,
    solution: Solution | None = None,
    command: str = "",
    elapsed_seconds: float | None = None,
) -> dict[str, Any]:
    """The certificate of `rules`' root value as the file's JSON object, solving the game unless a solution is given."""
    solution = solve(rules) if solution is None else solution
    game = Game(rules)
    margins = solution.margins
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": "table",
        "rules": rules.canonical(),
        "rules_sha256": rules.sha256(),
        "claim": {
            "root_value": VALUE_WORDS[int(solution.values[0])],
            "root_margin": None if margins is None else int(margins[0]),
            "first_moves": [
                {"cell": cell, "mark": mark, "value": VALUE_WORDS[value]}
                for cell, mark, value in first_move_values(solution)
            ],
        },
        "table": {
            "states": len(solution),
            "labels": pack(label_bytes(solution.values, solution.distances), "uint8"),
            "margins": None if margins is None else pack(margins, "int8"),
        },
        "strategies": [_strategy_table(game, s) for s in root_strategies(solution)],
        "provenance": {"tool": f"certify {__version__}", "command": command, "elapsed_seconds": elapsed_seconds},
    }


def build_certificate(
    rules: Rules,
    solution: Solution | None = None,
    command: str = "",
    elapsed_seconds: float | None = None,
) -> Certificate:
    """The certificate of `rules`' root value as a schema-validated model (see `certificate_document`)."""
    from certify.record.schema import Certificate

    return Certificate.model_validate(certificate_document(rules, solution, command, elapsed_seconds))


def label_bytes(values: np.ndarray, distances: np.ndarray) -> np.ndarray:
    """The label byte of each state: 64 * (value + 1) + distance."""
    return (64 * (values.astype(np.int16) + 1) + distances).astype(np.uint8)


def _strategy_table(game: Game, strategy: Strategy) -> dict[str, Any]:
    """Pack a strategy: for each of its states (ascending codes), the byte 16 * mark + cell played."""
    placed = game.decode(strategy.children.astype(np.int64) - strategy.codes.astype(np.int64))
    cells = placed.argmax(axis=1)
    marks = placed[np.arange(len(cells)), cells]
    return {
        "player": strategy.player,
        "guarantees": strategy.guarantees,
        "entries": len(strategy),
        "moves": pack(16 * marks.astype(np.int64) + cells, "uint8"),
    }


def certificate_json(certificate: Certificate | dict[str, Any]) -> str:
    """The exact text of the certificate file: sorted keys, 2-space indent, final newline."""
    document = certificate if isinstance(certificate, dict) else certificate.model_dump(mode="json")
    return json.dumps(document, sort_keys=True, indent=2) + "\n"


def write_certificate(certificate: Certificate | dict[str, Any], path: Path) -> None:
    """Write the certificate atomically."""
    write_atomic(path, certificate_json(certificate))


def read_certificate(path: Path) -> Certificate:
    """Read and schema-validate a certificate of kind `table`; raises CertificateError with one line."""
    certificate = read_any_certificate(path)
    if certificate.kind != "table":
        raise CertificateError(f"{path}: a certificate of kind {certificate.kind!r}, where kind 'table' is needed")
    return certificate


def read_any_certificate(path: Path) -> Certificate | StrategyCertificate | PairingCertificate:
    """Read and schema-validate a certificate of any kind; raises CertificateError with one line.

    A file that is not JSON, or JSON that is not a certify certificate, is named so in the words
    every reader uses (docs/cli.md) before the schema names a bad field.
    """
    from checker.load import MAX_CONTAINERS

    try:
        text = read_text(path, "certificate")
        if text.count("{") + text.count("[") > MAX_CONTAINERS:  # parsed, they would cost gigabytes
            raise CertificateError(f"{path}: not a certificate: more than {MAX_CONTAINERS:,} JSON objects and arrays")
        head = parse_json(path, text)
    except FileProblem as err:
        raise CertificateError(str(err)) from None
    if not isinstance(head, dict) or head.get("format") != "certify-certificate":
        raise CertificateError(f'{path}: not a certify certificate (it has no "format": "certify-certificate")')
    version, kind = head.get("version"), head.get("kind")
    if version != VERSION:
        said = "has no format version" if version is None else f"has format version {ascii(version)[:20]}"
        raise CertificateError(f"{path}: {said}; this certify reads version {VERSION} (regenerate it with `certify solve`)")
    from pydantic import ValidationError

    from certify.record.schema import Certificate, PairingCertificate, StrategyCertificate

    model = {"strategy": StrategyCertificate, "pairing": PairingCertificate}.get(kind, Certificate)
    try:
        return model.model_validate_json(text)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "document"
        raise CertificateError(
            f"{path}: not a valid certificate: {where}: {first['msg']} ({err.error_count()} {'error' if err.error_count() == 1 else 'errors'})"
        ) from None


def read_certificate_about(rules: Rules, path: Path) -> Certificate:
    """Read a certificate of kind `table` that must be about `rules` (the same rules sha256).

    Raises CertificateError with one line if it is unreadable, malformed or about other rules.
    """
    certificate = read_certificate(path)
    if certificate.rules_sha256 != rules.sha256():
        raise CertificateError(f"{path}: certificate is for '{certificate.rules.name}', not for '{rules.name}' (rules differ)")
    return certificate


def fitting_limits(rules: Rules, states: int, limits: checker.Limits | None = None) -> checker.Limits:
    """The checker's work budget raised (never lowered) to fit a table of `states` states of `rules`.

    For a game the caller named: a certificate checked against that game's rules sha256 asks for
    at most the states it declares, never more than the 3**cells codes of that game's board.
    """
    import checker

    base = checker.Limits() if limits is None else limits
    states = min(states, 3**rules.cells)
    work = (states + 2 * 3 ** (rules.cells - rules.cells // 2)) * len(rules.lines)  # as checker/table.py counts it
    return checker.Limits(max_bytes=base.max_bytes, max_states=max(base.max_states, states), max_work=max(base.max_work, work))


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


def certificate_rules(certificate: Certificate) -> Rules:
    """The rules a certificate states (as the solver's Rules)."""
    spec = certificate.rules
    return make_rules(spec.name, spec.rows, spec.cols, spec.marks, spec.goal, lines=[list(line) for line in spec.lines])


def reachable_codes(rules: Rules) -> np.ndarray:
    """Every state code reachable from the empty board, ascending: the order of a table's labels."""
    return np.sort(np.concatenate(enumerate_layers(Game(rules)))).astype(np.uint32)


def label_table(certificate: Certificate) -> LabelTable:
    """Unpack the certificate's table; raises CertificateError on a bad array."""
    table = certificate.table
    try:
        labels = unpack(table.labels, "uint8", table.states)
        margins = None if table.margins is None else unpack(table.margins, "int8", table.states)
    except ValueError as err:
        raise CertificateError(f"table: {err}") from None
    codes = reachable_codes(certificate_rules(certificate))
    if len(codes) != table.states:
        raise CertificateError(f"table: {table.states:,} labels for {len(codes):,} reachable states")
    return LabelTable(codes=codes, values=(labels // 64).astype(np.int8) - 1,
                      distances=(labels % 64).astype(np.uint8), margins=margins)


def strategy_moves(rules: Rules, strategy: StrategyTable) -> dict[int, Move]:
    """State code → move of a certificate's strategy for `rules`; raises CertificateError on a bad array.

    Replays the strategy in ascending code order (a child's code exceeds its parent's), the order its
    moves are stored in: the player plays the stored move, the opponent every legal move.
    """
    try:
        moves = unpack(strategy.moves, "uint8", strategy.entries)
    except ValueError as err:
        raise CertificateError(f"strategy: {err}") from None
    game = Game(rules)
    chosen: dict[int, Move] = {}
    frontier, seen = [game.initial()], {game.initial()}
    while frontier:
        code = heapq.heappop(frontier)
        if game.is_terminal(code):
            continue
        if game.to_move(code) == strategy.player:
            if len(chosen) == len(moves):
                raise CertificateError(f"strategy of player {strategy.player}: too few moves")
            mark, cell = divmod(int(moves[len(chosen)]), 16)
            chosen[code] = Move(cell, mark)
            try:
                children = [game.apply(code, chosen[code])]
            except IllegalMove as err:
                raise CertificateError(f"strategy of player {strategy.player}: {err}") from None
        else:
            children = [game.apply(code, move) for move in game.legal_moves(code)]
        for child in children:
            if child not in seen:
                seen.add(child)
                heapq.heappush(frontier, child)
    return chosen
