"""certify: settle claims about small finite games with machine-checkable proof.

The notebook API (docs/api.md), loaded on first use so `import certify` stays instant:
`game`, `start`, `solve`, `prove`, `pairing`, `load`, `check`, `audit_claims` and the `Position` (a game
loop for every family), `Certified`, `Proof`, `PairingResult`, `Verdict` and `Audit` types. Every bad input it is given raises
`CertifyError`, with one line saying what is wrong.
"""

from certify.errors import CertifyError
from certify.version import __version__

_API = ("Audit", "Certified", "PairingResult", "Position", "Proof", "Value", "ValuedMove", "Verdict", "audit_claims", "check", "game",
        "load", "pairing", "prove", "solve", "start")
__all__ = ["__version__", "CertifyError", *_API]


def __getattr__(name: str) -> object:
    """Import the API module the first time one of its names is used (PEP 562)."""
    if name in _API:
        from certify import api

        return getattr(api, name)
    raise AttributeError(f"module 'certify' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])
