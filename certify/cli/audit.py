"""Commands `audit`, `verify` and `publish`: settle the papers' claims and keep the record current."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Group
from rich.live import Live
from rich.markup import escape
from rich.panel import Panel
from rich.progress import MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.spinner import Spinner
from rich.table import Table
from rich.text import Text

from certify.claims.load import ClaimsFileError, load_claims
from certify.claims.facts import Bench
from certify.claims.report import VERDICT_STYLE, audit_markdown, audit_table, evidence_lines, reading_text, verdict_summary
from certify.claims.run import FileAudit, audit_file
from certify.cli.app import EXIT_FAILED, EXIT_OK, app, console, errors, fail, load_game, load_table_game, user_errors, warn
from certify.cli.options import DEFAULT_TIMEOUT, ForceOpt, GameArg, JsonOpt, TimeoutOpt
from certify.files import AUDIT_MARK, certificate_mark, check_output, existing_folder, readable_file, write_atomic
from certify.publish.record import audit_command, generate, publish as write_published, stale
from certify.render.text import plural
from certify.verify import STEP_TITLES, STEPS, Step, Verification, verify as run_verify
from solver.games.positional.rules import RulesError



@contextmanager
def step_progress(enabled: bool, title: str, total: int | None = None) -> Iterator[Callable[[str], None] | None]:
    """A transient line on stderr naming the step that runs: `title: step`, how many steps are done
    (of `total` when known) and the elapsed time (terminal only)."""
    if not enabled or not errors.is_terminal:
        yield None
        return
    columns = [SpinnerColumn(), TextColumn("{task.description}"), MofNCompleteColumn() if total else TextColumn("step {task.completed:.0f}"), TimeElapsedColumn()]
    with Progress(*columns, console=errors, transient=True) as bar:
        task = bar.add_task(title, total=total)
        steps = 0

        def update(step: str) -> None:
            nonlocal steps
            bar.update(task, description=f"{title}: {escape(step)}", completed=steps)
            steps += 1

        yield update


@contextmanager
def claim_progress(enabled: bool, total: int | None = None) -> Iterator[object]:
    """The step line naming the claim being evaluated, claims done of `total`, elapsed time."""
    with step_progress(enabled, "auditing", total) as update:
        yield None if update is None else (lambda ident, game: update(f"{ident} ({game})"))


@app.command()
def audit(
    claims: Annotated[list[Path], typer.Argument(help="Claims files (TOML, docs/claims-format.md).", show_default=False)],
    json_out: JsonOpt = False,
    output: Annotated[Optional[Path], typer.Option("-o", "--output", metavar="FILE", help="Also write the audit as Markdown (one claims file only).", show_default=False)] = None,
    force: ForceOpt = False,
    smt_timeout: Annotated[float, typer.Option("--timeout", metavar="SECONDS", min=0.1, help="Bound on each Z3 check; then the claim is not evaluated.")] = DEFAULT_TIMEOUT,
) -> None:
    """Evaluate every claim in CLAIMS against the solved, checked games.

    Verdicts: holds, refuted, ambiguous (the wording has several readings that disagree; each is
    shown). Exit 0 when every claim was evaluated, whatever the verdicts (a refuted paper claim is
    a finding); 2 for a malformed claims file; 1 when a claim could not be evaluated (e.g. Z3 ran
    out of time).

    Example: certify audit certificates/claims/000.toml
    """
    with user_errors():
        for path in claims:
            readable_file(path, "claims file")
        if output is not None:
            check_output(output, AUDIT_MARK, force)
    if output is not None and len(claims) != 1:
        raise fail("-o writes one audit: give exactly one claims file")
    bench = Bench(published_dir=Path("certificates"), smt_timeout=smt_timeout)
    audits: list[FileAudit] = []
    try:
        total = sum(len(load_claims(path).claim) for path in claims)  # a malformed file stops the run before any work
        with claim_progress(not json_out, total) as hook:
            for path in claims:
                audits.append(audit_file(path, bench, hook=hook))  # type: ignore[arg-type]
    except (ClaimsFileError, RulesError) as err:
        raise fail(str(err)) from None
    if output is not None:
        with user_errors():
            write_atomic(output, audit_markdown(audits[0], audit_command(claims[0])), AUDIT_MARK, force)
    results = [r for a in audits for r in a.results]
    if json_out:
        counts = {"claims": len(results), **{verdict: sum(r.verdict == verdict for r in results) for verdict in VERDICT_STYLE}}
        console.print_json(json.dumps({"audits": [a.as_dict() for a in audits], "summary": verdict_summary(results), "counts": counts}))
    else:
        for one in audits:
            console.print(audit_table(one))
        console.print(Panel("\n".join(evidence_lines(audits)), title="evidence", expand=False, border_style="dim"))
        if output is not None:
            console.print(f"wrote [bold]{output}[/]")
    unevaluated = [r.id for r in results if r.verdict == "not evaluated"]
    if unevaluated:
        errors.print(f"[bold red]error:[/] not evaluated: {', '.join(unevaluated)}")
        raise typer.Exit(EXIT_FAILED)


def _step_row(name: str, step: Step | None, running: bool) -> tuple[object, Text, Text, Text]:
    if running:
        mark: object = Spinner("dots", style="cyan")
    elif step is None:
        mark = Text("·", style="dim")
    else:
        mark = Text({True: "✓", False: "✗", None: "–"}[step.ok], style={True: "bold green", False: "bold red", None: "dim"}[step.ok])
    title = Text(STEP_TITLES[name], style="bold" if running else "")
    detail = Text("" if step is None else step.detail, style="dim" if step is None or step.ok else "red")
    seconds = Text("" if step is None else f"{step.seconds:6.2f} s", style="dim")
    return mark, title, detail, seconds


def steps_table(done: dict[str, Step], current: str | None) -> Table:
    """The step list: ticks, titles, details and times."""
    table = Table.grid(padding=(0, 1))
    table.add_column(width=2)
    table.add_column(no_wrap=True)
    table.add_column(ratio=1)
    table.add_column(justify="right", no_wrap=True)
    for name in STEPS:
        table.add_row(*_step_row(name, done.get(name), name == current))
    return table


def claims_summary(report: Verification, details: bool = False) -> Table:
    """The claims about the game, one line each: id, what the source says, what the primary
    reading measured, verdict; with `details`, every reading under its claim."""
    table = Table(title="published claims about this game (verdict of the primary reading)", box=None, title_justify="left")
    table.add_column("claim", no_wrap=True, min_width=6)
    table.add_column("the source says", ratio=2, overflow="fold")
    table.add_column("measured" + (", per reading" if details else " (primary reading)"), ratio=3, overflow="fold")
    table.add_column("verdict", no_wrap=True, min_width=9)
    for result in report.claims:
        readings = result.readings if details else [result.primary]
        says = Text(result.says)
        measured = Text("\n").join(reading_text(r, several=details and len(result.readings) > 1, witness=False) for r in readings)
        if not details:  # one line per claim: the details are a flag away
            for cell in (says, measured):
                cell.no_wrap, cell.overflow = True, "ellipsis"
        table.add_row(result.id, says, measured, Text(result.verdict, style=VERDICT_STYLE[result.verdict]))
    return table


@app.command("verify")
def verify_command(
    game: GameArg,
    out_dir: Annotated[Path, typer.Option("--out-dir", metavar="DIR", help="Folder for the certificate (NAME.json).")] = Path("."),
    output: Annotated[Optional[Path], typer.Option("-o", "--output", metavar="FILE", help="Certificate path (overrides --out-dir).", show_default=False)] = None,
    force: ForceOpt = False,
    claims_dir: Annotated[Optional[Path], typer.Option("--claims", metavar="DIR", help="Folder of claims files to audit (default: certificates/claims here, else the project's).", show_default=False)] = None,
    smt_timeout: TimeoutOpt = DEFAULT_TIMEOUT,
    details: Annotated[bool, typer.Option("--details", help="Show every reading of each claim, not only the primary one's measurement.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Solve GAME, write its certificate, check it three independent ways, audit the papers' claims.

    Exit 0 when solving, the schema and the independent checker agree and Z3 does not disagree (Z3
    may answer unknown (timeout) for large games: the step says so and the run goes on); refuted
    paper claims are findings, not failures; 1 otherwise; 2 for bad input or an unwritable file.

    Example: certify verify w3t
    """
    from certify.pipeline import default_filename

    rules = load_table_game(game)  # verify solves the whole game, so at most 4x4: one line, before any work
    with user_errors():
        if claims_dir is not None:
            existing_folder(claims_dir, "--claims", "a folder of claims files, docs/claims-format.md")
        if output is None:
            existing_folder(out_dir, "--out-dir", "the certificate goes there", writing=True)
    if claims_dir is not None and not any(claims_dir.glob("*.toml")):
        raise fail(f"--claims {claims_dir}: holds no claims files (*.toml, docs/claims-format.md)")
    path = output or out_dir / default_filename(rules)
    with user_errors():
        check_output(path, certificate_mark("table", rules.sha256()), force)
    from certify.limits import memory_shortfall
    from certify.smt.graph import memory_estimate

    if shortfall := memory_shortfall(memory_estimate(rules)):
        warn(f"the Z3 step encodes up to {3**rules.cells:,} states in Python: {shortfall}; --timeout ({smt_timeout:g} s) bounds it")
    done: dict[str, Step] = {}
    live_enabled = not json_out and console.is_terminal
    current: list[str | None] = [None]

    with Live(steps_table(done, None), console=console, transient=False, refresh_per_second=12) if live_enabled else _nothing() as live:

        def hook(name: str, step: Step | None) -> None:
            current[0] = None if step is not None else name
            if step is not None:
                done[name] = step
            if live is not None:
                live.update(steps_table(done, current[0]))
            elif not json_out:
                if step is not None:
                    mark = {True: "✓", False: "✗", None: "–"}[step.ok]
                    console.print(f"{mark} {STEP_TITLES[name]}: {step.detail} ({step.seconds:.2f} s)", soft_wrap=True)

        report = run_verify(game, rules, path, claims_dir or default_claims_dir(), smt_timeout, hook)
    if json_out:
        console.print_json(json.dumps(report.as_dict()))
    else:
        margin = "" if report.root_margin is None else f" (line margin {report.root_margin:+d})"
        verdict = Text("VERIFIED", style="bold green") if report.ok else Text("NOT VERIFIED", style="bold red")
        head = Text.assemble(
            verdict, "  ", (rules.name, "bold"), ": the first player's value is ", (report.root_value or "?", "bold"), margin,
            f"\n{report.states:,} states · certificate {report.path} · sha256 {report.sha256[:16]}…",
        )
        body: list[object] = [head]
        unsettled = [s for s in report.steps if s.ok is None and s.name != "claims"]
        if unsettled:  # verified without this step's confirmation: say so in the summary, not only above
            body.append(Text("; ".join(f"{STEP_TITLES[s.name]}: {s.detail}" for s in unsettled), style="yellow"))
        if report.claims:
            more = "" if details else "--details here, or "
            body += ["", claims_summary(report, details), Text(verdict_summary(report.claims) + f" — every reading: {more}certify audit " + " ".join(str(p) for p in report.claims_files), style="dim")]
        console.print(Panel(Group(*body), title="certify verify", border_style="green" if report.ok else "red", expand=False))
    raise typer.Exit(EXIT_OK if report.ok else EXIT_FAILED)


def default_claims_dir() -> Path:
    """certificates/claims under the working directory, else the one shipped with the project."""
    here = Path("certificates/claims")
    return here if here.is_dir() else Path(__file__).resolve().parents[2] / "certificates" / "claims"


@contextmanager
def _nothing() -> Iterator[None]:
    yield None


@app.command("publish")
def publish_command(
    check: Annotated[bool, typer.Option("--check", help="Regenerate in memory; exit 1 listing the files that differ.")] = False,
    policies: Annotated[bool, typer.Option("--policies/--no-policies", help="Include the policy audits (the TD experiment takes minutes).")] = True,
    root: Annotated[Path, typer.Option("--root", help="Repository root holding certificates/.")] = Path("."),
    scale: Annotated[bool, typer.Option("--scale", help="Also re-solve the eight 4x4 boards, write and check their certificates, and check the large kept proofs (minutes).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Regenerate every published certificate, audit, certificates/index.json and certificates/README.md.

    Deterministic: the same tree gives the same bytes. With --check nothing is written. The 4x4
    entries of the index and the large kept proofs' entries are carried over unless --scale
    recomputes them.

    Example: certify publish --check --no-policies
    """
    if not (root / "certificates" / "claims").is_dir():
        raise fail(f"{root}: no certificates/claims directory here (run from the repository root or pass --root)")
    try:
        with step_progress(not json_out, "publishing") as update:
            generated = generate(root, policies, update, scale)
    except (ClaimsFileError, RulesError) as err:
        raise fail(str(err)) from None
    if check:
        differ = stale(root, generated)
        if json_out:
            console.print_json(json.dumps({"stale": [p.as_posix() for p in differ], "files": len(generated.files)}))
        elif differ:
            errors.print("[bold red]stale:[/] " + ", ".join(p.as_posix() for p in differ) + " — run `certify publish`")
        else:
            console.print(f"[bold green]✓[/] all {plural(len(generated.files), 'published file')} are up to date")
        raise typer.Exit(EXIT_FAILED if differ else EXIT_OK)
    written = write_published(root, generated)
    if json_out:
        console.print_json(json.dumps({"written": [p.as_posix() for p in written], "files": len(generated.files)}))
        return
    for path in written:
        console.print(f"wrote [bold]{path.as_posix()}[/]")
    console.print(f"{plural(len(generated.files), 'file')}, {len(written):,} changed")
