"""The compiled df-pn (solver/search/native.py over solver/search/dfpn.c) against the reference, solver/search/pns.py.

The extension is built by `pip install -e .` (setup.py); these tests fail, not skip, when it is
missing, because every install the README describes builds it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import checker
import solver.search.pns as pns
from certify.proving.single import CoreUnavailable, certificate_text, prove, strategy_certificate
from solver.search import _dfpn  # noqa: F401  (fails loudly when the extension was not built)
from solver.games.families import resolve_game
from solver.games.game import NoHooks
import solver.search.native as native
from solver.search.native import ENTRY_BYTES, SLOT_BYTES, NativeProofSearch, kernel_for
from solver.search.pns import Claim, ProofSearch
from solver.search.prooftree import canonical_strategy
from solver.games.positional.rules import make_rules
from solver.games.positional.engine import Game, Move
from solver.search.policy import PolicyHooks

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = [Claim(player, result) for player in (1, 2) for result in ("win", "no-loss")]
# every mark rule and goal of Rules, with and without the threat pruning (own + first-line-wins)
VARIANTS = ["tictactoe", "w3t", "misere", "notakto", "cumulative", "mnk:3,2,2", "mnk:2,4,2,wild,misere"]


def spec_game() -> Game:
    """A spec-file game with irregular lines (no symmetry maps them onto themselves but the identity)."""
    return Game(make_rules("odd", 2, 3, "own", "first-line-wins", lines=[[0, 1], [1, 2, 5], [3, 4], [0, 4]]))


@pytest.mark.parametrize("game_text", VARIANTS + ["spec"])
@pytest.mark.parametrize("plain", [False, True])
def test_same_verdicts_and_node_counts(game_text: str, plain: bool) -> None:
    """Same status, root numbers and expansions as solver/search/pns.py, step for step."""
    game = spec_game() if game_text == "spec" else resolve_game(game_text)
    for claim in CLAIMS:
        hooks = NoHooks() if plain else game.search_hooks()
        reference = ProofSearch(game, claim, hooks).search(game.initial())
        native = NativeProofSearch(game, claim, hooks)
        outcome = native.search(game.initial())
        assert (outcome.status, outcome.root_pn, outcome.root_dn, outcome.nodes) == (
            reference.status, reference.root_pn, reference.root_dn, reference.nodes), (game_text, claim)
        assert native.evictions == 0


@pytest.mark.parametrize("threat_space", [True, False])
def test_a_long_search_stays_step_for_step_with_symmetric_images_met_on_many_paths(threat_space: bool) -> None:
    """4x4 with k = 4 meets most positions again as a symmetric image of one seen before; the
    reference's cache of children is keyed by the position, not the shared table key, so each image
    orders its equally good moves by its own cells as the compiled core does (keyed by the table key,
    the two searches parted at node 207 and ended 55,508 against 55,693 nodes)."""
    game = resolve_game("mnk:4,4,4")
    claim = Claim(1, "no-loss")
    found = []
    for search in (ProofSearch, NativeProofSearch):
        hooks = game.search_hooks()
        hooks.threat_space = threat_space
        searcher = search(game, claim, hooks)
        outcome = searcher.search(game.initial(), max_nodes=6_000)
        found.append((outcome.status, outcome.root_pn, outcome.root_dn, outcome.nodes))
    assert found[0] == found[1]


@pytest.mark.parametrize("game_text,player,result", [("tictactoe", 2, "no-loss"), ("mnk:4,4,3", 1, "win"), ("w3t", 1, "win")])
def test_same_certificate_as_the_python_core(game_text: str, player: int, result: str) -> None:
    """The table ends the same, so the proof tree and the file are byte-identical; the checker accepts it."""
    game = resolve_game(game_text)
    python = prove(game, Claim(player, result), core="python")
    native = prove(game, Claim(player, result), core="native")
    assert native.core == "native" and python.core == "python"
    assert native.text == python.text
    assert checker.check_document(json.loads(native.text or "")).exit_code == 0


def test_resumes_where_a_budget_stopped() -> None:
    """Budgeted calls resume from the table they left, as solver/search/pns.py's do, to the same counts."""
    game = resolve_game("mnk:4,4,3")
    native = NativeProofSearch(game, Claim(1, "win"), game.search_hooks())
    reference = ProofSearch(game, Claim(1, "win"), game.search_hooks())
    calls = []
    while not calls or calls[-1][0].status == "node budget":
        calls.append((native.search(game.initial(), max_nodes=10), reference.search(game.initial(), max_nodes=10)))
    assert calls[-1][0].status == "proved" and len(calls) > 2
    for ours, theirs in calls:
        assert (ours.status, ours.root_pn, ours.root_dn, ours.nodes) == (theirs.status, theirs.root_pn, theirs.root_dn, theirs.nodes)


def test_budgets_progress_and_interruption() -> None:
    """Memory and time budgets stop the search; progress is reported; Ctrl-C is a status."""
    game = resolve_game("mnk:5,5,4")
    claim = Claim(2, "no-loss")
    assert NativeProofSearch(game, claim, game.search_hooks()).search(game.initial(), max_memory_mb=1).status == "memory budget"
    assert NativeProofSearch(game, claim, game.search_hooks()).search(game.initial(), max_seconds=0.01).status == "time budget"
    seen: list[pns.Progress] = []
    NativeProofSearch(game, claim, game.search_hooks(), seen.append, progress_seconds=0.0).search(game.initial(), max_nodes=5000)
    assert seen and seen[-1].nodes <= 5000 and seen[-1].entries > 0

    def interrupt(_: pns.Progress) -> None:
        raise KeyboardInterrupt

    outcome = NativeProofSearch(game, claim, game.search_hooks(), interrupt, 0.0).search(game.initial())
    assert outcome.status == "interrupted" and outcome.root_pn > 0


def test_the_walk_of_a_proof_reports_its_positions() -> None:
    """Once a claim is proved, the walk that writes its proof reports the positions walked (every
    WALK_REPORT and at the end) as Progress with `walked`, alike from both cores; a raise stops it."""
    from solver.search.prooftree import WALK_REPORT

    def walked(game: str, claim: Claim, core: str) -> tuple[list[int], int]:
        reports: list[pns.Progress] = []
        attempt = prove(resolve_game(game), claim, progress=reports.append, core=core)
        assert attempt.tree is not None
        return [r.walked for r in reports if r.walked is not None], attempt.tree.positions

    reports, positions = walked("mnk:4,4,4", Claim(2, "no-loss"), "native")
    assert positions > 2 * WALK_REPORT
    assert reports == list(range(WALK_REPORT, positions, WALK_REPORT)) + [positions]
    assert walked("tictactoe", Claim(1, "no-loss"), "native") == walked("tictactoe", Claim(1, "no-loss"), "python")

    def stop(_: int) -> None:
        raise KeyboardInterrupt

    game = resolve_game("tictactoe")
    search = NativeProofSearch(game, Claim(1, "no-loss"), game.search_hooks())
    assert search.search(game.initial()).status == "proved"
    with pytest.raises(KeyboardInterrupt):
        search.strategy(game.initial(), walked=stop)


def test_a_full_table_evicts_and_still_proves() -> None:
    """At its byte cap the table replaces entries; the verdict stays, and the certificate (whose
    lost proofs `proved_move` searches again) is VALID."""
    game = resolve_game("mnk:4,4,4")
    claim = Claim(1, "no-loss")
    # 1.5 MB holds fewer entries than the proof visits (55 k nodes with the 4x4 line set's 32
    # symmetries and threat space): full, evicting, still converging.
    # A table far below that thrashes (docs/proof-search.md), so the search is budgeted here too.
    search = NativeProofSearch(game, claim, game.search_hooks(), table_mb=1.5)
    assert search.search(game.initial(), max_seconds=120).status == "proved"
    assert search.evictions > 0 and 1.5 * 2**20 - 16 * SLOT_BYTES < search.table_bytes <= 1.5 * 2**20  # the cap, taken whole
    # the walk searches again where eviction lost a proof, so it changes the table: another walk
    # after it may choose other proved moves, and is not compared here
    certificate, _ = strategy_certificate(game, claim, None, game.initial(), search.strategy(game.initial()), "", 0.0, False)
    assert checker.check_document(json.loads(certificate_text(certificate))).exit_code == 0


@pytest.mark.parametrize("game_text", VARIANTS + ["spec", "mnk:4,4,3"])
@pytest.mark.parametrize("plain", [False, True])
def test_the_strategy_walked_in_c_is_the_reference_walk(game_text: str, plain: bool) -> None:
    """`strategy` (the canonical traversal in C) gives prooftree.canonical_strategy's moves and counts
    for every proved claim, from the start and from a position one move in."""
    game = spec_game() if game_text == "spec" else resolve_game(game_text)
    roots = [game.initial(), game.apply(game.initial(), game.legal_moves(game.initial())[-1])]
    proved = 0
    for root in roots:
        for claim in CLAIMS:
            search = NativeProofSearch(game, claim, NoHooks() if plain else game.search_hooks())
            if search.search(root, max_nodes=400_000).status == "proved":
                assert search.strategy(root) == canonical_strategy(game, root, claim.player, search.proved_move), claim
                proved += 1
    assert proved > 0


def test_entry_size_and_kernel_coverage(monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry is at most 64 bytes; boards up to 64 cells have a kernel, other hooks do not."""
    assert ENTRY_BYTES <= 64
    assert kernel_for(resolve_game("mnk:8,8,5"), resolve_game("mnk:8,8,5").search_hooks()) is not None
    assert kernel_for(resolve_game("uttt"), resolve_game("uttt").search_hooks()) is not None
    monkeypatch.delitem(native.KERNELS, "uttt")  # a family without a kernel
    assert kernel_for(resolve_game("uttt"), resolve_game("uttt").search_hooks()) is None
    with pytest.raises(CoreUnavailable, match="no compiled kernel"):
        prove(resolve_game("uttt"), Claim(1, "win"), max_nodes=10, core="native")
    assert prove(resolve_game("uttt"), Claim(1, "win"), max_nodes=10).core == "python"


def test_cli_core_option(tmp_path: Path) -> None:
    """`certify prove --core native` writes the certificate; --core with --workers is refused."""
    out = tmp_path / "p.json"
    done = subprocess.run([sys.executable, "-m", "certify", "prove", "tictactoe", "--claim", "no-loss", "--player", "1",
                           "--core", "native", "-o", str(out), "--json"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["core"] == "native" and out.exists()
    refused = subprocess.run([sys.executable, "-m", "certify", "prove", "tictactoe", "--claim", "no-loss", "--player", "1",
                              "--core", "native", "--workers", "2"], capture_output=True, text=True, cwd=tmp_path)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--core native" in refused.stderr


def test_solve_does_not_load_the_extension() -> None:
    """Paths that do not search never import the compiled core."""
    code = ("import sys; from certify.cli import main; sys.argv = ['certify', 'solve', 'w3t', '-o', '-'];\n"
            "try: main()\nexcept SystemExit: pass\n"
            "assert 'solver.search._dfpn' not in sys.modules, 'loaded'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-500:]


def test_frontier_bench_runs_whole_processes_against_the_targets() -> None:
    """The k = 4 frontier rows: a whole `certify prove`, its file checked, the targets judged both ways."""
    from certify.bench.prove import frontier_benchmarks

    met, missed = frontier_benchmarks([("tictactoe", 1, "no-loss", 600.0), ("tictactoe", 2, "no-loss", 0.0)])
    assert met["verdict"] == "VALID" and met["positions"] > 0 and met["prove_peak_mb"] > 0 and met["target_met"]
    assert missed["verdict"] == "VALID" and not missed["target_met"]  # no process ends in 0 s


def middle_first(game: Game, code: int) -> tuple[Move, ...]:
    """A test policy: the mover's mark on the board's middle cell while it is free; elsewhere the search chooses."""
    middle = game.rules.rows // 2 * game.rules.cols + game.rules.cols // 2
    return tuple(m for m in game.legal_moves(code) if m.cell == middle)


@pytest.mark.parametrize("game_text,proves", [("tictactoe", 2), ("mnk:4,4,3", 2), ("misere", 1)])
def test_a_policy_searches_as_the_python_core(game_text: str, proves: int) -> None:
    """A positional game's policy runs in the compiled core (a callback at the prover's positions,
    exact table keys): the same statuses, root numbers and node counts as solver/search/pns.py with
    the same hooks, and the same certificate, which the checker accepts."""
    game = resolve_game(game_text)
    proved = 0
    for claim in CLAIMS:
        hooks = PolicyHooks(game, middle_first, game.search_hooks())
        assert kernel_for(game, hooks) is not None
        native = NativeProofSearch(game, claim, hooks)
        outcome = native.search(game.initial())
        reference = ProofSearch(game, claim, hooks).search(game.initial())
        assert (outcome.status, outcome.root_pn, outcome.root_dn, outcome.nodes) == (
            reference.status, reference.root_pn, reference.root_dn, reference.nodes), (game_text, claim)
        if outcome.status == "proved":
            proved += 1
            ours = prove(game, claim, max_nodes=None, policy=middle_first, core="native")
            theirs = prove(game, claim, max_nodes=None, policy=middle_first, core="python")
            assert ours.core == "native" and ours.text == theirs.text
            assert checker.check_document(json.loads(ours.text or "")).exit_code == 0
    assert proved >= proves
