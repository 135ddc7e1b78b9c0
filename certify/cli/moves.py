"""Moves as people type them (`X4`, or `4` where the mark is implied), and why one is not legal.

One notation everywhere (docs/cli.md): a move is its mark and its 0-based cell, `X4`.
"""

from __future__ import annotations

import re

from certify.render.text import board_line
from solver.games.positional.engine import Game, Move

_TOKEN = re.compile(r"^([XO]?)(\d+)$")


class MoveError(ValueError):
    """A move that cannot be played here; the message says why, in one line."""


def parse_move(game: Game, state: int, token: str) -> Move:
    """The move `token` names in `state`, or MoveError saying why it is not a legal move there."""
    text = token.strip().upper()
    match = _TOKEN.match(text)
    if not match:
        said = "the move is empty" if not text else f"'{token.strip()}' is not a move"
        raise MoveError(f"{said}: type a mark and a cell, like X4 (or just 4 where the mark is implied)")
    cell = int(match.group(2))
    if game.is_terminal(state):
        raise MoveError(f"{text}: the game is already over ({board_line(game.board(state), game.rules.cols)})")
    if not 0 <= cell < game.cells:
        raise MoveError(f"{text}: there is no cell {cell} (cells are 0..{game.cells - 1})")
    player = game.to_move(state)
    marks = game.rules.marks_for(player)
    if match.group(1):
        mark = 1 if match.group(1) == "X" else 2
    elif len(marks) == 1:
        mark = marks[0]
    else:
        raise MoveError(f"{text}: say which mark, X{cell} or O{cell} (either may be placed in this game)")
    taken = game.board(state)[cell]
    if taken:
        raise MoveError(f"{'XO'[mark - 1]}{cell}: cell {cell} is taken (by {'XO'[taken - 1]})")
    if mark not in marks:
        allowed = " or ".join("XO"[m - 1] for m in marks)
        raise MoveError(f"{'XO'[mark - 1]}{cell}: player {player} places {allowed}, not {'XO'[mark - 1]}")
    move = Move(cell, mark)
    if move not in game.legal_moves(state):  # the rules forbid it for a reason not named above
        raise MoveError(f"{move}: not legal here")
    return move


def play_moves(game: Game, text: str, start: int = 0) -> int:
    """The state after the comma-separated moves `text` (e.g. `X4,O0,X8`); MoveError names the bad one."""
    state = start
    tokens = text.split(",")
    for number, token in enumerate(tokens, start=1):
        if not token.strip():
            raise MoveError(f"move {number} of '{text}' is empty (moves are separated by single commas, like X4,O0)")
        try:
            state = game.apply(state, parse_move(game, state, token))
        except MoveError as err:
            raise MoveError(f"move {number}, {err}") from None
    return state
