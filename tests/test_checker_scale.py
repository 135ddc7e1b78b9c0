"""The checker on boards beyond 3x3: its verdicts agree with the solver's values.

3x4 and 4x3 boards run by default; every 4x4 board of the family (classic, misère, wild, wild
misère; K=3 and K=4) is slow-marked (`python -m pytest -m slow tests/test_checker_scale.py`): each
check takes from 15 s to 3 minutes (docs/benchmarks.md, "Checker at scale").
"""

from __future__ import annotations

import re

import pytest

import checker
from certify.record.certificate import build_certificate, certificate_json
from solver.search.retrograde import solve
from solver.games.positional.rules import resolve

SMALL = ["mnk:3,4,3", "mnk:4,3,3", "mnk:3,4,3,wild", "mnk:4,3,3,misere"]
LARGE = [f"mnk:4,4,{k}{flag}" for k in (3, 4) for flag in ("", ",misere", ",wild", ",wild,misere")]
WORDS = {1: "win", 0: "draw", -1: "loss"}


def certificate_bytes(game: str) -> bytes:
    return certificate_json(build_certificate(resolve(game))).encode()


def checked(game: str, limits: checker.Limits) -> None:
    rules = resolve(game)
    solution = solve(rules)
    text = certificate_json(build_certificate(rules, solution))
    result = checker.check_bytes(text.encode(), limits, rules.sha256())
    assert result.exit_code == 0, result.message
    assert f"{len(solution):,} states" in result.message
    assert f"root {WORDS[int(solution.values[0])]}" in result.message


@pytest.mark.parametrize("game", SMALL)
def test_checker_agrees_with_the_solver_on_3x4_boards(game):
    checked(game, checker.Limits())


@pytest.mark.slow
@pytest.mark.parametrize("game", LARGE)
def test_checker_agrees_with_the_solver_on_4x4_boards(game):
    checked(game, checker.Limits(max_states=3**16, max_work=10**10))


def test_over_budget_names_the_budget_that_checks_the_file():
    data = certificate_bytes("mnk:3,4,3")
    refused = checker.check_bytes(data, checker.Limits(max_states=1000, max_work=1000))
    assert refused.exit_code == 2 and "over the work budget" in refused.message
    states, work = map(int, re.search(r"--max-states (\d+) --max-work (\d+)$", refused.message).groups())
    assert checker.check_bytes(data, checker.Limits(max_states=states, max_work=work)).exit_code == 0
    assert checker.check_bytes(data, checker.Limits(max_states=states, max_work=work - 1)).exit_code == 2
    assert checker.check_bytes(data, checker.Limits(max_states=states - 1, max_work=work)).exit_code == 2
