"""The `certify` Typer application, its consoles, and the exit-code conventions (docs/cli.md).

Exit codes: 0 success; 1 a verification failed or a claim was refuted (an invalid certificate,
a disagreement between methods, a REFUTED proof); 2 bad input (unknown game, bad spec,
unreadable or malformed file, bad option, a file that cannot be written); 3 an internal error
(a bug: rerun with CERTIFY_DEBUG=1 for the traceback).

This module stays light: `certify --help` imports it and nothing heavier. Command modules are
imported only when their command runs (certify/cli/registry.py).
"""

from __future__ import annotations

import importlib
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from difflib import get_close_matches
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional

import typer
from rich.console import Console
from rich.markup import escape
from typer import _click as click  # typer >= 0.29 vendors click: Command, Context, exceptions
from typer._click import exceptions as click_errors
from typer.core import TyperCommand, TyperGroup

from certify.cli.options import GAME_HELP  # noqa: F401  (re-exported for command modules)
from certify.cli.registry import COMMANDS

if TYPE_CHECKING:
    from solver.games.positional.rules import Rules

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_INTERRUPTED = 130

console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)



def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    """Print one error line on stderr and return the Exit to raise."""
    errors.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


def option_fail(option: str, problem: Exception | str) -> typer.Exit:
    """`fail` for a bad option value, the option named first in every family and command:
    `--position: position 'zz': expected 3 rows ...`, `--pairs: pair 'zz': expected two cells like 1-2`.
    A file's problem is named by the file, as everywhere (`x.json: is empty`)."""
    from certify.files import FileProblem

    return fail(str(problem) if isinstance(problem, FileProblem) else f"{option}: {problem}")


def choice_words(values: Sequence[str]) -> str:
    """A closed set of values as the errors list them: `win, no-loss or draw`."""
    return ", ".join(values[:-1]) + f" or {values[-1]}" if len(values) > 1 else "".join(values)


def warn(message: str) -> None:
    """One warning line on stderr (the command goes on)."""
    errors.print(f"[yellow]warning:[/] {escape(message)}", soft_wrap=True)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the toolkit's input errors into one line and exit code 2."""
    from certify.record.certificate import CertificateError
    from certify.files import FileProblem
    from solver.games.positional.rules import RulesError

    try:
        yield
    except (RulesError, CertificateError, FileProblem) as err:
        raise fail(str(err)) from None


def not_a_certificate(game: str, certificates_too: bool = False) -> None:
    """Exit 2 if a GAME argument names a certificate file, which only --cert (or CERT) takes."""
    from certify.files import certificate_kind

    if not certificates_too and certificate_kind(game) is not None:
        raise fail(f"{game}: a certify certificate, not a GAME (a built-in name, mnk:R,C,K or a spec file; see `certify games`)")


def load_game(game: str, certificates_too: bool = False) -> Rules:
    """Resolve a positional GAME argument or exit 2 with the reason (another family is named as such).

    `certificates_too`: the command takes a certificate file in GAME's place (tree, explore, z3), so
    a JSON file that is not a game spec is named as neither a game spec nor a certificate."""
    from solver.games.families import FAMILIES
    from solver.games.positional.rules import RulesError, resolve

    not_a_certificate(game, certificates_too)
    family = game.split(":", 1)[0]
    if family in FAMILIES:
        raise fail(f"{game}: this command takes positional games (m,n,k boards and spec files); {family} works with `certify show` and `certify prove`")
    try:
        return resolve(game)
    except RulesError as err:
        said = str(err)
        if certificates_too:
            said = said.replace(f"{game}: not a game spec:", f"{game}: neither a game spec nor a certify certificate:", 1)
        raise fail(said) from None


def load_any_game(game: str) -> Any:
    """Resolve GAME in any family (positional, uttt, ...) or exit 2 with the reason."""
    from solver.games.families import resolve_game

    not_a_certificate(game)
    with user_errors():
        return resolve_game(game)


def load_table_game(game: str, certificates_too: bool = False) -> Rules:
    """Resolve a GAME argument the table solver can take (at most 4x4), or exit 2 saying why."""
    from solver.games.positional.rules import require_table_size

    rules = load_game(game, certificates_too)
    with user_errors():
        require_table_size(rules)
    return rules


def usage_line(err: click_errors.UsageError) -> str:
    """A click usage error as one line: what is wrong and where the help is."""
    param = getattr(err, "param", None)
    if isinstance(err, click_errors.MissingParameter) and param is not None and param.param_type_name == "argument":
        message = f"missing argument {param.metavar or str(param.name).upper()}"
    else:
        message = plain_value_error(err.format_message().strip().rstrip("."))
        message = message[:1].lower() + message[1:]
    where = err.ctx.command_path if err.ctx is not None else "certify"
    return f"{where}: {message} (see '{where} --help')"


class Terminated(SystemExit, KeyboardInterrupt):
    """SIGTERM, raised where the program is, so it unwinds (exit 143) and says so.

    It is also a KeyboardInterrupt so that a search stops on it as on Ctrl-C: it reports its root
    numbers and saves its --checkpoint instead of losing hours of work."""


TERMINATED: list[int] = []  # the SIGTERM exit code, once one arrived (a search may have caught it)


def stop_on_sigterm() -> None:
    """Make SIGTERM unwind like Ctrl-C (exit 143), so an interrupted write removes its temporary file."""

    def terminate(signum: int, _frame: object) -> None:
        TERMINATED.append(128 + signum)
        raise Terminated(128 + signum)

    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, terminate)


def conventional(command: click.Command) -> click.Command:
    """Apply the help conventions to a command and its subcommands: values shown as NAME, choices listed.

    An argument or an option without a metavar is shown by its name in capitals (`--port PORT`,
    not `<int range>`); flags show nothing; closed sets keep their listed choices (`<1|2>`).
    """
    for param in command.params:
        if param.metavar is None and param.name and not getattr(param, "is_flag", False):
            if param.param_type_name == "argument" or getattr(getattr(param, "type", None), "name", "") != "choice":
                param.metavar = param.name.upper()
        if param.param_type_name == "argument" and param.metavar:  # usage `certify solve GAME`, not typer's `{GAME}`
            shown = param.metavar + ("..." if param.nargs != 1 else "")
            shown = shown if param.required else f"[{shown}]"
            param.get_usage_pieces = lambda ctx, shown=shown: [shown]  # type: ignore[method-assign]
        if not getattr(param, "refuses_empty", False):
            param.process_value = refusing_empty(param, param.process_value)  # type: ignore[method-assign]
            param.refuses_empty = True  # type: ignore[attr-defined]
    for sub in getattr(command, "commands", {}).values():
        conventional(sub)
    return command


def refusing_empty(param: click.Parameter, process: Any) -> Any:
    """`param.process_value` that refuses an empty value typed on the command line (`solve ""`,
    `-o ""`) by name, before a type turns it into something else (an empty path is the folder `.`)."""

    def process_value(ctx: click.Context, value: Any) -> Any:
        typed = ctx.get_parameter_source(param.name or "") == click.core.ParameterSource.COMMANDLINE
        if typed and (value == "" or (isinstance(value, (list, tuple)) and "" in value)):
            name = f"argument {param.metavar or str(param.name).upper()}" if param.param_type_name == "argument" else "/".join(param.opts)
            raise click_errors.UsageError(f"{name} is empty", ctx)
        return process(ctx, value)

    return process_value


_NUMBER = re.compile(r"^Invalid value for '([^']+)': '(.*)' is not a valid (int|float)( range)?$", re.S)
_CHOICE = re.compile(r"^Invalid value for '([^']+)': '(.*)' is not one of (.*)$", re.S)
_RANGE = re.compile(r"^Invalid value for '([^']+)': (\S+) is not in the range (.*)$", re.S)


def plain_value_error(message: str) -> str:
    """Click's bad-value messages in our words: `--player 3: must be 1 or 2`, `--depth 9: must be 1..8`,
    `--max-nodes abc: must be a whole number`."""
    if match := _NUMBER.match(message):
        option, value, kind, _ = match.groups()
        return f"{option} {value}: must be {'a whole number' if kind == 'int' else 'a number'}"
    if match := _CHOICE.match(message):
        option, value, choices = match.groups()
        names = re.findall(r"'([^']*)'", choices)
        return f"{option} {value}: must be {choice_words(names) if names else choices}"
    if match := _RANGE.match(message):
        option, value, bounds = match.groups()
        low = re.search(r"^(-?[\d.]+)<=?x", bounds)
        high = re.search(r"x<=?(-?[\d.]+)$", bounds)
        if low and high:
            return f"{option} {value}: must be in {low.group(1)}..{high.group(1)}"
        if only := re.search(r"x(>=?|<=?)(-?[\d.]+)", bounds):
            return f"{option} {value}: must be {'at least' if only.group(1)[0] == '>' else 'at most'} {only.group(2)}"
        return f"{option} {value}: out of range {bounds}"
    return message


class CertifyGroup(TyperGroup):
    """The root command: subcommands are imported when they run; every error is one line.

    `certify --help` lists the commands from the registry without importing any of them.
    """

    listing = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, summary = COMMANDS[cmd_name]
        if self.listing:  # help listing: the registry's summary is enough
            return TyperCommand(name=cmd_name, short_help=summary, help=summary)
        if cmd_name not in self.commands:
            importlib.import_module(module)
            built = typer.main.get_command(app)
            assert isinstance(built, TyperGroup), f"{module} defines no command"
            self.commands[cmd_name] = built.commands[cmd_name]
        return conventional(self.commands[cmd_name])  # idempotent: also for commands registered before

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.listing = False

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in COMMANDS:
            close = get_close_matches(name, COMMANDS, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""  # usage_line adds where the help is
            raise click_errors.UsageError(f"no such command '{name}'{hint}", ctx)
        return super().resolve_command(ctx, args)

    def main(  # type: ignore[override]
        self, args: Sequence[str] | None = None, prog_name: str | None = None, standalone_mode: bool = True, **extra: Any
    ) -> NoReturn:
        """Run, then exit with the documented code: usage errors and bugs are one line on stderr."""
        stop_on_sigterm()
        try:
            code = super().main(args, prog_name=prog_name or "certify", standalone_mode=False, **extra)
        except click_errors.NoArgsIsHelpError as err:
            err.show()
            code = EXIT_BAD_INPUT
        except click_errors.UsageError as err:
            errors.print(f"[bold red]error:[/] {escape(usage_line(err))}", soft_wrap=True)
            code = EXIT_BAD_INPUT
        except click.ClickException as err:
            errors.print(f"[bold red]error:[/] {escape(err.format_message())}", soft_wrap=True)
            code = err.exit_code
        except Terminated as stop:
            code = stop.code
        except (typer.Abort, KeyboardInterrupt, EOFError):
            if not TERMINATED:  # click turns a SIGTERM (a KeyboardInterrupt too) into Abort
                errors.print("interrupted")
            code = EXIT_INTERRUPTED
        except BrokenPipeError:
            code = EXIT_INTERRUPTED
        except Exception as err:  # a bug: one line, not a traceback, unless debugging
            if os.environ.get("CERTIFY_DEBUG"):
                raise
            errors.print(f"[bold red]internal error:[/] {escape(f'{type(err).__name__}: {err}')} (rerun with CERTIFY_DEBUG=1)", soft_wrap=True)
            code = EXIT_INTERNAL
        if TERMINATED:  # the command stopped on SIGTERM, maybe after a search caught it and saved its work
            errors.print("terminated (SIGTERM)")
            code = TERMINATED[0]
        sys.exit(code if isinstance(code, int) else EXIT_OK)


app = typer.Typer(
    name="certify",
    cls=CertifyGroup,
    help="Settle claims about small finite games with machine-checkable proof certificates.",
    epilog="Exit codes: 0 ok · 1 verification failed or claim refuted · 2 bad input · 3 internal error (docs/cli.md).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def show_version(value: bool) -> None:
    """`certify --version`: print the version and stop."""
    if value:
        from certify.version import __version__

        console.print(f"certify {__version__}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def root(
    version: Annotated[Optional[bool], typer.Option("--version", callback=show_version, is_eager=True, help="Print the version and exit.")] = None,
) -> None:
    """Settle claims about small finite games with machine-checkable proof certificates."""
