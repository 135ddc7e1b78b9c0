"""Claims about pairing strategies (seed 004): one player's pairing forces a result; a universal pairing exists.

Settled by Z3 model checking (certify.smt.pairing), whose counterexamples are replayed through
the engine before they are reported, and, for the universal pairing, also by solving the game
under each pairing in turn without Z3 (`first_serving_pairing`).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from certify.claims.base import ClaimBase
from certify.claims.facts import Bench, GameFacts
from certify.claims.result import Reading
from certify.smt.bmc import check_side
from certify.papers.td import player1_results
from certify.smt.pairing import Pairing, SearchOutcome, maximal_pairings, search_pairings
from certify.smt.pairing import PairingStrategy as SmtPairingStrategy
from certify.smt.result import SmtResult, bounded_check
from solver.search.retrograde import Solution

PairingProperty = Literal["win", "no-loss", "draw", "no-lines"]
Pair = tuple[int, int]

_PROPERTY_TEXT = {
    "win": "always wins",
    "no-loss": "never loses (never out-scored)",
    "draw": "always ends in an exact draw (equal line counts)",
    "no-lines": "every play ends with no complete line",
}


def _verdict(result: SmtResult, proved_means: bool) -> bool | None:
    """Whether the claim holds given Z3's status (None when Z3 gave up in time)."""
    if result.status == "unknown":
        return None
    return (result.status == "proved") == proved_means


def _play_text(result: SmtResult, one_based: bool) -> str:
    """`X4 (opening) O0 (opponent) ...`: a counterexample play, replayed through the engine."""
    if not result.counterexample:
        return ""
    shift = 1 if one_based else 0
    moves = " ".join(f"{'XO'[m.mark - 1]}{m.cell + shift} ({m.role})" for m in result.counterexample)
    ending = result.details.get("replay")
    return f"counterexample play{' (cells 1-based)' if one_based else ''}: {moves}" + (f"; replayed: {ending}" if ending else "")


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
    property: PairingProperty | list[PairingProperty]  # several: one reading each (× opponents)
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

    @property
    def properties(self) -> list[PairingProperty]:
        """The properties claimed, one reading each."""
        return list(self.property) if isinstance(self.property, list) else [self.property]

    def says(self) -> str:
        return " / ".join(_PROPERTY_TEXT[p] for p in self.properties)

    def strategy(self, tactics: bool = False) -> SmtPairingStrategy:
        """The strategy as the model checker states it (against a tactical opponent if `tactics`)."""
        opening = self.opening if self.player == 1 else self.after
        return SmtPairingStrategy(self.player, Pairing(tuple(self.pairs)), opening, self.reply, self.one_based, tactics)

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        readings = []
        for prop in self.properties:
            for opponent in self.opponents:
                readings.append(self._check(facts, bench, prop, opponent))
        return readings

    def _check(self, facts: GameFacts, bench: Bench, prop: PairingProperty, opponent: str) -> Reading:
        strategy = self.strategy(tactics=opponent == "tactics")
        result = bounded_check(strategy.describe(), bench.smt_timeout, check_side, facts.rules, strategy, prop,
                               bench.smt_timeout)
        against = "against every opponent play" if opponent == "any" else "against that opponent"
        what = f": {_PROPERTY_TEXT[prop]}" if len(self.properties) > 1 else ""
        return Reading(
            f"{strategy.describe()}, every arbitrary choice, {against}{what}",
            f"Z3: {result.status}",
            _verdict(result, True),
            _play_text(result, self.one_based),
        )


FreeMoves = Literal["every", "some"]


class PairingReading(BaseModel):
    """One reading of "a pairing that serves as a draw-forcing reply strategy for both roles".

    `property`: what draw-forcing means (never out-scored, or an exact draw every play);
    `free_moves`: the moves the pairing leaves open (the opening, an answer to an unpaired cell
    or to a cell whose partner is taken) — `every` such move must keep the property, or `some`
    fixed choice of them does; `opening`: player 1's opening when the reading fixes it, `"every"`
    when every opening must keep the property (the opening is the first free move), none when
    player 1 may choose it.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    property: Literal["no-loss", "draw"]
    free_moves: FreeMoves
    opening: int | Literal["every"] | None = None

    @model_validator(mode="after")
    def _opening(self) -> PairingReading:
        if isinstance(self.opening, int) and self.opening < 0:
            raise ValueError("opening must be a cell or 'every'")
        if self.opening == "every" and self.free_moves != "every":
            raise ValueError("opening = 'every' reads the opening as a free move: it needs free_moves = 'every'")
        return self

    def describe(self, one_based: bool) -> str:
        shift = 1 if one_based else 0
        opens = {None: "where it chooses", "every": "in any cell"}.get(self.opening) or f"in cell {int(self.opening) + shift}"  # type: ignore[arg-type]
        free = (
            "every free move must keep it"
            if self.free_moves == "every"
            else "some fixed choice of the free moves keeps it"
        )
        return f"one pairing that {_PROPERTY_TEXT[self.property]} for player 1 (opening {opens}) and for player 2 (against every opening); {free}"


class UniversalPairing(ClaimBase):
    """Whether one pairing serves both roles as a reply strategy (`exists` is the source's answer).

    Player 2 answers every opening by the same pairing. Readings with `free_moves = "every"` are
    settled by a Z3 search (certify.smt.pairing), those with `some` or with every opening by
    solving the game in which the pairing player must answer by the pairing whenever it applies
    (plain enumeration, no Z3).
    Either way the pairing reported is the first that works in the order of `maximal_pairings`,
    then the opening.
    """

    kind: Literal["universal_pairing"]
    cell_fields = ("reading",)
    exists: bool
    reading: list[PairingReading] = Field(min_length=1)

    def says(self) -> str:
        return "such a pairing exists" if self.exists else "no such pairing exists"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        return [self._evaluate(reading, facts, bench) for reading in self.reading]

    def _evaluate(self, reading: PairingReading, facts: GameFacts, bench: Bench) -> Reading:
        name = reading.describe(self.one_based)
        if reading.free_moves == "some" or reading.opening == "every":  # the Z3 search fixes or chooses the opening
            found = first_serving_pairing(facts.solution, reading.property, reading.free_moves, reading.opening)
            if found is None:
                measured = f"no pairing serves both roles (all {sum(1 for _ in maximal_pairings(range(facts.rules.cells))):,} maximal pairings solved)"
            else:
                opens = "any opening" if reading.opening == "every" else f"opening {found[1] + self.one_based}"
                measured = f"pairing {found[0].text(self.one_based)} (player 1 {opens}) serves both roles"
            return Reading(f"{name} [game solved under the pairing]", measured, (found is not None) == self.exists)
        outcome = bounded_check(name, bench.smt_timeout, search_pairings, facts.rules, "both", reading.property,
                                reading.opening, bench.smt_timeout)
        if isinstance(outcome, SmtResult):  # out of time or memory before the search could answer
            outcome = SearchOutcome(outcome, None, [])
        result = outcome.result
        if outcome.found is not None:
            found = outcome.found
            opening = (found.opening or 0) + self.one_based
            measured = f"pairing {found.pairing.text(self.one_based)} (player 1 opening {opening}) serves both roles"
        elif result.status == "refuted":
            measured = f"no pairing serves both roles (replayed counterexample plays rule out all {result.details.get('pairings_enumerated')} maximal pairings)"
        else:
            measured = "Z3 gave up within the time limit"
        return Reading(f"{name} [Z3 search]", measured, _verdict(result, self.exists))

    def reasons(self, facts: GameFacts, readings: list[Reading]) -> list[str]:
        out = []
        for reading in self.reading:
            if reading.free_moves != "every" or reading.opening == "every":
                continue  # solved without Z3 already
            found = first_serving_pairing(facts.solution, reading.property, "every", reading.opening)
            agreed = "none" if found is None else f"{found[0].text(self.one_based)} (opening {found[1] + self.one_based})"
            out.append(
                f"cross-check without Z3 ({reading.describe(self.one_based)}): solving the game under each pairing in turn, "
                f"the first pairing that serves both roles is {agreed}"
            )
        if self.one_based:
            out.append("cells are numbered 1..9 as in the source")
        return out


def first_serving_pairing(
    solution: Solution, claim: Literal["no-loss", "draw"], free_moves: FreeMoves, opening: int | Literal["every"] | None
) -> tuple[Pairing, int] | None:
    """The first maximal pairing (in `maximal_pairings` order) that keeps `claim` for player 1
    (with `opening`, with every opening, or the first opening that works) and for player 2 against every opening,
    with the pairing player answering by the pairing whenever its partner cell is free and
    choosing the other moves as `free_moves` says; with that opening. None if no pairing does."""
    game = solution.game
    children = solution.children(np.arange(len(solution)))
    kids = [[(int(col) // 2, int(child)) for col, child in enumerate(row) if child >= 0] for row in children]
    movers = [game.to_move(int(code)) for code in solution.codes]
    results = player1_results(solution).tolist()
    for pairing in maximal_pairings(range(solution.rules.cells)):
        partner = pairing.partner
        openings = [opening] if isinstance(opening, int) else [cell for cell, _ in kids[0]]
        def serves(o: int) -> bool:
            return _forces(kids, movers, results, partner, 1, o, claim, free_moves)

        if opening == "every":
            first = openings[0] if all(serves(o) for o in openings) else None
        else:
            first = next((o for o in openings if serves(o)), None)
        if first is not None and _forces(kids, movers, results, partner, 2, None, claim, free_moves):
            return pairing, first
    return None


def _forces(
    kids: list[list[tuple[int, int]]],
    movers: list[int],
    results: list[int],
    partner: dict[int, int],
    player: int,
    opening: int | None,
    claim: Literal["no-loss", "draw"],
    free_moves: FreeMoves,
) -> bool:
    """Whether `player`, answering by `partner` whenever the partner of the last move is free
    (opening at `opening` as player 1), keeps `claim` against every opponent play: for every
    choice of the free moves, or for some."""
    choose = all if free_moves == "every" else any
    memo: dict[tuple[int, int], bool] = {}

    def keeps(row: int, last: int) -> bool:
        if (row, last) in memo:
            return memo[row, last]
        options = kids[row]
        if not options:
            result = results[row] if player == 1 else -results[row]
            kept = result == 0 if claim == "draw" else result != -1
        elif movers[row] != player:
            kept = all(keeps(child, cell) for cell, child in options)
        elif last < 0:
            kept = all(keeps(child, cell) for cell, child in options if cell == opening)
        else:
            paired = [(cell, child) for cell, child in options if cell == partner.get(last)]
            kept = keeps(paired[0][1], paired[0][0]) if paired else choose(keeps(child, cell) for cell, child in options)
        memo[row, last] = kept
        return kept

    return keeps(0, -1)
