"""`certify prove`: proof-number search for one claim, written as a strategy certificate."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Literal, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress as Bar
from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

from certify.cli.app import EXIT_FAILED, app, console, errors, fail, user_errors
from certify.cli.options import GAME_HELP, ForceOpt, JsonOpt
from certify.cli.parallel import DEFAULT_JOB_NODES, BatchOpt, JobNodesOpt, RayAddressOpt, RayOpt, WorkersOpt
from certify.files import CERTIFICATE_MARK, check_output, file_stem, is_stdout
from certify.proving.single import Attempt, CoreUnavailable, prove as run_proof, write_proof
from certify.render.text import plural
from solver.games.families import resolve_game
from solver.search.pns import INF, Claim, Progress

EXIT_INTERRUPTED = 130


def number(value: int) -> str:
    """A proof or disproof number, with ∞ for the search's infinity."""
    return "∞" if value >= INF else f"{value:,}"


@contextmanager
def search_progress(enabled: bool) -> Iterator[Callable[[Progress], None] | None]:
    """A rich status line on stderr: nodes, the root's pn/dn, nodes/s, table entries, memory."""
    if not enabled:
        yield None
        return
    with Bar(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=errors, transient=True) as bar:
        task = bar.add_task("searching", total=None)

        def hook(p: Progress) -> None:
            bar.update(task, description=(
                f"{p.nodes:,} nodes  root pn {number(p.root_pn)} dn {number(p.root_dn)}  "
                f"{p.nodes_per_second:,.0f} nodes/s  {p.entries:,} entries  {p.rss_mb:,.0f} MB"))

        yield hook


def default_output(game_name: str, claim: Claim) -> Path:
    """`mnk-4-4-3.p1-win.json`: the game's name made file-safe, the player and the claim."""
    return Path(f"{file_stem(game_name)}.p{claim.player}-{claim.result}.json")


def summary(attempt: Attempt, path: Path | None) -> dict:
    """What the search did and, if it proved the claim, what it wrote."""
    outcome = attempt.outcome
    data = {
        "claim": {"player": attempt.claim.player, "result": attempt.claim.result, "root": attempt.root},
        "status": outcome.status,
        "root_pn": None if outcome.root_pn >= INF else outcome.root_pn,
        "root_dn": None if outcome.root_dn >= INF else outcome.root_dn,
        "nodes": outcome.nodes,
        "table_entries": outcome.entries,
        "seconds": round(attempt.seconds, 3),
        "nodes_per_second": round(outcome.nodes / outcome.seconds) if outcome.seconds > 0 else None,
        "peak_rss_mb": round(outcome.peak_rss_mb, 1),
        "core": attempt.core,
    }
    if attempt.tree is not None and attempt.text is not None and path is not None:
        data.update(file=str(path), bytes=len(attempt.text.encode()), positions=attempt.tree.positions,
                    prover_moves=len(attempt.tree.moves), depth=attempt.tree.depth)
    return data


@app.command()
def prove(
    game: Annotated[Optional[str], typer.Argument(metavar="GAME", help=GAME_HELP, show_default=False)] = None,
    claim: Annotated[Optional[Literal["win", "no-loss"]], typer.Option("--claim", help="win: the player wins; no-loss: the player wins or draws (needed unless --batch).", show_default=False)] = None,
    player: Annotated[Optional[Literal["1", "2"]], typer.Option("--player", help="The side: 1 moves first, 2 second (needed unless --batch).", show_default=False)] = None,
    position: Annotated[Optional[str], typer.Option("--position", help="Start here instead of the initial position (the family's notation, as `certify show` prints it).")] = None,
    output: Annotated[Optional[Path], typer.Option("-o", "--output", metavar="FILE", help="Certificate file: of the claim, or of its opposite if the claim is disproved (default: NAME.pP-CLAIM.json of the claim certified; - for stdout); with --batch, the folder of certificates.")] = None,
    max_nodes: Annotated[Optional[int], typer.Option("--max-nodes", min=1, help="Stop after this many node expansions.")] = None,
    max_memory: Annotated[Optional[int], typer.Option("--max-memory", min=16, metavar="MB", help="Stop when the process's resident memory passes this.")] = None,
    core: Annotated[Literal["auto", "python", "native"], typer.Option("--core", help="Which df-pn searches: native (compiled, positional boards), python (solver/search/pns.py, the reference), or auto: native where the game has a compiled kernel.")] = "auto",
    plain: Annotated[bool, typer.Option("--plain", help="Search every legal move in canonical order, without the family's pruning and ordering (uttt: seed 003's critical squares), to measure what they save.")] = False,
    timed: Annotated[bool, typer.Option("--timed", help="Record the wall time in provenance (the file is then not reproducible).")] = False,
    workers: WorkersOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    job_nodes: JobNodesOpt = DEFAULT_JOB_NODES,
    batch: BatchOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Prove that a player wins or does not lose GAME by proof-number search; write the proof tree.

    Exit 0 proved (certificate written), 1 disproved (the opposite claim is then searched and its
    certificate written: the other player does not lose against a win claim, wins against a
    no-loss claim) or out of budget (nothing written), 2 bad input, 130 interrupted (nothing written).

    Example: certify prove mnk:4,4,3 --claim win --player 1 -o p1-win.json
    """
    parallel = workers is not None or ray or ray_address is not None
    if core != "auto" and (parallel or batch is not None):
        raise fail(f"--core {core} is for the serial search (leave out --workers, --ray and --batch)")
    if batch is not None:
        if game is not None or claim is not None or player is not None or position is not None:
            raise fail("--batch FILE reads GAME, --claim, --player and --position from FILE's lines; give none of them here")
        from certify.cli.parallel import engine_spec, run_batch

        run_batch(batch, output, engine_spec(workers, ray, ray_address), max_nodes, max_memory, json_out)
    missing = [name for name, value in (("argument GAME", game), ("--claim", claim), ("--player", player)) if value is None]
    if missing:
        raise fail(f"certify prove: missing {' and '.join(missing)}, or give --batch FILE (see 'certify prove --help')")
    with user_errors():
        game_obj = resolve_game(game)
    target = Claim(int(player), claim)
    options = []  # recorded in provenance after the claim: the command that regenerates the file
    if position is not None:
        try:
            game_obj.parse_position(position)
        except ValueError as err:
            raise fail(str(err)) from None
        options.append(f"--position '{position}'")
    if plain:
        if parallel:
            raise fail("--plain is for the serial search (leave out --workers, --ray and --batch)")
        options.append("--plain")
    path = output or default_output(game_obj.rules.name, target)
    with user_errors():
        check_output(path, CERTIFICATE_MARK, force)  # refuse before the search, not after
    spec = None
    if parallel:
        from certify.cli.parallel import engine_spec

        spec = engine_spec(workers, ray, ray_address)

    def search(claim_searched: Claim) -> tuple[Attempt, Any]:
        command = " ".join([f"certify prove {game} --claim {claim_searched.result} --player {claim_searched.player}", *options])
        if spec is not None:
            from certify.cli.parallel import prove_in_parallel

            return prove_in_parallel(game_obj, claim_searched, position, spec, job_nodes, max_nodes, command, timed, not json_out)
        with search_progress(not json_out and errors.is_terminal) as hook:
            try:
                return run_proof(game_obj, claim_searched, position, max_nodes, max_memory, hook, command, timed, plain=plain, core=core), None
            except CoreUnavailable as err:
                raise fail(str(err)) from None

    attempt, stats = search(target)
    data = summary(attempt, None)
    written = attempt
    if attempt.outcome.status == "disproved":  # certify the claim that holds instead: a disproof is checkable too
        opposite, _ = search(target.opposite())  # the parallel figures reported are the first search's
        if output is None:
            path = default_output(game_obj.rules.name, target.opposite())
            with user_errors():
                check_output(path, CERTIFICATE_MARK, force)
        data["opposite"] = summary(opposite, None)
        written = opposite
    if written.certificate is None:
        path = None
    else:
        with user_errors():
            write_proof(written.certificate, path)
        (data if written is attempt else data["opposite"]).update(summary(written, path))
    if stats is not None:
        from certify.cli.parallel import parallel_summary

        data["parallel"] = parallel_summary(spec, stats)
    out = errors if is_stdout(path) else console  # the certificate itself may be on stdout
    if json_out:
        out.print_json(json.dumps(data))
    else:
        report(data, target, game_obj.rules.name, out)
        if stats is not None:
            from certify.cli.parallel import report_parallel

            report_parallel(data["parallel"], out)
    if "interrupted" in (attempt.outcome.status, written.outcome.status):
        raise typer.Exit(EXIT_INTERRUPTED)
    if attempt.outcome.status != "proved":
        raise typer.Exit(EXIT_FAILED)


def report(data: dict, claim: Claim, name: str, out: Console = console) -> None:
    """The result in words; after a disproof, the search for the opposite claim and what it wrote."""
    where = "" if data["claim"]["root"] is None else f" from {data['claim']['root']}"
    said = f"{escape(name)}{escape(where)}: {claim.words()}"
    if data["status"] != "disproved":
        report_search(data, claim, said, out)
        return
    out.print(f"[bold red]disproved[/] {said} — {work_done(data)}")
    opposite = claim.opposite()
    report_search(data["opposite"], opposite, f"the opposite, {opposite.words()}", out)


def work_done(data: dict) -> str:
    """What one search cost."""
    return (f"{plural(data['nodes'], 'node')} in {data['seconds']:.2f} s ({data['nodes_per_second'] or 0:,} nodes/s), "
            f"{plural(data['table_entries'], 'table entry', 'table entries')}, peak {data['peak_rss_mb']:,.0f} MB")


def report_search(data: dict, claim: Claim, said: str, out: Console) -> None:
    """One search that proved its claim (and what it wrote) or did not settle it."""
    if data["status"] == "proved":
        out.print(f"[bold green]proved[/] {said} — {work_done(data)}")
        where = "stdout" if data["file"] == "-" else f"[bold]{escape(data['file'])}[/]"
        out.print(f"wrote {where} ({plural(data['bytes'], 'byte')}): {plural(data['prover_moves'], 'move')} of "
                  f"player {claim.player}, {plural(data['positions'], 'position')}, depth {data['depth']}")
    else:  # the opposite of a disproved claim is proved unless the budget runs out or Ctrl-C
        pn, dn = (number(INF if v is None else v) for v in (data["root_pn"], data["root_dn"]))
        out.print(f"[yellow]not settled ({data['status']})[/] {said} — {work_done(data)}; root pn {pn} dn {dn}; nothing written")
