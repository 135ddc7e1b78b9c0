"""The red-team corpus of issue 19: hostile certificates that once got VALID, a crash, a hang or
unbounded work, each answered now in one line.

Items: 1 (a claim from a position play cannot reach), 2 (uttt: both meta lines, a board named on
the empty grid), 4 (the verdict redraws the position), 6 (the Python API's rules hash minimum),
12-13 (strategy work counted and bounded up front), 14 (containers bounded before parsing),
15 (a FIFO), 16 (absurd budgets).
"""

from __future__ import annotations

import base64
import copy
import json
import os
import subprocess
import sys
import zlib
from functools import cache

import pytest

import checker
from certify.proving.single import prove
from solver.games.families import resolve_game
from solver.search.pns import Claim
from test_checker_helpers import REPO


@cache
def proof(game: str, player: int, result: str, root: str | None = None) -> dict:
    attempt = prove(resolve_game(game), Claim(player, result), root)
    assert attempt.outcome.status == "proved"
    return json.loads(attempt.text)


def forged(game: str, player: int, result: str, root: str) -> dict:
    """A real proof's document with its claim moved to `root` (the moves no longer matter: the
    position reader must refuse the root before any traversal)."""
    doc = copy.deepcopy(proof(game, 1, "no-loss"))
    doc["claim"] = {"player": player, "result": result, "root": root}
    return doc


def run_checker(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run([sys.executable, "-S", "-m", "checker", *args], capture_output=True, text=True,
                          env=env, timeout=120)


# ---- 1, 2: impossible positions ------------------------------------------------------------------


@pytest.mark.parametrize(("game", "player", "result", "root"), [
    ("mnk:3,3,3", 2, "win", "XXX/OO./O.."),  # the issue's reproduction: O "wins" after X's line
    ("mnk:3,3,3", 1, "no-loss", "XXX/OOO/X.."),
    ("mnk:3,3,3,misere", 1, "no-loss", "XXX/OO./..O"),
])
def test_a_claim_from_an_impossible_position_is_refused(game: str, player: int, result: str, root: str) -> None:
    verdict = checker.check_document(forged(game, player, result, root))
    assert verdict.exit_code == 2 and "position" in verdict.message, verdict.message


def test_the_issue_reproduction_is_refused_by_prove() -> None:
    with pytest.raises(ValueError, match="side to move holds a complete line"):
        prove(resolve_game("mnk:3,3,3"), Claim(2, "win"), "XXX/OO./O..")


def test_uttt_both_meta_lines_is_refused() -> None:
    x_board, o_board, empty = "XXXOO....", "OOOXX....", "........."
    boards = [x_board] * 3 + [o_board] * 3 + [empty] * 3
    rows = ["".join(boards[r // 3 * 3 + c // 3][r % 3 * 3 + c % 3] for c in range(9)) for r in range(9)]
    doc = {"format": "certify-certificate", "version": 2, "kind": "strategy",
           "rules": {**checker.uttt.RULES, "name": "uttt"}, "claim": {"player": 1, "result": "win",
           "root": "/".join(rows) + " *"}, "proof": {"traversal": "dfs-preorder", "positions": 1, "turns": 0,
           "moves": base64.b64encode(zlib.compress(b"")).decode()}, "provenance": {}}
    doc["rules_sha256"] = checker.load.rules_hash(doc["rules"])
    verdict = checker.check_document(doc)
    assert verdict.exit_code == 2 and "both players hold a meta line" in verdict.message, verdict.message


# ---- 4: the verdict redraws the position ---------------------------------------------------------


def test_the_verdict_redraws_the_position_in_full() -> None:
    doc = proof("tictactoe", 1, "win", "XO./.../...")
    padded = copy.deepcopy(doc)
    padded["claim"]["root"] = "X O . / . . . / . . ." + " " * 200
    for document in (doc, padded):
        verdict = checker.check_document(document)
        assert verdict.exit_code == 0, verdict.message
        assert "from position X O . / . . . / . . .:" in verdict.message


# ---- 6: the Python API's rules hash --------------------------------------------------------------


@pytest.mark.parametrize("sha", ["", "0", "e13a2830f460ef1", "not hex at all, but long enough"])
def test_a_short_or_empty_rules_hash_is_refused_by_the_api(sha: str) -> None:
    doc = proof("mnk:4,4,3", 1, "win")
    assert checker.check_document(doc, rules_sha256=sha).exit_code == 2
    assert checker.check_bytes(json.dumps(doc).encode(), rules_sha256=sha).exit_code == 2


# ---- 12, 13: strategy work bounded up front -------------------------------------------------------


def test_strategy_work_is_positions_times_lines_declared_up_front() -> None:
    doc = copy.deepcopy(proof("mnk:4,4,3", 1, "win"))
    doc["proof"]["positions"] = 999_999  # under --max-states, but 999,999 x 2 x (72 + 16) is over --max-work
    verdict = checker.check_document(doc)
    assert verdict.exit_code == 2 and "--max-work 175999824" in verdict.message, verdict.message


def test_a_strategy_proof_on_a_board_over_64_cells_is_refused() -> None:
    rules = {"family": "positional", "name": "big", "rows": 16, "cols": 16, "marks": "own",
             "goal": "first-line-wins", "lines": [[0, 1]]}
    doc = {"format": "certify-certificate", "version": 2, "kind": "strategy", "rules": rules,
           "rules_sha256": checker.load.rules_hash(rules), "claim": {"player": 1, "result": "win", "root": None},
           "proof": {"traversal": "dfs-preorder", "positions": 3, "turns": 1,
                     "moves": base64.b64encode(zlib.compress(b"\x00")).decode()}, "provenance": {}}
    verdict = checker.check_document(doc)
    assert verdict.exit_code == 2 and "up to 64 cells" in verdict.message, verdict.message


# ---- 14, 15, 16: bounded reading ------------------------------------------------------------------


def test_a_provenance_of_many_containers_is_refused_before_parsing(tmp_path) -> None:
    doc = proof("mnk:4,4,3", 1, "win")
    text = json.dumps(doc)
    path = tmp_path / "many.json"
    path.write_text(text[:-1] + ', "padding": [' + ",".join(["{}"] * 1_000_001) + "]}")
    verdict = checker.check_file(str(path))
    assert verdict.exit_code == 2 and "JSON objects and arrays" in verdict.message, verdict.message


def test_the_default_size_limit_fits_the_largest_published_certificate() -> None:
    """Every published certificate fits the default --max-bytes but the kept proofs that are checked
    with their own budget (certify/publish/record.py large_limits: positions, work and bytes)."""
    from certify.publish.record import KEPT_COUNTED_PROOFS, closed_proof_path

    own_budget = {REPO / closed_proof_path(*claim) for claim in KEPT_COUNTED_PROOFS}
    largest = max((p for p in (REPO / "certificates").glob("**/*.json") if p not in own_budget), key=lambda p: p.stat().st_size)
    assert largest.stat().st_size <= checker.DEFAULT_MAX_BYTES < 64 * 1024 * 1024


def test_a_fifo_is_refused_without_blocking(tmp_path) -> None:
    fifo = tmp_path / "cert.json"
    os.mkfifo(fifo)
    completed = run_checker(str(fifo))  # would block forever in open() before issue 19
    assert completed.returncode == 2 and "not a regular file" in completed.stderr
    assert completed.stderr.count("\n") == 1


@pytest.mark.parametrize("option", ["--max-bytes", "--max-states", "--max-work"])
def test_an_absurd_budget_is_a_one_line_usage_error(option: str, tmp_path) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(proof("mnk:4,4,3", 1, "win")))
    completed = run_checker(str(path), option, str(10**23))
    assert completed.returncode == 2 and option in completed.stderr and "internal" not in completed.stderr
    assert completed.stderr.count("\n") == 1 and not completed.stdout


# ---- 5: prove writes the canonical position ------------------------------------------------------


def test_prove_writes_the_position_canonically() -> None:
    attempt = prove(resolve_game("tictactoe"), Claim(1, "win"), " xo./.../...\n")
    doc = json.loads(attempt.text)
    assert doc["claim"]["root"] == "XO./.../..."
    assert checker.check_document(doc).exit_code == 0


# ---- 10, 11: outputs and inputs of the commands ----------------------------------------------------


def test_a_certificate_never_replaces_one_of_another_kind_or_game_without_force(tmp_path) -> None:
    from typer.testing import CliRunner

    from certify.cli import app

    runner = CliRunner()
    proof_path = tmp_path / "p1-win.json"
    assert runner.invoke(app, ["prove", "mnk:4,4,3", "--claim", "win", "--player", "1", "-o", str(proof_path)]).exit_code == 0
    before = proof_path.read_bytes()
    refused = runner.invoke(app, ["solve", "tictactoe", "-o", str(proof_path)])
    assert refused.exit_code == 2 and "--force" in refused.output and proof_path.read_bytes() == before
    table_path = tmp_path / "table.json"
    assert runner.invoke(app, ["solve", "tictactoe", "-o", str(table_path)]).exit_code == 0
    for args in (["solve", "misere", "-o", str(table_path)], ["prove", "tictactoe", "--claim", "no-loss", "--player", "1", "-o", str(table_path)]):
        refused = runner.invoke(app, args)
        assert refused.exit_code == 2 and "--force" in refused.output, args
    assert runner.invoke(app, ["solve", "tictactoe", "-o", str(table_path)]).exit_code == 0  # the same game and kind
    assert runner.invoke(app, ["solve", "misere", "-o", str(table_path), "--force"]).exit_code == 0


def test_a_large_proof_is_replaced_by_the_same_claim_without_force(tmp_path) -> None:
    """A proof whose moves run past the first 64 KB still reads as this game's certificate (its
    rules_sha256 comes after the moves): proving the same claim again replaces it."""
    from typer.testing import CliRunner

    from certify.cli import app

    runner = CliRunner()
    path = tmp_path / "p2.json"
    # plain: without the 4x4 line set's 32 symmetries the proof is larger (74 KB, not 62 KB)
    args = ["prove", "mnk:4,4,4", "--claim", "no-loss", "--player", "2", "--plain", "-o", str(path)]
    assert runner.invoke(app, args).exit_code == 0
    assert path.stat().st_size > 65536 and path.read_text().index('"rules_sha256"') > 65536
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output


@pytest.mark.parametrize("make", ["missing", "file", "empty folder"])
def test_verify_claims_that_are_not_a_folder_of_claims_files_is_one_line_exit_2(make: str, tmp_path) -> None:
    from typer.testing import CliRunner

    from certify.cli import app

    claims = tmp_path / "claims"
    if make == "file":
        claims.write_text("x")
    elif make == "empty folder":
        claims.mkdir()
    result = CliRunner().invoke(app, ["verify", "tictactoe", "--claims", str(claims), "--out-dir", str(tmp_path)])
    assert result.exit_code == 2 and "--claims" in result.output, result.output
    assert result.output.strip().count("\n") == 0
    assert not (tmp_path / "tictactoe.json").exists()  # refused before any work


# ---- 7: certify check's schema and the format agree ------------------------------------------------


def check_cli(path) -> int:
    from typer.testing import CliRunner

    from certify.cli import app

    return CliRunner().invoke(app, ["check", str(path)]).exit_code


def test_schema_and_checker_agree_on_unknown_keys_and_board_limits(tmp_path) -> None:
    from typer.testing import CliRunner

    from certify.cli import app

    wide = tmp_path / "wide.json"  # 2x5: more than 4 columns, at most 16 cells, as the format allows
    assert CliRunner().invoke(app, ["solve", "mnk:2,5,3", "-o", str(wide)]).exit_code == 0
    doc = json.loads(wide.read_text())
    assert check_cli(wide) == 0
    doc["comment"] = "unknown keys outside rules are ignored"
    doc["claim"]["note"] = "here too"
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps(doc))
    assert checker.check_file(str(extra)).exit_code == 0 and check_cli(extra) == 0
    proof_doc = copy.deepcopy(proof("tictactoe", 1, "no-loss"))
    proof_doc["rules"] = {**proof_doc["rules"], "rows": 9, "cols": 9, "lines": [[0, 1, 2]]}
    proof_doc["rules_sha256"] = checker.load.rules_hash(proof_doc["rules"])
    big = tmp_path / "big.json"
    big.write_text(json.dumps(proof_doc))
    assert checker.check_file(str(big)).exit_code == 2 and check_cli(big) == 2
