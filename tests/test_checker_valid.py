"""Every certificate the solver writes is VALID, and the verdict line says what was checked."""

from __future__ import annotations

import json

import pytest
from hypothesis import given

import checker
from certify.record.certificate import build_certificate, certificate_json
from solver.games.positional.rules import resolve
from test_checker_helpers import BUILTINS, SMALL_SPECS, builtin_document, check, document_for, published_path
from test_checker_helpers import random_rules, rules_sha256, small_rules


@pytest.mark.parametrize("name", BUILTINS)
def test_builtin_certificate_is_valid(name, tmp_path):
    path = published_path(name)
    if not path.exists():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(builtin_document(name), sort_keys=True, indent=2) + "\n")
    result = checker.check_file(path)
    assert result.exit_code == 0, result.message
    assert result.message.startswith("VALID table 3x3 board, 8 lines of 3, ")
    assert f" rules sha256 {resolve(name).sha256()[:16]} name '{name}': " in result.message
    assert "\n" not in result.message


def test_verdict_line_names_counts_and_root():
    result = check(builtin_document("tictactoe"))
    sha = resolve("tictactoe").sha256()[:16]
    assert result.message == (f"VALID table 3x3 board, 8 lines of 3, marks own, first-line-wins rules sha256 {sha} "
                              "name 'tictactoe': 5,478 states, 16,167 edges, root draw, 2 strategies checked")
    result = check(builtin_document("cumulative"))
    assert result.message.startswith("VALID table 3x3 board, 8 lines of 3, marks own, most-lines ")
    assert "root draw margin 0, 2 strategies checked" in result.message


def test_verdict_counts_are_singular_for_one():
    """One line, one strategy: `1 line of 1`, `1 strategy checked` (a 1x1 board whose line loses)."""
    result = check(document_for(small_rules(("1x1", 1, 1, "own", "first-line-loses", 1))))
    assert result.exit_code == 0, result.message
    assert result.message.startswith("VALID table 1x1 board, 1 line of 1, ")
    assert result.message.endswith(": 2 states, 1 edge, root loss, 1 strategy checked")


@pytest.mark.parametrize("spec", SMALL_SPECS, ids=[spec[0] for spec in SMALL_SPECS])
def test_small_certificate_is_valid(spec):
    result = check(document_for(small_rules(spec)))
    assert result.exit_code == 0, result.message


@given(rules=random_rules())
def test_random_game_certificate_is_valid(rules):
    text = certificate_json(build_certificate(rules))
    result = checker.check_bytes(text.encode("utf-8"))
    assert result.exit_code == 0, (rules.canonical(), result.message)


def test_renamed_game_with_rehashed_rules_stays_valid():
    document = json.loads(json.dumps(builtin_document("notakto")))
    document["rules"]["name"] = "a new name, ünïcode"
    document["rules_sha256"] = rules_sha256(document["rules"])
    assert check(document).exit_code == 0


def test_unknown_fields_outside_rules_are_ignored():
    """docs/certificate-format.md, Versioning: old checkers may ignore added optional fields."""
    document = json.loads(json.dumps(builtin_document("notakto")))
    document["comment"] = "an added optional field"
    document["table"]["note"] = 1
    assert check(document).exit_code == 0


def test_strategy_order_does_not_matter():
    document = json.loads(json.dumps(builtin_document("tictactoe")))
    document["strategies"].reverse()
    assert check(document).exit_code == 0
