"""Ultimate tic-tac-toe rules, re-implemented plainly from docs/uttt.md (nothing from the solver).

Two variants. `closed` (won boards are closed): a state is (cells, sent): 81 marks (0 empty,
1 X, 2 O) with cell c of local board b at index 9*b + c (boards and cells row-major), and the
board the player to move is sent to, or -1 for any. `open` (won boards stay playable, the open
rules): a state is (cells, sent, winners), winners the 9 boards' winners (0, 1 or 2), because
a board may come to hold lines of both marks and the first one counts. Cells and winners are
bytes (a byte per mark: copied and sliced several times faster than tuples of ints, which the
count closures do millions of times). A move is the index, an int 0..80.
"""

import functools

from checker.load import NotACertificate

EMPTY, X, O = 0, 1, 2
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
RULES = {"family": "uttt", "won_boards": "closed", "drawn_boards": "count-for-nobody",
         "sent_to_closed": "play-any-open-board", "no_moves_left": "draw"}
OPEN_RULES = {**RULES, "won_boards": "playable", "sent_to_closed": "play-any-empty-cell"}

State = tuple[bytes, int]
MARKS = (b"\x00", b"\x01", b"\x02")


def parse_rules(raw: dict) -> dict:
    """One of the two variants this checker knows; raises NotACertificate for any other rules object."""
    if sorted(raw) != sorted([*RULES, "name"]) or type(raw["name"]) is not str:
        raise NotACertificate(f"uttt rules must have exactly the keys {', '.join(sorted([*RULES, 'name']))}, name a string")
    for rules in (RULES, OPEN_RULES):
        if all(raw[key] == value for key, value in rules.items()):
            return dict(rules)
    raise NotACertificate("uttt rules: only won_boards 'closed' with sent_to_closed 'play-any-open-board', or "
                          "'playable' with 'play-any-empty-cell', drawn_boards 'count-for-nobody', no_moves_left 'draw'")


def is_open(game: dict) -> bool:
    """The open rules: won boards stay playable, only a full board sends anywhere."""
    return game["won_boards"] == "playable"


def describe(game: dict) -> str:
    """The game in words."""
    if is_open(game):
        return ("ultimate tic-tac-toe, open rules (won boards stay playable and stay won by the first line, "
                "sent to a full board play any empty cell, drawn count for nobody)")
    return "ultimate tic-tac-toe (won and full boards closed, drawn count for nobody, sent to a closed board play anywhere)"


def position_work(game: dict) -> int:
    """The work of one position of a strategy proof: each of up to 81 children reads a local board
    (9), twice, in the units of positional.position_work."""
    return 2 * 81 * 9


def initial(game: dict) -> State:
    """The empty board, any board allowed."""
    return (bytes(81), -1, bytes(9)) if is_open(game) else (bytes(81), -1)


def to_move(game: dict, state: State) -> int:
    """X (1) when both have as many marks, else O (2)."""
    cells = state[0]
    return X if cells.count(X) == cells.count(O) else O


@functools.lru_cache(maxsize=None)  # 3^9 boards at most: remembered, not trusted more
def line_owner(marks: bytes) -> int:
    """The mark filling a line of the 3x3 `marks`, or EMPTY."""
    for a, b, c in LINES:
        if marks[a] != EMPTY and marks[a] == marks[b] == marks[c]:
            return marks[a]
    return EMPTY


def board_status(cells: bytes, board: int) -> int:
    """X or O if that mark won the local board, 3 if it is full without a line, else EMPTY (open)."""
    marks = cells[9 * board:9 * board + 9]
    owner = line_owner(marks)
    return owner if owner else 3 if EMPTY not in marks else EMPTY


def result(game: dict, state: State) -> int | None:
    """None while play goes on, else the winner 1 or 2, or 0 for a draw (every board closed;
    under the open rules every cell full)."""
    if is_open(game):
        winner = line_owner(state[2])
        return winner if winner else 0 if EMPTY not in state[0] else None
    status = [board_status(state[0], board) for board in range(9)]
    winner = line_owner(bytes(s if s in (X, O) else EMPTY for s in status))
    if winner:
        return winner
    return 0 if EMPTY not in status else None


def moves(game: dict, state: State) -> list[tuple[int, State]]:
    """Every legal move and the state it gives, by index ascending; empty iff terminal."""
    mover = to_move(game, state)
    return [(move, play(game, state, move, mover)) for move in legal(game, state)]


def legal(game: dict, state: State) -> list[int]:
    """Every legal move, ascending; empty iff terminal: the empty cells of the board sent to, else
    of every board (closed rules: every board still open). Under the open rules a won board with
    an empty cell is still played in."""
    return [] if result(game, state) is not None else empty_cells(game, state)


def empty_cells(game: dict, state: State) -> list[int]:
    """`legal` at a state known not to be terminal (the count closures test that first)."""
    cells, sent = state[:2]
    if sent >= 0:
        allowed = range(9 * sent, 9 * sent + 9)
    elif is_open(game):
        allowed = range(81)
    else:
        allowed = [9 * board + cell for board in range(9) if board_status(cells, board) == EMPTY for cell in range(9)]
    return [move for move in allowed if cells[move] == EMPTY]


def play(game: dict, state: State, move: int, mover: int) -> State:
    """The state after `mover` (the player to move) marks `move`, a legal move. Under the open rules
    the first line in a board wins it for good, and a full board sends anywhere."""
    cells, board, cell = state[0], move // 9, move % 9
    child = cells[:move] + MARKS[mover] + cells[move + 1:]
    if not is_open(game):
        return child, cell if board_status(child, cell) == EMPTY else -1
    won = state[2]
    if won[board] == EMPTY and line_owner(child[9 * board:9 * board + 9]) == mover:
        won = won[:board] + MARKS[mover] + won[board + 1:]
    return child, cell if EMPTY in child[9 * cell:9 * cell + 9] else -1, won


def parse_position(game: dict, text: object) -> State:
    """A position written as docs/uttt.md says: 81 cells in reading order (rows may be split by
    '/'), a space, the board sent to (0-8) or '*'. Raises NotACertificate when it is not one.
    """
    if is_open(game):
        return open_position(text)
    parts = text.split() if type(text) is str else []
    cells_text = parts[0].replace("/", "") if len(parts) == 2 else ""
    if len(cells_text) != 81 or any(ch not in "XO." for ch in cells_text) or parts[1] not in [*"012345678", "*"]:
        raise NotACertificate(f"position {ascii(text)[:120]} is not 81 cells of X, O, '.' and a board 0-8 or '*'")
    cells = [EMPTY] * 81
    for index, ch in enumerate(cells_text):
        row, col = divmod(index, 9)
        cells[9 * (row // 3 * 3 + col // 3) + row % 3 * 3 + col % 3] = ".XO".index(ch)
    sent = -1 if parts[1] == "*" else int(parts[1])
    for board in range(9):
        marks = cells[9 * board:9 * board + 9]
        if all(any(marks[a] == marks[b] == marks[c] == mark for a, b, c in LINES) for mark in (X, O)):
            raise NotACertificate(f"position {ascii(text)[:120]}: board {board} holds a line of X and one of O")
    if cells.count(X) - cells.count(O) not in (0, 1):
        raise NotACertificate(f"position {ascii(text)[:120]}: X must have as many marks as O or one more")
    status = [board_status(bytes(cells), board) for board in range(9)]
    if all(any(status[a] == status[b] == status[c] == mark for a, b, c in LINES) for mark in (X, O)):
        raise NotACertificate(f"position {ascii(text)[:120]}: both players hold a meta line")
    if sent >= 0 and status[sent] != EMPTY:
        raise NotACertificate(f"position {ascii(text)[:120]}: board {sent} is closed, write '*'")
    if sent >= 0 and X not in cells:
        raise NotACertificate(f"position {ascii(text)[:120]}: the first move may go anywhere, write '*'")
    return bytes(cells), sent


def open_position(text: object) -> State:
    """`parse_position` under the open rules: a third field, nine of X, O, '.', names each board's
    winner; it must be there when a board holds lines of both marks, and fit the marks."""
    parts = text.split() if type(text) is str else []
    if len(parts) not in (2, 3) or len(parts[0].replace("/", "")) != 81 or parts[1] not in [*"012345678", "*"]:
        raise NotACertificate(f"position {ascii(text)[:120]} is not 81 cells, a board 0-8 or '*' and maybe 9 board winners")
    cells = [EMPTY] * 81
    for index, ch in enumerate(parts[0].replace("/", "")):
        if ch not in "XO.":
            raise NotACertificate(f"position {ascii(text)[:120]}: a cell is not X, O or '.'")
        row, col = divmod(index, 9)
        cells[9 * (row // 3 * 3 + col // 3) + row % 3 * 3 + col % 3] = ".XO".index(ch)
    named = parts[2] if len(parts) == 3 else None
    if named is not None and (len(named) != 9 or any(ch not in "XO." for ch in named)):
        raise NotACertificate(f"position {ascii(text)[:120]}: board winners are not 9 of X, O, '.'")
    winners = []
    for board in range(9):
        marks = cells[9 * board:9 * board + 9]
        lines = [mark for mark in (X, O) if any(marks[a] == marks[b] == marks[c] == mark for a, b, c in LINES)]
        if named is not None and len(lines) == 2 and named[board] in "XO":
            lines = [".XO".index(named[board])]
        if len(lines) == 2:
            raise NotACertificate(f"position {ascii(text)[:120]}: board {board} holds lines of both marks; name its winner")
        winners.append(lines[0] if lines else EMPTY)
    if named is not None and "".join(".XO"[w] for w in winners) != named:
        raise NotACertificate(f"position {ascii(text)[:120]}: the board winners named do not fit the marks")
    if cells.count(X) - cells.count(O) not in (0, 1):
        raise NotACertificate(f"position {ascii(text)[:120]}: X must have as many marks as O or one more")
    sent = -1 if parts[1] == "*" else int(parts[1])
    if sent >= 0 and EMPTY not in cells[9 * sent:9 * sent + 9]:
        raise NotACertificate(f"position {ascii(text)[:120]}: board {sent} is full, write '*'")
    if all(line_owner(bytes(w if w == mark else EMPTY for w in winners)) for mark in (X, O)):
        raise NotACertificate(f"position {ascii(text)[:120]}: both players hold a meta line")
    if sent >= 0 and X not in cells:
        raise NotACertificate(f"position {ascii(text)[:120]}: the first move may go anywhere, write '*'")
    return bytes(cells), sent, bytes(winners)


def draw_board(game: dict, state: State) -> str:
    """The nine rows of the 9x9 grid separated by '/', then the board sent to (as in parse_position)."""
    cells, sent = state[:2]
    rows = ["".join(".XO"[cells[9 * (r // 3 * 3 + c // 3) + r % 3 * 3 + c % 3]] for c in range(9)) for r in range(9)]
    text = "/".join(rows) + " " + ("*" if sent < 0 else str(sent))
    return text + " " + "".join(".XO"[w] for w in state[2]) if len(state) == 3 else text
