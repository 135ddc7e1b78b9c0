"""`certify z3 ...`: cross-checks with the Z3 SMT solver (docs/z3.md).

Exit codes: 0 when every check is proved; 1 when one is refuted, unknown (e.g. out of time), or a
Z3 counterexample does not replay through the engine (the encodings disagree); 2 for bad input.
Each check runs in a child process killed at --timeout, so the limit holds whatever Z3 is doing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Literal, Optional, TypeVar

import typer
from rich import box
from rich.columns import Columns
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from certify.record.certificate import certificate_rules as certified_rules
from certify.record.certificate import read_certificate, read_certificate_about
from certify.cli.app import EXIT_FAILED, EXIT_OK, app, choice_words, console, fail, load_game, option_fail, user_errors, warn
from certify.cli.options import DEFAULT_TIMEOUT, GAME_HELP, GameArg, JsonOpt, PlayerOrBoth, TimeoutOpt
from certify.files import certificate_kind, readable_file
from certify.limits import TimedOut, memory_shortfall, run_bounded
from certify.render.text import board_table, plural
from certify.record.schema import Certificate
from certify.smt.bmc import PROPERTY_TEXT, Property, ReplayDisagreement, certificate_strategies, check_side
from certify.smt.graph import memory_estimate
from certify.smt.pairing import PairingStrategy, SearchRole, check_pairing, parse_cell, parse_pairing, search_pairings
from certify.smt.result import PlayedMove, SmtResult
from certify.smt.value import prove_value
from solver.games.positional.rules import Rules, require_table_size

z3_app = typer.Typer(
    help="Cross-check values, strategies and pairing strategies with the Z3 SMT solver.",
    no_args_is_help=True,
)
app.add_typer(z3_app, name="z3")

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
    with user_errors():
        return read_certificate(readable_file(path, "certificate"))


def certificate_about(rules: Rules, path: Path) -> Certificate:
    """The certificate at `path`, which must be about `rules` (the same rules sha256); exits 2 if not."""
    with user_errors():
        certificate = read_certificate_about(rules, readable_file(path, "certificate"))
    certificate_rules(certificate)  # and its rules must match their own hash
    return certificate


def game_or_certificate(target: str, cert: Path | None) -> tuple[Rules, Certificate | None]:
    """GAME|CERT and --cert FILE: the rules, and the certificate if one was given (about GAME)."""
    if certificate_kind(target) is not None:
        if cert is not None:
            raise fail(f"{target} is a certificate already: give GAME with --cert FILE, or the certificate alone")
        certificate = load_certificate(Path(target))
        return certificate_rules(certificate), certificate
    rules = load_game(target, certificates_too=True)
    return rules, None if cert is None else certificate_about(rules, cert)


def cell_option(text: str | None, rules: Rules, one_based: bool, name: str) -> int | None:
    """A --opening/--reply cell, 0-based; exits 2 if it is not a cell."""
    if text is None:
        return None
    try:
        return parse_cell(text, rules.cells, one_based)
    except ValueError as err:
        raise option_fail(name, err) from None


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
        title = f"{ply}. {'XO'[move.mark - 1]}{shown_cell(move.cell, one_based)}"  # ply parity gives the player
        frames.append(
            Panel(board_table(tuple(board), rules.rows, rules.cols, numbered=False), title=title, subtitle=move.role, expand=False, box=box.MINIMAL)
        )
    return Columns(frames)


def result_panel(rules: Rules, result: SmtResult, one_based: bool = False) -> Panel:
    """One result drawn: status, what was checked, time, details, and the counterexample."""
    status = result.status.upper() + (" (timeout)" if result.details.get("reason") == "timeout" else "")
    head = Text.assemble((status, STATUS_STYLE[result.status]), f"  {result.check}  ({result.seconds:.3f} s)")
    details = Table(show_header=False, box=None, padding=(0, 1))
    for key, value in result.details.items():
        if key != "queries":
            details.add_row(key.replace("_", " "), f"{value:,}" if type(value) is int else str(value))
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


def exit_code(results: list[SmtResult]) -> typer.Exit:
    """Exit 0 when every check is proved, 1 otherwise (refuted or unknown)."""
    return typer.Exit(EXIT_OK if results and all(r.status == "proved" for r in results) else EXIT_FAILED)


def timed_out(check: str, timeout: float) -> SmtResult:
    """The result of a check stopped at its time limit."""
    return SmtResult(check, "unknown", timeout, {"reason": "timeout", "limit_seconds": timeout})


def replayed(run: Callable[[], T], timeout: float, check: str) -> T | SmtResult:
    """Run a check in a child process bounded by `timeout`; a counterexample that does not replay exits 1."""
    try:
        return run_bounded(timeout, run)
    except TimedOut:
        return timed_out(check, timeout)
    except ReplayDisagreement as err:
        raise fail(f"internal disagreement: {err}", EXIT_FAILED) from None
    except MemoryError:
        raise fail(f"{check}: out of memory (the machine's available memory is the limit)", EXIT_FAILED) from None


# ---- commands ----------------------------------------------------------------------------------


@z3_app.command("value")
def value_command(
    target: Annotated[str, typer.Argument(metavar="GAME|CERT", help=f"{GAME_HELP} Or a certificate: its claim is checked.", show_default=False)],
    claim: Annotated[Optional[Literal["win", "draw", "loss"]], typer.Option("--claim", help="Claimed first-player value (default: the certificate's, or found by Z3).", show_default=False)] = None,
    margin: Annotated[Optional[int], typer.Option("--margin", metavar="N", help="most-lines: the claimed final line margin for player 1.", show_default=False)] = None,
    cert: Annotated[Optional[Path], typer.Option("--cert", metavar="FILE", help="Take the claim from this certificate about GAME (Z3 re-proves it).", show_default=False)] = None,
    timeout: TimeoutOpt = DEFAULT_TIMEOUT,
    json_out: JsonOpt = False,
) -> None:
    """Prove the first player's value from the minimax equations.

    The claim (given, the certificate's, or found by Z3) is proved when the equations admit it,
    its negation is UNSAT, and so is every other value. The certificate is CERT itself or
    --cert FILE, which must be about GAME. Exit 0 proved, 1 refuted or unknown.

    Example: certify z3 value w3t --claim win
    """
    rules, certificate = game_or_certificate(target, cert)
    if certificate is not None and claim is None:
        claim, margin = certificate.claim.root_value, certificate.claim.root_margin if margin is None else margin  # type: ignore[assignment]
    if margin is not None and rules.goal != "most-lines":
        raise fail("--margin applies only to goal most-lines")
    warn_memory(rules)
    result = replayed(lambda: prove_value(rules, claim, margin, timeout), timeout, f"{rules.name}: first player's value")
    emit(rules, [result], json_out)  # type: ignore[list-item]
    raise exit_code([result])  # type: ignore[list-item]


@z3_app.command("strategy")
def strategy_command(
    target: Annotated[str, typer.Argument(metavar="GAME|CERT", help=f"{GAME_HELP} Or a certificate written by `certify solve`.", show_default=False)],
    player: Annotated[Optional[Literal["1", "2"]], typer.Option("--player", help="Check only this player's strategy.", show_default=False)] = None,
    claim: Annotated[Optional[str], typer.Option("--claim", metavar="|".join(PROPERTY_TEXT), help="Check this instead of the certificate's guarantee.", show_default=False)] = None,
    cert: Annotated[Optional[Path], typer.Option("--cert", metavar="FILE", help="Check the strategies of this certificate about GAME instead of solving GAME now.", show_default=False)] = None,
    timeout: TimeoutOpt = DEFAULT_TIMEOUT,
    json_out: JsonOpt = False,
) -> None:
    """Prove a certificate's strategies by bounded model checking.

    Every play that follows the strategy, against every opponent move, keeps the strategy's
    guarantee; otherwise a counterexample is drawn, replayed through the engine. The strategies
    are CERT's, those of --cert FILE (about GAME), or, given GAME alone, the solver's (solved
    now). --timeout bounds each player's check. Exit 0 proved, 1 refuted or unknown.

    Example: certify z3 strategy w3t --player 1
    """
    if claim is not None and claim not in PROPERTY_TEXT:
        raise fail(f"--claim {claim}: must be {choice_words(list(PROPERTY_TEXT))}")
    rules, certificate = game_or_certificate(target, cert)
    source = cert or target
    if certificate is None:
        from certify.record.certificate import build_certificate

        with user_errors():
            require_table_size(rules)
        certificate = build_certificate(rules)
        source = f"{rules.name} (solved now)"
    try:
        strategies = certificate_strategies(certificate)
    except ValueError as err:
        raise fail(f"{source}: strategy table: {err}") from None
    chosen = [s for s in strategies if player is None or s.player == int(player)]
    if not chosen:
        raise fail(f"{source}: no strategy for player {player}")
    results = [
        replayed(
            lambda s=s: check_side(rules, s, claim or ("win" if s.guarantees == "win" else "no-loss"), timeout),
            timeout,
            f"{rules.name}: player {s.player}'s strategy",
        )
        for s in chosen
    ]
    emit(rules, results, json_out)  # type: ignore[arg-type]
    raise exit_code(results)  # type: ignore[arg-type]


@z3_app.command("pairing")
def pairing_command(
    game: GameArg,
    player: Annotated[PlayerOrBoth, typer.Option("--player", help="The pairing player's side: 1, 2, or (with --search) both.")] = "1",
    pairs: Annotated[Optional[str], typer.Option("--pairs", metavar="PAIRS", help="The pairing to check, e.g. 1-2,3-6,4-7,8-9.", show_default=False)] = None,
    opening: Annotated[Optional[str], typer.Option("--opening", metavar="CELL", help="Player 1's first cell (player 1: the pairing player's own; player 2: the opening answered).", show_default=False)] = None,
    reply: Annotated[Optional[str], typer.Option("--reply", metavar="CELL", help="Player 2's fixed first reply (with --player 2).", show_default=False)] = None,
    search: Annotated[bool, typer.Option("--search", help="Search for a pairing with the property instead of checking one.")] = False,
    prop: Annotated[Literal["no-loss", "draw", "win", "no-lines"], typer.Option("--property", help="With --search: no-loss (draw-forcing), draw (exact draw every play), win, or no-lines.")] = "no-loss",
    tactics: Annotated[bool, typer.Option("--opponent-tactics", help="Check only against opponents that complete a line when they can, else block one (seed 004's A.2 assumptions).")] = False,
    one_based: Annotated[bool, typer.Option("--one-based", help="Cells are numbered 1..9 (the paper's numbering), in input and output.")] = False,
    timeout: TimeoutOpt = DEFAULT_TIMEOUT,
    json_out: JsonOpt = False,
) -> None:
    """Check a pairing strategy (every arbitrary move included), or search for one.

    A check proves or refutes: never loses (never out-scored), draws every play exactly, and for
    most-lines that no line is ever completed; for first-line goals it adds the blocking test.
    A search proves a pairing exists (and shows it) or that none does. Exit 0 when every check
    is proved (or a pairing is found), 1 when one is refuted or unknown.

    Example: certify z3 pairing cumulative --search --player 2 --one-based
    """
    rules = load_game(game)
    first = cell_option(opening, rules, one_based, "--opening")
    answer = cell_option(reply, rules, one_based, "--reply")
    if search:
        if pairs is not None or answer is not None or tactics:
            raise fail("--search finds the pairing (and reply) itself, against every opponent: drop --pairs/--reply/--opponent-tactics")
        run_search(rules, player, prop, first, timeout, json_out, one_based)  # type: ignore[arg-type]
        return
    if pairs is None:
        raise fail("give --pairs to check a pairing, or --search to find one")
    if player == "both":
        raise fail("--player both applies to --search only")
    if tactics and (rules.marks != "own" or rules.goal == "first-line-loses"):
        raise fail("--opponent-tactics needs own marks and a goal where completing a line is good")
    try:
        pairing = parse_pairing(pairs, rules.cells, one_based)
    except ValueError as err:
        raise option_fail("--pairs", err) from None
    try:
        strategy = PairingStrategy(int(player), pairing, first, answer, one_based, tactics)
    except ValueError as err:
        raise fail(str(err)) from None
    report = replayed(lambda: check_pairing(rules, strategy, timeout), timeout, f"{rules.name}: pairing {pairs}")
    if isinstance(report, SmtResult):  # stopped at the time limit
        emit(rules, [report], json_out, one_based)
        raise exit_code([report])
    extra: dict[str, object] = {}
    if report.blocking is not None:
        unblocked = [[shown_cell(c, one_based) for c in line] for line in report.blocking.unblocked]
        extra["blocking_test"] = {"passes": report.blocking.passes, "unblocked_lines": unblocked}
    emit(rules, report.results, json_out, one_based, extra)
    if not json_out and "blocking_test" in extra:
        test = extra["blocking_test"]
        verdict = "passes" if test["passes"] else f"fails: unblocked opponent lines {test['unblocked_lines']}"  # type: ignore[index]
        console.print(f"blocking test (every opponent line holds a pair or the first move): {verdict}")
    raise exit_code(report.results)


def run_search(
    rules: Rules, role: SearchRole, prop: Property, opening: int | None, timeout: float, json_out: bool, one_based: bool
) -> None:
    """`certify z3 pairing --search`: run, then print the found pairing or the proof none exists."""
    try:
        outcome = replayed(lambda: search_pairings(rules, role, prop, opening, timeout), timeout, f"{rules.name}: pairing search")
    except ValueError as err:
        raise fail(str(err)) from None
    if isinstance(outcome, SmtResult):  # stopped at the time limit
        emit(rules, [outcome], json_out, one_based)
        raise exit_code([outcome])
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
        raise exit_code([outcome.result])
    emit(rules, [outcome.result], False, one_based)
    if found is not None:
        console.print(f"found: pairing [bold]{found.pairing.text(one_based)}[/]" + "".join(
            f", {label} {shown_cell(cell, one_based)}"
            for label, cell in (("player 1 opens", found.opening), ("player 2 replies", found.reply))
            if cell is not None
        ) + (" (cells 1-based)" if one_based else ""))
    console.print(f"{plural(len(outcome.refutations), 'candidate')} refuted by replayed counterexample plays (--json lists them)")
    raise exit_code([outcome.result])


def warn_memory(rules: Rules) -> None:
    """Warn before enumerating a game whose graph may not fit in the available memory."""
    shortfall = memory_shortfall(memory_estimate(rules))
    if shortfall:
        warn(f"Z3 encodes up to {3**rules.cells:,} states in Python: {shortfall}; --timeout bounds the attempt")
