"""Command-line interface: `certify COMMAND --help` for each command."""

from __future__ import annotations

import os
import sys

from certify.cli import benching, checking, solving, tree  # noqa: F401  (registers commands)
from certify.cli import policy  # noqa: F401  (registers `policy` and `play`)
from certify.cli import audit  # noqa: F401  (registers `audit`, `verify` and `publish`)
from certify.cli import z3  # noqa: F401  (registers `z3`)
from certify.cli import prove  # noqa: F401  (registers `prove`)
from certify.cli import explore  # noqa: F401  (registers `explore`)
from certify.cli.app import EXIT_INTERNAL, app, errors


def main() -> None:
    """Entry point of the `certify` console script; never shows a traceback unless asked."""
    try:
        app()
    except (KeyboardInterrupt, BrokenPipeError):
        sys.exit(130)
    except Exception as err:  # a bug: one line, not a traceback, unless debugging
        if os.environ.get("CERTIFY_DEBUG"):
            raise
        errors.print(f"internal error: {type(err).__name__}: {err} (rerun with CERTIFY_DEBUG=1)")
        sys.exit(EXIT_INTERNAL)
