"""The positional-game engine: a game as a value over integer state codes.

`Game` offers the OpenSpiel-style scalar API (`initial`, `legal_moves`, `apply`, `is_terminal`,
`returns`) for search, tests and play, and the same rules over numpy arrays of codes
(`terminal_labels`, `child_codes`) for the exhaustive solver. A state is its code
`sum(cell[i] * 3**i)`; the side to move follows from the number of marks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from operator import itemgetter
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import product

import numpy as np

from solver.games.positional.rules import Rules, require_table_size
from solver.games.positional.hooks import PositionalHooks
from solver.games.positional.symmetry import line_automorphisms

_MEMO_LIMIT = 1 << 16  # states whose labels and moves a game remembers before starting over (bounds memory)
_CHUNK_CELLS = 8  # boards decode 8 trits at a time from a table of every 8-cell pattern
_CHUNK = 3**_CHUNK_CELLS
_PATTERNS = [p[::-1] for p in product(range(3), repeat=_CHUNK_CELLS)]  # pattern v: cell i holds (v // 3**i) % 3

CODE_DTYPE = np.uint32  # 3**16 < 2**32: every board the vectorised API takes fits
NO_CHILD = -1  # child codes are int32: 3**16 + 2 * 3**15 < 2**31


@dataclass(frozen=True, order=True)
class Move:
    """Place `mark` (1 = X, 2 = O) on `cell`."""

    cell: int
    mark: int

    def __str__(self) -> str:
        return f"{'XO'[self.mark - 1]}{self.cell}"


class IllegalMove(ValueError):
    """`move` is not legal in `state`."""

    def __init__(self, state: int, move: Move) -> None:
        super().__init__(f"move {move} is not legal in state {state}")
        self.state = state
        self.move = move


_MOVE_TOKEN = re.compile(r"^([XO])(\d+)$")


def parse_moves(text: str) -> list[Move]:
    """`X4,O0 X8` → moves; raises ValueError on a token that is not a mark and a cell."""
    moves = []
    for token in re.split(r"[,\s]+", text.strip()):
        if not token:
            continue
        match = _MOVE_TOKEN.match(token.upper())
        if not match:
            raise ValueError(f"move '{token}': expected a mark and a cell, like X4 or O0")
        moves.append(Move(int(match.group(2)), 1 if match.group(1) == "X" else 2))
    return moves


@dataclass(frozen=True)
class TerminalLabels:
    """Terminal flags and labels of a batch of states (value and margin for the side to move)."""

    terminal: np.ndarray  # bool
    value: np.ndarray  # int8: 1 win, 0 draw, -1 loss; meaningful where terminal
    margin: np.ndarray  # int8: line margin for most-lines, else 0


class Game:
    """A positional game from `Rules`, over state codes (Python ints, any board size).

    The scalar API works for every board the rules allow; the vectorised API (numpy arrays of
    uint32 codes, used by the table solver) needs at most TABLE_MAX_CELLS cells.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.cells = rules.cells
        self._pow3 = tuple(3**i for i in range(self.cells))
        self._chunks = -(-self.cells // _CHUNK_CELLS)
        self._lines = [np.array(line, dtype=np.intp) for line in rules.lines]
        self._line_cells = rules.lines
        self._line_checks = [  # (marks of the line's cells, all X, all O)
            (itemgetter(*line) if len(line) > 1 else lambda board, c=line[0]: (board[c],), (1,) * len(line), (2,) * len(line))
            for line in rules.lines
        ]
        self._marks = {player: rules.marks_for(player) for player in (1, 2)}
        # each cell's moves for each player, made once: a Move is frozen, so positions share them
        # (building them per position was most of a replay's time on 64-cell boards)
        self._cell_moves = {player: [tuple(Move(c, m) for m in marks) for c in range(self.cells)]
                            for player, marks in self._marks.items()}
        self._labels: dict[int, tuple[bool, int, int, int]] = {}
        self._moves: dict[int, tuple[tuple[Move, ...], frozenset[Move]]] = {}

    @property
    def pow3(self) -> np.ndarray:
        """3**cell for every cell, for the vectorised API."""
        require_table_size(self.rules)
        return np.array(self._pow3, dtype=np.int64)

    # ---- scalar API -----------------------------------------------------------------------

    def initial(self) -> int:
        """The empty board."""
        return 0

    def board(self, code: int) -> tuple[int, ...]:
        """The marks of every cell of `code`."""
        marks: tuple[int, ...] = ()
        for _ in range(self._chunks):
            code, rest = divmod(code, _CHUNK)
            marks += _PATTERNS[rest]
        return marks[: self.cells]

    def code(self, board: tuple[int, ...] | list[int]) -> int:
        """The code of a board (cell i holds trit i)."""
        return sum(mark * power for mark, power in zip(board, self._pow3))

    def to_move(self, code: int) -> int:
        """The player (1 or 2) to move in `code`."""
        return self._scalar_label(code)[3]

    def is_terminal(self, code: int) -> bool:
        """Whether play has ended in `code`."""
        return self._scalar_label(code)[0]

    def legal_moves(self, code: int) -> list[Move]:
        """Every legal move in `code`, by cell then mark; empty when terminal."""
        return list(self._legal(code)[0])

    def apply(self, code: int, move: Move) -> int:
        """The state after `move`; raises IllegalMove if it is not legal."""
        if move not in self._legal(code)[1]:
            raise IllegalMove(code, move)
        return code + move.mark * self._pow3[move.cell]

    def key(self, code: int) -> int:
        """A hashable identity of the state: the code itself."""
        return code

    def _legal(self, code: int) -> tuple[tuple[Move, ...], frozenset[Move]]:
        """The legal moves of `code` in order and as a set, remembered."""
        known = self._moves.get(code)
        if known is None:
            moves: tuple[Move, ...] = ()
            terminal, _, _, mover = self._scalar_label(code)
            if not terminal:
                cell_moves = self._cell_moves[mover]
                moves = tuple(move for cell, mark in enumerate(self.board(code)) if mark == 0 for move in cell_moves[cell])
            if len(self._moves) >= _MEMO_LIMIT:
                self._moves.clear()
            known = self._moves[code] = (moves, frozenset(moves))
        return known

    def play(self, moves: list[Move], start: int = 0) -> int:
        """The state after `moves` from `start`; raises IllegalMove at the first illegal one."""
        state = start
        for move in moves:
            state = self.apply(state, move)
        return state

    def returns(self, code: int) -> tuple[int, int]:
        """Final result (player 1, player 2) of a terminal state: +1 win, 0 draw, -1 loss."""
        terminal, value, _, mover = self._scalar_label(code)  # value for the side to move
        if not terminal:
            raise ValueError(f"state {code} is not terminal")
        return (value, -value) if mover == 1 else (-value, value)

    def final_margin(self, code: int) -> int:
        """most-lines: player 1's complete lines minus player 2's in a terminal state."""
        _, _, margin, mover = self._scalar_label(code)
        return margin if mover == 1 else -margin

    def _scalar_label(self, code: int) -> tuple[bool, int, int, int]:
        """(terminal, value, margin, player to move) of one state, remembered.

        Searches meet the same state along many move orders; the memo (bounded, so a long
        search cannot grow it without limit) makes repeated questions cheap.
        """
        known = self._labels.get(code)
        if known is None:
            if len(self._labels) >= _MEMO_LIMIT:
                self._labels.clear()
            known = self._labels[code] = self._label_of(self.board(code))
        return known

    def _label_of(self, board: tuple[int, ...]) -> tuple[bool, int, int, int]:
        """(terminal, value, margin, player to move) of a board, by the rules (see terminal_labels)."""
        filled = self.cells - board.count(0)
        mover = 1 + filled % 2
        x_lines = o_lines = 0
        for marks, all_x, all_o in self._line_checks:
            found = marks(board)
            if found == all_x:
                x_lines += 1
            elif found == all_o:
                o_lines += 1
        full = filled == self.cells
        if self.rules.goal == "most-lines":
            margin = x_lines - o_lines if mover == 1 else o_lines - x_lines
            return full, (margin > 0) - (margin < 0), margin, mover
        if x_lines or o_lines:
            return True, -1 if self.rules.goal == "first-line-wins" else 1, 0, mover
        return full, 0, 0, mover

    # ---- notation --------------------------------------------------------------------------

    def format_position(self, code: int) -> str:
        """The board as rows of X, O and '.', joined by '/': e.g. `X.O/.X./...`."""
        marks = "".join(".XO"[m] for m in self.board(code))
        cols = self.rules.cols
        return "/".join(marks[start : start + cols] for start in range(0, self.cells, cols))

    def parse_position(self, text: str) -> int:
        """Inverse of format_position (spaces ignored); raises ValueError naming the problem.

        The marks must be ones the players may place, in counts that alternate turns allow; the
        side to move follows from the number of marks.
        """
        rows = [row.replace(" ", "") for row in text.strip().split("/")]
        if len(rows) != self.rules.rows or any(len(row) != self.rules.cols for row in rows):
            raise ValueError(f"position '{text}': expected {self.rules.rows} rows of {self.rules.cols} cells (X, O, .) separated by '/'")
        symbols = {".": 0, "X": 1, "O": 2}
        bad = [ch for row in rows for ch in row.upper() if ch not in symbols]
        if bad:
            raise ValueError(f"position '{text}': unknown symbol '{bad[0]}' (use X, O, .)")
        board = tuple(symbols[ch] for row in rows for ch in row.upper())
        x_count, o_count = board.count(1), board.count(2)
        if self.rules.marks == "own" and x_count - o_count not in (0, 1):
            raise ValueError(f"position '{text}': X must have as many marks as O or one more")
        if self.rules.marks == "x-only" and o_count:
            raise ValueError(f"position '{text}': only X is placed in this game")
        problem = self._lines_problem(board)
        if problem:
            raise ValueError(f"position '{text}': {problem}")
        return self.code(board)

    def _lines_problem(self, board: tuple[int, ...]) -> str | None:
        """Why the board's complete lines cannot arise in play, or None (docs/rules.md, "Positions").

        Under a first-line goal play stops at the first complete line, so every complete line
        holds the last move: one shared cell and one mark, under `own` the previous mover's.
        """
        if self.rules.goal == "most-lines":
            return None
        complete = [line for line in self.rules.lines if len({board[cell] for cell in line}) == 1 and board[line[0]]]
        if not complete:
            return None
        if len({board[line[0]] for line in complete}) > 1:
            return "a line of X and a line of O are complete, but play stops at the first"
        if not set.intersection(*(set(line) for line in complete)):
            return "the complete lines share no cell: no single move completed them all"
        last_mover_mark = 2 if board.count(0) % 2 == self.cells % 2 else 1
        if self.rules.marks == "own" and board[complete[0][0]] != last_mover_mark:
            return "the side to move holds a complete line: only the player who moved last can complete one"
        return None

    def format_move(self, move: Move) -> str:
        """`X4`: the mark and the cell."""
        return str(move)

    def parse_move(self, text: str) -> Move:
        """Inverse of format_move; raises ValueError."""
        moves = parse_moves(text)
        if len(moves) != 1:
            raise ValueError(f"move '{text}': expected one move, like X4")
        return moves[0]

    def search_hooks(self) -> PositionalHooks:
        """Move ordering and pruning for proof search (solver/games/game.py)."""
        return PositionalHooks(self.rules, self.board)

    def symmetries(self) -> list[tuple[Callable[[int], int], Callable[[Move], Move]]]:
        """The line set's automorphisms (symmetry.py) as (state map, move map), the identity first
        (game.py): the mark on cell i goes to cell p[i], and every line with its cells."""
        def image(code: int, p: tuple[int, ...]) -> int:
            return sum(mark * self._pow3[p[cell]] for cell, mark in enumerate(self.board(code)) if mark)

        return [(lambda code, p=p: image(code, p), lambda move, p=p: Move(p[move.cell], move.mark))
                for p in line_automorphisms(self.rules)]

    # ---- vectorised API --------------------------------------------------------------------

    def decode(self, codes: np.ndarray) -> np.ndarray:
        """Boards of a batch of codes: shape (n, cells), int8 marks."""
        require_table_size(self.rules)
        rest = codes.astype(np.uint32)
        boards = np.empty((len(codes), self.cells), dtype=np.int8)
        for cell in range(self.cells):  # one narrow pass per cell beats a wide int64 broadcast
            rest, boards[:, cell] = np.divmod(rest, 3)
        return boards

    @cached_property
    def move_offsets(self) -> np.ndarray:
        """Code increment of each move column `2*cell + mark - 1` (int64)."""
        return np.array([mark * 3**cell for cell in range(self.cells) for mark in (1, 2)], dtype=np.int64)

    def empty_cells(self, codes: np.ndarray) -> np.ndarray:
        """Bit `cell` set where `cell` is empty: one int64 mask per code.

        Two lookups of 8 cells each replace 16 divisions by 3 (codes below 3**16).
        """
        high = codes.astype(np.int64) // _HALF
        low = codes - high * _HALF
        both = _empty_bits_of_8()
        return (both[low] | (both[high] << 8)) & ((1 << self.cells) - 1)

    def has_line(self, codes: np.ndarray) -> np.ndarray:
        """Whether each code holds a complete line of one mark (bool).

        A line is complete in X iff its cells among the low 8 are all X and its cells among the
        high 8 are all X: two lookups per half of per-line bit masks, 64 lines to a word.
        """
        high = codes.astype(np.int64) // _HALF
        low = codes - high * _HALF
        found = np.zeros(len(codes), dtype=bool)
        for low_masks, high_masks in self._line_masks:
            found |= (low_masks[low] & high_masks[high]) != 0
        return found

    @cached_property
    def _line_masks(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """For each group of 64 lines and mark, the per-half tables `has_line` combines."""
        half = np.arange(_HALF)
        digits = [(half // 3**cell) % 3 for cell in range(8)]
        tables = []
        for start in range(0, len(self.rules.lines), 64):
            for mark in (1, 2):
                low = np.zeros(_HALF, dtype=np.uint64)
                high = np.zeros(_HALF, dtype=np.uint64)
                for bit, line in enumerate(self.rules.lines[start : start + 64]):
                    low_ok = np.ones(_HALF, dtype=bool)
                    high_ok = np.ones(_HALF, dtype=bool)
                    for cell in line:
                        if cell < 8:
                            low_ok &= digits[cell] == mark
                        else:
                            high_ok &= digits[cell - 8] == mark
                    low |= low_ok.astype(np.uint64) << np.uint64(bit)
                    high |= high_ok.astype(np.uint64) << np.uint64(bit)
                tables.append((low, high))
        return tables

    def terminal_labels(self, codes: np.ndarray, boards: np.ndarray | None = None) -> TerminalLabels:
        """Which of `codes` are terminal, and their value and margin for the side to move."""
        boards = self.decode(codes) if boards is None else boards
        n = len(codes)
        filled = (boards != 0).sum(axis=1)
        full = filled == self.cells
        x_lines = np.zeros(n, dtype=np.int16)
        o_lines = np.zeros(n, dtype=np.int16)
        for line in self._lines:
            cells = boards[:, line]
            x_lines += (cells == 1).all(axis=1)
            o_lines += (cells == 2).all(axis=1)
        margin = np.zeros(n, dtype=np.int8)
        if self.rules.goal == "most-lines":
            terminal = full
            stm_is_p1 = filled % 2 == 0
            margin = np.where(stm_is_p1, x_lines - o_lines, o_lines - x_lines).astype(np.int8)
            value = np.sign(margin).astype(np.int8)
        else:
            some_line = (x_lines + o_lines) > 0
            terminal = some_line | full
            sign = -1 if self.rules.goal == "first-line-wins" else 1
            value = np.where(some_line, sign, 0).astype(np.int8)
        return TerminalLabels(terminal=terminal, value=value, margin=margin)

    def child_codes(self, codes: np.ndarray, boards: np.ndarray | None = None) -> np.ndarray:
        """Children of non-terminal `codes`: shape (n, cells * 2), column `2*cell + mark - 1`.

        Entries for illegal moves are NO_CHILD. The caller passes only non-terminal states.
        """
        boards = self.decode(codes) if boards is None else boards
        n = len(codes)
        base = codes.astype(np.int32)
        empty = boards == 0
        p1_to_move = (empty.sum(axis=1) % 2) == (self.cells % 2)
        out = np.empty((n, self.cells * 2), dtype=np.int32)
        for mark in (1, 2):
            allowed = np.zeros(n, dtype=bool)
            for player, mask in ((1, p1_to_move), (2, ~p1_to_move)):
                if mark in self.rules.marks_for(player):
                    allowed |= mask
            legal = empty & allowed[:, None]
            children = base[:, None] + (mark * self.pow3).astype(np.int32)[None, :]
            out[:, mark - 1 :: 2] = np.where(legal, children, NO_CHILD)
        return out


_HALF = 3**8  # codes of 8 cells


@cache
def _empty_bits_of_8() -> np.ndarray:
    """For every code of 8 cells, bit `cell` set where that cell is empty."""
    codes = np.arange(_HALF)
    bits = np.zeros(_HALF, dtype=np.int64)
    for cell in range(8):
        bits |= ((codes // 3**cell) % 3 == 0).astype(np.int64) << cell
    return bits
