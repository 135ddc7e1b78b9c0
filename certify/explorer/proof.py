"""The explorer's data for a proved strategy, for any game of the game interface (solver/games/game.py).

A strategy certificate stores the prover's move at each position its strategy reaches; the page
walks that proof: at the prover's positions the one move, at the opponent's every reply. The
positions are drawn from `format_position` (rows of X, O and '.' joined by '/', then optional
extra words such as Ultimate tic-tac-toe's board sent to), and a move's cell is the one cell that
changes between a position and its child, so nothing here or in the page knows a family.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Callable
from typing import Any

from certify.explorer import PageFacts, render_page

NODE_LIMIT = 20_000


def grid(text: str) -> tuple[str, str]:
    """`X.O/.X./... rest` → ('X.O.X....', 'rest'): the cells in reading order and the extra words."""
    rows, _, rest = text.partition(" ")
    return rows.replace("/", ""), rest


def changed_cell(before: str, after: str) -> int:
    """The index of the one cell a move filled, or -1 if not exactly one changed."""
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    return changed[0] if len(changed) == 1 else -1


def proof_nodes(
    game: Any, root: Any, prover: int, choose: Callable[[Any], Any], limit: int = NODE_LIMIT
) -> tuple[list[dict], bool]:
    """The proof as a DAG, breadth first from `root`: each node's position and its children.

    A node is {"p": position text, "m": player to move, "r": player 1's result if terminal else
    None, "c": [[move text, child node or -1, grid cell, mark], ...]}. Positions met again by
    another move order are one node. Returns the nodes and whether `limit` cut the proof short.
    """
    ids: dict[Any, int] = {game.key(root): 0}
    states = [root]
    nodes: list[dict] = []
    cut = False
    for state in states:  # grows while we walk it: breadth first
        text = game.format_position(state)
        node: dict = {"p": text, "m": game.to_move(state), "r": None, "c": []}
        nodes.append(node)
        if game.is_terminal(state):
            node["r"] = game.returns(state)[0]
            continue
        moves = [choose(state)] if game.to_move(state) == prover else game.legal_moves(state)
        cells = grid(text)[0]
        for move in moves:
            child = game.apply(state, move)
            key = game.key(child)
            if key not in ids and len(ids) >= limit:
                cut = True  # the page shows the move but not where it leads
            elif key not in ids:
                ids[key] = len(states)
                states.append(child)
            after = grid(game.format_position(child))[0]
            cell = changed_cell(cells, after)
            node["c"].append([game.format_move(move), ids.get(key, -1), cell, after[cell] if cell >= 0 else ""])
    return nodes, cut


def proof_page_data(certificate: Any, game: Any, verdict: str | None, source: str, limit: int = NODE_LIMIT, *,
                    progress: Callable[[int], None] | None = None) -> dict:
    """The JSON object the page reads for a strategy certificate: identity, claim and the proof DAG.
    `progress(positions)`: called while the file's traversal is replayed (minutes for Qubic)."""
    from certify.proving.single import required_move, strategy_lookup

    claim = certificate.claim
    lookup = strategy_lookup(certificate, game, progress=progress)
    root = game.initial() if claim.root is None else game.parse_position(claim.root)
    nodes, cut = proof_nodes(game, root, claim.player, lambda state: required_move(lookup, game, claim.player, state), limit)
    return {
        "kind": "strategy",
        "source": source,
        "game": {"name": game.rules.name, "description": game.rules.describe(), "sha256": certificate.rules_sha256,
                 "marks": getattr(game.rules, "marks", "own")},
        "claim": {"player": claim.player, "result": claim.result, "root": claim.root},
        "verdict": verdict,
        "provenance": certificate.provenance.model_dump(mode="json"),
        "proof": {"prover": claim.player, "guarantees": claim.result, "positions": certificate.proof.positions,
                  "count": len(nodes), "nodes": packed_json(nodes), "cut": cut, "limit": limit},
    }


def packed_json(value: object) -> str:
    """Compact JSON, zlib level 9, base64: how the page embeds the proof (it inflates it itself)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=True)
    return base64.b64encode(zlib.compress(text.encode(), 9)).decode("ascii")


def unpacked_json(text: str) -> object:
    """Inverse of packed_json."""
    return json.loads(zlib.decompress(base64.b64decode(text)))


def build_proof_page(certificate: Any, game: Any, verdict: str | None, source: str, *,
                     progress: Callable[[int], None] | None = None) -> tuple[str, PageFacts]:
    """The page for a strategy certificate and what it embeds."""
    data = proof_page_data(certificate, game, verdict, source, progress=progress)
    html = render_page(data)
    return html, PageFacts(data["proof"]["count"], None, len(html.encode()))
