"""Ultimate tic-tac-toe's count closures (docs/certificate-format.md), checked with the plain rules
of checker/uttt.py: how many marks a player still needs for a meta line, and the records that say
the opponent cannot complete one before the bound (two-byte, and deep ones naming a subtree)."""

import functools

from checker.load import Invalid
from checker.uttt import EMPTY, LINES, State, board_status, draw_board, empty_cells, is_open, play, result, to_move


def marks_needed(game: dict, state: State, player: int, lowered: int = -1) -> int:
    """The fewest marks `player` must still place to hold a meta line (255: no meta line is left to
    them). A board counts 0 if `player` won it; 255 if the other player won it or it is full (no
    line of `player` can win it); else 3 minus `player`'s marks on the fullest local line
    holding no mark of the other player. A board is won by a line, each move places one mark and
    no mark is ever removed, so this is a floor on `player`'s moves to a win under either rules.
    `lowered`: a board whose count is taken one lower (unless 0 or 255): the count after one move
    of `player` there."""
    return meta_count(board_costs(game, state, player), lowered)


def board_costs(game: dict, state: State, player: int) -> list[int]:
    """The nine boards' counts for `player` (`board_cost`)."""
    return [cost_at(game, state, player, board) for board in range(9)]


def moved(game: dict, costs: list[int], state: State, move: int, player: int) -> list[int]:
    """The nine counts for `player` at `state`, reached by `move` from a position whose counts are
    `costs`: a move marks a cell of its own board and can win only that board, so only that
    board's count can change."""
    costs = costs.copy()
    costs[move // 9] = cost_at(game, state, player, move // 9)
    return costs


def cost_at(game: dict, state: State, player: int, board: int) -> int:
    """One board's count for `player` at `state`."""
    status = state[2][board] if is_open(game) else board_status(state[0], board)
    return board_cost(state[0][9 * board:9 * board + 9], status, player)


def meta_count(costs: list[int], lowered: int = -1) -> int:
    """The cheapest meta line's count from the nine boards' counts, board `lowered` one lower
    (unless 0 or 255); 255 at most."""
    if lowered >= 0 and 0 < costs[lowered] < 255:
        costs = costs.copy()
        costs[lowered] -= 1
    best = 255
    for a, b, c in LINES:  # a plain loop, three times min() of a generator's speed: the innermost step
        line = costs[a] + costs[b] + costs[c]
        if line < best:
            best = line
    return best


@functools.lru_cache(maxsize=None)  # 3^9 boards x 4 states x 2 players at most: remembered, not trusted more
def board_cost(marks: bytes, status: int, player: int) -> int:
    """A board's count for `player`: 0 if its `status` (winner, 3: full, EMPTY) is `player`; 255
    if it is another or the board is full; else 3 minus `player`'s marks on the fullest local line
    of `marks` holding no mark of the other player (255: none)."""
    if status == player:
        return 0
    if status != EMPTY or EMPTY not in marks:
        return 255
    cost = 255
    for a, b, c in LINES:
        line = (marks[a], marks[b], marks[c])
        if 3 - player not in line:
            cost = min(cost, 3 - line.count(player))
    return cost


NO_MOVE = 255  # a count closure's first byte when it counts at the position itself
DEEP = 254  # a count closure's first byte when it names the prover's move and a closure of each reply
NEST = 3  # deep records nest this deep at most: 3 + 9 (3 + 9 (3 + 9 * 2)) = 1,731 bytes


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
    if to_move(game, state) != player or result(game, state) is not None:
        raise Invalid(f"a count closes only a position where player {player} is to move and play goes on, "
                      f"not {draw_board(game, state)}")
    costs = board_costs(game, state, 3 - player)
    if check_at(game, state, costs, player, plies_left, record, 0, nest) != len(record):
        raise Invalid(f"a count closure at {draw_board(game, state)} is too long")


def check_at(game: dict, state: State, costs: list[int], player: int, plies_left: int, raw: bytes, at: int,
             nest: int) -> int:
    """`check_count` of the record starting at `at` of `raw`, at a position where `player` is to
    move and play goes on and the opponent's board counts are `costs`; returns where the record
    ends (so nested records are read once)."""
    if at + 1 >= len(raw) or raw[at] == DEEP and (nest == 0 or at + 2 >= len(raw)):
        raise Invalid(f"a count closure at {draw_board(game, state)} is cut short or nests deeper than {NEST}")
    move = raw[at]
    opponent = 3 - player
    if move == DEEP:
        after, marked = played(game, state, raw[at + 1], opponent)
        costs = moved(game, costs, after, marked, opponent)
        replies = [(cell, play(game, after, cell, opponent)) for cell in empty_cells(game, after)]  # `after` goes on
        if raw[at + 2] != len(replies):
            raise Invalid(f"a count closure answers {raw[at + 2]} replies at {draw_board(game, after)}, "
                          f"which has {len(replies)}")
        at += 3
        for cell, reply in replies:  # two plies on: `player` is to move again (one mark each)
            if result(game, reply) is not None:
                raise Invalid(f"a count closes only a position where play goes on, not {draw_board(game, reply)}")
            at = check_at(game, reply, moved(game, costs, reply, cell, opponent), player, plies_left - 2, raw, at,
                          nest - 1)
        return at
    count = raw[at + 1]
    if move == NO_MOVE:
        needed, left = meta_count(costs), min(plies_left, state[0].count(EMPTY)) // 2
    else:
        after, marked = played(game, state, move, opponent)
        needed = meta_count(moved(game, costs, after, marked, opponent), after[1])
        left = (min(plies_left - 1, after[0].count(EMPTY)) + 1) // 2 - 1
    if count != needed:
        raise Invalid(f"a count closure says player {opponent} needs {count} marks at {draw_board(game, state)}, "
                      f"but it needs {needed} (255: no meta line is left)")
    if needed <= left:
        raise Invalid(f"player {opponent} needs {needed} marks for a meta line at {draw_board(game, state)} "
                      f"and has {left} moves left: the count does not close it")
    return at + 2


def played(game: dict, state: State, move: int, opponent: int) -> tuple[State, int]:
    """The state after the move-th legal move, which must send `opponent` to a board and not end
    play, and the cell marked."""
    cells = empty_cells(game, state)  # play goes on at `state` (tested before); one child played, not all
    if move >= len(cells):
        raise Invalid(f"a count closure plays move {move} at {draw_board(game, state)}, which has {len(cells)}")
    after = play(game, state, cells[move], 3 - opponent)
    if result(game, after) is not None or after[1] < 0:
        raise Invalid(f"a count closure's move {move} at {draw_board(game, state)} sends player {opponent} to no board")
    return after, cells[move]
