"""The notebook API: docs/api.md's session runs as doctests; `import certify` stays light."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import certify
from certify.record.certificate import label_table

ROOT = Path(__file__).resolve().parents[1]


def test_api_md_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples name files relative to the repository's root
    result = doctest.testfile(
        str(ROOT / "docs" / "api.md"), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.attempted >= 20 and result.failed == 0


def test_api_module_docstring_runs():
    import certify.api

    result = doctest.testmod(certify.api, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 2 and result.failed == 0


def test_import_certify_loads_no_solver():
    code = "import sys, certify; print(sorted(m for m in ('numpy', 'certify.api', 'solver.games.positional.engine') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError):
        certify.no_such_name  # noqa: B018


def test_position_values_agree_with_the_label_table():
    w3t = certify.load(ROOT / "certificates" / "w3t.json")
    table = label_table(w3t.certificate)
    position = w3t.position("X4,O0")
    for move in position.move_values(0):
        row = table.lookup(position.play(move.move).state)
        assert move.source == "certificate"
        assert move.plies == int(table.distances[row]) + 1
        assert move.value == {1: "loss", 0: "draw", -1: "win"}[int(table.values[row])]
    best = position.best_moves(0)
    assert best and all(m.value == position.value for m in best)


def test_strategy_moves_reach_only_its_guarantee():
    w3t = certify.load(ROOT / "certificates" / "w3t.json")
    start = w3t.position()
    for code, move in w3t.strategy(1).items():
        position = certify.Position(start.game, code, start.knowledge)
        assert position.strategy_move(1) == str(move)
        assert [m.value for m in position.move_values(0) if m.move == str(move)] == ["win"]


def test_svg_board_is_well_formed_and_shows_every_move():
    import xml.etree.ElementTree as ET

    from certify.record.positions import MoveValue
    from certify.render.svg import short_value

    start = certify.load(ROOT / "certificates" / "w3t.json").position()
    root = ET.fromstring(start._repr_svg_())
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for move in start.move_values(0):
        shown = MoveValue(start.game.parse_move(move.move), 0, move.value, move.plies, None, move.best)
        assert f"{move.move[0]} {short_value(shown)}" in texts
    assert sum("★" in t for t in texts) == len(start.best_moves(0)) > 0


def test_searched_values_are_drawn_without_plies():
    import xml.etree.ElementTree as ET

    position = certify.start("tictactoe", "X4 O1")
    assert "W" not in "".join(ET.fromstring(position._repr_svg_()).itertext())  # nothing known yet: no values drawn
    position.move_values(2_000)
    texts = ["".join(t.itertext()) for t in ET.fromstring(position._repr_svg_()).iter("{http://www.w3.org/2000/svg}text")]
    assert "X W★" in texts and "X D" in texts  # X7 only draws; the others win, in plies a search does not count


def test_an_audit_is_short_to_print():  # issue 32, item 8: its repr was 30 kB
    from certify.api import Audit
    from certify.claims.run import FileAudit

    class Result:  # what the repr reads of a ClaimResult
        def __init__(self, id: str, verdict: str) -> None:
            self.id, self.game, self.verdict = id, "w3t", verdict

    audit = Audit(FileAudit(Path("claims/000.toml"), None, [Result("1", "holds"), Result("2", "refuted"), Result("3", "holds")]))
    assert repr(audit) == "<Audit claims/000.toml: 3 claims: 2 holds, 1 refuted>"
    assert str(audit).splitlines() == ["1  w3t  holds", "2  w3t  refuted", "3  w3t  holds"]


@pytest.mark.parametrize(("drawing", "game", "moves", "certificate"), [
    ("api-position.svg", "tictactoe", "X4 O1", "tictactoe.json"),
    ("api-uttt-open.svg", "uttt:open", "4.4", "proofs/uttt-open.p1-win.json"),
])
def test_the_drawings_in_api_md_are_what_positions_draw(drawing: str, game: str, moves: str, certificate: str):
    drawn = certify.start(game, moves, certificate=ROOT / "certificates" / certificate)._repr_svg_()
    assert (ROOT / "docs" / drawing).read_text(encoding="utf-8") == drawn + "\n"


def test_uttt_cells_are_filled_by_their_values():
    from certify.render.svg import VALUE_FILL

    start = certify.start("uttt:open", certificate=ROOT / "certificates" / "proofs" / "uttt-open.p1-win.json")
    assert start._repr_svg_().count(VALUE_FILL["win"]) == 1  # the strategy's first move
    assert start.play("4.4")._repr_svg_().count(VALUE_FILL["loss"]) == 8  # every reply
    assert VALUE_FILL["win"] not in certify.start("uttt:open")._repr_svg_()  # nothing known, nothing filled


@pytest.mark.parametrize(("words", "call"), [
    ("tictactoe --claim no-loss --player 2", dict(text="tictactoe", player=2, claim="no-loss")),
    ("mnk:4,4,3 --claim win --player 1 --within 7 --first-move x5 --pairings",
     dict(text="mnk:4,4,3", player=1, claim="win", within=7, first_move="x5", pairings=True)),
    ("tictactoe --claim win --player 1 --within 5 --position X../.../...",  # disproved: the opposite's file
     dict(text="tictactoe", player=1, claim="win", within=5, position="X../.../...")),
])
def test_a_proof_saved_from_python_is_the_file_certify_prove_writes(tmp_path: Path, words: str, call: dict) -> None:
    """The same words give the same bytes, so a notebook's certificate names the command that writes it again."""
    from typer.testing import CliRunner

    from certify.cli import app

    cli = tmp_path / "cli.json"
    CliRunner().invoke(app, ["prove", *words.split(), "-o", str(cli)], catch_exceptions=False)
    proof = certify.prove(**call)
    saved = proof.opposite if proof.status == "disproved" else proof
    assert saved.save(tmp_path / "api.json").read_bytes() == cli.read_bytes()
