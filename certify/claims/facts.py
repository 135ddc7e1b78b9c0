"""Everything an audit measures about one game, computed once: solution, certificate, counts."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from certify.record.format import VALUE_WORDS
from certify.pipeline import Solved, solve_and_certify
from certify.smt.result import SmtResult, bounded_check
from certify.smt.value import cross_check_root
from checker import CheckResult, check_bytes
from solver.search.analysis import Stats, path_counts, stats
from solver.games.positional.engine import Game
from solver.search.retrograde import Solution
from solver.games.positional.rules import Rules, resolve


@dataclass
class GameFacts:
    """A solved game with its certificate (re-checked by the independent checker) and counts."""

    name: str
    rules: Rules
    solved: Solved
    published_dir: Path | None = None
    smt_timeout: float = 60.0
    published_as: Path | None = None  # set by `certify publish`, which writes exactly these bytes there

    @property
    def solution(self) -> Solution:
        """The solver's labels of every reachable state."""
        return self.solved.solution

    @property
    def game(self) -> Game:
        """The engine of these rules."""
        return self.solution.game

    @cached_property
    def stats(self) -> Stats:
        """The counts of `certify stats`."""
        return stats(self.solution)

    @cached_property
    def paths(self) -> np.ndarray:
        """Move sequences from the empty board to every reachable state."""
        return path_counts(self.solution)

    @cached_property
    def sha256(self) -> str:
        """sha256 of the certificate text `certify solve` writes for this game."""
        return hashlib.sha256(self.solved.text.encode()).hexdigest()

    @cached_property
    def check(self) -> CheckResult:
        """The independent checker's verdict on the certificate."""
        return check_bytes(self.solved.text.encode())

    @cached_property
    def smt(self) -> SmtResult:
        """Z3's verdict on the solver's root value, from the minimax equations alone."""
        value = VALUE_WORDS[int(self.solution.values[0])]
        return bounded_check(f"root value {value}", self.smt_timeout, cross_check_root, self.rules, value, self.smt_timeout)

    @cached_property
    def published(self) -> Path | None:
        """The published certificate with exactly these bytes, if there is one."""
        if self.published_as is not None:
            return self.published_as
        if self.published_dir is None:
            return None
        path = self.published_dir / f"{self.name}.json"
        try:
            same = path.read_text(encoding="utf-8") == self.solved.text
        except OSError:
            return None
        return path if same else None

    def evidence(self) -> list[str]:
        """The lines that tie every measurement to a checked certificate."""
        command = self.solved.document["provenance"]["command"]  # the file's own record of what rewrites it
        lines = [f"certificate sha256 {self.sha256} ({self.check.message}); `{command} -o FILE` writes it byte for byte"]
        if self.published is not None:
            lines.append(f"identical to the published {self.published.as_posix()}")
        return lines


@dataclass
class Bench:
    """Solved games by name, each solved and checked once per audit run."""

    published_dir: Path | None = None
    smt_timeout: float = 60.0
    _games: dict[str, GameFacts] = field(default_factory=dict)

    def add(self, facts: GameFacts) -> None:
        """Use already-solved facts for their game name."""
        self._games[facts.name] = facts

    def facts(self, game: str) -> GameFacts:
        """The facts of `game` (a built-in name, mnk: string or spec path); RulesError if unknown."""
        if game not in self._games:
            rules: Rules = resolve(game)
            self._games[game] = GameFacts(
                game, rules, solve_and_certify(rules, game), self.published_dir, self.smt_timeout
            )
        return self._games[game]



