"""The open-rules plan (certify/papers/bertholon.py): the moves it names on hand-made positions,
a proof that follows it found and checked, and the published empty-board proof read back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import checker
from certify.papers.bertholon import open_rules_plan
from certify.proving.single import prove, read_proof, strategy_moves
from solver.games.families import resolve_game
from solver.search.pns import Claim

GAME = resolve_game("uttt:open")
PUBLISHED = Path(__file__).resolve().parent.parent / "certificates" / "proofs" / "uttt-open.p1-win.json"


def centre_phase(last: int) -> str:
    """The centre phase's moves with O's last move in the centre board at cell `last`, X not yet answered."""
    moves = ["4.4"]
    for cell in [c for c in (0, 1, 2, 3, 5, 6, 7, 8) if c != last]:
        moves += [f"4.{cell}", f"{cell}.4"]
    return " ".join(moves + [f"4.{last}"])


def named(moves: str) -> list[str]:
    """The plan's moves after `moves` from the empty board, as text."""
    return [GAME.format_move(m) for m in open_rules_plan(GAME, GAME.play_moves(moves))]


def test_the_centre_phase() -> None:
    assert [GAME.format_move(m) for m in open_rules_plan(GAME, GAME.initial())] == ["4.4"]
    assert named("4.4 4.7") == ["7.4"]
    assert named("4.4 4.7 7.4 4.2") == ["2.4"]


@pytest.mark.parametrize("last", [0, 1, 5, 8])
def test_the_pin_starts_where_o_fills_the_centre_board(last: int) -> None:
    """O's last move in the centre board sends X to board `last`: X takes its cell `last`, not its centre."""
    assert named(centre_phase(last)) == [f"{last}.{last}"]


def test_the_pin_answers_each_move_in_the_pinned_board() -> None:
    pinned = centre_phase(0) + " 0.0"
    assert named(pinned + " 0.7") == ["7.0"]
    assert named(pinned + " 0.7 7.0 0.3") == ["3.0"]


def test_the_search_chooses_where_the_pin_cannot_go_on() -> None:
    pinned = centre_phase(0) + " 0.0"
    assert named(pinned + " 0.4") == []  # sent to the full centre board: a free move
    full = pinned + " 0.7 7.0 0.3 3.0 0.8 8.0 0.2 2.0 0.1 1.0 0.5 5.0 0.6 6.0 0.4"
    assert named(full) == []  # board 0 full, X sent to the full centre board


def plan_deviations(moves: dict) -> list[str]:
    """Positions of a proof where the plan names moves and the proof plays another."""
    out = []
    for state, move in moves.items():
        plan = open_rules_plan(GAME, state)
        if plan and move not in plan:
            out.append(GAME.format_position(state))
    return out


def test_a_proof_late_in_the_pin_follows_the_plan_and_is_checked(tmp_path: Path) -> None:
    """From the pinned board with five of O's moves played, the compiled search with the plan
    proves the win; the checker accepts the certificate; every X move where the plan names one is it."""
    position = GAME.format_position(GAME.play_moves(centre_phase(0) + " 0.0 0.7 7.0 0.3 3.0 0.8 8.0 0.2 2.0 0.1 1.0"))
    attempt = prove(GAME, Claim(1, "win"), root=position, policy=open_rules_plan)
    assert attempt.text is not None
    path = tmp_path / "late.json"
    path.write_text(attempt.text)
    verdict = checker.check_file(str(path), checker.Limits(), GAME.rules.sha256()).message
    assert verdict.startswith("VALID"), verdict
    certificate, game = read_proof(path)
    assert plan_deviations(strategy_moves(certificate, game)) == []


@pytest.mark.skipif(not PUBLISHED.is_file(), reason="certificates/proofs/uttt-open.p1-win.json is not published")
def test_the_published_empty_board_proof_is_the_plan_checked() -> None:
    """The published proof that X wins `uttt:open`: VALID for these rules, from the empty board,
    and X's move is the plan's wherever the plan names one."""
    verdict = checker.check_file(str(PUBLISHED), checker.Limits(max_states=10**7, max_work=10**9), GAME.rules.sha256()).message
    assert verdict.startswith("VALID") and re.search(r"the longest play lasts \d+ pl", verdict), verdict
    certificate, game = read_proof(PUBLISHED)
    assert certificate.claim.root is None and (certificate.claim.player, certificate.claim.result) == (1, "win")
    assert plan_deviations(strategy_moves(certificate, game)) == []


@pytest.mark.slow
@pytest.mark.skipif(not PUBLISHED.is_file(), reason="certificates/proofs/uttt-open.p1-win.json is not published")
def test_the_recorded_command_writes_the_published_proof_again(tmp_path: Path) -> None:
    """The command in the proof's provenance writes the same bytes (about 15 minutes and 9.5 GB on
    a 24 GB machine: the table's cap is a third of memory, docs/proof-search.md)."""
    import json
    import shlex
    import subprocess
    import sys

    command = json.loads(PUBLISHED.read_text())["provenance"]["command"]
    argv = shlex.split(command)
    assert argv[0] == "certify"
    out = tmp_path / "again.json"
    done = subprocess.run([sys.executable, "-m", "certify", *argv[1:], "-o", str(out)], capture_output=True,
                          text=True, timeout=3600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert out.read_bytes() == PUBLISHED.read_bytes()
