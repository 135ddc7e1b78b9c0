"""The certified player: every choice read off a checked label table, never a heuristic.

In each position it keeps the value-optimal moves, among them the fastest win (or, lost, the
slowest loss), and among those the moves with the best exact expected result against an opponent
who plays uniformly at random, assuming it goes on playing this way itself. The expected result
is P(win) - P(loss), an exact `Fraction`. Margins (most-lines games) play no part in the choice.
As a `Policy` it returns every move that survives these three filters; `certify play` picks one
of them at random.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np

import checker
from certify.record.certificate import CertificateError, LabelTable, fitting_limits, label_table, read_certificate_about
from certify.pipeline import default_filename
from solver.games.positional.engine import Game, Move
from solver.search.retrograde import Solution, solve
from solver.games.positional.rules import Rules

PUBLISHED_DIR = Path("certificates")
UNREACHED = -128  # the value of a code the label table does not hold (values are -1, 0, 1)


class CertificateRejected(ValueError):
    """The independent checker found the certificate false; the message is its verdict."""


def labels_of(solution: Solution) -> LabelTable:
    """A solution's labels in the form a certificate's table decodes to."""
    return LabelTable(solution.codes, solution.values, solution.distances, solution.margins)


def published_certificate(rules: Rules) -> Path | None:
    """`certificates/<game>.json` under the working directory, if it exists."""
    path = PUBLISHED_DIR / default_filename(rules)
    return path if path.is_file() else None


def checked_labels(rules: Rules, path: Path, progress: Callable[[str, int], None] | None = None) -> LabelTable:
    """The label table of the certificate at `path`, once the independent checker accepts it.

    The checker's work budget fits `rules`, the game the caller named (a 4×4 table is over the
    default budget): the file's rules must be those, so it cannot ask for more work than that game
    has. `progress(stage, states)` follows the check. Raises CertificateError when the file is
    unreadable or about other rules, and CertificateRejected when the checker finds it false.
    """
    certificate = read_certificate_about(rules, path)
    budget = fitting_limits(rules, certificate.table.states)
    verdict = checker.check_file(str(path), budget, rules.sha256(), progress)
    if verdict.exit_code == 1:
        raise CertificateRejected(f"{path}: {verdict.message}")
    if verdict.exit_code != 0:
        raise CertificateError(f"{path}: {verdict.message}")
    return label_table(certificate)


class CertifiedPlayer:
    """A `Policy` over a label table; remembers the expected results it has worked out."""

    def __init__(self, rules: Rules, labels: LabelTable) -> None:
        self.game = Game(rules)
        # labels by code, two bytes per code of the board (86 MB at 4x4; a dict of every state took 1.2 GB)
        self._values = np.full(3**rules.cells, UNREACHED, dtype=np.int8)
        self._values[labels.codes] = labels.values
        self._distances = np.zeros(3**rules.cells, dtype=np.uint8)
        self._distances[labels.codes] = labels.distances
        self._expected: dict[tuple[int, int], Fraction] = {}

    def __call__(self, game: Game, code: int) -> tuple[Move, ...]:
        return self.choices(code)

    def _label(self, code: int) -> tuple[int, int]:
        value = int(self._values[code])
        if value == UNREACHED:
            raise KeyError(f"the label table has no state {code}")
        return value, int(self._distances[code])

    def rank(self, child: int) -> tuple[int, int]:
        """How good moving to `child` is for the mover: value, then speed of a win or delay of a loss."""
        child_value, child_distance = self._label(child)
        value, plies = -child_value, child_distance + 1
        return value, -value * plies

    def optimal(self, code: int) -> list[Move]:
        """The value-optimal moves of `code` that win fastest, or lose slowest."""
        moves = self.game.legal_moves(code)
        ranks = [self.rank(self.game.apply(code, move)) for move in moves]
        top = max(ranks)
        return [move for move, rank in zip(moves, ranks) if rank == top]

    def expected(self, code: int, player: int) -> Fraction:
        """`player`'s exact expected result from `code` against a uniformly random opponent."""
        key = (code, player)
        if key not in self._expected:
            game = self.game
            if game.is_terminal(code):
                result = Fraction(game.returns(code)[player - 1])
            elif game.to_move(code) == player:
                result = max(self.expected(game.apply(code, m), player) for m in self.optimal(code))
            else:
                moves = game.legal_moves(code)
                result = sum((self.expected(game.apply(code, m), player) for m in moves), Fraction(0)) / len(moves)
            self._expected[key] = result
        return self._expected[key]

    def choices(self, code: int) -> tuple[Move, ...]:
        """Every move the player may choose in the non-terminal state `code`."""
        player = self.game.to_move(code)
        optimal = self.optimal(code)
        scores = [self.expected(self.game.apply(code, move), player) for move in optimal]
        best = max(scores)
        return tuple(move for move, score in zip(optimal, scores) if score == best)


def certified_policy(rules: Rules, labels: LabelTable | None = None) -> CertifiedPlayer:
    """The certified player of `rules`, over `labels` or over a fresh solve."""
    return CertifiedPlayer(rules, labels_of(solve(rules)) if labels is None else labels)
