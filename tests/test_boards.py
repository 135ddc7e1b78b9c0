"""Boards of up to 64 cells in any shape (4x16, 1x64, 8x8, 4x9) and Qubic, through every layer: rules,
the compiled proof search, the certificate, the stdlib checker (which reads the rules the
certificate embeds, Qubic's 76 lines too), and the drawings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import checker
from certify.proving.single import prove
from certify.render.svg import board_svg
from certify.render.text import board_line
from solver.games.families import resolve_game
from solver.games.positional.rules import RulesError, resolve
from solver.search.pns import Claim

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game, cells, lines", [("mnk:4,16,4", 64, 13 * 4 + 16 + 2 * 13), ("mnk:1,64,4", 64, 61),
                                                ("mnk:8,8,5", 64, 2 * 8 * 4 + 2 * 16), ("mnk:4,9,4", 36, 45)])
def test_any_shape_up_to_64_cells(game: str, cells: int, lines: int) -> None:
    rules = resolve(game)
    assert (rules.cells, len(rules.lines)) == (cells, lines)


@pytest.mark.parametrize("game", ["mnk:9,8,4", "mnk:1,65,4", "mnk:16,16,5"])
def test_past_64_cells_is_refused_with_one_line(game: str) -> None:
    with pytest.raises(RulesError, match="cells; a board has 1 to 64 cells"):
        resolve(game)


def proved(game_text: str, position: str, claim: Claim) -> dict:
    game = resolve_game(game_text)
    attempt = prove(game, claim, root=position, max_nodes=200_000)
    assert attempt.text is not None, attempt.outcome
    return json.loads(attempt.text)


def test_a_qubic_certificate_embeds_its_lines_and_the_stdlib_checker_reads_it(tmp_path: Path) -> None:
    # X has three of the front row of layer 0 and of layer 3's; O blocks neither: X wins at once
    position = "XXX. .... .... X.../OOO. .... .... O.../.... .... .... ..../.... .... .... ...."
    document = proved("qubic", position, Claim(1, "win"))
    assert document["rules"]["name"] == "qubic" and len(document["rules"]["lines"]) == 76
    path = tmp_path / "qubic.json"
    path.write_text(json.dumps(document))
    run = subprocess.run([sys.executable, "-S", "-m", "checker", str(path)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.startswith("VALID strategy 4x16 board, 76 lines of 4"), run.stdout


def test_a_double_threat_on_a_1x64_board_is_a_checked_win() -> None:
    # X on cells 30 and 31, O far away, X to move: X plays 29 or 32 and threatens both ends
    row = ["."] * 64
    row[30] = row[31] = "X"
    row[0] = row[63] = "O"
    document = proved("mnk:1,64,4", "".join(row), Claim(1, "win"))
    verdict = checker.check_document(document)
    assert verdict.exit_code == 0 and "1x64 board" in verdict.message, verdict.message


def test_drawings_take_wide_boards() -> None:
    board = tuple([1, 2] + [0] * 62)
    svg = board_svg(board, 4, 16)
    assert svg.count("<rect") == 64 and 'width="898"' in svg
    assert board_line(board, 16).count("/") == 3


@pytest.mark.parametrize("game", ["mnk:1,64,4", "mnk:4,16,4", "qubic", "mnk:8,8,5"])
def test_a_wide_board_is_drawn_whole_within_80_columns(game: str) -> None:
    """Every cell's number is drawn, none cut to "…", and no line passes 80 columns: 1×64 in
    bands of 16 columns, 4×16 (Qubic's layers) unpadded."""
    import io
    import re

    from rich.console import Console

    from certify.render.text import board_table

    rules = resolve(game)
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(board_table((0,) * rules.cells, rules.rows, rules.cols))
    drawn = console.export_text()
    assert "…" not in drawn and max(len(line) for line in drawn.splitlines()) <= 80, drawn
    assert sorted(int(n) for n in re.findall(r"\d+", drawn)) == list(range(rules.cells)), drawn
