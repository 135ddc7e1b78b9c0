"""Layer: the bottom, standing apart — the independent checker, importing only the standard library.

Independent minimal checker for certify's proof certificates (standard library only).

`check_file(path)` returns a CheckResult: exit code 0 (VALID), 1 (INVALID: the certificate states
something false) or 2 (ERROR: the input is not a certificate this checker can read, or is over the
work budget), and the one-line verdict

    VALID|INVALID <kind> <game in words> rules sha256 <16 hex> name <ascii(name)>: <summary or failure>

It never raises for any input. One rules module per family, one module per kind.
"""

from dataclasses import dataclass

from checker import pairing, positional, proof, table, uttt
from checker.load import DEFAULT_MAX_BYTES, Invalid, Limits, NotACertificate, load_envelope, parse_json, read_bytes
from checker.load import rules_hash, sha_problem

__all__ = ["DEFAULT_MAX_BYTES", "CheckResult", "Limits", "check_bytes", "check_document", "check_file"]

FAMILIES = {"positional": positional, "uttt": uttt}
KINDS = {"table": table, "strategy": proof, "pairing": pairing}
SHA_SHOWN = 16


@dataclass(frozen=True)
class CheckResult:
    """A verdict: exit_code 0/1/2 and the one-line message starting VALID, INVALID or ERROR."""

    exit_code: int
    message: str


def _guarded(run) -> CheckResult:  # type: ignore[no-untyped-def]
    """Run a check, turning every exception into a verdict (ERROR as the last resort)."""
    try:
        return run()
    except NotACertificate as err:
        return CheckResult(2, f"ERROR: {err}")
    except RecursionError:
        return CheckResult(2, "ERROR: input nested too deeply")
    except MemoryError:
        return CheckResult(2, "ERROR: out of memory while checking")
    except Exception as err:  # a checker bug must never look like VALID or a traceback
        return CheckResult(2, f"ERROR: internal checker failure ({type(err).__name__}: {str(err)[:200]})")


def _refused(limits: Limits, rules_sha256: str | None) -> CheckResult | None:
    """The usage error for an absurd budget or a rules hash that is not 16+ hex digits, or None:
    an empty hash must not mean "any game"."""
    problem = sha_problem(rules_sha256) or limits.problem()
    return CheckResult(2, f"ERROR: {problem}") if problem else None


def check_document(document: object, limits: Limits = Limits(), rules_sha256: str | None = None,
                   progress=None) -> CheckResult:  # type: ignore[no-untyped-def]
    """Check an already-parsed JSON document; with rules_sha256, also that it is about that game."""

    def run() -> CheckResult:
        refused = _refused(limits, rules_sha256)
        if refused:
            return refused
        envelope = load_envelope(document, tuple(KINDS), tuple(FAMILIES))
        family = FAMILIES[envelope.family]
        game = family.parse_rules(envelope.rules)
        sha = rules_hash(envelope.rules)
        head = (f"{envelope.kind} {family.describe(game)} rules sha256 {sha[:SHA_SHOWN]} "
                f"name {ascii(envelope.name[:80])}")
        try:
            if envelope.rules_sha256 != sha:
                raise Invalid(f"rules_sha256 expected {sha}, found {ascii(envelope.rules_sha256)[:80]}")
            if rules_sha256 is not None and not sha.startswith(rules_sha256.lower()):
                raise Invalid(f"not the game asked for: these rules have sha256 {sha}, the game asked for "
                              f"has sha256 {ascii(rules_sha256)[:80]}")
            summary = KINDS[envelope.kind].check(envelope, family, game, limits, progress)
        except Invalid as err:
            return CheckResult(1, f"INVALID {head}: {err}")
        return CheckResult(0, f"VALID {head}: {summary}")

    return _guarded(run)


def check_bytes(data: bytes, limits: Limits = Limits(), rules_sha256: str | None = None,
                progress=None) -> CheckResult:  # type: ignore[no-untyped-def]
    """Check the bytes of a certificate file."""
    return _guarded(lambda: check_document(parse_json(data), limits, rules_sha256, progress))


def check_file(path: str, limits: Limits = Limits(), rules_sha256: str | None = None,
               progress=None) -> CheckResult:  # type: ignore[no-untyped-def]
    """Check the certificate file at path (refusing files over limits.max_bytes)."""

    def run() -> CheckResult:
        data = read_bytes(str(path), limits.max_bytes)
        try:
            document = parse_json(data)
        except NotACertificate as err:  # a file's problem names the file, as certify's readers say it
            raise NotACertificate(f"{path}: {err}") from None
        return check_document(document, limits, rules_sha256, progress)

    return _refused(limits, rules_sha256) or _guarded(run)
