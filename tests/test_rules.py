"""Rules specs: built-ins, mnk strings, spec files, and the refusal of bad specs."""

from __future__ import annotations

import json

import pytest

from solver.games.positional.rules import RulesError, builtin, k_in_a_row, parse_mnk, resolve


def test_tictactoe_has_eight_lines_and_a_stable_hash():
    rules = builtin("tictactoe")
    assert len(rules.lines) == 8
    assert rules.sha256() == builtin("tictactoe").sha256()
    assert rules.sha256() != builtin("misere").sha256()


def test_k_in_a_row_counts():
    assert len(k_in_a_row(4, 4, 4)) == 10
    assert len(k_in_a_row(4, 4, 3)) == 24
    assert len(k_in_a_row(3, 4, 3)) == 3 * 2 + 4 + 2 * 2


def test_mnk_flags():
    rules = parse_mnk("mnk:4,4,3,wild,misere")
    assert (rules.rows, rules.cols, rules.marks, rules.goal) == (4, 4, "either", "first-line-loses")


def test_toml_and_json_spec_files(tmp_path):
    toml = tmp_path / "g.toml"
    toml.write_text('name = "g"\nrows = 2\ncols = 2\nlines = [[0, 1], [2, 3]]\nmarks = "either"\ngoal = "most-lines"\n')
    with pytest.raises(RulesError, match="most-lines needs marks 'own'"):
        resolve(str(toml))
    spec = tmp_path / "g.json"
    spec.write_text(json.dumps({"rows": 2, "cols": 3, "k": 2, "marks": "own", "goal": "first-line-wins"}))
    rules = resolve(str(spec))
    assert rules.name == "g" and len(rules.lines) == 2 * 2 + 3 + 2 * 2


@pytest.mark.parametrize(
    "spec, message",
    [
        ({"rows": 3, "cols": 3, "k": 4, "marks": "own", "goal": "first-line-wins"}, "K=4 does not fit"),
        ({"rows": 3, "cols": 3, "k": 3, "marks": "own", "goal": "most-points"}, "goal"),
        ({"rows": 3, "cols": 3, "lines": [[0, 9]], "marks": "own", "goal": "first-line-wins"}, "cell 9 outside"),
        ({"rows": 3, "cols": 3, "lines": [], "marks": "own", "goal": "first-line-wins"}, "line list is empty"),
        ({"rows": 9, "cols": 8, "k": 3, "marks": "own", "goal": "first-line-wins"}, "9x8 has 72 cells; a board has 1 to 64"),
        ({"rows": 0, "cols": 4, "k": 3, "marks": "own", "goal": "first-line-wins"}, "0x4 has 0 cells"),
        ({"rows": 3, "cols": 3, "k": 3, "marks": "mine", "goal": "first-line-wins"}, "marks"),
        ({"rows": "3", "cols": 3, "k": 3, "marks": "own", "goal": "first-line-wins"}, "'rows' must be an integer"),
        ({"rows": 3, "k": 3, "marks": "own", "goal": "first-line-wins"}, "missing field 'cols'"),
        ({"rows": 3, "cols": 3, "k": 3, "marks": "own", "goal": "first-line-wins", "size": 9}, "unknown field 'size'"),
    ],
)
def test_bad_specs_are_refused_with_a_reason(tmp_path, spec, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(spec))
    with pytest.raises(RulesError, match=message) as err:
        resolve(str(path))
    assert "\n" not in str(err.value) and str(path) in str(err.value)


@pytest.mark.parametrize("text", ["mnk:3,3", "mnk:a,3,3", "mnk:3,3,3,tall", "mnk:9,9,3", "chess"])
def test_bad_names_are_refused(text):
    with pytest.raises(RulesError):
        resolve(text)


def test_a_line_repeated_in_another_order_is_refused():
    from solver.games.positional.rules import make_rules

    with pytest.raises(RulesError, match="repeats a line"):
        make_rules("dup", 1, 3, "own", "most-lines", lines=[[0, 1, 2], [2, 1, 0]])
