"""A deliberately naive recursive minimax over plain tuples, written apart from the solver.

It reads only the fields of a Rules value (lines, marks, goal) and re-derives everything else
with loops, so an agreement with the numpy solver is evidence about both.
"""

from __future__ import annotations

from functools import lru_cache

Label = tuple[int, int, int]  # value, distance, margin (margin 0 unless most-lines)


def naive_labels(rules) -> dict[int, Label]:
    """Every state reachable from the empty board → (value, distance, margin) for the side to move."""
    cells = rules.rows * rules.cols
    lines = [tuple(line) for line in rules.lines]

    def marks_of(player: int) -> tuple[int, ...]:
        if rules.marks == "either":
            return (1, 2)
        if rules.marks == "x-only":
            return (1,)
        return (player,)

    def count_lines(board: tuple[int, ...], mark: int) -> int:
        return sum(all(board[c] == mark for c in line) for line in lines)

    table: dict[int, Label] = {}

    @lru_cache(maxsize=None)
    def label(board: tuple[int, ...]) -> Label:
        placed = sum(1 for m in board if m)
        player = 1 if placed % 2 == 0 else 2
        full = placed == cells
        x, o = count_lines(board, 1), count_lines(board, 2)
        result: Label | None = None
        if rules.goal == "most-lines":
            if full:
                margin = x - o if player == 1 else o - x
                result = ((margin > 0) - (margin < 0), 0, margin)
        elif x + o > 0:
            result = (-1 if rules.goal == "first-line-wins" else 1, 0, 0)
        elif full:
            result = (0, 0, 0)
        if result is None:
            options = []
            for cell in range(cells):
                if board[cell] == 0:
                    for mark in marks_of(player):
                        child = board[:cell] + (mark,) + board[cell + 1 :]
                        v, d, m = label(child)
                        options.append((-v, d + 1, -m))
            if rules.goal == "most-lines":
                best_margin = max(m for _, _, m in options)
                best = [o for o in options if o[2] == best_margin]
                result = (best[0][0], max(d for _, d, _ in best), best_margin)
            else:
                value = max(v for v, _, _ in options)
                dists = [d for v, d, _ in options if v == value]
                result = (value, min(dists) if value == 1 else max(dists), 0)
        table[sum(m * 3**i for i, m in enumerate(board))] = result
        return result

    label((0,) * cells)
    return table
