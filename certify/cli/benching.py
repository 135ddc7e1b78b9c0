"""`certify bench`: the benchmark tables recorded in docs/benchmarks.md."""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Literal

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from certify.bench.timing import Timing, machine, missing_peer_module, solver_benchmarks, z3_benchmarks
from certify.cli.app import EXIT_FAILED, app, choice_words, console, errors, fail, user_errors
from certify.files import check_output, readable_file
from certify.bench.players import policy_benchmark
from certify.render.text import plural

PEER, OURS = "solve tic_tac_toe (OpenSpiel value_iteration)", "solve tictactoe (certify, numpy retrograde)"

SUITE_OPTIONS: dict[str, tuple[str, ...]] = {  # an option given to another suite is refused, never ignored
    "repeat": ("solver", "z3", "pairing", "all", "startup"),
    "games": ("players", "all"),
    "board": ("scale",),
    "peer_source": ("scale", "uttt"),
    **{name: ("parallel",) for name in ("target", "driver", "uttt_first")},
    **{name: ("uttt",) for name in ("plies", "positions", "seconds", "extend", "plot", "plain", "estimate", "peer_share")},
}


def misplaced_option(ctx: typer.Context, suite: str) -> str | None:
    """The first option typed on the command line that `suite` does not use, said in one line, or None."""
    from typer._click.core import ParameterSource

    for param in ctx.command.params:
        suites = SUITE_OPTIONS.get(param.name or "")
        if suites and suite not in suites and ctx.get_parameter_source(param.name or "") == ParameterSource.COMMANDLINE:
            listed = choice_words(list(suites))
            return f"{param.opts[0]} applies to --suite {listed} only, not --suite {suite}"
    return None


@app.command()
def bench(
    ctx: typer.Context,
    suite: Annotated[Literal["solver", "z3", "players", "prove", "pairing", "all", "startup", "scale", "parallel", "uttt"], typer.Option("--suite", help="solver (solve, certify, check, and OpenSpiel as peer if installed: pip install -e '.[bench]'), z3, players (TPM/TPG), prove (proof search and strategy certificates), pairing (pairing search and pairing certificates checked), all of those, startup (whole-process times of small commands), scale (the 4x4 boards beside the C peer mnk.c), parallel (serial compiled search vs 1 and 2 compiled workers, process pool and Ray, and simulated larger clusters; docs/scaling.md), or uttt (how far checked Ultimate tic-tac-toe proofs reach, with and without critical squares; docs/benchmarks.md).")] = "solver",
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Timed runs per task (after one warm-up).")] = 10,
    games: Annotated[int, typer.Option("--games", min=1, help="players: timed self-play games per player.")] = 5,
    board: Annotated[list[str] | None, typer.Option("--board", help="scale: a board to run (repeatable; default the eight 4x4 boards).")] = None,
    peer_source: Annotated[Path | None, typer.Option("--peer-source", help="scale, uttt: the C peer's source (default ../shared/bench/mnk.c; uttt: pns.c).")] = None,
    plies: Annotated[str, typer.Option("--plies", help="uttt: plies to sample positions at, latest first; earlier plies follow while any is solved.")] = "40,35,30,25",
    positions: Annotated[int, typer.Option("--positions", min=1, help="uttt: positions per ply.")] = 20,
    seconds: Annotated[float, typer.Option("--seconds", min=0.1, help="uttt: time limit per position and mode.")] = 60.0,
    extend: Annotated[bool, typer.Option("--extend/--no-extend", help="uttt: go on to earlier plies (5 at a time) while any position is solved.")] = True,
    plot: Annotated[Path | None, typer.Option("--plot", metavar="FILE", help="uttt: also draw the figures (frontier per ply, nodes/s, check time vs certificate size) into FILE, .svg or .png (needs the plot extra: pip install -e '.[plot]').", show_default=False)] = None,
    plain: Annotated[bool, typer.Option("--plain/--no-plain", help="uttt: also search without critical squares.")] = True,
    estimate: Annotated[bool, typer.Option("--estimate/--no-estimate", help="uttt: also search with critical squares from the first numbers of certify prove --estimate (mode 'first numbers').")] = True,
    peer_share: Annotated[float, typer.Option("--peer-share", min=0.01, max=1.0, help="uttt: the peer's time limit as a share of --seconds (1: the same limit; issue 21's target compared 30 s with 60 s: 0.5).")] = 1.0,
    target: Annotated[bool, typer.Option("--target", help="parallel: the issue's target claims instead (mnk:5,5,4 player 2 no-loss; a ply-30 Ultimate tic-tac-toe position), the serial compiled search, 2 threads sharing its table, and 2 workers, each a whole process of its own, with wall, CPU, nodes, peak memory (summed over the processes), speedup, efficiency, node overhead and the driver's state per job (docs/scaling.md). Minutes: run it on a quiet machine.")] = False,
    driver: Annotated[bool, typer.Option("--driver/--no-driver", help="parallel --target: also the driver on a process pool of 2 workers (minutes on mnk:5,5,4), after the 2 threads sharing one table.")] = True,
    uttt_first: Annotated[int | None, typer.Option("--uttt-first", min=0, metavar="I", help="parallel --target: start the scan for a ply-30 Ultimate tic-tac-toe position at sample position I (default: the first not yet measured outside 1-5 minutes, certify/bench/parallel.py UTTT_FIRST).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Time the solver, certificate writer and checker (OpenSpiel the peer: pip install -e '.[bench]'), Z3, and players.

    --suite startup runs `python -c pass`, `certify --help` and `certify solve w3t -o FILE` as
    whole processes, in turn, and prints each one's median time and peak memory.

    --suite scale runs the C peer mnk.c (built with gcc -O2 in a temporary directory) and
    `certify solve BOARD -o FILE` as whole processes on each 4x4 board, one after the other, and
    prints their wall and CPU times, peak memory and ratios, measured in the same run.

    --suite parallel proves mnk:4,5,4 and Ultimate tic-tac-toe positions with the serial compiled
    search, then with 1 and 2 compiled workers on the process pool and on Ray (if installed):
    speedup, efficiency, node and per-job overhead, and a simulation of 16, 64 and 1,024 workers
    from the job logs (docs/scaling.md).

    --suite uttt settles Ultimate tic-tac-toe positions from seeded random games (--positions at
    each of --plies, --seconds each), with critical squares (from 1/1 and, with --estimate, from
    the first numbers of `certify prove --estimate`) and without, and checks every certificate: the proof frontier of docs/benchmarks.md. Beside them the C peer pns.c (built
    with gcc -O2 in a temporary directory) settles the same positions with --peer-share of the
    time and the same table size. nodes/s is over the searches' own clocks, whole nodes/s over
    the whole attempts (certify's: every search, its table and its certificates; the peer's: its
    processes).

    Example: certify bench --suite startup --repeat 20
    """
    if problem := misplaced_option(ctx, suite):
        raise fail(problem)
    if peer_source is not None:
        with user_errors():
            readable_file(peer_source, "C source")
    if suite == "startup":
        startup(repeat, json_out)
        return
    if suite == "uttt":  # not part of `all`: minutes per ply
        bench_uttt(plies, positions, seconds, extend, plain, peer_source, json_out, plot, peer_share, estimate)
        return
    if suite == "scale":
        scale(board or [], peer_source, json_out)
        return
    if suite == "parallel":  # not part of `all`: it needs minutes and, for Ray, the optional extra
        from certify.cli.parallel import bench_parallel

        bench_parallel(json_out, target, driver, uttt_first)
        return
    timings: list[Timing] = []
    players: list[dict] = []
    proofs: list[dict] = []
    native: dict | None = None
    frontier: list[dict] | None = None
    knowledge: list[dict] | None = None
    with console.status("benchmarking…", spinner="dots") if not json_out else nullcontext():
        if suite in ("solver", "all"):
            timings += solver_benchmarks(repeat)
        if suite in ("z3", "all"):
            timings += z3_benchmarks(max(1, repeat // 5))
        if suite in ("pairing", "all"):
            from certify.bench.pairing import pairing_benchmarks

            timings += pairing_benchmarks(repeat)
        if suite in ("players", "all"):
            players = policy_benchmark(games=games)
        if suite in ("prove", "all"):
            from certify.bench.prove import frontier_benchmarks, prove_benchmarks

            proofs = prove_benchmarks()
            native = native_rows()
            frontier = frontier_benchmarks()
            knowledge = knowledge_rows()
    by_name = {t.name: t for t in timings}
    ratio = by_name[PEER].median / by_name[OURS].median if PEER in by_name and OURS in by_name else None
    if json_out:
        console.print_json(json.dumps({
            "machine": machine(),
            "timings": [{"name": t.name, "runs": len(t.runs), "median_s": t.median, "best_s": t.best} for t in timings],
            "openspiel_over_certify": ratio,
            "players": players,
            "proofs": proofs,
            "native": native,
            "frontier": frontier,
            "knowledge": knowledge,
        }))
        if missed_frontier(frontier) or missed_frontier(knowledge):
            raise typer.Exit(EXIT_FAILED)
        return
    if timings:
        table = Table("task", "runs", "median", "best", title="certify bench")
        for t in timings:
            table.add_row(t.name, str(len(t.runs)), f"{t.median * 1000:.1f} ms", f"{t.best * 1000:.1f} ms")
        console.print(table)
    if suite in ("solver", "all"):
        if ratio is None:
            missing = missing_peer_module() or "open_spiel"
            errors.print(escape(f"{missing} is not installed (pip install -e '.[bench]'): no OpenSpiel speed peer this run."), soft_wrap=True)
        else:
            console.print(f"certify solves tic-tac-toe [bold]{ratio:.0f}×[/] faster than OpenSpiel's value_iteration (medians, same run)")
    if players:
        table = Table("player", "setup", "TPM_1", "TPM_2", "TPM_3", "TPG", title=f"self-play, {plural(games, 'game')} each (ns)")
        for row in players:
            tpm = [f"{t:.3g}" for t in row["tpm_ns"][:3]]
            table.add_row(row["policy"], f"{row['setup_s'] * 1000:.1f} ms", *tpm, f"{row['tpg_ns']:.3g}")
        console.print(table)
    if proofs:
        table = Table("claim", "core", "status", "nodes", "search", "nodes/s", "peak RSS", "moves", "positions", "bytes", "check",
                      title="proof search and strategy certificates")
        for row in proofs:
            table.add_row(f"{row['game']} p{row['player']} {row['claim']}", row["core"], row["status"], f"{row['nodes']:,}",
                          f"{row['seconds']:.2f} s", f"{row['nodes_per_second']:,.0f}", f"{row['peak_rss_mb']:.0f} MB",
                          f"{row['prover_moves']:,}", f"{row['positions']:,}", f"{row['certificate_bytes']:,}",
                          f"{row['check_seconds']:.2f} s ({row['verdict']})")
        console.print(table)
    if native is not None:
        report_native(native)
    if frontier:
        report_frontier(frontier)
    if knowledge:
        report_knowledge(knowledge)
    info = machine()
    console.print(f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, numpy {info['numpy']}")
    missed = missed_frontier(frontier) + missed_frontier(knowledge)
    if missed:
        errors.print(f"[bold red]✗[/] {plural(len(missed), 'target')} missed: {escape(', '.join(missed))}")
        raise typer.Exit(EXIT_FAILED)


def missed_frontier(frontier: list[dict] | None) -> list[str]:
    """The k = 4 claims whose targets were missed."""
    return [f"{row['game']} p{row['player']} {row['claim']}" for row in frontier or [] if not row["target_met"]]


def report_frontier(rows: list[dict]) -> None:
    """The k = 4 frontier: whole processes against issue 21's targets."""
    from certify.bench.prove import FRONTIER_CHECK_MB, FRONTIER_CHECK_SECONDS, FRONTIER_PROVE_MB

    table = Table("claim", "certify prove", "peak RSS", "positions", "bytes", "python -m checker", "peak RSS", "target",
                  title="the k = 4 frontier: whole processes, in turn")
    for row in rows:
        table.add_row(f"{row['game']} p{row['player']} {row['claim']}", f"{row['prove_seconds']:,.1f} s",
                      f"{row['prove_peak_mb']:,.0f} MB", f"{row['positions']:,}", f"{row['certificate_bytes']:,}",
                      f"{row['check_seconds']:,.1f} s ({row['verdict']})", f"{row['check_peak_mb']:,.0f} MB",
                      target_mark(row["target_met"]))
    console.print(table)
    console.print(f"targets: certify prove ≤ 60 s (4x5) or ≤ 30 min (5x5) and ≤ {FRONTIER_PROVE_MB / 1024:.0f} GB; "
                  f"the checker ≤ {FRONTIER_CHECK_SECONDS / 60:.0f} min and ≤ {FRONTIER_CHECK_MB / 1024:.0f} GB")


def knowledge_rows() -> list[dict] | None:
    """`certify prove --pairings` beside pns.c, whole processes (None: no peer this run, said why)."""
    from certify.bench.prove import knowledge_benchmarks
    from certify.bench.scale import PeerError, default_peer_source

    source = default_peer_source("pns.c")
    try:
        if source is None:
            raise PeerError("shared/bench/pns.c not found beside the repository")
        return knowledge_benchmarks(source)
    except PeerError as err:
        errors.print(escape(f"{err}: no knowledge rows beside the C peer this run."), soft_wrap=True)
        return None


def report_knowledge(rows: list[dict]) -> None:
    """Knowledge against the blind peer (issue 35): whole processes, in turn."""
    from certify.bench.prove import KNOWLEDGE_RATIO

    table = Table("claim", "certify prove --pairings", "peak RSS", "nodes", "positions", "closed", "python -S -m checker",
                  "pns.c (process)", "pns.c search", "pns.c nodes", "ratio", "target",
                  title="knowledge beside the blind peer: whole processes, in turn")
    for row in rows:
        table.add_row(f"{row['game']} p{row['player']} {row['claim']}", f"{row['prove_seconds']:,.2f} s",
                      f"{row['prove_peak_mb']:,.0f} MB", f"{row['nodes']:,}", f"{row['positions']:,}", f"{row['closures']:,}",
                      f"{row['check_seconds']:,.2f} s ({row['verdict']})", f"{row['peer_seconds']:,.2f} s ({row['peer_status']})",
                      f"{row['peer_search_seconds']:,.2f} s", f"{row['peer_nodes']:,}", f"{row['peer_over_certify']:,.1f}×",
                      target_mark(row["target_met"]))
    console.print(table)
    console.print(f"target: the whole `certify prove --pairings` process ≥ {KNOWLEDGE_RATIO:.0f}× faster than the whole pns.c "
                  "process, and its certificate VALID")


def native_rows() -> dict:
    """The compiled df-pn beside the C peer pns.c (built for the run), or why there is no peer."""
    from certify.bench.prove import TARGET_RATIO, native_benchmarks, native_load_seconds, policy_cost_benchmarks
    from certify.bench.scale import PeerError, default_peer_source
    from solver.search.native import ENTRY_BYTES

    data: dict = {"load_seconds": round(native_load_seconds(), 4), "entry_bytes": ENTRY_BYTES, "target_ratio": TARGET_RATIO,
                  "rows": [], "peer_missing": None, "policy": policy_cost_benchmarks()}
    source = default_peer_source("pns.c")
    try:
        if source is None:
            raise PeerError("shared/bench/pns.c not found beside the repository")
        data["rows"] = native_benchmarks(source)
    except PeerError as err:
        data["peer_missing"] = str(err)
    return data


def report_native(native: dict) -> None:
    """The compiled df-pn's table: both searches' node rates and their ratio, then the load time."""
    if native["peer_missing"]:
        errors.print(escape(f"{native['peer_missing']}: no native rows beside the C peer this run."), soft_wrap=True)
    if native["rows"]:
        table = Table("claim", "status", "nodes", "search", "nodes/s", "peak RSS", "entries", "table", "pns.c nodes",
                      "pns.c nodes/s", "pns.c/native", title="compiled df-pn (--core native) beside the C peer pns.c, in turn")
        for row in native["rows"]:
            table.add_row(f"{row['game']} p{row['player']} {row['claim']}", row["status"], f"{row['nodes']:,}",
                          f"{row['seconds']:.2f} s", f"{row['nodes_per_second']:,}", f"{row['peak_rss_mb']:.0f} MB",
                          f"{row['entries']:,}", f"{row['table_mb']:.0f} MB", f"{row['peer_nodes']:,}",
                          f"{row['peer_nodes_per_second']:,}", f"{row['peer_over_native']:.2f}×")
        console.print(table)
    table = Table("search", "nodes", "search", "nodes/s", "slowdown",
                  title="compiled df-pn with a policy called back at the prover's positions (uttt:open p1 win, empty board), in turn")
    for row in native["policy"]:
        table.add_row(row["mode"], f"{row['nodes']:,}", f"{row['seconds']:.2f} s", f"{row['nodes_per_second']:,}",
                      f"{row['slowdown']:.2f}×")
    console.print(table)
    console.print(f"extension load (first import, fresh interpreter): {native['load_seconds'] * 1000:.1f} ms; "
                  f"table entry {native['entry_bytes']} bytes; target pns.c/native ≤ {native['target_ratio']:.0f}×")


def startup(repeat: int, json_out: bool) -> None:
    """`certify bench --suite startup`: one table, whole processes, with the targets."""
    from certify.bench.startup import startup_benchmark

    with errors.status("timing whole processes…", spinner="dots") if not json_out and errors.is_terminal else nullcontext():
        rows = startup_benchmark(repeat)
    for row in rows:
        row["target_met"] = None if row["target_s"] is None else row["median_s"] <= row["target_s"]
    missed = [row["command"] for row in rows if row["target_met"] is False]
    if json_out:
        console.print_json(json.dumps({"machine": machine(), "startup": rows, "targets_missed": missed}))
    else:
        table = Table(title="certify bench --suite startup: whole processes, in turn", box=box.SIMPLE)
        table.add_column("command")  # the one column that wraps when the terminal is narrow
        for heading in ("runs", "median", "best", "−python", "peak RSS", "target"):
            table.add_column(heading, justify="right", no_wrap=True)
        for row in rows:
            target = "" if row["target_s"] is None else f"≤ {row['target_s']:.2f} s {target_mark(row['target_met'])}"
            table.add_row(row["command"], str(row["runs"]), f"{row['median_s']:.3f} s", f"{row['best_s']:.3f} s",
                          f"{row['over_python_s']:+.3f} s", f"{row['peak_rss_mb']:.0f} MB", target)
        console.print(table)
        info = machine()
        console.print(f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, numpy {info['numpy']}")
    if missed:
        errors.print(f"[bold red]✗[/] {plural(len(missed), 'target')} missed: {escape(', '.join(missed))}")
        raise typer.Exit(EXIT_FAILED)


def target_mark(met: bool | None) -> str:
    """✓ for a target met, ✗ for one missed, nothing where there is no target."""
    return "" if met is None else "[green]✓[/]" if met else "[bold red]✗[/]"


def scale(boards: list[str], peer_source: Path | None, json_out: bool) -> None:
    """`certify bench --suite scale`: certify beside mnk.c on each board, one table."""
    from certify.bench.scale import SCALE_BOARDS, TARGET_RATIO, PeerError, default_peer_source, scale_benchmark

    source = peer_source or default_peer_source()
    if source is None:
        raise fail("the C peer ../shared/bench/mnk.c was not found (pass --peer-source PATH)")
    shown = not json_out and errors.is_terminal
    with errors.status("building the C peer…", spinner="dots") if shown else nullcontext() as status:
        def on_board(game: str) -> None:
            if status is not None:
                status.update(escape(f"solving {game} with mnk.c, then with certify…"))

        try:
            rows = scale_benchmark(boards or SCALE_BOARDS, source, on_board)
        except PeerError as err:
            raise fail(str(err)) from None
    for row in rows:
        row["target_met"] = row["wall_ratio"] <= TARGET_RATIO
    missed = [row["board"] for row in rows if not row["target_met"]]
    if json_out:
        console.print_json(json.dumps({"machine": machine(), "peer_source": str(source), "target_ratio": TARGET_RATIO, "boards": rows,
                                       "targets_missed": missed}))
    else:
        table = Table("board", "states", "root", "wall", "C wall", "ratio", "CPU", "C CPU", "CPU ratio", "peak", "C peak",
                      title="certify solve -o FILE beside mnk.c (gcc -O2), whole processes, one run")
        for row in rows:
            ours, peer = row["certify"], row["peer"]
            root = row["root_value"] if row["agree"] else f"[red]{row['root_value']} ≠ mnk.c {row['peer_root_value']}[/]"
            table.add_row(escape(row["board"]), f"{row['states']:,}", root, f"{ours['wall_s']:.2f} s", f"{peer['wall_s']:.2f} s",
                          f"{row['wall_ratio']:.2f} {target_mark(row['target_met'])}", f"{ours['cpu_s']:.2f} s", f"{peer['cpu_s']:.2f} s", f"{row['cpu_ratio']:.2f}",
                          f"{ours['peak_rss_mb']:.0f} MB", f"{peer['peak_rss_mb']:.0f} MB")
        console.print(table)
        info = machine()
        console.print(f"target: wall ratio ≤ {TARGET_RATIO} on each board. machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, numpy {info['numpy']}")
    if missed:
        errors.print(f"[bold red]✗[/] target missed (wall ratio > {TARGET_RATIO}) on {escape(', '.join(missed))}")
    if missed or not all(row["agree"] for row in rows):
        raise typer.Exit(EXIT_FAILED)


def bench_uttt(plies_text: str, positions: int, seconds: float, extend: bool, plain: bool, peer_source: Path | None,
               json_out: bool, plot: Path | None = None, peer_share: float = 1.0, estimate: bool = True) -> None:
    """The uttt suite: positions solved per ply, with and without critical squares, and by pns.c
    (and, with `plot`, its figures drawn into that file)."""
    from certify.bench.scale import PeerError, default_peer_source
    from certify.bench.uttt import peer_target, summary, uttt_benchmark

    if plot is not None:
        from certify.bench.plot import FORMATS

        if plot.suffix not in FORMATS:
            raise fail(f"--plot {plot}: a plot is written as .svg or .png")
        with user_errors():
            check_output(plot, force=True)  # a missing folder is refused before the run, not after

    try:
        plies = [int(p) for p in plies_text.split(",")]
    except ValueError:
        raise fail(f"--plies {plies_text}: must be whole numbers separated by commas, like 40,35") from None
    if any(not 0 <= p <= 80 for p in plies):
        raise fail(f"--plies {plies_text}: each must be in 0..80")
    source = peer_source or default_peer_source("pns.c")
    if source is None:
        errors.print("shared/bench/pns.c not found beside the repository (pass --peer-source PATH): no peer rows this run.")
    with console.status("benchmarking…", spinner="dots") if not json_out else nullcontext() as status:
        hook = (lambda text: status.update(f"uttt: {text}")) if status is not None else None
        try:
            results = uttt_benchmark(plies, positions, seconds, progress=hook, extend=extend, plain=plain, peer_source=source,
                                     peer_share=peer_share, estimate=estimate)
        except PeerError as err:
            raise fail(str(err)) from None
    rows, target = summary(results, seconds, peer_share), peer_target(results)
    if plot is not None:
        from certify.bench.plot import PlotError, plot_frontier

        try:
            plot_frontier(rows, results, plot)
        except PlotError as err:
            raise fail(str(err)) from None
        (errors if json_out else console).print(f"wrote the figures to [bold]{escape(str(plot))}[/]")
    if json_out:
        console.print_json(json.dumps({"machine": machine(), "rows": rows, "peer_target": target,
                                       "positions": [{"mode": m, **a.__dict__} for m, a in results]}))
        return
    table = Table("ply", "mode", "limit", "solved", "w/d/l", "med s", "nodes/s", "whole nodes/s", "med nodes", "med cert B", "med check s",
                  "checked", title="certify bench --suite uttt (medians over solved)")
    for row in rows:
        values = row["values"]
        table.add_row(str(row["ply"]), row["mode"], f"{row['limit_s']:g} s", f"{row['solved']}/{row['positions']}",
                      f"{values['win']}/{values['draw']}/{values['loss']}", _num(row["median_s"], ".2f"),
                      _num(row["nodes_per_s"], ",.0f"), _num(row["whole_nodes_per_s"], ",.0f"), _num(row["median_nodes"], ",.0f"),
                      _num(row["median_certificate_bytes"], ",.0f"), _num(row["median_check_s"], ".2f"),
                      {True: "VALID", False: "NOT ALL", None: "—"}[row["all_checked"]])
    console.print(table)
    for row in target:
        console.print(f"ply {row['ply']}: pns.c settled {row['peer_settled']}, certify ({row['mode']}) "
                      f"{row['certify_settled']} ({row['certify_settled_of_those']} of the peer's, {row['certify_only']} "
                      f"the peer did not); values differ on {row['disagreements']}")
    info = machine()
    console.print(f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}")


def _num(value: float | None, spec: str) -> str:
    return "—" if value is None else format(value, spec)
