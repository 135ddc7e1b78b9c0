"""The pairing closure's search (solver/games/positional/blocking.py, and kernel.c doing the same
steps): its reduction of the open lines and its necessary test before a branch never lose a pairing
that exists (against a plain exhaustive search), what it finds is a pairing as the checker reads
one, and the compiled closure finds the same first move and pairs at positions of big boards."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from certify.proving.single import closure_record
from solver.games.families import resolve_game
from solver.games.positional.blocking import blocking_pairs, feasible, reduced
from samples import closure_samples

BIG = 10**9


def exists(masks: list[int], used: int = 0) -> bool:
    """Plain exhaustive search: disjoint pairs outside `used`, each mask holding one of them."""
    if not masks:
        return True
    first = masks[0] & ~used
    cells = [1 << c for c in range(first.bit_length()) if first >> c & 1]
    return any(exists([m for m in masks[1:] if m & (a | b) != a | b], used | a | b) for a, b in combinations(cells, 2))


def random_masks(rng: random.Random, cells: int, count: int) -> list[int]:
    return [sum(1 << c for c in rng.sample(range(cells), rng.randint(2, 4))) for _ in range(count)]


def test_the_necessary_test_and_the_reduction_lose_no_pairing() -> None:
    rng = random.Random(35)
    found = refused = 0
    for _ in range(1500):
        masks = random_masks(rng, rng.randint(4, 10), rng.randint(1, 7))
        truth = exists(masks)
        assert exists(reduced(masks)) == truth, masks
        if truth:
            assert feasible(masks, 0), masks  # necessary: never false where pairs exist
        refused += not feasible(masks, 0)
        board = [0] * 10
        lines = [[c for c in range(10) if m >> c & 1] for m in masks]
        pairs = blocking_pairs(lines, board, 1, BIG)
        assert (pairs is not None) == truth, masks
        found += truth
    assert found > 100 and refused > 100  # both kinds were met


def test_the_reduction_drops_lines_containing_others() -> None:
    assert reduced([0b111, 0b011, 0b011, 0b1100]) == [0b011, 0b1100]


@pytest.mark.parametrize("text", ["mnk:6,6,5", "mnk:7,7,5"])
def test_closures_are_pairings_the_checker_accepts_and_the_compiled_one_agrees(text: str) -> None:
    game = resolve_game(text)
    closed = 0
    for board, prover, python, compiled in closure_samples(game, game.search_hooks(), 6, 5):
        if python is None:
            continue
        closed += 1
        first, pairs = python
        assert compiled == closure_record(python)
        cells = {cell for pair in pairs for cell in pair}
        assert len(cells) == 2 * len(pairs) and first not in cells and all(board[c] == 0 for c in cells | {first})
        for line in game.rules.lines:
            if all(board[c] != prover for c in line) and first not in line:
                assert any(set(pair) <= set(line) for pair in pairs), line
    assert closed
