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

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

from certify.files import write_atomic
from certify.policy import Policy
from certify.render import board_line
from certify.format import VALUE_WORDS
from solver.engine import Game, Move
from solver.retrograde import Solution, solve
from solver.rules import Rules, resolve

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


# ---- the published audit of the search players (certificates/audits/policies-search.md) --------

SEARCH_AUDIT_FILE = Path("certificates/audits/policies-search.md")
SEARCH_AUDIT_GAMES: dict[str, tuple[str, ...]] = {
    "tictactoe": ("minimax", "alphabeta", "alphabeta-depth", "minimax-random", "alphabeta-random", "alphabeta-depth-random"),
    # plain minimax re-searches the whole tree below every decision; w3t's tree is too big for it
    "w3t": ("alphabeta", "alphabeta-depth"),
}
FIG3_BOARD = (1, 1, 2, 0, 2, 0, 0, 1, 0)
"""Seed 002, Fig. 3, with marks swapped: the paper's opponent (O) moves first, which is X here."""


def search_audits(progress: Callable[[str], None] | None = None) -> list[PolicyAudit]:
    """Audit every search player of SEARCH_AUDIT_GAMES as the first and the second player."""
    from certify.policy.registry import builtin_policy  # the registry builds on this package

    audits = []
    for game_name, names in SEARCH_AUDIT_GAMES.items():
        rules = resolve(game_name)
        solution = solve(rules)
        for name in names:
            for player in (1, 2):
                if progress:
                    progress(f"{name} as player {player} in {game_name}")
                audits.append(audit_policy(rules, builtin_policy(name, rules), player, name, solution))
    return audits


def fig3_choices() -> list[tuple[str, tuple[Move, ...], tuple[int, ...]]]:
    """Seed 002 Fig. 3: each search's move(s) and how many plies each takes to win."""
    from certify.policy.search import ALGORITHMS, search

    rules = resolve("tictactoe")
    solution = solve(rules)
    game = Game(rules)
    code = sum(mark * 3**cell for cell, mark in enumerate(FIG3_BOARD))
    rows = []
    for algorithm in ALGORITHMS:
        moves = search(game, code, algorithm).moves
        plies = tuple(int(solution.distances[solution.index(game.apply(code, m))]) + 1 for m in moves)
        rows.append((algorithm, moves, plies))
    return rows


def _fraction(value: Fraction) -> str:
    return f"{value} (≈ {float(value):.4f})"


def search_audit_markdown(audits: Iterable[PolicyAudit]) -> str:
    """The audits as the markdown page; deterministic (no timings), so it can be regenerated."""
    audits = list(audits)
    lines = [
        "# Search players audited (seed 002, section 3)",
        "",
        "Written by `certify.policy.audit.write_search_audits`; every figure is computed by the",
        "exhaustive audit of `certify policy audit GAME --policy NAME --player 1|2` (docs/policies.md).",
        "Players: plain minimax, alpha-beta, and depth-aware alpha-beta (ABA: a finished game scores",
        "±(cells + 1 − plies), so it prefers the fastest win and the slowest loss). Moves are tried by",
        "cell, then mark; the plain names break ties to the first best move, the `-random` names return",
        "every best move (a uniformly random tie-break). The audit quantifies over every opponent move and",
        "every move the player may choose; the odds are exact, against a uniformly random opponent.",
        "",
        "Values of the empty board for the first player, from the solver: "
        + ", ".join(f"{g} {VALUE_WORDS[solve(resolve(g)).value(0)]}" for g in sorted({a.game for a in audits}))
        + ". In a lost game every player's audit as the losing side is refuted.",
        "",
        "| game | player | side | never loses | states walked | win | draw | loss | gives up value (states) | slower win (states) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for a in audits:
        odds = a.random_opponent
        verdict = "proved" if a.never_loses else f"refuted ({len(a.losing_game or ())}-move loss)"
        lines.append(
            f"| {a.game} | `{a.policy}` | {'first' if a.player == 1 else 'second'} | {verdict} | {a.states:,} "
            f"| {_fraction(odds.win)} | {_fraction(odds.draw)} | {_fraction(odds.loss)} "
            f"| {len(a.value_errors)} | {len(a.slow_wins)} |"
        )
    refuted = [a for a in audits if not a.never_loses]
    if refuted:
        lines += ["", "## Shortest losing games", ""]
        lines += [f"- {a.game}, `{a.policy}` as {'first' if a.player == 1 else 'second'} player: "
                  f"{' '.join(str(m) for m in a.losing_game or ())}" for a in refuted]
    slow = [a for a in audits if a.slow_wins]
    if slow:
        lines += ["", "## A slower win, one example per player", "",
                  "(`certify policy audit ... --json` lists every such state.)", ""]
        for a in slow:
            flaw = a.slow_wins[0]
            lines.append(f"- {a.game}, `{a.policy}` as {'first' if a.player == 1 else 'second'} player, state {flaw.code} "
                         f"(`{flaw.board}`): may play {' '.join(map(str, flaw.chosen))}; fastest {' '.join(map(str, flaw.optimal))}")
    lines += ["", "## Fig. 3 position", "",
              f"Board `{board_line(FIG3_BOARD, 3)}`, O to move (the paper's board with X and O swapped, because",
              "here X always moves first). Each search's choice and the plies it takes to win with best play after it:", ""]
    for algorithm, moves, plies in fig3_choices():
        counts = ", ".join(f"{n} {'ply' if n == 1 else 'plies'}" for n in plies)
        lines.append(f"- `{algorithm}`: {' '.join(map(str, moves))} — win in {counts}")
    return "\n".join(lines) + "\n"


def write_search_audits(path: Path = SEARCH_AUDIT_FILE, progress: Callable[[str], None] | None = None) -> Path:
    """Audit the search players and write the markdown page to `path`; returns the path."""
    write_atomic(path, search_audit_markdown(search_audits(progress)))
    return path
