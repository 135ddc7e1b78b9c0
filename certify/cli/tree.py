"""`certify tree`: a strategy drawn as a tree of its moves and every opponent reply."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from rich.text import Text
from rich.tree import Tree

from certify.cli.app import app, console, fail, load_table_game
from certify.cli.labels import Labelled, labelled_game
from certify.cli.options import GAME_HELP, CertOpt, JsonOpt, PlayerOpt
from certify.cli.solving import solving_progress
from certify.files import certificate_kind
from certify.record.format import VALUE_WORDS
from certify.proving.single import CLOSED, ProofFileError, read_proof, required_move, strategy_lookup
from certify.render.text import board_line, plural, value_text
from certify.render.tree import Node, dot, svg
from solver.games.positional.engine import Game


def strategy_tree(labelled: Labelled, player: int, depth: int) -> dict:
    """The strategy of `player` from the empty board, `depth` of its own moves deep.

    The strategy plays the solver's choice in every state (best value, fastest win, slowest loss).
    """
    game = labelled.game

    def node(code: int, moves_left: int) -> dict:
        value, distance, _ = labelled.label(code)
        entry: dict = {"code": code, "value": VALUE_WORDS[value], "distance": distance}
        if game.is_terminal(code):
            return entry
        if game.to_move(code) == player:
            if moves_left == 0:
                return entry | {"cut": True}
            move, child = labelled.best(code)
            entry["play"] = str(move)
            entry["then"] = node(child, moves_left - 1)
        else:
            entry["replies"] = {str(move): node(child, moves_left) for move, child in labelled.moves(code)}
        return entry

    return node(0, depth)  # the empty board


def ending(entry: dict, player: int, game: Game) -> Text:
    """How the game stands after a move: over (and who won), or cut by --depth."""
    if entry["distance"] == 0:
        winner = game.returns(entry["code"])
        if winner[player - 1] == 1:
            return Text("  ★ wins", style="bold green")
        return Text("  game over: " + ("draw" if winner[0] == 0 else "loses"), style="yellow" if winner[0] == 0 else "bold red")
    if entry.get("cut"):
        return Text(f"  … cut by --depth ({entry['value']} in {plural(entry['distance'], 'ply', 'plies')})", style="dim")
    return Text("")


def draw(tree: Tree, entry: dict, cols: int, game: Game, player: int) -> None:
    """Add `entry`'s strategy move and the opponent replies below `tree`."""
    if "play" in entry:
        after = entry["then"]
        board = board_line(game.board(after["code"]), cols)
        label = Text.assemble(("plays ", "dim"), (entry["play"], "bold cyan"), f"  {board}  #{after['code']}", ending(after, player, game))
        draw(tree.add(label), after, cols, game, player)
    for reply, child in entry.get("replies", {}).items():
        board = board_line(game.board(child["code"]), cols)
        label = Text.assemble(("if ", "dim"), (reply, "bold magenta"), f"  {board}", ending(child, player, game))
        draw(tree.add(label), child, cols, game, player)


@app.command()
def tree(
    game: Annotated[str, typer.Argument(metavar="GAME|PROOF", help=f"{GAME_HELP} Or a proof file (.json written by `certify prove`): its proof tree is drawn.", show_default=False)],
    player: PlayerOpt = None,
    depth: Annotated[int, typer.Option("--depth", metavar="D", min=1, max=8, help="How many of the player's own moves to draw.")] = 2,
    cert: CertOpt = None,
    json_out: JsonOpt = False,
    picture_format: Annotated[Literal["text", "dot", "svg"], typer.Option("--format", help="text: drawn in the terminal; dot: Graphviz DOT; svg: a picture (both on stdout).")] = "text",
) -> None:
    """Draw the certified strategy of GAME: each move it plays and every opponent reply.

    The strategy is the player's that forces the game's value (player 1's in a draw, unless
    --player 2): in each state it plays the best move, the fastest win or slowest loss.
    ★ marks a move that wins; … marks where --depth cut the tree.

    GAME may also be a strategy certificate (`certify prove`): its proof tree is drawn.

    Example: certify tree w3t --depth 1
    """
    if json_out and picture_format != "text":
        raise fail("give --json or --format dot|svg, not both")
    kind = certificate_kind(game)
    if kind == "strategy":
        draw_proof(Path(game), depth, json_out, picture_format)
        return
    if kind is not None:
        raise fail(f"{game}: a certificate of kind {kind}; tree draws a proof (kind strategy) given as GAME, or a table's strategy with GAME --cert FILE")
    rules = load_table_game(game, certificates_too=True)
    with solving_progress(not json_out) as hook:
        labelled = labelled_game(rules, cert, hook)
    root_value = labelled.label(0)[0]
    forcing = {1: [1], -1: [2], 0: [1, 2]}[root_value]  # who can force the value: the winner, or both in a draw
    chosen = int(player) if player is not None else forcing[0]
    if chosen not in forcing:
        raise fail(f"--player {chosen}: player {chosen} cannot force the value ({VALUE_WORDS[root_value]} for player 1) in {rules.name}; only player {forcing[0]} has a strategy")
    guarantees = "no-loss" if root_value == 0 else "win"
    data = strategy_tree(labelled, chosen, depth)
    if picture_format != "text":
        said = f"{rules.name}: player {chosen} {'wins' if guarantees == 'win' else 'never loses'} ({plural(depth, 'own move')} shown)"
        picture(strategy_picture(data, labelled.game, chosen), said, picture_format)
        return
    if json_out:
        console.print_json(json.dumps({"game": rules.name, "player": chosen, "guarantees": guarantees, "tree": data}))
        return
    title = Text.assemble(
        (rules.name, "bold"), f": player {chosen} ", ("wins" if guarantees == "win" else "never loses", "bold green"),
        " — root value ", value_text(data["value"]), f"; {plural(depth, 'own move')} shown",
    )
    root = Tree(title, guide_style="dim")
    draw(root, data, rules.cols, labelled.game, chosen)
    console.print(root)
    console.print(Text(f"#N: the state's code (certify show {game} --code N)", style="dim"))


def brief(game: Any, state: Any) -> str:
    """A position as a tree label: a small board on one line, or for uttt who plays in which board."""
    if getattr(game, "family", None) == "uttt":
        from certify.render.uttt import brief as uttt_brief

        return uttt_brief(game, state)
    return board_line(game.board(state), game.rules.cols)


def proof_node(game: Any, moves: Callable[[Any], Any], state: Any, prover: int, moves_left: int, plies_left: int | None) -> dict:
    """The proof from `state`: the prover's move, or every reply, `moves_left` prover moves deep.
    `plies_left`: a bounded claim's plies before its bound (None: no bound); at the bound, and where
    the proof closes a position by a pairing or a count, the entry says so and goes no deeper."""
    entry: dict = {"position": game.format_position(state), "brief": brief(game, state)}
    if game.is_terminal(state):
        entry["returns"] = list(game.returns(state))
    elif plies_left == 0:
        entry["bound"] = True
    elif game.to_move(state) == prover:
        move = required_move(moves, game, prover, state)
        if move == CLOSED:
            entry["closed"] = True
        elif moves_left:
            entry["play"] = game.format_move(move)
            entry["then"] = proof_node(game, moves, game.apply(state, move), prover, moves_left - 1, later(plies_left))
    else:
        entry["replies"] = {game.format_move(m): proof_node(game, moves, game.apply(state, m), prover, moves_left, later(plies_left))
                            for m in game.legal_moves(state)}
    return entry


def later(plies_left: int | None) -> int | None:
    return None if plies_left is None else plies_left - 1


def proof_end(entry: dict, closure: str) -> tuple[str, str]:
    """Why a proof's branch ends here, as (mark, words): the claim's bound, or the position closed
    by `closure`; ("", "") where it goes on (or ends in play)."""
    if entry.get("bound"):
        return "⊣", "the bound: the claim holds here"
    if entry.get("closed"):
        return "■", f"closed by {closure}"
    return "", ""


def proof_ending(entry: dict, closure: str) -> Text:
    """proof_end as the terminal draws it after a position."""
    mark, words = proof_end(entry, closure)
    return Text(f"  {mark} {words}" if mark else "", style="green")


def draw_proof_node(tree: Tree, entry: dict, closure: str) -> None:
    """Add the prover's move and the opponent's replies of `entry` below `tree`."""
    if "play" in entry:
        after = entry["then"]
        label = Text.assemble(("plays ", "dim"), (entry["play"], "bold cyan"), f"  {after['brief']}", proof_ending(after, closure))
        draw_proof_node(tree.add(label), after, closure)
    for reply, child in entry.get("replies", {}).items():
        label = Text.assemble(("if ", "dim"), (reply, "bold magenta"), f"  {child['brief']}", proof_ending(child, closure))
        draw_proof_node(tree.add(label), child, closure)


def proof_picture(entry: dict, closure: str) -> Node:
    """A proof tree (proof_node) as a picture's nodes."""
    leaf = "play" in entry or "replies" in entry or "returns" in entry
    node = Node(entry["brief"], note=proof_end(entry, closure)[1] or ("" if leaf else "…"))
    if "play" in entry:
        node.edges.append((entry["play"], "prover", proof_picture(entry["then"], closure)))
    for reply, child in entry.get("replies", {}).items():
        node.edges.append((reply, "reply", proof_picture(child, closure)))
    return node


def strategy_picture(entry: dict, game: Game, player: int) -> Node:
    """A table strategy tree (strategy_tree) as a picture's nodes."""
    node = Node(board_line(game.board(entry["code"]), game.rules.cols), note=ending(entry, player, game).plain.strip())
    if "play" in entry:
        node.edges.append((entry["play"], "prover", strategy_picture(entry["then"], game, player)))
    for reply, child in entry.get("replies", {}).items():
        node.edges.append((reply, "reply", strategy_picture(child, game, player)))
    return node


def picture(root: Node, title: str, kind: str) -> None:
    """Print the tree as DOT or SVG on stdout."""
    console.file.write(dot(root, title) if kind == "dot" else svg(root, title))


CLOSURES = {"counts": ("a count", "the opponent cannot complete a meta line in the plies left"),
            "pairings": ("a pairing", "every line the opponent can still complete holds a pair of its empty cells")}


def draw_proof(path: Path, depth: int, json_out: bool, picture_format: str = "text") -> None:
    """Draw a strategy certificate's proof tree, `depth` prover moves deep (the file is not checked here)."""
    try:
        certificate, game = read_proof(path)
        with solving_progress(not json_out) as hook:
            moves = strategy_lookup(certificate, game, closures=True,
                                    progress=None if hook is None else lambda n: hook("replaying the proof", -1, n))
        claim = certificate.claim
        root = game.initial() if claim.root is None else game.parse_position(claim.root)
        data = proof_node(game, moves, root, claim.player, depth, claim.within)
    except (ProofFileError, ValueError) as err:
        raise fail(str(err)) from None
    closure, meaning = CLOSURES["counts" if certificate.proof.counts else "pairings"]
    guarantees = ("wins" if claim.result == "win" else "does not lose") + ("" if claim.within is None else f" within {claim.within} plies")
    images = certificate.proof.image_count or 0
    prover_moves = certificate.proof.turns - (certificate.proof.closures or 0) - images
    if picture_format != "text":
        said = f"{game.rules.name}: player {claim.player} {guarantees} ({plural(depth, 'move')} shown)"
        picture(proof_picture(data, closure), said, picture_format)
        return
    if json_out:
        console.print_json(json.dumps({"game": game.rules.name, "player": claim.player, "result": claim.result, "within": claim.within,
                                       "prover_moves": prover_moves, "closures": certificate.proof.closures or 0, "images": images,
                                       "blocks": certificate.proof.replies == "blocks", "tree": data}))
        return
    closed = f", {certificate.proof.closures:,} closed by {closure}" if certificate.proof.closures else ""
    closed += f", {images:,} named as symmetric images (drawn through them)" if images else ""
    closed += ", only blocks listed (a reply not made one loses at once: drawn too)" if certificate.proof.replies == "blocks" else ""
    title = Text.assemble(
        (game.rules.name, "bold"), f": player {claim.player} ", (guarantees, "bold green"),
        f" from {data['brief']} — proof tree of {prover_moves:,} moves, "
        f"{certificate.proof.positions:,} positions{closed}; {plural(depth, 'move')} shown",
    )
    root_tree = Tree(title, guide_style="dim")
    draw_proof_node(root_tree, data, closure)
    console.print(root_tree)
    if getattr(game, "family", None) == "uttt":
        console.print(Text("a move is BOARD.CELL; [X 1 8 · O 4 · = 7]: the boards X has won, O has won, drawn", style="dim"))
    if certificate.proof.closures:
        console.print(Text(f"■ closed by {closure}: {meaning}; the proof's record there says how, and `certify check FILE` "
                           "verifies it", style="dim"))
