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
from rich.table import Table

from certify.cli.app import EXIT_FAILED, app, console, errors, fail, load_game, option_fail, user_errors
from certify.cli.options import DEFAULT_TIMEOUT, ForceOpt, GameArg, JsonOpt, OutputOpt, Player, TimeoutOpt
from certify.files import CERTIFICATE_MARK, check_output, existing_folder, is_stdout, write_atomic
from certify.limits import TimedOut, run_bounded
from certify.smt.pairing_certificate import PairingSearch, after_opening, pairing_stem, root_position, search_command_line, search_pairing
from certify.render.text import plural

pairing_app = typer.Typer(help="Pairing strategies as certificates: find one that blocks every line open to the opponent.",
                          no_args_is_help=True)
app.add_typer(pairing_app, name="pairing")


def default_output(name: str, player: int) -> Path:
    """`mnk-8-8-8.p2-pairing.json`: the game's file stem, the player, the kind."""
    return Path(f"{pairing_stem(name, player)}.json")


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
    command = search_command_line(game, target, position)
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


def opening_row(cell: int, found: PairingSearch | None, path: Path, timeout: float) -> dict:
    """One opening's row of the table and of --json: what its search said (None: out of time), and
    the file written if it found a pairing."""
    if found is None:
        return {"opening": cell, "status": "unknown", "reply": None, "pairs": None, "file": None,
                "reason": f"not finished within {timeout:g} s"}
    cover = found.cover
    return {"opening": cell, "status": cover.status, "reply": cover.first_move,
            "pairs": None if cover.pairing is None else len(cover.pairing.pairs),
            "file": None if found.text is None else str(path), "reason": cover.reason}


@pairing_app.command("openings")
def openings_command(
    game: GameArg,
    folder: Annotated[Path, typer.Option("--out-dir", metavar="DIR", help="Folder for the certificates (NAME.p2-after-xCELL-pairing.json).")] = Path("."),
    timeout: Annotated[float, typer.Option("--timeout", metavar="SECONDS", min=0.1, help="Bound on each opening's search; then that opening is not settled.")] = DEFAULT_TIMEOUT,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """After each first move of player 1, search a reply of player 2 and a pairing, as `search
    --player 2 --position` does for one opening; write each found as NAME.p2-after-xCELL-pairing.json.

    Where every opening has one, player 2 does not lose: a draw by pairings alone, with player 1's
    own pairing (`search --player 1`). Exit 0 every opening has one (all written, each checked by the
    independent checker), 1 some opening has none or was not settled (the others are written), 2 bad
    input.

    Example: certify pairing openings mnk:6,6,5 --out-dir pairings/
    """
    rules = load_game(game)
    with user_errors():
        existing_folder(folder, "--out-dir", "the certificates go there", writing=True)
    starts = [(cell, after_opening(rules, cell)) for cell in range(rules.cells)]
    paths = {cell: folder / f"{pairing_stem(game, 2, cell)}.json" for cell, _ in starts}
    with user_errors():
        for path in paths.values():  # refuse before any search, not after some
            check_output(path, CERTIFICATE_MARK, force)
    rows = []
    for done, (cell, start) in enumerate(starts):
        command = search_command_line(game, 2, start)
        with waiting(not json_out, f"pairing openings: {rules.name}, player 1's first move on cell {cell} ({done} of {len(starts)} done)"):
            try:
                found = run_bounded(timeout + 1.0, search_pairing, rules, 2, start, timeout, command)
            except ValueError as err:
                raise fail(str(err)) from None
            except TimedOut:
                found = None
        if found is not None and found.text is not None:
            with user_errors():
                write_atomic(paths[cell], found.text)
        rows.append(opening_row(cell, found, paths[cell], timeout))
    every = all(row["status"] == "found" for row in rows)
    if json_out:
        console.print_json(json.dumps({"game": rules.name, "player": 2, "openings": rows, "every_opening": every}))
    else:
        table = Table(title=f"{rules.name}: a reply of player 2 and a pairing after each first move of player 1")
        for column in ("opening", "result", "reply", "pairs", "file"):
            table.add_column(column)
        for row in rows:
            table.add_row(f"cell {row['opening']}", row["status"], "—" if row["reply"] is None else f"cell {row['reply']}",
                          "—" if row["pairs"] is None else str(row["pairs"]), escape(row["file"] or "—"))
        console.print(table)
        found_count = sum(row["status"] == "found" for row in rows)
        if every:
            console.print(f"[bold green]every opening has one[/]: player 2 does not lose in {escape(rules.name)} "
                          f"({plural(found_count, 'certificate')} written, each checked VALID)")
        else:
            console.print(f"[bold red]not every opening[/]: {found_count:,} of {plural(len(rows), 'opening')} have one "
                          "(those written); the rest say why above (--json for the reasons)")
    if not every:
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
