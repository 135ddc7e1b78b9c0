"""Everything an audit measures about one game, computed once: solution, certificate, counts."""

from __future__ import annotations

import hashlib
import json
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
    # the checker's verdicts `certify publish` recorded, by file: (its sha256, its rules' sha256, the
    # line); from published_dir's index.json, or given by `certify publish` as it makes the index
    recorded: dict[str, tuple[str, str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.published_dir is not None:
            self.record(index_entries(self.published_dir / "index.json"))

    def record(self, entries: list[dict]) -> None:
        """Keep the verdicts of these index entries (proofs: `file`, `sha256`, `rules_sha256`, `checker`)."""
        for entry in entries:
            if all(isinstance(entry.get(key), str) for key in ("file", "sha256", "rules_sha256", "checker")):
                self.recorded[entry["file"]] = (entry["sha256"], entry["rules_sha256"], entry["checker"])

    def verdict_recorded(self, path: Path, rules_sha256: str) -> str | None:
        """The checker's line recorded for the file at `path` when it holds exactly the bytes checked
        and speaks of these rules (`certify publish` checks a file anew whenever its bytes change), else None."""
        known = self.recorded.get(path.as_posix())
        if known is None or known[1] != rules_sha256 or not path.is_file():
            return None
        return known[2] if hashlib.sha256(path.read_bytes()).hexdigest() == known[0] else None

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


def index_entries(index: Path) -> list[dict]:
    """The proof entries (`proofs`, `pairing_proofs`) of a certificates/index.json; none if unreadable."""
    try:
        data = json.loads(index.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(data, dict):
        return []
    return [entry for key in ("proofs", "pairing_proofs") if isinstance(data.get(key), list)
            for entry in data[key] if isinstance(entry, dict)]
