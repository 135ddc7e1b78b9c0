"""The `certify` Typer application, its console, and the exit-code conventions.

Exit codes: 0 success; 1 a verification failed (an invalid certificate, a disagreement between
methods); 2 bad input (unknown game, bad spec, unreadable or malformed file, bad option);
3 an internal error (a bug: rerun with CERTIFY_DEBUG=1 for the traceback).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer
from rich.console import Console
from rich.markup import escape

from certify.certificate import CertificateError
from solver.rules import Rules, RulesError, require_table_size, resolve

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3

app = typer.Typer(
    name="certify",
    help="Settle claims about small finite games with machine-checkable proof certificates.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode="rich",
)
console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)

GAME_HELP = "A built-in name (see `certify games`), mnk:R,C,K[,wild][,misere], or a .json/.toml spec file."


def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    """Print one error line on stderr and return the Exit to raise."""
    errors.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the toolkit's input errors into one line and exit code 2."""
    try:
        yield
    except (RulesError, CertificateError) as err:
        raise fail(str(err)) from None


def load_game(game: str) -> Rules:
    """Resolve a GAME argument or exit 2 with the reason."""
    with user_errors():
        return resolve(game)


def load_table_game(game: str) -> Rules:
    """Resolve a GAME argument the table solver can take (at most 4x4), or exit 2 saying why."""
    with user_errors():
        rules = resolve(game)
        require_table_size(rules)
        return rules
