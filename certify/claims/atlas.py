"""Claims that a position graph holds one node per reachable state (seed 000's Atlas).

The source's graph is not available, only its description and the codes it prints. The audit
rebuilds the Atlas as described ("built by recursively generating all possible moves for a given
situation starting from empty field, while keeping track of the situations being referenced")
with the engine's move generator, and compares its node set, element by element, with the
reachable states of the solver's table (a separate computation).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import Field

from certify.claims.base import ClaimBase, describe
from certify.claims.facts import Bench, GameFacts
from certify.claims.result import Reading
from solver.search.analysis import symmetric_image, symmetry_classes
from solver.games.positional.rules import board_symmetries
from solver.games.positional.engine import Game


def rebuild_atlas(game: Game) -> tuple[set[int], set[int]]:
    """The situations the Atlas build visits from the empty field (root included), and those
    referenced by some move (the root is never referenced: no move leads to the empty field)."""
    visited = {game.initial()}
    referenced: set[int] = set()
    stack = [game.initial()]
    while stack:
        code = stack.pop()
        if game.is_terminal(code):
            continue
        for move in game.legal_moves(code):
            child = game.apply(code, move)
            referenced.add(child)
            if child not in visited:
                visited.add(child)
                stack.append(child)
    return visited, referenced


def _compare(nodes: set[int], states: set[int], game: Game) -> tuple[str, bool, str]:
    """(measured, identical, witness) of two sets of codes."""
    only_nodes, only_states = sorted(nodes - states), sorted(states - nodes)
    same = not only_nodes and not only_states
    measured = f"{len(nodes):,} nodes, {len(states):,} states, " + ("the same set" if same else "different sets")
    witness = "; ".join(
        f"{len(extra):,} {label}, e.g. {describe(game, extra[0])}"
        for extra, label in ((only_nodes, "nodes that are not states"), (only_states, "states that are not nodes"))
        if extra
    )
    return measured, same, witness


class AtlasNodes(ClaimBase):
    """The graph's nodes are exactly the reachable states (one node per state), `value` of them.

    `codes` are the state codes the source prints as nodes (inputs): each must be a reachable
    state. `value` is the count the source gives; it is shown beside each reading's count (the
    count itself is judged by a `count` claim).
    """

    kind: Literal["atlas_nodes"]
    value: int = Field(ge=0)
    codes: list[int] = []

    def says(self) -> str:
        return f"Atlas nodes = reachable states, one node per state ({self.value:,} of each)"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        game = facts.game
        visited, referenced = rebuild_atlas(game)
        states = {int(c) for c in facts.solution.codes}
        readings = []
        for name, nodes, compared in (
            ("nodes: every situation the rebuilt Atlas visits, the empty field included; states: every state reachable from the empty board", visited, states),
            ("nodes: every situation some move references (the empty field is never referenced); states: every state reachable by at least one move", referenced, states - {game.initial()}),
        ):
            measured, same, witness = _compare(nodes, compared, game)
            counted = "matches" if len(nodes) == self.value else "differs from"
            readings.append(Reading(name, f"{measured} ({counted} the source's {self.value:,})", same, witness))
        return readings

    def reasons(self, facts: GameFacts, readings: list[Reading]) -> list[str]:
        game, solution = facts.game, facts.solution
        states = {int(c) for c in solution.codes}
        missing = [c for c in self.codes if c not in states]
        out = [
            f"{len(self.codes) - len(missing):,} of the {len(self.codes):,} codes the source prints as Atlas situations are reachable states"
            + (f"; not reachable: {', '.join(map(str, missing))}" if missing else "")
        ]
        pair = _symmetric_pair(game, sorted(set(self.codes) & states))
        classes = symmetry_classes(solution, swap_marks=False)
        if pair:
            a, b = pair
            out.append(
                f"'stores each canonicalized situation once' could mean one node per symmetry class: {classes:,} classes, "
                f"not one node per state; but the source's own dumps print symmetric situations as separate nodes "
                f"({describe(game, a)} and {describe(game, b)}), so its Atlas is not reduced by symmetry"
            )
        return out


def _symmetric_pair(game: Game, codes: list[int]) -> tuple[int, int] | None:
    """Two of `codes` that a board symmetry maps onto each other (the first such pair), if any."""
    if not codes:
        return None
    boards = game.decode(np.array(codes, dtype=np.int64))
    for perm in board_symmetries(game.rules):
        images = (symmetric_image(boards, perm, False).astype(np.int64) @ game.pow3).tolist()
        for code, image in zip(codes, images):
            if image != code and image in codes:
                return (min(code, image), max(code, image))
    return None
