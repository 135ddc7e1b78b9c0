"""`certify check`: schema validation, then the independent checker's verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

import checker
from certify.certificate import read_certificate
from certify.files import readable_file
from certify.cli.app import EXIT_OK, app, console, errors, user_errors


@app.command()
def check(
    certificate: Annotated[Path, typer.Argument(help="A certificate file written by `certify solve`.", show_default=False)],
    max_bytes: Annotated[int, typer.Option("--max-bytes", min=1, help="Refuse files larger than this.")] = checker.DEFAULT_MAX_BYTES,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Validate CERTIFICATE against the schema, then re-verify it with the independent checker.

    Exit 0 VALID, 1 INVALID (the certificate states something false), 2 not a certificate.

    Example: certify check certificates/w3t.json
    """
    with user_errors():
        readable_file(certificate, "certificate")
    if certificate.stat().st_size <= max_bytes:
        with user_errors():
            read_certificate(certificate)  # a schema error gives the field by name, exit 2
    result = checker.check_file(str(certificate), max_bytes=max_bytes)
    if json_out:
        console.print_json(json.dumps({"file": str(certificate), "exit_code": result.exit_code, "verdict": result.message}))
    elif result.exit_code == EXIT_OK:
        console.print(f"[bold green]✓[/] {result.message}")
    else:
        errors.print(f"[bold red]✗[/] {result.message}", soft_wrap=True)
    raise typer.Exit(result.exit_code)

