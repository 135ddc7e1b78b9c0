"""Patashnik's strategy for Qubic (1980), as a policy for `certify prove`.

Oren Patashnik proved Qubic (4×4×4 tic-tac-toe) a first-player win in 1976–77 ("Qubic: 4x4x4
Tic-Tac-Toe", Mathematics Magazine 53(4):202–216, 1980); Ken Thompson put his 2,929 strategic
moves in their dictionary form in 1978. The dictionary is kept unchanged, with its own terms and
credit, in certify/papers/data/qubic.dictionary; each line is a position (X to move, up to the
cube's 192 symmetries) and X's strategic move there. Its header says how X plays: (1) win at once
if it can, else (2) block O's three in a row, else (3) play the dictionary's move if the position
is in it, else (4) play a forced win (a sequence of threes, each forcing O's block, ending in two
at once), which must exist.

`qubic_plan` names the move of step 3 and leaves steps 1, 2 and 4 to the proof search: where it
names none, the search chooses, and its threat space (solver/games/positional/hooks.py) finds
wins, blocks and forced sequences first. Nothing here is trusted: the search checks the plan
against every reply of O, and the checker reads the whole proof (`certify prove qubic --claim win
--player 1 --policy certify.papers.patashnik:qubic_plan`, docs/findings.md).
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

from solver.games.positional.engine import Game, Move
from solver.games.positional.symmetry import line_automorphisms

DICTIONARY = "qubic.dictionary"
_BODY = "-" * 41 + "\n"  # the line that ends the dictionary's header
_TOKEN = re.compile(r"x|o|\d+")
SIDE = 4


def dictionary_cell(index: int) -> int:
    """certify's cell of the dictionary's cell `index`: the dictionary numbers cell (layer z, row r,
    column c) 16z + 4r + c; certify lays the layers side by side, r·16 + z·4 + c (rules.py
    `cube_lines`). Both are coordinates of one cube, so lines go to lines."""
    z, r, c = index // 16, index // 4 % 4, index % 4
    return r * SIDE * SIDE + z * SIDE + c


def read_dictionary(text: str) -> list[tuple[str, int]]:
    """The dictionary's lines as (position, move), both in certify's cells: the position as 64
    characters 'x', 'o' or '.', the move a cell. Raises ValueError on a line it cannot read."""
    if _BODY not in text:
        raise ValueError("not Patashnik's Qubic dictionary: no line of dashes ends its header")
    entries = []
    for number, line in enumerate(text.split(_BODY, 1)[1].splitlines(), 1):
        spelled, _, move = line.rpartition(" ")
        cells: list[str] = []
        for token in _TOKEN.findall(spelled):
            cells += [token] if token in "xo" else ["."] * int(token)
        cells += ["."] * (SIDE**3 - len(cells))
        if len(cells) != SIDE**3 or not move.isdigit() or int(move) >= SIDE**3 or cells[int(move)] != "." \
                or cells.count("x") != cells.count("o"):
            raise ValueError(f"dictionary line {number} ('{line}') is not a position with X to move and a free cell")
        ours = ["."] * SIDE**3
        for index, mark in enumerate(cells):
            ours[dictionary_cell(index)] = mark
        entries.append(("".join(ours), dictionary_cell(int(move))))
    return entries


class Book:
    """The dictionary up to the game's symmetries: positions as (X's cells, O's cells) bit masks."""

    def __init__(self, game: Game, entries: list[tuple[str, int]]) -> None:
        self.perms = line_automorphisms(game.rules)
        self.lines = [sum(1 << c for c in line) for line in game.rules.lines]
        # byte tables: images[g][k][b] is the image under perm g of byte b of a mask's k-th byte
        self.images = [[[sum(1 << p[8 * k + i] for i in range(8) if b >> i & 1) for b in range(256)]
                        for k in range(8)] for p in self.perms]
        self.moves: dict[tuple[int, int], int] = {}
        self.profiles: set[tuple[int, ...]] = set()
        for spelled, move in entries:
            x = sum(1 << c for c, mark in enumerate(spelled) if mark == "x")
            o = sum(1 << c for c, mark in enumerate(spelled) if mark == "o")
            key, g = self.canonical(x, o)
            self.moves.setdefault(key, self.perms[g][move])
            self.profiles.add(self.profile(x, o))
        self.most = max((x.bit_count() for x, _ in self.moves), default=0)  # X's marks in its deepest position

    def profile(self, x: int, o: int) -> tuple[int, ...]:
        """How many lines hold each (X marks, O marks): the same for every image of a position, so a
        position whose profile no entry has is not in the dictionary (most positions the search
        meets), and costs no canonical form."""
        counts = [0] * 25
        for line in self.lines:
            counts[5 * (line & x).bit_count() + (line & o).bit_count()] += 1
        return tuple(counts)

    def image(self, g: int, mask: int) -> int:
        tables = self.images[g]
        return (tables[0][mask & 255] | tables[1][mask >> 8 & 255] | tables[2][mask >> 16 & 255]
                | tables[3][mask >> 24 & 255] | tables[4][mask >> 32 & 255] | tables[5][mask >> 40 & 255]
                | tables[6][mask >> 48 & 255] | tables[7][mask >> 56])

    def canonical(self, x: int, o: int) -> tuple[tuple[int, int], int]:
        """The least image of the position over the symmetries, and the symmetry giving it."""
        return min(((self.image(g, x), self.image(g, o)), g) for g in range(len(self.perms)))

    def move(self, x: int, o: int) -> int | None:
        """The dictionary's move in this position (X to move), in its own cells; None where X
        completes a line or must block O's three (steps 1 and 2), or the position is not in it."""
        profile = self.profile(x, o)
        if profile[5 * 3] or profile[3] or profile not in self.profiles:  # X completes a line, or must block O's
            return None
        key, g = self.canonical(x, o)
        move = self.moves.get(key)
        return None if move is None else self.perms[g].index(move)



@cache
def book(game: Game) -> Book:
    """Patashnik's dictionary for `game` (qubic), read once."""
    if game.rules.name != "qubic":
        raise ValueError(f"Patashnik's dictionary is about qubic, not {game.rules.name}")
    return Book(game, read_dictionary(files("certify.papers").joinpath("data", DICTIONARY).read_text()))


def qubic_plan(game: Game, code: int) -> tuple[Move, ...]:
    """X's strategic move from the dictionary in position `code` (X to move), or () where X wins or
    blocks at once, or the position is not in it (the search then chooses)."""
    board, plan = game.board(code), book(game)
    if board.count(1) > plan.most:  # past the dictionary's deepest position (most of the search's)
        return ()
    x = sum(1 << c for c, mark in enumerate(board) if mark == 1)
    o = sum(1 << c for c, mark in enumerate(board) if mark == 2)
    move = plan.move(x, o)
    return () if move is None else (Move(move, 1),)


# the dictionary is read by canonical form, so the plan names the images of its moves at the images
# of a position: its search may share one table entry among them (solver/search/policy.py)
qubic_plan.symmetric = True  # type: ignore[attr-defined]
