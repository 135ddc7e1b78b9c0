"""Solve a game and produce its certificate, with optional progress reporting."""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from certify.record.certificate import certificate_document, certificate_json
from certify.files import file_stem
from solver.search.retrograde import ProgressHook, Solution, solve
from solver.games.positional.rules import Rules

if TYPE_CHECKING:
    from certify.record.schema import Certificate


@dataclass(frozen=True)
class Solved:
    """A solved game with its certificate (the file's JSON object) and the file text."""

    rules: Rules
    solution: Solution
    document: dict[str, Any]
    text: str
    elapsed_seconds: float

    @cached_property
    def certificate(self) -> Certificate:
        """The certificate as a schema-validated model (loads pydantic: not on `certify solve`'s path)."""
        from certify.record.schema import Certificate

        return Certificate.model_validate(self.document)


def solve_command(game: str) -> str:
    """The command recorded in provenance: the one that regenerates the same file."""
    return f"certify solve {game}"


def default_filename(rules: Rules) -> str:
    """A file name from the game's name: `mnk:3,3,3` → `mnk-3-3-3.json`."""
    return f"{file_stem(rules.name)}.json"


def solve_and_certify(
    rules: Rules, game: str, timed: bool = False, progress: ProgressHook | None = None
) -> Solved:
    """Solve `rules` and build the certificate (wall time recorded only when `timed`)."""
    start = time.perf_counter()
    solution = solve(rules, progress)
    if progress is not None:
        progress("build the certificate", -1, len(solution))
    document = certificate_document(rules, solution, command=solve_command(game))
    elapsed = time.perf_counter() - start
    if timed:
        document["provenance"]["elapsed_seconds"] = round(elapsed, 4)
    return Solved(rules, solution, document, certificate_json(document), elapsed)
