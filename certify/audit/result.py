"""What an audit produces: readings of a claim, a verdict, the evidence behind them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Verdict = Literal["holds", "refuted", "ambiguous", "not evaluated"]


class ClaimError(ValueError):
    """A claim that cannot be evaluated as written (bad board, unknown quantity...): one line."""


@dataclass(frozen=True)
class Reading:
    """One way to read a claim, what was measured under it, and whether the claim then holds.

    `holds` is None when this reading could not be evaluated (a missing optional component).
    `witness` is a concrete example or counterexample that anyone can re-check.
    """

    name: str
    measured: str
    holds: bool | None
    witness: str = ""


@dataclass(frozen=True)
class Exhibit:
    """A table shown with a claim's verdict (e.g. the source's dump beside certify's)."""

    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class ClaimResult:
    """The audit of one claim: every reading of it, and why the verdict is what it is.

    `reasons` are claim-specific explanations computed by the claim's kind (e.g. which words of
    the source a disagreeing reading ignores); `note` is the claims file's remark about the source.
    """

    id: str
    where: str
    game: str
    kind: str
    statement: str
    says: str
    readings: list[Reading]
    evidence: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    note: str = ""
    exhibits: list[Exhibit] = field(default_factory=list)

    @property
    def verdict(self) -> Verdict:
        """`holds`/`refuted` when every evaluated reading agrees, `ambiguous` when they differ."""
        outcomes = {r.holds for r in self.readings}
        if None in outcomes or not outcomes:
            return "not evaluated"
        if outcomes == {True}:
            return "holds"
        if outcomes == {False}:
            return "refuted"
        return "ambiguous"

    def as_dict(self) -> dict:
        """JSON-ready form."""
        return {
            "id": self.id,
            "where": self.where,
            "game": self.game,
            "kind": self.kind,
            "statement": self.statement,
            "says": self.says,
            "verdict": self.verdict,
            "readings": [
                {"name": r.name, "measured": r.measured, "holds": r.holds, "witness": r.witness}
                for r in self.readings
            ],
            "evidence": self.evidence,
            "reasons": self.reasons,
            "note": self.note,
            "exhibits": [
                {"caption": e.caption, "header": list(e.header), "rows": [list(row) for row in e.rows]}
                for e in self.exhibits
            ],
        }


def some(items: list[str], limit: int = 3) -> str:
    """The first `limit` items joined, with how many more were left out."""
    shown = "; ".join(items[:limit])
    return shown + (f"; … ({len(items) - limit} more)" if len(items) > limit else "")


def single(name: str, measured: str, holds: bool, witness: str = "") -> list[Reading]:
    """The readings of a claim that admits only one reading."""
    return [Reading(name, measured, holds, witness)]
