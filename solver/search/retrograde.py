"""Exhaustive solving: enumerate the reachable states layer by layer, then label them backwards.

Layer `d` holds the states with `d` marks; every move adds one mark, so the move graph is a DAG
whose edges go from layer `d` to layer `d + 1`, and labelling the layers from the last to the
first is retrograde analysis.

The labels live in one table indexed by state code (3**cells keys), so a child's label is
one lookup at `code + mark * 3**cell`. A parent is labelled one move column `(cell, mark)` at a
time: sorted parents give sorted children, the lookups sweep the table in order, and nothing
wider than one column of the current chunk is ever alive. Each table entry is an *order key*:
the child a parent prefers has the smallest key, so labelling is a running minimum (see
`LabelOrder`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from solver.games.positional.engine import CODE_DTYPE, NO_CHILD, Game
from solver.games.positional.rules import Rules, require_table_size

ProgressHook = Callable[[str, int, int], None]

NO_MOVE = 255  # `Solution.moves` of a terminal state
_CHUNK = 1 << 16  # parents handled at once: temporaries stay in cache and are reused, not page-faulted


@dataclass(frozen=True)
class Solution:
    """Every reachable state with its label, sorted by code.

    values/margins are for the side to move; distances are plies to the end under optimal play.
    `moves` is the column `2*cell + mark - 1` of the best move (fastest win, slowest loss, best
    margin; the first column among equals), NO_MOVE for terminal states.
    """

    rules: Rules
    codes: np.ndarray  # uint32, strictly ascending
    values: np.ndarray  # int8
    distances: np.ndarray  # uint8
    margins: np.ndarray | None  # int8 for most-lines
    terminal: np.ndarray  # bool
    moves: np.ndarray  # uint8
    edges: int  # legal moves summed over the reachable non-terminal states

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

    def best_children(self, indices: np.ndarray) -> np.ndarray:
        """Codes (int64) of the states the best move leads to from the non-terminal `indices`."""
        return self.codes[indices].astype(np.int64) + self.game.move_offsets[self.moves[indices]]

    def move_table(self) -> np.ndarray:
        """`moves` indexed by code (3**cells entries, NO_MOVE where terminal or not reachable)."""
        table = np.full(3**self.rules.cells, NO_MOVE, dtype=np.uint8)
        for start in range(0, len(self), _CHUNK):
            table[self.codes[start : start + _CHUNK].astype(np.int64)] = self.moves[start : start + _CHUNK]
        return table

    @cached_property
    def best(self) -> np.ndarray:
        """Index of the child reached by the best move of every state, -1 for terminal states."""
        live = np.flatnonzero(~self.terminal)
        best = np.full(len(self), -1, dtype=np.int64)
        best[live] = np.searchsorted(self.codes, self.best_children(live))
        return best

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


@dataclass(frozen=True)
class LabelOrder:
    """Labels `(score, distance)` as small integer keys ordered by a parent's preference.

    `score` is the value for the side to move (the margin for most-lines) and `distance` the
    plies to the end. A parent wants the child with the lowest score (its own score is the
    negation); among equal scores, the fastest win when the parent wins (child score < 0),
    else the slowest end. `key = (score + span) * 32 + (distance if score < 0 else 31 - distance)`
    makes that the smallest key, so labelling is a running minimum. The table holds keys; a
    parent compares candidates `key << 5 | column` (in `wide`), which also keeps the first
    column reaching the best key. OPEN, the largest value of `dtype`, marks a state not
    labelled yet; a move that is not legal gets a candidate of all ones.
    """

    span: int  # the largest |score|

    DIST = 32  # distances are at most 16 plies (4x4), below 32
    SHIFT = 5  # 2 * 16 move columns fit 5 bits

    @property
    def count(self) -> int:
        """Number of keys."""
        return (2 * self.span + 1) * self.DIST

    @property
    def dtype(self) -> type[np.unsignedinteger]:
        """The narrowest unsigned type holding every key and OPEN."""
        return np.uint8 if self.count < 2**8 else np.uint16 if self.count < 2**16 else np.uint32

    @property
    def wide(self) -> type[np.unsignedinteger]:
        """The type of candidates `key << 5 | column`."""
        return {np.uint8: np.uint16, np.uint16: np.uint32, np.uint32: np.uint64}[self.dtype]

    @property
    def open(self) -> int:
        return int(np.iinfo(self.dtype).max)

    def key(self, score: np.ndarray | int, distance: np.ndarray | int) -> np.ndarray:
        """Keys of labels."""
        score = np.asarray(score, dtype=np.int64)
        distance = np.asarray(distance, dtype=np.int64)
        low = np.where(score < 0, distance, self.DIST - 1 - distance)
        return ((score + self.span) * self.DIST + low).astype(self.dtype)

    @cached_property
    def _labels(self) -> tuple[np.ndarray, np.ndarray]:
        """(score, distance) of every key, int64."""
        keys = np.arange(self.count)
        score = keys // self.DIST - self.span
        low = keys % self.DIST
        return score, np.where(score < 0, low, self.DIST - 1 - low)

    def scores(self, keys: np.ndarray) -> np.ndarray:
        """Score of each key (int8; most-lines margins beyond ±127 do not fit the format)."""
        return self._labels[0].astype(np.int8)[keys]

    def distances(self, keys: np.ndarray) -> np.ndarray:
        """Distance of each key (uint8)."""
        return self._labels[1].astype(np.uint8)[keys]

    @cached_property
    def parent_of(self) -> np.ndarray:
        """The parent's key, indexed by its best child's key."""
        score, distance = self._labels
        return self.key(-score, np.minimum(distance + 1, self.DIST - 1))


def _order(rules: Rules) -> LabelOrder:
    """The label order of a game: scores are values, or line margins for most-lines."""
    return LabelOrder(span=len(rules.lines) if rules.goal == "most-lines" else 1)


def solve(rules: Rules, progress: ProgressHook | None = None) -> Solution:
    """Enumerate and label every state reachable from the empty board (RulesError past 4x4)."""
    require_table_size(rules)
    game = Game(rules)
    order = _order(rules)
    # Padded so that `code + mark * 3**cell` stays in range for any code: the solver looks such
    # sums up before masking out occupied cells. Entries are written before they are read.
    table = np.empty(3**game.cells + 2 * 3 ** (game.cells - 1), dtype=order.dtype)
    bitmap = np.zeros(3**game.cells, dtype=bool)
    layers, edges = _enumerate(game, table, bitmap, order, progress)
    del bitmap
    moves = np.full(3**game.cells, NO_MOVE, dtype=np.uint8)
    codes = np.empty(sum(len(layer) for layer in layers), dtype=CODE_DTYPE)
    end = len(codes)
    while layers:  # the deepest first; each layer's codes move into `codes` once labelled
        depth = len(layers) - 1
        if progress:
            progress("label", depth, len(layers[depth]))
        label_layer(game, table, moves, order, depth, layers[depth])
        layer = layers.pop()
        codes[end - len(layer) : end] = layer
        end -= len(layer)
    codes.sort(kind="stable")  # merges the sorted layers (timsort finds the runs)
    states = len(codes)
    keys = np.empty(states, dtype=order.dtype)
    for start in range(0, states, _CHUNK):
        keys[start : start + _CHUNK] = table[codes[start : start + _CHUNK].astype(np.int64)]
    del table
    scores, distances = order.scores(keys), order.distances(keys)
    return Solution(
        rules=rules,
        codes=codes,
        values=np.sign(scores, dtype=np.int8) if rules.goal == "most-lines" else scores,
        distances=distances,
        margins=scores if rules.goal == "most-lines" else None,
        terminal=distances == 0,
        moves=moves[codes],
        edges=edges,
    )


def enumerate_layers(game: Game, progress: ProgressHook | None = None) -> list[np.ndarray]:
    """The reachable states, one sorted uint32 code array per number of marks."""
    order = _order(game.rules)
    table = np.empty(3**game.cells, dtype=order.dtype)
    return _enumerate(game, table, np.zeros(3**game.cells, dtype=bool), order, progress)[0]


def _enumerate(
    game: Game, table: np.ndarray, bitmap: np.ndarray, order: LabelOrder, progress: ProgressHook | None = None
) -> tuple[list[np.ndarray], int]:
    """The reachable states, one sorted uint32 code array per number of marks, and the edges.

    Writes each reached state's key: its terminal label, or OPEN. `bitmap` (one bool
    per code, all False) collects a layer's children and is left all False.
    """
    layers = [np.zeros(1, dtype=CODE_DTYPE)]
    edges = 0
    for depth in range(game.cells):
        if progress:
            progress("enumerate", depth, len(layers[-1]))
        marks = game.rules.marks_for(1 + depth % 2)
        for chunk in _chunks(layers[-1]):
            keys = terminal_keys(game, order, depth, chunk)
            table[chunk] = keys
            parents = chunk[keys == order.open]
            edges += len(parents) * (game.cells - depth) * len(marks)
            mark_children(game, bitmap, parents, marks)
        children = drain(bitmap)
        if not len(children):
            return layers, edges
        layers.append(children)
    for chunk in _chunks(layers[-1]):
        table[chunk] = terminal_keys(game, order, game.cells, chunk)
    return layers, edges


def terminal_keys(game: Game, order: LabelOrder, depth: int, codes: np.ndarray) -> np.ndarray:
    """Keys of the states with `depth` marks: their terminal labels, OPEN elsewhere.

    First-line goals: a state with a complete line is terminal (the mover faces a line the
    other player just completed), and so is a full board, drawn. most-lines: full boards only.
    """
    if game.rules.goal == "most-lines":
        if depth < game.cells:
            return np.full(len(codes), order.open, dtype=order.dtype)
        return order.key(game.terminal_labels(codes).margin, 0)
    keys = np.full(len(codes), order.open if depth < game.cells else order.key(0, 0), dtype=order.dtype)
    sign = -1 if game.rules.goal == "first-line-wins" else 1
    keys[game.has_line(codes)] = order.key(sign, 0)
    return keys


def label_layer(
    game: Game, table: np.ndarray, moves: np.ndarray, order: LabelOrder, depth: int, codes: np.ndarray
) -> None:
    """Label the non-terminal states of one layer from the labels of the layer below."""
    marks = game.rules.marks_for(1 + depth % 2)
    offsets = game.move_offsets.tolist()
    wide = order.wide
    for chunk in _chunks(codes):
        live = chunk[table[chunk] == order.open]
        best = np.full(len(live), np.iinfo(wide).max, dtype=wide)
        for cell, empty in _empty_bits(game, live):
            blocked = empty.astype(wide) - wide(1)  # all ones where the cell is taken
            for mark in marks:
                column = 2 * cell + mark - 1
                candidate = np.left_shift(np.take(table, live + offsets[column]), order.SHIFT, dtype=wide)
                candidate |= blocked | wide(column)
                np.minimum(best, candidate, out=best)
        table[live] = order.parent_of[best >> order.SHIFT]
        moves[live] = best & ((1 << order.SHIFT) - 1)


def _chunks(codes: np.ndarray) -> Iterator[np.ndarray]:
    """Consecutive slices of `codes` as int64 (the index type of numpy's lookups)."""
    for start in range(0, len(codes), _CHUNK):
        yield codes[start : start + _CHUNK].astype(np.int64)


def _empty_bits(game: Game, codes: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    """(cell, 1 where the cell is empty else 0 as int64) for every cell."""
    empty = game.empty_cells(codes)
    for cell in range(game.cells):
        yield cell, (empty >> cell) & 1


def mark_children(game: Game, bitmap: np.ndarray, codes: np.ndarray, marks: tuple[int, ...]) -> None:
    """Set `bitmap` (one bool per code) at every child of `codes` (int64, one layer) by `marks`."""
    offsets = game.move_offsets.tolist()
    for cell, empty in _empty_bits(game, codes):
        for mark in marks:
            bitmap[codes + empty * offsets[2 * cell + mark - 1]] = True
    bitmap[codes] = False  # an occupied cell "moved" to the parent itself


def drain(bitmap: np.ndarray) -> np.ndarray:
    """The codes set in `bitmap` (one bool per code), ascending (uint32), clearing it."""
    parts = [np.zeros(0, dtype=CODE_DTYPE)]
    step = _CHUNK * 64
    for start in range(0, len(bitmap), step):
        window = bitmap[start : start + step]
        found = np.flatnonzero(window)
        if len(found):
            parts.append(found.astype(CODE_DTYPE) + CODE_DTYPE(start))
            window.fill(False)
    return np.concatenate(parts)
