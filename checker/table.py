"""The table kind: the label of every reachable state, the claim, and the strategies, re-verified.

Boards of at most 16 cells, so a state is its code (checker/codes.py) and a table indexed by code
is a `bytearray(3**cells)` (43 MB at 16 cells).
The checker finds the reachable states itself, scanning codes upwards (every move adds a mark, so
a child's code is larger than its parent's): the file stores only their labels, in that order.

Label byte: `64 * (value + 1) + distance` — value -1/0/1 for the side to move, distance in plies
(0x00-0x3f loss, 0x40-0x7f draw, 0x80-0xbf win). A strategy stores one move byte
`16 * mark + cell` per turn of its player, in ascending code order of those turns.
"""

from dataclasses import dataclass
from itertools import compress

from checker import positional
from checker.codes import Halves, halves, state
from checker.load import (Envelope, Invalid, Limits, NotACertificate, count_field, counted, field, unpack_bytes,
                          word_field)
from checker.positional import Game

MAX_CELLS = 16
WORDS = {1: "win", 0: "draw", -1: "loss"}
REACHED, TERMINAL = 1, 2  # a state's entry in the reach table (0: not reached)


def label(value: int, distance: int) -> int:
    """The label byte of (value, distance)."""
    return 64 * (value + 1) + distance


# How much the parent likes a child with this label: a child's loss is the parent's win (sooner is
# better), then draws (longer), then the child's wins (later is better). The parent's label is
# fixed by its best child: BEST[max key over the children].
KEY = bytes(128 + 63 - l % 64 if l < 64 else l if l < 128 else l % 64 for l in range(256))
BEST = [label(1 if k >= 128 else 0 if k >= 64 else -1, 1 + (63 - k % 64 if k >= 128 else k % 64))
        for k in range(192)]


@dataclass(frozen=True)
class Table:
    """The unpacked table kind: claim, labels (and margins) in code order, strategies."""

    root_value: str
    root_margin: int | None
    first_moves: list[tuple[int, int, str]]
    labels: bytes
    margins: bytes | None
    strategies: list[tuple[int, str, bytes]]  # (player, guarantees, move bytes)


def load(document: dict, game: Game, limits: Limits) -> Table:
    """Shape, lengths, ranges and the work budget: everything checked before any exploration."""
    if game.cells > MAX_CELLS:
        raise NotACertificate(f"the table kind covers boards of at most {MAX_CELLS} cells, not {game.cells}")
    claim = field(document, "claim", dict, "certificate")
    moves = []
    for index, move in enumerate(field(claim, "first_moves", list, "claim")[:2 * game.cells + 1]):
        where = f"claim.first_moves[{index}]"
        if type(move) is not dict:
            raise NotACertificate(f"{where} must be an object")
        moves.append((field(move, "cell", int, where), field(move, "mark", int, where),
                      field(move, "value", str, where)))
    table = field(document, "table", dict, "certificate")
    states = count_field(table, "states", "table", 1, 3**game.cells)
    work = (states + 2 * 3**(game.cells - game.cells // 2)) * len(game.lines)
    if states > limits.max_states or work > limits.max_work:
        raise NotACertificate(f"table.states = {states:,} and states x lines = {work:,}: over the work budget "
                              f"({limits.max_states:,} states, {limits.max_work:,} states x lines); to check a large "
                              f"game, raise it: --max-states {states} --max-work {work}")
    labels = unpack_bytes(table, "labels", "table", states)
    most_lines = game.goal == "most-lines"
    if (field(table, "margins", str, "table", nullable=True) is None) == most_lines:
        raise Invalid(f"table.margins must be {'present' if most_lines else 'null'} for goal {game.goal}")
    margins = unpack_bytes(table, "margins", "table", states) if most_lines else None
    strategies = []
    for index, strategy in enumerate(field(document, "strategies", list, "certificate")[:3]):
        where = f"strategies[{index}]"
        if type(strategy) is not dict:
            raise NotACertificate(f"{where} must be an object")
        entries = count_field(strategy, "entries", where, 0, states)
        strategies.append((count_field(strategy, "player", where, 1, 2),
                           word_field(strategy, "guarantees", where, ("win", "no-loss")),
                           unpack_bytes(strategy, "moves", where, entries)))
    result = Table(field(claim, "root_value", str, "claim"), field(claim, "root_margin", int, "claim", True),
                   moves, labels, margins, strategies)
    check_ranges(result, game)
    return result


def first_bad(data: bytes, good: list[bool]) -> int:
    """Index of the first byte of data outside `good`, or -1 (a C-speed scan via translate)."""
    return data.translate(bytes(good)).find(0)


def check_ranges(table: Table, game: Game) -> None:
    """Every label, margin and move byte is in range; the strategy set fits the claimed root value."""
    bad = first_bad(table.labels, [b < 192 and b % 64 <= game.cells for b in range(256)])
    if bad >= 0:
        raise Invalid(f"table.labels[{bad}] = {table.labels[bad]} is not a label (value -1..1, distance 0..{game.cells})")
    if table.margins is not None:
        bad = first_bad(table.margins, [min(b, 256 - b) <= len(game.lines) for b in range(256)])
        if bad >= 0:
            raise Invalid(f"table.margins[{bad}] is outside -{len(game.lines)}..{len(game.lines)}")
    for index, (player, _, moves) in enumerate(table.strategies):
        bad = first_bad(moves, [b // 16 in positional.placeable(game, player) and b % 16 < game.cells for b in range(256)])
        if bad >= 0:
            raise Invalid(f"strategies[{index}].moves[{bad}] = {moves[bad]} is not a move of player {player}")
    if table.root_value not in ("win", "draw", "loss"):
        raise Invalid(f"claim.root_value {ascii(table.root_value)[:40]} is not win, draw or loss")
    found = sorted((player, guarantees) for player, guarantees, _ in table.strategies)
    expected = {"win": [(1, "win")], "loss": [(2, "win")], "draw": [(1, "no-loss"), (2, "no-loss")]}[table.root_value]
    if found != expected:
        raise Invalid(f"root value {table.root_value}: strategies (player, guarantees) expected {expected}, "
                      f"found {ascii(found)[:120]}")


def signed(byte: int) -> int:
    """An int8 stored as a byte."""
    return byte - 256 if byte > 127 else byte


def mismatch(game: Game, code: int, terminal: bool, want: int, found: int) -> Invalid:
    """The message for a stored label that is not the one the rules or minimax give."""
    what = "terminal" if terminal else "non-terminal"
    if want // 64 != found // 64:
        return Invalid(f"{what} {state(game, code)}: value expected {want // 64 - 1}, found {found // 64 - 1}")
    return Invalid(f"{what} {state(game, code)}: distance expected {want % 64}, found {found % 64}")


def explore(game: Game, h: Halves, table: Table, progress) -> tuple[bytearray, bytearray, bytearray | None, int]:
    """Find the reachable states in ascending code order, checking each terminal label as it comes.

    Returns the reach table (REACHED or TERMINAL by code), the labels and margins by code (terminal
    states filled in) and the number of edges. Stops at the first state past table.states.
    """
    size, states, split = 3**game.cells, len(table.labels), h.split
    reach, labels = bytearray(size), bytearray(size)
    margins = bytearray(size) if table.margins is not None else None
    reach[0] = REACHED
    rank = edges = 0
    for code in compress(range(size), reach):  # reads reach as it grows: children lie above their parent
        if rank == states:
            raise Invalid(f"table.states is {states}, but more states are reachable (first unlisted: "
                          f"{state(game, code)})")
        high, low = divmod(code, split)
        filled = h.filled[0][low] + h.filled[1][high]
        mover = 1 + filled % 2
        x_lines = (h.x[0][low] & h.x[1][high]).bit_count()
        o_lines = (h.o[0][low] & h.o[1][high]).bit_count()
        winner = positional.winner(game, mover, x_lines, o_lines, filled == game.cells)
        if winner is None:
            if table.labels[rank] % 64 == 0:  # cheap, and it stops a table of zeros at the root
                raise Invalid(f"non-terminal {state(game, code)}: distance expected at least 1, found 0")
            deltas = h.deltas[mover][0][low] + h.deltas[mover][1][high]
            for child in map(code.__add__, deltas):
                reach[child] = REACHED
            edges += len(deltas)
        else:
            reach[code] = TERMINAL
            want = label(0 if winner == 0 else 1 if winner == mover else -1, 0)
            if table.labels[rank] != want:
                raise mismatch(game, code, True, want, table.labels[rank])
            labels[code] = want
            if margins is not None:
                margin = x_lines - o_lines if mover == 1 else o_lines - x_lines
                if signed(table.margins[rank]) != margin:
                    raise Invalid(f"terminal {state(game, code)}: margin expected {margin}, "
                                  f"found {signed(table.margins[rank])}")
                margins[code] = 128 - margin  # so that a parent's margin is max(children) - 128
        rank += 1
        if progress and rank % 1_000_000 == 0:
            progress("reach", rank)
    if rank != states:
        raise Invalid(f"table.states is {states}, but {rank} states are reachable")
    return reach, labels, margins, edges


def check_labels(game: Game, h: Halves, table: Table, reach: bytearray, labels: bytearray,
                 margins: bytearray | None, progress) -> None:
    """Every non-terminal label (and margin) is the minimax of its children's, from the top code down.

    Children have larger codes, so they are checked first: the failure named has right children.
    """
    size, split, rank = len(reach), h.split, len(table.labels)
    for code in compress(reversed(range(size)), reversed(reach)):
        rank -= 1
        if progress and rank % 1_000_000 == 0:
            progress("labels", len(table.labels) - rank)
        if reach[code] == TERMINAL:
            continue
        high, low = divmod(code, split)
        mover = 1 + (h.filled[0][low] + h.filled[1][high]) % 2
        children = h.deltas[mover][0][low] + h.deltas[mover][1][high]
        want = BEST[max(map(KEY.__getitem__, map(labels.__getitem__, map(code.__add__, children))))]
        if table.labels[rank] != want:
            raise mismatch(game, code, False, want, table.labels[rank])
        labels[code] = want
        if margins is not None:
            margin = max(map(margins.__getitem__, map(code.__add__, children))) - 128
            if signed(table.margins[rank]) != margin:
                raise Invalid(f"non-terminal {state(game, code)}: margin expected {margin}, "
                              f"found {signed(table.margins[rank])}")
            margins[code] = 128 - margin


def check_claim(game: Game, table: Table, labels: bytearray) -> None:
    """Root value and margin, and the complete first-move list, agree with the (verified) labels."""
    root = WORDS[labels[0] // 64 - 1]
    if table.root_value != root:
        raise Invalid(f"claim.root_value expected {root!r}, found {ascii(table.root_value)[:40]}")
    margin = None if table.margins is None else signed(table.margins[0])
    if table.root_margin != margin:
        raise Invalid(f"claim.root_margin expected {margin}, found {table.root_margin}")
    expected = [(cell, mark, WORDS[1 - labels[mark * 3**cell] // 64])
                for (cell, mark), _ in positional.moves(game, positional.initial(game))]
    for index in range(max(len(expected), len(table.first_moves))):
        want = expected[index] if index < len(expected) else "no entry"
        got = table.first_moves[index] if index < len(table.first_moves) else "no entry"
        if want != got:
            raise Invalid(f"claim.first_moves[{index}] (cell, mark, value) expected {want}, found {ascii(got)[:80]}")


def check_strategy(index: int, game: Game, h: Halves, strategy: tuple[int, str, bytes], reach: bytearray,
                   labels: bytearray) -> None:
    """The moves are one per turn of the player reached when it plays them and the opponent plays every
    legal move, in ascending code order; each is legal and every play ends as guaranteed."""
    player, guarantees, moves = strategy
    where = f"strategies[{index}] (player {player}, {guarantees})"
    worst = 1 if guarantees == "win" else 0
    seen = bytearray(len(reach))
    seen[0] = 1
    used = 0
    for code in compress(range(len(seen)), seen):  # grows ahead of the scan, like explore()
        high, low = divmod(code, h.split)
        mover = 1 + (h.filled[0][low] + h.filled[1][high]) % 2
        if reach[code] == TERMINAL:
            value = labels[code] // 64 - 1
            result = value if mover == player else -value
            if result < worst:
                raise Invalid(f"{where}: play reaches terminal {state(game, code)}, a {WORDS[result]} for "
                              f"player {player}")
        elif mover == player:
            if used == len(moves):
                raise Invalid(f"{where}: no move for reachable {state(game, code)} ({used} moves listed)")
            mark, cell = divmod(moves[used], 16)
            if code // 3**cell % 3:
                raise Invalid(f"{where}: moves[{used}] plays on the occupied cell {cell} in {state(game, code)}")
            seen[code + mark * 3**cell] = 1
            used += 1
        else:
            for child in map(code.__add__, h.deltas[mover][0][low] + h.deltas[mover][1][high]):
                seen[child] = 1
    if used != len(moves):
        raise Invalid(f"{where}: {len(moves)} moves listed, but the strategy reaches only {used} turns of "
                      f"player {player}")


def check(envelope: Envelope, family, game: Game, limits: Limits, progress=None) -> str:  # type: ignore[no-untyped-def]
    """Every check of the table kind; returns the summary, raises Invalid at the first failure."""
    if family is not positional:
        raise NotACertificate(f"the table kind is for the positional family, not {envelope.family}")
    table = load(envelope.document, game, limits)
    h = halves(game)
    reach, labels, margins, edges = explore(game, h, table, progress)
    check_labels(game, h, table, reach, labels, margins, progress)
    check_claim(game, table, labels)
    for index, strategy in enumerate(table.strategies):
        if progress:
            progress(f"strategy {index + 1}", 0)
        check_strategy(index, game, h, strategy, reach, labels)
    margin = "" if table.root_margin is None else f" margin {table.root_margin}"
    return (f"{counted(len(table.labels), 'state', 'states')}, {counted(edges, 'edge', 'edges')}, "
            f"root {table.root_value}{margin}, {counted(len(table.strategies), 'strategy', 'strategies')} checked")
