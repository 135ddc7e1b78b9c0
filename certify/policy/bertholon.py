"""The first player's plan under the open rules of Ultimate tic-tac-toe, as a policy for `certify prove`.

Bertholon et al. 2020 (arXiv:2006.02353) and Breitner (2013) win for X with a plan of two phases
before the end game; this module states the plan so that proof search checks it against every
reply of O (`certify prove uttt:open --claim win --player 1 --policy
certify.policy.bertholon:open_rules_plan`). Where the plan names moves the prover plays only
those; where it names none (the end game) the search chooses.

1. The centre: X plays the centre of the centre board, then the centre of every board O sends it
   to. O is sent back to the centre board each time and fills it (it wins it); X holds all nine
   centres, and O, sent to the full centre board, moves anywhere.
2. The trap: X answers in the board it is sent to, always in the same cell t, so O is sent to
   board t until it is full; the search picks t at X's first choice. X then holds cells 4 and t
   of the boards, and threatens the third cell 8 - t of each.
"""

from __future__ import annotations

from solver.uttt import FULL9, Position, Uttt, chunk

CENTRE = 4


def open_rules_plan(game: Uttt, s: Position) -> tuple[int, ...]:
    """The moves the plan allows X in `s` (X to move), or () where the search is free to choose."""
    full = s.closed  # under the open rules, closed means full
    if not full >> CENTRE & 1:
        board = CENTRE if s.sent < 0 else s.sent
        return (9 * board + CENTRE,) if not (s.x | s.o) >> 9 * board + CENTRE & 1 else ()
    trap = {g % 9 for g in range(81) if s.x >> g & 1 and g % 9 != CENTRE}
    boards = range(9) if s.sent < 0 else (s.sent,)
    cells = trap if trap else set(range(9)) - {CENTRE}
    if len(cells) != 1 and trap:
        return ()
    empty = ~(s.x | s.o)
    moves = tuple(9 * b + t for t in sorted(cells) for b in boards
                  if empty >> 9 * b + t & 1 and not full >> t & 1 and chunk(s.x | s.o, t) != FULL9)
    return moves
