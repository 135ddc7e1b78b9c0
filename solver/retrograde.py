"""Exhaustive solving: enumerate the reachable states layer by layer, then label them backwards.

Layer `d` holds the states with `d` marks; every move adds one mark, so the move graph is a DAG
whose edges go from layer `d` to layer `d + 1`, and labelling the layers from the last to the
first is retrograde analysis. All work is on numpy arrays of codes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from solver.engine import CODE_DTYPE, NO_CHILD, Game
from solver.rules import Rules, require_table_size

ProgressHook = Callable[[str, int, int], None]

_KEY_STEP = 1024  # larger than twice any distance, so the value or margin dominates the key


@dataclass(frozen=True)
class Solution:
    """Every reachable state with its label, sorted by code.

    values/margins are for the side to move; distances are plies to the end under optimal play.
    `best` is the index of the child reached by the best move (fastest win, slowest loss,
    best margin), or -1 for terminal states.
    """

    rules: Rules
    codes: np.ndarray  # uint32, strictly ascending
    values: np.ndarray  # int8
    distances: np.ndarray  # uint8
    margins: np.ndarray | None  # int8 for most-lines
    terminal: np.ndarray  # bool
    best: np.ndarray  # int64

    @property
    def game(self) -> Game:
        """The game these labels are about."""
        return Game(self.rules)

    def __len__(self) -> int:
        return len(self.codes)

    def index(self, codes: np.ndarray | int) -> np.ndarray | int:
        """Positions of `codes` in the table; raises KeyError for a state not reachable."""
        array = np.atleast_1d(np.asarray(codes, dtype=np.int64))
        pos = np.searchsorted(self.codes, array)
        pos_clipped = np.minimum(pos, len(self.codes) - 1)
        found = self.codes[pos_clipped] == array
        if not found.all():
            raise KeyError(int(array[~found][0]))
        return int(pos[0]) if np.ndim(codes) == 0 else pos

    def children(self, indices: np.ndarray) -> np.ndarray:
        """Child indices of the states at `indices`: shape (n, 2*cells), -1 where no move."""
        game = Game(self.rules)
        codes = self.codes[indices]
        out = np.full((len(indices), 2 * game.cells), -1, dtype=np.int64)
        live = ~self.terminal[indices]
        if live.any():
            child = game.child_codes(codes[live])
            legal = child != NO_CHILD
            pos = np.searchsorted(self.codes, np.where(legal, child, 0))
            out[live] = np.where(legal, pos, -1)
        return out

    def value(self, code: int) -> int:
        """Value of `code` for the side to move."""
        return int(self.values[self.index(code)])


def enumerate_layers(game: Game, progress: ProgressHook | None = None) -> list[np.ndarray]:
    """The reachable states, one sorted code array per number of marks."""
    layers = [np.zeros(1, dtype=np.int64)]
    while len(layers[-1]):
        codes = layers[-1]
        if progress:
            progress("enumerate", len(layers) - 1, len(codes))
        boards = game.decode(codes)
        live = ~game.terminal_labels(codes, boards).terminal
        children = game.child_codes(codes[live], boards[live])
        seen = np.zeros(3**game.cells, dtype=bool)  # a bitmap dedupes in linear time, sorted
        seen[children[children != NO_CHILD]] = True
        layers.append(np.flatnonzero(seen))
    return layers[:-1]


def solve(rules: Rules, progress: ProgressHook | None = None) -> Solution:
    """Enumerate and label every state reachable from the empty board (RulesError past 4x4)."""
    require_table_size(rules)
    game = Game(rules)
    layers = enumerate_layers(game, progress)
    most_lines = rules.goal == "most-lines"
    labelled: list[tuple[np.ndarray, ...]] = []
    next_values = next_distances = next_margins = None
    row_in_next = np.zeros(3**rules.cells, dtype=np.int32)  # code -> row of the layer below
    for depth in range(len(layers) - 1, -1, -1):
        if progress:
            progress("label", depth, len(layers[depth]))
        codes = layers[depth]
        boards = game.decode(codes)
        term = game.terminal_labels(codes, boards)
        values = term.value.copy()
        margins = term.margin.copy()
        distances = np.zeros(len(codes), dtype=np.int16)
        best_local = np.full(len(codes), -1, dtype=np.int64)
        live = np.flatnonzero(~term.terminal)
        if len(live):
            children = game.child_codes(codes[live], boards[live])
            legal = children != NO_CHILD
            pos = np.where(legal, row_in_next[np.where(legal, children, 0)], 0)
            parent_value = -next_values[pos].astype(np.int32)
            child_dist = next_distances[pos].astype(np.int32)
            primary = -next_margins[pos].astype(np.int32) if most_lines else parent_value
            secondary = np.where(parent_value == 1, -child_dist, child_dist)
            key = np.where(legal, primary * _KEY_STEP + secondary, np.iinfo(np.int32).min)
            choice = key.argmax(axis=1)
            chosen = pos[np.arange(len(live)), choice]
            values[live] = -next_values[chosen]
            distances[live] = next_distances[chosen] + 1
            margins[live] = -next_margins[chosen]
            best_local[live] = chosen
        labelled.append((codes, values, distances, margins, term.terminal, best_local))
        row_in_next[codes] = np.arange(len(codes), dtype=np.int32)
        next_values, next_distances, next_margins = values, distances, margins
    return _assemble(rules, labelled[::-1], most_lines)


def _assemble(rules: Rules, layers: list[tuple[np.ndarray, ...]], most_lines: bool) -> Solution:
    """Concatenate per-layer labels into one table sorted by code, remapping best-child indices."""
    offsets = np.cumsum([0] + [len(layer[0]) for layer in layers])
    codes = np.concatenate([layer[0] for layer in layers])
    best = np.concatenate(
        [np.where(layer[5] >= 0, layer[5] + offsets[d + 1], -1) for d, layer in enumerate(layers)]
    )
    order = np.argsort(codes, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    best = best[order]
    best = np.where(best >= 0, rank[np.maximum(best, 0)], -1)
    return Solution(
        rules=rules,
        codes=codes[order].astype(CODE_DTYPE),
        values=np.concatenate([layer[1] for layer in layers])[order].astype(np.int8),
        distances=np.concatenate([layer[2] for layer in layers])[order].astype(np.uint8),
        margins=np.concatenate([layer[3] for layer in layers])[order].astype(np.int8)
        if most_lines
        else None,
        terminal=np.concatenate([layer[4] for layer in layers])[order],
        best=best,
    )
