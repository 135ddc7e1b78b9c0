"""The automorphism group of a positional game's line set: the cell permutations that map the set of
lines onto itself, computed once per game from its lines alone.

Any such permutation maps a position to one with the same value (marks move with their cells, lines
with their cells), so proof search may share one table entry among a position's images
(solver/games/positional/hooks.py, kernel.c). An m,n,k board gets the symmetries its lines have, which
can be more than the board's dihedral ones (4×4 with k = 4: 32, not 8); Qubic gets its 192; a spec
file whatever its lines allow.

The search is a backtracking match of cells: cells are taken in an order where each is on a line
with an earlier one, and a cell may go only where it keeps, with every cell placed before it, the
number of lines the two share; a complete match is kept if it maps the lines onto the lines. Boards
whose group is huge (a cell on no line, one line of many cells: the group holds every permutation of
those cells) stop at `limit` permutations or `steps` placements: the result is then a subset of the
group holding the identity, which keeps every shared key sound (each position's key is one of its
true images) and only shares fewer entries.
"""

from __future__ import annotations

from functools import lru_cache

from solver.games.positional.rules import Permutation, Rules

GROUP_LIMIT = 256  # the compiled kernel's table of permutations (kernel.c MAX_GROUP); Qubic has 192
STEP_LIMIT = 2_000_000  # placements tried before the search stops with what it found


@lru_cache(maxsize=16)  # once per game: Qubic's takes about a second
def line_automorphisms(rules: Rules, limit: int = GROUP_LIMIT, steps: int = STEP_LIMIT) -> tuple[Permutation, ...]:
    """Cell permutations `p` (the mark on cell i goes to cell p[i]) mapping the line set onto itself,
    sorted, the identity first; at most `limit` of them (see the module docstring)."""
    cells = rules.cells
    lines = {frozenset(line) for line in rules.lines}
    shared = [[0] * cells for _ in range(cells)]  # shared[a][b]: lines through both a and b (a == b: through a)
    for line in rules.lines:
        for a in line:
            for b in line:
                shared[a][b] += 1
    invariant = [(shared[c][c], tuple(sorted(len(line) for line in rules.lines if c in line))) for c in range(cells)]
    order = _connected_order(shared, invariant)
    # the first cell placed before each that shares a line with it: its image must share as many with the image
    parent = [next((u for u in order[:depth] if shared[u][cell]), None) for depth, cell in enumerate(order)]
    pattern = [[shared[u][cell] for u in order[:depth]] for depth, cell in enumerate(order)]
    near = [[t for t in range(cells) if shared[c][t]] for c in range(cells)]
    image: list[int] = [-1] * cells
    placed: list[int] = []  # image[order[i]] for i < depth
    used = [False] * cells
    found: list[Permutation] = []
    budget = [steps]

    def place(depth: int) -> bool:  # False once the limit or the step budget is reached
        if depth == cells:
            perm = tuple(image)
            if {frozenset(perm[c] for c in line) for line in lines} == lines:
                found.append(perm)
            return len(found) < limit
        cell, up = order[depth], parent[depth]
        pool = near[image[up]] if up is not None else range(cells)
        for target in sorted(pool, key=lambda t: t != cell):  # the identity is found first
            if used[target] or invariant[target] != invariant[cell]:
                continue
            budget[0] -= 1
            if budget[0] < 0:
                return False
            row = shared[target]
            if [row[t] for t in placed] == pattern[depth]:
                image[cell], used[target] = target, True
                placed.append(target)
                going = place(depth + 1)
                placed.pop()
                image[cell], used[target] = -1, False
                if not going:
                    return False
        return True

    place(0)
    return tuple(sorted(found))


def _connected_order(shared: list[list[int]], invariant: list[tuple]) -> list[int]:
    """The cells, each after one it shares a line with where it can be: breadth first from the cells of
    the rarest kind, so that every placement is checked against its neighbours early."""
    cells = len(shared)
    counts: dict[tuple, int] = {}
    for kind in invariant:
        counts[kind] = counts.get(kind, 0) + 1
    rest = sorted(range(cells), key=lambda c: (counts[invariant[c]], c))
    order: list[int] = []
    seen = [False] * cells
    for start in rest:
        if seen[start]:
            continue
        seen[start] = True
        queue = [start]
        while queue:
            cell = queue.pop(0)
            order.append(cell)
            for other in range(cells):
                if not seen[other] and shared[cell][other]:
                    seen[other] = True
                    queue.append(other)
    return order
