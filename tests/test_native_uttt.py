"""The compiled df-pn's Ultimate tic-tac-toe kernel (solver/games/uttt/kernel.c) against solver/search/pns.py.

Positions come from seeded random games at several plies, under the rules `uttt` and the open
rules `uttt:open`; both engines search each with the family's CriticalSquares and without hooks,
for every claim, under one node budget.
"""

from __future__ import annotations

import json
import random

import pytest

import checker
import solver.search.pns as pns
from certify.proving.single import prove
from solver.games.game import NoHooks
from solver.games.uttt.engine import OPEN_RULES, CriticalSquares, Position, Uttt, UtttRules, lines_of_both
from solver.search.native import NativeProofSearch, kernel_for
from solver.search.pns import Claim, ProofSearch
from solver.search.policy import PolicyHooks, PolicyMoveError
from solver.search.prooftree import canonical_strategy

CLAIMS = [Claim(player, result) for player in (1, 2) for result in ("win", "no-loss")]
BUDGET = 3000  # nodes per search: enough that many searches settle and some run out
GAMES = [Uttt(), Uttt(OPEN_RULES)]
RULES = pytest.mark.parametrize("game", GAMES, ids=lambda game: game.rules.name)
OPEN_LATER = 10  # open-rules games last longer: searches settle within the budget 10 marks later


def random_positions(ply: int, count: int, seed: int, game: Uttt | None = None) -> list[Position]:
    """`count` open positions of `game` (default `uttt`) with `ply` marks (`ply` + OPEN_LATER under
    the open rules), from seeded random games."""
    game, rng, out = game or Uttt(), random.Random(seed), []
    ply += OPEN_LATER if game.rules.open else 0
    while len(out) < count:
        s = game.initial()
        while not game.is_terminal(s) and (s.x | s.o).bit_count() < ply:
            s = game.apply(s, rng.choice(game.legal_moves(s)))
        if not game.is_terminal(s):
            out.append(s)
    return out


@RULES
@pytest.mark.parametrize("ply", [60, 55, 50, 45])
@pytest.mark.parametrize("plain", [False, True])
def test_same_verdicts_and_node_counts(game: Uttt, ply: int, plain: bool) -> None:
    """Same status, root numbers and expansions as solver/search/pns.py."""
    hooks = NoHooks() if plain else game.search_hooks()
    statuses = set()
    for s in random_positions(ply, 4, seed=ply, game=game):
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


@RULES
def test_resumed_search_matches(game: Uttt) -> None:
    """Budgeted calls resume from the table they left, to the same counts as the reference's."""
    s = random_positions(45, 1, seed=3, game=game)[0]
    claim = Claim(game.to_move(s), "no-loss")
    native, reference = NativeProofSearch(game, claim, game.search_hooks()), ProofSearch(game, claim, game.search_hooks())
    for _ in range(5):
        ours, theirs = native.search(s, max_nodes=native.nodes + 200), reference.search(s, max_nodes=reference.nodes + 200)
        assert (ours.status, ours.root_pn, ours.root_dn, ours.nodes) == (theirs.status, theirs.root_pn, theirs.root_dn, theirs.nodes)


@RULES
def test_same_certificate_as_the_python_core(game: Uttt) -> None:
    """A proved claim gives a byte-identical certificate from either core, and the checker accepts it."""
    for s in random_positions(50, 6, seed=11, game=game):
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


def closing(hooks: object, claim: Claim):  # type: ignore[no-untyped-def]
    """canonical_strategy's `close` for hooks that close (the count: no-loss claims), else None."""
    closure = getattr(hooks, "closure", None)
    if closure is None:
        return None
    return lambda position, left: closure(position, claim.player, claim.result, 0, left)


@RULES
def test_the_strategy_walked_in_c_is_the_reference_walk(game: Uttt) -> None:
    """`strategy` (the canonical traversal in C) gives prooftree.canonical_strategy's moves and counts,
    with the family's count closures where the hooks close (no-loss claims, unbounded too)."""
    proved = closed = 0
    for s in random_positions(45, 6, seed=7, game=game) + random_positions(55, 6, seed=8, game=game):
        for claim in CLAIMS:
            for hooks in (game.search_hooks(), NoHooks()):
                search = NativeProofSearch(game, claim, hooks)
                if search.search(s, max_nodes=BUDGET * 10).status == "proved":
                    walked = search.strategy(s)
                    assert walked == canonical_strategy(game, s, claim.player, search.proved_move, closing(hooks, claim))
                    proved += 1
                    closed += bool(walked.closures)
    assert proved >= 10 and closed >= 1


def test_kernel_coverage() -> None:
    """CriticalSquares and NoHooks have a kernel; other hooks and other rules do not."""
    game = Uttt()
    assert kernel_for(game, CriticalSquares()) is not None and kernel_for(game, NoHooks()) is not None

    class OtherHooks(CriticalSquares):
        pass

    assert kernel_for(game, OtherHooks()) is None
    assert kernel_for(Uttt(UtttRules(name="renamed")), NoHooks()) is not None  # the name is not a rule
    open_game = Uttt(OPEN_RULES)
    assert kernel_for(open_game, open_game.search_hooks()) is not None and kernel_for(open_game, NoHooks()) is not None
    assert kernel_for(open_game, CriticalSquares()) is None and kernel_for(game, CriticalSquares(open_rules=True)) is None


def test_open_rules_positions_carry_who_won() -> None:
    """Under the open rules a board with lines of both marks keeps its first winner: two positions
    with the same marks and different winners are searched apart, and winners that do not fit the
    marks are refused."""
    game = Uttt(OPEN_RULES)
    # X wins board 6 with its bottom row (6.6 6.8 6.7); O makes the top row there later (6.1)
    s = game.play_moves("6.6 6.0 0.6 6.2 2.2 2.5 5.8 8.8 8.3 3.1 1.1 1.5 5.7 7.6 6.8 8.5 5.1 1.6 6.7 7.7 7.0 0.2 2.6 6.1")
    assert lines_of_both(s) == 1 << 6 and s.xw >> 6 & 1
    swapped = s._replace(xw=s.xw & ~(1 << 6), ow=s.ow | 1 << 6)
    claim = Claim(game.to_move(s), "win")
    for hooks in (game.search_hooks(), NoHooks()):
        native = NativeProofSearch(game, claim, hooks)
        kernel = kernel_for(game, hooks)
        assert kernel is not None
        native.search(s, max_nodes=50)
        assert native.numbers(swapped) == (1, 1)  # unseen: another position
        with pytest.raises(ValueError, match="boards won do not fit"):
            native.numbers(s._replace(xw=s.xw & ~(1 << 6)))
    with pytest.raises(ValueError, match="boards won do not fit"):  # two lines in a board only under the open rules
        NativeProofSearch(Uttt(), claim).numbers(s)


def test_bench_peer_settles_the_same_values_with_no_fewer_nodes() -> None:
    """`certify bench --suite uttt` beside pns.c: the same searches give the same values; certify's
    node counts are the peer's but where the meta-line count closes or refutes a position (the
    opponent cannot complete a meta line in the cells left), which the peer does not know."""
    from certify.bench.scale import default_peer_source
    from certify.bench.uttt import PEER_MODE, peer_target, uttt_benchmark

    source = default_peer_source("pns.c")
    if source is None:
        pytest.skip("shared/bench/pns.c is not beside the repository")
    results = uttt_benchmark([50], 3, 20.0, extend=False, plain=False, peer_source=source)
    ours = [a for mode, a in results if mode == "critical squares"]
    theirs = [a for mode, a in results if mode == PEER_MODE]
    assert [(a.position, a.value) for a in ours] == [(a.position, a.value) for a in theirs]
    assert all(a.nodes <= b.nodes for a, b in zip(ours, theirs)) and sum(a.nodes for a in ours) < sum(b.nodes for b in theirs)
    assert all(a.value is not None and a.checked for a in ours)
    assert peer_target(results) == [{"ply": 50, "mode": "critical squares", "peer_settled": 3, "certify_settled": 3,
                                     "certify_settled_of_those": 3, "certify_only": 0, "peer_only": 0, "disagreements": 0}]
    for a in ours + theirs:  # each side's search clocks lie inside its whole attempt
        assert 0 <= a.search_seconds <= a.seconds


def sent_board_corners(game: Uttt, s: Position) -> tuple[int, ...]:
    """A test policy: when sent to a board, its free corners, last first; free moves left to the search."""
    if s.sent < 0:
        return ()
    empty = ~(s.x | s.o)
    return tuple(9 * s.sent + c for c in (8, 6, 2, 0) if empty >> 9 * s.sent + c & 1)


@RULES
def test_a_policy_searches_as_the_python_core(game: Uttt) -> None:
    """With PolicyHooks the core calls the policy back: the same statuses, root numbers and node
    counts as solver/search/pns.py with the same hooks, the same walk and the same certificate."""
    statuses, proved = set(), 0
    for s in random_positions(50, 4, seed=5, game=game):
        for claim in CLAIMS:
            hooks = PolicyHooks(game, sent_board_corners, game.search_hooks())
            native = NativeProofSearch(game, claim, hooks)
            assert kernel_for(game, hooks) is not None
            outcome = native.search(s, max_nodes=BUDGET)
            reference = ProofSearch(game, claim, hooks).search(s, max_nodes=BUDGET)
            assert (outcome.status, outcome.root_pn, outcome.root_dn, outcome.nodes) == (
                reference.status, reference.root_pn, reference.root_dn, reference.nodes), (game.format_position(s), claim)
            statuses.add(outcome.status)
            if outcome.status == "proved":
                assert native.strategy(s) == canonical_strategy(game, s, claim.player, native.proved_move, closing(hooks, claim))
                root = game.format_position(s)
                ours = prove(game, claim, root, max_nodes=BUDGET, policy=sent_board_corners, core="native")
                theirs = prove(game, claim, root, max_nodes=BUDGET, policy=sent_board_corners, core="python")
                assert ours.core == "native" and ours.text == theirs.text
                assert checker.check_document(json.loads(ours.text or "")).exit_code == 0
                proved += 1
    assert {"proved", "disproved"} <= statuses and proved


def test_a_policy_naming_an_illegal_move_fails_the_native_search() -> None:
    """The policy's error reaches the caller from inside the compiled search, and the search object stays usable."""
    game = Uttt(OPEN_RULES)
    s = random_positions(50, 1, seed=5, game=game)[0]
    search = NativeProofSearch(game, Claim(game.to_move(s), "win"), PolicyHooks(game, lambda game, s: (80, 0), game.search_hooks()))
    for _ in range(2):
        with pytest.raises(PolicyMoveError, match="the policy names"):
            search.search(s, max_nodes=100)


@RULES
def test_bounded_claims_search_as_the_python_core(game: Uttt) -> None:
    """`within` N in the compiled core (a position at ply N is an end): the same statuses, root
    numbers and node counts as solver/search/pns.py, the same walk and the same certificate."""
    statuses, proved = set(), 0
    for s in random_positions(55, 4, seed=13, game=game):
        marks = (s.x | s.o).bit_count()
        for claim in [Claim(c.player, c.result, within) for c in CLAIMS for within in (3, 6, 9)]:
            hooks = game.search_hooks().for_claim(claim.result, claim.within, s)  # a win claim prunes by the count
            native = NativeProofSearch(game, claim, hooks)
            outcome = native.search(s, max_nodes=BUDGET)
            reference = ProofSearch(game, claim, hooks).search(s, max_nodes=BUDGET)
            assert (outcome.status, outcome.root_pn, outcome.root_dn, outcome.nodes) == (
                reference.status, reference.root_pn, reference.root_dn, reference.nodes), (game.format_position(s), claim)
            statuses.add(outcome.status)
            if outcome.status == "proved":
                close = game.search_hooks().closure  # the meta-line count closes bounded no-loss claims
                walked = canonical_strategy(game, s, claim.player,
                                            lambda t: native.proved_move(t, (t.x | t.o).bit_count() - marks),
                                            lambda t, left: close(t, claim.player, claim.result, 0, left), within=claim.within)
                assert native.strategy(s) == walked
                root = game.format_position(s)
                ours, theirs = prove(game, claim, root, max_nodes=BUDGET, core="native"), prove(game, claim, root, max_nodes=BUDGET, core="python")
                assert ours.core == "native" and ours.text == theirs.text
                assert checker.check_document(json.loads(ours.text or "")).exit_code == 0
                proved += 1
    assert {"proved", "disproved"} <= statuses and proved >= 3


def test_the_policy_cost_benchmark_measures_the_same_search() -> None:
    """`certify bench --suite prove`'s policy rows: a policy naming nothing leaves the search as it
    is (same root numbers, same nodes), so its slowdown is the callback's cost alone."""
    from certify.bench.prove import none_named, policy_cost_benchmarks

    game = Uttt(OPEN_RULES)
    plain = NativeProofSearch(game, Claim(1, "win"), game.search_hooks()).search(game.initial(), max_nodes=5000)
    called = NativeProofSearch(game, Claim(1, "win"), PolicyHooks(game, none_named, game.search_hooks())).search(
        game.initial(), max_nodes=5000)
    assert (plain.root_pn, plain.root_dn, plain.nodes) == (called.root_pn, called.root_dn, called.nodes)
    rows = policy_cost_benchmarks(5000)
    assert [row["mode"] for row in rows] == ["kernel candidates", "a policy naming nothing", "bertholon:open_rules_plan"]
    assert all(row["nodes"] == 5000 and row["nodes_per_second"] > 0 for row in rows) and rows[0]["slowdown"] == 1.0


def test_a_proofs_checker_budget_fits_its_size() -> None:
    """The bench checks each proof with the budget its positions need (a ply-30 proof of 100,000
    positions is past the checker's default work budget), never below the defaults."""
    import checker
    from certify.record.budget import proof_limits

    rules = Uttt().rules.canonical()
    big = proof_limits({"rules": rules, "proof": {"positions": 100_000}})
    assert big.max_states == checker.Limits().max_states  # 100,000 positions are within the default count
    assert big.max_work == 100_000 * checker.uttt.position_work(checker.uttt.parse_rules(rules))
    assert big.max_work > checker.Limits().max_work
    small = proof_limits({"rules": rules, "proof": {"positions": 10}})
    assert (small.max_states, small.max_work) == (checker.Limits().max_states, checker.Limits().max_work)
