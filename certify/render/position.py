"""Any family's position drawn, as text and as SVG, through one registry (as solver/games/families.py
resolves a GAME): the notebook API asks here and never asks which family a game is.

A family's drawers take the game (solver/games/game.py), the state, and the valued moves the caller
knows (each with `.move` in the family's notation, `.value` for the mover — 'win', 'draw', 'loss'
or None —, `.plies` or None, `.best`). A family whose drawing cannot show move values ignores them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from certify.record.positions import MoveValue


def _positional_text(game: Any, state: int) -> str:
    """Rows of `X`, `O` and `.` separated by spaces."""
    marks = [".XO"[m] for m in game.board(state)]
    cols = game.rules.cols
    return "\n".join(" ".join(marks[start : start + cols]) for start in range(0, len(marks), cols))


def _positional_svg(game: Any, state: int, moves: Sequence[Any]) -> str:
    """certify/render/svg.py's board: the marks, each empty cell with its moves' values, a completed line shaded."""
    from certify.render.svg import board_svg

    board = game.board(state)
    shown = []
    for valued in moves:
        if valued.value is not None:
            move = game.parse_move(valued.move)
            shown.append(MoveValue(move, game.apply(state, move), valued.value, valued.plies, None, valued.best))
    done = [line for line in game.rules.lines if board[line[0]] and all(board[c] == board[line[0]] for c in line)]
    return board_svg(board, game.rules.rows, game.rules.cols, shown, [c for line in done for c in line])


def _uttt_text(game: Any, state: Any) -> str:
    """certify/render/uttt.py's grid without colour, then who moves where."""
    from certify.render.uttt import brief, draw_grid

    grid = "\n".join(line.rstrip() for line in draw_grid(game, state).plain.splitlines())
    return f"{grid}\n{brief(game, state)}"


def _uttt_svg(game: Any, state: Any, moves: Sequence[Any]) -> str:
    """certify/render/uttt.py's SVG grid: the cells the mover may take outlined, filled by their moves' values."""
    from certify.render.uttt import position_svg

    return position_svg(game, state, {game.parse_move(m.move): m.value for m in moves if m.value is not None})


# family (the rules' canonical "family") → (text drawer, SVG drawer)
DRAWERS: dict[str, tuple[Callable[[Any, Any], str], Callable[[Any, Any, Sequence[Any]], str]]] = {
    "positional": (_positional_text, _positional_svg),
    "uttt": (_uttt_text, _uttt_svg),
}


def _drawers(game: Any) -> tuple[Callable[[Any, Any], str], Callable[[Any, Any, Sequence[Any]], str]]:
    family = game.rules.canonical().get("family", "positional")
    return DRAWERS[family]


def position_text(game: Any, state: Any) -> str:
    """The position drawn in plain text (several lines)."""
    return _drawers(game)[0](game, state)


def position_svg(game: Any, state: Any, moves: Sequence[Any] = ()) -> str:
    """The position drawn as SVG, with the values of `moves` where the family's drawing shows them."""
    return _drawers(game)[1](game, state, moves)
