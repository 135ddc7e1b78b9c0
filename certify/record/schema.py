"""The certificate format, version 2, as pydantic models that validate a file read (docs/certificate-format.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator, model_validator

from certify.record.format import ValueWord


TABLE_CELLS = 16  # the table kind's boards: at most 16 cells, any shape (docs/certificate-format.md)
PROOF_CELLS = 64  # the strategy kind's positional boards: at most 64 cells, any shape


class _Strict(BaseModel):
    # unknown keys are ignored, as the format says and the checker does; only `rules` refuses them
    model_config = ConfigDict(extra="ignore", strict=True)


class RulesSpec(_Strict):
    """The full rules, every line explicit (canonical: cells ascending, lines sorted)."""

    model_config = ConfigDict(extra="forbid", strict=True)  # an unknown key could change the game

    family: Literal["positional"]
    name: str
    rows: int = Field(ge=1, le=TABLE_CELLS)
    cols: int = Field(ge=1, le=TABLE_CELLS)
    lines: list[list[int]] = Field(min_length=1)
    marks: Literal["own", "either", "x-only"]
    goal: Literal["first-line-wins", "first-line-loses", "most-lines"]

    @model_validator(mode="after")
    def _table_sized(self) -> RulesSpec:
        if self.rows * self.cols > TABLE_CELLS:
            raise ValueError(f"the table kind covers boards of at most {TABLE_CELLS} cells, not {self.rows}x{self.cols}")
        return self


class FirstMove(_Strict):
    """A legal first move and its value for the player who makes it."""

    cell: int = Field(ge=0)
    mark: Literal[1, 2]
    value: ValueWord


class Claim(_Strict):
    """What the certificate claims about the game."""

    root_value: ValueWord
    root_margin: int | None = None
    first_moves: list[FirstMove]


class Table(_Strict):
    """The label of every reachable state, packed, in ascending code order (codes are not stored)."""

    states: int = Field(ge=1)
    labels: str  # uint8: 64 * (value + 1) + distance
    margins: str | None  # int8, most-lines only


class StrategyTable(_Strict):
    """One player's strategy: the move it plays in each of its reachable turns, in ascending code order."""

    player: Literal[1, 2]
    guarantees: Literal["win", "no-loss"]
    entries: int = Field(ge=0)
    moves: str  # uint8: 16 * mark + cell


class Provenance(_Strict):
    """Who wrote the certificate, how, and (optionally) how long it took."""

    tool: str
    command: str
    elapsed_seconds: float | None = None


class Certificate(_Strict):
    """A proof certificate of kind `table` for the value of a positional game."""

    format: Literal["certify-certificate"]
    version: Literal[2]
    kind: Literal["table"]
    rules: RulesSpec
    rules_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    claim: Claim
    table: Table
    strategies: list[StrategyTable]
    provenance: Provenance

    @field_validator("strategies")
    @classmethod
    def _one_per_player(cls, value: list[StrategyTable]) -> list[StrategyTable]:
        players = [s.player for s in value]
        if len(set(players)) != len(players):
            raise ValueError("two strategies for the same player")
        return value


class StrategyClaim(_Strict):
    """Player `player` wins (`win`) or does not lose (`no-loss`) from `root` (null: the start)."""

    player: Literal[1, 2]
    result: Literal["win", "no-loss"]
    root: str | None
    within: int | None = Field(default=None, ge=1)  # plies from the root; written only when set


class PairingSpec(_Strict):
    """The pairing player's first move (a cell, or null) and the disjoint pairs of cells it answers by."""

    first_move: int | None = Field(ge=0)
    pairs: list[tuple[int, int]]


class Proof(_Strict):
    """The prover's moves, one byte each (an index into the canonical legal moves), in traversal order."""

    traversal: Literal["dfs-preorder"]
    positions: int = Field(ge=1)  # distinct positions the traversal visits, terminals included
    turns: int = Field(ge=0)  # the prover's positions: the number of move bytes
    moves: str  # uint8 per turn, zlib, base64
    closures: int | None = Field(None, ge=0)  # positions closed by a pairing or a count (move byte 255); absent: none
    closure_bytes: int | None = Field(None, ge=0)
    pairings: str | None = None  # positional: per closure, k, then k pairs of cells; uint8, zlib, base64
    counts: str | None = None  # uttt: per closure, the opponent's fewest marks to a meta line; uint8, zlib, base64
    symmetries: list[list[int]] | None = None  # positional: the cell permutations images are named by (--images)
    image_count: int | None = Field(None, ge=0)  # positions named an image of another (move byte 253); absent: none
    images: str | None = None  # per image, in traversal order, its permutation's index; uint8, zlib, base64
    replies: Literal["blocks"] | None = None  # positional, own marks, first line wins: only blocks listed (--blocks)


class StrategyCertificate(_Strict):
    """A proof certificate of kind `strategy`: a proof tree for one claim about one player."""

    format: Literal["certify-certificate"]
    version: Literal[2]
    kind: Literal["strategy"]
    rules: dict[str, Any]  # the family's canonical rules; checked against the family when loaded
    rules_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    claim: StrategyClaim
    proof: Proof
    provenance: Provenance

    @field_validator("rules")
    @classmethod
    def _proof_sized(cls, value: dict[str, Any]) -> dict[str, Any]:
        rows, cols = value.get("rows"), value.get("cols")
        if value.get("family") == "positional" and type(rows) is int and type(cols) is int and rows * cols > PROOF_CELLS:
            raise ValueError(f"the strategy kind covers boards of up to {PROOF_CELLS} cells, not {rows}x{cols}")
        return value


class PairingClaim(_Strict):
    """Player `player` does not lose from `root` (null: the start): the one claim a pairing proves."""

    player: Literal[1, 2]
    result: Literal["no-loss"]
    root: str | None


class PairingCertificate(_Strict):
    """A proof certificate of kind `pairing`: every line open to the opponent holds both cells of a pair."""

    format: Literal["certify-certificate"]
    version: Literal[2]
    kind: Literal["pairing"]
    rules: dict[str, Any]  # the positional family's canonical rules; checked when loaded
    rules_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    claim: PairingClaim
    pairing: PairingSpec
    provenance: Provenance


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a certificate file of any kind (its `kind` field says which)."""
    either = Annotated[Certificate | StrategyCertificate | PairingCertificate, Field(discriminator="kind")]
    return TypeAdapter(either).json_schema()
