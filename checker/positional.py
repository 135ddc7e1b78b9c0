"""The positional family's rules, re-implemented plainly from docs/certificate-format.md.

A board is a bytes of marks (0 empty, 1 X, 2 O; bytes, not a tuple, to keep a large proof's
seen positions small), cells numbered row-major; a move is a
(cell, mark) pair. Nothing here comes from the solver, and nothing depends on the board size:
the table kind (≤ 16 cells) and the strategy kind (larger boards) read the same rules.
"""

from dataclasses import dataclass

from checker.load import NotACertificate, counted, field, word_field

EMPTY, X, O = 0, 1, 2
MARK_RULES = ("own", "either", "x-only")
GOALS = ("first-line-wins", "first-line-loses", "most-lines")
RULES_KEYS = ("cols", "family", "goal", "lines", "marks", "name", "rows")
MAX_CELLS = 256  # a board of any shape up to 256 cells: a pairing's cells are one byte each
MAX_PROOF_CELLS = 64  # the strategy kind: boards of at most 64 cells, as the producer's

Board = bytes
Move = tuple[int, int]


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


def parse_rules(raw: dict) -> Game:
    """The game a rules object states; raises NotACertificate unless it is well formed and canonical."""
    if sorted(raw) != list(RULES_KEYS):
        raise NotACertificate(f"rules must have exactly the keys {', '.join(RULES_KEYS)}")
    rows, cols = field(raw, "rows", int, "rules"), field(raw, "cols", int, "rules")
    if rows < 1 or cols < 1 or rows * cols > MAX_CELLS:
        raise NotACertificate(f"rules: board {rows}x{cols} is not 1 to {MAX_CELLS} cells")
    marks = word_field(raw, "marks", "rules", MARK_RULES)
    goal = word_field(raw, "goal", "rules", GOALS)
    if goal == "most-lines" and marks != "own":
        raise NotACertificate("rules: goal most-lines needs marks 'own' (a line must belong to a player)")
    lines = field(raw, "lines", list, "rules")
    if not lines:
        raise NotACertificate("rules.lines is empty")
    for index, line in enumerate(lines):
        if type(line) is not list or not line or any(type(cell) is not int for cell in line):
            raise NotACertificate(f"rules.lines[{index}] must be a non-empty array of integers")
        if not all(0 <= cell < rows * cols for cell in line):
            raise NotACertificate(f"rules.lines[{index}] has a cell outside 0..{rows * cols - 1}")
        if any(a >= b for a, b in zip(line, line[1:])):
            raise NotACertificate(f"rules.lines[{index}] is not strictly ascending (rules must be canonical)")
        if index and lines[index - 1] >= line:
            raise NotACertificate(f"rules.lines[{index}] does not follow rules.lines[{index - 1}] in sorted "
                                  "order without repeats (rules must be canonical)")
    return Game(rows, cols, tuple(tuple(line) for line in lines), marks, goal)


def describe(game: Game) -> str:
    """The game in words: board, number and length of lines, marks, goal."""
    lengths = sorted({len(line) for line in game.lines})
    length = str(lengths[0]) if len(lengths) == 1 else f"{lengths[0]}-{lengths[-1]}"
    return (f"{game.rows}x{game.cols} board, {counted(len(game.lines), 'line', 'lines')} of {length}, "
            f"marks {game.marks}, {game.goal}")


def position_work(game: Game) -> int:
    """The work of one position of a strategy proof: twice the cells its line checks read and the
    board (its children, its memory), about 0.2 microseconds a unit. Refuses boards over 64 cells,
    which the strategy kind does not cover."""
    if game.cells > MAX_PROOF_CELLS:
        raise NotACertificate(f"the strategy kind covers boards of up to {MAX_PROOF_CELLS} cells, "
                              f"not {game.rows}x{game.cols} ({game.cells} cells)")
    return 2 * (sum(map(len, game.lines)) + game.cells)


def initial(game: Game) -> Board:
    """The empty board."""
    return bytes(game.cells)


def to_move(game: Game, board: Board) -> int:
    """Player 1 when the board holds an even number of marks, else player 2."""
    return 1 if (game.cells - board.count(EMPTY)) % 2 == 0 else 2


def placeable(game: Game, player: int) -> tuple[int, ...]:
    """The marks `player` may place under the mark rule."""
    if game.marks == "either":
        return (X, O)
    if game.marks == "x-only":
        return (X,)
    return (X,) if player == 1 else (O,)


def completed(game: Game, board: Board) -> tuple[int, int]:
    """How many lines are complete in X and in O."""
    marks = [board[line[0]] for line in game.lines if all(board[cell] == board[line[0]] for cell in line)]
    return marks.count(X), marks.count(O)


def winner(game: Game, mover: int, x_lines: int, o_lines: int, full: bool) -> int | None:
    """The game's result once `mover` is to move: None while play goes on, else 1 or 2, or 0 (draw).

    First-line goals end at the first complete line, which the previous mover completed; most-lines
    ends on the full board, player 1 owning X's lines and player 2 O's.
    """
    if game.goal == "most-lines":
        if not full:
            return None
        return 1 if x_lines > o_lines else 2 if o_lines > x_lines else 0
    if x_lines or o_lines:
        return 3 - mover if game.goal == "first-line-wins" else mover
    return 0 if full else None


def result(game: Game, board: Board) -> int | None:
    """None if play goes on, else the winner 1 or 2, or 0 for a draw."""
    return winner(game, to_move(game, board), *completed(game, board), EMPTY not in board)


def moves(game: Game, board: Board) -> list[tuple[Move, Board]]:
    """Every legal (cell, mark) move and the board it gives, by cell then mark; empty iff terminal."""
    if result(game, board) is not None:
        return []
    marks = placeable(game, to_move(game, board))
    return [((cell, mark), board[:cell] + bytes((mark,)) + board[cell + 1:])
            for cell in range(game.cells) if board[cell] == EMPTY for mark in marks]


def parse_position(game: Game, text: str) -> Board:
    """A board written as rows of X, O and '.' joined by '/' (spaces ignored), with marks the
    players could have placed in turn; raises NotACertificate when it is not one.
    """
    rows = text.replace(" ", "").split("/")
    if len(rows) != game.rows or any(len(row) != game.cols or row.strip(".XO") for row in rows):
        raise NotACertificate(f"position {ascii(text)[:120]} is not {game.rows} rows of {game.cols} X, O or '.'")
    board = bytes(".XO".index(mark) for row in rows for mark in row)
    if game.marks == "own" and board.count(X) - board.count(O) not in (0, 1):
        raise NotACertificate(f"position {ascii(text)[:120]}: X must have as many marks as O or one more")
    if game.marks == "x-only" and O in board:
        raise NotACertificate(f"position {ascii(text)[:120]}: only X is placed in this game")
    problem = line_problem(game, board)
    if problem:
        raise NotACertificate(f"position {ascii(text)[:120]}: {problem}")
    return board


def line_problem(game: Game, board: Board) -> str | None:
    """Why the complete lines of a board cannot arise in play, or None.

    Under a first-line goal play stops at the first complete line, so every complete line holds
    the last move: the lines share a cell and one mark, and under `own` it is the previous mover's.
    """
    if game.goal == "most-lines":
        return None
    complete = [line for line in game.lines if board[line[0]] and all(board[cell] == board[line[0]] for cell in line)]
    if not complete:
        return None
    if len({board[line[0]] for line in complete}) > 1:
        return "it holds a complete line of X and one of O, but play stops at the first"
    if not set(complete[0]).intersection(*complete[1:]):
        return "its complete lines share no cell, so no single move completed them all"
    if game.marks == "own" and board[complete[0][0]] == (X, O)[to_move(game, board) - 1]:
        return "the side to move holds a complete line, but only the player who moved last can complete one"
    return None


def completions(game: Game, board: Board, player: int) -> set[int]:
    """The empty cells where `player` would complete a line now: lines holding only `player`'s
    marks and one empty cell."""
    cells = set()
    for line in game.lines:
        empty = [cell for cell in line if board[cell] == EMPTY]
        if len(empty) == 1 and all(board[cell] == player for cell in line if cell != empty[0]):
            cells.add(empty[0])
    return cells


def symmetry(game: Game, raw: object, index: int) -> tuple[int, ...]:
    """A proof's symmetry `index`: a permutation of the cells (the mark on cell i goes to cell p[i])
    mapping the set of lines onto itself, so that it maps every position to one of the same value
    (marks and lines move together). Raises NotACertificate when it is not one."""
    where = f"proof.symmetries[{index}]"
    if type(raw) is not list or len(raw) != game.cells or any(type(cell) is not int for cell in raw):
        raise NotACertificate(f"{where} must be an array of {game.cells} integers")
    if sorted(raw) != list(range(game.cells)):
        raise NotACertificate(f"{where} is not a permutation of the cells 0..{game.cells - 1}")
    lines = set(game.lines)
    if any(tuple(sorted(raw[cell] for cell in line)) not in lines for line in game.lines):
        raise NotACertificate(f"{where} does not map every line onto a line")
    return tuple(raw)


def image(board: Board, permutation: tuple[int, ...]) -> Board:
    """The board with the mark on cell i moved to cell permutation[i]."""
    out = bytearray(len(board))
    for cell, mark in enumerate(board):
        out[permutation[cell]] = mark
    return bytes(out)


def draw_board(game: Game, board: Board) -> str:
    """The board as rows of X, O and '.', separated by ' / ' (e.g. 'X O . / . X . / O . .')."""
    rows = [board[start:start + game.cols] for start in range(0, game.cells, game.cols)]
    return " / ".join(" ".join(".XO"[mark] for mark in row) for row in rows)
