"""`certify z3 ...`: cross-checks with the Z3 SMT solver (docs/z3.md).

Exit codes: 0 for a result (proved, refuted or unknown), 2 for bad input, 1 only when a Z3
counterexample does not replay through the engine as a real violation (the encodings disagree).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Optional, TypeVar

import typer
from rich import box
from rich.columns import Columns
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from certify.certificate import certificate_rules as certified_rules
from certify.certificate import read_certificate
from certify.cli.app import EXIT_FAILED, GAME_HELP, app, console, fail, load_game, user_errors
from certify.render import board_table
from certify.schema import FORMAT, Certificate
from certify.smt.bmc import PROPERTY_TEXT, Property, ReplayDisagreement, certificate_strategies, check_side
from certify.smt.pairing import PairingStrategy, SearchRole, check_pairing, parse_cell, parse_pairing, search_pairings
from certify.smt.result import PlayedMove, SmtResult
from certify.smt.value import prove_value
from solver.rules import Rules, make_rules

z3_app = typer.Typer(
    help="Cross-check values, strategies and pairing strategies with the Z3 SMT solver.",
    no_args_is_help=True,
)
app.add_typer(z3_app, name="z3")

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
TimeoutOpt = Annotated[float, typer.Option("--timeout", min=0.1, help="Seconds Z3 may spend before answering unknown.")]
T = TypeVar("T")
STATUS_STYLE = {"proved": "bold green", "refuted": "bold red", "unknown": "yellow"}


# ---- inputs ------------------------------------------------------------------------------------


def certificate_rules(certificate: Certificate) -> Rules:
    """The rules a certificate states; exits 2 if they are not a game or do not match their hash."""
    with user_errors():
        rules = certified_rules(certificate)
    if rules.sha256() != certificate.rules_sha256:
        raise fail("certificate: rules_sha256 does not match its rules")
    return rules


def load_certificate(path: Path) -> Certificate:
    """Read a certificate file or exit 2."""
    if not path.is_file():
        raise fail(f"{path}: no such file")
    with user_errors():
        return read_certificate(path)


def is_certificate(argument: str) -> bool:
    """Whether a GAME|CERT argument names a certificate file (a JSON object with our format)."""
    path = Path(argument)
    if path.suffix != ".json" or not path.is_file():
        return False
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


def cell_option(text: str | None, rules: Rules, one_based: bool, name: str) -> int | None:
    """A --opening/--reply cell, 0-based; exits 2 if it is not a cell."""
    if text is None:
        return None
    try:
        return parse_cell(text, rules.cells, one_based)
    except ValueError as err:
        raise fail(f"{name}: {err}") from None


# ---- output ------------------------------------------------------------------------------------


def shown_cell(cell: int, one_based: bool) -> int:
    """A cell as the user numbers it."""
    return cell + 1 if one_based else cell


def play_text(play: tuple[PlayedMove, ...], one_based: bool = False) -> list[str]:
    """`X4 (opening)` for every move of a play."""
    return [f"{'XO'[m.mark - 1]}{shown_cell(m.cell, one_based)} ({m.role})" for m in play]


def play_drawing(rules: Rules, play: tuple[PlayedMove, ...], one_based: bool) -> Columns:
    """The counterexample move by move: the board after each ply."""
    board = [0] * rules.cells
    frames = []
    for ply, move in enumerate(play, start=1):
        board[move.cell] = move.mark
        title = f"{ply}. P{move.player} {'XO'[move.mark - 1]}{shown_cell(move.cell, one_based)}"
        frames.append(
            Panel(board_table(tuple(board), rules.rows, rules.cols, numbered=False), title=title, subtitle=move.role, expand=False, box=box.MINIMAL)
        )
    return Columns(frames)


def result_panel(rules: Rules, result: SmtResult, one_based: bool = False) -> Panel:
    """One result drawn: status, what was checked, time, details, and the counterexample."""
    head = Text.assemble((result.status.upper(), STATUS_STYLE[result.status]), f"  {result.check}  ({result.seconds:.3f} s)")
    details = Table(show_header=False, box=None, padding=(0, 1))
    for key, value in result.details.items():
        if key != "queries":
            details.add_row(key.replace("_", " "), str(value))
    for key, value in dict(result.details.get("queries", {})).items():  # type: ignore[call-overload]
        details.add_row(f"query: {key}", str(value))
    parts: list[object] = [head, details]
    if result.counterexample:
        parts += ["counterexample:", play_drawing(rules, result.counterexample, one_based)]
    return Panel(Group(*parts), expand=False)  # type: ignore[arg-type]


def result_json(result: SmtResult, one_based: bool = False) -> dict[str, object]:
    """A result as JSON, the counterexample also as move text."""
    data = result.to_json()
    if result.counterexample:
        data["counterexample_moves"] = play_text(result.counterexample, one_based)
    return data


def emit(rules: Rules, results: list[SmtResult], json_out: bool, one_based: bool = False, extra: dict | None = None) -> None:
    """Print the results as panels or as one JSON object."""
    if json_out:
        console.print_json(json.dumps({"game": rules.name, **(extra or {}), "results": [result_json(r, one_based) for r in results]}))
        return
    for result in results:
        console.print(result_panel(rules, result, one_based))


def replayed(run: Callable[[], T]) -> T:
    """Run a check; a counterexample that does not replay exits 1."""
    try:
        return run()
    except ReplayDisagreement as err:
        raise fail(f"internal disagreement: {err}", EXIT_FAILED) from None


# ---- commands ----------------------------------------------------------------------------------


@z3_app.command("value")
def value_command(
    target: Annotated[str, typer.Argument(metavar="GAME|CERT", help=f"{GAME_HELP} Or a certificate: its claim is checked.", show_default=False)],
    claim: Annotated[Optional[str], typer.Option("--claim", help="Claimed first-player value: win, draw or loss (default: the certificate's, or found by Z3).")] = None,
    margin: Annotated[Optional[int], typer.Option("--margin", help="most-lines: the claimed final line margin for player 1.")] = None,
    timeout: TimeoutOpt = 60.0,
    json_out: JsonOpt = False,
) -> None:
    """Prove the first player's value from the minimax equations.

    The claim (given, the certificate's, or found by Z3) is proved when the equations admit it,
    its negation is UNSAT, and so is every other value.
    """
    if is_certificate(target):
        certificate = load_certificate(Path(target))
        rules = certificate_rules(certificate)
        if claim is None:
            claim, margin = certificate.claim.root_value, certificate.claim.root_margin if margin is None else margin
    else:
        rules = load_game(target)
    if claim is not None and claim not in ("win", "draw", "loss"):
        raise fail(f"--claim '{claim}': expected win, draw or loss")
    if margin is not None and rules.goal != "most-lines":
        raise fail("--margin applies only to goal most-lines")
    result = prove_value(rules, claim, margin, timeout)
    emit(rules, [result], json_out)


@z3_app.command("strategy")
def strategy_command(
    certificate_path: Annotated[Path, typer.Argument(metavar="CERT", help="A certificate written by `certify solve`.", show_default=False)],
    player: Annotated[Optional[int], typer.Option("--player", min=1, max=2, help="Check only this player's strategy.")] = None,
    claim: Annotated[Optional[str], typer.Option("--claim", help=f"Check this instead of the certificate's guarantee: {', '.join(PROPERTY_TEXT)}.")] = None,
    timeout: TimeoutOpt = 60.0,
    json_out: JsonOpt = False,
) -> None:
    """Prove a certificate's strategies by bounded model checking.

    Every play that follows the strategy, against every opponent move, keeps the strategy's
    guarantee; otherwise a counterexample is drawn, replayed through the engine.
    """
    certificate = load_certificate(certificate_path)
    rules = certificate_rules(certificate)
    if claim is not None and claim not in PROPERTY_TEXT:
        raise fail(f"--claim '{claim}': expected one of {', '.join(PROPERTY_TEXT)}")
    try:
        strategies = certificate_strategies(certificate)
    except ValueError as err:
        raise fail(f"{certificate_path}: strategy table: {err}") from None
    chosen = [s for s in strategies if player is None or s.player == player]
    if not chosen:
        raise fail(f"{certificate_path}: no strategy for player {player}")
    results = [
        replayed(lambda s=s: check_side(rules, s, claim or ("win" if s.guarantees == "win" else "no-loss"), timeout))
        for s in chosen
    ]
    emit(rules, results, json_out)


@z3_app.command("pairing")
def pairing_command(
    game: Annotated[str, typer.Argument(help=GAME_HELP, show_default=False)],
    role: Annotated[str, typer.Option("--role", help="1, 2, or (with --search) both.")] = "1",
    pairs: Annotated[Optional[str], typer.Option("--pairs", help="The pairing to check, e.g. 1-2,3-6,4-7,8-9.")] = None,
    opening: Annotated[Optional[str], typer.Option("--opening", help="Player 1's first cell (role 1: the pairing player's own; role 2: the opening answered).")] = None,
    reply: Annotated[Optional[str], typer.Option("--reply", help="Role 2: player 2's fixed first reply.")] = None,
    search: Annotated[bool, typer.Option("--search", help="Search for a pairing with the property instead of checking one.")] = False,
    prop: Annotated[str, typer.Option("--property", help="With --search: no-loss (draw-forcing), draw (exact draw every play), win, or no-lines.")] = "no-loss",
    tactics: Annotated[bool, typer.Option("--opponent-tactics", help="Check only against opponents that complete a line when they can, else block one (seed 004's A.2 assumptions).")] = False,
    one_based: Annotated[bool, typer.Option("--one-based", help="Cells are numbered 1..9 (the paper's numbering), in input and output.")] = False,
    timeout: TimeoutOpt = 300.0,
    json_out: JsonOpt = False,
) -> None:
    """Check a pairing strategy (every arbitrary move included), or search for one.

    A check proves or refutes: never loses (never out-scored), draws every play exactly, and for
    most-lines that no line is ever completed; for first-line goals it adds the blocking test.
    A search proves a pairing exists (and shows it) or that none does.
    """
    rules = load_game(game)
    if role not in ("1", "2", "both"):
        raise fail(f"--role '{role}': expected 1, 2 or both")
    first = cell_option(opening, rules, one_based, "--opening")
    answer = cell_option(reply, rules, one_based, "--reply")
    if search:
        if pairs is not None or answer is not None or tactics:
            raise fail("--search finds the pairing (and reply) itself, against every opponent: drop --pairs/--reply/--opponent-tactics")
        if prop not in PROPERTY_TEXT:
            raise fail(f"--property '{prop}': expected one of {', '.join(PROPERTY_TEXT)}")
        run_search(rules, role, prop, first, timeout, json_out, one_based)  # type: ignore[arg-type]
        return
    if pairs is None:
        raise fail("give --pairs to check a pairing, or --search to find one")
    if role == "both":
        raise fail("--role both applies to --search only")
    if tactics and (rules.marks != "own" or rules.goal == "first-line-loses"):
        raise fail("--opponent-tactics needs own marks and a goal where completing a line is good")
    try:
        strategy = PairingStrategy(int(role), parse_pairing(pairs, rules.cells, one_based), first, answer, one_based, tactics)
    except ValueError as err:
        raise fail(str(err)) from None
    report = replayed(lambda: check_pairing(rules, strategy, timeout))
    extra: dict[str, object] = {}
    if report.blocking is not None:
        unblocked = [[shown_cell(c, one_based) for c in line] for line in report.blocking.unblocked]
        extra["blocking_test"] = {"passes": report.blocking.passes, "unblocked_lines": unblocked}
    emit(rules, report.results, json_out, one_based, extra)
    if not json_out and "blocking_test" in extra:
        test = extra["blocking_test"]
        verdict = "passes" if test["passes"] else f"fails: unblocked opponent lines {test['unblocked_lines']}"  # type: ignore[index]
        console.print(f"blocking test (every opponent line holds a pair or the first move): {verdict}")


def run_search(
    rules: Rules, role: SearchRole, prop: Property, opening: int | None, timeout: float, json_out: bool, one_based: bool
) -> None:
    """`certify z3 pairing --search`: run, then print the found pairing or the proof none exists."""
    try:
        outcome = replayed(lambda: search_pairings(rules, role, prop, opening, timeout))
    except ValueError as err:
        raise fail(str(err)) from None
    found = outcome.found
    extra: dict[str, object] = {
        "refutations": [
            {"role": r.role, "moves": play_text(r.play, one_based), "verdict": r.verdict} for r in outcome.refutations
        ]
    }
    if found is not None:
        extra["found"] = {
            "pairing": found.pairing.text(one_based),
            "player_1_opening": None if found.opening is None else shown_cell(found.opening, one_based),
            "player_2_reply": None if found.reply is None else shown_cell(found.reply, one_based),
        }
    if json_out:
        emit(rules, [outcome.result], True, one_based, extra)
        return
    emit(rules, [outcome.result], False, one_based)
    if found is not None:
        console.print(f"found: pairing [bold]{found.pairing.text(one_based)}[/]" + "".join(
            f", {label} {shown_cell(cell, one_based)}"
            for label, cell in (("player 1 opens", found.opening), ("player 2 replies", found.reply))
            if cell is not None
        ) + (" (cells 1-based)" if one_based else ""))
    console.print(f"{len(outcome.refutations)} candidate(s) refuted by replayed counterexample plays (--json lists them)")
