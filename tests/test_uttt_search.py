"""Proof search on Ultimate tic-tac-toe: the critical-square hooks are sound and change no value."""

from __future__ import annotations

from certify.bench.uttt import sample
from solver.games.game import NoHooks
from solver.search.pns import Claim, ProofSearch
from solver.games.uttt.engine import CriticalSquares, Uttt, immediate_wins, play

GAME = Uttt()


def test_hooks_keep_every_reply_and_drop_only_moves_that_hand_over_a_win() -> None:
    hooks = CriticalSquares()
    dropped = 0
    for s in sample([45], 60, seed=1)[45]:
        moves = GAME.legal_moves(s)
        prover = GAME.to_move(s)
        assert sorted(hooks.candidates(s, moves, False, 3 - prover)) == moves
        kept = hooks.candidates(s, moves, True, prover)
        assert set(kept) <= set(moves)
        wins = immediate_wins(s)
        if wins:
            assert kept and all(m in wins for m in kept)
            continue
        for move in set(moves) - set(kept):
            dropped += 1
            assert immediate_wins(play(s, move)), GAME.format_position(s)
    assert dropped > 0


def test_values_with_and_without_critical_squares_agree() -> None:
    settled = 0
    for s in sample([55], 12, seed=2)[55]:
        for claim in (Claim(GAME.to_move(s), "win"), Claim(3 - GAME.to_move(s), "no-loss")):
            with_hooks = ProofSearch(GAME, claim, GAME.search_hooks()).search(s, max_nodes=30_000)
            without = ProofSearch(GAME, claim, NoHooks()).search(s, max_nodes=30_000)
            if {with_hooks.status, without.status} <= {"proved", "disproved"}:
                assert with_hooks.status == without.status, GAME.format_position(s)
                settled += 1
    assert settled >= 12
