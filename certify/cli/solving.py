"""Commands about one game: `games`, `solve`, `stats`, `show`, `schema`."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import numpy as np
import typer
from rich.console import Group
from rich.panel import Panel
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from certify.certificate import write_certificate
from certify.cli.app import GAME_HELP, app, console, fail, load_game, load_table_game
from certify.cli.uttt_show import show_uttt
from certify.pipeline import Solved, default_filename, solve_and_certify
from certify.render import board_line, board_table, value_text
from certify.schema import VALUE_WORDS, Certificate
from solver.analysis import stats as game_stats
from solver.engine import Game, IllegalMove, parse_moves
from solver.retrograde import ProgressHook, Solution, solve
from solver.rules import BUILTIN_DESCRIPTIONS, TABLE_MAX_CELLS

GameArg = Annotated[str, typer.Argument(help=GAME_HELP, show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]


@contextmanager
def solving_progress(enabled: bool = True) -> Iterator[ProgressHook | None]:
    """A rich progress display fed by the solver's layer-by-layer hook."""
    if not enabled or not console.is_terminal:
        yield None
        return
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[states]:>12,} states"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("solving", total=None, states=0)

        def hook(phase: str, depth: int, states: int) -> None:
            bar.update(task, description=f"{phase} layer {depth}", states=states)

        yield hook


@app.command()
def games(json_out: JsonOpt = False) -> None:
    """List the built-in games, one line each."""
    if json_out:
        console.print_json(json.dumps(BUILTIN_DESCRIPTIONS))
        return
    table = Table("game", "rules", box=None)
    for name, text in BUILTIN_DESCRIPTIONS.items():
        table.add_row(f"[bold]{name}[/]", text)
    table.add_row("mnk:R,C,K[,wild][,misere]", "R×C board (up to 8×8; tables up to 4×4), K in a row; wild = either mark; misere = line loses")
    table.add_row("FILE.json / FILE.toml", "your own spec: name, rows, cols, k or lines, marks, goal (docs/rules.md)")
    console.print(table)


@app.command("solve")
def solve_game(
    game: GameArg,
    output: Annotated[Optional[Path], typer.Option("-o", "--output", help="Certificate file (default: NAME.json).")] = None,
    timed: Annotated[bool, typer.Option("--timed", help="Record the wall time in provenance (the file is then not reproducible).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Solve GAME exhaustively and write its proof certificate."""
    rules = load_table_game(game)
    with solving_progress(not json_out) as hook:
        solved = solve_and_certify(rules, game, timed=timed, progress=hook)
    path = output or Path(default_filename(rules))
    try:
        write_certificate(solved.certificate, path)
    except OSError as err:
        raise fail(f"{path}: cannot write: {err.strerror or err}") from None
    summary = {
        "game": rules.name,
        "file": str(path),
        "sha256": hashlib.sha256(solved.text.encode()).hexdigest(),
        "bytes": len(solved.text.encode()),
        "states": len(solved.solution),
        "root_value": solved.certificate.claim.root_value,
        "root_margin": solved.certificate.claim.root_margin,
        "strategies": [
            {"player": s.player, "guarantees": s.guarantees, "entries": s.entries}
            for s in solved.certificate.strategies
        ],
        "seconds": round(solved.elapsed_seconds, 4),
    }
    if json_out:
        console.print_json(json.dumps(summary))
        return
    console.print(claim_panel(solved))
    console.print(
        f"wrote [bold]{path}[/] ({summary['bytes']:,} bytes, sha256 {summary['sha256'][:16]}…) "
        f"in {summary['seconds']:.3f} s"
    )


def claim_panel(solved: Solved) -> Panel:
    """The root value and the first moves of a solved game, drawn."""
    claim = solved.certificate.claim
    margin = "" if claim.root_margin is None else f" (line margin {claim.root_margin:+d})"
    header = Text.assemble(
        (solved.rules.name, "bold"),
        ": the first player's value is ",
        value_text(claim.root_value),
        f"{margin}   {len(solved.solution):,} reachable states",
    )
    moves = Table("move", "value for the mover", box=None)
    for move in claim.first_moves:
        moves.add_row(f"{'XO'[move.mark - 1]} on {move.cell}", value_text(move.value))
    strategies = ", ".join(
        f"player {s.player} {'wins' if s.guarantees == 'win' else 'never loses'} ({s.entries} entries)"
        for s in solved.certificate.strategies
    )
    return Panel(Group(header, moves, f"strategies: {strategies}"), title="solved", expand=False)


@app.command()
def stats(game: GameArg, json_out: JsonOpt = False) -> None:
    """Counts of GAME: states, terminal states, edges, games, symmetry classes, root value."""
    rules = load_table_game(game)
    with solving_progress(not json_out) as hook:
        result = game_stats(solve(rules, hook))
    data = {"game": rules.name, **dataclasses.asdict(result)}
    if json_out:
        console.print_json(json.dumps(data))
        return
    table = Table("quantity", "count", box=None, title=f"{rules.name}")
    table.add_row("reachable states (empty board included)", f"{result.reachable_states:,}")
    for key, count in result.terminal_states.items():
        table.add_row(f"terminal states: {key.replace('_', ' ')}", f"{count:,}")
    table.add_row("non-terminal states", f"{result.nonterminal_states:,}")
    table.add_row("edges (legal state-move pairs)", f"{result.edges:,}")
    for key, count in result.games.items():
        table.add_row(f"games: {key.replace('_', ' ')}", f"{count:,}")
    for key, count in result.states_up_to_symmetry.items():
        table.add_row(f"states up to symmetry ({key.replace('_', ' ')})", f"{count:,}")
    table.add_row("root value (first player)", value_text(result.root_value))
    console.print(table)


def parse_code(game: Game, code: int | None, moves: str | None) -> int:
    """The state named by `--code` or by a move list like `X4,O0`; exits 2 if illegal."""
    if code is not None and moves is not None:
        raise fail("give --code or --moves, not both")
    if moves is None:
        return 0 if code is None else code
    try:
        return game.play(parse_moves(moves))
    except IllegalMove as err:
        raise fail(f"{err} ({board_line(game.board(err.state), game.rules.cols)})") from None
    except ValueError as err:
        raise fail(str(err)) from None


@app.command()
def show(
    game: GameArg,
    code: Annotated[Optional[int], typer.Option("--code", help="State code, sum(cell[i] * 3**i).")] = None,
    moves: Annotated[Optional[str], typer.Option("--moves", help="Reach the state by moves from the empty board, e.g. X4,O0,X8 (uttt: 4.0 0.4).")] = None,
    position: Annotated[Optional[str], typer.Option("--position", help="uttt: a position in the notation of docs/uttt.md.")] = None,
    solve_nodes: Annotated[Optional[int], typer.Option("--solve", min=1, help="uttt: value every legal move by proof search, at most this many nodes per question.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Atlas-style view of one state: the board, its label, and every legal move with its child."""
    if game == "uttt":
        if code is not None:
            raise fail("uttt positions are given by --position or --moves, not --code")
        show_uttt(position, moves, solve_nodes, json_out)
        return
    if position is not None or solve_nodes is not None:
        raise fail("--position and --solve are for uttt; positional games take --code or --moves and are solved exactly")
    rules = load_game(game)
    game_obj = Game(rules)
    state = parse_code(game_obj, code, moves)
    if rules.cells > TABLE_MAX_CELLS:
        if not 0 <= state < 3**rules.cells:
            raise fail(f"code {state} is outside 0..{3**rules.cells - 1}")
        show_unlabelled(game_obj, state, json_out)
        return
    solution = solve(rules)
    try:
        row = solution.index(state)
    except KeyError:
        if not 0 <= state < 3**rules.cells:
            raise fail(f"code {state} is outside 0..{3**rules.cells - 1}") from None
        raise fail(f"state {state} ({board_line(game_obj.board(state), rules.cols)}) is not reachable in {rules.name}") from None
    view = state_view(solution, row)
    if json_out:
        console.print_json(json.dumps(view))
        return
    board = board_table(game_obj.board(state), rules.rows, rules.cols)
    label = value_text(view["value"])
    extra = "" if view["margin"] is None else f", margin {view['margin']:+d}"
    status = "terminal" if view["terminal"] else f"player {view['to_move']} to move"
    head = Text.assemble(
        ("code ", ""), (str(state), "bold"), f"  {status}  value for the side to move: ",
        label, f", {plies(view['distance'])} to the end{extra}",
    )
    table = Table("move", "child code", "child value (its side to move)", "move value (mover)", "plies", box=None)
    for move in view["moves"]:
        table.add_row(
            f"{'XO'[move['mark'] - 1]} at {move['cell']}",
            str(move["child"]),
            value_text(move["child_value"]),
            value_text(move["move_value"]),
            str(move["child_distance"] + 1),
        )
    console.print(Panel(Group(head, board, table if view["moves"] else "no legal moves"), title=rules.name, expand=False))


def show_unlabelled(game: Game, state: int, json_out: bool) -> None:
    """A state of a board too large for the table: the board, who moves, and every legal move."""
    rules = game.rules
    terminal = game.is_terminal(state)
    view = {
        "code": state,
        "position": game.format_position(state),
        "board": list(game.board(state)),
        "to_move": game.to_move(state),
        "terminal": terminal,
        "returns": list(game.returns(state)) if terminal else None,
        "moves": [{"cell": m.cell, "mark": m.mark, "child": game.apply(state, m)} for m in game.legal_moves(state)],
    }
    if json_out:
        console.print_json(json.dumps(view))
        return
    status = f"game over, result (player 1, player 2) {tuple(view['returns'])}" if terminal else f"player {view['to_move']} to move"
    head = Text.assemble(("position ", ""), (view["position"], "bold"), f"  {status}  (no table beyond 4x4: no values)")
    moves_line = " ".join(game.format_move(m) for m in game.legal_moves(state)) or "no legal moves"
    board = board_table(game.board(state), rules.rows, rules.cols)
    console.print(Panel(Group(head, board, Text(f"legal moves: {moves_line}")), title=rules.name, expand=False))


def plies(count: int) -> str:
    """`1 ply`, `3 plies`."""
    return f"{count} ply" if count == 1 else f"{count} plies"


def state_view(solution: Solution, row: int) -> dict:
    """One state's label and every legal move with its child's label."""
    game = solution.game
    code = int(solution.codes[row])
    margins = solution.margins
    moves = []
    for column, child in enumerate(solution.children(np.array([row]))[0]):
        if child < 0:
            continue
        child_value = int(solution.values[child])
        moves.append(
            {
                "cell": column // 2,
                "mark": column % 2 + 1,
                "child": int(solution.codes[child]),
                "child_value": VALUE_WORDS[child_value],
                "move_value": VALUE_WORDS[-child_value],
                "child_distance": int(solution.distances[child]),
            }
        )
    return {
        "code": code,
        "board": list(game.board(code)),
        "to_move": game.to_move(code),
        "terminal": bool(solution.terminal[row]),
        "value": VALUE_WORDS[int(solution.values[row])],
        "distance": int(solution.distances[row]),
        "margin": None if margins is None else int(margins[row]),
        "moves": moves,
    }


@app.command()
def schema() -> None:
    """Print the JSON Schema of the certificate format (docs/certificate-format.md)."""
    console.print_json(json.dumps(Certificate.model_json_schema()))
