"""Threat space in the positional family's search (solver/games/positional/hooks.py `threat_space`,
kernel.c THREAT_SPACE): forced replies of either side, victory by continuous threats (VCF) and
threat ordering.

Every move it prunes loses for its mover, so the verdicts are those of the search without it; the
compiled kernel decides as the Python hooks do (the same candidates in the same order), so the two
searches take the same nodes; a proof found with it is an ordinary proof tree the checker reads.
"""

from __future__ import annotations

import json
import random

import pytest

import checker
from certify.proving.single import prove
from solver.games.families import resolve_game
from solver.games.positional.engine import Game
from solver.games.positional.hooks import PositionalHooks
from solver.search.native import NativeProofSearch
from solver.search.pns import Claim, ProofSearch

CLAIMS = [Claim(player, result) for player in (1, 2) for result in ("win", "no-loss")]
SMALL = ["tictactoe", "mnk:3,4,3", "mnk:4,4,3", "misere", "cumulative", "mnk:1,6,3"]


def hooks(game: Game, threat_space: bool) -> PositionalHooks:
    return PositionalHooks(game.rules, game.board, threat_space=threat_space)


@pytest.mark.parametrize("game_text", SMALL)
def test_python_and_compiled_take_the_same_nodes(game_text: str) -> None:
    game = resolve_game(game_text)
    for claim in CLAIMS:
        reference = ProofSearch(game, claim, hooks(game, True)).search(game.initial())
        outcome = NativeProofSearch(game, claim, hooks(game, True)).search(game.initial())
        assert (outcome.status, outcome.root_pn, outcome.root_dn, outcome.nodes) == (
            reference.status, reference.root_pn, reference.root_dn, reference.nodes), (game_text, claim)


@pytest.mark.parametrize("game_text", SMALL + ["mnk:4,4,4", pytest.param("mnk:4,5,4", marks=pytest.mark.slow)])
def test_threat_space_on_and_off_agree(game_text: str) -> None:
    game = resolve_game(game_text)
    for claim in CLAIMS:
        on = NativeProofSearch(game, claim, hooks(game, True)).search(game.initial())
        off = NativeProofSearch(game, claim, hooks(game, False)).search(game.initial())
        assert on.status == off.status, (game_text, claim)


def test_same_candidates_from_random_positions() -> None:
    """Short searches from random positions of 4x4 (k = 4) and 5x5 (k = 4): the same numbers and
    nodes, so the same candidates in the same order (and the same continuous threats found)."""
    rng = random.Random(7)
    for game_text in ("mnk:4,4,4", "mnk:5,5,4"):
        game = resolve_game(game_text)
        for _ in range(120):
            state = game.initial()
            for _ in range(rng.randrange(0, game.rules.cells - 2)):
                if game.is_terminal(state):
                    break
                state = game.apply(state, rng.choice(game.legal_moves(state)))
            if game.is_terminal(state):
                continue
            claim = rng.choice(CLAIMS)
            budget = rng.randrange(1, 200)
            reference = ProofSearch(game, claim, hooks(game, True)).search(state, max_nodes=budget)
            outcome = NativeProofSearch(game, claim, hooks(game, True)).search(state, max_nodes=budget)
            assert (outcome.root_pn, outcome.root_dn, outcome.nodes) == (reference.root_pn, reference.root_dn, reference.nodes), (
                game.format_position(state), claim, budget)


def board_of(game: Game, rows: list[str]) -> int:
    return game.code([{".": 0, "X": 1, "O": 2}[c] for c in "".join(rows)])


def cells(moves: list) -> list[int]:
    return [move.cell for move in moves]


def test_forced_replies_of_either_side() -> None:
    game = resolve_game("mnk:4,5,4")
    h = hooks(game, True)
    # X threatens 3 (row 0: X X X . .); O to move (the opponent of prover 1) may only block
    state = board_of(game, ["XXX..", "OO...", ".....", "....."])
    assert cells(h.candidates(state, game.legal_moves(state), False, 1)) == [3]
    assert len(hooks(game, False).candidates(state, game.legal_moves(state), False, 1)) == 15  # off: every move
    # two completions of X: every move of O loses, so O has no candidate
    state = board_of(game, ["XXX..", "OO..O", "XXX..", "O..O."])
    assert h.candidates(state, game.legal_moves(state), False, 1) == []


def test_continuous_threats_come_first() -> None:
    game = resolve_game("mnk:4,6,4")
    h = hooks(game, True)
    # O completes row 3 at cell 21 next move: X may only block there, threats or not
    state = board_of(game, ["XX....", "X.....", "X.....", "OOO..."])
    assert cells(h.candidates(state, game.legal_moves(state), True, 1)) == [21]
    # X . X on row 0 with X on row 2: X at 2 threatens 0-1-2-3? no: continuous threats exist, and
    # the first candidate starts them: the search proves the win in a handful of nodes
    state = board_of(game, [".X.X..", "......", ".X....", "OO..O."])
    first = h.candidates(state, game.legal_moves(state), True, 1)[0].cell
    assert first not in cells(hooks(game, False).candidates(state, game.legal_moves(state), True, 1))[:1]
    outcome = NativeProofSearch(game, Claim(1, "win"), h).search(state)
    assert outcome.status == "proved" and outcome.nodes < 40
    assert NativeProofSearch(game, Claim(1, "win"), hooks(game, False)).search(state).nodes > outcome.nodes


@pytest.mark.parametrize("game_text,player,result", [("mnk:4,4,3", 1, "win"), ("mnk:5,5,3", 1, "win"),
                                                     ("mnk:3,4,3", 1, "win"), ("tictactoe", 1, "no-loss")])
def test_proofs_with_threat_space_are_checked(game_text: str, player: int, result: str) -> None:
    """The proof is the tree the search walks: every reply of the opponent, each forced win move by
    move; the independent checker accepts it unchanged."""
    attempt = prove(resolve_game(game_text), Claim(player, result), core="native")
    assert attempt.text is not None
    verdict = checker.check_document(json.loads(attempt.text))
    assert verdict.exit_code == 0, verdict.message


@pytest.mark.parametrize("core", ["native", "python"])
def test_win_claims_refuted_by_pairings(core: str) -> None:
    """With pairings a win claim gives up a branch where the opponent has a pairing (dfpn.c
    `refuted`, pns.py `refuted`): the same verdicts, the proof holds no closure and checks."""
    game = resolve_game("mnk:5,5,3")
    attempt = prove(game, Claim(1, "win"), pairings=True, core=core)
    assert attempt.core == core and attempt.text is not None
    assert checker.check_document(json.loads(attempt.text)).exit_code == 0
    four = resolve_game("mnk:4,4,4")
    refuted = NativeProofSearch(four, Claim(1, "win"), four.search_hooks(), closures=True).search(four.initial())
    plain = NativeProofSearch(four, Claim(1, "win"), four.search_hooks()).search(four.initial())
    assert refuted.status == plain.status == "disproved" and refuted.nodes < 10 < plain.nodes
