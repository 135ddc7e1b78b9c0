"""certify: settle claims about small finite games with machine-checkable proof.

The notebook API (docs/api.md), loaded on first use so `import certify` stays instant:
`game`, `solve`, `prove`, `load`, `check`, `audit_claims` and the `Certified`, `Position`, `Proof`,
`Verdict` types. Every bad input it is given raises `CertifyError`, with one line saying what is wrong.
"""

from certify.errors import CertifyError
from certify.version import __version__

_API = ("Certified", "Position", "Proof", "Verdict", "audit_claims", "check", "game", "load", "prove", "solve")
__all__ = ["__version__", "CertifyError", *_API]


def __getattr__(name: str) -> object:
    """Import the API module the first time one of its names is used (PEP 562)."""
    if name in _API:
        from certify import api

        return getattr(api, name)
    raise AttributeError(f"module 'certify' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_API])
