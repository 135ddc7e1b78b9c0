"""Claims about pairing strategies (seed 004): one player's pairing forces a result; a universal pairing exists.

Both are settled by Z3 model checking (certify.smt.pairing), whose counterexamples are replayed
through the engine before they are reported.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from certify.audit.base import ClaimBase
from certify.audit.facts import Bench, GameFacts
from certify.audit.result import Reading
from certify.smt.bmc import check_side
from certify.smt.pairing import Pairing, search_pairings
from certify.smt.pairing import PairingStrategy as SmtPairingStrategy
from certify.smt.result import SmtResult

PairingProperty = Literal["win", "no-loss", "no-lines"]
Pair = tuple[int, int]

_PROPERTY_TEXT = {"win": "always wins", "no-loss": "never loses (never out-scored)", "no-lines": "every play ends with no complete line"}


def _verdict(result: SmtResult, proved_means: bool) -> bool | None:
    """Whether the claim holds given Z3's status (None when Z3 gave up in time)."""
    if result.status == "unknown":
        return None
    return (result.status == "proved") == proved_means


def _play_text(result: SmtResult) -> str:
    """`X4 (opening) O0 (opponent) ...`: a counterexample play, replayed through the engine."""
    if not result.counterexample:
        return ""
    moves = " ".join(f"{'XO'[m.mark - 1]}{m.cell} ({m.role})" for m in result.counterexample)
    return f"counterexample play: {moves}"


class PairingStrategy(ClaimBase):
    """Player `player` (after `opening`, or answering `after` with `reply`) mirrors `pairs`; the result has `property`.

    "Any legal move" when the partner is taken (or the last move was unpaired) is read
    universally: every such move must keep the property.
    """

    kind: Literal["pairing_strategy"]
    cell_fields = ("opening", "after", "reply", "pairs", "unpaired")
    player: Literal[1, 2]
    opening: int | None = Field(None, ge=0)
    after: int | None = Field(None, ge=0)
    reply: int | None = Field(None, ge=0)
    pairs: list[Pair] = Field(min_length=1)
    unpaired: list[int] = []
    property: PairingProperty
    # Which opponents the claim may be read against: "any" legal play, or "tactics" — an
    # opponent that completes or blocks a line whenever it can (seed 004's A.2 assumption).
    opponents: list[Literal["any", "tactics"]] = Field(["any"], min_length=1)

    @model_validator(mode="after")
    def _well_formed(self) -> PairingStrategy:
        if self.player == 1 and (self.after is not None or self.reply is not None):
            raise ValueError("player 1 opens ('opening'); 'after'/'reply' are for player 2")
        if self.player == 2 and self.opening is not None:
            raise ValueError("player 2 does not open; use 'after' and 'reply'")
        cells = [c for pair in self.pairs for c in pair] + list(self.unpaired)
        if len(cells) != len(set(cells)) or any(c < 0 for c in cells):
            raise ValueError("pairs (and unpaired cells) must be distinct cells")
        return self

    def says(self) -> str:
        return _PROPERTY_TEXT[self.property]

    def strategy(self, tactics: bool = False) -> SmtPairingStrategy:
        """The strategy as the model checker states it (against a tactical opponent if `tactics`)."""
        opening = self.opening if self.player == 1 else self.after
        return SmtPairingStrategy(self.player, Pairing(tuple(self.pairs)), opening, self.reply, tactics=tactics)

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        readings = []
        for opponent in self.opponents:
            strategy = self.strategy(tactics=opponent == "tactics")
            result = check_side(facts.rules, strategy, self.property, bench.smt_timeout)
            against = "against every opponent play" if opponent == "any" else "against that opponent"
            readings.append(
                Reading(
                    f"{strategy.describe()}, every arbitrary choice, {against}",
                    f"Z3: {result.status}",
                    _verdict(result, True),
                    _play_text(result),
                )
            )
        return readings


class UniversalPairing(ClaimBase):
    """Whether one pairing serves both roles as a reply strategy keeping `property` (`exists` is the source's answer).

    Player 1 may open where it likes; player 2 answers every opening by the same pairing.
    """

    kind: Literal["universal_pairing"]
    exists: bool
    property: PairingProperty = "no-loss"

    def says(self) -> str:
        return "such a pairing exists" if self.exists else "no such pairing exists"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        outcome = search_pairings(facts.rules, "both", self.property, timeout=bench.smt_timeout)
        result = outcome.result
        if outcome.found is not None:
            found = outcome.found
            measured = f"pairing {found.pairing.text()} (player 1 opening {found.opening}) serves both roles"
        elif result.status == "refuted":
            checked = result.details.get("pairings_enumerated")
            measured = f"no pairing serves both roles ({len(outcome.refutations)} replayed counterexample plays rule out all {checked} maximal pairings)"
        else:
            measured = "Z3 gave up within the time limit"
        return [
            Reading(
                f"one pairing that {_PROPERTY_TEXT[self.property]} for player 1 (opening of its choice) and for player 2 (against every opening)",
                measured,
                _verdict(result, self.exists),
            )
        ]
