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
from certify.position import Position, Value, ValuedMove, quoted, require_player
from certify.record.positions import CertifiedGame
from certify.record.schema import Certificate
from solver.games.game import GameRules
from solver.games.positional.engine import Move
from solver.games.positional.rules import Rules

__all__ = ["Audit", "CertifyError", "Certified", "PairingResult", "Position", "Proof", "Value", "ValuedMove", "Verdict",
           "audit_claims", "check", "game", "load", "pairing", "prove", "solve", "start"]


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


def require_text(what: str, value: object, example: str) -> str:
    """`value` if it is a non-empty string; else CertifyError naming `what` and an example."""
    if not isinstance(value, str) or not value.strip():
        raise CertifyError(f"{what} {quoted(value)}: expected {example}")
    return value


def require_path(what: str, value: object) -> Path:
    """`value` as a Path if it is a non-empty string or a path; else CertifyError."""
    if isinstance(value, Path):
        return value
    return Path(require_text(what, value, "a file name"))


def require_budget(what: str, value: object, whole: bool) -> None:
    """A budget is None (none) or a positive number (a whole one if `whole`), as the CLI's `--max-*` options."""
    kinds = (int,) if whole else (int, float)
    if value is not None and (type(value) not in kinds or not value > 0):
        raise CertifyError(f"{what} {quoted(value)}: expected a {'whole ' if whole else ''}number above 0, or None for no limit")


GAME_EXAMPLE = "a game name like 'tictactoe', 'mnk:4,4,3', 'uttt' or a spec file's name"
POSITION_EXAMPLE = "a position in the family's notation, as certify show prints it"


def family_game(text: str | GameRules) -> Any:
    """The game (solver/games/game.py) named by `text` or stated by rules; CertifyError if none."""
    from solver.games.families import game_from_rules, resolve_game

    if isinstance(text, GameRules) and not isinstance(text, str):
        with bad_input():
            return game_from_rules(text.canonical())
    with bad_input():
        return resolve_game(require_text("game", text, GAME_EXAMPLE))


def game(text: str | GameRules) -> Any:  # Rules for positional games, UtttRules for Ultimate tic-tac-toe
    """The rules named by `text`: a built-in name, `mnk:R,C,K[,wild][,misere]`, a spec file, `uttt`
    or `uttt:open`.

    Raises CertifyError with one line when `text` names no game.
    """
    return family_game(text).rules


def solve(text: str | Rules) -> Certified:
    """Solve the game exhaustively and certify it: every reachable state labelled (boards up to 4×4)."""
    from certify.pipeline import solve_and_certify
    from solver.games.positional.rules import require_table_size

    rules = game(text)
    if not isinstance(rules, Rules):
        raise CertifyError(f"{rules.name}: the table solver solves positional games; prove() searches any family")
    with bad_input():
        require_table_size(rules)
    name = text if isinstance(text, str) else rules.name
    return Certified(solve_and_certify(rules, name).certificate)


def prove(
    text: str | GameRules,
    player: int,
    claim: str = "win",
    position: str | None = None,
    max_nodes: int | None = 1_000_000,
    max_memory: float | None = None,
    *,
    within: int | None = None,
    first_move: str | None = None,
    pairings: bool = False,
    threads: int = 1,
    images: bool = False,
    blocks: bool = False,
    estimate: bool = False,
) -> Proof:
    """Prove by proof-number search that `player` wins (`claim="win"`) or does not lose (`"no-loss"`).

    Works for every family (`"uttt"` too) and boards past the table solver's 4×4; `position` is a
    position in the family's notation, as `certify show` prints it (None: the start). The search
    stops after `max_nodes` nodes or at `max_memory` MB of resident memory (each None: no limit).
    `within`, `first_move`, `pairings`, `threads`, `images`, `blocks` and `estimate` are `certify
    prove`'s `--within N` (a bounded claim), `--first-move MOVE` (the prover's first move fixed),
    `--pairings` (pairing closures), `--threads N`, `--images` (positions named as symmetric images
    of others), `--blocks` (only the blocks listed where the prover has a line to complete) and
    `--estimate` (unseen positions start from the family's first numbers, not 1/1). As
    `certify prove` does, a disproved claim has its opposite searched with the same budget
    (`Proof.opposite`; not after a fixed first move, whose refutation certifies
    nothing), and the certificate records the `certify prove` command of the same words, so that
    `Proof.save` writes that command's file byte for byte.
    """
    from certify.proving.single import (FirstMoveError, blocking_replies, image_symmetries, prove_claim, prove_command,
                                        prove_options, require_estimate, require_pairings)
    from solver.search.pns import Claim

    family = family_game(text)
    if claim not in ("win", "no-loss"):
        raise CertifyError(f"claim {quoted(claim)}: must be 'win' or 'no-loss'")
    require_budget("max_nodes", max_nodes, whole=True)
    require_budget("max_memory", max_memory, whole=False)
    require_budget("within", within, whole=True)
    if not isinstance(threads, int) or isinstance(threads, bool) or not 1 <= threads <= 64:
        raise CertifyError(f"threads {quoted(threads)}: expected a whole number from 1 to 64")
    target = Claim(require_player(player), claim, within)  # type: ignore[arg-type]
    with bad_input():
        if position is not None:
            position = family.format_position(family.parse_position(require_text("position", position, POSITION_EXAMPLE)))
        if first_move is not None:
            first_move = family.format_move(family.parse_move(require_text("first_move", first_move, "a move like 'X4'")))
        if pairings:
            require_pairings(family)
        if images:
            image_symmetries(family)
        if blocks:
            blocking_replies(family, 1)
        if estimate:
            require_estimate(family)
    name = game_name(text, family)  # no command is recorded for rules no name states: none writes the file again
    command = "" if name is None else prove_command(name, target, prove_options(within, position, first_move, pairings=pairings,
                                                                                      threads=threads, images=images,
                                                                                      blocks=blocks, estimate=estimate))
    settings: dict[str, Any] = dict(max_nodes=max_nodes, max_memory_mb=max_memory, pairings=pairings, threads=threads, command=command,
                                    images=images, blocks=blocks, estimate=estimate)
    with bad_input():
        try:
            attempt, opposite = prove_claim(family, target, position, first_move, **settings)
        except FirstMoveError as err:
            raise CertifyError(f"first_move: {err}") from None
    return Proof(attempt, family, None if opposite is None else Proof(opposite, family))


def pairing(text: str | Rules, player: int, position: str | None = None, timeout: float = 120.0) -> PairingResult:
    """Search a pairing that proves `player` does not lose (`certify pairing search`): disjoint pairs
    of empty cells such that every line open to the opponent holds one, after a first move of
    `player` when no pairing alone works and `player` is to move. Counting first, then Z3, for at
    most `timeout` seconds in all. A found pairing's certificate is checked by the independent
    checker before it is returned; its text is the command's file, byte for byte.

    Raises CertifyError for a game a pairing proves nothing about (not own marks, or a goal other
    than first-line-wins or most-lines), a board past 64 cells, or a bad position.
    """
    from certify.smt.pairing_certificate import search_command_line, search_pairing

    rules = game(text)
    target = require_player(player)
    if not isinstance(rules, Rules):
        raise CertifyError(f"{rules.name}: a pairing blocks the lines of a positional game; Ultimate tic-tac-toe has none")
    if type(timeout) not in (int, float) or not timeout > 0:
        raise CertifyError(f"timeout {quoted(timeout)}: expected a number of seconds above 0")
    if position is not None:
        require_text("position", position, POSITION_EXAMPLE)
    name = text if isinstance(text, str) else rules.name
    with bad_input():
        return PairingResult(search_pairing(rules, target, position, float(timeout), search_command_line(name, target, position)))


def game_name(text: str | GameRules, family: Any) -> str | None:
    """How a recorded command names the game: as given, or, for rules given as a value, by the name
    that states them again (a built-in's, `mnk:...`); None when no name does (a spec file's rules)."""
    if isinstance(text, str):
        return text
    name = family.rules.name
    try:
        return name if family_game(name).rules.sha256() == family.rules.sha256() else None
    except CertifyError:
        return None


def start(game: str | GameRules, moves: str | list[Any] = "", certificate: Certified | Proof | str | Path | None = None,
          position: str | None = None) -> Position:
    """The position after `moves` from the start of any family's game (or from `position`, in the
    family's notation as `certify show` prints it), to play through with `play` and `undo`.

    With `certificate` (a `Certified` game, a `Proof`, or a certificate file of kind table or
    strategy about the same rules), moves carry its certified values; elsewhere `move_values`
    searches. Raises CertifyError with one line at a game, move, position or certificate that is wrong.
    """
    family = family_game(game)
    root = family.initial()
    if position is not None:
        with bad_input():
            root = family.parse_position(require_text("position", position, POSITION_EXAMPLE))
    knowledge = None if certificate is None else knowledge_of(certificate, family)
    return Position(family, root, knowledge).play(require_moves(moves))


def require_moves(moves: object) -> Any:
    """`moves` if it is a string or a list or tuple of moves; else CertifyError."""
    if not isinstance(moves, (str, list, tuple)):
        raise CertifyError(f"moves {quoted(moves)}: expected a string of moves like 'X4,O1' or a list of them")
    return moves


def knowledge_of(certificate: object, family: Any) -> Any:
    """What `certificate` (Certified, Proof or a certificate file) knows of `family`'s positions; CertifyError
    if it says nothing of values."""
    from certify.position import StrategyKnowledge, TableKnowledge

    if isinstance(certificate, Proof):
        found = certificate.certificate or (certificate.opposite.certificate if certificate.opposite else None)
        if found is None:
            raise CertifyError(f"the proof holds no certificate: the search ended {certificate.status}")
        made: Any = StrategyKnowledge(found, family)
    elif isinstance(certificate, Certified):
        made = TableKnowledge(certificate._labels)
    else:
        from certify.record.certificate import read_any_certificate

        path = require_path("certificate", certificate)
        with bad_input():
            read = read_any_certificate(path)
            if read.kind == "table":
                made = TableKnowledge(CertifiedGame(read))  # type: ignore[arg-type]
            elif read.kind == "strategy":
                made = StrategyKnowledge(read, family)
            else:
                raise CertifyError(f"{path}: a certificate of kind {read.kind!r}: only table and strategy certificates value moves")
    return made  # Position refuses it if it is about other rules


def load(path: str | Path) -> Certified:
    """Read a table certificate file (schema-validated; `check` runs the independent checker)."""
    from certify.record.certificate import read_certificate

    with bad_input():
        return Certified(read_certificate(require_path("path", path)))


@dataclass(frozen=True)
class Verdict:
    """The independent checker's verdict on a certificate."""

    valid: bool
    message: str  # the checker's one line: VALID … or INVALID … or ERROR …

    def __bool__(self) -> bool:
        return self.valid

    def __str__(self) -> str:
        return self.message


def check(certificate: Certified | Proof | PairingResult | str | Path) -> Verdict:
    """Run the independent checker (`checker/`, which shares no code with the solver).

    A verdict is VALID or INVALID; a file that is not a certificate at all (the checker's ERROR,
    `certify check`'s exit 2) raises CertifyError.
    """
    import checker

    if isinstance(certificate, (Certified, Proof, PairingResult)):
        if certificate.text is None:
            raise CertifyError("nothing to check: " + ("no pairing was found" if isinstance(certificate, PairingResult) else "the claim was not proved") + (
                " (its opposite is: check proof.opposite)" if isinstance(certificate, Proof) and certificate.opposite else ""))
        result = checker.check_bytes(certificate.text.encode())
    else:
        result = checker.check_file(str(require_path("certificate", certificate)))
    if result.exit_code not in (0, 1):
        raise CertifyError(result.message.removeprefix("ERROR: "))
    return Verdict(result.exit_code == 0, result.message)


def audit_claims(claims: str | Path, published: str | Path = "certificates") -> Audit:
    """Evaluate a claims file (docs/claims-format.md); each result has `.id`, `.verdict` (its primary
    reading's, or ambiguous), `.primary` and `.readings` (the primary first).

    `published` is the directory of published certificates some claims refer to. (Not named
    `claims`: `certify.claims` is the package that does the work.)
    """
    from certify.claims.facts import Bench
    from certify.claims.run import audit_file

    where, folder = require_path("claims", claims), require_path("published", published)
    with bad_input():
        return Audit(audit_file(where, Bench(published_dir=folder)))


class Audit:
    """The audit of one claims file: `.results` (each claim's verdict and evidence), `.path`,
    `.claims` (the file as read), `.as_dict()` (its JSON form, as `certify audit --json` prints it)."""

    def __init__(self, audit: Any) -> None:
        from certify.claims.run import FileAudit

        if not isinstance(audit, FileAudit):
            raise CertifyError(f"audit {quoted(audit)}: expected a claims file's audit (certify.audit_claims makes one)")
        self._audit = audit
        self.path: Path = audit.path
        self.claims = audit.claims
        self.results: list[Any] = audit.results  # certify.claims.result.ClaimResult

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready form."""
        return self._audit.as_dict()

    def __repr__(self) -> str:
        counts: dict[str, int] = {}
        for result in self.results:
            counts[result.verdict] = counts.get(result.verdict, 0) + 1
        tally = ", ".join(f"{count} {verdict}" for verdict, count in sorted(counts.items()))
        return f"<Audit {self.path.as_posix()}: {len(self.results)} claims: {tally}>"

    def __str__(self) -> str:
        """One line a claim: its id, game and verdict."""
        return "\n".join(f"{r.id}  {r.game}  {r.verdict}" for r in self.results)


class Certified:
    """A certified game: its certificate and the certified value of every position."""

    def __init__(self, certificate: Certificate) -> None:
        if not isinstance(certificate, Certificate):
            raise CertifyError(f"certificate {quoted(certificate)}: expected a table certificate (certify.load reads one)")
        self.certificate = certificate
        with bad_input():
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
            write_atomic(require_path("path", path), self.text, certificate_mark("table", self.rules.sha256()), force)
        return Path(path)

    def position(self, moves: str | list[Any] = "") -> Position:
        """The position after `moves` from the empty board (e.g. `"X4,O0"` or `["X4", "O0"]`), every
        move valued by the certificate.

        Raises CertifyError at the first move that does not parse or is illegal.
        """
        from certify.position import TableKnowledge

        return Position(self._labels.game, self._labels.game.initial(), TableKnowledge(self._labels)).play(require_moves(moves))

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


class Proof:
    """The outcome of a proof search; when proved, its strategy certificate. When disproved, the
    search for the opposite claim (`opposite`), whose certificate proves the disproof."""

    def __init__(self, attempt: Any, family: Any, opposite: Proof | None = None) -> None:
        """A search's `Attempt` (certify/proving/single.py) on `family` (solver/games/game.py); certify.prove makes them."""
        from certify.proving.single import Attempt
        from solver.games.game import Game

        for name, value, kind in (("attempt", attempt, Attempt), ("family", family, Game), ("opposite", opposite, (Proof, type(None)))):
            if not isinstance(value, kind):
                raise CertifyError(f"{name} {quoted(value)}: not what a Proof is made of (certify.prove makes one)")
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
            check_proof_output(require_path("path", path), self.family.rules.sha256(), self.attempt.certificate.claim.root, force)
            write_atomic(Path(path), self.text)
        return Path(path)

    def __repr__(self) -> str:
        opposite = "" if self.opposite is None else f"; the opposite: {self.opposite.status}{self.opposite._size()}"
        return f"<Proof {self.family.rules.name}: {self.attempt.claim.words()}: {self.status}{self._size()}{opposite}>"

    def _size(self) -> str:
        return f", {self.positions:,} positions" if self.positions is not None else ""

    def position(self, moves: str | list[Any] = "") -> Position:
        """The position after `moves` from the searched position, valued by the certificate where its
        strategy reaches (this proof's, or the opposite claim's when that one was proved)."""
        return Position(self.family, self._root(), self._knowledge).play(require_moves(moves))

    @cached_property
    def _knowledge(self) -> Any:
        """What the certificate knows, read once (replaying a large strategy takes seconds)."""
        return knowledge_of(self, self.family) if self.proved or (self.opposite and self.opposite.proved) else None

    def _root(self) -> Any:
        return self.family.initial() if self.attempt.root is None else self.family.parse_position(self.attempt.root)

    def _repr_svg_(self) -> str:
        """The searched position's board (without values: drawing a proof never replays its strategy)."""
        return Position(self.family, self._root())._repr_svg_()


class PairingResult:
    """The outcome of a pairing search (certify.pairing makes one): `status` ('found', 'none' or
    'unknown'), `reason`, and when found the `pairs`, the `first_move` (a cell, or None), the
    certificate's `text` and the independent checker's `verdict`; printed, the board with each
    pair's cells marked by one letter and the first move by `*`."""

    def __init__(self, search: Any) -> None:
        from certify.smt.pairing_certificate import PairingSearch

        if not isinstance(search, PairingSearch):
            raise CertifyError(f"search {quoted(search)}: not a pairing search (certify.pairing makes one)")
        self._search = search
        self.rules: Rules = search.rules
        self.player: int = search.player
        self.position: str | None = search.root

    @property
    def status(self) -> str:
        """'found'; 'none' (counting or Z3's unsat shows none exists); 'unknown' (out of time)."""
        return self._search.cover.status

    @property
    def found(self) -> bool:
        """Whether a pairing was found (and `text` holds its certificate)."""
        return self._search.certificate is not None

    @property
    def reason(self) -> str:
        """How the search decided, in words: the counting bound, or Z3's answer."""
        return self._search.cover.reason

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """The pairs of cells, smaller cell first, in order (empty if none was found)."""
        pairing = self._search.cover.pairing
        return [] if pairing is None else sorted((min(pair), max(pair)) for pair in pairing.pairs)

    @property
    def first_move(self) -> int | None:
        """The cell of the player's first move, if the pairing needs one."""
        return self._search.cover.first_move

    @property
    def text(self) -> str | None:
        """The certificate file's exact text, if found."""
        return self._search.text

    @property
    def verdict(self) -> str | None:
        """The independent checker's line on the certificate, if found."""
        return self._search.verdict

    def save(self, path: str | Path, force: bool = False) -> Path:
        """Write the certificate file (atomically) and return its path; CertifyError if none was found.
        An existing file is replaced only if it is a certify certificate, or with `force` (as `certify
        pairing search` does)."""
        from certify.files import CERTIFICATE_MARK, check_output, write_atomic

        if self.text is None:
            raise CertifyError(f"nothing to save: no pairing found ({self.status})")
        where = require_path("path", path)
        with bad_input():
            check_output(where, CERTIFICATE_MARK, force)
            write_atomic(where, self.text)
        return where

    def __repr__(self) -> str:
        where = "" if self.position is None else f" from {self.position}"
        if not self.found:
            return f"<PairingResult {self.rules.name!r}{where}: player {self.player}: {self.status}>"
        first = "no first move" if self.first_move is None else f"first move on cell {self.first_move}"
        return f"<PairingResult {self.rules.name!r}{where}: player {self.player} does not lose: {len(self.pairs)} pairs, {first}>"

    def __str__(self) -> str:
        return self._search.drawing() if self.found else f"no pairing ({self.status}): {self.reason}"
