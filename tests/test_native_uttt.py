"""The compiled df-pn's Ultimate tic-tac-toe kernel (solver/games/uttt/kernel.c) against solver/search/pns.py.

Positions come from seeded random games at several plies; both engines search each with the
family's CriticalSquares and without hooks, for every claim, under one node budget.
"""

from __future__ import annotations

import json
import random

import pytest

import checker
import solver.search.pns as pns
from certify.proving.single import prove
from solver.games.game import NoHooks
from solver.games.uttt.engine import CriticalSquares, Position, Uttt, UtttRules
from solver.search.native import NativeProofSearch, kernel_for
from solver.search.pns import Claim, ProofSearch
from solver.search.prooftree import canonical_strategy

CLAIMS = [Claim(player, result) for player in (1, 2) for result in ("win", "no-loss")]
BUDGET = 3000  # nodes per search: enough that many searches settle and some run out


def random_positions(ply: int, count: int, seed: int) -> list[Position]:
    """`count` open positions with `ply` marks, from seeded random games."""
    game, rng, out = Uttt(), random.Random(seed), []
    while len(out) < count:
        s = game.initial()
        while not game.is_terminal(s) and (s.x | s.o).bit_count() < ply:
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        if not game.is_terminal(s):
            out.append(s)
    return out


@pytest.mark.parametrize("ply", [60, 55, 50, 45])
@pytest.mark.parametrize("plain", [False, True])
def test_same_verdicts_and_node_counts(ply: int, plain: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Same status, root numbers and expansions as solver/search/pns.py with its cache of children off."""
    monkeypatch.setattr(pns, "EXPANDED_CACHE", 0)
    game = Uttt()
    hooks = NoHooks() if plain else game.search_hooks()
    statuses = set()
    for s in random_positions(ply, 4, seed=ply):
        for claim in CLAIMS:
            reference = ProofSearch(game, claim, hooks).search(s, max_nodes=BUDGET)
            native = NativeProofSearch(game, claim, hooks)
            outcome = native.search(s, max_nodes=BUDGET)
            assert (outcome.status, outcome.root_pn, outcome.root_dn, outcome.nodes) == (
                reference.status, reference.root_pn, reference.root_dn, reference.nodes), (game.format_position(s), claim)
            assert native.evictions == 0
            statuses.add(outcome.status)
    if ply >= 50:  # the comparison covers settled searches, not only budgets (deeper ones run out)
        assert {"proved", "disproved"} <= statuses


def test_resumed_search_matches() -> None:
    """Budgeted calls resume from the table they left, to the same counts as the reference's."""
    game = Uttt()
    s = random_positions(45, 1, seed=3)[0]
    claim = Claim(game.to_move(s), "no-loss")
    native, reference = NativeProofSearch(game, claim, game.search_hooks()), ProofSearch(game, claim, game.search_hooks())
    pns_cache = pns.EXPANDED_CACHE
    try:
        pns.EXPANDED_CACHE = 0
        for _ in range(5):
            ours, theirs = native.search(s, max_nodes=native.nodes + 200), reference.search(s, max_nodes=reference.nodes + 200)
            assert (ours.status, ours.root_pn, ours.root_dn, ours.nodes) == (theirs.status, theirs.root_pn, theirs.root_dn, theirs.nodes)
    finally:
        pns.EXPANDED_CACHE = pns_cache


def test_same_certificate_as_the_python_core() -> None:
    """A proved claim gives a byte-identical certificate from either core, and the checker accepts it."""
    game = Uttt()
    for s in random_positions(50, 6, seed=11):
        root = game.format_position(s)
        for claim in (Claim(game.to_move(s), "no-loss"), Claim(3 - game.to_move(s), "no-loss")):
            native = prove(game, claim, root, max_nodes=20000, core="native")
            if native.outcome.status != "proved":
                continue
            python = prove(game, claim, root, max_nodes=20000, core="python")
            assert native.core == "native" and python.core == "python"
            assert native.text == python.text
            assert checker.check_document(json.loads(native.text or "")).exit_code == 0
            return
    pytest.fail("no sampled position was proved within the budget")


def test_the_strategy_walked_in_c_is_the_reference_walk() -> None:
    """`strategy` (the canonical traversal in C) gives prooftree.canonical_strategy's moves and counts."""
    game, proved = Uttt(), 0
    for s in random_positions(45, 6, seed=7) + random_positions(55, 6, seed=8):
        for claim in CLAIMS:
            for hooks in (game.search_hooks(), NoHooks()):
                search = NativeProofSearch(game, claim, hooks)
                if search.search(s, max_nodes=BUDGET * 10).status == "proved":
                    assert search.strategy(s) == canonical_strategy(game, s, claim.player, search.proved_move)
                    proved += 1
    assert proved >= 10


def test_kernel_coverage() -> None:
    """CriticalSquares and NoHooks have a kernel; other hooks and other rules do not."""
    game = Uttt()
    assert kernel_for(game, CriticalSquares()) is not None and kernel_for(game, NoHooks()) is not None

    class OtherHooks(CriticalSquares):
        pass

    assert kernel_for(game, OtherHooks()) is None
    assert kernel_for(Uttt(UtttRules(name="renamed")), NoHooks()) is not None  # the name is not a rule


def test_bench_peer_settles_the_same_values_with_the_same_nodes() -> None:
    """`certify bench --suite uttt` beside pns.c: the same searches give the same values and node counts."""
    from certify.bench.scale import default_peer_source
    from certify.bench.uttt import PEER_MODE, peer_target, uttt_benchmark

    source = default_peer_source("pns.c")
    if source is None:
        pytest.skip("shared/bench/pns.c is not beside the repository")
    results = uttt_benchmark([50], 3, 20.0, extend=False, plain=False, peer_source=source)
    ours = [a for mode, a in results if mode == "critical squares"]
    theirs = [a for mode, a in results if mode == PEER_MODE]
    assert [(a.position, a.value, a.nodes) for a in ours] == [(a.position, a.value, a.nodes) for a in theirs]
    assert all(a.value is not None and a.checked for a in ours)
    assert peer_target(results) == [{"ply": 50, "peer_settled": 3, "certify_settled_of_those": 3, "disagreements": 0}]
