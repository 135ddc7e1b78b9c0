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
) -> None:
    """Validate CERTIFICATE against the schema, then re-verify it with the independent checker.

    Exit 0 VALID, 1 INVALID (the certificate states something false, or is about another game than
    --game), 2 not a certificate or over the work budget.

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
    if json_out:
        status = {EXIT_OK: "valid", EXIT_FAILED: "invalid"}.get(result.exit_code, "error")
        console.print_json(json.dumps({"file": str(certificate), "status": status, "valid": result.exit_code == EXIT_OK,
                                       "exit_code": result.exit_code, "verdict": result.message, "game": asked}))
    elif result.exit_code == EXIT_OK:
        console.print(f"[bold green]✓[/] {escape(result.message)}", soft_wrap=True)
    elif result.exit_code == EXIT_FAILED:  # a verdict, not an error: stdout
        console.print(f"[bold red]✗[/] {escape(result.message)}", soft_wrap=True)
        if asked and "not the game asked for" in result.message:
            console.print(f"  asked for {escape(asked)}", soft_wrap=True)
    else:  # not a certificate: an error, one line on stderr
        errors.print(f"[bold red]error:[/] {escape(result.message.removeprefix('ERROR: '))}", soft_wrap=True)
    raise typer.Exit(result.exit_code)
