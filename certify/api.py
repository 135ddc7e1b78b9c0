"""The Python API for notebooks and scripts: state a game, solve it, check and explore the proof.

Everything here is re-exported by `certify` itself (lazily, so `import certify` stays instant):

    >>> import certify
    >>> w3t = certify.solve("w3t")
    >>> w3t.value
    'win'

docs/api.md walks through a session.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from html import escape
from pathlib import Path
from typing import Any

from certify.errors import CertifyError
from certify.record.positions import CertifiedGame, Label, MoveValue
from certify.record.schema import Certificate
from solver.games.positional.engine import Move, parse_moves
from solver.games.positional.rules import Rules, resolve

__all__ = ["CertifyError", "Certified", "Position", "Proof", "Verdict", "audit_claims", "check", "game", "load", "prove", "solve"]


@contextmanager
def bad_input() -> Iterator[None]:
    """Turn the toolkit's input errors (each a ValueError with one line: RulesError, IllegalMove,
    CertificateError, a position that does not parse, ...) into CertifyError with the same line."""
    try:
        yield
    except CertifyError:
        raise
    except ValueError as err:
        raise CertifyError(str(err).splitlines()[0] if str(err) else type(err).__name__) from err


def require_player(player: object) -> int:
    """`player` if it is 1 or 2; else CertifyError."""
    if player not in (1, 2) or isinstance(player, bool):
        raise CertifyError(f"player {player!r}: must be 1 or 2")
    return int(player)  # type: ignore[call-overload]


def game(text: str | Rules) -> Rules:
    """The rules named by `text`: a built-in name, `mnk:R,C,K[,wild][,misere]` or a spec file.

    Raises CertifyError with one line when `text` names no game.
    """
    with bad_input():
        return text if isinstance(text, Rules) else resolve(text)


def solve(text: str | Rules) -> Certified:
    """Solve the game exhaustively and certify it: every reachable state labelled (boards up to 4×4)."""
    from certify.pipeline import solve_and_certify
    from solver.games.positional.rules import require_table_size

    rules = game(text)
    with bad_input():
        require_table_size(rules)
    name = text if isinstance(text, str) else rules.name
    return Certified(solve_and_certify(rules, name).certificate)


def prove(
    text: str,
    player: int,
    claim: str = "win",
    position: str | None = None,
    max_nodes: int | None = 1_000_000,
    max_memory: float | None = None,
) -> Proof:
    """Prove by proof-number search that `player` wins (`claim="win"`) or does not lose (`"no-loss"`).

    Works for every family (`"uttt"` too) and boards past the table solver's 4×4; `position` is a
    position in the family's notation, as `certify show` prints it (None: the start). The search
    stops after `max_nodes` nodes or at `max_memory` MB of resident memory. As `certify prove`
    does, a disproved claim has its opposite searched with the same budget: `Proof.opposite`.
    """
    from certify.proving.single import prove as search
    from solver.games.families import resolve_game
    from solver.search.pns import Claim

    if claim not in ("win", "no-loss"):
        raise CertifyError(f"claim {claim!r}: must be 'win' or 'no-loss'")
    target = Claim(require_player(player), claim)  # type: ignore[arg-type]
    with bad_input():
        family = resolve_game(text)
        if position is not None:
            family.parse_position(position)
    attempt = search(family, target, position, max_nodes=max_nodes, max_memory_mb=max_memory)
    opposite = None
    if attempt.outcome.status == "disproved":
        opposite = Proof(search(family, target.opposite(), position, max_nodes=max_nodes, max_memory_mb=max_memory), family)
    return Proof(attempt, family, opposite)


def load(path: str | Path) -> Certified:
    """Read a certificate file (schema-validated; `check` runs the independent checker)."""
    from certify.record.certificate import read_certificate

    with bad_input():
        return Certified(read_certificate(Path(path)))


@dataclass(frozen=True)
class Verdict:
    """The independent checker's verdict on a certificate."""

    valid: bool
    message: str  # the checker's one line: VALID … or INVALID … or ERROR …

    def __bool__(self) -> bool:
        return self.valid

    def __str__(self) -> str:
        return self.message


def check(certificate: Certified | Proof | str | Path) -> Verdict:
    """Run the independent checker (`checker/`, which shares no code with the solver).

    A verdict is VALID or INVALID; a file that is not a certificate at all (the checker's ERROR,
    `certify check`'s exit 2) raises CertifyError.
    """
    import checker

    if isinstance(certificate, (Certified, Proof)):
        if certificate.text is None:
            raise CertifyError("nothing to check: the claim was not proved" + (
                " (its opposite is: check proof.opposite)" if isinstance(certificate, Proof) and certificate.opposite else ""))
        result = checker.check_bytes(certificate.text.encode())
    else:
        result = checker.check_file(str(certificate))
    if result.exit_code not in (0, 1):
        raise CertifyError(result.message.removeprefix("ERROR: "))
    return Verdict(result.exit_code == 0, result.message)


def audit_claims(claims: str | Path, published: str | Path = "certificates"):  # -> certify.claims.run.FileAudit
    """Evaluate a claims file (docs/claims-format.md); each result has `.id`, `.verdict` (its primary
    reading's, or ambiguous), `.primary` and `.readings` (the primary first).

    `published` is the directory of published certificates some claims refer to. (Not named
    `claims`: `certify.claims` is the package that does the work.)
    """
    from certify.claims.facts import Bench
    from certify.claims.run import audit_file

    with bad_input():
        return audit_file(Path(claims), Bench(published_dir=Path(published)))


class Certified:
    """A certified game: its certificate and the certified value of every position."""

    def __init__(self, certificate: Certificate) -> None:
        self.certificate = certificate
        self._labels = CertifiedGame(certificate)

    @property
    def rules(self) -> Rules:
        """The rules the certificate is about."""
        return self._labels.rules

    @property
    def name(self) -> str:
        """The game's name (a label; the rules' sha256 identifies the game)."""
        return self.rules.name

    @property
    def description(self) -> str:
        """The game in words."""
        return self.rules.describe()

    @property
    def value(self) -> str:
        """The first player's certified result with best play: 'win', 'draw' or 'loss'."""
        return self.certificate.claim.root_value

    @property
    def states(self) -> int:
        """Number of reachable states the certificate labels."""
        return self._labels.states

    @cached_property
    def text(self) -> str:
        """The exact text of the certificate file."""
        from certify.record.certificate import certificate_json

        return certificate_json(self.certificate)

    def save(self, path: str | Path, force: bool = False) -> Path:
        """Write the certificate file (atomically) and return its path. An existing file is replaced
        only if it is a table certificate of this game, or with `force` (as `certify solve` does)."""
        from certify.files import certificate_mark, write_atomic

        with bad_input():
            write_atomic(Path(path), self.text, certificate_mark("table", self.rules.sha256()), force)
        return Path(path)

    def position(self, moves: str | list[Move] = "") -> Position:
        """The position after `moves` from the empty board, e.g. `"X4,O0"`.

        Raises CertifyError at the first illegal move.
        """
        with bad_input():
            played = parse_moves(moves) if isinstance(moves, str) else list(moves)
            return Position(self, self._labels.game.play(played), tuple(played))

    def strategy(self, player: int) -> dict[int, Move]:
        """The certified strategy of `player`: state code → the move it plays there (empty if the
        certificate holds none for that player)."""
        return dict(self._labels.strategies.get(require_player(player), {}))

    def __repr__(self) -> str:
        return f"<Certified {self.name!r}: first player {self.value}, {self.states:,} states>"

    def _repr_html_(self) -> str:
        root = self.position()
        return (
            f"<div><b>{escape(self.name)}</b>: {escape(self.description)}<br>"
            f"first player's certified result: <b>{self.value}</b>; {self.states:,} reachable states; "
            f"rules sha256 <code>{self.certificate.rules_sha256[:16]}…</code></div>{root._repr_svg_()}"
        )


class Position:
    """One position of a certified game, with its certified label and every move's value."""

    def __init__(self, certified: Certified, code: int, moves: tuple[Move, ...] = ()) -> None:
        self.certified = certified
        self.code = code
        self.moves_played = moves

    @property
    def _game(self) -> CertifiedGame:
        return self.certified._labels

    @property
    def board(self) -> tuple[int, ...]:
        """The mark on every cell: 0 empty, 1 X, 2 O (cells numbered row by row from 0)."""
        return self._game.game.board(self.code)

    @property
    def to_move(self) -> int:
        """The player to move, 1 or 2."""
        return self._game.game.to_move(self.code)

    @property
    def label(self) -> Label:
        """The certified value for the side to move and the plies to the end with best play."""
        return self._game.label(self.code)

    @property
    def value(self) -> str:
        """The certified result for the side to move: 'win', 'draw' or 'loss'."""
        return self.label.value

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over here."""
        return self.label.distance == 0

    @property
    def moves(self) -> list[MoveValue]:
        """Every legal move with its certified value for the mover."""
        return self._game.moves(self.code)

    @property
    def best_moves(self) -> list[MoveValue]:
        """The best moves: the best value, then the fastest win or slowest loss."""
        return [m for m in self.moves if m.best]

    def strategy_move(self, player: int | None = None) -> Move | None:
        """The move the certified strategy of `player` (default: the side to move) plays here."""
        chosen = self.to_move if player is None else require_player(player)
        return self._game.strategies.get(chosen, {}).get(self.code)

    def play(self, moves: str | Move) -> Position:
        """The position after `moves` (e.g. `"X4"` or `"X4,O0"`); CertifyError at an illegal one."""
        with bad_input():
            more = parse_moves(moves) if isinstance(moves, str) else [moves]
            return Position(self.certified, self._game.game.play(more, self.code), self.moves_played + tuple(more))

    def __str__(self) -> str:
        rows, cols = self.certified.rules.rows, self.certified.rules.cols
        marks = [".XO"[m] for m in self.board]
        return "\n".join(" ".join(marks[r * cols : (r + 1) * cols]) for r in range(rows))

    def __repr__(self) -> str:
        played = ",".join(str(m) for m in self.moves_played) or "start"
        return f"<Position {self.certified.name} {played} (code {self.code}): {self.value} for player {self.to_move}>"

    def _repr_svg_(self) -> str:
        from certify.render.svg import board_svg

        rules = self.certified.rules
        board = self.board
        done = [line for line in rules.lines if board[line[0]] and all(board[c] == board[line[0]] for c in line)]
        return board_svg(board, rules.rows, rules.cols, self.moves, [c for line in done for c in line])


class Proof:
    """The outcome of a proof search; when proved, its strategy certificate. When disproved, the
    search for the opposite claim (`opposite`), whose certificate proves the disproof."""

    def __init__(self, attempt: Any, family: Any, opposite: Proof | None = None) -> None:  # certify.proving.single.Attempt, a solver.games.game.Game
        self.attempt = attempt
        self.family = family
        self.opposite = opposite

    @property
    def status(self) -> str:
        """'proved', 'disproved', or why the search stopped (a budget)."""
        return self.attempt.outcome.status

    @property
    def proved(self) -> bool:
        """Whether the claim is proved (and `certificate` holds its proof)."""
        return self.attempt.certificate is not None

    @property
    def certificate(self):  # certify.record.schema.StrategyCertificate | None
        """The strategy certificate, if proved."""
        return self.attempt.certificate

    @property
    def positions(self) -> int | None:
        """Distinct positions the proof tree visits, if proved."""
        return None if self.attempt.tree is None else self.attempt.tree.positions

    @property
    def text(self) -> str | None:
        """The certificate file's exact text, if proved."""
        return self.attempt.text

    def save(self, path: str | Path, force: bool = False) -> Path:
        """Write the certificate file (atomically) and return its path; CertifyError if not proved. An
        existing file is replaced only if it is a proof of this game from the same position, or with
        `force` (as `certify prove` does)."""
        from certify.files import check_proof_output, write_atomic

        if self.text is None:
            raise CertifyError(f"nothing to save: the search ended {self.status}")
        with bad_input():
            check_proof_output(Path(path), self.family.rules.sha256(), self.attempt.certificate.claim.root, force)
            write_atomic(Path(path), self.text)
        return Path(path)

    def __repr__(self) -> str:
        claim = self.attempt.claim
        what = "wins" if claim.result == "win" else "does not lose"
        opposite = "" if self.opposite is None else f"; the opposite: {self.opposite.status}{self.opposite._size()}"
        return f"<Proof {self.family.rules.name}: player {claim.player} {what}: {self.status}{self._size()}{opposite}>"

    def _size(self) -> str:
        return f", {self.positions:,} positions" if self.positions is not None else ""

    def _repr_svg_(self) -> str:
        from certify.render.svg import board_svg

        root = self.attempt.root
        text = self.family.format_position(self.family.initial()) if root is None else root
        rows = text.split(" ")[0].split("/")
        cells = [".XO".index(c) for row in rows for c in row]
        return board_svg(cells, len(rows), len(rows[0]))
