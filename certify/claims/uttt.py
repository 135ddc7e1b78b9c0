"""Claims about Ultimate tic-tac-toe positions (seed 003's critical squares), read against proofs.

No table solves Ultimate tic-tac-toe, so these kinds measure over positions from seeded random
play: each game is played at random until the claim's premise holds, and that position is
examined. A move the claim calls losing is confirmed when the opponent then wins at once (anyone
can replay it); otherwise proof search settles it within a node budget, and a counterexample is
a position with a strategy certificate re-checked by the independent checker.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator

import checker
from certify.render.text import plural
from certify.claims.base import ClaimBase
from certify.claims.facts import Bench
from certify.claims.result import ClaimError, Reading
from certify.proving.single import prove, prove_command
from solver.search.pns import Claim, ProofSearch
from solver.games.uttt.engine import (
    X,
    Position,
    Uttt,
    critical_cells,
    format_move,
    immediate_wins,
    play,
    poisoned_boards,
    threat_boards,
)

GAME = Uttt()


def other(player: int) -> int:
    """The opponent of `player`."""
    return 3 - player


def mover(s: Position) -> int:
    """The player to move in `s`."""
    return GAME.to_move(s)


def premise_positions(seed: int, count: int, premise: Callable[[Position], bool], max_games: int) -> tuple[list[Position], int]:
    """Up to `count` positions: each seeded random game is played until `premise` holds there.

    Returns the positions and how many games were played.
    """
    rng = random.Random(seed)
    found: list[Position] = []
    for played in range(1, max_games + 1):
        s = GAME.initial()
        while not GAME.is_terminal(s):
            if premise(s):
                found.append(s)
                break
            s = play(s, rng.choice(GAME.legal_moves(s)))
        if len(found) == count:
            return found, played
    return found, max_games


def decide(s: Position, player: int, result: Literal["win", "no-loss"], max_nodes: int) -> bool | None:
    """Whether `player` can force `result` from `s` (True/False), or None when the budget runs out."""
    return search_result(s, player, result, max_nodes)[0]


def search_result(s: Position, player: int, result: Literal["win", "no-loss"], max_nodes: int) -> tuple[bool | None, int]:
    """`decide`, and the nodes the proof search spent."""
    outcome = ProofSearch(GAME, Claim(player, result), GAME.search_hooks()).search(s, max_nodes=max_nodes)
    return {"proved": True, "disproved": False}.get(outcome.status), outcome.nodes


@dataclass
class Tally:
    """What the examined moves or positions turned out to be."""

    examined: int = 0
    immediate: int = 0  # confirmed by an immediate win of the side the claim favours
    deeper: int = 0  # confirmed by proof search
    counter: list[tuple[Position, int | None]] = field(default_factory=list)
    undecided: int = 0

    def settle(self, verdict: bool | None, s: Position, move: int | None) -> None:
        """Count one proof-search verdict: `move` from `s` (None: `s` itself) does not lose, loses later, or undecided."""
        if verdict:
            self.counter.append((s, move))
        elif verdict is False:
            self.deeper += 1
        else:
            self.undecided += 1


def witness(s: Position, move: int | None, player: int, result: Literal["win", "no-loss"], max_nodes: int) -> str:
    """A counterexample anyone can re-check: the position, the move, and a checked certificate."""
    start = GAME.format_position(s if move is None else play(s, move))
    # the file's provenance is the command quoted beside its hash, so that command rewrites it byte for byte
    command = prove_command("uttt", Claim(player, result), [f"--position '{start}'"])
    attempt = prove(GAME, Claim(player, result), start, max_nodes=max_nodes, command=command)
    where = f"position {GAME.format_position(s)}" + ("" if move is None else f", move {format_move(move)}")
    claimed = f"{'XO'[player - 1]} {'wins' if result == 'win' else 'does not lose'} from there"
    if attempt.text is None:
        raise ClaimError(f"{where}: the proof search did not prove it again ({attempt.outcome.status})")
    data = attempt.text.encode()
    verdict = checker.check_bytes(data).message.split()[0]
    return (f"{where}: {claimed}; strategy certificate sha256 {hashlib.sha256(data).hexdigest()[:16]}, "
            f"{len(data):,} bytes, checker {verdict} ({command})")


class UtttClaim(ClaimBase):
    """Fields shared by the Ultimate tic-tac-toe kinds: the sample and the search budget."""

    solves_game: ClassVar[bool] = False

    seed: int = Field(0, description="seed of the random games")
    positions: int = Field(100, ge=1, description="positions where the premise holds, to examine")
    max_games: int = Field(20_000, ge=1, description="give up after this many random games")
    max_nodes: int = Field(20_000, ge=1, description="proof-search budget per question")

    @field_validator("game")
    @classmethod
    def _known_game(cls, game: str) -> str:
        if game != "uttt":
            raise ValueError("this kind is about Ultimate tic-tac-toe: game = 'uttt'")
        return game

    def evaluate(self, facts: Any, bench: Bench) -> list[Reading]:  # noqa: ARG002 (no table to solve)
        return self.measure()

    def extra_evidence(self, facts: Any) -> list[str]:  # noqa: ARG002
        return [f"rules {GAME.rules.describe()} (rules sha256 {GAME.rules.sha256()[:16]}; tests/test_uttt.py "
                "compares them with OpenSpiel's ultimate_tic_tac_toe); values by df-pn proof search; each "
                "certificate named above re-checked by the independent checker (checker/uttt.py)"]

    def measure(self) -> list[Reading]:
        """The readings, measured on the sample."""
        raise NotImplementedError

    def budget(self) -> str:
        """`20,000 nodes`."""
        return f"{self.max_nodes:,} nodes"


def after_search(escapes: list[str], found: list[tuple[bool | None, int]], budget: str) -> str:
    """What proof search says after the replies that escape an immediate loss (`found`: each one's
    verdict for X's win and nodes): where X still forces a win, search was required, not X's win."""
    wins = [reply for reply, (verdict, _) in zip(escapes, found) if verdict]
    nodes = sum(spent for _, spent in found)
    if len(wins) == len(escapes):
        return f", yet X forces a win after each of them (proof search, {nodes:,} nodes in all): search is required"
    others = [f"{reply}: {'X does not win' if verdict is False else 'undecided'}" for reply, (verdict, _) in zip(escapes, found) if not verdict]
    return f"; proof search ({budget} each, {nodes:,} in all): X forces a win after {', '.join(wins) or 'none of them'}; {'; '.join(others)}"


def critical_moves(s: Position) -> list[int]:
    """The legal moves on the player to move's critical cells that do not win at once."""
    mask, wins = critical_cells(s), immediate_wins(s)
    return [m for m in GAME.legal_moves(s) if mask >> m % 9 & 1 and m not in wins]


class CriticalSquares(UtttClaim):
    """Claim 1: when the opponent can win the game in board b, every move that sends them to b or
    to a closed board (seed 003's "losing set") loses unless it wins at once."""

    kind: Literal["uttt_critical_squares"]

    def says(self) -> str:
        return "every move on a critical cell loses, unless it wins at once"

    def measure(self) -> list[Reading]:
        sample, games = premise_positions(self.seed, self.positions, lambda s: bool(critical_moves(s)), self.max_games)
        tally, inside = Tally(), 0
        for s in sample:
            player = mover(s)
            for move in critical_moves(s):
                tally.examined += 1
                after = play(s, move)
                if immediate_wins(after):
                    tally.immediate += 1
                    continue
                inside += bool(threat_boards(s, other(player)) >> move // 9 & 1)
                tally.settle(decide(after, player, "no-loss", self.max_nodes), s, move)
        escaped = tally.examined - tally.immediate
        measured = (
            f"{plural(len(sample), 'position')} from {plural(games, 'seeded random game')} (seed {self.seed}), "
            f"{plural(tally.examined, 'move')} on critical cells: {tally.immediate:,} let the opponent win at once; "
            f"{escaped:,} do not ({inside:,} of them are played inside the threatened board, closing or blocking it): "
            f"{len(tally.counter):,} proved not to lose, {tally.deeper:,} proved to lose later, "
            f"{tally.undecided:,} undecided within {self.budget()}"
        )
        counter = tally.counter[0] if tally.counter else None
        static = Reading(
            "the seed's losing set, cell by cell: every such move loses",
            measured,
            False if counter else (True if not tally.undecided else None),
            witness(counter[0], counter[1], mover(counter[0]), "no-loss", self.max_nodes) if counter else "",
        )
        per_move = Reading(
            "per move: a move after which the opponent can win at once loses",
            f"{tally.immediate:,} of the {plural(tally.examined, 'move')} are such moves, each answered by the opponent's "
            "immediate win (replayed); the others fall outside this reading",
            True,
        )
        return [static, per_move]


class ForcedBoard(UtttClaim):
    """Claim 2: if every open cell of a local board sends the opponent to a board where the
    opponent wins at once (or to a closed board while they have one), being sent there loses.

    `losing_set = "own"` reads "such a board" as the threats of the player who is *not* sent
    there (the sound reading); `"example"` applies the set the seed's example uses: the one built
    from the threats of the player sent there (seed 003's centre-right board).
    """

    kind: Literal["uttt_forced_board"]
    losing_set: Literal["own", "example"] = "own"

    def says(self) -> str:
        return "the player sent to such a board loses"

    def premise(self, s: Position) -> bool:
        """The player to move is sent to a board of the kind the claim describes."""
        if s.sent < 0 or GAME.is_terminal(s):
            return False
        player = mover(s)
        favoured = other(player) if self.losing_set == "own" else player
        return bool(poisoned_boards(s, favoured) >> s.sent & 1)

    def measure(self) -> list[Reading]:
        sample, games = premise_positions(self.seed, self.positions, self.premise, self.max_games)
        tally, wins_at_once = Tally(), []
        for s in sample:
            tally.examined += 1
            player = mover(s)
            if immediate_wins(s):
                wins_at_once.append(s)
            elif all(immediate_wins(play(s, m)) for m in GAME.legal_moves(s)):
                tally.immediate += 1
            else:
                tally.settle(decide(s, player, "no-loss", self.max_nodes), s, None)
        measured = (
            f"{plural(len(sample), 'position')} from {plural(games, 'seeded random game')} (seed {self.seed}) where "
            f"the player to move is sent to such a board: {len(wins_at_once):,} can win at once inside it; "
            f"{tally.immediate:,} lose because every move there lets the opponent win at once; of the rest, "
            f"{len(tally.counter):,} proved not to lose, {tally.deeper:,} proved to lose later, "
            f"{tally.undecided:,} undecided within {self.budget()}"
        )
        literal_counter = wins_at_once[0] if wins_at_once else tally.counter[0][0] if tally.counter else None
        literal = Reading(
            "as written: the player sent there loses",
            measured,
            False if literal_counter else (True if not tally.undecided else None),
            witness(literal_counter, None, mover(literal_counter), "no-loss", self.max_nodes) if literal_counter else "",
        )
        deeper_counter = tally.counter[0][0] if tally.counter else None
        excepted = Reading(
            "with the exception the text leaves out: unless the player sent there wins at once inside it",
            f"{plural(len(tally.counter), 'position')} without an immediate win escape anyway "
            f"(a move there closes or blocks the threat)" if tally.counter else "no position without an immediate win escapes",
            False if deeper_counter else (True if not tally.undecided else None),
            witness(deeper_counter, None, mover(deeper_counter), "no-loss", self.max_nodes) if deeper_counter else "",
        )
        return [literal, excepted]


class WorkedPosition(UtttClaim):
    """Seed 003's worked position, rebuilt from its drawing: the cells and the claims about it.

    The drawing leaves out which board X is sent to, so every choice (each open board, or a free
    move) is examined. `part = "losing_set"`: X's losing set is `losing_cells`, and every X move on
    those cells loses. `part = "lookahead"`: if X sends O to board `board`, X wins "with no search
    required" (read: every O reply lets X win at once) and with best play (read: proof search).
    """

    kind: Literal["uttt_worked_position"]
    cells: str = Field(description="the 81 cells as drawn, rows split by '/'")
    part: Literal["losing_set", "lookahead"]
    losing_cells: list[int] = []
    board: int = Field(5, ge=0, le=8)

    def says(self) -> str:
        if self.part == "losing_set":
            return f"X's losing set is cells {self.losing_cells}, and each move there loses"
        return f"X wins by sending O to board {self.board}, with no search required"

    def choices(self) -> list[Position]:
        """The position under every board X may be sent to (or '*')."""
        free = GAME.parse_position(f"{self.cells} *")
        return [free] + [free._replace(sent=b) for b in range(9) if not free.closed >> b & 1]

    def measure(self) -> list[Reading]:
        return self.losing_set() if self.part == "losing_set" else self.lookahead()

    def losing_set(self) -> list[Reading]:
        choices = self.choices()
        stated = sum(1 << c for c in self.losing_cells)
        masks = {critical_cells(s) for s in choices}
        found = sorted({c for mask in masks for c in range(9) if mask >> c & 1})
        same = Reading(
            "the losing set, for every board X may be sent to",
            f"cells {found} under all {plural(len(choices), 'choice')} of the board X is sent to "
            f"(the drawing does not say which)" if len(masks) == 1 else f"differs between choices: {sorted(masks)}",
            masks == {stated},
        )
        escapes, refuted, counter = [], 0, None
        for s in choices:
            for move in critical_moves(s):
                if immediate_wins(play(s, move)):
                    refuted += 1
                    continue
                verdict = decide(play(s, move), X, "no-loss", self.max_nodes)
                escapes.append(f"{format_move(move)} (sent to {'any' if s.sent < 0 else s.sent}): "
                               + {True: "X does not lose", False: "X loses later", None: "undecided"}[verdict])
                if verdict and counter is None:
                    counter = (s, move)
        loses = Reading(
            "every X move on those cells loses",
            f"{refuted} such moves over the choices let O win at once; the others: {'; '.join(escapes) or 'none'}",
            False if counter else (None if any("undecided" in e for e in escapes) else True),
            witness(counter[0], counter[1], X, "no-loss", self.max_nodes) if counter else "",
        )
        return [same, loses]

    def lookahead(self) -> list[Reading]:
        at_once, best, proofs = [], [], []
        for s in self.choices():
            for move in GAME.legal_moves(s):
                after = play(s, move)
                if move % 9 != self.board or after.closed >> self.board & 1 or (s.sent >= 0 and s.sent != move // 9):
                    continue
                if (after, move) in proofs:
                    continue
                proofs.append((after, move))
                escapes = [r for r in GAME.legal_moves(after) if not immediate_wins(play(after, r))]
                at_once.append((format_move(move), [format_move(r) for r in escapes],
                                [search_result(play(after, r), X, "win", self.max_nodes) for r in escapes]))
                verdict = decide(after, X, "win", self.max_nodes)
                best.append((s, move, verdict))
        if not proofs:
            return [Reading("X can send O there", f"no choice of the board X is sent to lets X play a cell {self.board}", False)]
        immediate = Reading(
            "with no search: every O reply lets X win at once",
            "; ".join(f"after X {move}, " + (f"O's replies {', '.join(escapes)} give X no immediate win{after_search(escapes, found, self.budget())}"
                                             if escapes else "every O reply lets X win at once") for move, escapes, found in at_once),
            not any(escapes for _, escapes, _ in at_once),
        )
        settled = [(s, move) for s, move, verdict in best if verdict]
        searched = Reading(
            "with best play: X wins after sending O there",
            "; ".join(f"X {format_move(move)}: " + {True: "X wins", False: "X does not win", None: "undecided"}[verdict]
                      + f" ({self.budget()})" for _, move, verdict in best),
            True if all(v for _, _, v in best) else False if any(v is False for _, _, v in best) else None,
            witness(settled[0][0], settled[0][1], X, "win", self.max_nodes) if settled else "",
        )
        return [immediate, searched]


KINDS = (CriticalSquares, ForcedBoard, WorkedPosition)
