"""Strategies proved over every play by bounded model checking.

A play of an R×C game has at most R*C plies, so one Z3 variable per ply for the cell and one for
the mark, with the board after each ply, describe every play at once: legality, the end of the
game and its result follow the rules. A `SideRule` pins down one player's moves (a certificate's
strategy table, a pairing strategy); Z3 is then asked for a play that obeys the rule and violates
the claim. UNSAT proves the claim against every opponent; a model is a counterexample, which is
replayed through `solver.games.positional.engine.Game` before it is reported.

Counterexamples are canonical: Z3's first model depends on its internal state (the terms created
earlier in the same process), so the reported play is the lexicographically smallest violating
play (`smallest_play`), found by further queries. The same question gives the same play in any
process, however often it is asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import z3

from certify.record.certificate import certificate_rules, strategy_moves
from certify.record.schema import Certificate
from certify.smt.graph import complete_lines
from certify.smt.result import Deadline, PlayedMove, SmtResult
from certify.render.text import plural
from solver.games.positional.engine import Game, Move
from solver.games.positional.rules import Rules

Property = Literal["win", "no-loss", "draw", "no-lines"]
PROPERTY_TEXT: dict[str, str] = {
    "win": "wins every play",
    "no-loss": "never loses (is never out-scored)",
    "draw": "draws every play exactly",
    "no-lines": "every play ends with no complete line for either player",
}


RESULT_WORDS = {1: "wins", 0: "draws", -1: "loses"}


@dataclass(frozen=True)
class Step:
    """What a side rule says about one ply: why it is played and which cells it may use."""

    role: str
    cells: frozenset[int] | None = None  # None: any legal cell
    missing: bool = False  # the rule should move here but has no move


class ReplayDisagreement(RuntimeError):
    """Z3's counterexample is not a real play violating the claim: the encodings disagree."""


class PlayEncoding:
    """Z3 variables for one play of `rules`: a cell and a mark per ply, the board after each ply."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n = rules.cells
        self.plies = n
        self.cell = [z3.Int(f"cell_{t}") for t in range(n)]
        self.mark = [z3.Int(f"mark_{t}") for t in range(n)]
        self.board = [[z3.Int(f"board_{t}_{i}") for i in range(n)] for t in range(n + 1)]
        self.line_done = [self._some_line(t) for t in range(n + 1)]
        # a ply is played while the game has not ended; most-lines always runs to the full board
        self.active = [
            z3.BoolVal(True) if rules.goal == "most-lines" else z3.Not(self.line_done[t]) for t in range(n)
        ]

    @staticmethod
    def mover(ply: int) -> int:
        """The player who makes ply `ply` (0-based): players alternate from player 1."""
        return 1 + ply % 2

    def _complete(self, t: int, mark: int) -> list[z3.BoolRef]:
        return [z3.And([self.board[t][c] == mark for c in line]) for line in self.rules.lines]

    def _some_line(self, t: int) -> z3.BoolRef:
        return z3.Or(self._complete(t, 1) + self._complete(t, 2))

    def rules_constraints(self) -> list[z3.BoolRef]:
        """Legality of every ply and how each ply changes the board."""
        n = self.plies
        constraints = [self.board[0][i] == 0 for i in range(n)]
        for t in range(n):
            marks = self.rules.marks_for(self.mover(t))
            legal = z3.And(
                z3.Or([self.mark[t] == m for m in marks]),
                z3.Or([z3.And(self.cell[t] == i, self.board[t][i] == 0) for i in range(n)]),
            )
            constraints.append(z3.Implies(self.active[t], legal))
            for i in range(n):
                placed = z3.And(self.active[t], self.cell[t] == i)
                constraints.append(self.board[t + 1][i] == z3.If(placed, self.mark[t], self.board[t][i]))
        return constraints

    def plays(self, t: int, cell: int, mark: int | None = None) -> z3.BoolRef:
        """Ply `t` is played and places on `cell` (the mark too, when given)."""
        parts = [self.active[t], self.cell[t] == cell]
        if mark is not None:
            parts.append(self.mark[t] == mark)
        return z3.And(parts)

    def board_is(self, t: int, board: Sequence[int]) -> z3.BoolRef:
        """The board before ply `t` is exactly `board`."""
        return z3.And([self.board[t][i] == m for i, m in enumerate(board)])

    def loses(self, player: int) -> z3.BoolRef:
        """`player` loses the play (for most-lines: ends with fewer complete lines)."""
        return self._wins(3 - player)

    def _wins(self, player: int) -> z3.BoolRef:
        if self.rules.goal == "most-lines":
            margin = self.final_lines(1) - self.final_lines(2)
            return margin > 0 if player == 1 else margin < 0
        # the first line appears on ply t-1; first-line-wins: its mover wins, first-line-loses: loses
        completer = self.rules.goal == "first-line-wins"
        return z3.Or(
            [
                z3.And(self.line_done[t], z3.Not(self.line_done[t - 1]))
                for t in range(1, self.plies + 1)
                if (self.mover(t - 1) == player) == completer
            ]
        )

    def final_lines(self, mark: int) -> z3.ArithRef:
        """Complete lines of `mark` on the final board."""
        return z3.Sum([z3.If(done, 1, 0) for done in self._complete(self.plies, mark)])

    def violates(self, player: int, claim: Property) -> z3.BoolRef:
        """The play breaks `claim` about `player`."""
        if claim == "win":
            return z3.Not(self._wins(player))
        if claim == "no-loss":
            return self.loses(player)
        if claim == "draw":
            return z3.Or(self._wins(player), self.loses(player))
        return self.line_done[self.plies]

    def moves_in(self, model: z3.ModelRef) -> list[Move]:
        """The moves of the play in a model, up to the end of the game."""
        moves = []
        for t in range(self.plies):
            if not z3.is_true(model.eval(self.active[t], model_completion=True)):
                break
            cell = model.eval(self.cell[t], model_completion=True).as_long()
            mark = model.eval(self.mark[t], model_completion=True).as_long()
            moves.append(Move(cell, mark))
        return moves


class SideRule(Protocol):
    """A rule fixing `player`'s moves (and possibly restricting the plays considered)."""

    player: int

    def describe(self) -> str:
        """The rule in words."""
        ...

    def constraints(self, play: PlayEncoding) -> list[z3.BoolRef]:
        """The rule over every ply of the encoded play."""
        ...

    def gaps(self, play: PlayEncoding) -> list[z3.BoolRef]:
        """Ways the rule itself can fail on a play (a turn where it has no move)."""
        ...

    def allowed(self, rules: Rules, history: Sequence[Move]) -> Step:
        """What the rule says about the ply after `history` (of either player)."""
        ...


@dataclass(frozen=True)
class TableStrategy:
    """A strategy as a table: the move `player` makes in each listed state (certificates)."""

    player: int
    guarantees: str
    moves: dict[tuple[int, ...], Move]  # board -> move

    def describe(self) -> str:
        return f"player {self.player}'s strategy table ({plural(len(self.moves), 'entry')})"

    def constraints(self, play: PlayEncoding) -> list[z3.BoolRef]:
        return [
            z3.Implies(z3.And(play.active[t], play.board_is(t, board)), play.plays(t, move.cell, move.mark))
            for t, entries in self._by_ply(play).items()
            for board, move in entries
        ]

    def gaps(self, play: PlayEncoding) -> list[z3.BoolRef]:
        return [
            z3.And(play.active[t], z3.Not(z3.Or([play.board_is(t, board) for board, _ in entries] or [z3.BoolVal(False)])))
            for t, entries in self._by_ply(play).items()
        ]

    def _by_ply(self, play: PlayEncoding) -> dict[int, list[tuple[tuple[int, ...], Move]]]:
        plies: dict[int, list[tuple[tuple[int, ...], Move]]] = {
            t: [] for t in range(play.plies) if play.mover(t) == self.player
        }
        for board, move in self.moves.items():
            plies[sum(1 for m in board if m)].append((board, move))
        return plies

    def allowed(self, rules: Rules, history: Sequence[Move]) -> Step:
        if PlayEncoding.mover(len(history)) != self.player:
            return Step("opponent")
        board = [0] * rules.cells
        for move in history:
            board[move.cell] = move.mark
        move = self.moves.get(tuple(board))
        if move is None:
            return Step("strategy", missing=True)
        return Step("strategy", frozenset([move.cell]))


def certificate_strategies(certificate: Certificate) -> list[TableStrategy]:
    """Decode every strategy table of a certificate; raises ValueError on a bad array."""
    rules = certificate_rules(certificate)
    strategies = []
    for table in certificate.strategies:
        moves = {
            tuple(code // 3**i % 3 for i in range(rules.cells)): move
            for code, move in strategy_moves(rules, table).items()
        }
        strategies.append(TableStrategy(table.player, table.guarantees, moves))
    return strategies


def check_side(rules: Rules, rule: SideRule, claim: Property, timeout: float = 60.0) -> SmtResult:
    """Prove that every play obeying `rule` satisfies `claim` for `rule.player`, or refute it
    with a replayed counterexample. Raises ReplayDisagreement if the counterexample is not real."""
    deadline = Deadline(timeout)
    play = PlayEncoding(rules)
    solver = z3.Solver()
    solver.add(play.rules_constraints())
    solver.add(rule.constraints(play))
    check = f"{rules.name}: {rule.describe()} {PROPERTY_TEXT[claim]}"
    # a rule no play can obey would make every claim about it vacuously true
    answer = deadline.check(solver)
    if answer != z3.sat:
        reason = solver.reason_unknown() if answer == z3.unknown else "no play obeys the rule (vacuous)"
        return SmtResult(check, "unknown", deadline.elapsed(), {"reason": reason})
    solver.add(z3.Or([play.violates(rule.player, claim), *rule.gaps(play)]))
    answer = deadline.check(solver)
    if answer == z3.unknown:
        return SmtResult(check, "unknown", deadline.elapsed(), {"reason": solver.reason_unknown()})
    if answer == z3.unsat:
        return SmtResult(check, "proved", deadline.elapsed(), {"plies": play.plies})
    moves = smallest_play(solver, play, deadline)
    if moves is None:
        return SmtResult(check, "unknown", deadline.elapsed(), {"reason": "timeout while choosing the canonical counterexample"})
    played, verdict = replay(rules, rule, claim, moves)
    return SmtResult(check, "refuted", deadline.elapsed(), {"replay": verdict}, played)


def smallest_play(
    solver: z3.Solver, play: PlayEncoding, deadline: Deadline, assumptions: Sequence[z3.BoolRef] = ()
) -> list[Move] | None:
    """The lexicographically smallest play the solver allows under `assumptions` (ply by ply:
    lowest cell, then lowest mark), or None if the time runs out. The solver must be satisfiable
    under `assumptions`.

    Each ply's move is the smallest one that still admits a completion; the prefix fixes the
    board, so whether the game has ended before a ply is decided by the prefix alone.
    """
    fixed = list(assumptions)
    moves: list[Move] = []
    for t in range(play.plies):
        ended = deadline.check(solver, *fixed, z3.Not(play.active[t]))
        if ended == z3.unknown:
            return None
        if ended == z3.sat:
            break
        for cell in range(play.plies):
            choice = next(
                (
                    (mark, answer)
                    for mark in play.rules.marks_for(play.mover(t))
                    if (answer := deadline.check(solver, *fixed, play.cell[t] == cell, play.mark[t] == mark)) != z3.unsat
                ),
                None,
            )
            if choice is None:
                continue
            mark, answer = choice
            if answer == z3.unknown:
                return None
            fixed += [play.cell[t] == cell, play.mark[t] == mark]
            moves.append(Move(cell, mark))
            break
        else:
            raise AssertionError(f"no move at ply {t + 1} although the solver was satisfiable")
    return moves


def replay(rules: Rules, rule: SideRule, claim: Property, moves: Sequence[Move]) -> tuple[tuple[PlayedMove, ...], str]:
    """Play `moves` through the engine, checking the rule was obeyed and the claim really fails.

    Returns the annotated play and what the engine says about its end (or the ply where the rule
    had no move, when that is the violation).
    """
    game = Game(rules)
    state = game.initial()
    played: list[PlayedMove] = []
    for ply in range(len(moves) + 1):
        step = rule.allowed(rules, moves[:ply])
        if step.missing and not game.is_terminal(state):
            return tuple(played), f"the rule has no move for player {rule.player} at ply {ply + 1}"
        if ply == len(moves):
            break
        move = moves[ply]
        if step.cells is not None and move.cell not in step.cells:
            raise ReplayDisagreement(f"ply {ply + 1}: {move} breaks the rule ({step.role}: cells {sorted(step.cells)})")
        try:
            state = game.apply(state, move)
        except ValueError as err:
            raise ReplayDisagreement(f"ply {ply + 1}: {err}") from None
        played.append(PlayedMove(PlayEncoding.mover(ply), move.cell, move.mark, step.role))
    if not game.is_terminal(state):
        raise ReplayDisagreement(f"the play stops after {len(moves):,} plies but the game has not ended")
    result = game.returns(state)[rule.player - 1]
    x_lines, o_lines = complete_lines(rules, game.board(state))
    verdict = f"player {rule.player} {RESULT_WORDS[result]}"
    if rules.goal == "most-lines":
        verdict += f" (complete lines: X {x_lines}, O {o_lines})"
    broken = {"win": result != 1, "no-loss": result == -1, "draw": result != 0, "no-lines": x_lines + o_lines > 0}[claim]
    if not broken:
        raise ReplayDisagreement(f"the engine says {verdict}: the claim holds on Z3's counterexample")
    return tuple(played), verdict
