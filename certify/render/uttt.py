"""Drawing Ultimate tic-tac-toe positions: the 9×9 grid with finished boards marked."""

from __future__ import annotations

from rich.text import Text

from certify.render.text import MARK_STYLE
from solver.games.uttt.engine import FULL9, Position, Uttt, bits, chunk, grid_index

BOARD_STYLE = {1: "on dark_blue", 2: "on dark_magenta", 3: "on grey23"}


def board_status(s: Position, board: int) -> int:
    """0 open, 1 won by X, 2 won by O, 3 full without a line (drawn)."""
    if s.xw >> board & 1:
        return 1
    if s.ow >> board & 1:
        return 2
    return 3 if chunk(s.x | s.o, board) == FULL9 else 0


def status_words(s: Position) -> str:
    """`board 0 won by X, board 7 drawn`, or `none` when no board is finished."""
    words = {1: "won by X", 2: "won by O", 3: "drawn"}
    finished = [f"board {b} {words[board_status(s, b)]}" for b in bits(s.closed | s.xw | s.ow)]
    return ", ".join(finished) or "none"


def draw_grid(game: Uttt, s: Position) -> Text:
    """The 9×9 grid: marks in colour, the cells the player to move may take as their cell digit,
    finished boards on a background (blue: X won, magenta: O won, grey: drawn)."""
    playable = game.playable(s)
    out = Text()
    for row in range(9):
        if row and row % 3 == 0:
            out.append("──────┼───────┼──────\n", style="dim")
        for col in range(9):
            if col and col % 3 == 0:
                out.append("│ ", style="dim")
            g = grid_index(row, col)
            background = BOARD_STYLE.get(board_status(s, g // 9), "")
            mark = (s.x >> g & 1) + 2 * (s.o >> g & 1)
            if mark:
                out.append("XO"[mark - 1], style=f"{MARK_STYLE[mark]} {background}".strip())
            elif playable >> g & 1:
                out.append(str(g % 9), style="green")
            else:
                out.append("·", style=f"dim {background}".strip())
            out.append(" ", style=background if col % 3 != 2 else "")
        out.append("\n")
    return out


def brief(game: Uttt, s: Position) -> str:
    """`O to play in board 0 [X 1 8 · O 4]`: who moves where, and the boards X and O have won (and
    the drawn ones, `= 7`) — what a tree label needs, not the 81 cells."""
    by_status: dict[int, list[str]] = {1: [], 2: [], 3: []}
    for board in bits(s.closed):
        by_status[board_status(s, board)].append(str(board))
    finished = " · ".join(f"{sign} {' '.join(boards)}" for sign, boards in zip(("X", "O", "="), by_status.values()) if boards)
    shown = f" [{finished}]" if finished else ""
    if game.is_terminal(s):
        result = {(1, -1): "X won", (-1, 1): "O won", (0, 0): "drawn"}[tuple(game.returns(s))]
        return f"game over, {result}{shown}"
    where = "any open board" if s.sent < 0 else f"board {s.sent}"
    return f"{'XO'[game.to_move(s) - 1]} to play in {where}{shown}"


def position_svg(game: Uttt, s: Position, values: dict[int, str] | None = None) -> str:
    """The position as SVG (certify/render/svg.py): marks, boards shaded as draw_grid shades them, the
    cells the player to move may take outlined, and filled by `values` (move → its value for the mover)."""
    from certify.render.svg import uttt_svg

    playable = game.playable(s)
    cells = [grid_index(row, col) for row in range(9) for col in range(9)]
    marks = [(s.x >> g & 1) + 2 * (s.o >> g & 1) for g in cells]
    shown = [values.get(g) for g in cells] if values else []
    return uttt_svg(marks, [board_status(s, b) for b in range(9)], [bool(playable >> g & 1) for g in cells], shown)
