"""`certify bench`: the benchmark table recorded in docs/benchmarks.md."""

from __future__ import annotations

import json
from contextlib import nullcontext
from typing import Annotated

import typer
from rich.table import Table

from certify.bench import machine, solver_benchmarks
from certify.cli.app import app, console

PEER, OURS = "solve tic_tac_toe (OpenSpiel value_iteration)", "solve tictactoe (certify, numpy retrograde)"


@app.command()
def bench(
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Timed runs per task (after one warm-up).")] = 10,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Time the solver, the certificate writer and the checker (and OpenSpiel, if installed)."""
    with console.status("benchmarking…", spinner="dots") if not json_out else nullcontext():
        timings = solver_benchmarks(repeat)
    by_name = {t.name: t for t in timings}
    ratio = by_name[PEER].median / by_name[OURS].median if PEER in by_name else None
    if json_out:
        console.print_json(json.dumps({
            "machine": machine(),
            "timings": [{"name": t.name, "runs": len(t.runs), "median_s": t.median, "best_s": t.best} for t in timings],
            "openspiel_over_certify": ratio,
        }))
        return
    table = Table("task", "runs", "median", "best", title="certify bench")
    for t in timings:
        table.add_row(t.name, str(len(t.runs)), f"{t.median * 1000:.1f} ms", f"{t.best * 1000:.1f} ms")
    console.print(table)
    if ratio is None:
        console.print("OpenSpiel not installed (pip install -e '.[bench]'): no speed peer this run.")
    else:
        console.print(f"certify solves tic-tac-toe [bold]{ratio:.0f}×[/] faster than OpenSpiel's value_iteration (medians, same run)")
    info = machine()
    console.print(f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, numpy {info['numpy']}")

