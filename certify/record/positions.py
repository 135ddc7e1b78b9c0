"""Certified positions: a table certificate read as labels of states and values of moves.

This is the one place the explorer page and the notebook API read a certificate's label table
and strategies, so a change of the certificate format reaches them through here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from certify.record.certificate import certificate_rules, label_table, strategy_moves
from certify.record.format import VALUE_WORDS, ValueWord
from certify.record.schema import Certificate
from solver.games.positional.engine import Game, Move
from solver.games.positional.rules import Rules


@dataclass(frozen=True)
class Label:
    """A state's certified label: value for the side to move and plies to the end."""

    value: ValueWord
    distance: int
    margin: int | None = None  # line margin for the side to move (most-lines games)


@dataclass(frozen=True)
class MoveValue:
    """One legal move with its certified value for the player who makes it."""

    move: Move
    child: int  # the state code after the move
    value: ValueWord  # for the mover
    plies: int  # plies to the end of the game, this move included, under optimal play after it
    margin: int | None  # line margin for the mover (most-lines games)
    best: bool  # the best value, and among those the fastest win or the slowest loss

    def __str__(self) -> str:
        return f"{self.move} draw" if self.value == "draw" else f"{self.move} {self.value} in {self.plies}"


class CertifiedGame:
    """A game with every reachable state labelled by a table certificate."""

    def __init__(self, certificate: Certificate) -> None:
        self.certificate = certificate
        self.rules = certificate_rules(certificate)
        self.game = Game(self.rules)
        self._labels = label_table(certificate)

    @property
    def states(self) -> int:
        """Number of reachable states the certificate labels."""
        return len(self._labels.codes)

    def label(self, code: int) -> Label:
        """The label of state `code`; raises KeyError if it is not reachable."""
        row = self._labels.lookup(code)
        margins = self._labels.margins
        return Label(
            value=VALUE_WORDS[int(self._labels.values[row])],
            distance=int(self._labels.distances[row]),
            margin=None if margins is None else int(margins[row]),
        )

    def moves(self, code: int) -> list[MoveValue]:
        """Every legal move of state `code`, in the game's move order, with its value."""
        found = []
        for move in self.game.legal_moves(code):
            child = self.game.apply(code, move)
            label = self.label(child)
            found.append((move, child, label))
        keys = [self._key(label) for _, _, label in found]
        top = max(keys, default=None)
        return [
            MoveValue(
                move=move,
                child=child,
                value=VALUE_WORDS[-_signed(label.value)],
                plies=label.distance + 1,
                margin=None if label.margin is None else -label.margin,
                best=key == top,
            )
            for (move, child, label), key in zip(found, keys)
        ]

    @staticmethod
    def _key(child: Label) -> tuple[int, int, int]:
        """How good a move to `child` is for the mover: value, then margin, then speed."""
        value = -_signed(child.value)
        margin = 0 if child.margin is None else -child.margin
        speed = -child.distance if value > 0 else child.distance if value < 0 else 0
        return (value, margin, speed)

    @cached_property
    def strategies(self) -> dict[int, dict[int, Move]]:
        """Each certified strategy: player → {state code → the move it plays there}."""
        return {strategy.player: strategy_moves(self.rules, strategy) for strategy in self.certificate.strategies}

    def guarantees(self, player: int) -> str:
        """What `player`'s certified strategy guarantees: 'win' or 'no-loss'."""
        return next(s.guarantees for s in self.certificate.strategies if s.player == player)

    def label_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        """codes (ascending), values, distances and margins (or None) of every reachable state."""
        table = self._labels
        return table.codes, table.values, table.distances, table.margins


def _signed(word: str) -> int:
    return {"win": 1, "draw": 0, "loss": -1}[word]
