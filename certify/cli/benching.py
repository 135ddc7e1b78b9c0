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
    suite: Annotated[str, typer.Option("--suite", help="solver (solve, certify, check, OpenSpiel peer), z3, players (TPM/TPG), prove (proof search and strategy certificates), all, or uttt (proof reach; not in all).")] = "solver",
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Timed runs per task (after one warm-up).")] = 10,
    games: Annotated[int, typer.Option("--games", min=1, help="players: timed self-play games per player.")] = 5,
    plies: Annotated[str, typer.Option("--plies", help="uttt: plies to sample positions at, latest first; earlier plies follow while any is solved.")] = "50,45,40,35,30",
    positions: Annotated[int, typer.Option("--positions", min=1, help="uttt: positions per ply.")] = 20,
    seconds: Annotated[float, typer.Option("--seconds", min=0.1, help="uttt: time limit per position and mode.")] = 60.0,
    extend: Annotated[bool, typer.Option("--extend/--no-extend", help="uttt: go on to earlier plies (5 at a time) while any position is solved.")] = True,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Time the solver, certificate writer and checker (with OpenSpiel as peer), Z3, players, proofs, uttt reach."""
    if suite not in ("solver", "z3", "players", "prove", "all", "uttt"):
        raise typer.BadParameter(f"unknown suite '{suite}' (solver, z3, players, prove, all, uttt)", param_hint="--suite")
    if suite == "uttt":
        bench_uttt(plies, positions, seconds, extend, json_out)
        return
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


def bench_uttt(plies_text: str, positions: int, seconds: float, extend: bool, json_out: bool) -> None:
    """The uttt suite: positions solved per ply, with and without critical squares."""
    from certify.bench_uttt import summary, uttt_benchmark

    try:
        plies = [int(p) for p in plies_text.split(",")]
    except ValueError:
        raise typer.BadParameter(f"'{plies_text}' is not a comma-separated list of plies", param_hint="--plies") from None
    if any(not 0 <= p <= 80 for p in plies):
        raise typer.BadParameter("plies must be within 0..80", param_hint="--plies")
    with console.status("benchmarking…", spinner="dots") if not json_out else nullcontext() as status:
        hook = (lambda text: status.update(f"uttt: {text}")) if status is not None else None
        results = uttt_benchmark(plies, positions, seconds, progress=hook, extend=extend)
    rows = summary(results, seconds)
    if json_out:
        console.print_json(json.dumps({"machine": machine(), "rows": rows,
                                       "positions": [{"mode": m, **a.__dict__} for m, a in results]}))
        return
    table = Table("ply", "mode", "solved", "w/d/l", "med s", "nodes/s", "med nodes", "med cert B", "med check s",
                  "checked", title=f"certify bench --suite uttt ({seconds:g} s per position; medians over solved)")
    for row in rows:
        values = row["values"]
        table.add_row(str(row["ply"]), row["mode"], f"{row['solved']}/{row['positions']}",
                      f"{values['win']}/{values['draw']}/{values['loss']}", _num(row["median_s"], ".2f"),
                      f"{row['nodes_per_s']:,.0f}", _num(row["median_nodes"], ",.0f"),
                      _num(row["median_certificate_bytes"], ",.0f"), _num(row["median_check_s"], ".2f"),
                      {True: "VALID", False: "NOT ALL", None: "—"}[row["all_checked"]])
    console.print(table)
    info = machine()
    console.print(f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}")


def _num(value: float | None, spec: str) -> str:
    return "—" if value is None else format(value, spec)
