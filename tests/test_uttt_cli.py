"""`certify show uttt`: the drawn position, its JSON, and one-line errors with exit code 2."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from certify.cli import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_show_by_moves_and_by_position_agree() -> None:
    by_moves = json.loads(run("show", "uttt", "--moves", "4.0 0.4 4.8 8.4 4.4", "--json").stdout)
    assert by_moves["finished"] == "board 4 won by X" and by_moves["sent_to"] is None
    assert by_moves["to_move"] == 2 and len(by_moves["moves"]) == 81 - 5 - 6  # no cell of the won board 4
    by_position = json.loads(run("show", "uttt", "--position", by_moves["position"], "--json").stdout)
    assert by_position == by_moves
    drawn = run("show", "uttt", "--moves", "4.0 0.4 4.8 8.4 4.4")
    assert drawn.exit_code == 0 and "board 4 won by X" in drawn.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("--moves", "4.0 4.0"),
        ("--moves", "9.9"),
        ("--position", "X" * 81 + " *"),
        ("--position", "." * 81 + " 3"),
        ("--moves", "4.0", "--position", "." * 81 + " *"),
        ("--code", "3"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...]) -> None:
    result = run("show", "uttt", *args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "error:" in result.stderr
