"""The parallel side of `certify prove` (`--workers`, `--ray`, `--batch`), `certify check FOLDER`
and `certify bench --suite parallel`.

Not a command of its own: `certify/cli/prove.py`, `checking.py` and `benching.py` call in here,
so the engine options read the same wherever they appear.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, NoReturn, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from certify.cli.app import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_INTERNAL, EXIT_OK, console, errors, fail
from certify.render.text import plural

DEFAULT_JOB_NODES = 20_000

WorkersOpt = Annotated[Optional[int], typer.Option(
    "--workers", min=0, metavar="N", show_default=False,
    help="Search in parallel on N worker processes (0: every core; with --ray: every CPU of the cluster). "
         "Default: one position is searched serially, a --batch uses every core.")]
RayOpt = Annotated[bool, typer.Option("--ray", help="Run the workers as Ray tasks (pip install -e '.[ray]'): a private local Ray unless --ray-address.")]
RayAddressOpt = Annotated[Optional[str], typer.Option("--ray-address", metavar="ADDRESS", show_default=False,
                                                      help="Join this Ray cluster (auto, HOST:PORT, ray://HOST:PORT); implies --ray. docs/scaling.md.")]
JobNodesOpt = Annotated[int, typer.Option("--job-nodes", min=1, metavar="N", help="Parallel search: the node budget of the first worker jobs (of every job with --job-seconds 0); with --from-proof, of each sub-search.")]
JobSecondsOpt = Annotated[Optional[float], typer.Option("--job-seconds", min=0.0, metavar="S", show_default=False, help="Parallel search: adapt the jobs' node budget so a job takes about S seconds of CPU (default 0.1; raise it with the workers, docs/scaling.md; 0: keep --job-nodes).")]
BatchOpt = Annotated[Optional[Path], typer.Option("--batch", metavar="FILE", show_default=False,
                                                  help="Prove every line of FILE (GAME --claim C --player P [--within N] [--first-move M] [--pairings] [--threads N], or GAME --value; [--position X] [--plain]) as `certify prove` would, certificates in the -o folder; resumable.")]


def engine_spec(workers: int | None, ray: bool, ray_address: str | None) -> Any:
    """The engine the options ask for (all cores or CPUs when `workers` is None or 0); exits 2
    with one line if Ray is asked for but not installed."""
    from solver.workers import EngineSpec, RayMissing, import_ray

    if ray or ray_address is not None:
        try:
            import_ray()
        except RayMissing as err:
            raise fail(str(err)) from None
        return EngineSpec("ray", workers or 0, ray_address)
    return EngineSpec("process", workers or 0)


def prove_in_parallel(game: Any, claim: Any, position: str | None, spec: Any, job_nodes: int, max_nodes: int | None,
                      command: str, timed: bool, show_progress: bool, job_seconds: float | None = None,
                      checkpoint: Path | None = None, checkpoint_seconds: float = 600.0,
                      resume: Path | None = None, options: Any = None) -> tuple[Any, Any]:
    """`certify prove --workers/--ray`: the parallel driver with progress; (Attempt, driver Stats).
    `options`: solver.search.parallel.Options (--plain, --pairings, --policy).

    A job whose worker keeps dying stops the proof with one line and exit 3; a checkpoint that
    cannot be resumed, with one line and exit 2.
    """
    from certify.proving.checkpoint import CheckpointError
    from certify.proving.parallel import prove_on_engine
    from solver.search.parallel import DEFAULT_JOB_SECONDS
    from solver.workers import EngineError
    from solver.search.parallel import JobFailed, Options

    with driver_progress(show_progress) as progress:
        try:
            return prove_on_engine(game, claim, position, spec, job_nodes=job_nodes, max_nodes=max_nodes,
                                   progress=progress, command=command, timed=timed,
                                   job_seconds=DEFAULT_JOB_SECONDS if job_seconds is None else job_seconds or None,
                                   checkpoint=checkpoint, checkpoint_seconds=checkpoint_seconds, resume=resume,
                                   options=options or Options())
        except (EngineError, CheckpointError) as err:
            raise fail(str(err)) from None
        except JobFailed as err:
            raise fail(f"parallel search stopped: {err}; a smaller --job-nodes needs less memory", EXIT_INTERNAL) from None


def parallel_summary(spec: Any, stats: Any) -> dict[str, Any]:
    """The parallel run's own figures, for --json and the report."""
    return {"engine": spec.describe(), "jobs": stats.jobs, "proved_jobs": stats.proved, "disproved_jobs": stats.disproved,
            "unresolved_jobs": stats.unknown, "workers_lost": stats.lost, "driver_tree_nodes": stats.driver_nodes,
            "job_cpu_seconds": round(stats.worker_cpu_seconds, 3), "driver_cpu_seconds": round(stats.driver_cpu_seconds, 3)}


def report_parallel(data: dict[str, Any], out: Console = console) -> None:
    """One line about the parallel run, on `out` (stderr when the certificate goes to stdout)."""
    lost = f", {plural(data['workers_lost'], 'worker')} lost and their jobs retried" if data["workers_lost"] else ""
    out.print(f"parallel: {escape(data['engine'])}, {plural(data['jobs'], 'job')} ({data['proved_jobs']:,} proved, "
                  f"{data['disproved_jobs']:,} disproved, {data['unresolved_jobs']:,} out of budget), "
                  f"{data['job_cpu_seconds']:.1f} s CPU in jobs, {data['driver_cpu_seconds']:.1f} s in the driver{lost}")


class driver_progress:
    """A rich status line on stderr: jobs, root proof/disproof numbers, nodes and nodes/s."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and errors.is_terminal
        self.bar: Progress | None = None

    def __enter__(self) -> Any:
        if not self.enabled:
            return None
        self.bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=errors, transient=True)
        self.bar.__enter__()
        task = self.bar.add_task("starting workers", total=None)

        def update(root: Any, stats: Any, running: int) -> None:
            assert self.bar is not None
            rate = stats.worker_nodes / stats.worker_cpu_seconds if stats.worker_cpu_seconds else 0.0
            pn, dn = (_number(root.pn), _number(root.dn))
            self.bar.update(task, description=f"jobs {stats.jobs - running:,} done · {running} running · root pn {pn} dn {dn} · "
                                              f"{stats.worker_nodes:,} nodes · {rate:,.0f} nodes/s per worker")

        return update

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


def _number(value: int) -> str:
    from solver.search.parallel import INF

    return "∞" if value >= INF else f"{value:,}"


# ---- batch ------------------------------------------------------------------------------------


def run_batch(batch_file: Path, folder: Path | None, spec: Any, max_nodes: int | None, max_memory_mb: float | None,
              json_out: bool) -> NoReturn:
    """`certify prove --batch FILE [-o FOLDER]`: every line proved to its own certificate; exits.

    The folder defaults to FILE's name without its suffix plus `.proofs`, beside it.
    """
    from certify.proving.batch import ITEM_STATUSES, BatchError, Options, load_batch, prove_item
    from certify.files import FileProblem
    from solver.workers import EngineError

    from certify.cli.app import user_errors
    from certify.files import existing_folder, read_text

    folder = folder or batch_file.with_suffix(".proofs")
    with user_errors():  # the file's or folder's problem in the words every reader uses
        read_text(batch_file, "batch file")
        if folder.exists() or not folder.parent.is_dir():  # else the batch creates it
            existing_folder(folder, "-o", "with --batch, -o names the folder the certificates go to", writing=True)
    try:
        batch = load_batch(batch_file, folder)
        batch.validate()
    except BatchError as err:
        raise fail(f"{batch_file}: {err}") from None
    with batch_progress(len(batch.items), enabled=not json_out) as progress:
        try:
            results = batch.run(prove_item, Options(max_nodes=max_nodes, max_memory_mb=max_memory_mb), spec, progress=progress)
        except (EngineError, BatchError, FileProblem) as err:
            raise fail(str(err)) from None
    rows = [r.row() for r in results]
    counts = {status: sum(r.status == status for r in results) for status in ITEM_STATUSES}
    exit_code = EXIT_OK if counts["proved"] + counts["existing"] == len(results) else EXIT_FAILED
    if json_out:
        console.print_json(json.dumps({"folder": str(folder), "engine": spec.describe(), "counts": counts,
                                       "exit_code": exit_code, "items": rows}))
        raise typer.Exit(exit_code)
    table = Table("line", "position", "status", "nodes", "time", "certificate", title=f"batch {escape(str(batch_file))} on {spec.describe()}")
    for r in results:
        style = {"proved": "green", "existing": "green", "failed": "red"}.get(r.status, "yellow")
        note = f" ({escape(r.note)})" if r.note else ""
        shown = ", ".join(f.name for f in r.files) or "—"
        table.add_row(str(r.item.line), escape(r.item.words()), f"[{style}]{r.status}[/]{note}", f"{r.nodes:,}", f"{r.seconds:.2f} s", escape(shown))
    console.print(table)
    console.print(", ".join(f"{n:,} {status}" for status, n in counts.items() if n) + f"; certificates in {escape(str(folder))}"
                  + (f" (check them: certify check {escape(str(folder))})" if any(r.files for r in results) else ""))
    raise typer.Exit(exit_code)


class batch_progress:
    """A rich progress bar on stderr: done / running / failed, fed by the batch runner."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.enabled = total, enabled and errors.is_terminal
        self.bar: Progress | None = None

    def __enter__(self) -> Any:
        if not self.enabled:
            return None
        self.bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                            console=errors, transient=True)
        self.bar.__enter__()
        task = self.bar.add_task("proving", total=self.total)

        def update(done: int, running: int, failed: int) -> None:
            assert self.bar is not None
            self.bar.update(task, completed=done, description=f"done {done}/{self.total} · running {running} · failed {failed}")

        return update

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


def check_folder(folder: Path, limits: Any, game: str | None, json_out: bool) -> NoReturn:
    """`certify check FOLDER`: schema and independent checker on every *.json file (by name), within
    `limits` each, about `game` if given; exits 0 if all are VALID, 1 if any is INVALID, else 2."""
    import checker
    from certify.record.certificate import CertificateError, read_any_certificate
    from certify.files import FileProblem, readable_file

    sha = None
    if game is not None:
        from certify.cli.app import load_any_game

        sha = load_any_game(game).rules.sha256()
    files = sorted(folder.glob("*.json"))
    if not files:
        raise fail(f"{folder}: no .json files to check")
    results = []
    for path in files:
        try:
            readable_file(path, "certificate")
            if path.stat().st_size <= limits.max_bytes:
                read_any_certificate(path)
        except (CertificateError, FileProblem) as err:
            results.append((path, EXIT_BAD_INPUT, str(err)))
            continue
        verdict = checker.check_file(str(path), limits, sha)
        results.append((path, verdict.exit_code, verdict.message))
    codes = {code for _, code, _ in results}
    exit_code = EXIT_FAILED if EXIT_FAILED in codes else max(codes)
    if json_out:
        status = {EXIT_OK: "valid", EXIT_FAILED: "invalid"}
        console.print_json(json.dumps({"folder": str(folder), "status": status.get(exit_code, "error"), "valid": exit_code == EXIT_OK,
                                       "exit_code": exit_code, "files": [
                                           {"file": str(p), "status": status.get(c, "error"), "valid": c == EXIT_OK, "exit_code": c, "verdict": m}
                                           for p, c, m in results]}))
    else:
        for path, code, message in results:
            mark = "[bold green]✓[/]" if code == EXIT_OK else "[bold red]✗[/]"
            said = message if message.startswith(f"{path}: ") else f"{path}: {message}"  # a file's problem names it already
            console.print(f"{mark} {escape(said)}", soft_wrap=True)
        valid = sum(code == EXIT_OK for _, code, _ in results)
        console.print(f"{valid:,} of {plural(len(results), 'file')} VALID")
    raise typer.Exit(exit_code)


# ---- bench --------------------------------------------------------------------------------------


def bench_parallel(json_out: bool, target: bool = False, driver: bool = True, uttt_first: int | None = None) -> None:
    """`certify bench --suite parallel`: print the table (or JSON) of certify.bench.parallel."""
    from certify.bench.timing import machine
    from certify.bench.parallel import parallel_benchmark

    if target:
        bench_target(json_out, driver, uttt_first)
        return

    with console.status("benchmarking the parallel driver…", spinner="dots") if not json_out else _null():
        result = parallel_benchmark()
    if json_out:
        console.print_json(json.dumps({"machine": machine(), **result}))
        return
    runs = result["runs"]
    table = Table("engine", "workers", "wall", "speedup", "efficiency", "job CPU", "nodes", "× serial nodes", "jobs",
                  "overhead / job", "driver CPU / job", "lost", "verdicts = serial",
                  title=f"certify bench --suite parallel: {escape(result['positions'])}; jobs of about {result['job_seconds']} s")
    for r in runs:
        overhead = r["overhead_per_job_ms"]
        table.add_row(r["engine"], str(r["workers"]), f"{r['wall_s']:.2f} s", f"{r['speedup']:.2f}×", f"{r['efficiency']:.2f}",
                      f"{r['cpu_s']:.2f} s", f"{r['nodes']:,}", f"{r['node_overhead']:.2f}", str(r["jobs"]) if r["jobs"] else "—",
                      f"{overhead:.1f} ms" if overhead is not None else "—",
                      f"{1000 * r['driver_cpu_s'] / r['jobs']:.1f} ms" if r["jobs"] else "—",
                      str(r["lost"]), "yes" if r["agrees_with_serial"] else "[red]NO[/]")
    console.print(table)
    simulated = result["simulation"]
    sim = Table("workers", "simulated wall", "speedup (over serial CPU)", "efficiency",
                title=f"simulated from the job logs of {simulated['from']} (an upper bound, not a measurement)")
    for row in simulated["rows"]:
        sim.add_row(f"{row['workers']:,}", f"{row['wall_s']:.2f} s", f"{row['speedup']:.2f}×", f"{row['efficiency']:.3f}")
    console.print(sim)
    console.print(f"assumptions: {escape(simulated['assumptions'])}")
    if result["ray_start_s"] is not None:
        console.print(f"Ray start (ray.init, 2 CPUs): {result['ray_start_s']:.1f} s, not counted above")
    elif result["ray_note"]:
        console.print(f"Ray not measured: {escape(result['ray_note'])}")
    info = machine()
    load = result["load_average"]
    console.print(f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}; load average {load[0]} before, {load[1]} after")


def bench_target(json_out: bool, driver: bool = True, uttt_first: int | None = None) -> None:
    """`certify bench --suite parallel --target`: the table (or JSON) of certify.bench.parallel `target_benchmark`."""
    from certify.bench.parallel import target_benchmark
    from certify.bench.timing import machine

    runs = "2 threads" + (", then 2 workers" if driver else "")
    with console.status(f"the serial search, then {runs}, on each target claim…", spinner="dots") if not json_out else _null():
        result = target_benchmark(driver=driver, uttt_first=uttt_first)
    if json_out:
        console.print_json(json.dumps({"machine": machine(), **result}))
        return
    table = Table("claim", "run", "status", "search wall", "process wall", "CPU", "nodes", "× serial nodes", "jobs",
                  "peak RSS (all processes)", "speedup", "efficiency",
                  title=f"certify bench --suite parallel --target: jobs of about {result['job_seconds']} s, "
                        f"tables of {result['table_mb']:.0f} MB per process, the {result['threads']} threads' one table "
                        f"{result['threads_table_mb']:.0f} MB")
    for row in result["rows"]:
        named = [("serial (compiled)", row["serial"], None), (f"{result['threads']} threads, one table", row.get("threads"),
                                                              row.get("threads_versus")),
                 (f"{result['workers']} workers", row["parallel"], row)]
        for name, run, against in named:
            if run is None:
                continue
            table.add_row(escape(row["claim"]), name, run["status"], f"{run['search_wall_s']:.1f} s", f"{run['process_wall_s']:.1f} s",
                          f"{run['process_cpu_s']:.1f} s", f"{run['nodes']:,}", "1.00" if against is None else f"{against['node_overhead']:.2f}",
                          f"{run['jobs']:,}" if run["jobs"] else "—", f"{run['peak_rss_mb']:,.0f} MB",
                          "—" if against is None else f"{against['speedup']:.2f}×", "—" if against is None else f"{against['efficiency']:.2f}")
    console.print(table)
    for row in result["rows"]:
        if row["parallel"] is None:
            continue
        last = row["parallel"]["footprint"][-1]
        jobs = max(1, last["jobs"])
        console.print(f"{escape(row['claim'])}: driver state after {last['jobs']:,} jobs: {last['tree_nodes']:,} tree nodes, "
                      f"{last['settled']:,} settled positions, {last['proofs']:,} proofs ({last['proof_bytes']:,} B); "
                      f"{last['pickle_bytes'] / jobs:,.0f} B pickled and {last['checkpoint_bytes'] / jobs:,.0f} B in a checkpoint per job")
    rule = result["uttt_rule"]
    for skipped in result["uttt_passed_over"]:
        console.print(f"passed over: {escape(skipped['claim'])}: {skipped['status']} after {skipped['nodes']:,} nodes, "
                      f"{skipped['search_wall_s']:.1f} s (a target position takes {rule['serial_seconds'][0]:.0f}–"
                      f"{rule['serial_seconds'][1]:.0f} s serially)")
    info = machine()
    load = result["load_average"]
    console.print(f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}; load average {load[0]} before, {load[1]} after")


def _null() -> Any:
    from contextlib import nullcontext

    return nullcontext()
