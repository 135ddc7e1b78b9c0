"""`certify show uttt`: one Ultimate tic-tac-toe position drawn, with its legal moves."""

from __future__ import annotations

import json

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from certify.cli.app import console, fail, option_fail
from certify.render.text import searched_values
from certify.render.uttt import draw_grid, status_words
from solver.games.positional.rules import RulesError
from solver.games.uttt.engine import IllegalMove, Position, PositionError, Uttt, from_text

LEGEND = ("boards and cells are numbered 0 1 2 / 3 4 5 / 6 7 8; a move is BOARD.CELL; green digits are "
          "the cells the player to move may take; backgrounds: blue won by X, magenta won by O, grey drawn")


def read_position(game: Uttt, position: str | None, moves: str | None) -> Position:
    """The position named by `--position` or reached by `--moves`; exits 2 with the reason."""
    if position is not None and moves is not None:
        raise fail("give --position or --moves, not both")
    option = "--position" if position is not None else "--moves"
    try:
        if position is not None:
            return game.parse_position(position)
        return game.play_moves(moves or "")
    except (PositionError, IllegalMove) as err:
        raise option_fail(option, err) from None


def position_view(game: Uttt, s: Position) -> dict:
    """The position as plain data: notation, side to move, finished boards, result, legal moves."""
    terminal = game.is_terminal(s)
    return {
        "position": game.format_position(s),
        "to_move": None if terminal else game.to_move(s),
        "sent_to": None if s.sent < 0 else s.sent,
        "finished": status_words(s),
        "terminal": terminal,
        "returns": list(game.returns(s)) if terminal else None,
        "moves": [game.format_move(m) for m in game.legal_moves(s)],
    }


def show_uttt(name: str, position: str | None, moves: str | None, solve_nodes: int | None, json_out: bool,
              as_svg: bool = False) -> None:
    """Print one position of the game `name` (`uttt`, `uttt:open`): the grid, who moves where, the
    legal moves and, when solved, their values (or, `as_svg`, the position as an SVG picture)."""
    try:
        game = from_text(name)
    except RulesError as err:
        raise fail(str(err)) from None
    s = read_position(game, position, moves)
    if as_svg:
        from certify.render.uttt import position_svg

        console.file.write(position_svg(game, s) + "\n")
        return
    view = position_view(game, s)
    if solve_nodes is not None:
        from certify.cli.valued import valued_moves

        view["move_values"] = valued_moves(game, s, solve_nodes, not json_out)
    if json_out:
        console.print_json(json.dumps(view))
        return
    if view["terminal"]:
        result = {(1, -1): "X won", (-1, 1): "O won", (0, 0): "drawn"}[tuple(view["returns"])]
        status = f"game over: {result}"
    else:
        where = ("any empty cell" if game.rules.open else "any open board") if s.sent < 0 else f"board {s.sent}"
        status = f"{'XO'[view['to_move'] - 1]} to move in {where}"
    console.print(f"position [bold]{view['position']}[/]", soft_wrap=True)
    head = Text(f"{status}; finished boards: {view['finished']}")
    if "move_values" in view:
        table = searched_values(view["move_values"], solve_nodes)
    else:
        table = Table("legal moves", box=None)
        table.add_row(" ".join(view["moves"]) or "none")
    console.print(Panel(Group(head, draw_grid(game, s), Text(LEGEND, style="dim"), table), title=game.rules.name, expand=False))
