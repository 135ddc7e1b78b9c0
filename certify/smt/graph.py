"""The game graph as the Z3 encoder sees it, enumerated from the rules on their own.

This deliberately does not use the numpy solver or its engine: a cross-check is only worth
something if the two sides derive the game from the `Rules` value independently. Boards are
tuples of marks (0 empty, 1 X, 2 O); a state's code is `sum(board[i] * 3**i)` as everywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.games.positional.rules import Rules

Board = tuple[int, ...]


@dataclass(frozen=True)
class Node:
    """One reachable state: terminal label (for the side to move) or the codes of its children."""

    code: int
    terminal: bool
    value: int  # terminal only: 1 win, 0 draw, -1 loss for the side to move
    margin: int  # terminal only, most-lines: side to move's complete lines minus the other's
    children: tuple[int, ...]


@dataclass(frozen=True)
class GameGraph:
    """Every state reachable from the empty board, by code."""

    rules: Rules
    nodes: dict[int, Node]

    def __len__(self) -> int:
        return len(self.nodes)


def code_of(board: Board) -> int:
    """The state code of a board."""
    return sum(mark * 3**cell for cell, mark in enumerate(board))


def mover(board: Board) -> int:
    """The player (1 or 2) whose turn it is on `board`."""
    return 1 + sum(1 for mark in board if mark) % 2


def complete_lines(rules: Rules, board: Board) -> tuple[int, int]:
    """How many lines are complete in X and in O."""
    x_lines = sum(1 for line in rules.lines if all(board[c] == 1 for c in line))
    o_lines = sum(1 for line in rules.lines if all(board[c] == 2 for c in line))
    return x_lines, o_lines


def terminal_label(rules: Rules, board: Board) -> tuple[int, int] | None:
    """(value, margin) for the side to move if play has ended on `board`, else None."""
    full = all(board)
    x_lines, o_lines = complete_lines(rules, board)
    if rules.goal == "most-lines":
        if not full:
            return None
        margin = x_lines - o_lines if mover(board) == 1 else o_lines - x_lines
        return (margin > 0) - (margin < 0), margin
    if x_lines + o_lines:
        # the previous mover completed the line
        return (-1 if rules.goal == "first-line-wins" else 1), 0
    return (0, 0) if full else None


def moves(rules: Rules, board: Board) -> list[tuple[int, int]]:
    """Every (cell, mark) the side to move may play on a non-terminal `board`."""
    marks = rules.marks_for(mover(board))
    return [(cell, mark) for cell in range(rules.cells) if board[cell] == 0 for mark in marks]


BYTES_PER_STATE = 2000  # ~860 B per state in Python (tracemalloc, mnk:3,4,3), plus Z3's copy of the equations


def memory_estimate(rules: Rules) -> int:
    """Bytes the Z3 encoders may need for `rules`: every board a state, at worst."""
    return 3**rules.cells * BYTES_PER_STATE


def enumerate_graph(rules: Rules) -> GameGraph:
    """Every reachable state and its children, by a plain depth-first walk from the empty board."""
    nodes: dict[int, Node] = {}
    stack: list[Board] = [(0,) * rules.cells]
    while stack:
        board = stack.pop()
        code = code_of(board)
        if code in nodes:
            continue
        label = terminal_label(rules, board)
        if label is not None:
            nodes[code] = Node(code, True, label[0], label[1], ())
            continue
        children = []
        for cell, mark in moves(rules, board):
            child = board[:cell] + (mark,) + board[cell + 1 :]
            children.append(code + mark * 3**cell)
            stack.append(child)
        nodes[code] = Node(code, False, 0, 0, tuple(children))
    return GameGraph(rules, nodes)
