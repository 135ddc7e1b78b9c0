"""`certify tree`: a strategy drawn as a tree of its moves and every opponent reply."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Optional

import numpy as np
import typer
from rich.text import Text
from rich.tree import Tree

from certify.cli.app import GAME_HELP, app, console, fail, load_table_game
from certify.proving import ProofFileError, read_proof, strategy_moves
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
                return entry
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


def draw(tree: Tree, entry: dict, cols: int, solution: Solution) -> None:
    """Add `entry`'s strategy move and the opponent replies below `tree`."""
    if "play" in entry:
        after = entry["then"]
        label = Text.assemble(("plays ", "dim"), (entry["play"], "bold cyan"), f"  → {after['code']}")
        draw(tree.add(label), after, cols, solution)
    for reply, child in entry.get("replies", {}).items():
        board = board_line(solution.game.board(child["code"]), cols)
        ending = " (game over)" if child["distance"] == 0 else ""
        label = Text.assemble(("if ", "dim"), (reply, "bold magenta"), f"  {board}{ending}")
        draw(tree.add(label), child, cols, solution)


@app.command()
def tree(
    game: Annotated[str, typer.Argument(help=GAME_HELP, show_default=False)],
    player: Annotated[Optional[int], typer.Option("--player", help="Whose strategy (1 or 2); default: the one that forces the value, or player 1 in a draw.")] = None,
    depth: Annotated[int, typer.Option("--depth", min=1, max=8, help="How many of the player's own moves to draw.")] = 2,
    json_out: Annotated[bool, typer.Option("--json", help="Print the tree as JSON.")] = False,
) -> None:
    """Draw the certified strategy of GAME: each move it plays and every opponent reply.

    GAME may also be a strategy certificate (`certify prove`): its proof tree is drawn.
    """
    if game.endswith(".json") and Path(game).is_file() and is_strategy_file(Path(game)):
        draw_proof(Path(game), depth, json_out)
        return
    rules = load_table_game(game)
    solution = solve(rules)
    strategies = {s.player: s for s in root_strategies(solution)}
    chosen = player if player is not None else min(strategies)
    if chosen not in strategies:
        raise fail(f"player {chosen} has no strategy that forces the value in {rules.name} (players: {sorted(strategies)})")
    strategy = strategies[chosen]
    data = strategy_tree(solution, chosen, depth)
    if json_out:
        console.print_json(json.dumps({"game": rules.name, "player": chosen, "guarantees": strategy.guarantees, "tree": data}))
        return
    title = Text.assemble(
        (rules.name, "bold"), f": player {chosen} ", ("wins" if strategy.guarantees == "win" else "never loses", "bold green"),
        f" — root value ", value_text(data["value"]), f", {len(strategy)} strategy entries; {depth} move(s) shown",
    )
    root = Tree(title, guide_style="dim")
    draw(root, data, rules.cols, solution)
    console.print(root)


def is_strategy_file(path: Path) -> bool:
    """Whether the file is a JSON object of kind `strategy` (anything else is a GAME)."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(document, dict) and document.get("kind") == "strategy"


def proof_node(game: Any, moves: dict, state: Any, prover: int, moves_left: int) -> dict:
    """The proof from `state`: the prover's move, or every reply, `moves_left` prover moves deep."""
    entry: dict = {"position": game.format_position(state)}
    if game.is_terminal(state):
        entry["returns"] = list(game.returns(state))
    elif game.to_move(state) == prover:
        if moves_left:
            move = moves[game.key(state)]
            entry["play"] = game.format_move(move)
            entry["then"] = proof_node(game, moves, game.apply(state, move), prover, moves_left - 1)
    else:
        entry["replies"] = {game.format_move(m): proof_node(game, moves, game.apply(state, m), prover, moves_left)
                            for m in game.legal_moves(state)}
    return entry


def draw_proof_node(tree: Tree, entry: dict) -> None:
    """Add the prover's move and the opponent's replies of `entry` below `tree`."""
    if "play" in entry:
        label = Text.assemble(("plays ", "dim"), (entry["play"], "bold cyan"), f"  {entry['then']['position']}")
        draw_proof_node(tree.add(label), entry["then"])
    for reply, child in entry.get("replies", {}).items():
        ending = f" (game over, {tuple(child['returns'])})" if "returns" in child else ""
        label = Text.assemble(("if ", "dim"), (reply, "bold magenta"), f"  {child['position']}{ending}")
        draw_proof_node(tree.add(label), child)


def draw_proof(path: Path, depth: int, json_out: bool) -> None:
    """Draw a strategy certificate's proof tree, `depth` prover moves deep (the file is not checked here)."""
    try:
        certificate, game = read_proof(path)
        moves = strategy_moves(certificate, game)
        claim = certificate.claim
        root = game.initial() if claim.root is None else game.parse_position(claim.root)
    except (ProofFileError, ValueError) as err:
        raise fail(str(err)) from None
    data = proof_node(game, moves, root, claim.player, depth)
    if json_out:
        console.print_json(json.dumps({"game": game.rules.name, "player": claim.player, "result": claim.result,
                                       "prover_moves": certificate.proof.turns, "tree": data}))
        return
    title = Text.assemble(
        (game.rules.name, "bold"), f": player {claim.player} ",
        ("wins" if claim.result == "win" else "does not lose", "bold green"),
        f" from {data['position']} — proof tree of {certificate.proof.turns:,} moves, "
        f"{certificate.proof.positions:,} positions; {depth} move(s) shown",
    )
    root_tree = Tree(title, guide_style="dim")
    draw_proof_node(root_tree, data)
    console.print(root_tree)
