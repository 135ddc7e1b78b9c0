"""The first player's plan under the open rules of Ultimate tic-tac-toe, as a policy for `certify prove`.

Bertholon et al. 2020 (arXiv:2006.02353) and Breitner (2013) win for X with a plan of two phases
before the end game; this module states the plan so that proof search checks it against every
reply of O (`certify prove uttt:open --claim win --player 1 --policy
certify.papers.bertholon:open_rules_plan`). Where the plan names moves the prover plays only
those; where it names none (the end game) the search chooses.

1. The centre: X plays the centre of the centre board, then the centre of every board O sends it
   to. O is sent back to the centre board each time and fills it (it wins it); X holds all nine
   centres, and O, sent to the full centre board, moves anywhere.
2. The trap: X answers in the board it is sent to, always in the same cell t, so O is sent to
   board t until it is full; the search picks t at X's first choice. X then holds cells 4 and t
   of the boards, and threatens the third cell 8 - t of each.
Then the end game: the search chooses X's moves (the family's hooks find the wins at once).

`centre_plan` fixes the first phase alone and leaves the rest to the search: measured after the
centre phase and O's free move (docs/uttt.md), df-pn with the trap fixed reaches proof numbers
100-300 times larger than without it in the same nodes, since every fixed X move passes on
the sum over O's replies below it where a free choice would pass on the least.
"""

from __future__ import annotations

from solver.games.uttt.engine import Position, Uttt

CENTRE = 4
OUTER_CELLS = (0, 1, 2, 3, 5, 6, 7, 8)
CELL_OF_EVERY_BOARD = tuple(sum(1 << 9 * board + cell for board in range(9)) for cell in range(9))  # 81-bit masks
CENTRES = CELL_OF_EVERY_BOARD[CENTRE]


def open_rules_plan(game: Uttt, s: Position) -> tuple[int, ...]:
    """The moves the plan allows X in `s` (X to move), or () where the search is free to choose."""
    full = s.closed  # under the open rules, closed means full
    trap = trap_cell(s)
    if trap is None and s.x.bit_count() < 9:
        return centre_move(s)
    boards = range(9) if s.sent < 0 else (s.sent,)
    empty = ~(s.x | s.o)
    if trap is None:  # X's first move after the centre phase: the search picks the trap
        return tuple(9 * b + t for t in range(9) if t != CENTRE for b in boards if empty >> 9 * b + t & 1)
    if full >> trap & 1:
        return ()
    return tuple(9 * b + trap for b in boards if empty >> 9 * b + trap & 1)


def centre_plan(game: Uttt, s: Position) -> tuple[int, ...]:
    """The centre phase alone: X's centre move while X holds nothing but centres and fewer than
    nine, else () (the search chooses)."""
    return centre_move(s) if not s.x & ~CENTRES and s.x.bit_count() < 9 else ()


def centre_move(s: Position) -> tuple[int, ...]:
    """In the centre phase: the centre of the board X is sent to (the centre board at the start),
    or () if that centre is taken."""
    board = CENTRE if s.sent < 0 else s.sent
    return (9 * board + CENTRE,) if not (s.x | s.o) >> 9 * board + CENTRE & 1 else ()


def trap_cell(s: Position) -> int | None:
    """The cell X has played most often outside the centres (the trap t; the lowest of a tie), or
    None if none yet."""
    best, trap = 0, None
    for cell in OUTER_CELLS:  # a plain loop: the compiled search asks at every position where X moves
        count = (s.x & CELL_OF_EVERY_BOARD[cell]).bit_count()
        if count > best:
            best, trap = count, cell
    return trap
