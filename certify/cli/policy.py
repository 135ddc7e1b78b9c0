"""`certify policy list|audit` and `certify play`: players, their audits, and a game against the certified one."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.columns import Columns
from rich.markup import escape
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from certify.cli.app import EXIT_FAILED, app, console, fail, load_table_game, option_fail
from certify.cli.labels import certified_labels
from certify.cli.moves import MoveError, parse_move
from certify.cli.options import CertOpt, GameArg, Player, PlayerOrBoth
from certify.cli.solving import solving_progress
from certify.record.format import VALUE_WORDS
from certify.policy.audit import AuditProgress, PolicyAudit, PolicyError, audit_policy
from certify.policy.certified import CertifiedPlayer, labels_of, published_certificate
from certify.players.load import PolicySpecError, load_policy
from certify.players.registry import builtin_policies
from certify.render.text import board_table, value_text
from solver.games.positional.engine import Game, Move
from solver.search.retrograde import solve
from solver.games.positional.rules import Rules

policy_app = typer.Typer(
    name="policy",
    help="Players as policies: list the built-in ones, audit any of them exhaustively.",
    no_args_is_help=True,
)
app.add_typer(policy_app, name="policy")

SPEC_HELP = (
    "A built-in name (`certify policy list`), module:function or path/to/file.py:function naming "
    "a function (game, code) -> moves, or a .json table {code: [[cell, mark], ...]}. "
    "module:function IMPORTS AND RUNS THAT CODE: name only code you trust."
)
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]
LISTED_FLAWS = 10


def side_word(player: int, rules: Rules) -> str:
    """`first (X)` / `second (O)`; in games where either mark may be placed, just `first`/`second`."""
    marks = rules.marks_for(player)
    mark = f" ({'XO'[marks[0] - 1]})" if len(marks) == 1 else ""
    return ("first" if player == 1 else "second") + mark


@policy_app.command("list")
def list_policies(json_out: JsonOpt = False) -> None:
    """List the built-in policies, one line each.

    Example: certify policy list
    """
    known = builtin_policies()
    if json_out:
        console.print_json(json.dumps({name: entry.summary for name, entry in known.items()}))
        return
    table = Table("policy", "player", box=None)
    for name, entry in known.items():
        table.add_row(f"[bold]{name}[/]", entry.summary)
    table.add_row("module:function", "your function (game, code) -> moves (imports and runs your code)")
    table.add_row("FILE.json", escape("a move table {code: [[cell, mark], ...]}"))
    console.print(table)


@contextmanager
def audit_progress(enabled: bool) -> Iterator[AuditProgress | None]:
    """A status line fed by the audit's walk: the ply reached and the states so far."""
    if not enabled or not console.is_terminal:
        yield None
        return
    with console.status("auditing…", spinner="dots") as status:

        def hook(ply: int, states: int) -> None:
            status.update(f"auditing: ply {ply}, {states:,} states reached")

        yield hook


@policy_app.command("audit")
def audit(
    game: GameArg,
    policy: Annotated[str, typer.Option("--policy", "-p", metavar="SPEC", help=SPEC_HELP, show_default=False)],
    side: Annotated[PlayerOrBoth, typer.Option("--player", help="The side the policy plays: 1 (first), 2 (second) or both.")] = "both",
    json_out: JsonOpt = False,
) -> None:
    """Audit a policy exhaustively over every opponent move and every choice it may make.

    Reports whether it never loses (proved, or refuted by the shortest losing game), its exact win/draw/loss probabilities against a uniformly random opponent, and the reachable positions where it may give up value or take a slower win. Exit 0 when it never loses on every side audited, 1 when it can lose or breaks the rules, 2 for bad input.

    A module:function policy is imported, which RUNS ITS CODE: audit only code you trust.

    Example: certify policy audit tictactoe --policy minimax --player 2
    """

    rules = load_table_game(game)  # the audit plays the policy against the solved table: at most 4x4
    try:
        player_policy = load_policy(policy, rules)
    except PolicySpecError as err:
        raise option_fail("--policy", err) from None
    players = [1, 2] if side == "both" else [int(side)]
    with solving_progress(not json_out) as hook:
        solution = solve(rules, hook)
    audits = []
    with audit_progress(not json_out) as progress:
        for player in players:
            try:
                audits.append(audit_policy(rules, player_policy, player, policy, solution, progress))
            except PolicyError as err:
                raise fail(f"policy '{policy}' as {side_word(player, rules)} player: {err}", EXIT_FAILED) from None
    if json_out:
        console.print_json(json.dumps({"game": rules.name, "policy": policy, "audits": [a.as_dict() for a in audits]}))
    else:
        for result in audits:
            console.print(audit_panel(rules, result))
    if not all(a.never_loses for a in audits):
        raise typer.Exit(EXIT_FAILED)


def audit_panel(rules: Rules, result: PolicyAudit) -> Panel:
    """One audit, drawn: the verdict with its losing game, the odds, and the flaws."""
    parts: list[object] = []
    if result.never_loses:
        parts.append(Text.assemble(("never loses: ", "bold"), ("PROVED", "bold green"),
                                   f" over {result.states:,} reachable states ({result.decisions:,} decisions)"))
    else:
        moves = result.losing_game or ()
        parts.append(Text.assemble(("never loses: ", "bold"), ("REFUTED", "bold red"),
                                   f" — it loses this {len(moves)}-move game (shortest possible):"))
        parts.append(game_boards(Game(rules), moves))
    odds = result.random_opponent
    table = Table("against a uniformly random opponent", "exact", "≈", box=None)
    for word in ("win", "draw", "loss", "expected"):
        value = getattr(odds, word)
        table.add_row(word if word != "expected" else "expected result (win − loss)", str(value), f"{float(value):.6f}")
    parts.append(table)
    parts.append(flaw_summary("positions where it may give up value", result.value_errors))
    parts.append(flaw_summary("won positions where it may take a slower win", result.slow_wins))
    title = f"{result.policy} as the {side_word(result.player, rules)} player in {result.game}"
    return Panel(Group(*parts), title=title, expand=False)


def game_boards(game: Game, moves: tuple[Move, ...]) -> Columns:
    """The board after each move of a game, captioned with the move."""
    state, boards = game.initial(), []
    for number, move in enumerate(moves, start=1):
        state = game.apply(state, move)
        grid = board_table(game.board(state), game.rules.rows, game.rules.cols, numbered=False)
        grid.title = f"{number}. {move}"
        boards.append(grid)
    return Columns(boards)


def flaw_summary(what: str, flaws: tuple) -> Group:
    """A count and the first few flaws (all of them in --json)."""
    lines: list[object] = [Text.assemble((f"{what}: ", "bold"), f"{len(flaws):,}")]
    for flaw in flaws[:LISTED_FLAWS]:
        chosen = " ".join(str(m) for m in flaw.chosen)
        optimal = " ".join(str(m) for m in flaw.optimal)
        lines.append(f"  state {flaw.code} ({flaw.board}): may play {chosen}; best {optimal}")
    if len(flaws) > LISTED_FLAWS:
        lines.append(f"  … and {len(flaws) - LISTED_FLAWS:,} more (--json lists them all)")
    return Group(*lines)


# ---- certify play ---------------------------------------------------------------------------


def certified_player(rules: Rules, cert: Path | None) -> tuple[CertifiedPlayer, str]:
    """The certified player and where its labels came from; exits 2 (bad file) or 1 (rejected)."""
    path = cert or published_certificate(rules)
    if path is None:
        with solving_progress() as hook:
            solution = solve(rules, hook)
        return CertifiedPlayer(rules, labels_of(solution)), "labels solved just now (no certificate given or published)"
    with solving_progress() as hook:
        labels = certified_labels(rules, path, hook)
    return CertifiedPlayer(rules, labels), f"the certificate {path}, VALID by the independent checker"


def prompt_text(game: Game, code: int) -> str:
    """What to type, for this game's marks."""
    marks = game.rules.marks_for(game.to_move(code))
    if len(marks) == 1:
        return f"your move ({'XO'[marks[0] - 1]}: a cell number; undo, help, quit)> "
    return "your move (a mark and a cell, e.g. X4 or O4; undo, help, quit)> "


def show_board(game: Game, code: int) -> None:
    console.print(board_table(game.board(code), game.rules.rows, game.rules.cols))


@app.command()
def play(
    game: GameArg,
    side: Annotated[Player, typer.Option("--player", help="Your side: 1 moves first, 2 second.")] = "1",
    cert: CertOpt = None,
    seed: Annotated[Optional[int], typer.Option("--seed", metavar="N", help="Seed for the certified player's choice among equally good moves.", show_default=False)] = None,
) -> None:
    """Play GAME in the terminal against the certified player.

    The certified player reads a certificate (--cert, else certificates/NAME.json if present, else it
    solves now), checked by the independent checker first; it never gives up value, wins fastest or
    loses slowest, and among those moves picks the best against a random opponent. Cells are
    numbered on the board; where either mark may be placed type the mark too, like X4. Type undo to
    take back your last move, help for the rules, quit (or Ctrl-D) to stop.

    Example: certify play tictactoe --player 2
    """

    rules = load_table_game(game)  # the certified player reads the solved table: at most 4x4
    player, source = certified_player(rules, cert)
    board_game = player.game
    human = int(side)
    rng = random.Random(seed)
    console.print(f"[bold]{escape(rules.name)}[/]: you play {side_word(human, rules)}; the certified player uses {escape(source)}.")
    console.print(f"[dim]{escape(rules.describe())}. Type help, undo or quit at the prompt.[/]")
    history = [board_game.initial()]
    show_board(board_game, history[-1])
    while not board_game.is_terminal(state := history[-1]):
        if board_game.to_move(state) == human:
            answer = ask_move(board_game, state)
            if answer is None or answer == "quit":
                console.print("game abandoned." if answer == "quit" else "end of input: game abandoned.")
                return
            if answer == "undo":
                mine = [i for i in range(len(history) - 1) if board_game.to_move(history[i]) == human]
                if not mine:
                    console.print("[yellow]nothing to undo yet.[/]")
                    continue
                del history[mine[-1] + 1 :]
                console.print("took back your last move (and the reply).")
                show_board(board_game, history[-1])
                continue
            move = answer
            console.print(f"you play [bold]{move}[/]")
        else:
            move = rng.choice(player.choices(state))
            value, _ = player.rank(board_game.apply(state, move))
            console.print(f"certified player plays [bold]{move}[/] (its value now: {VALUE_WORDS[value]})")
        history.append(board_game.apply(state, move))
        show_board(board_game, history[-1])
    state = history[-1]
    result = board_game.returns(state)[human - 1]
    message = {1: "You win.", 0: "Draw.", -1: "The certified player wins."}[result]
    console.print(Text.assemble(("game over: ", "bold"), value_text(VALUE_WORDS[result]), f" for you. {message}"))


def ask_move(game: Game, code: int) -> Move | str | None:
    """Read input until a legal move, `undo` or `quit`; None at end of input. `help` explains."""
    while True:
        try:
            text = console.input(prompt_text(game, code)).strip()
        except EOFError:
            console.print()
            return None
        word = text.lower()
        if word in ("quit", "q", "exit"):
            return "quit"
        if word in ("undo", "u"):
            return "undo"
        if word in ("help", "h", "?"):
            marks = " or ".join("XO"[m - 1] for m in game.rules.marks_for(game.to_move(code)))
            console.print(f"type a cell number from the board (you place {marks}; where both are allowed, type the mark too, like X4); "
                          "undo takes back your last move, quit stops.")
            continue
        try:
            return parse_move(game, code, text)
        except MoveError as err:
            console.print(f"[red]{escape(str(err))}[/]; try again (help for help).")
