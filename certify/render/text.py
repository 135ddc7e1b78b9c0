"""Drawing boards and labels for people: rich renderables and one-line text forms."""

from __future__ import annotations

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

MARK_TEXT = {0: ".", 1: "X", 2: "O"}
MARK_STYLE = {0: "dim", 1: "bold cyan", 2: "bold magenta"}
VALUE_STYLE = {"win": "bold green", "draw": "yellow", "loss": "bold red"}


BAND = 16  # columns drawn side by side at most: 16 unpadded fit an 80-column terminal
PADDED = 12  # columns drawn with a space either side of each cell at most (12 padded fit too)


def board_table(board: tuple[int, ...], rows: int, cols: int, numbered: bool = True) -> Table:
    """A drawn grid; empty cells show their number (dim) so moves can be read off. A board wider
    than BAND columns (1×64) is drawn in bands of BAND columns, one under the other; one wider
    than PADDED (4×16, Qubic's layers side by side) without padding, so that it fits 80 columns."""
    if cols <= BAND:
        return _grid(board, rows, cols, 0, cols, numbered)
    bands = Table.grid()
    bands.add_column()
    for start in range(0, cols, BAND):
        bands.add_row(_grid(board, rows, cols, start, min(BAND, cols - start), numbered))
    return bands


def _grid(board: tuple[int, ...], rows: int, cols: int, start: int, width: int, numbered: bool) -> Table:
    """Columns start .. start + width - 1 of the board, drawn."""
    grid = Table(show_header=False, box=box.SQUARE, show_lines=True, padding=(0, 1) if cols <= PADDED else (0, 0))
    for _ in range(width):
        grid.add_column(justify="center", width=2)
    for r in range(rows):
        cells = []
        for c in range(start, start + width):
            cell = r * cols + c
            mark = board[cell]
            label = str(cell) if (mark == 0 and numbered) else MARK_TEXT[mark]
            cells.append(Text(label, style=MARK_STYLE[mark]))
        grid.add_row(*cells)
    return grid


def board_line(board: tuple[int, ...], cols: int) -> str:
    """`X O . / . X . / O . .`: a board on one line."""
    rows = [board[i : i + cols] for i in range(0, len(board), cols)]
    return " / ".join(" ".join(MARK_TEXT[m] for m in row) for row in rows)


def value_text(word: str) -> Text:
    """A value word in its colour."""
    return Text(word, style=VALUE_STYLE.get(word, ""))


def searched_values(rows: list[dict], nodes: int) -> Group:
    """Moves valued by proof search (certify.proving.single.move_values): move, value, nodes, and the budget."""
    table = Table("move", "value for the mover", "nodes", box=None)
    for row in rows:
        table.add_row(row["move"], value_text(row["value"] or "unknown"), f"{row['nodes']:,}")
    return Group(table, Text(f"proof search, {plural(nodes, 'node')} per question; unknown = the budget ran out", style="dim"))


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """`1 state`, `5,478 states`, `1 strategy entry`, `97 strategy entries`: a count with its noun."""
    noun = singular if count == 1 else (plural_form or _plural(singular))
    return f"{count:,} {noun}"


def _plural(noun: str) -> str:
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    return noun + "s"
