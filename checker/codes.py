"""State codes of positional boards of at most 16 cells, and the per-half tables that make them fast.

A state's code is `sum(mark[i] * 3**i)`, cell 0 the least significant trit; playing mark m on
cell c adds `m * 3**c`. Splitting a code as `high * split + low` (low: the first cells // 2
cells) lets one lookup per half answer what the per-state work needs: marks placed, lines
complete, the children's codes.
"""

from dataclasses import dataclass

from checker import positional
from checker.positional import Game


@dataclass(frozen=True)
class Halves:
    """Per half of the board, indexed by the half's trit number: what the per-state work needs.

    A code splits as `high * split + low`; a line is complete in X when both halves hold only X on
    its cells, so `x_lines = x[low] & x[high]` as bit sets of lines; likewise O and child deltas.
    """

    split: int
    filled: tuple[list[int], list[int]]
    x: tuple[list[int], list[int]]
    o: tuple[list[int], list[int]]
    deltas: dict[int, tuple[list[tuple[int, ...]], list[tuple[int, ...]]]]  # player -> (low, high)


def line_sets(game: Game) -> list[int]:
    """For each cell, the set of lines through it as a bit set (bit i: game.lines[i])."""
    bitmaps = [bytearray(len(game.lines) // 8 + 1) for _ in range(game.cells)]
    for index, line in enumerate(game.lines):
        for cell in line:
            bitmaps[cell][index // 8] |= 1 << index % 8
    return [int.from_bytes(bitmap, "little") for bitmap in bitmaps]


def half(game: Game, first: int, count: int, through: list[int]) -> tuple[list, ...]:
    """filled, x, o and per-player deltas for every assignment of marks to cells first..first+count-1."""
    every = (1 << len(game.lines)) - 1
    filled, x, o, deltas = [], [], [], {1: [], 2: []}
    for number in range(3**count):
        marks = [number // 3**i % 3 for i in range(count)]
        cells = range(first, first + count)
        filled.append(count - marks.count(0))
        for mark, sets in ((positional.X, x), (positional.O, o)):
            broken = 0
            for cell, held in zip(cells, marks):
                if held != mark:
                    broken |= through[cell]
            sets.append(every & ~broken)
        for player in (1, 2):
            placeable = positional.placeable(game, player)
            deltas[player].append(tuple(m * 3**c for c, held in zip(cells, marks) if not held for m in placeable))
    return filled, x, o, deltas


def halves(game: Game) -> Halves:
    """The half tables of a board."""
    low_count = game.cells // 2
    through = line_sets(game)
    low, high = half(game, 0, low_count, through), half(game, low_count, game.cells - low_count, through)
    return Halves(3**low_count, (low[0], high[0]), (low[1], high[1]), (low[2], high[2]),
                  {p: (low[3][p], high[3][p]) for p in (1, 2)})


def state(game: Game, code: int) -> str:
    """'state CODE (BOARD)' for messages."""
    board = tuple(code // 3**i % 3 for i in range(game.cells))
    return f"state {code} ({positional.draw_board(game, board)})"
