"""The checker on boards beyond 3x3: its verdicts agree with the solver's values.

3x4 and 4x3 boards run by default; every 4x4 board of the family (classic, misère, wild; K=3 and
K=4) is slow-marked (`python -m pytest -m slow tests/test_checker_scale.py`): each solve takes
minutes and gigabytes with today's solver, so they run one at a time.
"""

from __future__ import annotations

import pytest

import checker
from certify.certificate import build_certificate, certificate_json
from solver.retrograde import solve
from solver.rules import resolve

SMALL = ["mnk:3,4,3", "mnk:4,3,3", "mnk:3,4,3,wild", "mnk:4,3,3,misere"]
LARGE = [f"mnk:4,4,{k}{flag}" for k in (3, 4) for flag in ("", ",misere", ",wild")]
WORDS = {1: "win", 0: "draw", -1: "loss"}


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
