"""The automorphism group of a line set (solver/games/positional/symmetry.py) and its use as table keys.

Expectations are facts found independently of the code: a permutation is an automorphism when it maps
the lines onto the lines (checked directly, and by brute force over every permutation of small
boards); Qubic's group has 192 elements (the 48 symmetries of the cube and the 4 "inside-out" maps
of each axis, Patashnik 1980 — an established fact); the 4×4 board with its 10 lines of four has 32
(row and column permutations that commute with reversal, 8, the same or reversed on the columns, 2,
and the transpose, 2). Symmetry changes the path of the search, never its verdict.
"""

from __future__ import annotations

import json
from itertools import permutations

import pytest

import checker
from certify.proving.single import certificate_text, strategy_certificate
from solver.games.families import resolve_game
from solver.games.positional.engine import Game
from solver.games.positional.hooks import PositionalHooks
from solver.games.positional.rules import board_symmetries, cube_lines, make_rules, resolve
from solver.games.positional.symmetry import line_automorphisms
from solver.search.native import NativeProofSearch
from solver.search.pns import Claim, ProofSearch


def preserves(perm: tuple[int, ...], lines) -> bool:
    lines = {frozenset(line) for line in lines}
    return {frozenset(perm[c] for c in line) for line in lines} == lines


def compose(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(a[b[c]] for c in range(len(a)))


@pytest.mark.parametrize("game", ["tictactoe", "mnk:3,4,3", "mnk:4,4,3", "mnk:5,5,4", "mnk:4,9,4", "mnk:7,7,5",
                                  "mnk:8,8,5", "mnk:1,64,4", "mnk:4,16,4", "mnk:6,6,4"])
def test_k_below_the_side_the_group_is_the_boards_dihedral_symmetries_that_keep_the_lines(game: str) -> None:
    rules = resolve(game)
    assert sorted(line_automorphisms(rules)) == board_symmetries(rules)


@pytest.mark.parametrize("game", ["mnk:4,4,4", "mnk:5,5,5", "mnk:2,2,2", "qubic"])
def test_full_boards_have_more_than_the_dihedral_ones_and_every_element_keeps_the_lines(game: str) -> None:
    rules = resolve(game)
    group = line_automorphisms(rules)
    assert set(board_symmetries(rules)) < set(group)
    assert group[0] == tuple(range(rules.cells)) and all(preserves(perm, rules.lines) for perm in group)
    members = set(group)
    assert all(compose(a, b) in members for a in group[:12] for b in group)  # closed: a group


def test_qubic_has_its_192_symmetries_and_the_4x4_board_32() -> None:
    qubic = resolve("qubic")
    assert len(qubic.lines) == 76 and qubic.cells == 64
    assert len(line_automorphisms(qubic)) == 192
    assert len(line_automorphisms(resolve("mnk:4,4,4"))) == 32


@pytest.mark.parametrize("rows, cols, lines", [
    (2, 3, [[0, 1], [1, 2, 5], [3, 4], [0, 4]]),
    (2, 4, [[0, 1, 2], [1, 2, 3], [4, 5, 6], [5, 6, 7], [0, 5], [3, 6]]),
    (2, 4, [[0, 1], [2, 3], [4, 5], [6, 7], [0, 4], [1, 5]]),
])
def test_the_group_is_every_permutation_that_keeps_the_lines_by_brute_force(rows: int, cols: int, lines) -> None:
    rules = make_rules("spec", rows, cols, "own", "first-line-wins", lines=lines)
    every = [perm for perm in permutations(range(rules.cells)) if preserves(perm, rules.lines)]
    assert list(line_automorphisms(rules)) == sorted(every)


def test_a_huge_group_stops_at_the_limit_with_true_symmetries_only() -> None:
    rules = resolve("mnk:1,7,7")  # one line of 7 cells: all 5,040 permutations keep it
    group = line_automorphisms(rules, limit=100)
    assert len(group) == 100 and group[0] == tuple(range(7)) and all(preserves(p, rules.lines) for p in group)


@pytest.mark.parametrize("game", ["mnk:4,4,4", "mnk:2,2,2", "mnk:3,3,3,wild", "cube3"])
def test_verdicts_are_the_same_with_the_group_on_and_off_and_the_two_searches_agree(game: str) -> None:
    """The whole group near the root (the default) or the geometric symmetries only (-1): same verdict;
    the compiled search's node counts equal the Python one's under the same keys; every proof checks."""
    rules = (make_rules("cube3", 3, 9, "own", "first-line-wins", lines=cube_lines(3)) if game == "cube3"
             else resolve(game))
    engine = Game(rules)
    claims = [Claim(1, "win"), Claim(2, "no-loss")] if game == "cube3" else [Claim(1, "no-loss"), Claim(2, "no-loss")]
    for claim in claims:
        verdicts = set()
        for plies in (-1, 4, rules.cells):
            hooks = PositionalHooks(rules, engine.board, plies)
            native = NativeProofSearch(engine, claim, hooks)
            outcome = native.search(engine.initial())
            verdicts.add(outcome.status)
            if rules.cells <= 9:
                reference = ProofSearch(engine, claim, hooks).search(engine.initial())
                assert (reference.status, reference.nodes) == (outcome.status, outcome.nodes), (game, claim, plies)
            if outcome.status == "proved":
                certificate, _ = strategy_certificate(engine, claim, None, engine.initial(),
                                                      native.strategy(engine.initial()), "", 0.0, False)
                assert checker.check_document(json.loads(certificate_text(certificate))).exit_code == 0
        assert len(verdicts) == 1, (game, claim, verdicts)


def test_qubic_is_a_built_in_game_the_checker_reads() -> None:
    game = resolve_game("qubic")
    assert game.rules.describe().startswith("4x16 board, 76 lines of 4")
    # the four cells of a space diagonal: (z, r, c) = (i, i, i) sits at 16 r + 4 z + c
    assert (0, 21, 42, 63) in game.rules.lines
