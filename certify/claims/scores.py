"""Claims about final line scores (most-lines games) and the range of an evaluation function."""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import Field, model_validator

from certify.claims.base import ClaimBase, describe
from certify.claims.facts import Bench, GameFacts
from certify.claims.result import ClaimError, Reading, single
from certify.papers.td import tcd_range

Pair = tuple[int, int]


def final_scores(facts: GameFacts) -> dict[Pair, int]:
    """(|T1|, |T2|) of every reachable final board → one such board's code (the smallest)."""
    if facts.rules.marks != "own":
        raise ClaimError(f"line scores need players who own their marks; {facts.rules.name} has marks '{facts.rules.marks}'")
    solution = facts.solution
    codes = solution.codes[solution.terminal]
    boards = facts.game.decode(codes)
    t1 = sum((boards[:, list(line)] == 1).all(axis=1).astype(int) for line in facts.rules.lines)
    t2 = sum((boards[:, list(line)] == 2).all(axis=1).astype(int) for line in facts.rules.lines)
    found: dict[Pair, int] = {}
    for a, b, code in zip(np.asarray(t1).tolist(), np.asarray(t2).tolist(), codes.tolist()):
        found.setdefault((a, b), code)
    return dict(sorted(found.items()))


def _pairs_text(pairs: list[Pair] | set[Pair]) -> str:
    return ", ".join(f"({a},{b})" for a, b in sorted(pairs))


class FinalScores(ClaimBase):
    """Over all plays, the pair (|T1|, |T2|) of complete lines takes exactly the listed values."""

    kind: Literal["final_scores"]
    pairs: list[Pair] = Field(min_length=1)

    def says(self) -> str:
        return f"exactly {_pairs_text(self.pairs)}"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        found = final_scores(facts)
        stated = set(self.pairs)
        extra = [f"({a},{b}) occurs, e.g. {describe(facts.game, found[a, b])}" for a, b in found if (a, b) not in stated]
        missing = [f"({a},{b}) never occurs" for a, b in sorted(stated - set(found))]
        return single("(|T1|, |T2|) over every reachable final board", _pairs_text(set(found)), not extra and not missing, "; ".join(extra + missing))


class ScoreBounds(ClaimBase):
    """Bounds on final line counts: t1 and t2 as [least, greatest], and on their sum."""

    kind: Literal["score_bounds"]
    t1: Pair
    t2: Pair
    total_max: int | None = None

    def says(self) -> str:
        total = "" if self.total_max is None else f", |T1|+|T2| ≤ {self.total_max}"
        return f"{self.t1[0]} ≤ |T1| ≤ {self.t1[1]}, {self.t2[0]} ≤ |T2| ≤ {self.t2[1]}{total}"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        found = final_scores(facts)
        broken = [
            f"({a},{b}) e.g. {describe(facts.game, code)}"
            for (a, b), code in found.items()
            if not (self.t1[0] <= a <= self.t1[1] and self.t2[0] <= b <= self.t2[1])
            or (self.total_max is not None and a + b > self.total_max)
        ]
        t1 = [a for a, _ in found]
        t2 = [b for _, b in found]
        measured = f"{min(t1)} ≤ |T1| ≤ {max(t1)}, {min(t2)} ≤ |T2| ≤ {max(t2)}, |T1|+|T2| ≤ {max(a + b for a, b in found)}"
        return single("every reachable final board", measured, not broken, "; ".join(broken))


EVALUATIONS = {"tcd": "d_TCD, the triplet-coverage difference (certify.papers.td.tcd)"}


class EvaluationRange(ClaimBase):
    """An evaluation function's values over the reachable states lie in [least, greatest]."""

    kind: Literal["evaluation_range"]
    function: Literal["tcd"]
    range: Pair

    @model_validator(mode="after")
    def _ordered(self) -> EvaluationRange:
        if self.range[0] > self.range[1]:
            raise ValueError("range must be [least, greatest]")
        return self

    def says(self) -> str:
        return f"{self.function} in [{self.range[0]}, {self.range[1]}]"

    def evaluate(self, facts: GameFacts, bench: Bench) -> list[Reading]:
        spans = tcd_range(facts.solution)
        lo, hi = self.range
        readings = []
        for scope, (least, greatest) in (
            ("for the side to move, over non-terminal states", spans.side_to_move),
            ("for the side to move, over every reachable state", spans.side_to_move_all),
            ("for player 1, over non-terminal states", spans.player1_view),
        ):
            measured = f"[{least}, {greatest}]"
            readings.append(Reading(f"{EVALUATIONS[self.function]} {scope}: every value within the bounds", measured, lo <= least and greatest <= hi))
            readings.append(Reading(f"{EVALUATIONS[self.function]} {scope}: the bounds are the extremes", measured, (least, greatest) == (lo, hi)))
        return readings
