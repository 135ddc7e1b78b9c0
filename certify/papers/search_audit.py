"""The published audit of the search players (seed 002, section 3): certificates/audits/policies-search.md.

A paper reproduction built on the general policy audit (certify/policy/audit.py): every search
player of the general registry (certify/policy/registry.py) audited as both sides, and the choices
at the paper's Fig. 3 position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path

from certify.files import write_atomic
from certify.record.format import VALUE_WORDS
from certify.policy.audit import PolicyAudit, audit_policy
from certify.policy.registry import SEARCH_POLICIES
from certify.policy.search import ALGORITHMS, search
from certify.render.text import board_line
from solver.games.positional.engine import Game, Move
from solver.search.retrograde import solve
from solver.games.positional.rules import resolve

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
    audits = []
    for game_name, names in SEARCH_AUDIT_GAMES.items():
        rules = resolve(game_name)
        solution = solve(rules)
        for name in names:
            for player in (1, 2):
                if progress:
                    progress(f"{name} as player {player} in {game_name}")
                audits.append(audit_policy(rules, SEARCH_POLICIES[name].factory(rules), player, name, solution))
    return audits


def fig3_choices() -> list[tuple[str, tuple[Move, ...], tuple[int, ...]]]:
    """Seed 002 Fig. 3: each search's move(s) and how many plies each takes to win."""
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
        "Written by `certify.papers.search_audit.write_search_audits`; every figure is computed by the",
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
