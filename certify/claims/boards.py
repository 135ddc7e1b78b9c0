"""Claims about sets of boards: a legality test for wins, and a formula for sequence counts."""

from __future__ import annotations

from math import factorial
from typing import Literal

import numpy as np
from pydantic import Field

from certify.claims.base import ClaimBase, describe
from certify.claims.facts import Bench, GameFacts
from certify.claims.result import ClaimError, Reading
from solver.games.positional.engine import Game


def _line_owners(game: Game, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Whether each board has a complete X line, and a complete O line."""
    x_line = np.zeros(len(boards), dtype=bool)
    o_line = np.zeros(len(boards), dtype=bool)
    for line in game.rules.lines:
        cells = boards[:, list(line)]
        x_line |= (cells == 1).all(axis=1)
        o_line |= (cells == 2).all(axis=1)
    return x_line, o_line


def _examples(game: Game, codes: np.ndarray, limit: int = 2) -> str:
    return "; ".join(describe(game, int(c)) for c in codes[:limit])


class WinTest(ClaimBase):
    """A test "P has won" built from mark counts accepts exactly the boards where a real game ends won by P.

    The test accepts a board for P when P has a complete line, |nX - nO| <= `max_count_difference`,
    nX - nO equals `x_minus_o_when_x_wins` (P = X) or `x_minus_o_when_o_wins` (P = O), and, when
    `reject_both_lines_when_even`, not both players have a line on a board with an even number of marks.
    """

    kind: Literal["win_test"]
    max_count_difference: int = Field(1, ge=0)
    x_minus_o_when_x_wins: int = 1
    x_minus_o_when_o_wins: int = 0
    reject_both_lines_when_even: bool = True

    def says(self) -> str:
        return "accepts exactly the boards on which a real game ends with a win"

    def accepted(self, game: Game, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The boards the test accepts as a win for X, and for O."""
        x_line, o_line = _line_owners(game, boards)
        nx, no = (boards == 1).sum(axis=1), (boards == 2).sum(axis=1)
        diff = nx - no
        counts_ok = np.abs(diff) <= self.max_count_difference
        both_even = x_line & o_line & ((nx + no) % 2 == 0) if self.reject_both_lines_when_even else np.zeros(len(boards), bool)
        for_x = x_line & counts_ok & (diff == self.x_minus_o_when_x_wins) & ~both_even
        for_o = o_line & counts_ok & (diff == self.x_minus_o_when_o_wins) & ~both_even
        return for_x, for_o

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        rules, game, solution = facts.rules, facts.game, facts.solution
        if rules.marks != "own" or rules.goal != "first-line-wins":
            raise ClaimError(f"a win test needs a game where X and O own their marks and a line wins, not {rules.name}")
        codes = np.arange(3**rules.cells, dtype=np.int64)
        for_x, for_o = self.accepted(game, game.decode(codes))
        reachable = np.zeros(len(codes), dtype=bool)
        reachable[solution.codes] = True
        ended = np.zeros(len(codes), dtype=bool)
        ended[solution.codes[solution.terminal]] = True
        x_line, o_line = _line_owners(game, game.decode(codes))
        won_x, won_o = ended & x_line, ended & o_line
        readings = []
        for name, pairs in (
            ("the test for either player vs the boards where a game ends with a win", [("a win", for_x | for_o, won_x | won_o)]),
            ("the test for each player vs the boards where a game ends won by that player", [("an X win", for_x, won_x), ("an O win", for_o, won_o)]),
        ):
            parts, witnesses, exact = [], [], True
            for label, accepted, real in pairs:
                extra = np.flatnonzero(accepted & ~real)
                missed = np.flatnonzero(real & ~accepted)
                exact &= not len(extra) and not len(missed)
                parts.append(
                    f"{label}: accepts {int(accepted.sum()):,}, real {int(real.sum()):,}; "
                    f"accepted but never a real end {len(extra):,} ({int((~reachable[extra]).sum()):,} unreachable), "
                    f"real end rejected {len(missed):,}"
                )
                if len(extra):
                    witnesses.append(f"accepted as {label}, yet no game ends there: {_examples(game, extra)}")
                if len(missed):
                    witnesses.append(f"a game ends there with {label}, yet rejected: {_examples(game, missed)}")
            readings.append(Reading(name, "; ".join(parts), exact, "; ".join(witnesses)))
        return readings


def placement_orders(game: Game) -> np.ndarray:
    """For every board code: the orders in which alternate X and O placements (X first) fill its
    cells, whether or not a line appears before the end (the game's early stop ignored).

    Counted by recursion over the last placement, not by formula: a board with nX X's and nO O's
    was last given an X when nX = nO + 1, an O when nX = nO, and cannot arise otherwise.
    """
    cells = game.rules.cells
    codes = np.arange(3**cells, dtype=np.int64)
    boards = game.decode(codes)
    nx, no = (boards == 1).sum(axis=1), (boards == 2).sum(axis=1)
    orders = np.zeros(len(codes), dtype=np.int64)
    orders[0] = 1
    for code in np.argsort(nx + no, kind="stable").tolist():
        if code == 0 or not 0 <= nx[code] - no[code] <= 1:
            continue
        last = 1 if nx[code] > no[code] else 2
        orders[code] = sum(int(orders[code - last * 3**c]) for c in range(cells) if boards[code, c] == last)
    return orders


class SequenceFormula(ClaimBase):
    """The number of move sequences reaching a board equals a formula (nX!·nO!), on every reachable board.

    Read as games (a game stops at its first line) and as placement orders (the stop ignored).
    """

    kind: Literal["sequence_formula"]
    formula: Literal["mark_count_factorials"]

    def says(self) -> str:
        return "sequences to a board = nX!·nO!"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        game, solution = facts.game, facts.solution
        boards = game.decode(solution.codes)
        nx, no = (boards == 1).sum(axis=1), (boards == 2).sum(axis=1)
        formula = np.array([factorial(a) * factorial(b) for a, b in zip(nx.tolist(), no.tolist())], dtype=np.int64)
        agrees = formula == facts.paths
        x_line, o_line = _line_owners(game, boards)
        with_line = x_line | o_line
        won = solution.terminal & with_line
        readings = []
        for name, scope in (
            ("move sequences of a game (it stops at its first line), on every reachable board", np.ones(len(solution), dtype=bool)),
            ("move sequences of a game, on the boards where a game ends with a complete line", won),
        ):
            bad = np.flatnonzero(scope & ~agrees)
            detail = (
                f"holds on {int((scope & agrees).sum()):,} of {int(scope.sum()):,}: "
                f"{int((scope & agrees & ~with_line).sum()):,} of {int((scope & ~with_line).sum()):,} boards without a complete line, "
                f"{int((scope & agrees & with_line).sum()):,} of {int((scope & with_line).sum()):,} with one"
            )
            witness = ""
            if len(bad):
                row = int(bad[0])
                witness = (
                    f"{describe(game, int(solution.codes[row]))}: nX!·nO! = {int(formula[row]):,} "
                    f"but {int(facts.paths[row]):,} sequences reach it (an earlier order would complete the line first)"
                )
            readings.append(Reading(name, detail, not len(bad), witness))
        orders = placement_orders(game)[solution.codes]
        bad = np.flatnonzero(orders != formula)
        readings.append(
            Reading(
                "placement orders: alternate X and O placements (X first) that fill the board's cells, "
                "the game's stop at its first line ignored; on every reachable board",
                f"holds on {len(solution) - len(bad):,} of {len(solution):,}",
                not len(bad),
                "" if not len(bad) else f"{describe(game, int(solution.codes[bad[0]]))}: nX!·nO! = {int(formula[bad[0]]):,} "
                f"but {int(orders[bad[0]]):,} placement orders",
            )
        )
        return readings
