"""Claims that a player wins, or holds out, from the start of a game too large for a table,
optionally within a number of plies, each reading settled by a checked strategy certificate.

A reading names a bound in plies (a paper's "moves" may be plies or rounds: each is a reading).
It holds when a strategy certificate of exactly that claim (the reading's `certificate`, or one
the search finds) passes the independent checker (a checked no-loss proof holds within every bound
too), or when it is a bounded win and the checked certificate of the unbounded win allows no play longer
than the bound (the checker states the longest play). A claim that a player is not beaten within
a bound is refuted by a checked certificate that the other player wins whose longest play is
within it. Otherwise proof search tries it within the claim's budget: proved, it holds (the
certificate found is checked); disproved, it is refuted; out of budget, the reading is not
evaluated and says what the search reached.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

import checker
from certify.claims.base import ClaimBase
from certify.record.budget import proof_limits
from certify.claims.facts import Bench
from certify.claims.result import Reading
from certify.render.text import plural
from certify.proving.single import prove
from solver.games.families import resolve_game
from solver.search.pns import Claim
from solver.games.positional.rules import RulesError

LONGEST = re.compile(r"the longest play lasts ([\d,]+) pl")
BOUND = re.compile(r"within ([\d,]+) pl[^:]*from the start")  # a bounded claim, as the verdict states it


class BoundReading(BaseModel):
    """One reading of the claim: its name and the bound in plies (none: unbounded)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    within: int | None = Field(None, ge=1, description="plies from the start; none for no bound")
    certificate: str = Field("", description="a published certificate of exactly this reading's claim, from the repository root")


class StrategyBound(ClaimBase):
    """Player `player` wins (`win`) or is not beaten (`no-loss`) from the start, under each reading's bound."""

    solves_game: ClassVar[bool] = False

    kind: Literal["strategy_bound"]
    player: Literal[1, 2]
    result: Literal["win", "no-loss"]
    readings: list[BoundReading] = Field(min_length=1)
    certificate: str = Field("", description="a published certificate of the unbounded claim, from the repository root")
    opponent_certificate: str = Field("", description="no-loss claims: a published certificate that the other player wins")
    max_nodes: int = Field(20_000, ge=1, description="proof-search budget per reading without a certificate")

    @field_validator("game")
    @classmethod
    def _known_game(cls, game: str) -> str:
        try:
            resolve_game(game)
        except RulesError as err:
            raise ValueError(str(err)) from None
        return game

    def says(self) -> str:
        verb = "wins" if self.result == "win" else "is not beaten"
        bounds = [plural(r.within, "ply", "plies") for r in self.readings if r.within is not None]
        return f"player {self.player} {verb}" + (f" within {' / '.join(bounds)} (by reading)" if bounds else "")

    def evaluate(self, facts: Any, bench: Bench) -> list[Reading]:  # noqa: ARG002 (no table to solve)
        published, against = self.published(self.certificate, bench), self.published(self.opponent_certificate, bench)
        return [self.exact(reading, bench) or self.read(reading, published, against) for reading in self.readings]

    def verdict(self, path: Path, limits: Callable[[], checker.Limits], bench: Bench) -> str:
        """The checker's line on the file at `path`: the one `certify publish` recorded for exactly its
        bytes (certificates/index.json: a kept proof whose check takes minutes is checked anew when its
        bytes change), marked so; else the checker's now, with the budget `limits()` gives (asked
        only then: reading a large proof for its budget costs seconds)."""
        rules = resolve_game(self.game).rules.sha256()
        recorded = bench.verdict_recorded(path, rules)
        if recorded is not None:
            return f"{recorded} (as `certify publish` checked these bytes: certificates/index.json)"
        return checker.check_file(str(path), limits(), rules).message

    def exact(self, reading: BoundReading, bench: Bench) -> Reading | None:
        """The reading settled by its own published certificate (the checker's verdict must state
        exactly its claim), or None when it names none; a certificate that fails settles nothing."""
        if not reading.certificate:
            return None
        path = Path(reading.certificate)
        bound = "" if reading.within is None else f" within {reading.within} plies"
        said = f"player {self.player} {'wins' if self.result == 'win' else 'does not lose'}{bound} from the start:"
        verdict = (self.verdict(path, lambda: checker.Limits(max_states=10**9, max_work=10**13), bench)
                   if path.is_file() else f"missing: {path.as_posix()}")
        data = path.read_bytes() if path.is_file() else b""
        evidence = (f"{path.as_posix()} (sha256 {hashlib.sha256(data).hexdigest()[:16]}, {len(data):,} bytes): "
                    f"{verdict if verdict.startswith('VALID') else verdict[:400]}")
        if not verdict.startswith("VALID") or said not in verdict:
            return Reading(reading.name, f"its certificate does not settle it: {verdict[:200]}", None, evidence)
        return Reading(reading.name, f"{bound.strip() or 'no bound'}: its checked certificate proves it", True, evidence)

    def published(self, certificate: str, bench: Bench) -> tuple[str, int, int | None] | None:
        """The checker's verdict on a published certificate, its longest play and its bound (None:
        none), if it is VALID."""
        path = Path(certificate)
        if not certificate or not path.is_file():
            return None
        def limits() -> checker.Limits:  # the budget its size needs, as `certify publish` checks a kept proof
            try:
                return proof_limits(json.loads(path.read_bytes()), checker.Limits(max_states=10**9))
            except (ValueError, KeyError, TypeError):  # not a strategy proof: the checker says why
                return checker.Limits(max_states=10**9)

        verdict = self.verdict(path, limits, bench)
        found = LONGEST.search(verdict)
        if not verdict.startswith("VALID") or found is None:
            return None
        data = path.read_bytes()
        bound = BOUND.search(verdict.split(": ", 1)[1])
        return (f"{path.as_posix()} (sha256 {hashlib.sha256(data).hexdigest()[:16]}, {len(data):,} bytes): "
                f"{verdict.split(': ', 1)[1]}"), int(found.group(1).replace(",", "")), (
                    int(bound.group(1).replace(",", "")) if bound else None)

    def read(self, reading: BoundReading, published: tuple[str, int, int | None] | None,
             against: tuple[str, int, int | None] | None = None) -> Reading:
        """One reading: from a published certificate where one settles it, else by search. A no-loss
        certificate settles a bound up to its own (every bound when it has none); a win, a bound
        from its longest play on."""
        bound = "no bound" if reading.within is None else f"within {plural(reading.within, 'ply', 'plies')}"
        if self.result == "no-loss":
            settles = published is not None and (published[2] is None or (reading.within is not None and reading.within <= published[2]))
        else:
            settles = published is not None and (reading.within is None or published[1] <= reading.within)
        if settles and published is not None:
            return Reading(reading.name, f"{bound}: the checked certificate's longest play is {plural(published[1], 'ply', 'plies')}",
                           True, published[0])
        if against is not None and self.result == "no-loss" and (reading.within is None or against[1] <= reading.within):
            return Reading(reading.name, f"{bound}: refuted: the checked certificate that player {3 - self.player} wins "
                           f"ends every play by ply {against[1]:,}", False, against[0])
        game = resolve_game(self.game)
        claim = Claim(self.player, self.result, reading.within)
        attempt = prove(game, claim, max_nodes=self.max_nodes)
        outcome = attempt.outcome
        work = f"{outcome.nodes:,} nodes of df-pn"
        if attempt.text is not None:
            verdict = checker.check_bytes(attempt.text.encode()).message
            return Reading(reading.name, f"{bound}: proved by {work}; checker {verdict.split()[0]}",
                           verdict.startswith("VALID"), verdict[:300])
        if outcome.status == "disproved":
            return Reading(reading.name, f"{bound}: disproved by {work} ({claim.opposite().words()} holds)", False)
        return Reading(reading.name, f"{bound}: not settled: {outcome.status} after {work}, root proof number "
                       f"{outcome.root_pn:,}, disproof number {outcome.root_dn:,}", None)

    def extra_evidence(self, facts: Any) -> list[str]:  # noqa: ARG002
        game = resolve_game(self.game)
        return [f"rules {game.rules.describe()} (rules sha256 {game.rules.sha256()[:16]}); bounds in plies "
                f"from the empty board; certificates checked by the independent checker (now, or as `certify publish` "
                f"checked the same bytes)"]


KINDS = (StrategyBound,)
