"""Pairings that block every line open to the opponent: the counting bound, then a Z3 search.

A pairing *blocks* a line when the line holds both cells of one of its pairs; the pairing player
P who answers each opponent move on its pair's other cell then never lets the opponent Q complete
a blocked line (checker/pairing.py has the argument). This module finds a pairing blocking every
line open to Q at a position (the lines without a mark of P), optionally with a first move of P
that blocks the lines through it, and checks nothing else: the certificate it leads to is checked
by `python -m checker`. Unlike certify/smt/pairing.py, which model-checks every play of a pairing
strategy (any goal, exhaustive, 3×3), this is the static condition, so boards up to 8×8 are easy.

Z3 and not an exact-cover search: the pairs need not cover every cell and a line is blocked by
any one of its pairs, so the problem is a set packing with covering constraints, which a SAT
solver's clause learning handles directly (one Boolean per useful pair, an at-most-one per cell,
a clause per line); every figure it returns is re-checked here before it is reported.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

import z3

from certify.smt.pairing import Pairing
from certify.render.text import plural
from solver.games.positional.rules import Rules
from solver.games.positional.symmetry import line_automorphisms

MAX_CELLS = 64
Status = Literal["found", "none", "unknown"]


@dataclass(frozen=True)
class Position:
    """Where the pairing starts: the marks on the board (0 empty, 1 X, 2 O) and the pairing player."""

    board: tuple[int, ...]
    player: int

    @property
    def to_move(self) -> int:
        """Player 1 when the board holds an even number of marks, else player 2."""
        return 1 if sum(1 for mark in self.board if mark) % 2 == 0 else 2


@dataclass(frozen=True)
class Cover:
    """A search's outcome: the pairing (and first move) that blocks every open line, or why none does."""

    status: Status
    pairing: Pairing | None
    first_move: int | None
    reason: str
    open_lines: int
    free_cells: int
    seconds: float


def open_lines(rules: Rules, position: Position) -> list[tuple[int, ...]]:
    """The lines the opponent could still complete: those holding no mark of the pairing player."""
    own = rules.marks_for(position.player)[0]
    return [line for line in rules.lines if all(position.board[cell] != own for cell in line)]


def blocks_all(lines: Sequence[tuple[int, ...]], pairing: Pairing, first_move: int | None) -> bool:
    """Whether every line holds both cells of a pair or the first move."""
    pairs = [set(pair) for pair in pairing.pairs]
    return all(first_move in line or any(pair <= set(line) for pair in pairs) for line in lines)


def counting_bound(lines: Sequence[tuple[int, ...]], free: Sequence[int], first_move_allowed: bool) -> str | None:
    """Why no pairing can block every line, when counting alone shows it; else None.

    A pair blocks only the lines holding both its cells: at most `most` lines, the largest number of
    open lines any two free cells share (1 when lines are whole rows, columns and diagonals; more
    when lines are overlapping segments). At most ⌊free/2⌋ disjoint pairs exist, so more than
    `most × ⌊free/2⌋` lines cannot all be blocked. A first move blocks the lines through it and
    takes one free cell.
    """
    free_set = set(free)
    shared: Counter[tuple[int, int]] = Counter()
    for line in lines:
        shared.update(combinations(sorted(free_set.intersection(line)), 2))
    most = max(shared.values(), default=0)
    capacity = most * (len(free) // 2)
    if len(lines) <= capacity:
        return None
    words = (f"{plural(len(lines), 'open line')}, but a pair lies in at most {most:,} of them and "
             f"{plural(len(free), 'free cell')} make at most {plural(len(free) // 2, 'pair')}: {capacity:,} lines at most")
    if not first_move_allowed:
        return words
    through = Counter(cell for line in lines for cell in free_set.intersection(line))
    widest = max(through.values(), default=0)
    after = most * ((len(free) - 1) // 2)
    if len(lines) - widest <= after:
        return None
    return (f"{words}; a first move blocks at most {widest:,} lines, leaving {len(lines) - widest:,} for "
            f"{plural((len(free) - 1) // 2, 'pair')}: {after:,} at most")


def search(rules: Rules, position: Position, timeout: float = 120.0) -> Cover:
    """A pairing blocking every open line, without a first move if one exists, else with one (when the
    pairing player is to move); "none" with the counting bound or Z3's unsat as the reason.

    First moves are asked one at a time, one cell per class of cells the position's symmetries
    exchange (`first_moves`): a query per cell is a small SAT problem Z3 settles in well under a
    second on 8×8, where one query leaving the first move open did not finish in minutes.
    """
    started = time.perf_counter()
    if rules.marks != "own" or rules.goal not in ("first-line-wins", "most-lines"):
        raise ValueError(f"{rules.name}: a pairing proves nothing for marks {rules.marks}, goal {rules.goal} "
                         "(docs/certificate-format.md, kind pairing)")
    if rules.cells > MAX_CELLS:
        raise ValueError(f"{rules.name}: {rules.cells} cells; the pairing search takes at most {MAX_CELLS}")
    lines = open_lines(rules, position)
    free = [cell for cell in range(rules.cells) if position.board[cell] == 0]
    first_allowed = position.to_move == position.player

    def outcome(status: Status, pairing: Pairing | None, first: int | None, reason: str) -> Cover:
        return Cover(status, pairing, first, reason, len(lines), len(free), time.perf_counter() - started)

    bound = counting_bound(lines, free, first_allowed)
    if bound is not None:
        return outcome("none", None, None, f"counting: {bound}")
    firsts = first_moves(rules, position, lines, free) if first_allowed else []
    for first in [None, *firsts]:
        left = timeout - (time.perf_counter() - started)
        rest = lines if first is None else [line for line in lines if first not in line]
        answer = solve(rest, [cell for cell in free if cell != first], max(left, 0.001))
        if answer == "unknown":
            return outcome("unknown", None, None, f"Z3 did not finish within {timeout:g} s")
        if answer is not None:
            if not blocks_all(lines, answer, first):
                raise RuntimeError("Z3's pairing leaves a line unblocked (encoding bug)")
            how = "without a first move" if first is None else "with a first move"
            return outcome("found", answer, first, f"Z3: sat {how}")
    if not first_allowed:
        tried = "(the opponent is to move: no first move)"
    else:
        tried = (f"without a first move and after each of {plural(len(free), 'first move')} "
                 f"({len(firsts):,} up to the position's symmetries)")
    return outcome("none", None, None, f"Z3: unsat {tried}: no set of disjoint pairs blocks all {plural(len(lines), 'open line')}")


def first_moves(rules: Rules, position: Position, lines: Sequence[tuple[int, ...]], free: Sequence[int]) -> list[int]:
    """One free cell of each class the position's symmetries exchange, cells on most open lines first.

    A symmetry of the line set that leaves the board as it is maps a pairing after a first move on
    cell c to one after its image, so one cell of each class settles the class. `line_automorphisms`
    may return part of the group on huge groups; the classes are then finer, never wrong.
    """
    fixing = [p for p in line_automorphisms(rules) if all(position.board[p[cell]] == mark for cell, mark in enumerate(position.board))]
    through = Counter(cell for line in lines for cell in line)
    chosen: list[int] = []
    seen: set[int] = set()
    for cell in sorted(free, key=lambda c: (-through[c], c)):
        if cell not in seen:
            chosen.append(cell)
            seen.update(p[cell] for p in fixing)
    return chosen


def solve(lines: Sequence[tuple[int, ...]], free: Sequence[int], timeout: float) -> Pairing | None | Literal["unknown"]:
    """One Z3 query: disjoint pairs of `free` cells blocking every line; None if unsat."""
    free_set = set(free)
    useful = sorted({pair for line in lines for pair in combinations(sorted(free_set.intersection(line)), 2)})
    context = z3.Context()  # a fresh context: the answer does not depend on earlier queries in this process
    chosen = {pair: z3.Bool(f"pair_{pair[0]}_{pair[1]}", context) for pair in useful}
    solver = z3.Solver(ctx=context)
    solver.set("timeout", max(1, int(timeout * 1000)))
    uses: dict[int, list[z3.BoolRef]] = {cell: [] for cell in free}
    for (a, b), variable in chosen.items():
        uses[a].append(variable)
        uses[b].append(variable)
    solver.add([z3.AtMost(*terms, 1) for terms in uses.values() if len(terms) > 1])
    for line in lines:
        cells = sorted(free_set.intersection(line))
        terms = [chosen[pair] for pair in combinations(cells, 2)]
        solver.add(z3.Or(terms) if terms else z3.BoolVal(False, context))
    answer = solver.check()
    if answer == z3.unknown:
        return "unknown"
    if answer == z3.unsat:
        return None
    model = solver.model()
    pairs = [pair for pair, variable in chosen.items() if z3.is_true(model.eval(variable, model_completion=True))]
    return needed(lines, pairs)


def needed(lines: Sequence[tuple[int, ...]], pairs: list[tuple[int, int]]) -> Pairing:
    """The pairs left after dropping, in order, each one every line can do without (a smaller proof)."""
    kept = list(pairs)
    for pair in pairs:
        trial = [p for p in kept if p != pair]
        if blocks_all(lines, Pairing(tuple(trial)), None):
            kept = trial
    return Pairing(tuple(kept))
