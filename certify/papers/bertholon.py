"""The first player's plan under the open rules of Ultimate tic-tac-toe, as a policy for `certify prove`.

Bertholon et al. 2020 (arXiv:2006.02353) prove by hand that X wins within 43 moves; their text was
not available here, so this plan is certify's own, built on the known opening (X sends O back
into the centre board until it is full). Proof search checks it against every reply of O
(`certify prove uttt:open --claim win --player 1 --policy certify.papers.bertholon:open_rules_plan`,
docs/uttt.md): where the plan names a move the prover plays only that one; where it names none
the search chooses.

1. The centre: X plays the centre of the centre board, then the centre of every board O sends it
   to, so O is sent back to the centre board each time and fills it (O wins it).
2. The pin: O's last move in the centre board sends X to a board d whose centre X does not hold
   yet. X takes cell d of board d, not its centre, so O is sent to board d, and answers each move
   of O there by cell d of the board it is sent to. O cannot leave board d by the cell X took;
   every other cell of board d sends X to a board where cell d still sends O back, or, the
   centre, to the full centre board (a free move for X). X ends with cells 4 and d of the other
   boards, a line each short of its third cell.
3. The end game: wherever the pin cannot go on (cell d taken in the board X is sent to, board d
   full, or a free move), the search chooses X's moves.

The plan never gives O a free move: O is never sent to a full board while X follows it.
"""

from __future__ import annotations

from solver.games.uttt.engine import Position, Uttt

CENTRE = 4
OUTER_CELLS = (0, 1, 2, 3, 5, 6, 7, 8)
CELL_OF_EVERY_BOARD = tuple(sum(1 << 9 * board + cell for board in range(9)) for cell in range(9))  # 81-bit masks
CENTRES = CELL_OF_EVERY_BOARD[CENTRE]
CENTRE_BOARD = 0x1FF << 9 * CENTRE


def open_rules_plan(game: Uttt, s: Position) -> tuple[int, ...]:
    """The move the plan names for X in `s` (X to move), or () where the search chooses."""
    empty = ~(s.x | s.o)
    if not s.x & ~CENTRES:  # the centre phase
        board = CENTRE if s.sent < 0 else s.sent
        target = 10 * board if not empty & CENTRE_BOARD else 9 * board + CENTRE  # the pin's first move once O filled the centre board
        return (target,) if empty >> target & 1 else ()
    pin = pin_cell(s)
    if s.sent < 0 or s.closed >> pin & 1:
        return ()
    move = 9 * s.sent + pin
    return (move,) if empty >> move & 1 else ()


def pin_cell(s: Position) -> int:
    """The cell X holds in most boards outside the centres (the pin's board; the lowest of a tie)."""
    best, pin = 0, OUTER_CELLS[0]
    for cell in OUTER_CELLS:  # a plain loop: the compiled search asks at every position where X moves
        count = (s.x & CELL_OF_EVERY_BOARD[cell]).bit_count()
        if count > best:
            best, pin = count, cell
    return pin
