"""`certify prove ... --within N --from-proof FILE`: a proved win made a proof of the win within N plies.

The proof FILE is the plan; the sub-searches run only where its plays end later than ply N
(certify/proving/repair.py). One status line while it runs; the report counts the sub-searches by
the ply they started at.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.progress import Progress as Bar
from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from certify.cli.app import EXIT_FAILED, console, errors, fail, user_errors
from certify.cli.options import default_output
from certify.files import check_proof_output, is_stdout
from certify.proving.repair import Repair, RepairError, RepairProgress, repair
from certify.proving.single import ProofFileError, peak_rss_mb, write_proof
from certify.record.certificate import read_any_certificate
from certify.record.schema import StrategyCertificate
from certify.render.text import plural
from solver.games.families import game_from_rules
from solver.search.pns import Claim

EXIT_INTERRUPTED = 130


def progress_line(p: RepairProgress) -> str:
    """`repair: 120 sub-searches (80 proved, 40 failed, 7 skipped), 1,234 nodes, 300 bad positions; at ply 36 within 5: 12 nodes`."""
    line = (f"repair: {plural(p.searches, 'sub-search', 'sub-searches')} ({p.proved:,} proved, {p.failed:,} failed"
            f"{f', {p.skipped:,} skipped' if p.skipped else ''}), {plural(p.nodes, 'node')}, {plural(p.bad, 'bad position')}")
    if p.ply is not None:
        line += f"; at ply {p.ply} within {p.within}"
        if p.search is not None:
            line += f": {p.search.nodes:,} nodes, root pn {p.search.root_pn:,} dn {p.search.root_dn:,}, {p.search.rss_mb:,.0f} MB"
    return line


def prove_from_proof(game: Any, target: Claim, position: str | None, plan_path: Path, output: Path | None,
                     job_nodes: int, max_nodes: int | None, max_memory: int | None, command: str, force: bool,
                     json_out: bool, jump: int = 1, checkpoint: Path | None = None, resume: Path | None = None) -> None:
    """Repair the plan into the bounded claim, write the certificate, report; exits. `checkpoint`: the
    log of settled sub-results (removed once the claim is settled), `resume`: such a log to go on from."""
    with user_errors():
        plan = read_any_certificate(plan_path)  # a bad file in the words every reader uses
        if not isinstance(plan, StrategyCertificate):
            raise fail(f"{plan_path}: a {plan.kind} certificate, not a proof of `certify prove` (kind strategy)")
        plan_game = game_from_rules(plan.rules)
    if plan_game.rules.sha256() != game.rules.sha256():
        raise fail(f"--from-proof {plan_path}: a proof about {plan_game.rules.name}, not {game.rules.name}")
    if (plan.claim.player, plan.claim.result) != (target.player, target.result):
        raise fail(f"--from-proof {plan_path}: it proves {plan.claim.result} for player {plan.claim.player}, "
                   f"not {target.result} for player {target.player}")
    if position is not None and position != plan.claim.root:
        raise fail(f"--from-proof {plan_path}: its root is {plan.claim.root or 'the start'}, not --position {position}")
    assert target.within is not None  # the command asks for --within with --from-proof

    path = output or default_output(game.rules.name, target)
    with user_errors():
        check_proof_output(path, game.rules.sha256(), plan.claim.root, force)
    show = not json_out and errors.is_terminal
    try:
        with Bar(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=errors, transient=True,
                 disable=not show) as bar:
            task = bar.add_task("repair: walking the plan", total=None)
            done = repair(game, plan, target.within, job_nodes, max_nodes, max_memory,
                          (lambda p: bar.update(task, description=progress_line(p))) if show else None, command,
                          jump, checkpoint, resume)
    except RepairError as err:  # a --resume log's problem names its file first, as every reader does
        raise fail(str(err) if resume is not None and str(err).startswith(f"{resume}:") else f"--from-proof {plan_path}: {err}") from None
    except ProofFileError as err:
        raise fail(f"--from-proof {plan_path}: {err}") from None
    if done.status in ("proved", "disproved"):  # settled: the log has done its work
        for used in {checkpoint, resume} - {None}:
            used.unlink(missing_ok=True)
    if done.certificate is not None:
        with user_errors():
            write_proof(done.certificate, path)
    data = summary(done, target, str(plan_path), None if done.certificate is None else path)
    out = errors if is_stdout(path) else console
    if json_out:
        out.file.write(json.dumps(data, indent=2) + "\n")  # plain, as `certify prove --json`: rich re-parses and highlights it
    else:
        report(data, game.rules.name, target, out)
    if done.status == "interrupted":
        raise typer.Exit(EXIT_INTERRUPTED)
    if done.status != "proved":
        raise typer.Exit(EXIT_FAILED)
    raise typer.Exit(0)


def summary(done: Repair, target: Claim, plan: str, path: Path | None) -> dict:
    """What the repair did: the plan's figures, every sub-search, and what it wrote."""
    data: dict[str, Any] = {
        "claim": {"player": target.player, "result": target.result, "within": target.within},
        "status": done.status, "from_proof": plan, "plan_longest_play": done.longest_before,
        "plan_bad_positions": done.bad_before, "bad_positions_at_start": done.bad_at_start, "resumed_sub_searches": done.resumed, "by_symmetry": done.by_symmetry, "nodes": done.nodes, "cpu_seconds": round(done.cpu_seconds, 3),
        "seconds": round(done.seconds, 3), "peak_rss_mb": round(max([peak_rss_mb(), *(s.peak_rss_mb for s in done.searches)]), 1),
        "sub_searches": [{"position": s.position, "ply": s.ply, "within": s.within, "status": s.status, "nodes": s.nodes,
                          "cpu_seconds": round(s.cpu_seconds, 3), "peak_rss_mb": round(s.peak_rss_mb, 1),
                          "root_pn": s.root_pn, "root_dn": s.root_dn} for s in done.searches],
    }
    if done.tree is not None and path is not None:
        data.update(file=str(path), positions=done.tree.positions, prover_moves=len(done.tree.moves), depth=done.tree.depth,
                    kept=done.kept)
    return data


def by_ply(data: dict) -> Table:
    """The sub-searches counted by the ply they started at and how they ended."""
    counts: Counter[tuple[int, str]] = Counter()
    nodes: Counter[int] = Counter()
    for s in data["sub_searches"]:
        counts[s["ply"], "proved" if s["status"] == "proved" else "disproved" if s["status"] == "disproved"
               else s["status"] if s["status"] in ("no room", "skipped") else "unsettled"] += 1
        nodes[s["ply"]] += s["nodes"]
    table = Table("ply", "plies left", "proved", "disproved", "unsettled", "no room", "skipped", "nodes", title="sub-searches by ply")
    for ply in sorted(nodes, reverse=True):
        table.add_row(str(ply), str(data["claim"]["within"] - ply),
                      *(f"{counts[ply, s]:,}" for s in ("proved", "disproved", "unsettled", "no room", "skipped")), f"{nodes[ply]:,}")
    return table


def report(data: dict, name: str, target: Claim, out: Any = console) -> None:
    """The result in words, then the sub-searches by ply."""
    said = f"{escape(name)}: {target.words()}, repaired from {escape(data['from_proof'])} (its longest play {data['plan_longest_play']} plies)"
    cost = (f"{plural(len(data['sub_searches']), 'sub-search', 'sub-searches')}, {plural(data['nodes'], 'node')}, "
            f"{data['cpu_seconds']:,.1f} s CPU ({data['seconds']:,.1f} s in all), peak {data['peak_rss_mb']:,.0f} MB")
    if data["status"] == "proved":
        out.print(f"[bold green]proved[/] {said} — {cost}", soft_wrap=True)
        where = "stdout" if data["file"] == "-" else f"[bold]{escape(data['file'])}[/]"
        out.print(f"wrote {where}: {plural(data['prover_moves'], 'move')} of player {target.player} "
                  f"({data['kept']:,} kept from the plan), {plural(data['positions'], 'position')}, depth {data['depth']}", soft_wrap=True)
    else:
        why = {"failed": "the root itself could not be repaired within the budgets",
               "disproved": f"the search disproved it at the root or after a reply of the opponent's there: player {target.player} cannot win within {target.within} plies",
               "node budget": "the --max-nodes budget ran out", "interrupted": "interrupted"}.get(data["status"], data["status"])
        out.print(f"[yellow]not proved ({escape(data['status'])})[/] {said} — {escape(why)}; {cost}; no certificate written",
                  soft_wrap=True)
    if data["sub_searches"]:
        out.print(by_ply(data))
