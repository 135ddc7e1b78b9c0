"""A game with every reachable state's label, solved now or read from a checked certificate.

`show`, `tree`, `stats` and `play` read labels here, so `--cert FILE` answers from a certificate
(about the game named, checked by the independent checker first) instead of solving the game again.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from certify.cli.app import EXIT_FAILED, fail, user_errors
from certify.files import readable_file
from certify.record.format import VALUE_WORDS
from solver.search.analysis import Labels
from solver.games.positional.engine import Game, Move
from solver.games.positional.rules import Rules

if TYPE_CHECKING:
    from certify.record.certificate import LabelTable

KEY_STEP = 1024  # as the solver's: larger than twice any distance, so value (or margin) dominates


class Labelled:
    """Labels (value, plies to the end, margin for most-lines) of every reachable state, by code."""

    def __init__(self, game: Game, codes: np.ndarray, values: np.ndarray, distances: np.ndarray, margins: np.ndarray | None,
                 source: str) -> None:
        self.game, self.codes, self.values, self.distances, self.margins = game, codes, values, distances, margins
        self.source = source  # where the labels come from: "solved now" or "certificate FILE (checked)"

    def labels(self) -> Labels:
        """The labels as the solver's analysis reads them (every count of `certify stats`)."""
        return Labels(self.game.rules, self.codes, self.values, self.distances, self.margins)

    def row(self, code: int) -> int:
        """The row of a reachable state; KeyError if `code` is not reachable."""
        row = int(np.searchsorted(self.codes, code))
        if row >= len(self.codes) or int(self.codes[row]) != code:
            raise KeyError(code)
        return row

    def label(self, code: int) -> tuple[int, int, int | None]:
        """(value for the side to move, plies to the end, line margin or None)."""
        row = self.row(code)
        margin = None if self.margins is None else int(self.margins[row])
        return int(self.values[row]), int(self.distances[row]), margin

    def moves(self, code: int) -> list[tuple[Move, int]]:
        """Every legal move with its child's code, in canonical order."""
        return [(move, self.game.apply(code, move)) for move in self.game.legal_moves(code)]

    def best(self, code: int) -> tuple[Move, int]:
        """The solver's choice: best value (or margin), then fastest win / slowest loss; first in order on ties."""

        def key(child: int) -> int:
            value, distance, margin = self.label(child)
            primary = -margin if margin is not None else -value
            return primary * KEY_STEP + (-distance if -value == 1 else distance)

        return max(self.moves(code), key=lambda pair: key(pair[1]))


def labelled_game(rules: Rules, cert: Path | None, progress: object = None) -> Labelled:
    """Solve `rules` now, or read the labels of a certificate the independent checker accepts (exit 1 if not)."""
    game = Game(rules)
    if cert is None:
        from solver.search.retrograde import solve

        solution = solve(rules, progress)  # type: ignore[arg-type]
        return Labelled(game, solution.codes, solution.values, solution.distances, solution.margins, "solved now")
    table = certified_labels(rules, cert, progress)
    return Labelled(game, table.codes, table.values, table.distances, table.margins, f"certificate {cert} (checked)")


def certified_labels(rules: Rules, cert: Path, progress: object = None) -> LabelTable:
    """The labels of the certificate `cert` about `rules`, once the independent checker accepts it.

    Exits 2 with one line if the file is unreadable, not a certificate or about other rules, and 1
    with the checker's verdict if it is false. `progress`, the solver's hook, follows the check.
    """
    from certify.record.certificate import CertificateError
    from certify.policy.certified import CertificateRejected, checked_labels

    def checking(stage: str, states: int) -> None:
        progress(f"checking {cert.name}: {stage}", -1, states)  # type: ignore[operator]

    with user_errors():
        readable_file(cert, "certificate")
    try:
        return checked_labels(rules, cert, checking if progress else None)
    except CertificateRejected as err:
        raise fail(str(err), EXIT_FAILED) from None
    except CertificateError as err:
        raise fail(str(err)) from None


def value_word(value: int) -> str:
    """`win`, `draw`, `loss`."""
    return VALUE_WORDS[value]
