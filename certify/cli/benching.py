"""`certify bench`: the benchmark tables recorded in docs/benchmarks.md."""

from __future__ import annotations

import json
from contextlib import nullcontext
from typing import Annotated

import typer
from rich.table import Table

from certify.bench import Timing, machine, solver_benchmarks, z3_benchmarks
from certify.cli.app import app, console
from certify.policy.bench import policy_benchmark

PEER, OURS = "solve tic_tac_toe (OpenSpiel value_iteration)", "solve tictactoe (certify, numpy retrograde)"

@app.command()
def bench(
    suite: Annotated[str, typer.Option("--suite", help="solver (solve, certify, check, OpenSpiel peer), z3, players (TPM/TPG), prove (proof search and strategy certificates), or all.")] = "solver",
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Timed runs per task (after one warm-up).")] = 10,
    games: Annotated[int, typer.Option("--games", min=1, help="players: timed self-play games per player.")] = 5,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Time the solver, certificate writer and checker (with OpenSpiel as peer), Z3, and players."""
    if suite not in ("solver", "z3", "players", "prove", "all"):
        raise typer.BadParameter(f"unknown suite '{suite}' (solver, z3, players, prove, all)", param_hint="--suite")
    timings: list[Timing] = []
    players: list[dict] = []
    proofs: list[dict] = []
    with console.status("benchmarking…", spinner="dots") if not json_out else nullcontext():
        if suite in ("solver", "all"):
            timings += solver_benchmarks(repeat)
        if suite in ("z3", "all"):
            timings += z3_benchmarks(max(1, repeat // 5))
        if suite in ("players", "all"):
            players = policy_benchmark(games=games)
        if suite in ("prove", "all"):
            from certify.bench_prove import prove_benchmarks

            proofs = prove_benchmarks()
    by_name = {t.name: t for t in timings}
    ratio = by_name[PEER].median / by_name[OURS].median if PEER in by_name and OURS in by_name else None
    if json_out:
        console.print_json(json.dumps({
            "machine": machine(),
            "timings": [{"name": t.name, "runs": len(t.runs), "median_s": t.median, "best_s": t.best} for t in timings],
            "openspiel_over_certify": ratio,
            "players": players,
            "proofs": proofs,
        }))
        return
    if timings:
        table = Table("task", "runs", "median", "best", title="certify bench")
        for t in timings:
            table.add_row(t.name, str(len(t.runs)), f"{t.median * 1000:.1f} ms", f"{t.best * 1000:.1f} ms")
        console.print(table)
    if suite in ("solver", "all"):
        if ratio is None:
            console.print("OpenSpiel not installed (pip install -e '.[bench]'): no speed peer this run.")
        else:
            console.print(f"certify solves tic-tac-toe [bold]{ratio:.0f}×[/] faster than OpenSpiel's value_iteration (medians, same run)")
    if players:
        table = Table("player", "setup", "TPM_1", "TPM_2", "TPM_3", "TPG", title=f"self-play, {games} games each (ns)")
        for row in players:
            tpm = [f"{t:.3g}" for t in row["tpm_ns"][:3]]
            table.add_row(row["policy"], f"{row['setup_s'] * 1000:.1f} ms", *tpm, f"{row['tpg_ns']:.3g}")
        console.print(table)
    if proofs:
        table = Table("claim", "status", "nodes", "search", "nodes/s", "peak RSS", "moves", "positions", "bytes", "check",
                      title="proof search and strategy certificates")
        for row in proofs:
            table.add_row(f"{row['game']} p{row['player']} {row['claim']}", row["status"], f"{row['nodes']:,}",
                          f"{row['seconds']:.2f} s", f"{row['nodes_per_second']:,.0f}", f"{row['peak_rss_mb']:.0f} MB",
                          f"{row['prover_moves']:,}", f"{row['positions']:,}", f"{row['certificate_bytes']:,}",
                          f"{row['check_seconds']:.2f} s ({row['verdict']})")
        console.print(table)
    info = machine()
    console.print(f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, numpy {info['numpy']}")
