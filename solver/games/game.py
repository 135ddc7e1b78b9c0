"""The game interface every search uses, OpenSpiel style: a game is a value, a state is a value.

A family (positional games in solver/games/positional/engine.py, Ultimate tic-tac-toe in
solver/games/uttt/engine.py) implements `Game`; algorithms (proof-number search, certificate
writers) use nothing else, so they never special-case a family. Family knowledge a search may
use — move ordering, pruning of moves that cannot help — comes from the family's own
`SearchHooks` object. A family may also offer `symmetries()`: (state map, move map) pairs, the
identity first, each mapping every position to one of the same value and its moves to the image's
(Ultimate tic-tac-toe's grid symmetries); a proof repair shares its sub-results among images.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

S = TypeVar("S")
M = TypeVar("M")


@runtime_checkable
class GameRules(Protocol):
    """The statement of a game: an immutable value whose canonical form certificates embed."""

    name: str

    def canonical(self) -> dict[str, Any]:
        """The rules as a JSON-ready dict (the form certificates embed)."""
        ...

    def sha256(self) -> str:
        """Hex sha256 of the canonical JSON: the identity of the game."""
        ...

    def describe(self) -> str:
        """The game in words: board, lines, marks, goal."""
        ...


@runtime_checkable
class Game(Protocol[S, M]):
    """A two-player, perfect-information, finite game without chance.

    Player 1 moves first. States are immutable values; `legal_moves` lists the moves in one
    canonical, deterministic order (certificates index into it) and is empty exactly when the
    state is terminal.
    """

    rules: GameRules

    def initial(self) -> S:
        """The starting position."""
        ...

    def to_move(self, state: S) -> int:
        """The player (1 or 2) to move."""
        ...

    def legal_moves(self, state: S) -> list[M]:
        """Every legal move, in canonical order; empty iff terminal."""
        ...

    def apply(self, state: S, move: M) -> S:
        """The state after `move` (raises ValueError if it is illegal)."""
        ...

    def is_terminal(self, state: S) -> bool:
        """Whether play has ended."""
        ...

    def returns(self, state: S) -> tuple[int, int]:
        """(player 1, player 2) results of a terminal state, each -1, 0 or 1."""
        ...

    def key(self, state: S) -> Hashable:
        """A hashable identity: equal keys for equal states (transposition tables use it)."""
        ...

    def format_position(self, state: S) -> str:
        """The state in the family's notation."""
        ...

    def parse_position(self, text: str) -> S:
        """Inverse of format_position; raises ValueError with one line naming the problem."""
        ...

    def format_move(self, move: M) -> str:
        """The move in the family's notation."""
        ...

    def parse_move(self, text: str) -> M:
        """Inverse of format_move; raises ValueError."""
        ...

    def search_hooks(self) -> SearchHooks[S, M]:
        """The family's move ordering and pruning for proof search."""
        ...


class SearchHooks(Protocol[S, M]):
    """Family knowledge for proof search: which moves to try, best first.

    `candidates(state, moves, prover_moves)` gets the legal moves of a non-terminal state and
    returns the ones to search, best first. When the opponent of the prover moves, it must return
    all of them (a proof covers every reply). When the prover moves it may leave out moves only if
    they cannot prove the claim (for instance, ignoring an immediate threat loses), so a disproof
    found over the rest is still a disproof.
    """

    def candidates(self, state: S, moves: Sequence[M], prover_moves: bool, prover: int) -> list[M]:
        """The moves to search in `state`, best first."""
        ...

    def table_key(self, state: S) -> Hashable:
        """Optional. The table key: equal for positions every claim values alike (symmetric images).

        Without it the search uses `game.key`.
        """
        ...

    def estimate(self, state: S, prover: int, result: str, plies_left: int | None) -> tuple[int, int] | None:
        """Optional. The proof and disproof numbers a position the search has not seen starts from
        (None: 1 and 1), for the claim `result` of `prover` with `plies_left` plies left before its
        bound (None: unbounded). Only the search's choices depend on them; as the compiled
        kernel's `estimate` (solver/search/dfpn.h), which must agree for the node counts to. Hooks
        with one answer only when their `estimating` is set (`certify prove --estimate`)."""
        ...


class NoHooks:
    """Search every legal move in canonical order, one table entry per position (`game.key`)."""

    def candidates(self, state: object, moves: Sequence[Any], prover_moves: bool, prover: int) -> list[Any]:
        """All moves, as given."""
        return list(moves)


def hooks_for_claim(hooks: Any, result: str, within: int | None, root: Any) -> Any:
    """`hooks` set up for the claim (`result` "win" or "no-loss", `within` plies or None) searched
    from `root`, as every search of one claim sets them up (serial, threads, workers): the hooks'
    own `for_claim` where they have one (uttt: table keys under the root's symmetries, a win claim's
    bound pruning by the count), and no threat space for a bounded claim (a forced win past the
    bound wins no bounded claim: solver/games/positional/hooks.py)."""
    if hasattr(hooks, "for_claim"):
        hooks = hooks.for_claim(result, within, root)
    if within is not None and getattr(hooks, "threat_space", False):
        hooks.threat_space = False
    return hooks


def result_for(game: Game[Any, Any], state: Any, player: int) -> int:
    """The result (-1, 0, 1) of terminal `state` for `player`."""
    return game.returns(state)[player - 1]
