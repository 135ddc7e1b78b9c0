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
    for move in position.moves:
        row = table.lookup(move.child)
        assert move.plies == int(table.distances[row]) + 1
        assert move.value == {1: "loss", 0: "draw", -1: "win"}[int(table.values[row])]
    assert position.best_moves and all(m.value == position.value for m in position.best_moves)


def test_strategy_moves_reach_only_its_guarantee():
    w3t = certify.load(ROOT / "certificates" / "w3t.json")
    strategy = w3t.strategy(1)
    for code, move in strategy.items():
        after = [m for m in certify.Position(w3t, code).moves if m.move == move]
        assert after and after[0].value == "win"


def test_svg_board_is_well_formed_and_shows_every_move():
    import xml.etree.ElementTree as ET

    from certify.render.svg import short_value

    start = certify.load(ROOT / "certificates" / "w3t.json").position()
    root = ET.fromstring(start._repr_svg_())
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    for move in start.moves:
        assert f"{'XO'[move.move.mark - 1]} {short_value(move)}" in texts
    assert sum("★" in t for t in texts) == len(start.best_moves) > 0
