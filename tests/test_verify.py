"""`certify verify`: the whole pipeline on tic-tac-toe, and a failing checker step."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from certify.cli import app
from certify.verify import verify
from solver.games.positional.rules import resolve


def test_verify_tictactoe_exits_0(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["verify", "tictactoe", "--out-dir", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["verified"] is True
    assert [s["name"] for s in report["steps"]] == ["solve", "schema", "checker", "verified", "z3", "claims"]
    assert report["root_value"] == "draw"
    assert (tmp_path / "tictactoe.json").is_file()
    assert any(c["id"] == "002.1" for c in report["claims"])  # claims about tic-tac-toe were audited


def test_unwritable_certificate_fails_with_exit_1(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    report = verify("tictactoe", resolve("tictactoe"), blocker / "x.json", claims_dir=None)
    assert not report.ok
    assert report.steps[0].ok is False and "cannot write" in report.steps[0].detail


CLAIMS = """source = "t"
title = "test"

[[claim]]
id = "t.1"
where = "here"
statement = "words"
game = "tictactoe"
kind = "count"
quantity = ["games", "reachable_states"]
value = 5478

[claim.primary]
reading = "complete games"
words = "the words"

[[claim.other]]
reading = "states reachable"
why = "a reason"
"""


def test_the_audit_panel_shows_the_primary_verdict_on_one_line(tmp_path: Path) -> None:
    claims = tmp_path / "claims"
    claims.mkdir()
    (claims / "t.toml").write_text(CLAIMS)
    args = ["verify", "tictactoe", "--out-dir", str(tmp_path), "--claims", str(claims)]
    short = CliRunner().invoke(app, args)
    assert short.exit_code == 0, short.output
    (line,) = [line for line in short.output.splitlines() if "t.1" in line]
    assert "255,168" in line and "refuted" in line  # the primary reading: complete games
    assert "states reachable" not in short.output  # the other reading, behind --details
    detailed = CliRunner().invoke(app, [*args, "--details", "--force"])
    assert "other: states reachable" in " ".join(detailed.output.split())
