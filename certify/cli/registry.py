"""Every `certify` command: its name, the module that defines it, and its one-line summary.

`certify --help` lists this table without importing any command module; a command's module is
imported only when that command runs (or shows its own --help), so startup stays fast.

To add a command (docs/cli.md):
1. write `certify/cli/NAME.py` with `from certify.cli.app import app` and `@app.command()` (or
   `app.add_typer(sub_app, name=...)` for a group of subcommands); import heavy modules there;
2. add one line below: "name": ("certify.cli.NAME", "the first line of its docstring").
tests/test_cli_conventions.py checks that every command is listed here with that summary.
"""

from __future__ import annotations

COMMANDS: dict[str, tuple[str, str]] = {
    "verify": ("certify.cli.audit", "Solve GAME, write its certificate, check it three independent ways, audit the papers' claims."),
    "games": ("certify.cli.solving", "List the built-in games, one line each."),
    "solve": ("certify.cli.solving", "Solve GAME exhaustively and write its proof certificate."),
    "check": ("certify.cli.checking", "Validate CERTIFICATE against the schema, then re-verify it with the independent checker."),
    "stats": ("certify.cli.solving", "Counts of GAME: states, terminal states, edges, games, symmetry classes, root value."),
    "show": ("certify.cli.solving", "Atlas-style view of one state: the board, its label, and every legal move with its child."),
    "prove": ("certify.cli.prove", "Prove that a player wins or does not lose GAME by proof-number search; write the proof tree."),
    "tree": ("certify.cli.tree", "Draw the certified strategy of GAME: each move it plays and every opponent reply."),
    "explore": ("certify.cli.explore", "Write one self-contained HTML page to play through a certified game: board, move values, strategy tree."),
    "schema": ("certify.cli.solving", "Print the JSON Schema of the certificate format (docs/certificate-format.md)."),
    "z3": ("certify.cli.z3", "Cross-check values, strategies and pairing strategies with the Z3 SMT solver."),
    "pairing": ("certify.cli.pairing", "Pairing strategies as certificates: find one that blocks every line open to the opponent."),
    "audit": ("certify.cli.audit", "Evaluate every claim in CLAIMS against the solved, checked games."),
    "policy": ("certify.cli.policy", "Players as policies: list the built-in ones, audit any of them exhaustively."),
    "play": ("certify.cli.policy", "Play GAME in the terminal against the certified player."),
    "publish": ("certify.cli.audit", "Regenerate every published certificate, audit, certificates/index.json and certificates/README.md."),
    "bench": ("certify.cli.benching", "Time the solver, certificate writer and checker (OpenSpiel the peer: pip install -e '.[bench]'), Z3, and players."),
}
