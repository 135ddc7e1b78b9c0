"""Patashnik's Qubic dictionary as a plan (certify/papers/patashnik.py): read whole, looked up under
the cube's symmetries, and a proof that follows it found by the compiled search and checked."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import checker
from certify.papers.patashnik import DICTIONARY, Book, book, dictionary_cell, qubic_plan, read_dictionary
from certify.proving.single import prove, read_proof, strategy_moves
from solver.games.families import resolve_game
from solver.games.positional.engine import Move
from solver.search.native import NativeProofSearch
from solver.search.policy import PolicyHooks
from solver.search.pns import Claim, ProofSearch

GAME = resolve_game("qubic")
TEXT = (Path(__file__).resolve().parent.parent / "certify" / "papers" / "data" / DICTIONARY).read_text()


def masks(spelled: str) -> tuple[int, int]:
    return (sum(1 << c for c, m in enumerate(spelled) if m == "x"), sum(1 << c for c, m in enumerate(spelled) if m == "o"))


def test_the_dictionary_is_read_whole_and_its_cells_map_lines_to_lines() -> None:
    """2,929 positions, as its header says, each with X to move and a free cell for X's move; the
    first is the empty board with the corner; the cell map sends the dictionary's lines onto qubic's."""
    entries = read_dictionary(TEXT)
    assert len(entries) == 2929 and entries[0] == ("." * 64, 0)
    assert len(book(GAME).moves) == 2929  # no two lines are one position up to symmetry
    theirs = [[16 * z + 4 * r + c for z, r, c in line] for line in _cube_lines()]
    assert {frozenset(dictionary_cell(i) for i in line) for line in theirs} == {frozenset(line) for line in GAME.rules.lines}


def _cube_lines() -> list[list[tuple[int, int, int]]]:
    """The 76 lines of the 4×4×4 cube as (z, r, c) points, enumerated here independently of rules.py."""
    lines = set()
    steps = [(a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1) if (a, b, c) != (0, 0, 0)]
    for step in steps:
        for start in [(z, r, c) for z in range(4) for r in range(4) for c in range(4)]:
            points = [tuple(start[a] + step[a] * i for a in range(3)) for i in range(4)]
            if all(0 <= v < 4 for p in points for v in p):
                lines.add(frozenset(points))
    return [sorted(line) for line in lines]


def test_a_bad_dictionary_line_is_one_error() -> None:
    with pytest.raises(ValueError, match="dictionary line 2"):
        read_dictionary(TEXT.split("-" * 41 + "\n")[0] + "-" * 41 + "\n 0\nxxo 12\n")
    with pytest.raises(ValueError, match="no line of dashes"):
        read_dictionary("x14o 12\n")


def test_the_plan_names_the_images_of_its_moves_at_the_images_of_a_position() -> None:
    """Looked up by canonical form: at any image of a dictionary position the plan's move leads to an
    image of the position the dictionary's move leads to."""
    plan, rng = book(GAME), random.Random(7)
    for spelled, move in rng.sample(read_dictionary(TEXT), 60):
        x, o = masks(spelled)
        g = rng.randrange(len(plan.perms))
        gx, go = plan.image(g, x), plan.image(g, o)
        named = plan.move(gx, go)
        assert named is not None
        assert plan.canonical(gx | 1 << named, go)[0] == plan.canonical(x | 1 << move, o)[0]


def test_every_play_of_two_moves_each_stays_in_the_dictionary() -> None:
    """After X's corner, any reply, X's dictionary move and any reply, every position (3,843) is in
    the dictionary: what it says of the opening, and what a wrong cell map would break."""
    plan, x, found = book(GAME), 1, 0
    for first in range(1, 64):
        second = plan.move(x, 1 << first)
        assert second is not None
        for reply in set(range(64)) - {0, first, second}:
            found += plan.move(x | 1 << second, 1 << first | 1 << reply) is not None
    assert found == 63 * 61


def test_the_plan_leaves_wins_and_blocks_to_the_search() -> None:
    """Where X completes a line, or must block O's three, the plan names nothing (steps 1 and 2);
    at the start it names the dictionary's corner."""
    assert qubic_plan(GAME, GAME.initial()) == (Move(0, 1),)
    wins, blocks = ((20, 40, 60), (1, 2, 5)), ((20, 40, 61), (1, 2, 3))  # X's three on a space diagonal; O's on a row
    spelled = ["".join("x" if c in x else "o" if c in o else "." for c in range(64)) for x, o in (wins, blocks)]
    extended = Book(GAME, [*read_dictionary(TEXT), (spelled[0], 10), (spelled[1], 10)])  # as if the dictionary had them
    for x, o in (wins, blocks):
        assert extended.move(sum(1 << c for c in x), sum(1 << c for c in o)) is None
    assert extended.move(1, 2) is not None


def deep_position() -> int:
    """The first dictionary position with seven marks of X."""
    spelled = next(s for s, _ in read_dictionary(TEXT) if s.count("x") == 7)
    return GAME.code([1 if m == "x" else 2 if m == "o" else 0 for m in spelled])


def test_the_symmetric_plan_searches_as_the_python_core() -> None:
    """The plan is symmetric, so its search keeps qubic's symmetric table keys, in the compiled core
    as in solver/search/pns.py: the same status, root numbers and node count."""
    hooks = PolicyHooks(GAME, qubic_plan, GAME.search_hooks())
    assert len(hooks.inner.group) == 192 and hasattr(hooks, "table_key")
    assert len(PolicyHooks(GAME, lambda game, code: (), GAME.search_hooks()).inner.group) == 1  # any other plan: exact keys
    native = NativeProofSearch(GAME, Claim(1, "win"), hooks).search(deep_position())
    reference = ProofSearch(GAME, Claim(1, "win"), hooks).search(deep_position())
    assert native.status == "proved"
    assert (native.status, native.root_pn, native.root_dn, native.nodes) == (
        reference.status, reference.root_pn, reference.root_dn, reference.nodes)


def test_a_proof_from_deep_in_the_dictionary_follows_it_and_is_checked(tmp_path: Path) -> None:
    """From a dictionary position with seven marks of X, the compiled search with the plan proves
    X's win; the checker accepts it; X's move is the plan's wherever the plan names one."""
    root = GAME.format_position(deep_position())
    attempt = prove(GAME, Claim(1, "win"), root=root, max_nodes=2_000_000, policy=qubic_plan)
    assert attempt.core == "native" and attempt.text is not None
    path = tmp_path / "deep.json"
    path.write_text(attempt.text)
    verdict = checker.check_file(str(path), checker.Limits(), GAME.rules.sha256()).message
    assert verdict.startswith("VALID"), verdict
    certificate, game = read_proof(path)
    moves = strategy_moves(certificate, game)
    assert all(not qubic_plan(game, s) or move in qubic_plan(game, s) for s, move in moves.items())
