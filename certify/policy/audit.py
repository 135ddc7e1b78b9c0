"""Exhaustive policy audits: every opponent move, every choice the policy may make, exact numbers.

An audit walks the states reachable when one player follows the policy (any of the moves it
returns) and the other plays every legal move, and judges them against the solved game:

- never loses: proved over the states walked, or refuted by the shortest game it loses;
- the exact win/draw/loss probabilities against a uniformly random opponent, the policy itself
  taken as uniform over the moves it returns;
- optimality: the positions where the policy may play a move that gives up value, and the won
  positions where it may play a win that is not the fastest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from certify.policy import Policy
from certify.render.text import board_line
from solver.games.positional.engine import Game, Move
from solver.search.retrograde import Solution, solve
from solver.games.positional.rules import Rules

AuditProgress = Callable[[int, int], None]
"""Called with (ply, states reached so far) as the walk goes deeper."""


class PolicyError(ValueError):
    """The policy failed or broke the rules in a state; the message is one line."""


@dataclass(frozen=True)
class Outcome:
    """Exact probabilities of a win, draw and loss for the audited player."""

    win: Fraction
    draw: Fraction
    loss: Fraction

    @property
    def expected(self) -> Fraction:
        """The expected result, P(win) - P(loss)."""
        return self.win - self.loss

    def as_dict(self) -> dict[str, object]:
        """Exact fractions as strings, with float approximations alongside."""
        out: dict[str, object] = {}
        for name in ("win", "draw", "loss", "expected"):
            value = getattr(self, name)
            out[name] = str(value)
            out[f"{name}_float"] = float(value)
        return out


@dataclass(frozen=True)
class Flaw:
    """A reachable state where the policy may choose `chosen`, where `optimal` are the best moves."""

    code: int
    board: str
    chosen: tuple[Move, ...]
    optimal: tuple[Move, ...]

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "board": self.board, "chosen": [str(m) for m in self.chosen],
                "optimal": [str(m) for m in self.optimal]}


@dataclass(frozen=True)
class PolicyAudit:
    """The audit of one policy playing one side of one game."""

    game: str
    policy: str
    player: int
    states: int  # reachable states walked, terminal ones included
    decisions: int  # non-terminal states where the policy chose
    losing_game: tuple[Move, ...] | None  # shortest game the policy loses; None when it never loses
    random_opponent: Outcome
    value_errors: tuple[Flaw, ...] = field(default_factory=tuple)
    slow_wins: tuple[Flaw, ...] = field(default_factory=tuple)

    @property
    def never_loses(self) -> bool:
        """Whether no reachable game ends in a loss for the policy."""
        return self.losing_game is None

    def as_dict(self) -> dict[str, object]:
        """Everything, JSON-ready; every flaw listed."""
        return {
            "game": self.game,
            "policy": self.policy,
            "player": self.player,
            "states": self.states,
            "decisions": self.decisions,
            "never_loses": self.never_loses,
            "losing_game": None if self.losing_game is None else [str(m) for m in self.losing_game],
            "random_opponent": self.random_opponent.as_dict(),
            "value_errors": [f.as_dict() for f in self.value_errors],
            "slow_wins": [f.as_dict() for f in self.slow_wins],
        }


def _legal(children: np.ndarray) -> dict[Move, int]:
    """Move → child index from one row of `Solution.children` (column 2*cell + mark - 1)."""
    return {Move(int(col) // 2, int(col) % 2 + 1): int(children[col]) for col in np.flatnonzero(children >= 0)}


def _chosen(policy: Policy, game: Game, code: int, legal: dict[Move, int], cols: int) -> list[Move]:
    """The policy's moves in `code`, checked: at least one, each legal, none repeated."""
    where = f"state {code} ({board_line(game.board(code), cols)})"
    try:
        moves = list(policy(game, code))
    except Exception as err:  # user code: report where and what, in one line
        raise PolicyError(f"the policy failed in {where}: {type(err).__name__}: {err}") from None
    if not moves:
        raise PolicyError(f"the policy returned no move in {where}")
    for move in moves:
        if not isinstance(move, Move) or move not in legal:
            raise PolicyError(f"the policy returned {move!r}, not a legal move, in {where}")
    if len(set(moves)) != len(moves):
        raise PolicyError(f"the policy returned a move twice in {where}")
    return moves


def audit_policy(
    rules: Rules,
    policy: Policy,
    player: int,
    name: str = "",
    solution: Solution | None = None,
    progress: AuditProgress | None = None,
) -> PolicyAudit:
    """Audit `policy` playing as `player` (1 first, 2 second) in `rules`; raises PolicyError."""
    solution = solve(rules) if solution is None else solution
    game = Game(rules)
    children = solution.children(np.arange(len(solution)))
    parent: dict[int, tuple[int, Move] | None] = {0: None}
    moves_from: dict[int, list[int]] = {}
    layers: list[list[int]] = []
    value_errors: list[Flaw] = []
    slow_wins: list[Flaw] = []
    frontier = [0]
    while frontier:
        layers.append(frontier)
        if progress:
            progress(len(layers) - 1, len(parent))
        reached: set[int] = set()
        for row in frontier:
            if solution.terminal[row]:
                continue
            code = int(solution.codes[row])
            legal = _legal(children[row])
            if game.to_move(code) == player:
                moves = _chosen(policy, game, code, legal, rules.cols)
                value_error, slow_win = _judge(game, solution, row, moves, legal)
                value_errors.extend([value_error] if value_error else [])
                slow_wins.extend([slow_win] if slow_win else [])
            else:
                moves = list(legal)
            moves_from[row] = [legal[m] for m in moves]
            for move in moves:
                child = legal[move]
                if child not in parent:
                    parent[child] = (row, move)
                reached.add(child)
        frontier = sorted(reached)
    return PolicyAudit(
        game=rules.name,
        policy=name,
        player=player,
        states=len(parent),
        decisions=sum(1 for row in moves_from if game.to_move(int(solution.codes[row])) == player),
        losing_game=_shortest_loss(game, solution, layers, parent, player),
        random_opponent=_outcome(game, solution, layers, moves_from, player),
        value_errors=tuple(value_errors),
        slow_wins=tuple(slow_wins),
    )


def _judge(
    game: Game, solution: Solution, row: int, moves: Sequence[Move], legal: dict[Move, int]
) -> tuple[Flaw | None, Flaw | None]:
    """Whether `moves` include one that gives up value, and one that wins slower than the fastest."""
    code = int(solution.codes[row])
    board = board_line(game.board(code), game.rules.cols)
    best = int(solution.values[row])
    gained = {m: -int(solution.values[child]) for m, child in legal.items()}
    plies = {m: int(solution.distances[child]) + 1 for m, child in legal.items()}
    wrong = tuple(m for m in moves if gained[m] < best)
    value_error = Flaw(code, board, wrong, tuple(m for m in legal if gained[m] == best)) if wrong else None
    slow_win = None
    if best == 1:
        fastest = int(solution.distances[row])
        slow = tuple(m for m in moves if gained[m] == 1 and plies[m] > fastest)
        if slow:
            quick = tuple(m for m in legal if gained[m] == 1 and plies[m] == fastest)
            slow_win = Flaw(code, board, slow, quick)
    return value_error, slow_win


def _result(game: Game, solution: Solution, row: int, player: int) -> int:
    """`player`'s result in the terminal state at `row`."""
    value = int(solution.values[row])  # for the side to move
    return value if game.to_move(int(solution.codes[row])) == player else -value


def _shortest_loss(
    game: Game,
    solution: Solution,
    layers: list[list[int]],
    parent: dict[int, tuple[int, Move] | None],
    player: int,
) -> tuple[Move, ...] | None:
    """The moves of the first-found shortest game that `player` loses (lowest final code), or None."""
    for layer in layers:
        lost = [row for row in layer if solution.terminal[row] and _result(game, solution, row, player) == -1]
        if lost:
            moves = []
            step = parent[lost[0]]
            while step is not None:
                row, move = step
                moves.append(move)
                step = parent[row]
            return tuple(reversed(moves))
    return None


def _outcome(
    game: Game,
    solution: Solution,
    layers: list[list[int]],
    moves_from: dict[int, list[int]],
    player: int,
) -> Outcome:
    """Exact result probabilities from the empty board, every move from a state equally likely."""
    one = Fraction(1)
    zero = Fraction(0)
    results = {1: (one, zero, zero), 0: (zero, one, zero), -1: (zero, zero, one)}
    odds: dict[int, tuple[Fraction, Fraction, Fraction]] = {}
    for layer in reversed(layers):
        for row in layer:
            if solution.terminal[row]:
                odds[row] = results[_result(game, solution, row, player)]
            else:
                nexts = [odds[child] for child in moves_from[row]]
                odds[row] = tuple(sum(column, zero) / len(nexts) for column in zip(*nexts))  # type: ignore[assignment]
    return Outcome(*odds[0])
