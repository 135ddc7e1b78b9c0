"""The game family's rules, re-implemented plainly from docs/certificate-format.md.

Nothing here comes from the solver: boards are tuples of marks, moves are (cell, mark) pairs,
and the reachable states are found by a plain depth-first search over state codes.
"""

from dataclasses import dataclass

EMPTY, X, O = 0, 1, 2
MARK_RULES = ("own", "either", "x-only")
GOALS = ("first-line-wins", "first-line-loses", "most-lines")
MAX_SIDE = 4


@dataclass(frozen=True)
class Game:
    """One game of the family: an R×C board, its lines, who places which mark, the goal."""

    rows: int
    cols: int
    lines: tuple[tuple[int, ...], ...]
    marks: str
    goal: str

    @property
    def cells(self) -> int:
        """Number of cells on the board."""
        return self.rows * self.cols


@dataclass(frozen=True)
class Node:
    """One reachable state: its board, its terminal (value, margin) or None, its moves."""

    board: tuple[int, ...]
    terminal: tuple[int, int | None] | None
    moves: tuple[tuple[int, int, int], ...]  # (cell, mark, child code), by cell then mark


def rules_problem(rows: int, cols: int, lines: list[list[int]], marks: str, goal: str) -> str | None:
    """Why these rules do not describe a game of the family, or None when they do."""
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        return f"board {rows}x{cols} is outside 1x1..{MAX_SIDE}x{MAX_SIDE}"
    if marks not in MARK_RULES:
        return f"rules.marks {ascii(marks)[:40]} is not one of {', '.join(MARK_RULES)}"
    if goal not in GOALS:
        return f"rules.goal {ascii(goal)[:40]} is not one of {', '.join(GOALS)}"
    if goal == "most-lines" and marks != "own":
        return "goal most-lines needs marks 'own' (a line must belong to a player)"
    if not lines:
        return "rules.lines is empty"
    seen: set[frozenset[int]] = set()
    for index, line in enumerate(lines):
        if not line:
            return f"rules.lines[{index}] has no cells"
        if any(not 0 <= cell < rows * cols for cell in line):
            return f"rules.lines[{index}] {line} has a cell outside 0..{rows * cols - 1}"
        if len(set(line)) != len(line):
            return f"rules.lines[{index}] {line} repeats a cell"
        if frozenset(line) in seen:
            return f"rules.lines[{index}] {line} repeats an earlier line (same cells)"
        seen.add(frozenset(line))
    return None


def decode(code: int, cells: int) -> tuple[int, ...]:
    """The board of a state code: cell i holds trit i of the code (cell 0 least significant)."""
    board = []
    for _ in range(cells):
        code, mark = divmod(code, 3)
        board.append(mark)
    return tuple(board)


def player_to_move(board: tuple[int, ...]) -> int:
    """1 when the board holds an even number of marks, else 2."""
    return 1 if (len(board) - board.count(EMPTY)) % 2 == 0 else 2


def placeable_marks(mark_rule: str, player: int) -> tuple[int, ...]:
    """The marks `player` may place under the mark rule."""
    if mark_rule == "either":
        return (X, O)
    if mark_rule == "x-only":
        return (X,)
    return (X,) if player == 1 else (O,)


def line_mark(board: tuple[int, ...], line: tuple[int, ...]) -> int:
    """The mark filling every cell of the line, or EMPTY if the line is not complete."""
    mark = board[line[0]]
    for cell in line:
        if board[cell] != mark:
            return EMPTY
    return mark


def sign(number: int) -> int:
    """-1, 0 or 1."""
    return (number > 0) - (number < 0)


def terminal_label(game: Game, board: tuple[int, ...]) -> tuple[int, int | None] | None:
    """(value, margin) of a terminal board for the side to move, or None if play goes on."""
    full = EMPTY not in board
    if game.goal == "most-lines":
        if not full:
            return None
        me = player_to_move(board)  # player 1 owns X (1), player 2 owns O (2)
        complete = [line_mark(board, line) for line in game.lines]
        margin = complete.count(me) - complete.count(3 - me)
        return sign(margin), margin
    if any(line_mark(board, line) for line in game.lines):
        return (-1 if game.goal == "first-line-wins" else 1), None
    if full:
        return 0, None
    return None


def explore(game: Game, limit: int) -> dict[int, Node]:
    """Every state reachable from the empty board (code 0), with its terminal label and moves.

    Stops early, returning limit + 1 of them, once more than `limit` states are found.
    """
    powers = [3**cell for cell in range(game.cells)]
    nodes: dict[int, Node] = {}
    stack = [(0, (EMPTY,) * game.cells)]
    while stack:
        code, board = stack.pop()
        if code in nodes:
            continue
        terminal = terminal_label(game, board)
        moves: tuple[tuple[int, int, int], ...] = ()
        if terminal is None:
            marks = placeable_marks(game.marks, player_to_move(board))
            moves = tuple(
                (cell, mark, code + mark * powers[cell])
                for cell in range(game.cells)
                if board[cell] == EMPTY
                for mark in marks
            )
            for cell, mark, child in moves:
                if child not in nodes:
                    stack.append((child, board[:cell] + (mark,) + board[cell + 1 :]))
        nodes[code] = Node(board, terminal, moves)
        if len(nodes) > limit:
            break
    return nodes


def draw_board(board: tuple[int, ...], cols: int) -> str:
    """The board as rows of X, O and '.', separated by ' / ' (e.g. 'X O . / . X . / O . .')."""
    symbols = ".XO"
    rows = [board[start : start + cols] for start in range(0, len(board), cols)]
    return " / ".join(" ".join(symbols[mark] for mark in row) for row in rows)
