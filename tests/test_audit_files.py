"""Malformed claims files: one clear error naming the file, the line and the field; exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from certify.claims.load import ClaimsFileError, load_claims
from certify.cli import app

HEAD = 'source = "t"\ntitle = "test"\n\n'
GOOD = '[[claim]]\nid = "a"\nwhere = "here"\nstatement = "words"\ngame = "tictactoe"\nkind = "root_value"\nvalue = "draw"\n'


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "claims.toml"
    path.write_text(HEAD + body)
    return path


@pytest.mark.parametrize(
    ("body", "line", "field"),
    [
        (GOOD + GOOD.replace('id = "a"', 'id = "b"').replace('value = "draw"', 'value = "maybe"'), 17, "claim[2] (id 'b').value:"),
        (GOOD + GOOD.replace('id = "a"', 'id = "b"').replace('kind = "root_value"', 'kind = "rumour"'), 16, "claim[2] (id 'b').kind:"),
        (GOOD.replace('game = "tictactoe"', 'game = "chess"'), 8, ".game:"),
        (GOOD.replace('value = "draw"\n', 'value = "draw"\ncolour = "red"\n'), 11, ".colour:"),
        (GOOD.replace('statement = "words"\n', ""), 4, ".statement:"),
    ],
)
def test_error_names_file_line_and_field(tmp_path: Path, body: str, line: int, field: str) -> None:
    path = write(tmp_path, body)
    with pytest.raises(ClaimsFileError) as caught:
        load_claims(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}:"), message
    assert field in message
    assert "\n" not in message


def test_toml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD + "value = = 3\n")
    with pytest.raises(ClaimsFileError, match=r"not valid TOML: .*line 11"):
        load_claims(path)


def test_cli_malformed_exits_2_without_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace('value = "draw"', "value = 3"))
    result = CliRunner().invoke(app, ["audit", str(path)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "value" in result.output


def test_claim_that_cannot_be_evaluated_is_bad_input(tmp_path: Path) -> None:
    body = GOOD.replace('kind = "root_value"\nvalue = "draw"', 'kind = "position_value"\nmoves = "X4 X5"\nvalue = "draw"')
    result = CliRunner().invoke(app, ["audit", str(write(tmp_path, body))])
    assert result.exit_code == 2
    assert "not legal" in result.output


def test_false_claim_is_refuted_with_exit_0(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace('value = "draw"', 'value = "win"'))
    result = CliRunner().invoke(app, ["audit", str(path), "--json"])
    assert result.exit_code == 0
    assert '"verdict": "refuted"' in result.output


TWO = GOOD.replace('kind = "root_value"\nvalue = "draw"', 'kind = "count"\nquantity = ["reachable_states", "games"]\nvalue = 5478')
PRIMARY = '[claim.primary]\nreading = "{}"\nwords = "the words"\n'
OTHER = '[[claim.other]]\nreading = "{}"\nwhy = "a reason"\n'


def test_a_tautology_cannot_make_a_claim_ambiguous(tmp_path: Path) -> None:
    body = TWO + PRIMARY.format("states") + OTHER.format("complete games") + 'tautology = true\nequally = "a sentence"\n'
    path = write(tmp_path, body)
    with pytest.raises(ClaimsFileError, match=r"claims.toml:15: claim\[1\] \(id 'a'\).other\[0\]: a tautology cannot make a claim ambiguous"):
        load_claims(path)


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        (TWO, 4, "2 readings were measured: name the primary one"),
        (TWO + PRIMARY.format("moves"), 12, "primary.reading 'moves' matches no reading"),
        (TWO + PRIMARY.format("states"), 4, "reading 'complete games: move sequences from the empty board to an end' is neither"),
    ],
)
def test_readings_not_placed_once_are_bad_input(tmp_path: Path, body: str, line: int, message: str) -> None:
    path = write(tmp_path, body)
    result = CliRunner().invoke(app, ["audit", str(path)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert f"{path}:{line}: claim 'a': {message}" in " ".join(result.output.split())
