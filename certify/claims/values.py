"""Claims about game values: the root, the first moves, one position, an Atlas-style dump."""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from certify.claims.base import ClaimBase, PositionFields, describe, parse_moves
from certify.claims.facts import Bench, GameFacts
from certify.claims.result import ClaimError, Exhibit, Reading, single, some
from certify.claims.symmetry import edge_orbits
from certify.record.format import VALUE_WORDS, ValueWord
from certify.render.text import plural
from solver.search.analysis import first_move_values
from solver.search.retrograde import Solution

MarkLetter = Literal["X", "O"]


def _words(value: ValueWord | list[ValueWord]) -> list[ValueWord]:
    return [value] if isinstance(value, str) else list(value)


def _move_name(cell: int, mark: int) -> str:
    return f"{'XO'[mark - 1]}{cell}"


class RootValue(ClaimBase):
    """The empty board's value for the first player is one of `value` (e.g. win, or [win, draw])."""

    kind: Literal["root_value"]
    value: ValueWord | list[ValueWord]

    def says(self) -> str:
        return " or ".join(_words(self.value))

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        measured = VALUE_WORDS[int(facts.solution.values[0])]
        margins = facts.solution.margins
        extra = "" if margins is None else f", line margin {int(margins[0]):+d}"
        return single("value of the empty board for the first player", f"{measured}{extra}", measured in _words(self.value))

    def extra_evidence(self, facts: GameFacts) -> list[str]:
        smt = facts.smt
        return [f"Z3 ({smt.check}): {smt.status}"]


class FirstMove(BaseModel):
    """One first move and the value the source gives it (for the player making it)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    cell: int = Field(ge=0)
    mark: MarkLetter | None = None
    value: ValueWord


class FirstMoves(ClaimBase):
    """Values of first moves: listed one by one, and/or how many (and how many up to symmetry) have `value`."""

    kind: Literal["first_moves"]
    cell_fields = ("moves",)
    moves: list[FirstMove] = []
    value: ValueWord | None = None
    count: int | None = Field(None, ge=0)
    classes: int | None = Field(None, ge=0)

    @model_validator(mode="after")
    def _something_asserted(self) -> FirstMoves:
        if not self.moves and self.value is None:
            raise ValueError("give 'moves' or 'value' (with 'count' and/or 'classes')")
        if (self.count is not None or self.classes is not None) and self.value is None:
            raise ValueError("'count' and 'classes' need 'value'")
        return self

    def says(self) -> str:
        parts = [f"{m.mark or ''}{m.cell} {m.value}" for m in self.moves]
        if self.value is not None:
            counted = "" if self.count is None else f"{self.count} "
            classes = "" if self.classes is None else f" ({self.classes} up to symmetry)"
            parts.append(f"{counted}first moves {self.value}{classes}")
        return "; ".join(parts)

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        measured = first_move_values(facts.solution)
        values = {(cell, mark): VALUE_WORDS[v] for cell, mark, v in measured}
        wrong = []
        for move in self.moves:
            marks = [1, 2] if move.mark is None else [1 if move.mark == "X" else 2]
            found = [(c, m) for (c, m) in values if c == move.cell and m in marks]
            if not found:
                raise ClaimError(f"first move {move.mark or ''}{move.cell} is not legal in {facts.rules.name}")
            wrong += [f"{_move_name(c, m)} is a {values[c, m]}" for c, m in found if values[c, m] != move.value]
        listed_ok = not wrong
        if self.value is None:
            shown = ", ".join(f"{_move_name(c, m)} {w}" for (c, m), w in values.items())
            return single("value of each listed first move for its player", shown, listed_ok, "; ".join(wrong))
        having = [(c, m) for (c, m), w in values.items() if w == self.value]
        others = [f"{_move_name(c, m)} is a {w}" for (c, m), w in values.items() if w != self.value]
        count_ok = self.count is None or self.count == len(having)
        head = f"{len(having)} of {len(values)} first moves are a {self.value} ({', '.join(_move_name(c, m) for c, m in having) or 'none'})"
        witness = some(wrong + (others if not count_ok else []))
        if self.classes is None:
            return single("value of each first move for its player", head, listed_ok and count_ok, witness)
        rows = np.zeros(1, dtype=np.int64)
        readings = []
        for swap in _swaps(facts):
            orbits = edge_orbits(facts.solution, rows, swap)
            wanted = {int(orbits[0, 2 * c + m - 1]) for c, m in having}
            name = "up to board symmetries" + (" and swapping X with O" if swap else "")
            readings.append(
                Reading(
                    f"first moves {name}",
                    f"{head}; {plural(len(wanted), 'class')} {name}",
                    listed_ok and count_ok and len(wanted) == self.classes,
                    witness,
                )
            )
        return readings


def _swaps(facts: GameFacts) -> tuple[bool, ...]:
    """Swapping X and O is a symmetry only when both players may place both marks (or neither owns one)."""
    return (False,) if facts.rules.marks == "own" else (False, True)


class PositionValue(PositionFields, ClaimBase):
    """The value of one position, for the side to move (or for the first player)."""

    kind: Literal["position_value"]
    cell_fields = ("moves",)
    value: ValueWord
    perspective: Literal["side_to_move", "first_player"] = "side_to_move"

    def says(self) -> str:
        return f"{self.value} for the {self.perspective.replace('_', ' ')}"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        game = facts.game
        code = self.position(game)
        try:
            row = facts.solution.index(code)
        except KeyError:
            return single("value of the position", f"{describe(game, code)} is not reachable", False)
        value = int(facts.solution.values[row])
        if self.perspective == "first_player" and game.to_move(code) == 2:
            value = -value
        word = VALUE_WORDS[value]
        return single(f"value for the {self.perspective.replace('_', ' ')}", f"{word} at {describe(game, code)}", word == self.value)


MoveProperty = Literal["move_value", "child_value", "immediate"]

_PROPERTY_TEXT: dict[str, str] = {
    "move_value": "value of the move for the player making it",
    "child_value": "value of the child for its own side to move",
    "immediate": "what the move itself ends the game with (none if play goes on)",
}


class DumpEntry(BaseModel):
    """One line of a dump: a move, the child code shown, and the word printed for it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    move: str
    child: int = Field(ge=0)
    label: str


class LabelReading(BaseModel):
    """One meaning of a dump's words: which values of a move property each word stands for."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    property: MoveProperty
    labels: dict[str, list[str]] = Field(min_length=1)


def _legal_children(solution: Solution, code: int) -> dict[str, int] | None:
    """Move name → child row of every legal move from `code`; None if `code` is not reachable."""
    try:
        row = solution.index(code)
    except KeyError:
        return None
    children = solution.children(np.array([row]))[0]
    return {_move_name(col // 2, col % 2 + 1): int(child) for col, child in enumerate(children) if child >= 0}


class AtlasDump(PositionFields, ClaimBase):
    """A printed list of a position's moves with child codes and outcome words, read several ways."""

    kind: Literal["atlas_dump"]
    cell_fields = ("moves", "entries")
    entries: list[DumpEntry] = Field(min_length=1)
    reading: list[LabelReading] = Field(min_length=1)

    @model_validator(mode="after")
    def _words_defined(self) -> AtlasDump:
        used = {e.label for e in self.entries}
        for reading in self.reading:
            missing = sorted(used - set(reading.labels))
            if missing:
                raise ValueError(f"reading '{reading.name}' does not say what '{missing[0]}' means")
        return self

    def says(self) -> str:
        return ", ".join(f"{e.move}→{e.child} {e.label}" for e in self.entries)

    def listed(self) -> dict[str, DumpEntry]:
        """The source's entries by move name."""
        listed = {}
        for entry in self.entries:
            (move,) = parse_moves(entry.move)
            listed[_move_name(move.cell, move.mark)] = entry
        return listed

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        game, solution = facts.game, facts.solution
        code = self.position(game)
        actual = _legal_children(solution, code)
        if actual is None:
            return single("dump of the position", f"{describe(game, code)} is not reachable", False)
        listed = self.listed()
        problems = [f"{name} is not a legal move" for name in listed if name not in actual]
        problems += [f"legal move {name} is missing" for name in actual if name not in listed]
        problems += [
            f"{name} leads to {int(solution.codes[actual[name]])}, not {entry.child}"
            for name, entry in listed.items()
            if name in actual and int(solution.codes[actual[name]]) != entry.child
        ]
        readings = []
        for reading in self.reading:
            shown, mismatches = [], []
            for name, entry in listed.items():
                if name not in actual:
                    continue
                observed = _property(facts, actual[name], reading.property)
                shown.append(f"{name} {observed}")
                if observed not in reading.labels[entry.label]:
                    mismatches.append(f"{name} is printed '{entry.label}' but its {reading.property.replace('_', ' ')} is {observed}")
            readings.append(
                Reading(
                    f"{reading.name} [{_PROPERTY_TEXT[reading.property]}]",
                    ", ".join(shown),
                    not problems and not mismatches,
                    some(problems + mismatches),
                )
            )
        return readings


    def exhibits(self, facts: GameFacts, bench: Bench) -> list[Exhibit]:
        """The source's dump beside certify's, move by move (certify's legal moves in its order)."""
        game, solution = facts.game, facts.solution
        code = self.position(game)
        actual = _legal_children(solution, code)
        if actual is None:
            return []
        listed = self.listed()
        rows = []
        for name in list(actual) + [n for n in listed if n not in actual]:
            entry = listed.get(name)
            child = actual.get(name)
            paper = (name, str(entry.child), entry.label) if entry else (name, "not listed", "")
            ours = (
                ("not a legal move", "", "", "")
                if child is None
                else (
                    str(int(solution.codes[child])),
                    *(_property(facts, child, prop) for prop in ("move_value", "child_value", "immediate")),
                )
            )
            same = "yes" if entry and child is not None and int(solution.codes[child]) == entry.child else "**no**"
            rows.append((*paper, *ours, same))
        return [
            Exhibit(
                f"The source's dump of {describe(game, code)} beside certify's",
                ("move", "source: child code", "source: outcome", "certify: child code", "certify: value of the move for its player",
                 "certify: value of the child for its side to move", "certify: the move ends the game with", "same child code"),
                tuple(rows),
            )
        ]


def _property(facts: GameFacts, child: int, prop: MoveProperty) -> str:
    """The word a move (given by its child's row) has for `prop`."""
    value = int(facts.solution.values[child])
    if prop == "child_value":
        return VALUE_WORDS[value]
    if prop == "move_value":
        return VALUE_WORDS[-value]
    return VALUE_WORDS[-value] if facts.solution.terminal[child] else "none"
