"""Ultimate tic-tac-toe's table keys canonical under the grid symmetries that fix the search's root
(CriticalSquares.for_claim and `table_key`, kernel.c `key`).

Symmetric images of a position then share one table entry; the proof still records real moves at
real positions, so the checker reads it as any other. The compiled and the Python cores must
search alike (same nodes, same certificate) although each keys a class by its own representative;
a policy, which need not be symmetric, keys positions exactly.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import checker
from certify.cli import app
from certify.proving.single import prove
from solver.games.uttt.engine import GRID_SYMMETRIES, OPEN_RULES, Uttt, grid_image
from solver.search.native import NativeProofSearch, kernel_for
from solver.search.pns import Claim, ProofSearch
from solver.search.policy import PolicyHooks

GAMES = [Uttt(), Uttt(OPEN_RULES)]
RULES = pytest.mark.parametrize("game", GAMES, ids=lambda game: game.rules.name)
# openings whose positions map onto themselves under some of the grid's symmetries
SYMMETRIC = ["", "4.4", "0.0", "4.4 4.0", "4.0 0.4", "0.4 4.0 0.0 0.8"]
BUDGET = 3000


def test_the_keys_are_canonical_under_the_roots_stabilizer() -> None:
    """for_claim keeps exactly the symmetries fixing the root: with the orbit, 8 in all (orbit-stabilizer),
    and the key is one of the position's images, equal for all of them."""
    game = Uttt(OPEN_RULES)
    sizes = set()
    for opening in SYMMETRIC + ["0.1", "4.4 4.1 1.0"]:
        root = game.play_moves(opening)
        hooks = game.search_hooks().for_claim("no-loss", 9, root)
        orbit = {grid_image(root, p) for p in GRID_SYMMETRIES}
        assert len(orbit) * len(hooks.symmetries) == 8 and hooks.symmetries[0] == GRID_SYMMETRIES[0]
        sizes.add(len(hooks.symmetries))
        below = game.play_moves("1.2 2.4", root) if opening == "" else root
        images = {grid_image(below, p) for p in hooks.symmetries}
        assert {hooks.table_key(image) for image in images} == {hooks.table_key(below)} <= images
    assert sizes == {1, 2, 8}


# (opening, player, claim, within) from symmetric roots whose searches take tens to hundreds of
# nodes, proved and disproved (the Python core's count closure is slow near the empty grid, and its
# walk, which looks for the shortest records, slower: the certificates are compared where the grid
# is fuller, tests/test_native_uttt.py)
CASES = [("", 2, "no-loss", 21), ("4.4 4.0", 1, "no-loss", 22), ("4.4 4.0", 2, "win", 21),
         ("4.0 0.4", 1, "no-loss", 22), ("4.0 0.4", 1, "win", 19), ("0.4 4.0 0.0 0.8", 2, "win", 20)]


@RULES
def test_symmetric_keys_search_as_the_python_core(game: Uttt) -> None:
    """From symmetric roots, bounded claims: the same statuses, root numbers and node counts in both
    cores; the certificate (real moves at real positions, each image walked) checked VALID."""
    statuses = []
    for opening, player, result, within in CASES:
        root, claim = game.play_moves(opening), Claim(player, result, within)
        hooks = game.search_hooks().for_claim(claim.result, claim.within, root)
        assert len(hooks.symmetries) > 1 and kernel_for(game, hooks).keys == hooks.symmetries
        outcome = NativeProofSearch(game, claim, hooks).search(root, max_nodes=BUDGET)
        reference = ProofSearch(game, claim, hooks).search(root, max_nodes=BUDGET)
        assert (outcome.status, outcome.root_pn, outcome.root_dn, outcome.nodes) == (
            reference.status, reference.root_pn, reference.root_dn, reference.nodes), (opening, claim)
        statuses.append(outcome.status)
        if outcome.status == "proved":
            ours = prove(game, claim, game.format_position(root), max_nodes=BUDGET, core="native")
            assert checker.check_document(json.loads(ours.text or "")).exit_code == 0
    assert statuses.count("proved") >= 3 and "disproved" in statuses


def test_symmetric_keys_settle_the_same_claim_in_fewer_nodes() -> None:
    """O is not beaten within 21 plies of the empty grid (open rules): proved with exact keys and
    with symmetric ones, the latter in fewer nodes; both certificates VALID."""
    game = Uttt(OPEN_RULES)
    root, claim = game.initial(), Claim(2, "no-loss", 21)
    nodes, certificates = [], []
    for hooks in (game.search_hooks(), game.search_hooks().for_claim(claim.result, claim.within, root)):
        search = NativeProofSearch(game, claim, hooks)
        assert search.search(root).status == "proved"
        nodes.append(search.nodes)
    attempt = prove(game, claim, None, core="native")
    document = json.loads(attempt.text or "")
    assert checker.check_document(document).exit_code == 0 and attempt.outcome.nodes == nodes[1]
    assert nodes[1] < nodes[0], nodes


def sent_board_corners(game: Uttt, s: object) -> list[int]:
    """A policy no symmetry keeps: in the board sent to, its lowest empty corner, else nothing."""
    sent = getattr(s, "sent")
    if sent < 0:
        return []
    return [m for m in game.legal_moves(s) if m // 9 == sent and m % 9 in (0, 2, 6, 8)][:1]


def test_a_policy_keys_positions_exactly() -> None:
    """PolicyHooks give up the symmetric keys in both cores; a policy's proof from the empty grid walks
    and checks (a plan proved at one image says nothing of another)."""
    game = Uttt(OPEN_RULES)
    hooks = game.search_hooks().for_claim("no-loss", 9, game.initial())
    wrapped = PolicyHooks(game, sent_board_corners, hooks)
    assert len(hooks.symmetries) == 8 and wrapped.inner.symmetries == GRID_SYMMETRIES[:1]
    assert not hasattr(wrapped, "table_key") and kernel_for(game, wrapped).keys == GRID_SYMMETRIES[:1]
    attempt = prove(game, Claim(2, "no-loss", 9), None, policy=sent_board_corners, core="native")
    assert attempt.outcome.status == "proved"
    assert checker.check_document(json.loads(attempt.text or "")).exit_code == 0


def test_a_checkpoint_keyed_otherwise_is_refused_in_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The checkpoint's header names the keys' symmetries: a table saved with exact keys (before
    them, or by another certify) is refused, not resumed as this search's."""
    checkpoint = tmp_path / "c"
    claim = ["prove", "uttt:open", "--claim", "no-loss", "--player", "2", "--within", "27", "--max-nodes", "40"]
    runner = CliRunner()
    runner.invoke(app, [*claim, "--checkpoint", str(checkpoint)])
    data = checkpoint.read_bytes()
    assert b'"keys": "canonical under 8 symmetries"' in data
    checkpoint.write_bytes(data.replace(b', "keys": "canonical under 8 symmetries"', b""))
    result = runner.invoke(app, [*claim, "--resume", str(checkpoint)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"error: {checkpoint}: a checkpoint of this search under keys"), result.stderr

