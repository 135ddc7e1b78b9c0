"""Commands about one game: `games`, `solve`, `stats`, `show`, `schema`."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Literal, Optional

import typer
from rich.console import Group
from rich.markup import escape
from rich.panel import Panel
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from certify.cli.app import app, console, errors, fail, load_game, load_table_game, option_fail, user_errors
from certify.cli.moves import MoveError, play_moves
from certify.cli.labels import Labelled, labelled_game
from certify.cli.options import CertOpt, ForceOpt, GameArg, JsonOpt, OutputOpt
from certify.files import certificate_mark, check_output, is_stdout, write_atomic
from certify.record.format import VALUE_WORDS
from certify.pipeline import Solved, default_filename, solve_and_certify
from certify.render.text import board_table, plural, searched_values, value_text
from solver.search.analysis import stats as game_stats
from solver.games.positional.engine import Game
from solver.search.retrograde import ProgressHook
from solver.games.positional.rules import BUILTIN_DESCRIPTIONS, TABLE_MAX_CELLS


@contextmanager
def solving_progress(enabled: bool = True) -> Iterator[ProgressHook | None]:
    """A rich progress display on stderr fed by the solver's hook: step, layer, states, time."""
    if not enabled or not errors.is_terminal:
        yield None
        return
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[states]:>12,} states"),
        TimeElapsedColumn(),
        console=errors,
        transient=True,
    ) as bar:
        task = bar.add_task("solving", total=None, states=0)

        def hook(phase: str, depth: int, states: int) -> None:
            bar.update(task, description=phase if depth < 0 else f"{phase} layer {depth}", states=states)

        yield hook


def game_rows() -> list[dict[str, str]]:
    """Every way to name a game, as `certify games` lists them: built-ins, patterns, other families."""
    from solver.games.families import FAMILIES, VARIANTS, resolve_game

    rows = [{"game": name, "kind": "built-in", "rules": text} for name, text in BUILTIN_DESCRIPTIONS.items()]
    rows.append({"game": "mnk:R,C,K[,wild][,misere]", "kind": "pattern",
                 "rules": "R×C board (up to 64 cells in any shape; tables up to 4×4), K in a row; wild = either mark; misere = line loses"})
    rows.append({"game": "FILE.json / FILE.toml", "kind": "spec file",
                 "rules": "your own spec: name, rows, cols, k or lines, marks, goal (docs/rules.md)"})
    for name in (name for family in FAMILIES for name in (family, *VARIANTS.get(family, ()))):  # positions and proofs, no tables
        rows.append({"game": name, "kind": "family", "rules": f"{resolve_game(name).rules.describe()} (certify show, certify prove)"})
    return rows


@app.command()
def games(json_out: JsonOpt = False) -> None:
    """List the built-in games, one line each.

    With --json: a list of {game, kind, rules}, the rows of the table (built-ins, the mnk: pattern,
    spec files, other families).

    Example: certify games
    """
    rows = game_rows()
    if json_out:
        console.print_json(json.dumps(rows))
        return
    table = Table("game", "rules", box=None)
    for row in rows:
        name = f"[bold]{escape(row['game'])}[/]" if row["kind"] in ("built-in", "family") else escape(row["game"])
        table.add_row(name, row["rules"])
    console.print(table)


@app.command("solve")
def solve_game(
    game: GameArg,
    output: OutputOpt = None,
    force: ForceOpt = False,
    timed: Annotated[bool, typer.Option("--timed", help="Record the wall time in provenance (the file is then not reproducible).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Solve GAME exhaustively and write its proof certificate.

    -o FILE is the certificate (default: NAME.json here; - for stdout). An existing file is
    replaced only if it is a certificate, or with --force.

    Example: certify solve w3t -o w3t.json
    """
    rules = load_table_game(game)
    path = output or Path(default_filename(rules))
    mark = certificate_mark("table", rules.sha256())  # a proof of another kind or game is never replaced silently
    with user_errors():
        check_output(path, mark, force)  # refuse before the work, not after
    with solving_progress(not json_out) as hook:
        solved = solve_and_certify(rules, game, timed=timed, progress=hook)
        if hook is not None:
            hook(f"write {path}", -1, len(solved.solution))
        with user_errors():
            write_atomic(path, solved.text, mark, force)
    summary = {
        "game": rules.name,
        "file": str(path),
        "sha256": hashlib.sha256(solved.text.encode()).hexdigest(),
        "bytes": len(solved.text.encode()),
        "states": len(solved.solution),
        "root_value": solved.document["claim"]["root_value"],
        "root_margin": solved.document["claim"]["root_margin"],
        "strategies": [
            {key: s[key] for key in ("player", "guarantees", "entries")} for s in solved.document["strategies"]
        ],
        "seconds": round(solved.elapsed_seconds, 4),
    }
    out = errors if is_stdout(path) else console  # the certificate itself may be on stdout
    if json_out:
        out.print_json(json.dumps(summary))
        return
    out.print(claim_panel(solved))
    where = "stdout" if is_stdout(path) else f"[bold]{escape(str(path))}[/]"
    out.print(
        f"wrote {where} ({summary['bytes']:,} bytes, sha256 {summary['sha256'][:16]}…) "
        f"in {summary['seconds']:.3f} s"
    )


def claim_panel(solved: Solved) -> Panel:
    """The root value and the first moves of a solved game, drawn."""
    claim = solved.document["claim"]
    margin = "" if claim["root_margin"] is None else f" (line margin {claim['root_margin']:+d})"
    header = Text.assemble(
        (solved.rules.name, "bold"),
        ": the first player's value is ",
        value_text(claim["root_value"]),
        f"{margin}   {len(solved.solution):,} reachable states",
    )
    moves = Table("move", "value for the mover", box=None)
    for move in claim["first_moves"]:
        moves.add_row(f"{'XO'[move['mark'] - 1]}{move['cell']}", value_text(move["value"]))
    strategies = ", ".join(
        f"player {s['player']} {'wins' if s['guarantees'] == 'win' else 'never loses'} "
        f"({plural(s['entries'], 'entry', 'entries')})"
        for s in solved.document["strategies"]
    )
    return Panel(Group(header, moves, f"strategies: {strategies}"), title="solved", expand=False)


@app.command()
def stats(game: GameArg, cert: CertOpt = None, json_out: JsonOpt = False) -> None:
    """Counts of GAME: states, terminal states, edges, games, symmetry classes, root value.

    Every count is computed from the reachable states and their labels: solved now, or with
    --cert FILE read from that certificate (about GAME, checked first), the same numbers.

    Example: certify stats tictactoe
    """
    rules = load_table_game(game)
    with solving_progress(not json_out) as hook:
        labelled = labelled_game(rules, cert, hook)
        if hook is not None:
            hook("counting", -1, len(labelled.codes))
        result = game_stats(labelled.labels())
    data = {"game": rules.name, "labels": labelled.source, **dataclasses.asdict(result)}
    if json_out:
        console.print_json(json.dumps(data))
        return
    table = Table("quantity", "count", box=None, title=f"{escape(rules.name)}")
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
    console.print(f"labels: {escape(labelled.source)}")


def parse_state(game: Game, code: int | None, moves: str | None, position: str | None) -> int:
    """The state named by `--code`, `--position` or a move list like `X4,O0`; exits 2 saying what is wrong."""
    given = [name for name, value in (("--code", code), ("--moves", moves), ("--position", position)) if value is not None]
    if len(given) > 1:
        raise fail(f"give one of --code, --moves and --position, not {' and '.join(given)}")
    if position is not None:
        try:
            return game.parse_position(position)
        except ValueError as err:
            raise option_fail("--position", err) from None
    if moves is None:
        last = 3**game.cells - 1
        if code is not None and not 0 <= code <= last:
            raise fail(f"--code {code}: must be in 0..{last:,} for a {game.rules.rows}×{game.rules.cols} board")
        return 0 if code is None else code
    try:
        return play_moves(game, moves)
    except MoveError as err:
        raise option_fail("--moves", err) from None


@app.command()
def show(
    game: GameArg,
    code: Annotated[Optional[int], typer.Option("--code", metavar="N", help="State code: sum of cell mark × 3^cell (X = 1, O = 2), as in the certificate.", show_default=False)] = None,
    moves: Annotated[Optional[str], typer.Option("--moves", metavar="MOVES", help="Reach the state by moves from the empty board, e.g. X4,O0,X8 (or 4,0,8 where the mark is implied; uttt: 4.0 0.4).", show_default=False)] = None,
    position: Annotated[Optional[str], typer.Option("--position", metavar="POSITION", help="A position as `certify show` prints it: rows like X.O/.X./... (uttt: docs/uttt.md).", show_default=False)] = None,
    solve_nodes: Annotated[Optional[int], typer.Option("--solve", metavar="NODES", min=1, help="Boards past 4×4 and uttt: value every legal move by proof search, at most this many nodes per question (tables value them exactly).", show_default=False)] = None,
    cert: CertOpt = None,
    json_out: JsonOpt = False,
    picture_format: Annotated[Literal["text", "svg"], typer.Option("--format", help="text: drawn in the terminal; svg: the board as SVG on stdout (tables: each move's value in its cell).")] = "text",
) -> None:
    """Atlas-style view of one state: the board, its label, and every legal move with its child.

    Up to 4×4 the moves' values come from the table; past it (and for uttt) --solve NODES
    values each move by proof search, `unknown` where the budget runs out.

    Example: certify show tictactoe --moves X4,O0
    """
    if json_out and picture_format != "text":
        raise fail("give --json or --format svg, not both")
    if game.split(":", 1)[0] == "uttt":
        if code is not None:
            raise fail("uttt positions are given by --position or --moves, not --code")
        if cert is not None:
            raise fail(f"--cert {cert}: {game} has no table certificate to read labels from; leave --cert out (--solve NODES values the moves)")
        from certify.cli.uttt_show import show_uttt  # only for uttt: its engine is not needed otherwise

        show_uttt(game, position, moves, solve_nodes, json_out, picture_format == "svg")
        return
    rules = load_game(game)
    game_obj = Game(rules)
    state = parse_state(game_obj, code, moves, position)
    if rules.cells > TABLE_MAX_CELLS:  # parse_state has checked the range
        if cert is not None:
            raise fail(f"--cert {cert}: {rules.name} is past the tables (more than {TABLE_MAX_CELLS} cells), so no certificate holds its labels; leave --cert out (--solve NODES values the moves)")
        if picture_format == "svg":
            from certify.render.svg import board_svg

            console.file.write(board_svg(game_obj.board(state), rules.rows, rules.cols) + "\n")
            return
        show_unlabelled(game_obj, state, solve_nodes, json_out)
        return
    if solve_nodes is not None:
        raise fail(f"--solve: {rules.name} fits a table (at most {TABLE_MAX_CELLS} cells), which values every move exactly; leave --solve out")
    with solving_progress(not json_out) as hook:
        labelled = labelled_game(rules, cert, hook)
    try:
        view = state_view(labelled, state)
    except KeyError:
        raise fail(f"position {game_obj.format_position(state)} (code {state}) is not reachable in {rules.name}") from None
    if json_out:
        console.print_json(json.dumps(view))
        return
    if picture_format == "svg":
        console.file.write(state_svg(game_obj, state, view) + "\n")
        return
    board = board_table(game_obj.board(state), rules.rows, rules.cols)
    label = value_text(view["value"])
    extra = "" if view["margin"] is None else f", margin {view['margin']:+d}"
    status = "terminal" if view["terminal"] else f"player {view['to_move']} to move"
    head = Text.assemble(
        ("position ", ""), (view["position"], "bold"), f"  code {state}  {status}  value for the side to move: ",
        label, f", {plies(view['distance'])} to the end{extra}",
    )
    table = Table("move", "child code", "child value (its side to move)", "move value (mover)", "plies", box=None)
    for move in view["moves"]:
        table.add_row(
            f"{'XO'[move['mark'] - 1]}{move['cell']}",
            str(move["child"]),
            value_text(move["child_value"]),
            value_text(move["move_value"]),
            str(move["child_distance"] + 1),
        )
    console.print(Panel(Group(head, board, table if view["moves"] else "no legal moves"), title=rules.name, expand=False))


def state_svg(game: Game, state: int, view: dict) -> str:
    """A labelled state as SVG (certify/render/svg.py): each move's value in its cell, the best starred,
    a completed line shaded."""
    from certify.record.positions import MoveValue
    from certify.render.svg import board_svg
    from solver.games.positional.engine import Move

    def rank(move: dict) -> tuple[int, int]:  # the best value, then the fastest win or the slowest loss
        plies = move["child_distance"] + 1
        return {"win": (2, -plies), "draw": (1, 0), "loss": (0, plies)}[move["move_value"]]

    top = max((rank(m) for m in view["moves"]), default=None)
    values = [MoveValue(Move(m["cell"], m["mark"]), m["child"], m["move_value"], m["child_distance"] + 1, None, rank(m) == top)
              for m in view["moves"]]
    board = game.board(state)
    done = [c for line in game.rules.lines if board[line[0]] and all(board[c] == board[line[0]] for c in line) for c in line]
    return board_svg(board, game.rules.rows, game.rules.cols, values, done)


def show_unlabelled(game: Game, state: int, solve_nodes: int | None, json_out: bool) -> None:
    """A state of a board too large for the table: the board, who moves, every legal move and,
    with `solve_nodes`, each move's value by proof search."""
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
    if solve_nodes is not None:
        from certify.cli.valued import valued_moves

        view["move_values"] = valued_moves(game, state, solve_nodes, not json_out)
    if json_out:
        console.print_json(json.dumps(view))
        return
    status = f"game over, result (player 1, player 2) {tuple(view['returns'])}" if terminal else f"player {view['to_move']} to move"
    values = "moves valued by proof search" if solve_nodes is not None else "no table past 4×4: --solve NODES values the moves"
    head = Text.assemble(("position ", ""), (view["position"], "bold"), f"  {status}  ({values})")
    board = board_table(game.board(state), rules.rows, rules.cols)
    if "move_values" in view:
        moves_part: Group | Text = searched_values(view["move_values"], solve_nodes or 0)
    else:
        moves_part = Text(f"legal moves: {' '.join(game.format_move(m) for m in game.legal_moves(state)) or 'none'}")
    console.print(Panel(Group(head, board, moves_part), title=rules.name, expand=False))


def plies(count: int) -> str:
    """`1 ply`, `3 plies`."""
    return f"{count} ply" if count == 1 else f"{count} plies"


def state_view(labelled: Labelled, code: int) -> dict:
    """One state's label and every legal move with its child's label; KeyError if not reachable."""
    game = labelled.game
    value, distance, margin = labelled.label(code)
    moves = []
    for move, child in labelled.moves(code):
        child_value, child_distance, _ = labelled.label(child)
        moves.append(
            {
                "cell": move.cell,
                "mark": move.mark,
                "child": child,
                "child_value": VALUE_WORDS[child_value],
                "move_value": VALUE_WORDS[-child_value],
                "child_distance": child_distance,
            }
        )
    return {
        "code": code,
        "position": game.format_position(code),
        "board": list(game.board(code)),
        "to_move": game.to_move(code),
        "terminal": game.is_terminal(code),
        "value": VALUE_WORDS[value],
        "distance": distance,
        "margin": margin,
        "moves": moves,
    }


@app.command()
def schema() -> None:
    """Print the JSON Schema of the certificate format (docs/certificate-format.md).

    Both kinds, `table` (certify solve) and `strategy` (certify prove), told apart by `kind`.

    Example: certify schema > certificate.schema.json
    """
    from certify.record.schema import json_schema  # pydantic loads for this command only (certify/format.py)

    console.print_json(json.dumps(json_schema()))
