"""Claims about players: a policy never loses; a case of a player's decision tree ends as stated."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Literal

from pydantic import Field, field_validator

from certify.claims.base import ClaimBase, describe
from certify.claims.facts import Bench, GameFacts
from certify.claims.result import ClaimError, Reading
from certify.record.format import ValueWord
from certify.papers import t3dt
from certify.policy.audit import PolicyError, audit_policy
from certify.players.load import PolicySpecError, load_policy
from certify.policy.search import Algorithm, Ties, search, search_policy

_ROLE = {1: "first (player 1)", 2: "second (player 2)"}


def _one_or_many(value: object) -> object:
    return [value] if isinstance(value, (str, int)) else value


class PolicyNeverLoses(ClaimBase):
    """A policy never loses in the listed roles; each listed policy is one reading of the source's text."""

    kind: Literal["policy_never_loses"]
    policy: list[str] = Field(min_length=1)
    players: list[Literal[1, 2]] = Field(min_length=1)

    @field_validator("policy", "players", mode="before")
    @classmethod
    def _lists(cls, value: object) -> object:
        return _one_or_many(value)

    def says(self) -> str:
        return f"never loses as {' or '.join(_ROLE[p] for p in self.players)}"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        readings = []
        for name in self.policy:
            try:
                policy = load_policy(name, facts.rules)
                audits = [audit_policy(facts.rules, policy, p, name, facts.solution) for p in self.players]
            except (PolicyError, PolicySpecError) as err:
                raise ClaimError(f"policy '{name}': {err}") from None
            parts, losses = [], []
            for audit in audits:
                if audit.never_loses:
                    parts.append(f"as {_ROLE[audit.player]}: never loses ({audit.decisions:,} decisions)")
                else:
                    game = " ".join(str(m) for m in audit.losing_game or ())
                    parts.append(f"as {_ROLE[audit.player]}: can lose")
                    losses.append(f"as {_ROLE[audit.player]} it loses the game {game}")
            readings.append(Reading(f"policy '{name}'", "; ".join(parts), not losses, "; ".join(losses)))
        return readings


@cache
def _cases(reading: str) -> tuple[t3dt.CaseResult, ...]:
    return tuple(t3dt.case_results(t3dt.READINGS[reading]))


# What each reading of T3DT's text does where section 4.2 names "a corner" that should make a fork.
_POLICY_READING_WORDS = {
    "t3dt": "only a corner that makes a fork, as the text says ('such that it creates an empty V-shaped fork', "
    "'the required corner', 'forming an empty V-shaped fork')",
    "t3dt-alt": "any free corner: it ignores the text's 'such that it creates a fork'",
}
_TIES: dict[Ties, str] = {
    "first": "equally good moves broken to the first in cell-then-mark order",
    "all": "every equally good move played (a random tie-break)",
}
_SCOPES = {"every": "O plays every move", "optimal": "O plays optimally after the case's moves"}


class PolicyCase(ClaimBase):
    """One case of T3DT's section 4.2 tree (X opens on a kind of square, O answers...) ends as stated.

    `outcomes` are the results for the bot the source says occur; with `mostly`, the source only
    says that result is the most frequent one ("almost always a draw"). `opponents` are the ways
    O's later play is read: every move, and/or optimal play (only the latter when the source
    itself says "for optimal play").
    """

    kind: Literal["policy_case"]
    bot_first: str
    opponent_first: str
    opponent_second: str | None = None
    outcomes: list[ValueWord] = Field(min_length=1)
    mostly: bool = False
    policy_readings: list[str] = Field(default_factory=lambda: list(t3dt.READINGS))
    opponents: list[Literal["every", "optimal"]] = Field(["every", "optimal"], min_length=1)

    def says(self) -> str:
        words = " or ".join(self.outcomes)
        return f"mostly {words}" if self.mostly else words

    def _result(self, reading: str) -> t3dt.CaseResult:
        if reading not in t3dt.READINGS:
            raise ClaimError(f"unknown T3DT reading '{reading}' (known: {', '.join(t3dt.READINGS)})")
        for result in _cases(reading):
            case = result.case
            if (case.bot_first, case.opponent_first, case.opponent_second) == (self.bot_first, self.opponent_first, self.opponent_second):
                return result
        known = "; ".join(c.label for c in t3dt.CASES)
        raise ClaimError(f"no T3DT case {self.bot_first} / {self.opponent_first} / {self.opponent_second} (known: {known})")

    def _judge(self, games: Counter[str]) -> bool:
        present = {w for w, n in games.items() if n}
        if self.mostly:
            top = max(games.values())
            return len(self.outcomes) == 1 and games[self.outcomes[0]] == top and top > 0
        return present == set(self.outcomes)

    def _games(self, reading: str) -> dict[str, Counter[str]]:
        """Games by result for the bot, with O playing every move and O playing optimally."""
        result = self._result(reading)
        optimal: Counter[str] = Counter()
        for games in result.optimal_games.values():
            optimal.update(games)
        return {"every": Counter(result.games), "optimal": optimal}

    @staticmethod
    def _shown(games: Counter[str]) -> str:
        return " · ".join(f"{w} {n:,}" for w, n in games.items() if n) or "no games"

    def _name(self, reading: str, scope: str) -> str:
        return f"T3DT reading '{reading}', {_SCOPES[scope]} (games by result for the bot)"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        if not t3dt.is_tictactoe(facts.rules):
            raise ClaimError(f"T3DT plays tic-tac-toe, not {facts.rules.name}")
        readings = []
        for reading in self.policy_readings:
            games = self._games(reading)
            for scope in self.opponents:
                readings.append(Reading(self._name(reading, scope), self._shown(games[scope]), self._judge(games[scope])))
        return readings

    def reasons(self, facts: GameFacts, readings: list[Reading]) -> list[str]:
        out = []
        held = {p: all(r.holds for r in readings if r.name.startswith(f"T3DT reading '{p}',")) for p in self.policy_readings}
        failing = [p for p, ok in held.items() if not ok]
        if failing and len(failing) < len(held):
            words = "; ".join(f"'{p}' ({_POLICY_READING_WORDS.get(p, 'see docs/t3dt.md')})" for p in failing)
            keeping = "; ".join(f"'{p}' ({_POLICY_READING_WORDS.get(p, 'see docs/t3dt.md')})" for p, ok in held.items() if ok)
            out.append(f"the claim fails only under the T3DT reading {words}; it holds under {keeping}")
        if "every" not in self.opponents:
            every = "; ".join(f"'{p}': {self._shown(self._games(p)['every'])}" for p in self.policy_readings)
            out.append(
                "the source qualifies the result with 'for optimal play', so O's later play is read as optimal only; "
                f"against every O reply instead (not a reading of these words) the bot's games are: {every}"
            )
        return out


class FastestWin(ClaimBase):
    """Search players: those in `slower` may pick a win that is not the fastest, those in
    `fastest` always pick the fastest win (seed 002, section 3).

    Read over every position the player meets as the first and as the second player (the
    exhaustive policy audit), once with ties broken to the first best move in cell-then-mark order
    and once with every best move allowed (a random tie-break), and at the source's example
    position `board` when given.
    """

    kind: Literal["fastest_win"]
    slower: list[Algorithm] = Field(min_length=1)
    fastest: list[Algorithm] = Field(min_length=1)
    board: int | None = Field(None, ge=0)

    def says(self) -> str:
        return f"{', '.join(self.slower)} may pick a slower win; {', '.join(self.fastest)} picks the fastest"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        readings = [self._everywhere(facts, ties) for ties in _TIES]
        if self.board is not None:
            readings.append(self._at_board(facts))
        return readings

    def _everywhere(self, facts: GameFacts, ties: Ties) -> Reading:
        """Every position each player meets, its equally good moves broken by `ties`."""
        rules, solution = facts.rules, facts.solution
        parts, witnesses, ok = [], [], True
        for name in self.slower + self.fastest:
            audits = [audit_policy(rules, search_policy(rules, name, ties), p, name, solution) for p in (1, 2)]
            slow = [len(a.slow_wins) for a in audits]
            parts.append(f"{name}: a slower win in {slow[0]:,} (as first) + {slow[1]:,} (as second) states")
            ok &= (sum(slow) > 0) if name in self.slower else (sum(slow) == 0)
            flaw = next((f for a in audits for f in a.slow_wins), None)
            if flaw is not None:
                witnesses.append(f"{name} at code {flaw.code} ({flaw.board}) may play {' '.join(map(str, flaw.chosen))}; fastest {' '.join(map(str, flaw.optimal))}")
        return Reading(f"every position the player meets in {rules.name}, as first and as second player, {_TIES[ties]}", "; ".join(parts), ok, "; ".join(witnesses))

    def _at_board(self, facts: GameFacts) -> Reading:
        game, solution = facts.game, facts.solution
        code = self.board or 0
        row = solution.index(code)
        if game.is_terminal(code) or int(solution.values[row]) != 1:
            return Reading(f"the source's example position, {describe(game, code)}", "not a won position with a move to make", False)
        fastest = int(solution.distances[row])
        parts, ok = [], True
        for name in self.slower + self.fastest:
            moves = search(game, code, name).moves
            plies = [int(solution.distances[solution.index(game.apply(code, m))]) + 1 for m in moves]
            counts = ", ".join(f"{n} {'ply' if n == 1 else 'plies'}" for n in plies)
            parts.append(f"{name} plays {' '.join(map(str, moves))} (win in {counts})")
            ok &= any(p > fastest for p in plies) if name in self.slower else all(p == fastest for p in plies)
        return Reading(
            f"the source's example position, {describe(game, code)}, {'XO'[game.to_move(code) - 1]} to move",
            f"{'; '.join(parts)}; the fastest win takes {fastest} {'ply' if fastest == 1 else 'plies'}",
            ok,
        )
