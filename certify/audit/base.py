"""The fields every claim has, positions named by code or by moves, and 1-based cell input."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from certify.audit.facts import Bench, GameFacts
from certify.audit.result import ClaimError, Exhibit, Reading
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
