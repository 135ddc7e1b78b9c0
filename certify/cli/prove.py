"""`certify prove`: proof-number search for one claim, written as a strategy certificate."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Literal, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress as Bar
from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

from certify.cli.app import EXIT_FAILED, app, console, errors, fail, load_any_game, option_fail, user_errors
from certify.cli.options import GAME_HELP, ForceOpt, JsonOpt, default_output
from certify.cli.parallel import DEFAULT_JOB_NODES, BatchOpt, JobNodesOpt, JobSecondsOpt, RayAddressOpt, RayOpt, WorkersOpt
from certify.proving.checkpoint import CheckpointError
from certify.files import CHECKPOINT_MARK, check_output, check_proof_output, existing_folder, is_stdout, readable_file
from certify.proving.single import (Attempt, CoreUnavailable, FirstMoveError, peak_rss_mb, prove as run_proof, prove_command,
                                    blocking_replies, image_symmetries, prove_first_move, prove_options, require_estimate,
                                    require_pairings, write_proof)
from certify.render.text import plural
from solver.search.pns import INF, Claim, Progress
from solver.search.policy import PolicyMoveError

EXIT_INTERRUPTED = 130
# the statuses of a search that ended with an answer (its table is spent), not stopped by a budget or Ctrl-C
SETTLED = ("proved", "disproved", "policy fails", "first move fails")


def number(value: int) -> str:
    """A proof or disproof number, with ∞ for the search's infinity."""
    return "∞" if value >= INF else f"{value:,}"


# Where stderr is not a terminal (a search left running with its output in a log file), one plain
# progress line this often instead of the status line: a log of days shows how the search went
LOG_SECONDS = 600.0
clock = time.monotonic  # the progress's clock (a test sets its own)


@contextmanager
def search_progress(enabled: bool, max_nodes: int | None = None, max_memory: float | None = None) -> Iterator[Callable[[Progress], None] | None]:
    """A rich status line on stderr: nodes, the fraction of the budget used, the root's pn/dn,
    nodes/s, table entries, memory, elapsed time. Not `enabled` (--json) nothing; on a stderr that is
    not a terminal, a line every LOG_SECONDS of search, stamped with the UTC time."""
    if not enabled:
        yield None
        return
    first: list[tuple[float, int]] = []  # the clock and the nodes at the first report

    def rate(p: Progress) -> float:
        """Nodes per second since the first report: a report's own seconds restart with each span
        between --checkpoint saves, and its nodes count a resumed table's too."""
        now = clock()
        if not first:
            first.append((now, p.nodes))
        began, nodes = first[0]
        return (p.nodes - nodes) / (now - began) if now > began else p.nodes_per_second

    if not errors.is_terminal:
        logged = [clock()]  # the clock, not the report's seconds (above)

        def log(p: Progress) -> None:
            speed = rate(p)
            if clock() - logged[0] >= LOG_SECONDS:
                logged[0] = clock()
                stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
                errors.print(escape(f"{stamp} UTC  {progress_line(p, max_nodes, max_memory, speed)}"), soft_wrap=True)

        yield log
        return
    with Bar(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=errors, transient=True) as bar:
        task = bar.add_task("searching", total=None)

        yield lambda p: bar.update(task, description=progress_line(p, max_nodes, max_memory, rate(p)))


def progress_line(p: Progress, max_nodes: int | None, max_memory: float | None, speed: float | None = None) -> str:
    """`250 nodes (25% of the node budget)  root pn 3 dn 4  500 nodes/s  10 entries  40 MB`; `speed`
    the nodes/s to show (default: the report's own). Once the claim is proved and its proof is being
    walked: `proved in 250 nodes; writing the proof: 65,536 positions  40 MB`."""
    if p.walked is not None:
        return f"proved in {p.nodes:,} nodes; writing the proof: {p.walked:,} positions  {p.rss_mb:,.0f} MB"
    used = [p.nodes / max_nodes if max_nodes else 0.0, p.rss_mb / max_memory if max_memory else 0.0]
    budget = f" ({max(used):.0%} of the {'node' if used[0] >= used[1] else 'memory'} budget)" if max_nodes or max_memory else ""
    full = f" (table full: {p.evictions:,} evicted)" if p.evictions else ""
    return (f"{p.nodes:,} nodes{budget}  root pn {number(p.root_pn)} dn {number(p.root_dn)}  "
            f"{p.nodes_per_second if speed is None else speed:,.0f} nodes/s  {p.entries:,} entries{full}  {p.rss_mb:,.0f} MB")


def worker_table_mb(spec: Any, max_memory: int | None) -> float | None:
    """With --workers and --max-memory MB: each worker's compiled table cap, an equal share of MB for
    the driver and each worker, less the room a table needs while it doubles (None: the default)."""
    from solver.workers import default_workers

    if max_memory is None:
        return None
    try:
        from solver.search.native import GROWTH_HEADROOM
    except ImportError:  # not built: the workers run the Python search, whose table has its own cap
        return None
    return max(1.0, max_memory / ((spec.workers or default_workers()) + 1) / GROWTH_HEADROOM)


def summary(attempt: Attempt, path: Path | None) -> dict:
    """What the search did and, if it proved the claim, what it wrote."""
    outcome = attempt.outcome
    data = {
        "claim": {"player": attempt.claim.player, "result": attempt.claim.result, "root": attempt.root,
                  "within": attempt.claim.within},
        "status": outcome.status,
        "root_pn": None if outcome.root_pn >= INF else outcome.root_pn,
        "root_dn": None if outcome.root_dn >= INF else outcome.root_dn,
        "nodes": outcome.nodes,
        "table_entries": outcome.entries,
        "table_evictions": outcome.evictions,
        "seconds": round(attempt.seconds, 3),
        # this run's rate: a resumed checkpoint's nodes are in `nodes`, its seconds are not in `seconds`
        "nodes_per_second": round((outcome.nodes - attempt.resumed) / outcome.seconds) if outcome.seconds > 0 else None,
        "peak_rss_mb": round(max(outcome.peak_rss_mb, peak_rss_mb()), 1),  # the process's, the certificate's writing too
        "core": attempt.core,
    }
    if attempt.resumed:
        data["nodes_resumed"] = attempt.resumed
    if attempt.adopted:
        data["table_inherited"] = attempt.adopted  # entries it started with: the disproof's table, numbers swapped
    if attempt.first_moves:
        data["first_moves"] = [{"move": row.move, "status": row.status} | ({"pn": row.pn, "dn": row.dn} if row.status == "open" else {})
                               for row in attempt.first_moves]
    if attempt.tree is not None and attempt.text is not None and path is not None:
        data.update(file=str(path), bytes=len(attempt.text.encode()), positions=attempt.tree.positions,
                    prover_moves=len(attempt.tree.moves) - len(attempt.tree.closures) - len(attempt.tree.images),
                    closures=len(attempt.tree.closures), images=len(attempt.tree.images),
                    depth=attempt.tree.depth)  # a closure's CLOSE byte and an image's IMAGE byte sit among the moves but are no moves
    return data


@app.command()
def prove(
    game: Annotated[Optional[str], typer.Argument(metavar="GAME", help=GAME_HELP, show_default=False)] = None,
    claim: Annotated[Optional[Literal["win", "no-loss"]], typer.Option("--claim", help="win: the player wins; no-loss: the player wins or draws (needed unless --value or --batch).", show_default=False)] = None,
    player: Annotated[Optional[Literal["1", "2"]], typer.Option("--player", help="The side: 1 moves first, 2 second (needed unless --value or --batch).", show_default=False)] = None,
    value: Annotated[bool, typer.Option("--value", help="Settle the position's game value (win, draw or loss for the side to move) with the searches it needs; write every certificate that proves it (a draw: both no-loss proofs) into the -o folder.")] = False,
    position: Annotated[Optional[str], typer.Option("--position", help="Start here instead of the initial position (the family's notation, as `certify show` prints it).")] = None,
    first_move: Annotated[Optional[str], typer.Option("--first-move", metavar="MOVE", show_default=False, help="Fix the player's first move (as `certify show` prints moves), as an opening book does: search the position after it and write the claim's proof from the start, that move first. A disproof refutes the move only (exit 1, nothing written). The same search as --position of that position: their checkpoints resume each other. With --workers/--ray or --policy too.")] = None,
    output: Annotated[Optional[Path], typer.Option("-o", "--output", metavar="FILE", help="Certificate file: of the claim, or of its opposite if the claim is disproved (default: NAME.pP-CLAIM.json of the claim certified; - for stdout); with --batch, the folder of certificates.")] = None,
    max_nodes: Annotated[Optional[int], typer.Option("--max-nodes", min=1, help="Stop after this many node expansions.")] = None,
    max_memory: Annotated[Optional[int], typer.Option("--max-memory", min=16, metavar="MB", help="Stop when the process's resident memory passes this (with --workers: each compiled worker's table is capped at an equal share of it for the driver and each worker).")] = None,
    core: Annotated[Literal["auto", "python", "native"], typer.Option("--core", help="Which df-pn searches: native (compiled: positional boards, uttt, uttt:open), python (solver/search/pns.py, the reference), or auto: native where the game has a compiled kernel.")] = "auto",
    checkpoint: Annotated[Optional[Path], typer.Option("--checkpoint", metavar="FILE", show_default=False, help="Save the search's table (with --workers/--ray: the driver's state) to FILE every --checkpoint-minutes and when it stops unsettled (a budget, Ctrl-C); resume with --resume FILE. Removed once the claim is settled.")] = None,
    checkpoint_minutes: Annotated[float, typer.Option("--checkpoint-minutes", metavar="MINUTES", min=0.01, help="How often --checkpoint saves.")] = 10.0,
    resume: Annotated[Optional[Path], typer.Option("--resume", metavar="FILE", show_default=False, help="Start from the table a --checkpoint FILE of the same search saved (same game, claim, position).")] = None,
    plain: Annotated[bool, typer.Option("--plain", help="Search every legal move in canonical order, without the family's pruning and ordering (uttt: seed 003's critical squares), to measure what they save.")] = False,
    pairings: Annotated[bool, typer.Option("--pairings", help="no-loss, positional own-mark games: close a branch where a pairing blocks every line left to the opponent (the checker verifies it there); a win claim: give up a branch where the opponent has such a pairing.")] = False,
    closure_budget: Annotated[Optional[int], typer.Option("--closure-budget", min=1, metavar="STEPS", help="With --pairings: at most this many steps of the pairing search per position (default 2,000). On mnk:8,8,5 closures that succeed take few steps and failing ones the whole budget: 50 searched the same nodes 2.3x faster than 200 (docs/findings.md).")] = None,
    images: Annotated[bool, typer.Option("--images", help="Positional games: write a prover's position that a symmetry of the lines maps to another already in the proof as that image (a smaller file: qubic's 192 symmetries, 4x4's 32; the stdlib checker verifies each; the verified checker answers NOT READ).")] = False,
    blocks: Annotated[bool, typer.Option("--blocks", help="Positional games of own marks whose first line wins: where the prover has a line to complete and the opponent none, list only the opponent's blocks in the proof (every other reply loses at once; the stdlib checker sees it; the verified checker answers NOT READ). Win proofs are mostly such replies: mnk:5,6,4, 67,477 positions, 6,927 with --images too.")] = False,
    potential: Annotated[bool, typer.Option("--potential", help="With --pairings: a closure's pairs may leave lines unblocked whose Erdos-Selfridge potential is below 1/2 (docs/certificate-format.md; the verified checker answers NOT READ for such a proof).")] = False,
    estimate: Annotated[bool, typer.Option("--estimate", help="Start the positions the search has not seen from the family's first numbers instead of 1/1 (uttt, uttt:open: from the marks each side still needs for a meta line, for win claims and bounded no-loss claims; with --value, its win claims): within 27 plies 9.4 times fewer nodes (docs/uttt.md, \"First numbers from the count\").")] = False,
    within: Annotated[Optional[int], typer.Option("--within", min=1, metavar="N", help="A bounded claim: win within N plies from the position (every play ends in the player's win by then), or no-loss within N plies (no play ends in the player's loss by then).", show_default=False)] = None,
    policy: Annotated[Optional[str], typer.Option("--policy", metavar="SPEC", help="module:function (or file.py:function) taking (game, position) and returning the moves the prover may play there, or none to let the search choose: the certificate is then that strategy checked against every reply (e.g. certify.papers.bertholon:open_rules_plan for uttt:open).", show_default=False)] = None,
    from_proof: Annotated[Optional[Path], typer.Option("--from-proof", metavar="FILE", show_default=False, help="With --claim win --within N: take FILE, a proof of the same win (e.g. a longer one), as the plan and search only where its plays end after ply N, from its deepest such positions of the player upwards (each sub-search --job-nodes nodes, --max-nodes all together); writes the proof of the win within N.")] = None,
    jump: Annotated[int, typer.Option("--jump", min=1, metavar="LEVELS", help="With --from-proof: after a level of the player's positions whose sub-searches were more than 90% disproved, skip the next LEVELS-1 levels up and search LEVELS levels up (1: every level). With --checkpoint FILE the settled sub-results are logged to FILE; --resume FILE goes on from them.")] = 1,
    timed: Annotated[bool, typer.Option("--timed", help="Record the wall time in provenance (the file is then not reproducible).")] = False,
    threads: Annotated[int, typer.Option("--threads", min=1, max=64, metavar="N", help="Search with N threads of this process sharing the compiled search's one table (SPDFPN-style; docs/scaling.md): the serial search's options, checkpoints and certificate, on N cores. Not with --policy, --workers/--ray, --value or --core python; a --batch line takes its own.")] = 1,
    workers: WorkersOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    job_nodes: JobNodesOpt = DEFAULT_JOB_NODES,
    job_seconds: JobSecondsOpt = None,
    batch: BatchOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Prove that a player wins or does not lose GAME by proof-number search; write the proof tree.

    With --value instead of --claim and --player (`certify prove tictactoe --value`): the position's value for the side to move,
    its certificates written (a win or a loss: one; a draw: each player's no-loss proof), one
    report line; exit 0 settled, 1 out of budget (nothing written).

    Exit 0 proved (certificate written), 1 disproved (the opposite claim is then searched and its
    certificate written: the other player does not lose against a win claim, wins against a
    no-loss claim) or out of budget (no certificate written), 2 bad input, 130 interrupted (no certificate written). An unsettled
    search's table is kept in the --checkpoint file; once the claim is settled, its checkpoint
    (--checkpoint, --resume) is removed.

    Example: certify prove mnk:4,4,3 --claim win --player 1 -o p1-win.json
    """
    parallel = workers is not None or ray or ray_address is not None
    if (checkpoint is not None or resume is not None) and (value or batch is not None):
        raise fail("--checkpoint and --resume are for the search of one claim (leave out --value and --batch)")
    if threads > 1:
        clash = [name for name, on in (("--workers/--ray", parallel), ("--value", value),
                                       ("--policy", policy is not None), ("--core python", core == "python")) if on]
        if clash:
            raise fail(f"--threads runs the compiled search's threads on one table; leave out {' and '.join(clash)}"
                       + (" (a policy is asked in Python at every prover's position; --workers runs it)" if policy is not None else ""))
    if core != "auto" and (parallel or value or batch is not None):
        raise fail(f"--core {core} is for the serial search of one claim (leave out --value, --workers, --ray and --batch)")
    if first_move is not None:
        clash = [name for name, on in (("--value", value), ("--from-proof", from_proof is not None)) if on]  # --batch: on its lines
        if clash:
            raise fail(f"--first-move fixes the first move of one claim's search; leave out {' and '.join(clash)}")
    if jump != 1 and from_proof is None:
        raise fail("--jump skips levels of a repair: give it with --from-proof FILE")
    if from_proof is not None:
        given = [name for name, v in (("--value", value or None), ("--batch", batch), ("--policy", policy),
                                      ("--plain", plain or None), ("--pairings", pairings or None), ("--images", images or None),
                                      ("--blocks", blocks or None), ("--estimate", estimate or None)) if v is not None]
        if given or parallel or core != "auto":
            raise fail(f"--from-proof runs its own serial sub-searches; leave out {' and '.join(given or ['--workers/--ray/--core'])}")
        if claim != "win" or within is None:
            raise fail("--from-proof makes a proved win shorter: give --claim win and --within N")
    if value:
        given = [name for name, v in (("--claim", claim), ("--player", player), ("--batch", batch),
                                      ("--within", within), ("--policy", policy), ("--pairings", pairings or None),
                                      ("--images", images or None), ("--blocks", blocks or None)) if v is not None]
        given += ["--workers/--ray"] if parallel else []
        if given:
            raise fail(f"--value settles both players' claims with the serial search; leave out {' and '.join(given)}")
        if game is None:
            raise fail("certify prove --value: missing argument GAME (see 'certify prove --help')")
        prove_value(game, position, output, max_nodes, max_memory, plain, timed, force, json_out, estimate)
    if batch is not None:
        unused = [name for name, v in (("--policy", policy), ("--closure-budget", closure_budget), ("--potential", potential or None),
                                       ("--estimate", estimate or None),
                                       ("--timed", timed or None)) if v is not None]
        if unused:
            raise fail(f"--batch searches each line with its own words and the default settings; leave out {' and '.join(unused)}")
        on_lines = [name for name, v in (("GAME", game), ("--claim", claim), ("--player", player), ("--position", position),
                                         ("--within", within), ("--first-move", first_move), ("--plain", plain or None), ("--pairings", pairings or None),
                                         ("--threads", threads if threads > 1 else None), ("--images", images or None),
                                         ("--blocks", blocks or None)) if v is not None]
        if on_lines:
            raise fail(f"--batch FILE reads each proof's words from FILE's lines; give {' and '.join(on_lines)} there, not here")
        from certify.cli.parallel import engine_spec, run_batch

        run_batch(batch, output, engine_spec(workers, ray, ray_address), max_nodes, max_memory, json_out)
    missing = [name for name, value in (("argument GAME", game), ("--claim", claim), ("--player", player)) if value is None]
    if missing:
        raise fail(f"certify prove: missing {' and '.join(missing)}, or give --batch FILE (see 'certify prove --help')")
    game_obj = load_any_game(game)
    target = Claim(int(player), claim, within)
    if position is not None:
        try:
            position = game_obj.format_position(game_obj.parse_position(position))  # canonical, as written in the file
        except ValueError as err:
            raise option_fail("--position", err) from None
    if first_move is not None:
        try:
            first_move = game_obj.format_move(game_obj.parse_move(first_move))  # canonical, as the command records it
        except ValueError as err:
            raise option_fail("--first-move", f"'{first_move}': {err}") from None
    if pairings:
        try:
            require_pairings(game_obj)
        except ValueError as err:
            raise fail(str(err)) from None
    for name, given in (("--closure-budget", closure_budget is not None), ("--potential", potential)):
        if given and (not pairings or parallel):
            raise fail(f"{name}: give it with --pairings, in one process (not with --workers or --ray)")
    for name, given, able in (("--images", images, image_symmetries), ("--blocks", blocks, lambda g: blocking_replies(g, 1)),
                              ("--estimate", estimate, lambda g: require_estimate(g, plain))):
        if not given:
            continue
        if parallel:
            raise fail(f"{name}: give it in one process (not with --workers or --ray)")
        try:
            able(game_obj)
        except ValueError as err:
            raise fail(str(err)) from None
    # recorded in provenance after the claim: the command that regenerates the file
    options = prove_options(within, position, first_move, plain, pairings, closure_budget, potential, threads, images, blocks,
                            estimate)
    if from_proof is not None:
        from certify.cli.repairing import prove_from_proof

        command = prove_command(game, target, [*options, f"--from-proof {from_proof}", f"--job-nodes {job_nodes}",
                                                         *([f"--jump {jump}"] if jump != 1 else [])])
        prove_from_proof(game_obj, target, position, from_proof, output, job_nodes, max_nodes, max_memory, command, force, json_out,
                         jump, checkpoint, resume)
    plan = None
    if policy is not None:
        from certify.players.load import PolicySpecError, imported_policy

        try:
            plan = imported_policy(policy)
        except PolicySpecError as err:
            raise option_fail("--policy", err) from None
        options.append(f"--policy {policy}")
    path = output or default_output(game_obj.rules.name, target)
    sha = game_obj.rules.sha256()  # a table, another game's proof or a proof from elsewhere is never replaced silently
    with user_errors():
        check_proof_output(path, sha, position, force)  # refuse before the search, not after
        if checkpoint is not None:
            check_output(checkpoint, CHECKPOINT_MARK, force)
        if resume is not None:
            readable_file(resume, "checkpoint")
    spec = None
    if parallel:
        from certify.cli.parallel import engine_spec

        spec = engine_spec(workers, ray, ray_address)

    command = prove_command(game, target, options)  # what writes the file again: after a disproof, the opposite's too

    def search(claim_searched: Claim, inherit: Attempt | None = None) -> tuple[Attempt, Any]:
        if spec is not None:
            from certify.cli.parallel import prove_in_parallel

            from solver.search.parallel import Options

            mine = claim_searched == target
            stats: list[Any] = []

            def drive(claim_driven: Claim, start: str | None) -> Attempt:
                attempt, figures = prove_in_parallel(game_obj, claim_driven, start, spec, job_nodes, max_nodes, command, timed,
                                                     not json_out, job_seconds, checkpoint, checkpoint_minutes * 60,
                                                     resume if mine else None,
                                                     Options(plain, pairings, plan, worker_table_mb(spec, max_memory)))
                stats.append(figures)
                return attempt

            try:
                if first_move is not None:
                    return prove_first_move(game_obj, claim_searched, position, first_move, command, timed, run=drive), stats[-1]
                return drive(claim_searched, position), stats[-1]
            except FirstMoveError as err:
                raise option_fail("--first-move", err) from None
            except PolicyMoveError as err:
                raise fail(f"--policy {policy}: {err}") from None
        with search_progress(not json_out, max_nodes, max_memory) as hook:
            mine = claim_searched == target  # --resume is of the claim asked for; --checkpoint saves either search
            settings = dict(max_nodes=max_nodes, max_memory_mb=max_memory, progress=hook, plain=plain, checkpoint=checkpoint,
                            checkpoint_seconds=checkpoint_minutes * 60, resume=resume if mine else None, pairings=pairings,
                            policy=plan, core=core, potential=potential, closure_budget=closure_budget, threads=threads,
                            inherit=inherit, images=images, blocks=blocks, estimate=estimate)
            try:
                if first_move is not None:
                    return prove_first_move(game_obj, claim_searched, position, first_move, command, timed, **settings), None
                return run_proof(game_obj, claim_searched, position, command=command, timed=timed, **settings), None
            except FirstMoveError as err:
                raise option_fail("--first-move", err) from None
            except (CheckpointError, CoreUnavailable) as err:
                raise fail(str(err)) from None
            except PolicyMoveError as err:
                raise fail(f"--policy {policy}: {err}") from None

    attempt, stats = search(target)
    if attempt.outcome.status in ("disproved", "first move fails") and plan is not None:  # only the policy's moves were tried
        attempt = dataclasses.replace(attempt, outcome=dataclasses.replace(attempt.outcome, status="policy fails"))
    data = summary(attempt, None)
    if first_move is not None:
        data["first_move"] = first_move
        if "first_moves" in data:  # the search's root is the position after it: those are the replies
            data["replies"] = data.pop("first_moves")
    if threads > 1:
        data["threads"] = threads
    written = attempt
    if attempt.outcome.status == "disproved":  # certify the claim that holds instead: a disproof is checkable too
        # from the disproof's table where it can (the disproof is the opposite's proof); the parallel
        # figures reported are the first search's
        opposite, _ = search(target.opposite(), attempt)
        attempt = dataclasses.replace(attempt, search=None)  # its table is the opposite's now, or no longer needed
        if output is None:
            path = default_output(game_obj.rules.name, target.opposite())
            with user_errors():
                check_proof_output(path, sha, position, force)
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
    data["checkpoint"] = checkpoint_fate(written.outcome.status, checkpoint, resume, None if written is attempt else written.claim)
    out = errors if is_stdout(path) else console  # the certificate itself may be on stdout
    if json_out:
        out.file.write(json.dumps(data, indent=2) + "\n")  # plain: rich's print_json re-parses and highlights it (a 9.5 MB report: 1.2 GB)
    else:
        report(data, target, game_obj.rules.name, out)
        report_checkpoint(data["checkpoint"], written.outcome.status, out)
        if stats is not None:
            from certify.cli.parallel import report_parallel

            report_parallel(data["parallel"], out)
    if "interrupted" in (attempt.outcome.status, written.outcome.status):
        raise typer.Exit(EXIT_INTERRUPTED)
    if attempt.outcome.status != "proved":
        raise typer.Exit(EXIT_FAILED)


def checkpoint_fate(status: str, checkpoint: Path | None, resume: Path | None, opposite: Claim | None = None) -> dict[str, str | None]:
    """What became of the checkpoints: a settled claim's (--checkpoint, --resume) are spent and
    removed; an unsettled search's --checkpoint is kept (it saved the table there). `status` is the
    last search's; `opposite`: the claim that search was of, after a disproof of the claim asked for
    (--checkpoint then saved the opposite's search, and --resume, the disproved claim's, is spent)."""
    if status in SETTLED:
        removed = [path for path in dict.fromkeys((checkpoint, resume)) if path is not None and is_checkpoint(path)]
        for path in removed:
            path.unlink()
        return {"kept": None, "removed": " and ".join(map(str, removed)) or None, "continue": None}
    spent = [resume] if opposite is not None and resume is not None and resume != checkpoint and is_checkpoint(resume) else []
    for path in spent:
        path.unlink()
    kept = str(checkpoint) if checkpoint is not None and is_checkpoint(checkpoint) else None
    claim = "" if opposite is None else f"--claim {opposite.result} --player {opposite.player} "
    return {"kept": kept, "removed": " and ".join(map(str, spent)) or None,
            "continue": None if kept is None else f"{claim}--resume {kept}"}


def is_checkpoint(path: Path) -> bool:
    """Whether `path` is a file `--checkpoint` wrote (its first line says so)."""
    try:
        with open(path, "rb") as handle:
            return CHECKPOINT_MARK.search(handle.readline(4096)) is not None
    except OSError:
        return False


def prove_value(game: str, position: str | None, folder: Path | None, max_nodes: int | None, max_memory: int | None,
                plain: bool, timed: bool, force: bool, json_out: bool, estimate: bool = False) -> None:
    """`certify prove GAME --value`: settle the value, write its certificates, one report line; exits."""
    from certify.proving.single import settle_value

    game_obj = load_any_game(game)
    if estimate:
        try:
            require_estimate(game_obj, plain)
        except ValueError as err:
            raise fail(str(err)) from None
    try:
        start = game_obj.initial() if position is None else game_obj.parse_position(position)
    except ValueError as err:
        raise option_fail("--position", err) from None
    if game_obj.is_terminal(start):
        raise fail(f"--position: the game is already over at {game_obj.format_position(start)}")
    folder = folder or Path(".")
    with user_errors():
        existing_folder(folder, "-o", "with --value, -o names the folder the certificates go to", writing=True)
    name = game_obj.rules.name
    paths = {c: folder / default_output(name, c).name for c in (Claim(p, r) for p in (1, 2) for r in ("win", "no-loss"))}
    root = None if position is None else game_obj.format_position(start)
    with user_errors():
        for path in paths.values():  # refuse before the searches, not after
            check_proof_output(path, game_obj.rules.sha256(), root, force)
    extra = prove_options(position=root, plain=plain, estimate=estimate)  # each claim's own command: it writes that file again

    def command(c: Claim) -> str:
        return prove_command(game, c, extra)

    with search_progress(not json_out, max_nodes, max_memory) as hook:
        settled = settle_value(game_obj, position, max_nodes, None, max_memory, plain, hook, command, estimate=estimate)
    written = []
    for proof in settled.proofs:
        assert proof.certificate is not None  # a proved attempt carries its certificate
        with user_errors():
            write_proof(proof.certificate, paths[proof.claim])
        written.append(str(paths[proof.claim]))
    mover = game_obj.to_move(start)
    data = {
        "game": name, "position": game_obj.format_position(start), "to_move": mover, "value": settled.value,
        "files": written, "nodes": settled.nodes, "seconds": round(settled.seconds, 3),
        "peak_rss_mb": round(max(peak_rss_mb(), *(a.outcome.peak_rss_mb for a in settled.searches)), 1),
        "searches": [{"player": a.claim.player, "claim": a.claim.result, "status": a.outcome.status, "nodes": a.outcome.nodes}
                     for a in settled.searches],
    }
    if json_out:
        console.file.write(json.dumps(data, indent=2) + "\n")
    else:
        console.print(value_line(data, position is not None), soft_wrap=True)
    if any(a.outcome.status == "interrupted" for a in settled.searches):
        raise typer.Exit(EXIT_INTERRUPTED)
    raise typer.Exit(0 if settled.value is not None else EXIT_FAILED)


def value_line(data: dict, at_position: bool) -> str:
    """`draw for tictactoe, player 1 to move — wrote A and B (4 searches, …)`: the --value report."""
    where = f" at {data['position']}" if at_position else ""
    cost = (f"{plural(len(data['searches']), 'search', 'searches')}, {plural(data['nodes'], 'node')} in {data['seconds']:.2f} s, "
            f"peak {data['peak_rss_mb']:,.0f} MB")
    said = f"{escape(data['game'])}{escape(where)}, player {data['to_move']} to move"
    if data["value"] is None:
        steps = "; ".join(f"{'player ' + str(s['player'])} {'wins' if s['claim'] == 'win' else 'does not lose'}: {s['status']}"
                          for s in data["searches"])
        return f"[yellow]not settled[/] {said} — {escape(steps)}; nothing written ({cost})"
    style = {"win": "bold green", "draw": "yellow", "loss": "bold red"}[data["value"]]
    files = " and ".join(f"[bold]{escape(f)}[/]" for f in data["files"])
    return f"[{style}]{data['value']}[/] for {said} — wrote {files} ({cost})"


def report(data: dict, claim: Claim, name: str, out: Console = console) -> None:
    """The result in words; after a disproof, the search for the opposite claim and what it wrote."""
    where = "" if data["claim"]["root"] is None else f" from {data['claim']['root']}"
    said = f"{escape(name)}{escape(where)}: {claim.words()}"
    if data.get("first_move"):
        said += f" with the first move {escape(data['first_move'])}"
    if data["status"] == "first move fails":
        out.print(f"[bold red]first move fails[/] {said} — the claim fails after it (the claim itself is not refuted: "
                  f"other first moves were not searched); no certificate written — {work_done(data)}")
        return
    if data["status"] != "disproved":
        report_search(data, claim, said, out)
        return
    out.print(f"[bold red]disproved[/] {said} — {work_done(data)}")
    opposite = claim.opposite()
    report_search(data["opposite"], opposite, f"the opposite, {opposite.words()}", out)


def work_done(data: dict) -> str:
    """What one search cost; and whether its table was full (it then forgets positions and redoes their work)."""
    full = ""
    if data.get("table_evictions"):
        full = (f" (the table was full: {plural(data['table_evictions'], 'entry', 'entries')} evicted; it may take a third of "
                "the machine's memory, what --max-memory or `ulimit -v` leaves)")
    start = ""  # where the table came from: a disproof's, or a checkpoint's (then the nodes include its own)
    if data.get("table_inherited"):
        start = f" from the disproof's table ({plural(data['table_inherited'], 'entry', 'entries')})"
    if data.get("nodes_resumed"):
        start += f" ({data['nodes'] - data['nodes_resumed']:,} this run)"
    return (f"{plural(data['nodes'], 'node')}{start} in {data['seconds']:.2f} s ({data['nodes_per_second'] or 0:,} nodes/s), "
            f"{plural(data['table_entries'], 'table entry', 'table entries')}{full}, peak {data['peak_rss_mb']:,.0f} MB")


def report_search(data: dict, claim: Claim, said: str, out: Console) -> None:
    """One search that proved its claim (and what it wrote) or did not settle it."""
    if data["status"] == "proved":
        out.print(f"[bold green]proved[/] {said} — {work_done(data)}")
        where = "stdout" if data["file"] == "-" else f"[bold]{escape(data['file'])}[/]"
        out.print(f"wrote {where} ({plural(data['bytes'], 'byte')}): {plural(data['prover_moves'], 'move')} of "
                  f"player {claim.player}, {plural(data['positions'], 'position')}"
                  f"{', ' + plural(data['closures'], 'closure') if data['closures'] else ''}"
                  f"{', ' + plural(data['images'], 'image') if data.get('images') else ''}, depth {data['depth']}")
    else:  # the opposite of a disproved claim is proved unless the budget runs out or Ctrl-C
        pn, dn = (number(INF if v is None else v) for v in (data["root_pn"], data["root_dn"]))
        out.print(f"[yellow]not settled ({data['status']})[/] {said} — {work_done(data)}; root pn {pn} dn {dn}; no certificate written")
        if data.get("first_moves"):
            out.print(escape(settled_first_moves(data["first_moves"])), soft_wrap=True)
        if data.get("replies"):
            out.print(escape(settled_first_moves(data["replies"], data["first_move"])), soft_wrap=True)


def report_checkpoint(fate: dict[str, str | None], status: str, out: Console) -> None:
    """Which spent checkpoint was removed, where an unsettled search's table is kept and how to go on
    with it, or how it could have been kept."""
    if fate["removed"]:
        why = "the claim is settled" if not fate["kept"] else "the disproved claim's, spent"
        out.print(f"removed the checkpoint {escape(fate['removed'])}: {why}", soft_wrap=True)
    if fate["kept"]:
        out.print(f"checkpoint kept at [bold]{escape(fate['kept'])}[/]: continue with {escape(fate['continue'] or '')}", soft_wrap=True)
    elif not fate["removed"] and status not in SETTLED:
        out.print("the search's table is not kept: --checkpoint FILE saves it (then --resume FILE continues)", soft_wrap=True)


OPEN_SHOWN = 6  # open moves named with their numbers; the rest counted


def settled_first_moves(rows: list[dict], after: str | None = None) -> str:
    """`first moves after which …: proved X4; disproved X0 X2; 2 open: X1 (pn 3 dn 9), X5 (pn 7 dn 2)`:
    what a stopped search settled at the root, its open moves nearest to proved first; `after` a
    fixed first move: the root is the position after it, the rows its replies."""
    parts = []
    for status in ("proved", "disproved"):
        moves = [row["move"] for row in rows if row["status"] == status]
        if moves:
            parts.append(f"{status} {' '.join(moves)}")
    nearest = sorted((row for row in rows if row["status"] == "open"), key=lambda row: (row["pn"], -row["dn"]))
    if nearest:  # the open ones nearest to proved first: where more search would settle the claim soonest
        shown = ", ".join(f"{row['move']} (pn {row['pn']:,} dn {row['dn']:,})" for row in nearest[:OPEN_SHOWN])
        more = f", {len(nearest) - OPEN_SHOWN:,} more" if len(nearest) > OPEN_SHOWN else ""
        parts.append(f"{len(nearest):,} open: {shown}{more}")
    moves = "first moves" if after is None else f"replies to {after}"
    return f"{moves} after which the claim holds (proved) or fails (disproved): " + "; ".join(parts)
