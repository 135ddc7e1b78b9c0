"""The fields every claim has, positions named by code or by moves, and 1-based cell input."""

from __future__ import annotations

import dataclasses
import re
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from certify.claims.facts import Bench, GameFacts
from certify.claims.result import ClaimError, Exhibit, Reading
from certify.render.text import board_line
from solver.games.positional.engine import Game, IllegalMove, Move
from solver.games.positional.engine import parse_moves as engine_parse_moves
from solver.games.positional.rules import RulesError, resolve

_CELL_KEYS = frozenset({"move", "cell", "opening", "reply", "unpaired", "pairs", "moves"})


def shift_cells(value: Any, key: str | None = None) -> Any:
    """1-based cell numbers (ints, `X5`-style move lists, nested lists/tables) → 0-based."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value - 1
    if isinstance(value, str):
        return re.sub(r"(?<=[XOxo])(\d+)", lambda m: str(int(m.group(1)) - 1), value)
    if isinstance(value, list):
        return [shift_cells(item) for item in value]
    if isinstance(value, dict):
        return {k: shift_cells(v, k) if k in _CELL_KEYS else v for k, v in value.items()}
    return value


def parse_moves(text: str) -> list[Move]:
    """`X4,O0 X8` → moves; raises ClaimError on a token that is not a mark and a cell."""
    try:
        return engine_parse_moves(text)
    except ValueError as err:
        raise ClaimError(str(err)) from None


def play(game: Game, moves: list[Move], start: int = 0) -> int:
    """The state after playing `moves` from `start`; ClaimError at the first illegal move."""
    try:
        return game.play(moves, start)
    except IllegalMove as err:
        raise ClaimError(f"{err} ({board_line(game.board(err.state), game.rules.cols)})") from None


def describe(game: Game, code: int) -> str:
    """`code 5063 (O X X / X O O / . O .)`."""
    return f"code {code} ({board_line(game.board(code), game.rules.cols)})"


class PrimaryReading(BaseModel):
    """`[claim.primary]`: the reading a careful reader takes, and the source's words that say so."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    reading: str = Field("", description="the start of the reading's name; may be left out when the kind measures one reading")
    words: str = Field(min_length=1, description="the source's own words that decide the reading, quoted")


class OtherReading(BaseModel):
    """`[[claim.other]]`: another reading, why a reader might take it, and what it is worth."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    reading: str = Field(min_length=1, description="the start of the reading's name")
    why: str = Field(min_length=1, description="why the reading is plausible (or, for a tautology, why it is true by definition)")
    tautology: bool = Field(False, description="true by definition: shown, never a verdict")
    equally: str = Field("", description="the source's sentence that supports this reading as well as the primary one: the claim is ambiguous when their verdicts differ")

    @model_validator(mode="after")
    def _tautology_alone(self) -> OtherReading:
        if self.tautology and self.equally:
            raise ValueError("a tautology cannot make a claim ambiguous: give 'tautology' or 'equally', not both")
        return self


def _matching(readings: list[Reading], start: str, field: str) -> int:
    """The index of the reading named `start`, else of the one whose name starts with it;
    ClaimError otherwise."""
    found = [i for i, r in enumerate(readings) if r.name == start] or [i for i, r in enumerate(readings) if r.name.startswith(start)]
    if len(found) != 1:
        names = "; ".join(f"'{r.name}'" for r in readings)
        how = "matches no reading" if not found else f"matches {len(found):,} readings"
        raise ClaimError(f"{field} '{start}' {how} (the readings: {names})", field.split(".")[0])
    return found[0]


class ClaimBase(BaseModel):
    """A published claim: who says it where, in their words, about which game, of which kind."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: field names that hold cell numbers (converted when `one_based`)
    cell_fields: ClassVar[tuple[str, ...]] = ()
    #: whether evaluating needs the game solved and certified as a table (GameFacts)
    solves_game: ClassVar[bool] = True

    id: str = Field(min_length=1)
    where: str = Field(min_length=1, description="section, table or figure of the source")
    statement: str = Field(min_length=1, description="the claim in the paper's own words")
    game: str = Field(min_length=1)
    one_based: bool = Field(False, description="cells in this claim are numbered from 1")
    note: str = ""
    primary: PrimaryReading | None = None
    other: list[OtherReading] = Field(default_factory=list)

    @model_validator(mode="after")
    def _readings_named_once(self) -> ClaimBase:
        named = [o.reading for o in self.other] + ([self.primary.reading] if self.primary and self.primary.reading else [])
        twice = sorted({name for name in named if named.count(name) > 1})
        if twice:
            raise ValueError(f"reading '{twice[0]}' is named twice (primary and other readings are distinct)")
        if self.other and not (self.primary and self.primary.reading):
            raise ValueError("other readings are listed but [claim.primary] does not name the primary reading")
        return self

    def choose(self, readings: list[Reading]) -> list[Reading]:
        """The readings with their roles from the claims file: the primary first, then the others
        in the file's order; ClaimError (naming the field) unless every reading is placed once."""
        if self.primary is None or not self.primary.reading:
            if len(readings) != 1:
                raise ClaimError(f"{len(readings)} readings were measured: name the primary one in [claim.primary] and the others in [[claim.other]]", "primary")
            return [dataclasses.replace(readings[0], role="primary")]
        first = _matching(readings, self.primary.reading, "primary.reading")
        chosen, placed = [dataclasses.replace(readings[first], role="primary")], {first}
        for other in self.other:
            index = _matching(readings, other.reading, "other.reading")
            placed.add(index)
            role = "tautology" if other.tautology else "alternative"
            chosen.append(dataclasses.replace(readings[index], role=role, why=other.why, equally=other.equally))
        left = [r.name for i, r in enumerate(readings) if i not in placed]
        if left:
            raise ClaimError(f"reading '{left[0]}' is neither [claim.primary] nor in [[claim.other]]", "other")
        return chosen

    @model_validator(mode="before")
    @classmethod
    def _zero_based(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("one_based") is True:
            data = {k: shift_cells(v, k) if k in cls.cell_fields else v for k, v in data.items()}
        return data

    def says(self) -> str:
        """What the source asserts, in a few words."""
        raise NotImplementedError

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        """Measure the claim under each of its readings."""
        raise NotImplementedError

    def reasons(self, facts: GameFacts, readings: list[Reading]) -> list[str]:
        """Why the readings come out as they do, beyond the numbers (e.g. the words a reading
        ignores); empty by default."""
        return []

    def exhibits(self, facts: GameFacts, bench: Bench) -> list[Exhibit]:
        """Tables to show beside the verdict; none by default."""
        return []

    def extra_evidence(self, facts: GameFacts) -> list[str]:
        """Evidence beyond the game's checked certificate (e.g. a Z3 cross-check)."""
        return []

    @field_validator("game")
    @classmethod
    def _known_game(cls, game: str) -> str:
        try:
            resolve(game)
        except RulesError as err:
            raise ValueError(str(err)) from None
        return game


class PositionFields(BaseModel):
    """A position named by its code or by the moves that reach it from the empty board."""

    board: int | None = Field(None, ge=0)
    moves: str | None = None

    @model_validator(mode="after")
    def _one_way(self) -> PositionFields:
        if self.board is not None and self.moves is not None:
            raise ValueError("give 'board' or 'moves', not both")
        return self

    def position(self, game: Game) -> int:
        """The state code named; ClaimError if it is not a board of this game."""
        if self.moves is not None:
            return play(game, parse_moves(self.moves))
        code = 0 if self.board is None else self.board
        if code >= 3**game.cells:
            raise ClaimError(f"board {code} is outside 0..{3**game.cells - 1}")
        return code
