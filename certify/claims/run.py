"""Auditing claims files: evaluate every claim against its solved, checked game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from certify.claims.base import ClaimBase
from certify.claims.load import ClaimsFile, ClaimsFileError, claim_line, load_claims
from certify.claims.facts import Bench
from certify.claims.result import ClaimError, ClaimResult

ClaimHook = Callable[[str, str], None]  # (claim id, game) as each claim starts


@dataclass(frozen=True)
class FileAudit:
    """The audit of one claims file."""

    path: Path
    claims: ClaimsFile
    results: list[ClaimResult]

    def as_dict(self) -> dict:
        """JSON-ready form."""
        return {
            "file": self.path.as_posix(),
            "source": self.claims.source,
            "title": self.claims.title,
            "reference": self.claims.reference,
            "claims": [r.as_dict() for r in self.results],
        }


def evaluate_claim(claim: ClaimBase, bench: Bench) -> ClaimResult:
    """Measure one claim; raises ClaimError when the claim cannot be evaluated as written."""
    facts = bench.facts(claim.game) if claim.solves_game else None
    measured = claim.evaluate(facts, bench)
    readings = claim.choose(measured)
    return ClaimResult(
        id=claim.id,
        where=claim.where,
        game=facts.rules.name if facts else claim.game,
        kind=claim.kind,  # type: ignore[attr-defined]
        statement=claim.statement,
        says=claim.says(),
        readings=readings,
        words=claim.primary.words if claim.primary else "",
        evidence=(facts.evidence() if facts else []) + claim.extra_evidence(facts),
        reasons=claim.reasons(facts, measured),
        note=claim.note,
        exhibits=claim.exhibits(facts, bench),
    )


def audit_file(path: Path, bench: Bench, games: set[str] | None = None, hook: ClaimHook | None = None) -> FileAudit:
    """Load and evaluate a claims file (only the claims about `games`, when given).

    Raises ClaimsFileError (file, line, field) for a malformed file or a claim that cannot be
    evaluated as written.
    """
    claims = load_claims(path)
    results = []
    for index, claim in enumerate(claims.claim):
        if games is not None and claim.game not in games:
            continue
        if hook:
            hook(claim.id, claim.game)
        try:
            results.append(evaluate_claim(claim, bench))
        except ClaimError as err:
            line = claim_line(path, index, err.field)
            raise ClaimsFileError(f"{path}:{line}: claim '{claim.id}': {err}") from None
    return FileAudit(Path(path), claims, results)


def audit_files(paths: Sequence[Path], bench: Bench, hook: ClaimHook | None = None) -> list[FileAudit]:
    """Audit several claims files, loading all first so a malformed one stops the run early."""
    for path in paths:
        load_claims(path)
    return [audit_file(path, bench, hook=hook) for path in paths]

