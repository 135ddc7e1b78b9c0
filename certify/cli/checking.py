"""`certify check`: schema validation, then the independent checker's verdict."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

import checker
from certify.certificate import read_certificate
from certify.files import readable_file
from certify.cli.app import EXIT_FAILED, EXIT_OK, app, console, errors, user_errors


@contextmanager
def checking_status(path: Path, enabled: bool) -> Iterator[None]:
    """A spinner with the elapsed time on stderr while the checker runs (terminal only)."""
    if not enabled or not errors.is_terminal:
        yield
        return
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=errors, transient=True) as bar:
        bar.add_task(f"independent checker: {escape(str(path))}", total=None)
        yield


@app.command()
def check(
    certificate: Annotated[Path, typer.Argument(help="A certificate file written by `certify solve` or `certify prove`, or a folder of them (`certify prove --batch`).", show_default=False)],
    max_bytes: Annotated[int, typer.Option("--max-bytes", min=1, help="Refuse files larger than this.")] = checker.DEFAULT_MAX_BYTES,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Validate CERTIFICATE against the schema, then re-verify it with the independent checker.

    Exit 0 VALID, 1 INVALID (the certificate states something false), 2 not a certificate.

    A folder: every *.json file in it, one verdict line each; exit 0 if all are VALID, 1 if any
    is INVALID, else 2 if any is not a certificate.

    Example: certify check certificates/w3t.json
    """
    if certificate.is_dir():
        from certify.cli.parallel import check_folder

        check_folder(certificate, max_bytes, json_out)
    with user_errors():
        readable_file(certificate, "certificate")
    if certificate.stat().st_size <= max_bytes:
        with user_errors():
            read_certificate(certificate)  # a schema error gives the field by name, exit 2
    with checking_status(certificate, not json_out):
        result = checker.check_file(str(certificate), max_bytes=max_bytes)
    if json_out:
        console.print_json(json.dumps({"file": str(certificate), "exit_code": result.exit_code, "verdict": result.message}))
    elif result.exit_code == EXIT_OK:
        console.print(f"[bold green]✓[/] {escape(result.message)}", soft_wrap=True)
    elif result.exit_code == EXIT_FAILED:  # a verdict, not an error: stdout
        console.print(f"[bold red]✗[/] {escape(result.message)}", soft_wrap=True)
    else:  # not a certificate: an error, one line on stderr
        errors.print(f"[bold red]error:[/] {escape(result.message)}", soft_wrap=True)
    raise typer.Exit(result.exit_code)

