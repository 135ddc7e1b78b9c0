"""Moves valued by proof search for `certify show --solve`, with a progress bar on stderr."""

from __future__ import annotations

from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from certify.cli.app import errors
from certify.proving.single import move_values
from solver.games.game import Game


def valued_moves(game: Game[Any, Any], state: Any, nodes: int, shown: bool) -> list[dict[str, Any]]:
    """certify.proving.single.move_values, showing the moves valued so far and the elapsed time."""
    if not shown or not errors.is_terminal:
        return move_values(game, state, nodes)
    with Progress(TextColumn("valuing moves by proof search"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=errors, transient=True) as bar:
        task = bar.add_task("moves", total=None)
        return move_values(game, state, nodes, lambda done, total: bar.update(task, completed=done, total=total))
