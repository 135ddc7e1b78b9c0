"""Pairing closures in the compiled df-pn (dfpn.h `close`, solver/games/positional/kernel.c) against
the reference: solver/search/pns.py with `pairings` and the Python closure (solver/games/positional/blocking.py).

The C closure tries the same lines, the same pairs in the same order, under the same budget, so the
two searches close the same positions: the same verdicts, node counts (with the reference's cache
of children off, as in tests/test_native.py) and certificates, byte for byte; the checker accepts them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import checker
import solver.search.pns as pns
from certify.proving.single import closure_record, prove
from solver.games.families import resolve_game
from solver.games.game import NoHooks
from solver.games.positional.engine import Game
from solver.games.positional.rules import make_rules
from solver.search import _dfpn
from solver.search.native import NativeProofSearch, has_closure, kernel_for
from solver.search.pns import Claim, ProofSearch

ROOT = Path(__file__).resolve().parent.parent
NO_LOSS = [Claim(player, "no-loss") for player in (1, 2)]
# own marks under both goals a pairing proves, and rules where it proves nothing (no closure)
GAMES = ["tictactoe", "mnk:4,4,4", "mnk:3,4,3", "cumulative", "misere", "w3t"]


def spec_game() -> Game:
    """Irregular lines: a pairing must follow them, not a board's shape."""
    return Game(make_rules("odd", 3, 3, "own", "first-line-wins", lines=[[0, 1, 2], [2, 5, 8], [0, 4, 8], [3, 4, 5], [1, 4]]))


def game_of(text: str) -> Game:
    return spec_game() if text == "spec" else resolve_game(text)


@pytest.mark.parametrize("game_text", GAMES + ["spec"])
def test_same_verdicts_and_node_counts_as_the_python_closures(game_text: str) -> None:
    game = game_of(game_text)
    for claim in NO_LOSS + [Claim(1, "win")]:  # a win claim: refuted by the opponent's pairings
        hooks = game.search_hooks()
        reference = ProofSearch(game, claim, hooks, pairings=True).search(game.initial())
        outcome = NativeProofSearch(game, claim, hooks, closures=True).search(game.initial())
        assert (outcome.status, outcome.root_pn, outcome.root_dn, outcome.nodes) == (
            reference.status, reference.root_pn, reference.root_dn, reference.nodes), (game_text, claim)


@pytest.mark.parametrize("game_text", GAMES + ["spec"])
def test_closures_on_and_off_agree(game_text: str) -> None:
    """Closures change the work, never the verdict; a win claim is never closed, only refuted (the
    opponent's pairing disproves it), so it never takes more nodes."""
    game = game_of(game_text)
    for claim in NO_LOSS + [Claim(1, "win"), Claim(2, "win")]:
        on = NativeProofSearch(game, claim, game.search_hooks(), closures=True).search(game.initial())
        off = NativeProofSearch(game, claim, game.search_hooks()).search(game.initial())
        assert on.status == off.status, (game_text, claim)
        if claim.result == "win" and on.status == "proved":
            assert on.nodes <= off.nodes


@pytest.mark.parametrize("game_text,player", [("tictactoe", 2), ("mnk:4,4,4", 2), ("mnk:4,5,4", 1),
                                              ("mnk:3,4,3", 1), ("spec", 1)])
def test_same_certificate_as_the_python_walk_and_valid(game_text: str, player: int) -> None:
    """The compiled walk writes CLOSE and the closure's record where the Python walk writes the pairing."""
    game = game_of(game_text)
    python = prove(game, Claim(player, "no-loss"), pairings=True, core="python")
    native = prove(game, Claim(player, "no-loss"), pairings=True, core="native")
    assert (native.core, python.core) == ("native", "python")
    assert native.text is not None and native.text == python.text
    verdict = checker.check_document(json.loads(native.text))
    assert verdict.exit_code == 0, verdict.message
    if native.tree and native.tree.closures:
        assert "closed by a pairing" in verdict.message


def test_a_closure_record_is_the_python_closure_packed() -> None:
    """Every prover's position of a small game: the C record decodes to what blocking.py finds."""
    game = resolve_game("mnk:4,4,4")
    hooks = game.search_hooks()
    search = NativeProofSearch(game, Claim(2, "no-loss"), hooks, closures=True)
    state, closed = game.initial(), 0
    for move in game.legal_moves(state):
        after = game.apply(state, move)
        search.search(after, max_nodes=1)  # the root is asked first: a closed one is proved at once
        tree = search.strategy(after) if search.numbers(after)[0] == 0 else None
        expected = closure_record(hooks.closure(after, 2, "no-loss", pns.CLOSURE_BUDGET))
        if tree is not None and tree.moves == [255]:
            assert tree.closures == (expected,)
            closed += 1
    assert closed == 16


def test_bounded_claim_with_closures() -> None:
    """A `within` claim is closed as the unbounded one (a pairing holds to the end), and checks."""
    game = resolve_game("tictactoe")
    claim = Claim(2, "no-loss", within=5)
    python = prove(game, claim, pairings=True, core="python")
    native = prove(game, claim, pairings=True, core="native")
    assert native.text is not None and native.text == python.text
    assert checker.check_document(json.loads(native.text)).exit_code == 0


def test_the_compiled_closure_has_the_python_search_budget() -> None:
    from solver.games.positional.blocking import DEFAULT_BUDGET

    game = resolve_game("tictactoe")
    assert kernel_for(game, game.search_hooks()).config[-2] == DEFAULT_BUDGET == pns.CLOSURE_BUDGET  # type: ignore[union-attr]


def test_which_kernels_close() -> None:
    game = resolve_game("tictactoe")
    assert _dfpn.closes("positional") and has_closure(kernel_for(game, game.search_hooks()))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no compiled kernel"):
        _dfpn.closes("chess")
    plain = NativeProofSearch(game, Claim(2, "no-loss"), NoHooks(), closures=True)  # no hooks: no closure, as in Python
    assert plain.search(game.initial()).nodes == NativeProofSearch(game, Claim(2, "no-loss"), NoHooks()).search(game.initial()).nodes


def test_cli_pairings_use_the_compiled_core(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    done = subprocess.run([sys.executable, "-m", "certify", "prove", "mnk:4,5,4", "--claim", "no-loss", "--player", "2",
                           "--pairings", "-o", str(out), "--json"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["core"] == "native"
    checked = subprocess.run([sys.executable, "-S", "-m", "checker", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert checked.returncode == 0 and "closed by a pairing" in checked.stdout, checked.stdout + checked.stderr


def test_knowledge_bench_runs_whole_processes_beside_the_peer() -> None:
    from certify.bench.prove import knowledge_benchmarks
    from certify.bench.scale import default_peer_source

    source = default_peer_source("pns.c")
    if source is None:
        pytest.skip("shared/bench/pns.c is not beside the repository")
    [row] = knowledge_benchmarks(source, [("mnk:3,3,3", 2, "no-loss")])
    assert row["verdict"] == "VALID" and row["closures"] > 0 and row["peer_status"] == "proved"
    assert row["target_met"] == (row["peer_seconds"] >= 3 * row["prove_seconds"])
