"""Boards drawn as SVG, with the certified value of every legal move (for notebooks)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from certify.record.positions import MoveValue

CELL = 56
MARK_COLOUR = {1: "#1f5fbf", 2: "#b8327a"}
VALUE_COLOUR = {"win": "#17803d", "draw": "#a86a00", "loss": "#c0322b"}
VALUE_FILL = {"win": "#e3f4e8", "draw": "#fbf0d9", "loss": "#fbe3e1"}


def board_svg(
    board: Sequence[int],
    rows: int,
    cols: int,
    moves: Sequence[MoveValue] = (),
    highlight: Sequence[int] = (),
) -> str:
    """An R×C board: marks drawn, each empty cell listing its moves' values for the mover.

    A move reads `X W5` (wins in 5 plies), `O L4` (loses in 4) or `X D` (draw); best moves are
    bold with a star. Cells in `highlight` (a completed line) are shaded.
    """
    width, height = cols * CELL + 2, rows * CELL + 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
    ]
    by_cell: dict[int, list[MoveValue]] = {}
    for move in moves:
        by_cell.setdefault(move.move.cell, []).append(move)
    for cell, mark in enumerate(board):
        x, y = 1 + (cell % cols) * CELL, 1 + (cell // cols) * CELL
        here = by_cell.get(cell, [])
        fill = "#e3f4e8" if cell in highlight else _fill(here)
        parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#9aa0a8"/>')
        parts.append(f'<text x="{x + 3}" y="{y + 10}" font-size="9" fill="#5d636d">{cell}</text>')
        if mark:
            parts.append(
                f'<text x="{x + CELL / 2}" y="{y + CELL * 0.72}" font-size="{CELL * 0.6:.0f}" font-weight="bold" '
                f'text-anchor="middle" fill="{MARK_COLOUR[mark]}">{"XO"[mark - 1]}</text>'
            )
        for i, move in enumerate(here):
            line_y = y + CELL / 2 + 5 + (i - (len(here) - 1) / 2) * 16
            weight = ' font-weight="bold"' if move.best else ""
            parts.append(
                f'<text x="{x + CELL / 2}" y="{line_y:.1f}" font-size="12" text-anchor="middle"{weight}>'
                f'<tspan fill="{MARK_COLOUR[move.move.mark]}">{"XO"[move.move.mark - 1]}</tspan> '
                f'<tspan fill="{VALUE_COLOUR[move.value]}">{escape(short_value(move))}</tspan></text>'
            )
    parts.append("</svg>")
    return "".join(parts)


def short_value(move: MoveValue) -> str:
    """`W5`, `L4` or `D` (`W`, `L` when the plies are not known), with a star for a best move."""
    plies = "" if move.plies is None else move.plies  # a search's value comes without its length
    word = {"win": f"W{plies}", "loss": f"L{plies}", "draw": "D"}[move.value]
    return word + ("★" if move.best else "")


def _fill(moves: Sequence[MoveValue]) -> str:
    """An empty cell's colour: the best value among its moves."""
    for value in ("win", "draw", "loss"):
        if any(m.value == value for m in moves):
            return VALUE_FILL[value]
    return "#ffffff"


UTTT_CELL = 24
BOARD_FILL = {1: "#dbe6f7", 2: "#f5dcea", 3: "#e4e6ea"}  # won by X, won by O, drawn: as the terminal shades them


def uttt_svg(marks: Sequence[int], board_status: Sequence[int], playable: Sequence[bool], values: Sequence[str | None] = ()) -> str:
    """An Ultimate tic-tac-toe position: 81 cells in grid order (row by row of the 9×9 grid), each
    local board shaded by its status (0 open, 1 won by X, 2 won by O, 3 drawn), the cells the player
    to move may take outlined in green, and filled in the colour of `values` (each cell's move's value
    for the mover, or None) where given."""
    side = 9 * UTTT_CELL + 8
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" viewBox="0 0 {side} {side}" font-family="sans-serif">']
    for board, status in enumerate(board_status):
        x, y = 1 + (board % 3) * (3 * UTTT_CELL + 3), 1 + (board // 3) * (3 * UTTT_CELL + 3)
        parts.append(f'<rect x="{x}" y="{y}" width="{3 * UTTT_CELL}" height="{3 * UTTT_CELL}" fill="{BOARD_FILL.get(status, "#ffffff")}" stroke="#5d636d" stroke-width="2"/>')
    for index, mark in enumerate(marks):
        row, col = divmod(index, 9)
        x, y = 1 + col * UTTT_CELL + (col // 3) * 3, 1 + row * UTTT_CELL + (row // 3) * 3
        outline = ' stroke="#17803d" stroke-width="2"' if playable[index] else ' stroke="#c4c8ce"'
        fill = VALUE_FILL.get(values[index] or "", "none") if values else "none"
        parts.append(f'<rect x="{x + 1}" y="{y + 1}" width="{UTTT_CELL - 2}" height="{UTTT_CELL - 2}" fill="{fill}"{outline}/>')
        if mark:
            parts.append(f'<text x="{x + UTTT_CELL / 2}" y="{y + UTTT_CELL * 0.75}" font-size="{UTTT_CELL * 0.7:.0f}" font-weight="bold" '
                         f'text-anchor="middle" fill="{MARK_COLOUR[mark]}">{"XO"[mark - 1]}</text>')
    parts.append("</svg>")
    return "".join(parts)
