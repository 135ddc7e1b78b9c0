"""Claims about counts: states, boards, edges, games, symmetry classes, paths and predecessors.

A claim names the quantity (or several, when the source's words admit several readings) from
`QUANTITIES`; each is computed from the solved game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from pydantic import Field, field_validator, model_validator

from certify.claims.base import ClaimBase, PositionFields, describe, parse_moves, play
from certify.claims.facts import Bench, GameFacts
from certify.claims.result import ClaimError, Reading, single
from certify.claims.symmetry import edges_up_to_symmetry, games_up_to_symmetry
from solver.search.analysis import predecessors, symmetry_classes


@dataclass(frozen=True)
class Quantity:
    """A countable property of a solved game; `needs_board` when it is about one position."""

    text: str
    count: Callable[[GameFacts, int | None], int]
    needs_board: bool = False


def _board_count(facts: GameFacts) -> int:
    return 3**facts.rules.cells


def _swap_only_if_symmetric(facts: GameFacts) -> None:
    if facts.rules.marks == "own":
        raise ClaimError(f"swapping X and O is not a symmetry of {facts.rules.name} (each player owns a mark)")


def _paths_to(facts: GameFacts, code: int | None) -> int:
    try:
        return int(facts.paths[facts.solution.index(code)])
    except KeyError:
        return 0


def _swapped(count: Callable[[GameFacts], int]) -> Callable[[GameFacts, int | None], int]:
    def guarded(facts: GameFacts, _: int | None) -> int:
        _swap_only_if_symmetric(facts)
        return count(facts)

    return guarded


QUANTITIES: dict[str, Quantity] = {
    "boards": Quantity("boards: every way to fill each cell with X, O or nothing", lambda f, _: _board_count(f)),
    "reachable_states": Quantity("states reachable from the empty board, empty board included", lambda f, _: len(f.solution)),
    "reachable_states_without_empty": Quantity("states reachable by at least one move (empty board excluded)", lambda f, _: len(f.solution) - 1),
    "unreachable_boards": Quantity("boards no legal play reaches (the empty board counts as reached)", lambda f, _: _board_count(f) - len(f.solution)),
    "boards_not_reached_by_a_move": Quantity("boards no move leads to (the empty board counted among them)", lambda f, _: _board_count(f) - len(f.solution) + 1),
    "terminal_states": Quantity("reachable states where play has ended", lambda f, _: int(f.solution.terminal.sum())),
    "terminal_states.first_player_wins": Quantity("reachable final states won by the first player", lambda f, _: f.stats.terminal_states["first_player_wins"]),
    "terminal_states.second_player_wins": Quantity("reachable final states won by the second player", lambda f, _: f.stats.terminal_states["second_player_wins"]),
    "terminal_states.draws": Quantity("reachable final states that are draws", lambda f, _: f.stats.terminal_states["draws"]),
    "nonterminal_states": Quantity("reachable states where play goes on", lambda f, _: f.stats.nonterminal_states),
    "edges": Quantity("moves: (state, legal move) pairs over all reachable states", lambda f, _: f.stats.edges),
    "edges_up_to_symmetry": Quantity("moves up to the board's symmetries", lambda f, _: edges_up_to_symmetry(f.solution, False)),
    "edges_up_to_symmetry_and_mark_swap": Quantity("moves up to the board's symmetries and swapping X with O", _swapped(lambda f: edges_up_to_symmetry(f.solution, True))),
    "games": Quantity("complete games: move sequences from the empty board to an end", lambda f, _: sum(f.stats.games.values())),
    "games.first_player_wins": Quantity("complete games the first player wins", lambda f, _: f.stats.games["first_player_wins"]),
    "games.second_player_wins": Quantity("complete games the second player wins", lambda f, _: f.stats.games["second_player_wins"]),
    "games.draws": Quantity("complete games that are draws", lambda f, _: f.stats.games["draws"]),
    "games_up_to_symmetry": Quantity("complete games up to the board's symmetries", lambda f, _: games_up_to_symmetry(f.solution, False)),
    "games_up_to_symmetry_and_mark_swap": Quantity("complete games up to the board's symmetries and swapping X with O", _swapped(lambda f: games_up_to_symmetry(f.solution, True))),
    "states_up_to_symmetry": Quantity("reachable states up to the board's symmetries", lambda f, _: symmetry_classes(f.solution, swap_marks=False)),
    "states_up_to_symmetry_and_mark_swap": Quantity("reachable states up to the board's symmetries and swapping X with O", _swapped(lambda f: symmetry_classes(f.solution, swap_marks=True))),
    "paths_to_board": Quantity("move sequences from the empty board that reach the board", _paths_to, needs_board=True),
    "predecessors_of_board": Quantity("reachable states with a legal move to the board", lambda f, code: len(predecessors(f.solution, code)), needs_board=True),
}

QuantityName = Literal[tuple(QUANTITIES)]  # type: ignore[valid-type]


class _Measured(PositionFields, ClaimBase):
    """Shared by the kinds that measure one or more quantities (each a reading)."""

    cell_fields = ("moves",)
    quantity: list[QuantityName] = Field(min_length=1)  # type: ignore[valid-type]

    @field_validator("quantity", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return [value] if isinstance(value, str) else value

    @model_validator(mode="after")
    def _board_given(self) -> _Measured:
        needs = [q for q in self.quantity if QUANTITIES[q].needs_board]
        if needs and self.board is None and self.moves is None:
            raise ValueError(f"quantity '{needs[0]}' needs 'board' or 'moves'")
        return self

    def measure(self, facts: GameFacts) -> list[tuple[str, int]]:
        """(description, value) of each quantity read."""
        code = self.position(facts.game) if (self.board is not None or self.moves is not None) else None
        suffix = "" if code is None else f" [{describe(facts.game, code)}]"
        return [(QUANTITIES[q].text + suffix, QUANTITIES[q].count(facts, code)) for q in self.quantity]


class Count(_Measured):
    """A number the source states; every listed quantity is one way to read its words."""

    kind: Literal["count"]
    value: int = Field(ge=0)

    def says(self) -> str:
        return f"{self.value:,}"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        return [Reading(text, f"{n:,}", n == self.value, _gap(n, self.value)) for text, n in self.measure(facts)]


class UpperBound(_Measured):
    """The source says a quantity is at most `bound`."""

    kind: Literal["upper_bound"]
    bound: int = Field(ge=0)

    def says(self) -> str:
        return f"at most {self.bound:,}"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        return [
            Reading(text, f"{n:,}", n <= self.bound, "" if n <= self.bound else f"exceeds the bound by {n - self.bound:,} ({n / self.bound:.1f}×)")
            for text, n in self.measure(facts)
        ]


class Ratio(_Measured):
    """The source states quantity / denominator ≈ value (within `tolerance`, its rounding).

    `denominator` is one quantity (or number) for every listed quantity, or a list pairing one
    denominator with each quantity (a reading that counts other things counts both in its way).
    """

    kind: Literal["ratio"]
    denominator: QuantityName | int | list[QuantityName | int]  # type: ignore[valid-type]
    value: float
    tolerance: float = Field(gt=0)

    @model_validator(mode="after")
    def _paired(self) -> Ratio:
        if isinstance(self.denominator, list) and len(self.denominator) != len(self.quantity):
            raise ValueError("a list of denominators needs one per quantity")
        return self

    def says(self) -> str:
        return f"{self.value:g} (±{self.tolerance:g})"

    def _below(self, denominator: str | int, facts: GameFacts) -> tuple[int, str]:
        if isinstance(denominator, int):
            return denominator, f"{denominator:,}"
        below = QUANTITIES[denominator].count(facts, None)
        return below, f"{below:,} {QUANTITIES[denominator].text}"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        measured = self.measure(facts)
        denominators = self.denominator if isinstance(self.denominator, list) else [self.denominator] * len(measured)
        readings = []
        for (text, n), denominator in zip(measured, denominators):
            below, below_text = self._below(denominator, facts)
            if below == 0:
                raise ClaimError("the denominator is zero")
            ratio = n / below
            readings.append(
                Reading(f"{text} / {below_text}", f"{n:,} / {below:,} = {ratio:.6g}", abs(ratio - self.value) <= self.tolerance, "")
            )
        return readings


class MoveBetween(ClaimBase):
    """A move leads from one reachable state to another (e.g. a named predecessor of a board)."""

    kind: Literal["move_between"]
    cell_fields = ("move",)
    parent: int = Field(ge=0)
    move: str
    child: int = Field(ge=0)

    def says(self) -> str:
        return f"{self.parent} --{self.move}--> {self.child}"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        game = facts.game
        moves = parse_moves(self.move)
        if len(moves) != 1:
            raise ClaimError(f"move '{self.move}': expected exactly one move")
        try:
            facts.solution.index(self.parent)
        except KeyError:
            return single("a legal move between reachable states", f"{describe(game, self.parent)} is not reachable", False)
        try:
            reached = play(game, moves, start=self.parent)
        except ClaimError as err:
            return single("a legal move between reachable states", str(err), False)
        return single(
            "a legal move between reachable states",
            f"{moves[0]} from {self.parent} gives {describe(game, reached)}",
            reached == self.child,
            "" if reached == self.child else f"it gives {reached}, not {self.child}",
        )


def _gap(measured: int, stated: int) -> str:
    return "" if measured == stated else f"off by {measured - stated:+,}"

