"""`certify pairing search`: find a pairing that blocks every line open to the opponent; write it
as a certificate of kind `pairing` (docs/certificate-format.md), checked by `checker` first.

Exit codes: 0 found (certificate written), 1 no pairing exists (the counting bound or Z3's unsat
says why) or not settled within --timeout (nothing written), 2 bad input.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from certify.cli.app import EXIT_FAILED, app, console, errors, fail, load_game, option_fail, user_errors
from certify.cli.options import DEFAULT_TIMEOUT, ForceOpt, GameArg, JsonOpt, OutputOpt, Player, TimeoutOpt
from certify.files import CERTIFICATE_MARK, check_output, file_stem, is_stdout, write_atomic
from certify.limits import TimedOut, run_bounded
from certify.smt.pairing_certificate import PairingSearch, root_position, search_pairing
from certify.render.text import plural

pairing_app = typer.Typer(help="Pairing strategies as certificates: find one that blocks every line open to the opponent.",
                          no_args_is_help=True)
app.add_typer(pairing_app, name="pairing")


def default_output(name: str, player: int) -> Path:
    """`mnk-8-8-8.p2-pairing.json`: the game's file stem, the player, the kind."""
    return Path(f"{file_stem(name)}.p{player}-pairing.json")


@contextmanager
def waiting(enabled: bool, description: str) -> Iterator[None]:
    """A transient spinner on stderr with the elapsed time while the search's child process runs
    (terminal only): the search reports nothing until it ends, and may take its whole timeout."""
    if not enabled or not errors.is_terminal:
        yield
        return
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=errors, transient=True) as bar:
        bar.add_task(escape(description), total=None)
        yield


def summary(found: PairingSearch, path: Path | None) -> dict:
    """What the search found, why, and what it wrote."""
    cover = found.cover
    data: dict[str, object] = {
        "game": found.rules.name,
        "player": found.player,
        "root": found.root,
        "status": cover.status,
        "reason": cover.reason,
        "open_lines": cover.open_lines,
        "free_cells": cover.free_cells,
        "seconds": round(cover.seconds, 3),
    }
    if cover.pairing is not None and found.text is not None and path is not None:
        data.update(first_move=cover.first_move, pairs=len(cover.pairing.pairs), file=str(path),
                    bytes=len(found.text.encode()), checker=found.verdict)
    return data


@pairing_app.command("search")
def search_command(
    game: GameArg,
    player: Annotated[Player, typer.Option("--player", help="The pairing player's side: 1 moves first, 2 second.")] = "1",
    position: Annotated[Optional[str], typer.Option("--position", help="Start here instead of the initial position (rows of X, O and . joined by /).", show_default=False)] = None,
    output: OutputOpt = None,
    timeout: TimeoutOpt = DEFAULT_TIMEOUT,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Find a pairing that blocks every line open to the opponent and write it as a certificate.

    Player P answers each opponent move on the other cell of its pair: the opponent then never
    owns both cells of a pair, so never completes a line holding one, and P does not lose (own
    marks; first-line-wins or most-lines). Counting first (a pair lies in at most so many lines),
    then Z3; when no pairing alone works and P is to move, one query per first move of P, one cell
    per class of cells the position's symmetries exchange. Exit 0 found and written (checked by
    the independent checker first), 1 none exists or not settled in time, 2 bad input.

    Example: certify pairing search mnk:8,8,8 --player 2 -o 888.p2-pairing.json
    """
    rules = load_game(game)
    target = int(player)
    try:
        root_position(rules, target, position)
    except ValueError as err:
        raise option_fail("--position", err) from None
    path = output or default_output(rules.name, target)
    with user_errors():
        check_output(path, CERTIFICATE_MARK, force)  # refuse before the search, not after
    command = " ".join([f"certify pairing search {game} --player {target}",
                        *([f"--position '{position}'"] if position is not None else [])])
    try:
        with waiting(not json_out, f"pairing search: {rules.name}, player {target} (Z3, at most {timeout:g} s)"):
            found = run_bounded(timeout + 1.0, search_pairing, rules, target, position, timeout, command)
    except ValueError as err:
        raise fail(str(err)) from None
    except TimedOut:
        reason = f"not finished within {timeout:g} s; nothing written"
        if json_out:
            console.print_json(json.dumps({"game": rules.name, "player": target, "root": position, "status": "unknown",
                                           "reason": reason}))
        else:
            console.print(f"[yellow]not settled (unknown)[/] {escape(rules.name)}: a pairing for player {target} — {reason}")
        raise typer.Exit(EXIT_FAILED) from None
    if found.text is not None:
        with user_errors():
            write_atomic(path, found.text)
    data = summary(found, path)
    out = errors if is_stdout(path) else console  # the certificate itself may be on stdout
    if json_out:
        out.print_json(json.dumps(data))
    else:
        report(found, data, out)
    if found.certificate is None:
        raise typer.Exit(EXIT_FAILED)


def report(found: PairingSearch, data: dict, out) -> None:  # type: ignore[no-untyped-def]
    """The result in words, the pairing drawn, the file and the checker's verdict."""
    cover = found.cover
    where = "" if found.root is None else f" from {found.root}"
    said = escape(f"{found.rules.name}{where}: a pairing for player {found.player}")
    if cover.pairing is None:
        word = "[bold red]none exists[/]" if cover.status == "none" else "[yellow]not settled (unknown)[/]"
        out.print(f"{word} {said} — {escape(cover.reason)}; nothing written")
        return
    first = "no first move" if cover.first_move is None else f"first move on cell {cover.first_move}"
    out.print(f"[bold green]found[/] {said}: {plural(len(cover.pairing.pairs), 'pair')}, {first}, "
              f"blocking {plural(cover.open_lines, 'open line')} — {escape(cover.reason)} in {cover.seconds:.2f} s")
    out.print(escape(found.drawing()))
    shown = "stdout" if data["file"] == "-" else f"[bold]{escape(str(data['file']))}[/]"
    out.print(f"wrote {shown} ({plural(int(data['bytes']), 'byte')}); {escape(str(found.verdict))}", soft_wrap=True)
