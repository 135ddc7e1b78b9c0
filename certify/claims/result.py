"""What an audit produces: readings of a claim, a verdict, the evidence behind them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Verdict = Literal["holds", "refuted", "ambiguous", "not evaluated", "tautology"]
#: how a reading stands in its claim: the one a careful reader takes from the source's words, a
#: plausible other one, or one true by definition (shown, never deciding a verdict)
Role = Literal["primary", "alternative", "tautology"]


class ClaimError(ValueError):
    """A claim that cannot be evaluated as written (bad board, unknown quantity...): one line.

    `field` names the claims-file field at fault when there is one (its line is then reported).
    """

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Reading:
    """One way to read a claim, what was measured under it, and whether the claim then holds.

    `holds` is None when this reading could not be evaluated (a missing optional component).
    `witness` is a concrete example or counterexample that anyone can re-check. `role`, `why` and
    `equally` come from the claims file (`[claim.primary]`, `[[claim.other]]`): the reading's
    standing, why a reader might take it, and the source's sentence that supports it as well as
    the primary one.
    """

    name: str
    measured: str
    holds: bool | None
    witness: str = ""
    role: Role = "primary"
    why: str = ""
    equally: str = ""

    @property
    def verdict(self) -> Verdict:
        """This reading's own verdict; a tautology carries none (true by definition)."""
        if self.role == "tautology":
            return "tautology"
        return {True: "holds", False: "refuted", None: "not evaluated"}[self.holds]


@dataclass(frozen=True)
class Exhibit:
    """A table shown with a claim's verdict (e.g. the source's dump beside certify's)."""

    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class ClaimResult:
    """The audit of one claim: its primary reading first, the others after, and why.

    `words` are the source's words that make the primary reading the one a careful reader takes
    (quoted from the claims file). `reasons` are claim-specific explanations computed by the claim's
    kind (e.g. which words of the source a disagreeing reading ignores); `note` is the claims file's
    remark about the source.
    """

    id: str
    where: str
    game: str
    kind: str
    statement: str
    says: str
    readings: list[Reading]
    words: str = ""
    evidence: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    note: str = ""
    exhibits: list[Exhibit] = field(default_factory=list)

    @property
    def primary(self) -> Reading:
        """The reading whose verdict is the claim's."""
        return next(r for r in self.readings if r.role == "primary")

    @property
    def rivals(self) -> list[Reading]:
        """Readings the source's text supports as well as the primary one, with another verdict."""
        return [r for r in self.readings if r.equally and r.holds is not None and r.holds != self.primary.holds]

    @property
    def verdict(self) -> Verdict:
        """The primary reading's verdict, or `ambiguous` when the text supports a rival equally."""
        if self.primary.holds is not None and self.rivals:
            return "ambiguous"
        return self.primary.verdict

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
            "words": self.words,
            "readings": [
                {"name": r.name, "role": r.role, "measured": r.measured, "holds": r.holds, "verdict": r.verdict,
                 "witness": r.witness, "why": r.why, "equally": r.equally}
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
