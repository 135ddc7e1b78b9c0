"""The independent checker's budget for one strategy proof: its limits raised to fit the proof.

A strategy certificate states its positions up front, and the checker's work is those positions
times its family's `position_work` (checker/proof.py); a proof larger than the checker's default
budget is checked with exactly that budget, as `python -m checker FILE --max-states N --max-work W`
would be.
"""

from __future__ import annotations

import checker


def proof_limits(document: dict, floor: checker.Limits = checker.Limits()) -> checker.Limits:
    """`floor`, raised to the positions and work of the proof `document` (a parsed strategy certificate)."""
    family = checker.FAMILIES[document["rules"]["family"]]
    positions = document["proof"]["positions"]
    checked = max(positions, document["proof"].get("closure_bytes", 0) // 2 if "counts" in document["proof"] else 0)
    work = checked * family.position_work(family.parse_rules(document["rules"]))  # uttt's counts: checker/proof.py
    return checker.Limits(max_states=max(positions, floor.max_states), max_work=max(work, floor.max_work))
