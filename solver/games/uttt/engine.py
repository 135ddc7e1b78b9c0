"""Ultimate tic-tac-toe: the rules model and a bitboard engine behind the game protocol.

Nine 3×3 local boards form a 3×3 meta-board. Boards and cells are numbered 0..8 row-major; a
move is a global index `9 * board + cell`. Marks live in two 81-bit integers (X and O), board b
in bits 9b..9b+8, so a local board is one 9-bit chunk and every rule question is a table lookup
on a chunk. A move in cell c sends the opponent to board c; a closed board cannot be played in,
and a player sent to a closed board may play in any open cell. Three won boards in a meta line
win; when no move remains the game is drawn. Two rule sets (docs/uttt.md): `uttt`, OpenSpiel's
`ultimate_tic_tac_toe`, closes a board once it is won or full; `uttt:open`, the open rules of
Bertholon et al. 2020, closes a board only when it is full (a won board stays playable and stays
won by the first player who made a line in it).

`critical_*` and `immediate_wins` are the positional analysis of seed 003 ("critical squares"),
used by proof search as optional pruning and move ordering, and audited in certify/claims.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from collections.abc import Callable
from functools import cache
from typing import Literal, NamedTuple

from solver.games.positional.rules import RulesError, canonical_json

X, O = 1, 2
FULL9 = 0x1FF
LINES3 = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_LINE_MASKS = tuple(sum(1 << c for c in line) for line in LINES3)

# WON[m]: the 9-bit set m holds a line.  COMPLETERS[m]: cells that would complete a line of m.
WON = tuple(any(m & line == line for line in _LINE_MASKS) for m in range(512))
COMPLETERS = tuple(
    sum(1 << c for c in range(9) if not m >> c & 1 and WON[m | 1 << c]) for m in range(512)
)
# The 81 cells of every set of boards (a 9-bit board mask), and each board's chunk mask.
BOARD_CELLS = tuple(sum(FULL9 << 9 * b for b in range(9) if m >> b & 1) for m in range(512))
# MOVES[b][m]: the global moves on the cells of board b in the 9-bit set m, ascending.
SET_BITS = tuple(tuple(c for c in range(9) if m >> c & 1) for m in range(512))
MOVES = tuple(tuple(tuple(9 * b + c for c in SET_BITS[m]) for m in range(512)) for b in range(9))


@dataclass(frozen=True)
class UtttRules:
    """The rules of one Ultimate tic-tac-toe variant; every choice a variant could make is named.

    Two variants are implemented (docs/uttt.md): `uttt` (OpenSpiel's: won boards are closed, a
    player sent to a closed board plays in any open board) and `uttt:open` (the open rules:
    won boards stay playable, only a full board is closed, and a player sent to a full board
    plays in any empty cell). In both, drawn boards count for nobody and no move left is a draw.
    """

    name: str = "uttt"
    won_boards: Literal["closed", "playable"] = "closed"
    drawn_boards: Literal["count-for-nobody"] = "count-for-nobody"
    sent_to_closed: Literal["play-any-open-board", "play-any-empty-cell"] = "play-any-open-board"
    no_moves_left: Literal["draw"] = "draw"

    family: Literal["uttt"] = "uttt"

    def __post_init__(self) -> None:
        pair = (self.won_boards, self.sent_to_closed)
        if pair not in (("closed", "play-any-open-board"), ("playable", "play-any-empty-cell")):
            raise RulesError(f"uttt rules won_boards {self.won_boards!r} with sent_to_closed "
                             f"{self.sent_to_closed!r} are not a variant this engine implements")

    @property
    def open(self) -> bool:
        """Won boards stay playable (the open rules): only a full board is closed."""
        return self.won_boards == "playable"

    def canonical(self) -> dict:
        """The rules as a plain JSON-ready dict: the form embedded in certificates."""
        return {
            "family": self.family,
            "name": self.name,
            "won_boards": self.won_boards,
            "drawn_boards": self.drawn_boards,
            "sent_to_closed": self.sent_to_closed,
            "no_moves_left": self.no_moves_left,
        }

    def sha256(self) -> str:
        """Hex sha256 of the canonical JSON without the name (sorted keys, no spaces, UTF-8)."""
        body = {k: v for k, v in self.canonical().items() if k != "name"}
        return hashlib.sha256(canonical_json(body).encode()).hexdigest()

    def describe(self) -> str:
        """The game in words."""
        if self.open:
            return ("Ultimate tic-tac-toe, open rules: nine 3x3 boards in a 3x3 meta-board, 8 lines of 3 "
                    "on each; X then O; a move in cell c sends the opponent to board c, won or not, "
                    "while it has an empty cell; a board is won by the first line in it and stays "
                    "playable; sent to a full board, play in any empty cell; three won boards in a meta "
                    "line win, a full grid without one is a draw")
        return ("Ultimate tic-tac-toe: nine 3x3 boards in a 3x3 meta-board, 8 lines of 3 on each; "
                "X then O; a move in cell c sends the opponent to board c; won boards close, drawn "
                "boards count for nobody; sent to a closed board, play in any open board; three won "
                "boards in a meta line win, no move left is a draw")


OPEN_RULES = UtttRules(name="uttt:open", won_boards="playable", sent_to_closed="play-any-empty-cell")


class Position(NamedTuple):
    """One state: the marks, the won and closed boards (9-bit masks), and the board sent to.

    `x`, `o`: 81-bit marks. `xw`, `ow`: boards won by X, by O. `closed`: boards no one may play
    in (won or full; under the open rules, full). `sent`: the board the player to move must play
    in, or -1 when any open board is allowed. Under the rules `uttt` every field but `sent`
    follows from the marks; under the open rules a board may hold lines of both marks, and
    `xw`/`ow` record who made one first. All are kept because every move reads them.
    """

    x: int
    o: int
    xw: int
    ow: int
    closed: int
    sent: int


class PositionError(ValueError):
    """A position or move text that does not describe a legal state; the message is one line."""


class IllegalMove(ValueError):
    """`move` is not legal in the position."""


def chunk(marks: int, board: int) -> int:
    """The 9-bit marks of one local board."""
    return marks >> 9 * board & FULL9


def meta_winner(xw: int, ow: int) -> int:
    """1 or 2 if that player holds a meta line, else 0."""
    return X if WON[xw] else O if WON[ow] else 0


class Uttt:
    """Ultimate tic-tac-toe behind the game protocol (solver/games/game.py)."""

    family = "uttt"

    def __init__(self, rules: UtttRules | None = None) -> None:
        self.rules = rules or UtttRules()

    def search_hooks(self) -> CriticalSquares:
        """Seed 003's critical-square pruning and ordering (`certify prove --plain` goes without)."""
        return CriticalSquares(self.rules.open)

    def symmetries(self) -> list[tuple[Callable[[Position], Position], Callable[[int], int]]]:
        """The grid's 8 symmetries as (position map, move map), the identity first (game.py): a rotation
        or reflection of the 9×9 grid moves boards and cells alike, so a move's cell still names the
        board it sends to, and lines, won boards and the meta lines go to their images."""
        return [(lambda s, p=p: grid_image(s, p), lambda move, p=p: 9 * p[move // 9] + p[move % 9]) for p in GRID_SYMMETRIES]

    # ---- the protocol ------------------------------------------------------------------------

    def initial(self) -> Position:
        """The empty board; X may play anywhere."""
        return Position(0, 0, 0, 0, 0, -1)

    def to_move(self, s: Position) -> int:
        """1 (X) when both have placed as many marks, else 2 (O)."""
        return X if s.x.bit_count() == s.o.bit_count() else O

    def is_terminal(self, s: Position) -> bool:
        """A meta line is won, or every board is closed."""
        return WON[s.xw] or WON[s.ow] or s.closed == FULL9

    def returns(self, s: Position) -> tuple[int, int]:
        """(X, O) result of a terminal position: +1 win, 0 draw, -1 loss."""
        if not self.is_terminal(s):
            raise ValueError("the position is not terminal")
        winner = meta_winner(s.xw, s.ow)
        return (0, 0) if winner == 0 else (1, -1) if winner == X else (-1, 1)

    def playable(self, s: Position) -> int:
        """81-bit mask of the cells the player to move may mark (0 when terminal)."""
        if self.is_terminal(s):
            return 0
        boards = 1 << s.sent if s.sent >= 0 else FULL9 & ~s.closed
        return BOARD_CELLS[boards] & ~(s.x | s.o)

    def legal_moves(self, s: Position) -> list[int]:
        """Every legal move, as global cell indices ascending; empty iff terminal."""
        if WON[s.xw] or WON[s.ow]:
            return []
        empty = ~(s.x | s.o)
        if s.sent >= 0:
            return list(MOVES[s.sent][empty >> 9 * s.sent & FULL9])
        out: list[int] = []
        for board in SET_BITS[FULL9 & ~s.closed]:
            out += MOVES[board][empty >> 9 * board & FULL9]
        return out

    def apply(self, s: Position, move: int) -> Position:
        """The position after `move`; raises IllegalMove if it is not legal."""
        if type(move) is not int or not 0 <= move < 81:
            raise IllegalMove(f"move {move!r} is not a cell index 0..80")
        board = move // 9
        if (s.x | s.o) >> move & 1 or s.closed >> board & 1 or 0 <= s.sent != board or WON[s.xw] or WON[s.ow]:
            raise IllegalMove(f"move {format_move(move)} is not legal")
        return play(s, move, self.rules.open)

    def key(self, s: Position) -> Position:
        """A hashable key: the position itself (its derived fields follow from the rest)."""
        return s

    # ---- notation ----------------------------------------------------------------------------

    def format_position(self, s: Position) -> str:
        """Nine rows of nine cells (X, O, .) joined by '/', a space, the board sent to or '*'."""
        return format_position(s)

    def parse_position(self, text: str) -> Position:
        """Inverse of format_position; raises PositionError."""
        return parse_position(text, self.rules.open)

    def format_move(self, move: int) -> str:
        """`B.C`: local board B, cell C (each 0..8 row-major)."""
        return format_move(move)

    def parse_move(self, text: str) -> int:
        """`B.C` (or `BC`) → global index; raises PositionError."""
        return parse_move(text)

    def play_moves(self, text: str, start: Position | None = None) -> Position:
        """The position after a move list like `4.0 0.4, 4.8`; raises PositionError or IllegalMove."""
        s = self.initial() if start is None else start
        for index, token in enumerate(t for t in re.split(r"[,\s]+", text.strip()) if t):
            move = parse_move(token)
            try:
                s = self.apply(s, move)
            except IllegalMove:
                raise IllegalMove(f"move {index + 1} ({token}) is not legal in {format_position(s)}") from None
        return s


def bits(mask: int) -> list[int]:
    """Indices of the set bits of `mask`, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def play(s: Position, move: int, open_rules: bool = False) -> Position:
    """The position after `move`, without checking legality (the engine's hot path).

    The first line in a board wins it; under the open rules (`open_rules`) the board stays
    playable until full and a later line in it, of either mark, changes nothing.
    """
    board = move // 9
    shift = 9 * board
    x, o, xw, ow, closed, _ = s
    unwon = not (xw | ow) >> board & 1
    if x.bit_count() == o.bit_count():
        x |= 1 << move
        if unwon and WON[x >> shift & FULL9]:
            xw |= 1 << board
    else:
        o |= 1 << move
        if unwon and WON[o >> shift & FULL9]:
            ow |= 1 << board
    if not open_rules:
        closed |= xw | ow
    if (x | o) >> shift & FULL9 == FULL9:
        closed |= 1 << board
    cell = move - shift
    return Position(x, o, xw, ow, closed, -1 if closed >> cell & 1 else cell)


def from_marks(x: int, o: int, sent: int, open_rules: bool = False, first: int = 0) -> Position:
    """The position with these marks and board sent to, its won and closed boards derived.

    A board holding lines of both marks (possible only under the open rules) is X's if its bit
    is set in `first` (the boards where X's line came first), else O's.
    """
    xl = sum(1 << b for b in range(9) if WON[chunk(x, b)])
    ol = sum(1 << b for b in range(9) if WON[chunk(o, b)])
    both = xl & ol
    xw = xl & ~both | both & first
    ow = ol & ~both | both & ~first
    full = sum(1 << b for b in range(9) if chunk(x | o, b) == FULL9)
    closed = full if open_rules else xw | ow | full
    return Position(x, o, xw, ow, closed, -1 if sent < 0 or closed >> sent & 1 else sent)


# The 3×3 board's rotations and reflections, as permutations of 0..8 (row-major), the identity first.
GRID_SYMMETRIES = ((0, 1, 2, 3, 4, 5, 6, 7, 8), (2, 5, 8, 1, 4, 7, 0, 3, 6), (8, 7, 6, 5, 4, 3, 2, 1, 0), (6, 3, 0, 7, 4, 1, 8, 5, 2),
                   (2, 1, 0, 5, 4, 3, 8, 7, 6), (6, 7, 8, 3, 4, 5, 0, 1, 2), (0, 3, 6, 1, 4, 7, 2, 5, 8), (8, 5, 2, 7, 4, 1, 6, 3, 0))


def grid_image(s: Position, p: tuple[int, ...]) -> Position:
    """The position with every board b moved to p[b] and every cell c of a board to p[c]."""
    def cells(marks: int) -> int:
        return sum(1 << 9 * p[g // 9] + p[g % 9] for g in bits(marks))

    def boards(mask: int) -> int:
        return sum(1 << p[b] for b in range(9) if mask >> b & 1)

    return Position(cells(s.x), cells(s.o), boards(s.xw), boards(s.ow), boards(s.closed), -1 if s.sent < 0 else p[s.sent])


# ---- notation ---------------------------------------------------------------------------------

def grid_index(row: int, col: int) -> int:
    """The global move index of the cell at (row, col) of the 9×9 grid."""
    return 9 * (row // 3 * 3 + col // 3) + row % 3 * 3 + col % 3


def lines_of_both(s: Position) -> int:
    """Boards holding a line of X and a line of O (9-bit mask; only the open rules allow them)."""
    return sum(1 << b for b in range(9) if WON[chunk(s.x, b)] and WON[chunk(s.o, b)])


def format_position(s: Position) -> str:
    """Nine rows of nine cells (X, O, .) joined by '/', a space, the board sent to or '*'; when
    a board holds lines of both marks, a third field: each board's winner (X, O or .)."""
    rows = []
    for r in range(9):
        rows.append("".join(".XO"[(s.x >> g & 1) + 2 * (s.o >> g & 1)] for g in (grid_index(r, c) for c in range(9))))
    text = "/".join(rows) + " " + ("*" if s.sent < 0 else str(s.sent))
    if lines_of_both(s):
        text += " " + "".join("X" if s.xw >> b & 1 else "O" if s.ow >> b & 1 else "." for b in range(9))
    return text


def parse_position(text: str, open_rules: bool = False) -> Position:
    """`ROW/ROW/.../ROW SENT [WINNERS]` (81 cells of X, O, '.', '/' optional; SENT a board 0-8 or
    '*'; WINNERS, under the open rules only and needed only when a board holds lines of both
    marks: nine of X, O, '.', each board's winner)."""
    parts = text.split()
    if len(parts) != 2 and not (open_rules and len(parts) == 3):
        raise PositionError("a position is 81 cells (X, O, '.', rows may be split by '/') then the board sent to (0-8 or '*')"
                            + (", then, if a board holds lines of both marks, each board's winner (9 of X, O, '.')" if open_rules else ""))
    cells, sent_text = parts[0].replace("/", ""), parts[1]
    if len(cells) != 81 or set(cells.upper()) - set("XO."):
        raise PositionError(f"position cells: expected 81 of X, O and '.', found {len(cells)} characters {ascii(cells[:90])}")
    if sent_text != "*" and not (len(sent_text) == 1 and sent_text in "012345678"):
        raise PositionError(f"board sent to: expected 0-8 or '*', found {ascii(sent_text[:20])}")
    x = o = 0
    for i, ch in enumerate(cells.upper()):
        g = grid_index(i // 9, i % 9)
        x |= (ch == "X") << g
        o |= (ch == "O") << g
    sent = -1 if sent_text == "*" else int(sent_text)
    winners = parts[2] if len(parts) == 3 else None
    if winners is not None and not re.fullmatch(r"[XO.]{9}", winners):
        raise PositionError(f"board winners: expected 9 of X, O and '.', found {ascii(winners[:20])}")
    s = from_marks(x, o, sent, open_rules, sum(1 << b for b in range(9) if winners and winners[b] == "X"))
    problem = position_problem(s, sent, open_rules) or winners_problem(s, winners)
    if problem:
        raise PositionError(problem)
    return s


def winners_problem(s: Position, winners: str | None) -> str | None:
    """Why the WINNERS field is missing or does not fit the marks, or None."""
    both = lines_of_both(s)
    if winners is None:
        return f"board {bits(both)[0]} holds lines of both marks: add each board's winner (9 of X, O, '.')" if both else None
    for b in range(9):
        drawn = "X" if s.xw >> b & 1 else "O" if s.ow >> b & 1 else "."
        if winners[b] != drawn:
            return f"board {b}: winner {winners[b]!r}, but its marks give {drawn!r}"
    return None


def position_problem(s: Position, sent: int, open_rules: bool = False) -> str | None:
    """Why the marks and board sent to cannot arise in play, or None (checks what is cheap)."""
    nx, no = s.x.bit_count(), s.o.bit_count()
    if nx not in (no, no + 1):
        return f"X has {nx} marks and O {no}: X moves first, so X has as many as O or one more"
    both = bits(lines_of_both(s))
    if both and not open_rules:
        return f"board {both[0]} holds a line of X and a line of O"
    if WON[s.xw] and WON[s.ow]:
        return "both players hold a meta line"
    if sent >= 0 and s.closed >> sent & 1:
        what = "full" if open_rules else "closed (won or full)"
        return f"board {sent} is {what}: a player sent there plays anywhere, write '*'"
    if sent >= 0 and nx + no == 0:
        return "the first move may go anywhere: write '*'"
    return None


def format_move(move: int) -> str:
    """`B.C`: local board B, cell C."""
    return f"{move // 9}.{move % 9}"


def parse_move(text: str) -> int:
    """`B.C` or `BC` (board, cell, each 0..8) → global index; raises PositionError."""
    match = re.fullmatch(r"([0-8])\.?([0-8])", text.strip())
    if not match:
        raise PositionError(f"move {ascii(text[:20])}: expected BOARD.CELL, each 0-8, like 4.0")
    return 9 * int(match.group(1)) + int(match.group(2))


# ---- critical squares (seed 003) -------------------------------------------------------------

def threat_boards(s: Position, player: int) -> int:
    """Open boards where `player`, if allowed to play there, wins the whole game at once.

    A board qualifies when winning it completes a meta line of `player`'s won boards and one
    empty cell of it completes a local line of `player`'s marks.
    """
    mine, won = (s.x, s.xw) if player == X else (s.o, s.ow)
    meta = COMPLETERS[won] & ~(s.closed | s.xw | s.ow) & FULL9
    empty = ~(s.x | s.o)
    out = 0
    for b in bits(meta):
        if COMPLETERS[chunk(mine, b)] & chunk(empty, b):
            out |= 1 << b
    return out


NEVER = 255  # marks_needed when no meta line is left to the player
NO_MOVE = 255  # a count closure's first byte when it counts at the position itself
DEEP = 254  # a count closure's first byte when it names a move and a closure of each reply
NEST = 3  # deep records nest this deep at most (checker/uttt_count.py NEST; kernel.c NEST)
# a win claim's search (`for_claim`) asks the closure only to refute, at every position of the
# opponent's: three levels there cost some 3x per node far from the bound, so it keeps two
REFUTE_NEST = 2
# CriticalSquares.estimate (kernel.c ESTIMATE_*): a first proof number of 2^(ESTIMATE_BITS * (slack - 1)),
# the slack counted to ESTIMATE_SLACK at most (81 children of 2^45 stay below the search's INF, 2^60);
# 32 per move of slack took the fewest nodes of 4, 8, 16, 32 and 64 within 27 and 29 (numbering
# every position: docs/uttt.md)
ESTIMATE_BITS = 5
ESTIMATE_SLACK = 10
# a win claim's first numbers (kernel.c ESTIMATE_WIN_*): 2^(ESTIMATE_WIN_BITS * (marks - 1)) from the
# marks each side needs, counted to ESTIMATE_WIN_MARKS at most; 4 per mark took the fewest nodes in
# all of 2, 4, 8, 16 and 32 on two of the uttt suite's ply-30 positions (docs/uttt.md, "First numbers
# for win claims")
ESTIMATE_WIN_BITS = 2
ESTIMATE_WIN_MARKS = 10


def marks_needed(s: Position, player: int, lowered: int = -1) -> int:
    """The fewest marks `player` must still place to hold a meta line (NEVER: none is left).

    A board counts 0 if `player` won it, NEVER if the opponent won it or it is full, else 3 minus
    `player`'s marks on the fullest local line without an opponent's mark; a meta line the sum of
    its boards. A board is won only by a line and a move places one mark, so under either rules
    `player` cannot win in fewer moves: the count the checker redoes (checker/uttt_count.py `check_count`).
    `lowered`: a board counted one lower (unless 0 or NEVER), the count after a move of `player` there.
    """
    return meta_min([board_cost(s, player, b) for b in range(9)], lowered)


def board_cost(s: Position, player: int, b: int) -> int:
    """Board `b`'s part of `marks_needed` for `player`: 0 won, NEVER lost or full, else the marks
    its fullest line free of the opponent's still misses (at least 1: a line wins its board)."""
    mine, theirs, won, lost = (s.x, s.o, s.xw, s.ow) if player == X else (s.o, s.x, s.ow, s.xw)
    if won >> b & 1:
        return 0
    m, t = chunk(mine, b), chunk(theirs, b)
    if lost >> b & 1 or m | t == FULL9:
        return NEVER
    return line_cost(m, t)


@cache
def line_cost(mine: int, theirs: int) -> int:
    """The marks the fullest line of a board's 9-bit `mine` free of `theirs` still misses (NEVER: none)."""
    return min((3 - (mine & line).bit_count() for line in _LINE_MASKS if not theirs & line), default=NEVER)


def meta_min(costs: list[int], lowered: int = -1) -> int:
    """`marks_needed` from the nine board costs, board `lowered` counted one lower unless 0 or NEVER
    (in place: every caller hands over a list of its own)."""
    if 0 <= lowered and 0 < costs[lowered] < NEVER:
        costs[lowered] -= 1
    return min(NEVER, *(costs[a] + costs[b] + costs[c] for a, b, c in LINES3))


def immediate_wins(s: Position) -> list[int]:
    """The moves that win the game at once for the player to move, ascending."""
    player = X if s.x.bit_count() == s.o.bit_count() else O
    if WON[s.xw] or WON[s.ow] or s.closed == FULL9:
        return []
    allowed = threat_boards(s, player)
    if s.sent >= 0:
        allowed &= 1 << s.sent
    mine = s.x if player == X else s.o
    empty = ~(s.x | s.o)
    return [9 * b + c for b in bits(allowed) for c in bits(COMPLETERS[chunk(mine, b)] & chunk(empty, b))]


def critical_cells(s: Position) -> int:
    """Seed 003's "losing set" for the player to move, as a 9-bit cell mask.

    Cells c whose board c is one where the opponent wins at once, or is closed while the opponent
    has such a board anywhere (a free move); empty when the opponent has no such board. The seed
    says every move on these cells, in any board, loses unless it wins at once.
    """
    opponent = O if s.x.bit_count() == s.o.bit_count() else X
    threats = threat_boards(s, opponent)
    return threats | s.closed if threats else 0


def hands_over_win(s: Position, move: int, threats: int | None = None, open_rules: bool = False) -> bool:
    """After `move` (which must not end the game) the opponent has a move that wins at once.

    Computed without playing the move: the opponent's threat boards are `threats` (their
    `threat_boards` before the move, passed in when known), less the board moved in if the move
    closes it, wins it or takes its last completing cell; the opponent may use them if sent to
    one, or if sent to a closed board (a free move). `open_rules`: the rules the move is under.
    """
    player = X if s.x.bit_count() == s.o.bit_count() else O
    opponent_marks = s.o if player == X else s.x
    if threats is None:
        threats = threat_boards(s, O if player == X else X)
    if not threats:
        return False
    board = move // 9
    cell = move - 9 * board
    closed = s.closed
    if threats >> board & 1 or cell == board:
        after = play(s, move, open_rules)
        closed = after.closed
        empty = ~(after.x | after.o)
        if (closed | after.xw | after.ow) >> board & 1 or not COMPLETERS[chunk(opponent_marks, board)] & chunk(empty, board):
            threats &= ~(1 << board)
    if closed >> cell & 1:
        return threats != 0
    return bool(threats >> cell & 1)


def poisoned_boards(s: Position, player: int) -> int:
    """Open boards all of whose open cells send `player` to a board where `player` wins at once.

    Seed 003's lookahead: `player`'s opponent, sent to such a board, must send `player` to one of
    `player`'s threat boards, or to a closed board (a free move) while `player` has a threat
    board, unless the opponent's move there wins at once, or closes or blocks that very threat.
    """
    mine = threat_boards(s, player)
    if not mine:
        return 0
    sends_back = mine | s.closed
    empty = ~(s.x | s.o)
    return sum(1 << b for b in range(9)
               if not s.closed >> b & 1 and not chunk(empty, b) & ~sends_back & FULL9)


class CriticalSquares:
    """Proof-search hooks (solver/games/game.py SearchHooks): seed 003's critical squares, made sound.

    The player to move who can win at once searches only those wins. The prover drops every move
    after which the opponent can win at once (seed 003's "losing set", checked move by move, so a
    move that itself closes or blocks the threatened board is kept); the opponent's moves are
    all kept, as a proof must answer each. Moves that send the opponent to a poisoned board come
    first.
    """

    def __init__(self, open_rules: bool = False, win_by: int = -1,
                 symmetries: tuple[tuple[int, ...], ...] = GRID_SYMMETRIES[:1], estimating: bool = False) -> None:
        self.open_rules = open_rules
        self.win_by = win_by  # a win claim's bound as marks on the grid (-1: none): see `for_claim`
        self.symmetries = symmetries  # the grid symmetries the table key is canonical under: see `for_claim`
        self.estimating = estimating  # first numbers from the count (`estimate`; `certify prove --estimate`)

    def for_claim(self, result: str, within: int | None, root: Position) -> CriticalSquares:
        """These hooks for a claim from `root`. Table keys canonical under the grid symmetries
        that map `root` onto itself (its stabilizer): every position below the root then shares
        one entry with its images, which are below the root too (from the empty grid, X's 81
        first moves fall into 15 classes); the images under other symmetries would need marks of
        both the root and its image, so they are left apart and cost nothing. For a win claim
        within N plies they also drop every move of the prover after which it needs more marks
        for a meta line (`marks_needed`) than the moves it has left before ply N, so the search
        disproves at once where it cannot win in time (a win proof never shows the moves it drops;
        the checker checks every play of it)."""
        win_by = (root.x | root.o).bit_count() + within if result == "win" and within is not None else -1
        return CriticalSquares(self.open_rules, win_by, tuple(p for p in GRID_SYMMETRIES if grid_image(root, p) == root),
                               self.estimating)

    def exact(self) -> CriticalSquares:
        """These hooks with the exact position as the table key (for a policy, which need not be symmetric)."""
        return CriticalSquares(self.open_rules, self.win_by, estimating=self.estimating)

    def table_key(self, s: Position) -> Position:
        """The least image of `s` under `symmetries` (the position itself under the identity alone)."""
        return s if len(self.symmetries) == 1 else min(grid_image(s, p) for p in self.symmetries)

    def candidates(self, s: Position, moves: list[int], prover_moves: bool, prover: int) -> list[int]:
        """The moves to search in `s`, best first."""
        wins = immediate_wins(s)
        if wins:
            return wins[:1] if prover_moves else wins + [m for m in moves if m not in wins]
        player = X if s.x.bit_count() == s.o.bit_count() else O
        poisoned = poisoned_boards(s, player)
        threats = threat_boards(s, O if player == X else X)
        first, rest, losing = [], [], []
        for move in moves:
            if hands_over_win(s, move, threats, self.open_rules):
                losing.append(move)
            elif poisoned >> move % 9 & 1 and move % 9 != move // 9:
                first.append(move)
            else:
                rest.append(move)
        if prover_moves and self.win_by >= 0:
            left = (self.win_by - (s.x | s.o).bit_count() - 1) // 2  # the prover's moves after this one
            return [m for m in first + rest if marks_needed(play(s, m, self.open_rules), player) <= left]
        return first + rest if prover_moves else first + rest + losing

    always_close = True  # the search asks `closure` without --pairings: it closes no-loss claims only

    def estimate(self, s: Position, prover: int, result: str, plies_left: int | None) -> tuple[int, int] | None:
        """First numbers at a position the search has not seen (None: 1 and 1), from the marks each
        side still needs for a meta line (`marks_needed`); only with `estimating` (`certify prove
        --estimate`).

        A win claim, bounded or not, at every position: pn 2^(ESTIMATE_WIN_BITS * (mine - 1)) and
        dn 2^(ESTIMATE_WIN_BITS * (theirs - 1)), `mine` the marks the prover needs, `theirs` the
        opponent's (each ESTIMATE_WIN_MARKS at most): a win is nearer the fewer marks the prover
        lacks, and a refutation the fewer the opponent lacks (a player forced to block does not
        build). The prover's moves that build and the opponent's that threaten are tried first.

        A bounded no-loss claim, at a prover's position only: pn 2^(ESTIMATE_BITS * (slack - 1)),
        dn 1, where the slack is the opponent's moves left before the bound less the marks it
        still needs, plus 1. The count closes where the slack is below 1 (or two plies on, where
        a move of the prover's wastes the opponent's next), so a proof is nearer the less the
        opponent has to spare. The opponent's positions keep 1 and 1, so an opponent's
        position's pn sums its replies' numbers, and df-pn prefers the prover's moves that leave
        the opponent few replies and little to spare (numbering the opponent's positions too took
        as few nodes but wrote larger proofs: docs/uttt.md, "First numbers from the count").
        Unbounded no-loss claims keep 1 and 1.

        Only the search's choices change: an estimate is never 0, and a position is proved or
        disproved only by its children's exact values."""
        if not self.estimating:
            return None
        opponent = O if prover == X else X
        if result == "win":
            mine = min(marks_needed(s, prover), ESTIMATE_WIN_MARKS)
            theirs = min(marks_needed(s, opponent), ESTIMATE_WIN_MARKS)
            return 1 << ESTIMATE_WIN_BITS * max(mine - 1, 0), 1 << ESTIMATE_WIN_BITS * max(theirs - 1, 0)
        to_move = X if s.x.bit_count() == s.o.bit_count() else O
        if plies_left is None or to_move != prover:
            return None
        theirs = min(plies_left, 81 - (s.x | s.o).bit_count()) // 2
        slack = min(theirs - marks_needed(s, opponent) + 1, ESTIMATE_SLACK)
        return (1 << ESTIMATE_BITS * (slack - 1), 1) if slack > 1 else None

    @property
    def closure_version(self) -> str:
        """What the closure closes and writes (checker/uttt_count.py): a checkpoint of another is another search's."""
        return f"meta-line count, deep records nested {self.nest}"

    @property
    def nest(self) -> int:
        """How deep the closure's records nest: REFUTE_NEST for a win claim's bound, else NEST."""
        return REFUTE_NEST if self.win_by >= 0 else NEST

    def closure(self, s: Position, prover: int, result: str, budget: int, plies_left: int | None = None,
                written: bool = True) -> bytes | None:
        """At a position where `prover` is to move, for a no-loss claim bounded `plies_left` plies
        ahead: the record of `deep_record` nested NEST deep, or None: the shortest when the record is
        `written` into a certificate (the strategy walk), the first found when only whether the
        position closes matters (the search; a win claim's refutations, whose records are dropped):
        which positions close does not depend on it (dfpn.h `close`). Unbounded (`plies_left`
        None, which the checker counts as 81: the empty cells bound the plies): the record
        (NO_MOVE, count) alone, where the opponent cannot complete a meta line in the cells left
        (no meta line left to it, late in a game); the forms that look ahead would be paid at every
        new position and nearly never close without a bound. The checker's `check_count` redoes it."""
        if result != "no-loss":
            return None
        opponent = O if prover == X else X
        if plies_left is None:
            needed = marks_needed(s, opponent)
            return bytes([NO_MOVE, needed]) if needed > (81 - (s.x | s.o).bit_count()) // 2 else None
        return self.deep_record(s, opponent, plies_left, self.nest, first=not written or self.win_by >= 0)

    def deep_record(self, s: Position, opponent: int, plies_left: int, nest: int, limit: int = 1 << 16,
                    first: bool = False) -> bytes | None:
        """A two-byte record (`count_record`) when one closes `s`; else, with `nest` > 0, the
        shortest record (DEEP, i, k, then k records) of a legal move i that sends the opponent to a
        board where each of its k moves, in order, leaves a position play goes on from that a
        record nested `nest` - 1 deep closes two plies further on (each the shortest too), the
        first such move i at the least length; else, or when the shortest is longer than `limit`
        bytes, None. The checker's work follows the record's length; which positions close does
        not depend on the choice. As kernel.c deep_record, which writes the same bytes: the moves
        are tried fewest replies first, a move is given up once its records cannot beat the best
        so far (nor `limit`), and each reply's record is asked within what is left. With `first`
        (kernel.c `any`), the first record found in that order, its nested records the first too:
        whether `s` closes, for a search that drops the record."""
        if limit < 2:
            return None
        shallow = self.count_record(s, opponent, plies_left)
        if shallow is not None or not nest:
            return shallow
        sending = [(MOVES[after.sent][~(after.x | after.o) >> 9 * after.sent & FULL9], index, after)
                   for index, after in enumerate(self.sending(s)) if after is not None]
        best, best_index = None, 0
        for replies, index, after in sorted(sending, key=lambda item: (len(item[0]), item[1])):
            bound = limit if best is None else len(best) if index < best_index else len(best) - 1  # to win
            if 3 + 2 * len(replies) > bound:
                if best is None or 3 + 2 * len(replies) > len(best):
                    break  # the moves after it have as many replies or more
                continue
            records, total = [], 3 + 2 * len(replies)  # each reply not yet asked taken at 2 bytes
            for move in replies:
                reply = play(after, move, self.open_rules)
                record = None if WON[reply.xw] or WON[reply.ow] or reply.closed == FULL9 else \
                    self.deep_record(reply, opponent, plies_left - 2, nest - 1, bound - total + 2, first)
                if record is None:
                    break
                records.append(record)
                total += len(record) - 2
            else:
                best, best_index = bytes([DEEP, index, len(records)]) + b"".join(records), index
                if first:
                    return best
        return best

    def sending(self, s: Position) -> list[Position | None]:
        """Per legal move of `s`, in order, the position after it, or None when it ends play or
        sends the opponent to no board (anywhere)."""
        empty = ~(s.x | s.o)
        boards = (s.sent,) if s.sent >= 0 else SET_BITS[FULL9 & ~s.closed]
        out: list[Position | None] = []
        for move in (m for b in boards for m in MOVES[b][empty >> 9 * b & FULL9]):
            after = play(s, move, self.open_rules)
            out.append(None if after.sent < 0 or WON[after.xw] or WON[after.ow] else after)
        return out

    def count_record(self, s: Position, opponent: int, plies_left: int) -> bytes | None:
        """The record (NO_MOVE, the opponent's `marks_needed`) when that exceeds the opponent's
        moves left (it cannot win in time, so the claim holds here); else (i, count) for the first
        legal move i that sends the opponent to a board where its first move lowers the count to
        no less than `count`, more than its moves left after it; else None."""
        costs = [board_cost(s, opponent, b) for b in range(9)]
        needed = meta_min(costs)
        if needed > min(plies_left, 81 - (s.x | s.o).bit_count()) // 2:
            return bytes([NO_MOVE, needed])
        for index, after in enumerate(self.sending(s)):
            if after is None:
                continue
            # a move marks one cell of its own board: only that board's cost can change
            board = (((after.x | after.o) ^ (s.x | s.o)).bit_length() - 1) // 9
            moved = costs.copy()
            moved[board] = board_cost(after, opponent, board)
            needed = meta_min(moved, after.sent)
            if needed > (min(plies_left - 1, 81 - (after.x | after.o).bit_count()) + 1) // 2 - 1:
                return bytes([index, needed])
        return None


def from_text(text: str) -> Uttt:
    """The family's GAME strings (solver/games/families.py): `uttt`, and `uttt:open` for the open rules."""
    if text == "uttt:open":
        return Uttt(OPEN_RULES)
    if text != "uttt":
        raise RulesError(f"unknown game {ascii(text)[:60]}: the Ultimate tic-tac-toe family is written 'uttt' "
                         "(or 'uttt:open' for the open rules)")
    return Uttt()
