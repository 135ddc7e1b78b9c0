"""`certify check`: schema validation, then the independent checker's verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.markup import escape

import checker
from certify.certificate import CertificateError, read_certificate
from certify.cli.app import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, app, console, errors, fail, user_errors


@app.command()
def check(
    certificate: Annotated[Path, typer.Argument(help="A certificate file, or a folder: every *.json certificate in it.", show_default=False)],
    max_bytes: Annotated[int, typer.Option("--max-bytes", min=1, help="Refuse files larger than this.")] = checker.DEFAULT_MAX_BYTES,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Validate CERTIFICATE against the schema, then re-verify it with the independent checker.

    Exit 0 VALID, 1 INVALID (the certificate states something false), 2 not a certificate.
    A folder (e.g. the output of `certify prove --batch`): every *.json file in it, one line each;
    exit 0 if all are VALID, 1 if any is INVALID, else 2 if any is not a certificate.
    """
    if certificate.is_dir():
        check_folder(certificate, max_bytes, json_out)
    if not certificate.is_file():
        raise fail(f"{certificate}: no such file")
    with user_errors():
        validate_schema(certificate, max_bytes)
    result = checker.check_file(str(certificate), max_bytes=max_bytes)
    code, message = result.exit_code, result.message
    if json_out:
        console.print_json(json.dumps({"file": str(certificate), "exit_code": code, "verdict": message}))
    elif code == EXIT_OK:
        console.print(f"[bold green]✓[/] {message}")
    else:
        errors.print(f"[bold red]✗[/] {message}", soft_wrap=True)
    raise typer.Exit(code)


def validate_schema(path: Path, max_bytes: int) -> None:
    """Schema-validate `path` unless it is too large to read (the checker then refuses it)."""
    if path.stat().st_size <= max_bytes:
        read_certificate(path)  # a schema error gives the field by name


def check_one(path: Path, max_bytes: int) -> tuple[int, str]:
    """(exit code, verdict line) of one file: the schema first, then the independent checker."""
    try:
        validate_schema(path, max_bytes)
    except CertificateError as err:
        return EXIT_BAD_INPUT, str(err)
    result = checker.check_file(str(path), max_bytes=max_bytes)
    return result.exit_code, result.message


def check_folder(folder: Path, max_bytes: int, json_out: bool) -> NoReturn:
    """Check every *.json file in `folder` (sorted by name) and exit with the folder's code."""
    files = sorted(folder.glob("*.json"))
    if not files:
        raise fail(f"{folder}: no .json files to check")
    results = [(path, *check_one(path, max_bytes)) for path in files]
    codes = {code for _, code, _ in results}
    exit_code = EXIT_FAILED if EXIT_FAILED in codes else max(codes)
    if json_out:
        console.print_json(json.dumps({"folder": str(folder), "exit_code": exit_code,
                                       "files": [{"file": str(p), "exit_code": c, "verdict": m} for p, c, m in results]}))
    else:
        for path, code, message in results:
            mark = "[bold green]✓[/]" if code == EXIT_OK else "[bold red]✗[/]"
            console.print(f"{mark} {escape(path.name)}: {escape(message)}", soft_wrap=True)
        valid = sum(code == EXIT_OK for _, code, _ in results)
        console.print(f"{valid} of {len(results)} certificates VALID")
    raise typer.Exit(exit_code)
