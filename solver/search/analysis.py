"""Counts over a solved game: states, edges, games, symmetry classes, paths and predecessors."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from solver.games.positional.engine import Game
from solver.search.retrograde import Solution
from solver.games.positional.rules import Permutation, Rules, board_symmetries

_BATCH = 1 << 16  # states handled at once: their boards and child matrices stay a few MB (4x4 has 43 M states)


@dataclass(frozen=True)
class Labels:
    """Every reachable state's label without the solver's best moves: what a certificate's table holds.

    Enough for every count here (`stats`, `path_counts`, `symmetry_classes`, `first_move_values`),
    so a checked certificate answers them without solving again. A state is terminal exactly when
    its distance to the end is 0 (the checker enforces it).
    """

    rules: Rules
    codes: np.ndarray  # ascending
    values: np.ndarray  # for the side to move
    distances: np.ndarray
    margins: np.ndarray | None

    @cached_property
    def terminal(self) -> np.ndarray:
        """Whether each state is terminal."""
        return self.distances == 0

    @property
    def game(self) -> Game:
        """The game these labels are about."""
        return Game(self.rules)

    def __len__(self) -> int:
        return len(self.codes)

    children = Solution.children  # reads only rules, codes and terminal, which both classes have


def symmetric_image(boards: np.ndarray, perm: Permutation, swap_marks: bool) -> np.ndarray:
    """Boards (n, cells) moved by the cell permutation `perm`, with X↔O swapped if `swap_marks`."""
    moved = np.empty_like(boards)
    moved[:, list(perm)] = boards
    return np.where(moved == 0, 0, 3 - moved) if swap_marks else moved


def _batches(count: int) -> Iterator[slice]:
    """Consecutive slices of at most _BATCH rows covering `count` rows."""
    return (slice(start, min(start + _BATCH, count)) for start in range(0, count, _BATCH))


def marks_placed(solution: Solution | Labels) -> np.ndarray:
    """The number of marks on each state's board (int8), in row order."""
    game = solution.game
    marks = np.empty(len(solution), dtype=np.int8)
    for rows in _batches(len(solution)):
        marks[rows] = (game.decode(solution.codes[rows]) != 0).sum(axis=1)
    return marks


def symmetry_classes(solution: Solution | Labels, swap_marks: bool) -> int:
    """Number of reachable states up to the board symmetries (and X↔O if `swap_marks`)."""
    game = solution.game
    perms = board_symmetries(solution.rules)
    swaps = (False, True) if swap_marks else (False,)
    canonical = np.empty(len(solution), dtype=np.int64)
    for rows in _batches(len(solution)):
        boards = game.decode(solution.codes[rows])
        canonical[rows] = np.min(
            [symmetric_image(boards, perm, swap).astype(np.int64) @ game.pow3 for perm in perms for swap in swaps], axis=0
        )
    return len(np.unique(canonical))


def path_counts(solution: Solution | Labels, moves: np.ndarray | None = None) -> np.ndarray:
    """For every state, the number of move sequences from the empty board that reach it.

    `moves`, a boolean mask over the move columns `2*cell + mark - 1`, restricts the sequences
    to those moves. int64 holds every count up to 4×4 (at most 2**16 * 16! < 2**63 sequences).
    """
    counts = np.zeros(len(solution), dtype=np.int64)
    counts[0] = 1
    marks = marks_placed(solution)
    for depth in range(int(marks.max())):
        layer = np.flatnonzero((marks == depth) & ~solution.terminal)
        for rows in _batches(len(layer)):
            parents = layer[rows]
            children = solution.children(parents)
            if moves is not None:
                children = np.where(moves[None, :], children, -1)
            weights = np.repeat(counts[parents], children.shape[1]).reshape(children.shape)
            legal = children >= 0
            np.add.at(counts, children[legal], weights[legal])
    return counts


def predecessors(solution: Solution, code: int) -> list[int]:
    """Codes of the reachable states with a legal move to `code`."""
    game = solution.game
    board = game.board(code)
    parents = []
    for cell, mark in enumerate(board):
        if mark:
            parent = code - mark * 3**cell
            try:
                row = solution.index(parent)
            except KeyError:
                continue
            if code in solution.codes[solution.children(np.array([row]))[0]].tolist():
                parents.append(parent)
    return sorted(parents)


def first_move_values(solution: Solution | Labels) -> list[tuple[int, int, int]]:
    """(cell, mark, value for the mover) of every legal first move, by cell then mark."""
    root_children = solution.children(np.zeros(1, dtype=np.int64))[0]
    return [
        (col // 2, col % 2 + 1, -int(solution.values[child]))
        for col, child in enumerate(root_children)
        if child >= 0
    ]


@dataclass(frozen=True)
class Stats:
    """The counts `certify stats` reports."""

    reachable_states: int
    terminal_states: dict[str, int]
    nonterminal_states: int
    edges: int
    games: dict[str, int]
    states_up_to_symmetry: dict[str, int]
    root_value: str
    root_margin: int | None
    first_moves: list[dict]


def _by_result(solution: Solution | Labels, marks: np.ndarray, rows: np.ndarray, weights: np.ndarray) -> dict[str, int]:
    """Sum `weights` over terminal `rows` by who won (player 1, player 2) or draw; `marks` from marks_placed."""
    values = solution.values[rows].astype(np.int64)
    p1_to_move = marks[rows] % 2 == 0
    p1_result = np.where(p1_to_move, values, -values)
    return {
        "first_player_wins": int(weights[p1_result == 1].sum()),
        "second_player_wins": int(weights[p1_result == -1].sum()),
        "draws": int(weights[p1_result == 0].sum()),
    }


def stats(solution: Solution | Labels) -> Stats:
    """Every count of the solved game."""
    words = {1: "win", 0: "draw", -1: "loss"}
    terminal_rows = np.flatnonzero(solution.terminal)
    live_rows = np.flatnonzero(~solution.terminal)
    edges = sum(int((solution.children(live_rows[rows]) >= 0).sum()) for rows in _batches(len(live_rows)))
    marks = marks_placed(solution)
    paths = path_counts(solution)
    symmetry = {"board": symmetry_classes(solution, swap_marks=False)}
    if solution.rules.marks != "own":
        symmetry["board_and_mark_swap"] = symmetry_classes(solution, swap_marks=True)
    return Stats(
        reachable_states=len(solution),
        terminal_states=_by_result(solution, marks, terminal_rows, np.ones(len(terminal_rows), np.int64)),
        nonterminal_states=len(live_rows),
        edges=edges,
        games=_by_result(solution, marks, terminal_rows, paths[terminal_rows]),
        states_up_to_symmetry=symmetry,
        root_value=words[int(solution.values[0])],
        root_margin=None if solution.margins is None else int(solution.margins[0]),
        first_moves=[
            {"cell": cell, "mark": mark, "value": words[value]}
            for cell, mark, value in first_move_values(solution)
        ],
    )
