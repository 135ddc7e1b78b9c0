"""`certify verify`: solve, certify, re-check three independent ways, and audit the papers' claims.

Steps: solve and write the certificate; read it back against the schema; run the independent
checker on the file, and the verified checker (verified/, when built); prove the root value with
Z3; audit the claims files about the game. The verification passes when these agree (a verified
checker not built, or a Z3 timeout, is not a disagreement); refuted paper claims are findings,
not failures.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from certify.claims.load import ClaimsFileError, load_claims
from certify.claims.facts import Bench, GameFacts
from certify.claims.result import ClaimResult
from certify.claims.run import audit_file
from certify.record.certificate import CertificateError, fitting_limits, read_certificate, write_certificate
from certify.files import FileProblem
from certify.limits import TimedOut, run_bounded
from certify.pipeline import default_filename, solve_and_certify
from certify import verified_checker
from certify.render.text import plural
from certify.smt.value import cross_check_root
from checker import check_file
from solver.games.positional.rules import Rules

STEPS = ("solve", "schema", "checker", "verified", "z3", "claims")
STEP_TITLES = {
    "solve": "solve and write the certificate",
    "schema": "read it back against the schema",
    "checker": "independent checker (stdlib only)",
    "verified": "verified checker (proved in Rocq)",
    "z3": "Z3 proves the root value",
    "claims": "audit the published claims",
}


@dataclass(frozen=True)
class Step:
    """One step's outcome: ok True/False, or None when skipped; a one-line detail."""

    name: str
    ok: bool | None
    detail: str
    seconds: float


@dataclass
class Verification:
    """Everything `certify verify` found."""

    game: str
    rules: Rules
    path: Path
    steps: list[Step] = field(default_factory=list)
    claims: list[ClaimResult] = field(default_factory=list)
    claims_files: list[Path] = field(default_factory=list)
    root_value: str = ""
    root_margin: int | None = None
    states: int = 0
    sha256: str = ""

    @property
    def ok(self) -> bool:
        """Solving, schema and checker pass, and neither Z3 nor the verified checker disagrees (unknown,
        not built or not read is not a disagreement).

        Claims are findings, not part of the verdict.
        """
        passed = {s.name: s.ok for s in self.steps}
        return (all(passed.get(name) for name in ("solve", "schema", "checker")) and passed.get("z3", False) is not False
                and passed.get("verified") is not False)

    def as_dict(self) -> dict:
        """JSON-ready form."""
        return {
            "game": self.game,
            "rules_name": self.rules.name,
            "certificate": self.path.as_posix(),
            "sha256": self.sha256,
            "states": self.states,
            "root_value": self.root_value,
            "root_margin": self.root_margin,
            "verified": self.ok,
            "steps": [{"name": s.name, "ok": s.ok, "detail": s.detail, "seconds": round(s.seconds, 4)} for s in self.steps],
            "claims_files": [p.as_posix() for p in self.claims_files],
            "claims": [c.as_dict() for c in self.claims],
        }


StepHook = Callable[[str, Step | None], None]
"""Called with (step name, None) when a step starts and (step name, outcome) when it ends."""


def same_game(a: Rules, b: Rules) -> bool:
    """Whether two rule sets describe the same game, whatever they are called."""
    return a.canonical() | {"name": ""} == b.canonical() | {"name": ""}


def verify(
    game: str,
    rules: Rules,
    out: Path | None = None,
    claims_dir: Path | None = Path("certificates/claims"),
    smt_timeout: float = 120.0,
    hook: StepHook | None = None,
) -> Verification:
    """Run every step; a failed step stops the ones that depend on it."""
    path = Path(out) if out is not None else Path(default_filename(rules))
    report = Verification(game, rules, path)
    bench = Bench(smt_timeout=smt_timeout)

    def run(name: str, action: Callable[[], tuple[bool | None, str]]) -> bool | None:
        if hook:
            hook(name, None)
        start = time.perf_counter()
        ok, detail = action()
        step = Step(name, ok, detail, time.perf_counter() - start)
        report.steps.append(step)
        if hook:
            hook(name, step)
        return ok

    def solve_step() -> tuple[bool, str]:
        solved = solve_and_certify(rules, game)
        facts = GameFacts(game, rules, solved, smt_timeout=smt_timeout)
        bench.add(facts)
        claim = solved.certificate.claim
        report.root_value, report.root_margin, report.states = claim.root_value, claim.root_margin, len(solved.solution)
        report.sha256 = facts.sha256
        try:
            write_certificate(solved.certificate, path)
        except FileProblem as err:
            return False, str(err)
        return True, f"{len(solved.solution):,} states, root {claim.root_value}; wrote {path} ({len(solved.text.encode()):,} bytes)"

    def schema_step() -> tuple[bool, str]:
        try:
            certificate = read_certificate(path)
        except CertificateError as err:
            return False, str(err)
        return True, f"format {certificate.format} v{certificate.version}, rules sha256 {certificate.rules_sha256[:12]}…"

    def checker_step() -> tuple[bool, str]:
        # our own certificate: a budget that fits it, and it must be about these rules
        result = check_file(str(path), fitting_limits(rules, report.states), rules.sha256())
        return result.exit_code == 0, result.message

    def verified_step() -> tuple[bool | None, str]:
        # both checkers' verdicts where both read the file; skipped (None) when it is not built
        result = verified_checker.run(path, fitting_limits(rules, report.states), rules.sha256())
        if result is None:
            return None, verified_checker.NOT_BUILT
        return (None if result.exit_code == verified_checker.NOT_READ else result.exit_code == 0), result.message

    def z3_step() -> tuple[bool | None, str]:
        try:  # in a child process killed at the time limit: the limit holds whatever Z3 is doing
            result = run_bounded(smt_timeout, cross_check_root, rules, report.root_value, smt_timeout)
        except TimedOut:
            return None, f"unknown (timeout after {smt_timeout:g} s)"
        except MemoryError:
            return None, "unknown (out of memory)"
        if result.status == "unknown":
            return None, f"{result.check}: unknown (timeout after {smt_timeout:g} s)"
        return result.status == "proved", f"{result.check}: {result.status}"

    def claims_step() -> tuple[bool, str]:
        try:
            files = _claims_files(claims_dir, rules)
            for claims_path in files:
                audit = audit_file(claims_path, bench, games=_matching_names(claims_path, rules))
                report.claims.extend(audit.results)
        except ClaimsFileError as err:
            return False, str(err)
        report.claims_files = files
        if not files:
            return True, "no claims file is about this game"
        return True, f"{plural(len(report.claims), 'claim')} from {', '.join(p.name for p in files)}"

    if run("solve", solve_step) and run("schema", schema_step) and run("checker", checker_step):
        run("verified", verified_step)
        run("z3", z3_step)
        run("claims", claims_step)
    return report


def _claims_files(claims_dir: Path | None, rules: Rules) -> list[Path]:
    """Claims files with at least one claim about this game."""
    if claims_dir is None or not Path(claims_dir).is_dir():
        return []
    return [path for path in sorted(Path(claims_dir).glob("*.toml")) if _matching_names(path, rules)]


def _matching_names(path: Path, rules: Rules) -> set[str]:
    """The game names used in a claims file that denote `rules` (claims about another family, such
    as uttt, never do)."""
    from solver.games.families import resolve_game

    names = set()
    for claim in load_claims(path).claim:
        other = resolve_game(claim.game).rules
        if isinstance(other, Rules) and same_game(other, rules):
            names.add(claim.game)
    return names
