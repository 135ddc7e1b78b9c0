"""Closing a no-loss proof by a pairing: at a position, pairs of empty cells that block every line
still open to the opponent (docs/certificate-format.md, kind `pairing`, has the argument).

A bounded backtracking search over bit masks, fast enough to try at every prover position of a
proof search: the open lines are first reduced (a line whose empty cells include all of another
open line's is blocked with it, so it is dropped; of equal ones the first is kept); then the open
line with the fewest usable pairs is blocked first, each of its pairs in turn. Before a branch,
a necessary test cuts it cheaply (`feasible`): lines that share fewer than two usable cells can't
be blocked by one pair, so a set of such lines (chosen greedily, the most constrained first) needs
two usable cells of its own each, all distinct: a bipartite matching (Hall's condition), found by
augmenting paths. Past `budget` steps it gives up (None: no closure here, which only costs the proof
its shortcut). The positional family offers it as the proof-search hook `closure`
(solver/games/positional/hooks.py); the compiled kernel (solver/games/positional/kernel.c) does the
same steps in the same order, so both close the same positions with the same pairs.

With `potential` (--potential), the pairs need not block every open line: the search also stops,
before the test and the branch at each step, where the open lines no pair blocks have an
Erdos-Selfridge potential below 1/2 -- the sum over them of 2^-(their empty cells outside every
pair) -- and returns those pairs as a potential record (`potential_record`, checker/pairing.py
`potential` has the argument: the opponent's moves on paired cells are answered on the partner,
its moves elsewhere by the potential strategy on the unpaired cells). Weights are counted in
units of 2^-62 (a line of more than 62 such cells weighs one unit: rounded up), so the sum is
never below the exact one the checker computes.
"""

from __future__ import annotations

from collections.abc import Sequence

Pairs = tuple[tuple[int, int], ...]
Closure = tuple[int | None, Pairs]  # the prover's first move (or None) and the pairs
DEFAULT_BUDGET = 2_000
POTENTIAL = 254  # a potential record's first byte (checker/proof.py): then the first move, the number of pairs, the pairs
HALF = 1 << 61  # 1/2 in the potential's units of 2^-62
CLOSING_GOALS = ("first-line-wins", "most-lines")


def _bits(mask: int) -> list[int]:
    """The single-bit masks of `mask`, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _count(mask: int) -> int:
    return bin(mask).count("1")


def reduced(masks: list[int]) -> list[int]:
    """The masks without those that contain another (any pair inside the smaller one is inside
    them too); of equal masks the first stays. Order kept."""
    return [mask for i, mask in enumerate(masks)
            if not any(j != i and other & mask == other and (other != mask or j < i) for j, other in enumerate(masks))]


def feasible(remaining: Sequence[int], used: int) -> bool:
    """A necessary condition for disjoint pairs outside `used` blocking every mask of `remaining`:
    each has two usable cells, and the greedy set of masks that pairwise share fewer than two usable
    cells (scanned by fewest usable cells, then in order) gets two distinct usable cells each."""
    usable = [mask & ~used for mask in remaining]
    if any(_count(free) < 2 for free in usable):
        return False
    kept: list[int] = []
    for free in sorted(usable, key=_count):  # stable: ties in order
        if all(_count(free & other) < 2 for other in kept):
            kept.append(free)
    owner: dict[int, int] = {}  # a cell's bit -> the kept mask it is matched to

    def augment(index: int, seen: list[int]) -> bool:
        for cell in _bits(kept[index]):
            if seen[0] & cell:
                continue
            seen[0] |= cell
            if cell not in owner or augment(owner[cell], seen):
                owner[cell] = index
                return True
        return False

    return all(augment(index, [0]) for index in range(len(kept)) for _ in range(2))


def weight(free: int) -> int:
    """A line's potential with the empty cells `free` (a mask) left to it, in units of 2^-62 (rounded up)."""
    count = _count(free)
    return 1 if count >= 62 else 1 << (62 - count)


def below_half(remaining: Sequence[int], open_masks: Sequence[int], pairs: Sequence[int], used: int) -> bool:
    """Whether the open lines no pair of `pairs` blocks weigh less than 1/2, their cells in `used`
    (the pairs') taken away; the `remaining` lines (all unblocked) are summed first, as a cheap bound."""
    if sum(weight(mask & ~used) for mask in remaining) >= HALF:
        return False
    return sum(weight(mask & ~used) for mask in open_masks if not any(mask & pair == pair for pair in pairs)) < HALF


def blocking_pairs(lines: Sequence[Sequence[int]], board: Sequence[int], prover: int,
                   budget: int = DEFAULT_BUDGET, steps: list[int] | None = None,
                   potential: bool = False) -> tuple[Pairs, bool] | None:
    """Disjoint pairs of empty cells such that every line without a mark of `prover` holds one, and
    True; with `potential`, pairs leaving the lines they do not block a potential below 1/2, and
    whether they block all (the module docstring). None if there are none or the search passes
    `budget` steps (counted in `steps`, given to share one budget between searches). Own marks:
    `prover`'s mark is `prover`."""
    open_masks = []
    for line in lines:
        if any(board[cell] == prover for cell in line):
            continue
        mask = sum(1 << cell for cell in line if board[cell] == 0)
        if mask & (mask - 1) == 0:  # fewer than two empty cells: no pair fits (and it alone weighs 1/2 or more)
            return None
        open_masks.append(mask)
    steps = [0] if steps is None else steps
    chosen: list[int] = []

    def solve(remaining: list[int], used: int) -> list[int] | None:
        if not remaining:
            return []
        if potential and below_half(remaining, open_masks, chosen, used):
            return []
        steps[0] += 1
        if steps[0] > budget or not feasible(remaining, used):
            return None
        counts = [_count(mask & ~used) for mask in remaining]
        cells = _bits(remaining[counts.index(min(counts))] & ~used)
        pairs = [a | b for i, a in enumerate(cells) for b in cells[i + 1:]]
        # the pairs blocking the most lines first (ties in the order above: Python's sort is stable)
        blocked = {pair: sum(mask & pair == pair for mask in remaining) for pair in pairs}
        for pair in sorted(pairs, key=lambda pair: -blocked[pair]):
            chosen.append(pair)
            rest = solve([mask for mask in remaining if mask & pair != pair], used | pair)
            if rest is not None:
                return [pair, *rest]
            chosen.pop()
        return None

    found = solve(reduced(open_masks), 0)
    if found is None:
        return None
    strict = all(any(mask & pair == pair for pair in found) for mask in open_masks)
    return tuple(sorted(tuple(cell for cell in range(pair.bit_length()) if pair >> cell & 1) for pair in found)), strict  # type: ignore[misc]


def potential_record(first: int, pairs: Pairs) -> bytes:
    """A potential closure as the certificate stores it (checker/proof.py): POTENTIAL, the first
    move, the number of pairs, then their cells."""
    return bytes([POTENTIAL, first, len(pairs), *(cell for pair in pairs for cell in pair)])


def closing_pairing(lines: Sequence[Sequence[int]], board: Sequence[int], prover: int,
                    budget: int = DEFAULT_BUDGET, potential: bool = False) -> Closure | bytes | None:
    """At a position with `prover` to move: a first move of the prover after which pairs block every
    line still open to the opponent, or None if none is found within `budget` steps in all, at most a
    tenth of them for each move. The cells on most open lines are tried first, then in order. (Pairs
    blocking every open line before the move block them after it too, less the pair holding the
    move's cell, whose lines it marks: so no search without a first move is needed.) With
    `potential`, pairs that do not block every line are a potential record (bytes)."""
    attempt = max(1, budget // 10)
    opponent_lines = [line for line in lines if all(board[cell] != prover for cell in line)]
    through = {cell: sum(cell in line for line in opponent_lines) for cell, mark in enumerate(board) if mark == 0}
    spent = 0
    for cell in sorted(through, key=lambda cell: -through[cell]):  # stable: ties in order
        if spent >= budget:
            break
        after = [prover if each == cell else mark for each, mark in enumerate(board)]
        steps = [0]
        found = blocking_pairs(lines, after, prover, min(attempt, budget - spent), steps, potential)
        if found is not None:
            pairs, strict = found
            return (cell, pairs) if strict else potential_record(cell, pairs)
        spent += steps[0]
    return None
