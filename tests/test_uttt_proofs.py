"""Ultimate tic-tac-toe strategy certificates: proved, checked by the plain rules, tampering refused;
and the seed 003 claim kinds on small samples."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

import checker
from certify.claims.uttt import CriticalSquares, ForcedBoard, WorkedPosition
from certify.proving.single import prove
from solver.search.pns import Claim
from solver.games.uttt.engine import Uttt

GAME = Uttt()
# seed 003's worked position, X sent to board 8: X wins (proved below, a few thousand nodes)
WORKED = "......O../.......XX/XXXX.XXX./...O.O.OO/..X.XXXXO/O...O..X./O..OOO..O/O.......O/O.....X.. 8"


@pytest.fixture(scope="module")
def certificate() -> dict:
    attempt = prove(GAME, Claim(1, "win"), WORKED, max_nodes=200_000)
    assert attempt.outcome.status == "proved" and attempt.text is not None
    return json.loads(attempt.text)


def check(document: dict) -> checker.CheckResult:
    return checker.check_bytes(json.dumps(document).encode())


def test_a_proved_position_checks(certificate: dict) -> None:
    verdict = check(certificate)
    assert verdict.exit_code == 0 and verdict.message.startswith("VALID strategy ultimate tic-tac-toe")
    assert "player 1 wins" in verdict.message


def test_the_same_proof_from_another_position_is_refused(certificate: dict) -> None:
    other = dict(certificate, claim=dict(certificate["claim"], root=WORKED[:-1] + "2"))  # X sent to board 2 loses
    assert check(other).exit_code == 1


def test_another_player_or_result_is_refused(certificate: dict) -> None:
    assert check(dict(certificate, claim=dict(certificate["claim"], player=2))).exit_code != 0


def test_every_changed_move_is_refused(certificate: dict) -> None:
    proof = certificate["proof"]
    moves = bytearray(zlib.decompress(base64.b64decode(proof["moves"])))
    refused = 0
    for index in range(0, len(moves), max(1, len(moves) // 25)):
        changed = bytearray(moves)
        changed[index] = (changed[index] + 1) % 9
        packed = base64.b64encode(zlib.compress(bytes(changed))).decode()
        verdict = check(dict(certificate, proof=dict(proof, moves=packed)))
        assert "internal" not in verdict.message
        refused += verdict.exit_code != 0
    # a changed move may be another win at once (the same count of positions): most must not check
    assert refused >= 8


def test_other_variants_are_refused(certificate: dict) -> None:
    rules = dict(certificate["rules"], drawn_boards="count-for-both")
    verdict = check(dict(certificate, rules=rules))
    assert verdict.exit_code == 2 and "drawn_boards" in verdict.message


BASE = dict(id="t", where="test", statement="test", game="uttt")


def test_claim_one_on_a_small_sample() -> None:
    static, per_move = CriticalSquares(kind="uttt_critical_squares", positions=20, seed=3, max_nodes=5_000, **BASE).measure()
    assert "20 positions" in static.measured and per_move.holds is True
    if static.holds is False:
        assert "checker VALID" in static.witness


def test_claim_two_reports_the_immediate_win_exception() -> None:
    literal, excepted = ForcedBoard(kind="uttt_forced_board", positions=30, seed=4, max_nodes=5_000, **BASE).measure()
    assert literal.holds is False and "checker VALID" in literal.witness
    assert "can win at once inside it" in literal.measured


def test_worked_position_losing_set() -> None:
    same, _ = WorkedPosition(kind="uttt_worked_position", part="losing_set", cells=WORKED.split()[0],
                             losing_cells=[0, 6, 7, 8], max_nodes=20_000, **BASE).measure()
    assert same.holds is True


def test_a_witness_certificate_is_rewritten_by_the_command_quoted_beside_its_hash(tmp_path) -> None:
    import hashlib
    import re
    import shlex

    from typer.testing import CliRunner

    from certify.claims.uttt import witness
    from certify.cli import app

    quoted = witness(GAME.parse_position(WORKED), None, 1, "win", 200_000)
    digest, command = re.search(r"sha256 ([0-9a-f]{16}),.*\((certify prove .*)\)$", quoted).groups()
    out = tmp_path / "again.json"
    result = CliRunner().invoke(app, [*shlex.split(command)[1:], "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert hashlib.sha256(out.read_bytes()).hexdigest()[:16] == digest
