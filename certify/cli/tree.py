"""`certify tree`: a strategy drawn as a tree of its moves and every opponent reply."""

from __future__ import annotations

import json
from typing import Annotated

import numpy as np
import typer
from rich.text import Text
from rich.tree import Tree

from certify.cli.app import app, console, fail, load_table_game
from certify.cli.options import GameArg, JsonOpt, PlayerOpt, plural
from certify.render import board_line, value_text
from certify.schema import VALUE_WORDS
from solver.retrograde import Solution, solve
from solver.strategy import root_strategies


def move_name(solution: Solution, parent: int, child: int) -> str:
    """`X4`: the mark and cell that turn state row `parent` into row `child`."""
    placed = int(solution.codes[child]) - int(solution.codes[parent])
    cell = next(i for i in range(solution.rules.cells) if (placed // 3**i) % 3)
    return f"{'XO'[(placed // 3**cell) - 1]}{cell}"


def strategy_tree(solution: Solution, player: int, depth: int) -> dict:
    """The strategy of `player` from the empty board, `depth` of its own moves deep."""

    def node(row: int, moves_left: int) -> dict:
        code = int(solution.codes[row])
        entry = {"code": code, "value": VALUE_WORDS[int(solution.values[row])], "distance": int(solution.distances[row])}
        if solution.terminal[row]:
            return entry
        if solution.game.to_move(code) == player:
            if moves_left == 0:
                return entry | {"cut": True}
            best = int(solution.best[row])
            entry["play"] = move_name(solution, row, best)
            entry["then"] = node(best, moves_left - 1)
        else:
            children = solution.children(np.array([row]))[0]
            entry["replies"] = {
                move_name(solution, row, int(c)): node(int(c), moves_left) for c in children if c >= 0
            }
        return entry

    return node(0, depth)


def ending(entry: dict, player: int, solution: Solution) -> Text:
    """How the game stands after a move: over (and who won), or cut by --depth."""
    if entry["distance"] == 0:
        winner = solution.game.returns(entry["code"])
        if winner[player - 1] == 1:
            return Text("  ★ wins", style="bold green")
        return Text("  game over: " + ("draw" if winner[0] == 0 else "loses"), style="yellow" if winner[0] == 0 else "bold red")
    if entry.get("cut"):
        return Text(f"  … cut by --depth ({entry['value']} in {plural(entry['distance'], 'ply', 'plies')})", style="dim")
    return Text("")


def draw(tree: Tree, entry: dict, cols: int, solution: Solution, player: int) -> None:
    """Add `entry`'s strategy move and the opponent replies below `tree`."""
    if "play" in entry:
        after = entry["then"]
        board = board_line(solution.game.board(after["code"]), cols)
        label = Text.assemble(("plays ", "dim"), (entry["play"], "bold cyan"), f"  {board}  #{after['code']}", ending(after, player, solution))
        draw(tree.add(label), after, cols, solution, player)
    for reply, child in entry.get("replies", {}).items():
        board = board_line(solution.game.board(child["code"]), cols)
        label = Text.assemble(("if ", "dim"), (reply, "bold magenta"), f"  {board}", ending(child, player, solution))
        draw(tree.add(label), child, cols, solution, player)


@app.command()
def tree(
    game: GameArg,
    player: PlayerOpt = None,
    depth: Annotated[int, typer.Option("--depth", metavar="D", min=1, max=8, help="How many of the player's own moves to draw.")] = 2,
    json_out: JsonOpt = False,
) -> None:
    """Draw the certified strategy of GAME: each move it plays and every opponent reply.

    The strategy is the player's that forces the game's value (player 1's in a draw, unless
    --player 2). ★ marks a move that wins; … marks where --depth cut the tree.

    Example: certify tree w3t --depth 1
    """
    rules = load_table_game(game)
    solution = solve(rules)
    strategies = {s.player: s for s in root_strategies(solution)}
    chosen = int(player) if player is not None else min(strategies)
    if chosen not in strategies:
        value = VALUE_WORDS[int(solution.values[0])]
        raise fail(f"--player {chosen}: player {chosen} cannot force the value ({value} for player 1) in {rules.name}; only player {min(strategies)} has a strategy")
    strategy = strategies[chosen]
    data = strategy_tree(solution, chosen, depth)
    if json_out:
        console.print_json(json.dumps({"game": rules.name, "player": chosen, "guarantees": strategy.guarantees, "tree": data}))
        return
    title = Text.assemble(
        (rules.name, "bold"), f": player {chosen} ", ("wins" if strategy.guarantees == "win" else "never loses", "bold green"),
        " — root value ", value_text(data["value"]), f", {plural(len(strategy), 'strategy entry', 'strategy entries')}; "
        f"{plural(depth, 'own move')} shown",
    )
    root = Tree(title, guide_style="dim")
    draw(root, data, rules.cols, solution, chosen)
    console.print(root)
    console.print(Text(f"#N: the state's code (certify show {game} --code N)", style="dim"))
