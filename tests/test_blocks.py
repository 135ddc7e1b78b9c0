"""Proofs that list only the blocks (`certify prove --blocks`): where the prover has a line to
complete and the opponent none, every other reply loses at once, so a proof lists only the blocks.
Both walks write the same file, and the stdlib checker sees the rule for itself and rejects it where
it does not hold (the verified checker's NOT READ: tests/test_verified.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import checker
from certify.proving.single import prove, read_proof, strategy_moves
from solver.games.families import resolve_game
from solver.search.pns import Claim

def document(game_text: str, claim: Claim, blocks: bool = True, **search: object) -> dict:
    attempt = prove(resolve_game(game_text), claim, blocks=blocks, **search)  # type: ignore[arg-type]
    assert attempt.text is not None
    return json.loads(attempt.text)


@pytest.mark.parametrize("game_text,claim", [("mnk:4,4,3", Claim(1, "win")), ("tictactoe", Claim(2, "no-loss")),
                                             ("mnk:3,4,3", Claim(1, "win", 7)), ("mnk:3,4,3", Claim(2, "no-loss", 6))])
def test_blocks_make_a_smaller_proof_with_the_same_longest_play_and_both_walks_write_alike(game_text, claim) -> None:
    plain, listed = document(game_text, claim, False), document(game_text, claim)
    assert listed["proof"]["replies"] == "blocks" and listed["proof"]["positions"] <= plain["proof"]["positions"]
    ours, theirs = checker.check_document(listed), checker.check_document(plain)
    assert ours.exit_code == 0 and "only blocks listed" in ours.message, ours.message
    assert ours.message.rsplit(";", 1)[1] == theirs.message.rsplit(";", 1)[1]  # the same longest play
    python = prove(resolve_game(game_text), claim, blocks=True, core="python")
    assert json.loads(python.text or "") == listed


def test_most_of_a_win_proof_is_replies_that_lose_at_once() -> None:
    plain, listed = document("mnk:5,6,4", Claim(1, "win"), False), document("mnk:5,6,4", Claim(1, "win"))
    assert listed["proof"]["positions"] * 4 < plain["proof"]["positions"]
    assert checker.check_document(listed).exit_code == 0


def test_the_rule_read_where_it_does_not_hold_is_rejected() -> None:
    """A proof written with every reply, read as listing only blocks, does not fit: the checker's
    traversal meets other positions; and the rule belongs to own marks whose first line wins."""
    plain = document("mnk:4,4,3", Claim(1, "win"), False)
    plain["proof"]["replies"] = "blocks"
    assert checker.check_document(plain).exit_code == 1
    misere = document("misere", Claim(1, "no-loss"), False)
    misere["proof"]["replies"] = "blocks"
    result = checker.check_document(misere)
    assert result.exit_code != 0 and "only in a positional game of own marks" in result.message
    with pytest.raises(ValueError, match="not a game of own marks whose first line wins"):
        prove(resolve_game("misere"), Claim(1, "no-loss"), blocks=True)


def test_a_proof_listing_blocks_replays_as_moves(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(document("mnk:4,4,3", Claim(1, "win"))))
    certificate, game = read_proof(path)
    assert len(strategy_moves(certificate, game)) == certificate.proof.turns


def test_the_cli_records_blocks(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    done = subprocess.run([sys.executable, "-m", "certify", "prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "--blocks",
                           "-o", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["provenance"]["command"] == "certify prove mnk:4,4,3 --claim win --player 1 --blocks"
    refused = subprocess.run([sys.executable, "-m", "certify", "prove", "misere", "--claim", "no-loss", "--player", "1", "--blocks"],
                             capture_output=True, text=True)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--blocks" in refused.stderr
