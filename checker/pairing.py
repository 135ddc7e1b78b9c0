"""The pairing kind: a pairing strategy that proves "player P does not lose", re-verified.

The strategy: from the root, player P (the pairer) plays `first_move` if one is given, else any
move; after that, whenever the opponent Q takes a cell whose partner is empty, P takes the
partner; otherwise P plays any legal move. Invariant: Q never owns both cells of a pair (a pair
starts empty, and the turn after Q takes one of its cells P takes the other). So a line that
holds both cells of a pair never becomes all Q's. The checker verifies the combinatorial
condition that makes this a proof, once, at the root, in one pass over the lines:

- the rules are own marks (Q places only Q's mark, so "Q completes a line" means "Q owns every
  cell of it") and a goal where Q completing no line means P does not lose: first-line-wins (the
  game can then end only in P's line or a draw) or most-lines (Q's count is 0, P's at least 0);
- the root is a position of the game where play goes on; `first_move`, if given, is an empty cell
  and P is to move there;
- the pairs are disjoint, each of two distinct empty cells on the board, none the first move;
- every line without a mark of P (nor the first move) holds both cells of some pair.

The work is one pass over the pairs and one over the lines' cells (at most lines × cells), bounded
by --max-work before it starts. docs/certificate-format.md and docs/trusted-base.md give the argument.

`potential` checks the weaker condition of a proof's potential closure (checker/proof.py, record
byte 254): at a position where P is to move, P's first move and pairs after which lines open to Q
holding no pair (the unblocked lines) may remain, so long as their Erdos-Selfridge potential is
below 1/2: the sum over them of 2^-u, u the line's empty cells that are neither the first move nor
paired (U: all such cells). P's strategy after the first move: Q's move on a paired cell is answered
on its partner; Q's move on a cell of U is answered on the empty cell y of U with the greatest sum
of 2^-u(L) over the unblocked lines L through y without a mark of P (u(L): L's empty cells in U,
counted then), or anywhere if U has no empty cell left. Why Q completes no line:
- a line holding a pair: as above, Q never owns both cells of a pair;
- an unblocked line L: Q completes it only by taking all its cells in U. On U the play is the
  Maker-Breaker game of Erdos and Selfridge (1973), Q (Maker) first, P (Breaker) answering in U at
  once (Q's moves on paired cells are answered off U and change nothing in U). Let Phi be the sum
  of 2^-u(L) over the unblocked lines without a mark of P. At the start Phi < 1/2. Q's first move in U, on
  x doubles the weights of the lines through x, adding at most Phi: Phi < 1. From then on each P
  move y removes the weights of the lines through y, and Q's next move x adds back those through x
  and not y, which sum to at most those through y (y was the greatest): Phi never grows, so it
  stays below 1. A line Q owns entirely would weigh 2^0 = 1 alone: there is none.
P's marks only block, and P completing a line ends play in P's win: P does not lose. The sum is
exact (integers in units of 2^-longest line), one pass over the lines' cells as `blocking`.
"""

from checker import positional
from checker.load import Envelope, Invalid, Limits, NotACertificate, count_field, counted, field, word_field

RESULTS = ("no-loss",)
GOALS = ("first-line-wins", "most-lines")
REFUSED = {  # why the argument does not hold, for each rule it is refused for
    "either": "either player may place either mark, so Q may complete a line of P's mark",
    "x-only": "both players place X, so P's own moves fill Q's lines",
    "first-line-loses": "completing a line loses, so Q never completing one proves nothing for P",
}


def check(envelope: Envelope, family, game, limits: Limits, progress=None) -> str:  # type: ignore[no-untyped-def]
    """Verify the claim and the pairing; return the summary or raise Invalid / NotACertificate."""
    if family is not positional:
        raise NotACertificate(f"the pairing kind is for positional games, not family {envelope.family}")
    document = envelope.document
    claim = field(document, "claim", dict, "certificate")
    player = count_field(claim, "player", "claim", 1, 2)
    word_field(claim, "result", "claim", RESULTS)
    root_text = field(claim, "root", str, "claim", nullable=True)
    pairing = field(document, "pairing", dict, "certificate")
    first = field(pairing, "first_move", int, "pairing", nullable=True)
    pairs = field(pairing, "pairs", list, "pairing")
    work = sum(len(line) for line in game.lines) + game.cells
    if work > limits.max_work:
        raise NotACertificate(f"the rules' lines hold {work:,} cells: over the work budget ({limits.max_work:,} "
                              f"lines x cells); to check them, raise it: --max-work {work}")
    if len(pairs) > game.cells // 2:
        raise NotACertificate(f"pairing.pairs has {len(pairs)} pairs, more than {game.cells} cells can hold")
    refuse_rules(game)
    root = positional.initial(game) if root_text is None else positional.parse_position(game, root_text)
    if positional.result(game, root) is not None:
        raise Invalid(f"the root {positional.draw_board(game, root)} is a finished game")
    blocked = blocking(game, root, player, first, pairs)
    opponent = 3 - player
    where = "the start" if root_text is None else f"position {positional.draw_board(game, root)}"  # the board read
    opening = "" if first is None else f"first move on cell {first}, then "
    return (f"player {player} does not lose from {where} ({game.goal}): {opening}each move of player {opponent} "
            f"answered on its pair's other cell; {counted(len(pairs), 'pair', 'pairs')} block all "
            f"{counted(len(game.lines) - blocked, 'line', 'lines')} open to player {opponent} "
            f"({blocked} more through player {player}'s cells), so player {opponent} completes no line")


def potential(game: positional.Game, board: positional.Board, player: int, first: int | None, pairs: list) -> None:
    """Check a potential closure at `board` (player to move, play goes on): `first` an empty cell,
    the pairs disjoint empty cells other than it, and the lines open to the opponent that hold no
    pair weighing less than 1/2 in all (the module docstring); raises Invalid."""
    if first is None:
        raise Invalid(f"a potential closure needs player {player}'s first move, at {positional.draw_board(game, board)}")
    if positional.to_move(game, board) != player:
        raise Invalid(f"a potential closure at {positional.draw_board(game, board)}, where player {player} is not to move")
    if not (0 <= first < game.cells and board[first] == positional.EMPTY):
        raise Invalid(f"potential closure: first move {first} is not an empty cell of {positional.draw_board(game, board)}")
    partner = pair_cells(pairs, game, board, first)
    top = max(len(line) for line in game.lines)
    total = 0  # in units of 2^-top: a line with u free cells weighs 2^(top - u)
    for line in game.lines:
        if first in line or any(board[cell] == player for cell in line):
            continue
        cells = set(line)
        if any(partner[cell] in cells for cell in line):
            continue
        free = sum(1 for cell in line if board[cell] == positional.EMPTY and partner[cell] == -1)
        total += 1 << (top - free)
    if 2 * total >= 1 << top:
        raise Invalid(f"potential closure at {positional.draw_board(game, board)}: the lines no pair blocks weigh "
                      f"{total}/2^{top}, not below 1/2, so player {3 - player} might complete one")


def refuse_rules(game: positional.Game) -> None:
    """Raise Invalid, saying why, unless a pairing proves "P does not lose" under these rules."""
    refused = REFUSED.get(game.marks) or REFUSED.get(game.goal)
    if refused:
        raise Invalid(f"a pairing proves nothing under these rules: {refused}")


def blocking(game: positional.Game, board: positional.Board, player: int, first: int | None, pairs: list) -> int:
    """Check the condition at `board` (a position where play goes on): `first` is empty with `player`
    to move, the pairs are disjoint empty cells, and every line without a mark of `player` (nor
    `first`) holds a pair. Returns how many lines hold a mark of `player` or `first`; raises Invalid."""
    opponent = 3 - player
    if first is not None and positional.to_move(game, board) != player:
        raise Invalid(f"pairing.first_move = {first}, but player {opponent} is to move at {positional.draw_board(game, board)}")
    if first is not None and not (0 <= first < game.cells and board[first] == positional.EMPTY):
        raise Invalid(f"pairing.first_move = {first} is not an empty cell of {positional.draw_board(game, board)}")
    partner = pair_cells(pairs, game, board, first)
    taken = {first} | {cell for cell in range(game.cells) if board[cell] == player}
    blocked = 0
    for index, line in enumerate(game.lines):
        if taken.intersection(line):
            blocked += 1
            continue
        cells = set(line)
        if not any(partner[cell] in cells for cell in line):
            raise Invalid(f"rules.lines[{index}] = {list(line)} holds no pair at {positional.draw_board(game, board)}, "
                          f"and player {opponent} could complete it")
    return blocked


def pair_cells(pairs: list, game: positional.Game, root: positional.Board, first: int | None) -> list[int]:
    """Each cell's partner (-1: unpaired); raises unless the pairs are disjoint empty cells, not `first`."""
    partner = [-1] * game.cells
    for index, pair in enumerate(pairs):
        where = f"pairing.pairs[{index}]"
        if type(pair) is not list or len(pair) != 2 or any(type(cell) is not int for cell in pair):
            raise NotACertificate(f"{where} must be an array of two integers")
        a, b = pair
        for cell in (a, b):
            if not 0 <= cell < game.cells:
                raise Invalid(f"{where} = {pair}: cell {cell} is not on the board (0..{game.cells - 1})")
            if partner[cell] != -1 or cell == first:
                raise Invalid(f"{where} = {pair}: cell {cell} is already {'paired' if cell != first else 'the first move'}")
            if root[cell] != positional.EMPTY:
                raise Invalid(f"{where} = {pair}: cell {cell} is not empty")
        if a == b:
            raise Invalid(f"{where} = {pair} pairs a cell with itself")
        partner[a], partner[b] = b, a
    return partner
