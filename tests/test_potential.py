"""Potential closures (checker/pairing.py `potential`, record byte 254 in checker/proof.py): pairs
that leave lines of Erdos-Selfridge potential below 1/2 unblocked.

- soundness by brute force: on small random line sets, every potential closure the checker accepts
  is at a position the prover does not lose (exhaustive play-out), and the same test catches a
  rule loosened to a potential below 1 (so it can fail);
- the search (solver/games/positional/blocking.py) and the compiled kernel write the same records,
  and the checker accepts them;
- every mutated record of a published-style proof is refused;
- Ctrl-C during a closure-heavy compiled search stops it within seconds and keeps the checkpoint.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from functools import lru_cache
from pathlib import Path

import pytest

import checker
from checker import pairing, positional
from checker.load import Invalid
from certify.proving.single import closure_record
from samples import closure_samples
from solver.games.families import resolve_game
from solver.games.positional.blocking import POTENTIAL
from solver.search.native import NativeProofSearch
from solver.search.pns import Claim

ROOT = Path(__file__).resolve().parent.parent


def random_game(rng: random.Random, cells: int) -> positional.Game:
    """A first-line-wins, own-marks game on one row of `cells` cells with a few random lines of 3 to 6."""
    lines = {tuple(sorted(rng.sample(range(cells), rng.randint(3, 6)))) for _ in range(rng.randint(3, 9))}
    return positional.Game(1, cells, tuple(sorted(lines)), "own", "first-line-wins")


def prover_safe(game: positional.Game, board: bytes, prover: int) -> bool:
    """Exhaustively: the prover, to move at `board`, does not lose."""
    masks = [sum(1 << c for c in line) for line in game.lines]

    @lru_cache(maxsize=None)
    def value(mine: int, theirs: int, mover_is_prover: bool) -> int:  # from the mover's side: 1, 0, -1
        empty = [c for c in range(game.cells) if not (mine | theirs) >> c & 1]
        if not empty:
            return 0
        best = -1
        for c in empty:
            placed = mine | 1 << c
            if any(placed & m == m for m in masks):
                return 1
            best = max(best, -value(theirs, placed, not mover_is_prover))
            if best == 1:
                break
        return best

    mine = sum(1 << c for c, mark in enumerate(board) if mark == prover)
    theirs = sum(1 << c for c, mark in enumerate(board) if mark == 3 - prover)
    return value(mine, theirs, True) >= 0


def random_closure(rng: random.Random, game: positional.Game) -> tuple[bytes, int, int, list[list[int]]] | None:
    """A random position (prover to move), a first move and disjoint pairs of the empty cells."""
    board = bytearray(game.cells)
    marks = rng.choice([0, 2, 2, 4])
    for i, cell in enumerate(rng.sample(range(game.cells), marks)):
        board[cell] = 1 + i % 2
    board = bytes(board)
    if positional.result(game, board) is not None:
        return None
    prover = positional.to_move(game, board)
    empty = [c for c in range(game.cells) if board[c] == 0]
    rng.shuffle(empty)
    first, rest = empty[0], empty[1:]
    k = rng.randint(0, len(rest) // 2)
    return board, prover, first, [rest[2 * i:2 * i + 2] for i in range(k)]


def loosened(game: positional.Game, board: bytes, player: int, first: int, pairs: list[list[int]]) -> bool:
    """The rule with a bound of 1 instead of 1/2 (unsound): whether it would accept."""
    partner = pairing.pair_cells(pairs, game, board, first)
    total = 0.0
    for line in game.lines:
        if first in line or any(board[c] == player for c in line) or any(partner[c] in line for c in line):
            continue
        total += 2.0 ** -sum(1 for c in line if board[c] == 0 and partner[c] == -1)
    return total < 1


def safe_after_first(game: positional.Game, board: bytes, prover: int, first: int) -> bool:
    """Exhaustively: after the prover's move on `first`, the prover does not lose (every reply)."""
    after = board[:first] + bytes([prover]) + board[first + 1:]
    if positional.result(game, after) is not None:
        return positional.result(game, after) != 3 - prover
    opponent = 3 - prover
    for c in range(game.cells):
        if after[c]:
            continue
        reply = after[:c] + bytes([opponent]) + after[c + 1:]
        done = positional.result(game, reply)
        if done == opponent or (done is None and not prover_safe(game, reply, prover)):
            return False
    return True


def test_every_potential_closure_the_checker_accepts_is_not_lost() -> None:
    rng = random.Random(35)
    accepted = loose = caught = 0
    for _ in range(1000):
        game = random_game(rng, rng.randint(7, 9))
        found = random_closure(rng, game)
        if found is None:
            continue
        board, prover, first, pairs = found
        try:
            pairing.potential(game, board, prover, first, pairs)
        except Invalid:
            caught += loosened(game, board, prover, first, pairs) and not safe_after_first(game, board, prover, first)
            continue
        accepted += 1
        partner = pairing.pair_cells(pairs, game, board, first)
        loose += any(not any(partner[c] in line for c in line) and first not in line
                     and not any(board[c] == prover for c in line) for line in game.lines)
        assert safe_after_first(game, board, prover, first), (game, board, prover, first, pairs)
    assert accepted > 300 and loose > 100, (accepted, loose)  # closures leaving lines unblocked were met
    assert caught > 0  # the loosened bound accepts positions the opponent wins: the play-out can fail


def test_the_bound_is_strict_at_one_half() -> None:
    game = positional.Game(1, 6, ((1, 2), (3, 4, 5)), "own", "first-line-wins")
    pairing.potential(game, bytes(6), 1, 0, [])  # 1/4 + 1/8
    pairing.potential(game, bytes(6), 1, 0, [[1, 2]])  # 1/8: (1, 2) holds its pair
    with pytest.raises(Invalid, match="not below 1/2"):
        pairing.potential(game, bytes(6), 1, 0, [[3, 1]])  # 1/4 + 1/4: paired cells count as the opponent's
    two = positional.Game(1, 5, ((1, 2), (3, 4)), "own", "first-line-wins")
    with pytest.raises(Invalid, match="not below 1/2"):
        pairing.potential(two, bytes(5), 1, 0, [])  # exactly 1/2
    with pytest.raises(Invalid, match="first move"):
        pairing.potential(game, bytes(6), 1, None, [])
    with pytest.raises(Invalid, match="not to move"):
        pairing.potential(game, bytes(6), 2, 0, [])


def records(text: str, positions: int, seed: int) -> list[tuple[tuple[int, ...], int, bytes]]:
    """Potential records of the Python closure at random positions, each the same as the compiled one's."""
    game = resolve_game(text)
    hooks = game.search_hooks()
    hooks.potential = True
    out = []
    for board, prover, pairing_found, compiled in closure_samples(game, hooks, positions, seed, potential=True):
        python = closure_record(pairing_found)
        assert compiled == python, (board, prover)
        if python is not None:
            out.append((board, prover, python))
    return out


@pytest.mark.parametrize("text", ["mnk:6,6,5", "mnk:7,7,5"])
def test_the_compiled_potential_closure_writes_the_python_records_the_checker_accepts(text: str) -> None:
    game = resolve_game(text)
    rules = positional.Game(game.rules.rows, game.rules.cols, tuple(tuple(line) for line in game.rules.lines), "own",
                            "first-line-wins")
    found = records(text, 8, 5)
    assert any(record[0] == POTENTIAL for _, _, record in found)
    for board, prover, record in found:
        start = 1 if record[0] == POTENTIAL else 0
        first = record[start]
        pairs = [list(record[i:i + 2]) for i in range(start + 2, len(record), 2)]
        check = pairing.potential if start else pairing.blocking
        check(rules, bytes(board), prover, first, pairs)


def proof(tmp_path: Path) -> dict:
    """A --potential proof of mnk:6,6,5 player 2 (165 closures, all potential), as a document."""
    out = tmp_path / "p2.json"
    done = subprocess.run([sys.executable, "-m", "certify", "prove", "mnk:6,6,5", "--claim", "no-loss", "--player", "2",
                           "--pairings", "--potential", "--max-nodes", "100000", "-o", str(out)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text())


def verdict(document: dict) -> str:
    return checker.check_document(document).message.split()[0]


def test_every_mutated_potential_record_is_refused(tmp_path: Path) -> None:
    import base64
    import zlib

    document = proof(tmp_path)
    assert verdict(document) == "VALID"
    raw = bytearray(zlib.decompress(base64.b64decode(document["proof"]["pairings"])))
    assert raw[0] == POTENTIAL
    k = raw[2]

    def refused(mutated: bytes | bytearray, size: int | None = None) -> None:
        changed = json.loads(json.dumps(document))
        changed["proof"]["pairings"] = base64.b64encode(zlib.compress(bytes(mutated))).decode()
        changed["proof"]["closure_bytes"] = len(mutated) if size is None else size
        assert verdict(changed) != "VALID"

    refused(raw[:3] + raw[3 + 2 * k:], len(raw) - 2 * k if k else None)  # every pair of the first record dropped
    for cell in range(36):  # the first move moved anywhere else
        if cell != raw[1]:
            refused(raw[:1] + bytes([cell]) + raw[2:])
    refused(raw[:1] + bytes([255]) + raw[2:])  # no first move
    refused(bytes([255]) + raw[1:])  # the marker read as a first move
    if k:
        refused(raw[:3] + bytes([raw[1], raw[4]]) + raw[5:])  # a pair on the first move
        refused(raw[:3] + bytes([raw[3], raw[3]]) + raw[5:])  # a cell paired with itself
    refused(raw[1:], len(raw) - 1)  # the marker dropped


@pytest.mark.slow
def test_ctrl_c_stops_a_closure_heavy_search_within_seconds_and_keeps_the_checkpoint(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    command = [sys.executable, "-m", "certify", "prove", "mnk:8,8,5", "--claim", "no-loss", "--player", "2", "--pairings",
               "--max-nodes", "5000000", "--max-memory", "1500", "--checkpoint", str(checkpoint),
               "--checkpoint-minutes", "0.05", "-o", str(tmp_path / "p.json")]
    # SIGINT at its default: a background job of a non-interactive shell inherits it ignored
    run = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    started = time.monotonic()
    while not checkpoint.exists() and time.monotonic() - started < 120:  # the search runs once it saves
        time.sleep(0.2)
    time.sleep(5)
    sent = time.monotonic()
    run.send_signal(signal.SIGINT)
    out, _ = run.communicate(timeout=120)
    waited = time.monotonic() - sent
    assert run.returncode == 130, out
    assert "interrupted" in out and "checkpoint kept" in out and checkpoint.exists(), out
    assert waited < 10, waited


@pytest.mark.parametrize("text", ["tictactoe", "mnk:4,4,4", "mnk:3,4,3", "cumulative", "mnk:6,6,5"])
def test_the_compiled_search_with_potential_matches_the_python_one(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import solver.search.pns as pns

    monkeypatch.setattr(pns, "EXPANDED_CACHE", 0)  # as tests/test_native_closures.py: the same node counts
    game = resolve_game(text)
    for claim in (Claim(1, "no-loss"), Claim(2, "no-loss"), Claim(1, "win")):
        hooks = game.search_hooks()
        hooks.potential = True
        reference = pns.ProofSearch(game, claim, hooks, pairings=True).search(game.initial(), max_nodes=200_000)
        outcome = NativeProofSearch(game, claim, hooks, closures=True).search(game.initial(), max_nodes=200_000)
        assert (outcome.status, outcome.root_pn, outcome.root_dn, outcome.nodes) == (
            reference.status, reference.root_pn, reference.root_dn, reference.nodes), (text, claim)


# (not mnk:6,6,5: there the Python walk's larger closure budget closes positions nearer the root,
# with or without --potential)
@pytest.mark.parametrize("text,player", [("mnk:4,4,4", 2), ("mnk:3,4,3", 1), ("tictactoe", 2)])
def test_both_cores_write_the_same_potential_certificate_and_it_is_valid(text: str, player: int) -> None:
    from certify.proving.single import prove

    game = resolve_game(text)
    python = prove(game, Claim(player, "no-loss"), pairings=True, core="python", potential=True)
    native = prove(game, Claim(player, "no-loss"), pairings=True, core="native", potential=True)
    assert native.text is not None and native.text == python.text
    verdict = checker.check_document(json.loads(native.text))
    assert verdict.exit_code == 0, verdict.message


@pytest.mark.parametrize("text", ["mnk:3,4,3", "mnk:4,4,3", "mnk:3,5,3"])
def test_a_first_player_win_is_never_closed_for_player_two(text: str) -> None:
    game = resolve_game(text)  # established: player 1 wins each
    hooks = game.search_hooks()
    hooks.potential = True
    outcome = NativeProofSearch(game, Claim(2, "no-loss"), hooks, closures=True).search(game.initial(), max_nodes=1_000_000)
    assert outcome.status == "disproved"


@pytest.mark.parametrize("text", ["tictactoe", "mnk:4,4,4", "mnk:3,4,3", "cumulative"])
def test_a_closure_budget_caps_both_cores_alike(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import solver.search.pns as pns

    monkeypatch.setattr(pns, "EXPANDED_CACHE", 0)
    game = resolve_game(text)
    for claim in (Claim(1, "no-loss"), Claim(2, "no-loss")):
        hooks = game.search_hooks()
        hooks.potential, hooks.closure_budget = True, 5
        reference = pns.ProofSearch(game, claim, hooks, pairings=True).search(game.initial(), max_nodes=200_000)
        outcome = NativeProofSearch(game, claim, hooks, closures=True).search(game.initial(), max_nodes=200_000)
        assert (outcome.status, outcome.root_pn, outcome.root_dn, outcome.nodes) == (
            reference.status, reference.root_pn, reference.root_dn, reference.nodes), (text, claim)


def test_potential_and_closure_budget_need_pairings() -> None:
    for option in (["--potential"], ["--closure-budget", "50"]):
        done = subprocess.run([sys.executable, "-m", "certify", "prove", "mnk:4,4,4", "--claim", "no-loss", "--player", "2",
                               *option, "-o", "-"], capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert done.returncode == 2 and "give it with --pairings" in done.stderr, done.stderr
