"""Independent minimal checker for certify's proof certificates (standard library only).

`check_file(path)` returns a CheckResult: exit code 0 (VALID), 1 (INVALID: the certificate states
something false) or 2 (ERROR: the input is not a certificate this checker can read), and the
one-line message. It never raises for any input.
"""

from dataclasses import dataclass

from checker.load import DEFAULT_MAX_BYTES, Invalid, NotACertificate, load_certificate, parse_json, read_bytes
from checker.verify import verify

__all__ = ["DEFAULT_MAX_BYTES", "CheckResult", "check_bytes", "check_document", "check_file"]


@dataclass(frozen=True)
class CheckResult:
    """A verdict: exit_code 0/1/2 and the one-line message starting VALID, INVALID or ERROR."""

    exit_code: int
    message: str


def _shown(name: str) -> str:
    return name if name.isprintable() and len(name) <= 80 else ascii(name[:80])


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


def check_document(document: object) -> CheckResult:
    """Check an already-parsed JSON document."""

    def run() -> CheckResult:
        try:
            summary = verify(load_certificate(document))
        except Invalid as err:  # raised only once the rules, and so the name, have loaded
            return CheckResult(1, f"INVALID {_shown(document['rules']['name'])}: {err}")  # type: ignore[index]
        return CheckResult(0, f"VALID {_shown(document['rules']['name'])}: {summary}")  # type: ignore[index]

    return _guarded(run)


def check_bytes(data: bytes) -> CheckResult:
    """Check the bytes of a certificate file."""
    return _guarded(lambda: check_document(parse_json(data)))


def check_file(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> CheckResult:
    """Check the certificate file at path, refusing files over max_bytes."""
    return _guarded(lambda: check_bytes(read_bytes(str(path), max_bytes)))
