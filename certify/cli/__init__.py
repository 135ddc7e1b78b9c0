"""Layer: the command line, the top folder — every `certify` command.

Command-line interface: `certify COMMAND --help` for each command (docs/cli.md).

Importing this package is cheap: command modules load when their command runs.
"""

from __future__ import annotations

from certify.cli.app import app


def main() -> None:
    """Entry point of the `certify` console script; exits with the documented code."""
    app()
