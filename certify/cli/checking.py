"""`certify check`: schema validation, then the independent checker's verdict."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

import checker
from certify.record.certificate import fitting_limits, read_any_certificate
from certify.record.schema import StrategyCertificate
from certify.cli.app import EXIT_FAILED, EXIT_OK, app, console, errors, load_any_game, user_errors
from certify.cli.options import GAME_HELP
from certify.files import readable_file
from solver.games.positional.rules import Rules

BUDGET = checker.Limits()
CheckProgress = Callable[[str, int], None]


@contextmanager
def checking_status(path: Path, enabled: bool) -> Iterator[CheckProgress | None]:
    """A spinner with the checker's stage, states and elapsed time on stderr (terminal only)."""
    if not enabled or not errors.is_terminal:
        yield None
        return
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=errors, transient=True) as bar:
        title = f"independent checker: {escape(str(path))}"
        task = bar.add_task(title, total=None)

        def progress(stage: str, states: int) -> None:
            bar.update(task, description=f"{title}: {stage}, {states:,} states")

        yield progress


def fitting_proof_limits(document: StrategyCertificate, limits: checker.Limits) -> checker.Limits:
    """The budget raised (never lowered) to fit the proof a certificate about the game named by
    --game declares: its positions, at most as many as the game has (3**cells boards for a
    positional game), times the checker's work per position for that game. The checker stops as
    soon as the strategy reaches more positions than declared, so the declared count bounds the
    work; without --game the default budget stands (a hostile small file costs seconds)."""
    family = checker.FAMILIES.get(str(document.rules.get("family")))
    if family is None:
        return limits  # the checker names the problem
    try:
        per_position = family.position_work(family.parse_rules(document.rules))
    except (checker.NotACertificate, ValueError, KeyError, TypeError):
        return limits  # rules the checker cannot read: it names the problem
    cells = document.rules.get("rows", 0) * document.rules.get("cols", 0) if document.rules.get("family") == "positional" else None
    positions = document.proof.positions if cells is None else min(document.proof.positions, 3**cells)
    return checker.Limits(max_bytes=limits.max_bytes, max_states=max(limits.max_states, positions),
                          max_work=max(limits.max_work, positions * per_position))


@app.command()
def check(
    certificate: Annotated[Path, typer.Argument(help="A certificate file written by `certify solve` (kind table) or `certify prove` (kind strategy), or a folder of them (`certify prove --batch`).", show_default=False)],
    game: Annotated[Optional[str], typer.Option("--game", metavar="GAME", help=f"INVALID unless the certificate is about this game. {GAME_HELP}", show_default=False)] = None,
    max_states: Annotated[int, typer.Option("--max-states", min=1, help="Work budget: refuse tables of more states, or proofs of more positions (raise it for a 4x4 game or a large proof, or give --game: the budget then fits that game's certificate).")] = BUDGET.max_states,
    max_work: Annotated[int, typer.Option("--max-work", min=1, help="Work budget: refuse more states x lines (a proof: positions x its per-position work).")] = BUDGET.max_work,
    max_bytes: Annotated[int, typer.Option("--max-bytes", min=1, help="Refuse files larger than this.")] = BUDGET.max_bytes,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    verified: Annotated[bool, typer.Option("--verified", help="Also run the verified checker (verified/, proved sound in Rocq; `make -C verified`) and print its verdict; exit with the worse of the two.")] = False,
) -> None:
    """Validate CERTIFICATE against the schema, then re-verify it with the independent checker.

    Exit 0 VALID, 1 INVALID (the certificate states something false, or is about another game than
    --game), 2 not a certificate or over the work budget. With --verified, the verified checker's
    line follows (or one line saying it is not built, or NOT READ: docs/verified-checker.md),
    and the exit code is the worse of the two verdicts it read.

    A folder: every *.json file in it, one verdict line each; exit 0 if all are VALID, 1 if any
    is INVALID, else 2 if any is not a certificate.

    Example: certify check certificates/w3t.json --game w3t
    """
    if certificate.is_dir():
        from certify.cli.parallel import check_folder

        check_folder(certificate, checker.Limits(max_bytes=max_bytes, max_states=max_states, max_work=max_work), game, json_out)
    with user_errors():
        readable_file(certificate, "certificate")
    expected = None
    if game is not None:
        expected = load_any_game(game).rules
    limits = checker.Limits(max_bytes=max_bytes, max_states=max_states, max_work=max_work)
    if certificate.stat().st_size <= max_bytes:
        with user_errors():
            document = read_any_certificate(certificate)  # a schema error gives the field by name, exit 2
        # about the game asked for or INVALID (before any work): the budget may grow to what that game can need
        if expected is not None and document.kind == "table" and isinstance(expected, Rules):
            limits = fitting_limits(expected, document.table.states, limits)
        elif expected is not None and document.kind == "strategy":
            limits = fitting_proof_limits(document, limits)
    sha = None if expected is None else expected.sha256()
    with checking_status(certificate, not json_out) as progress:
        result = checker.check_file(str(certificate), limits, sha, progress)
    asked = None if expected is None else f"--game {game}: {expected.describe()}, rules sha256 {sha}"
    second = verified_verdict(certificate, limits, sha) if verified else None
    if json_out:
        status = {EXIT_OK: "valid", EXIT_FAILED: "invalid"}.get(result.exit_code, "error")
        shown = {"file": str(certificate), "status": status, "valid": result.exit_code == EXIT_OK,
                 "exit_code": result.exit_code, "verdict": result.message, "game": asked}
        if verified:
            shown["verified"] = None if second is None else {"exit_code": second.exit_code, "verdict": second.message}
        console.print_json(json.dumps(shown))
    elif result.exit_code == EXIT_OK:
        console.print(f"[bold green]✓[/] {escape(result.message)}", soft_wrap=True)
    elif result.exit_code == EXIT_FAILED:  # a verdict, not an error: stdout
        console.print(f"[bold red]✗[/] {escape(result.message)}", soft_wrap=True)
        if asked and "not the game asked for" in result.message:
            console.print(f"  asked for {escape(asked)}", soft_wrap=True)
    else:  # not a certificate: an error, one line on stderr
        errors.print(f"[bold red]error:[/] {escape(result.message.removeprefix('ERROR: '))}", soft_wrap=True)
    if verified and not json_out:
        print_verified(second)
    raise typer.Exit(worse(result.exit_code, second) if verified else result.exit_code)


def verified_verdict(certificate: Path, limits: checker.Limits, sha: str | None) -> checker.CheckResult | None:
    """The verified checker's verdict on the file, None when it is not built."""
    from certify import verified_checker

    return verified_checker.run(certificate, limits, sha)


def print_verified(result: checker.CheckResult | None) -> None:
    """The verified checker's line, marked as the stdlib checker's is."""
    from certify import verified_checker

    if result is None:
        errors.print(f"verified checker: {verified_checker.NOT_BUILT}", soft_wrap=True)
    elif result.exit_code == EXIT_OK:
        console.print(f"[bold green]✓[/] verified checker: {escape(result.message)}", soft_wrap=True)
    elif result.exit_code == EXIT_FAILED:
        console.print(f"[bold red]✗[/] verified checker: {escape(result.message)}", soft_wrap=True)
    else:
        errors.print(f"verified checker: {escape(result.message)}", soft_wrap=True)


def worse(code: int, second: checker.CheckResult | None) -> int:
    """The exit code of both verdicts: INVALID if either says so, else ERROR if either does; a
    checker that is not built or does not read the kind adds nothing."""
    from certify import verified_checker

    if second is None or second.exit_code == verified_checker.NOT_READ:
        return code
    codes = {code, second.exit_code}
    return EXIT_FAILED if EXIT_FAILED in codes else max(codes)
