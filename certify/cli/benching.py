"""`certify bench`: the benchmark tables recorded in docs/benchmarks.md."""

from __future__ import annotations

import json
from contextlib import nullcontext
from typing import Annotated, Literal

import typer
from rich.markup import escape
from rich.table import Table

from certify.bench import Timing, machine, missing_peer_module, solver_benchmarks, z3_benchmarks
from certify.cli.app import app, console, errors
from certify.policy.bench import policy_benchmark

PEER, OURS = "solve tic_tac_toe (OpenSpiel value_iteration)", "solve tictactoe (certify, numpy retrograde)"

@app.command()
def bench(
    suite: Annotated[Literal["solver", "z3", "players", "all", "startup", "parallel"], typer.Option("--suite", help="solver (solve, certify, check, OpenSpiel peer), z3, players (TPM/TPG), all of those, startup (whole-process times of small commands), or parallel (1 vs 2 workers, process pool and Ray; docs/scaling.md).")] = "solver",
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Timed runs per task (after one warm-up).")] = 10,
    games: Annotated[int, typer.Option("--games", min=1, help="players: timed self-play games per player.")] = 5,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Time the solver, certificate writer and checker (with OpenSpiel as peer), Z3, and players.

    --suite startup runs `python -c pass`, `certify --help` and `certify solve w3t -o FILE` as
    whole processes, in turn, and prints each one's median time and peak memory.

    --suite parallel proves Ultimate tic-tac-toe positions serially, then with 1 and 2 workers on
    the process pool and on Ray (if installed): speedup and overhead per job (docs/scaling.md).

    Example: certify bench --suite startup --repeat 20
    """
    if suite == "startup":
        startup(repeat, json_out)
        return
    if suite == "parallel":  # not part of `all`: it needs minutes and, for Ray, the optional extra
        from certify.cli.parallel import bench_parallel

        bench_parallel(json_out)
        return
    timings: list[Timing] = []
    players: list[dict] = []
    with console.status("benchmarking…", spinner="dots") if not json_out else nullcontext():
        if suite in ("solver", "all"):
            timings += solver_benchmarks(repeat)
        if suite in ("z3", "all"):
            timings += z3_benchmarks(max(1, repeat // 5))
        if suite in ("players", "all"):
            players = policy_benchmark(games=games)
    by_name = {t.name: t for t in timings}
    ratio = by_name[PEER].median / by_name[OURS].median if PEER in by_name and OURS in by_name else None
    if json_out:
        console.print_json(json.dumps({
            "machine": machine(),
            "timings": [{"name": t.name, "runs": len(t.runs), "median_s": t.median, "best_s": t.best} for t in timings],
            "openspiel_over_certify": ratio,
            "players": players,
        }))
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
        table = Table("player", "setup", "TPM_1", "TPM_2", "TPM_3", "TPG", title=f"self-play, {games} games each (ns)")
        for row in players:
            tpm = [f"{t:.3g}" for t in row["tpm_ns"][:3]]
            table.add_row(row["policy"], f"{row['setup_s'] * 1000:.1f} ms", *tpm, f"{row['tpg_ns']:.3g}")
        console.print(table)
    info = machine()
    console.print(f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, numpy {info['numpy']}")


def startup(repeat: int, json_out: bool) -> None:
    """`certify bench --suite startup`: one table, whole processes, with the targets."""
    from certify.startup import startup_benchmark

    with errors.status("timing whole processes…", spinner="dots") if not json_out and errors.is_terminal else nullcontext():
        rows = startup_benchmark(repeat)
    if json_out:
        console.print_json(json.dumps({"machine": machine(), "startup": rows}))
        return
    table = Table("command (whole process)", "runs", "median", "best", "over python", "peak RSS", "target", title="certify bench --suite startup")
    for row in rows:
        target = "" if row["target_s"] is None else f"≤ {row['target_s']:.2f} s"
        table.add_row(row["command"], str(row["runs"]), f"{row['median_s']:.3f} s", f"{row['best_s']:.3f} s",
                      f"{row['over_python_s']:+.3f} s", f"{row['peak_rss_mb']:.0f} MB", target)
    console.print(table)
    info = machine()
    console.print(f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, numpy {info['numpy']}")
