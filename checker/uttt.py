"""Ultimate tic-tac-toe rules, re-implemented plainly from docs/uttt.md (nothing from the solver).

Two variants. `closed` (won boards are closed): a state is (cells, sent): 81 marks (0 empty,
1 X, 2 O) with cell c of local board b at index 9*b + c (boards and cells row-major), and the
board the player to move is sent to, or -1 for any. `open` (won boards stay playable, the open
rules): a state is (cells, sent, winners), winners the 9 boards' winners (0, 1 or 2), because
a board may come to hold lines of both marks and the first one counts. A move is the index, an
int 0..80.
"""

import functools

from checker.load import Invalid, NotACertificate

EMPTY, X, O = 0, 1, 2
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
RULES = {"family": "uttt", "won_boards": "closed", "drawn_boards": "count-for-nobody",
         "sent_to_closed": "play-any-open-board", "no_moves_left": "draw"}
OPEN_RULES = {**RULES, "won_boards": "playable", "sent_to_closed": "play-any-empty-cell"}

State = tuple[tuple[int, ...], int]


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
    return ((EMPTY,) * 81, -1, (EMPTY,) * 9) if is_open(game) else ((EMPTY,) * 81, -1)


def to_move(game: dict, state: State) -> int:
    """X (1) when both have as many marks, else O (2)."""
    cells = state[0]
    return X if cells.count(X) == cells.count(O) else O


def line_owner(marks: list[int]) -> int:
    """The mark filling a line of the 3x3 `marks`, or EMPTY."""
    for a, b, c in LINES:
        if marks[a] != EMPTY and marks[a] == marks[b] == marks[c]:
            return marks[a]
    return EMPTY


def board_status(cells: tuple[int, ...], board: int) -> int:
    """X or O if that mark won the local board, 3 if it is full without a line, else EMPTY (open)."""
    marks = list(cells[9 * board:9 * board + 9])
    owner = line_owner(marks)
    return owner if owner else 3 if EMPTY not in marks else EMPTY


def result(game: dict, state: State) -> int | None:
    """None while play goes on, else the winner 1 or 2, or 0 for a draw (every board closed;
    under the open rules every cell full)."""
    if is_open(game):
        winner = line_owner(list(state[2]))
        return winner if winner else 0 if EMPTY not in state[0] else None
    status = [board_status(state[0], board) for board in range(9)]
    winner = line_owner([s if s in (X, O) else EMPTY for s in status])
    if winner:
        return winner
    return 0 if EMPTY not in status else None


def moves(game: dict, state: State) -> list[tuple[int, State]]:
    """Every legal move and the state it gives, by index ascending; empty iff terminal."""
    if result(game, state) is not None:
        return []
    if is_open(game):
        return open_moves(state)
    cells, sent = state
    boards = [sent] if sent >= 0 else [b for b in range(9) if board_status(cells, b) == EMPTY]
    mover = to_move(game, state)
    out = []
    for board in boards:
        for cell in range(9):
            if cells[9 * board + cell] == EMPTY:
                child = cells[:9 * board + cell] + (mover,) + cells[9 * board + cell + 1:]
                out.append((9 * board + cell, (child, cell if board_status(child, cell) == EMPTY else -1)))
    return out


def open_moves(state: State) -> list[tuple[int, State]]:
    """`moves` under the open rules: sent to a board with an empty cell, play there, won or not;
    else anywhere empty. The first line in a board wins it for good."""
    cells, sent, winners = state
    mover = X if cells.count(X) == cells.count(O) else O
    boards = [sent] if sent >= 0 else list(range(9))
    out = []
    for board in boards:
        for cell in range(9):
            if cells[9 * board + cell] == EMPTY:
                child = cells[:9 * board + cell] + (mover,) + cells[9 * board + cell + 1:]
                won = winners
                if winners[board] == EMPTY and line_owner(list(child[9 * board:9 * board + 9])) == mover:
                    won = winners[:board] + (mover,) + winners[board + 1:]
                next_sent = cell if EMPTY in child[9 * cell:9 * cell + 9] else -1
                out.append((9 * board + cell, (child, next_sent, won)))
    return out


def marks_needed(game: dict, state: State, player: int, lowered: int = -1) -> int:
    """The fewest marks `player` must still place to hold a meta line (255: no meta line is left to
    them). A board counts 0 if `player` won it; 255 if the other player won it or it is full (no
    line of `player` can win it); else 3 minus `player`'s marks on the fullest local line
    holding no mark of the other player. A board is won by a line, each move places one mark and
    no mark is ever removed, so this is a floor on `player`'s moves to a win under either rules.
    `lowered`: a board whose count is taken one lower (unless 0 or 255): the count after one move
    of `player` there."""
    cells = state[0]
    status = state[2] if is_open(game) else [board_status(cells, board) for board in range(9)]
    costs = []
    for board in range(9):
        marks = cells[9 * board:9 * board + 9]
        if status[board] == player:
            costs.append(0)
        elif status[board] != EMPTY or EMPTY not in marks:
            costs.append(255)
        else:
            cost = board_cost(marks, player)
            costs.append(cost - (board == lowered and cost < 255))
    return min(255, *(costs[a] + costs[b] + costs[c] for a, b, c in LINES))


@functools.lru_cache(maxsize=None)  # 3^9 boards x 2 players at most: remembered, not trusted more
def board_cost(marks: tuple[int, ...], player: int) -> int:
    """3 minus `player`'s marks on the fullest local line of `marks` holding no mark of the other
    player (255: none)."""
    cost = 255
    for a, b, c in LINES:
        line = (marks[a], marks[b], marks[c])
        if 3 - player not in line:
            cost = min(cost, 3 - line.count(player))
    return cost


NO_MOVE = 255  # a count closure's first byte when it counts at the position itself
DEEP = 254  # a count closure's first byte when it names the prover's move and a closure of each reply
NEST = 2  # deep records nest this deep at most


def record_length(raw: bytes, at: int, nest: int = NEST) -> int:
    """The length of the count closure starting at `at` of `raw`: 2, or for a DEEP one naming k
    replies 3 plus its k records' lengths; 0 when it runs past the end or nests deeper than `nest`."""
    if at + 1 >= len(raw):
        return 0
    if raw[at] != DEEP:
        return 2
    if nest == 0 or at + 2 >= len(raw):
        return 0
    end = at + 3
    for _ in range(raw[at + 2]):
        length = record_length(raw, end, nest - 1)
        if not length:
            return 0
        end += length
    return end - at


def check_count(game: dict, state: State, player: int, plies_left: int, record: bytes, nest: int = NEST) -> None:
    """A closure by counting (docs/certificate-format.md), at a position where `player` is to move
    and play goes on; `record` is (move, count). With move NO_MOVE: the opponent needs `count`
    marks for a meta line, more than its moves left within `plies_left` plies (and the empty
    cells). Else `player` plays its move-th legal move, which sends the opponent to a board: the
    opponent's first move can lower only that board's count, so after it the opponent still needs
    `count` marks, more than the moves it then has left.

    Or (DEEP, move, k, then k records): `player` plays its move-th legal move, which sends the
    opponent to a board where it has k legal moves; after each, in order, play goes on and the
    next record closes that position, two plies further on (itself deep, `nest` - 1 levels at
    most). This is the proof's subtree written out (one move of `player`, every reply, a closure
    at each), so it is sound whenever the two-byte form is, under either rules. Raises Invalid
    otherwise."""
    move = record[0]
    opponent = 3 - player
    if to_move(game, state) != player or result(game, state) is not None:
        raise Invalid(f"a count closes only a position where player {player} is to move and play goes on, "
                      f"not {draw_board(game, state)}")
    if move == DEEP:
        if nest == NEST and record_length(record, 0, nest) != len(record):  # the nested ones with it
            raise Invalid(f"a deep count closure at {draw_board(game, state)} is cut short, too long or nested "
                          f"deeper than {NEST}")
        after = played(game, state, record[1], opponent)
        replies = moves(game, after)
        if record[2] != len(replies):
            raise Invalid(f"a count closure answers {record[2]} replies at {draw_board(game, after)}, "
                          f"which has {len(replies)}")
        at = 3
        for _, reply in replies:
            length = record_length(record, at, nest - 1)
            check_count(game, reply, player, plies_left - 2, record[at:at + length], nest - 1)
            at += length
        return
    if len(record) != 2:
        raise Invalid(f"a count closure of {len(record)} bytes at {draw_board(game, state)}: a two-byte one has 2")
    count = record[1]
    if move == NO_MOVE:
        needed, left = marks_needed(game, state, opponent), min(plies_left, state[0].count(EMPTY)) // 2
    else:
        after = played(game, state, move, opponent)
        needed = marks_needed(game, after, opponent, after[1])
        left = (min(plies_left - 1, after[0].count(EMPTY)) + 1) // 2 - 1
    if count != needed:
        raise Invalid(f"a count closure says player {opponent} needs {count} marks at {draw_board(game, state)}, "
                      f"but it needs {needed} (255: no meta line is left)")
    if needed <= left:
        raise Invalid(f"player {opponent} needs {needed} marks for a meta line at {draw_board(game, state)} "
                      f"and has {left} moves left: the count does not close it")


def played(game: dict, state: State, move: int, opponent: int) -> State:
    """The state after the move-th legal move, which must send `opponent` to a board and not end play."""
    children = moves(game, state)
    if move >= len(children):
        raise Invalid(f"a count closure plays move {move} at {draw_board(game, state)}, which has {len(children)}")
    after = children[move][1]
    if result(game, after) is not None or after[1] < 0:
        raise Invalid(f"a count closure's move {move} at {draw_board(game, state)} sends player {opponent} to no board")
    return after


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
    status = [board_status(tuple(cells), board) for board in range(9)]
    if all(any(status[a] == status[b] == status[c] == mark for a, b, c in LINES) for mark in (X, O)):
        raise NotACertificate(f"position {ascii(text)[:120]}: both players hold a meta line")
    if sent >= 0 and status[sent] != EMPTY:
        raise NotACertificate(f"position {ascii(text)[:120]}: board {sent} is closed, write '*'")
    if sent >= 0 and X not in cells:
        raise NotACertificate(f"position {ascii(text)[:120]}: the first move may go anywhere, write '*'")
    return tuple(cells), sent


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
    if all(line_owner([w if w == mark else EMPTY for w in winners]) for mark in (X, O)):
        raise NotACertificate(f"position {ascii(text)[:120]}: both players hold a meta line")
    if sent >= 0 and X not in cells:
        raise NotACertificate(f"position {ascii(text)[:120]}: the first move may go anywhere, write '*'")
    return tuple(cells), sent, tuple(winners)


def draw_board(game: dict, state: State) -> str:
    """The nine rows of the 9x9 grid separated by '/', then the board sent to (as in parse_position)."""
    cells, sent = state[:2]
    rows = ["".join(".XO"[cells[9 * (r // 3 * 3 + c // 3) + r % 3 * 3 + c % 3]] for c in range(9)) for r in range(9)]
    text = "/".join(rows) + " " + ("*" if sent < 0 else str(sent))
    return text + " " + "".join(".XO"[w] for w in state[2]) if len(state) == 3 else text
