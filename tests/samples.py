"""Shared test inputs: random positions of a positional board paired with the closure both cores
find there, and a random place to edit in a JSON document (hypothesis)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

from solver.games.positional.blocking import closing_pairing
from solver.search.native import NativeProofSearch
from solver.search.pns import Claim


def closure_samples(game: Any, hooks: Any, positions: int, seed: int,
                    potential: bool = False) -> Iterator[tuple[list[int], int, Any, Any]]:
    """For `positions` random positions of `game` (9, 11 or 13 random moves; ended ones skipped):
    the board, the side to move as the prover of no-loss, the Python closure there
    (`closing_pairing`, None if none) and the compiled search's record after one node (None if it
    did not close the position by a closure)."""
    rng = random.Random(seed)
    for _ in range(positions):
        state = game.initial()
        for _ in range(rng.choice([9, 11, 13])):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if game.is_terminal(state):
            continue
        board = game.board(state)
        prover = 1 + sum(1 for mark in board if mark) % 2
        python = closing_pairing(game.rules.lines, board, prover, potential=potential)
        search = NativeProofSearch(game, Claim(prover, "no-loss"), hooks, closures=True)
        search.search(state, max_nodes=1)
        tree = search.strategy(state) if search.numbers(state)[0] == 0 else None
        compiled = tree.closures[0] if tree is not None and tree.moves == [255] else None
        yield board, prover, python, compiled


def edit_point(data: st.DataObject, document: Any) -> tuple[Any, Any]:
    """A random container of `document` and a key in it (None, None for an empty document): the
    place a test overwrites with random JSON."""
    node, key = document, None
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return node, key
        key = data.draw(st.sampled_from(keys))
        if not isinstance(node[key], (dict, list)) or data.draw(st.booleans()):
            return node, key
        node = node[key]


def assert_closure_mismatch_refused(invoke: Any, claim: list[str], checkpoint: Any) -> None:
    """A checkpoint `claim` saved under the meta-line count closure is refused in one line (exit 2)
    once its closure names another nesting, or none: `invoke(args)` runs the CLI."""
    data = checkpoint.read_bytes()
    assert b'"closure": "meta-line count, deep records nested 3"' in data
    for other in (data.replace(b"nested 3", b"nested 2"), data.replace(b'"closure": "meta-line count, deep records nested 3", ', b"")):
        assert other != data
        checkpoint.write_bytes(other)
        result = invoke([*claim, "--resume", str(checkpoint)])
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
        assert result.stderr.startswith(f"error: {checkpoint}: a checkpoint of this search under closure"), result.stderr
